"""Reading one order line as a player types it by mail.

Players write orders in many dialects: full names or abbreviations, `-`, `->` or `to`, `S`/`supports`,
`C`/`convoys`, coasts as `/sc`, `(sc)` or ` sc`, DATC/jDip style or njudge style. The reader tokenises
the line, matches place names greedily (longest name first, so "North Sea" and "Mid-Atlantic Ocean" work),
and then reads the order by keyword. Anything it cannot read raises `OrderSyntaxError` with the line quoted
and what was expected, which is what the player sees in the reply.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from judge.board.model import Board, normalise_name, province_of
from judge.engine.orders import Order, OrderKind, UnitRef, Verb
from judge.engine.units import ARMY, FLEET, Composition
from judge.notation.quoting import shorten
from judge.value import Record, replace

EXAMPLES = '"F nth - nwy", "A bud S A gal - bud", "F nth C A lon - bel", "A par H"'
ADJUSTMENT_EXAMPLES = '"Build F stp/nc", "Build A par", "Remove A par", "Waive"'


class OrderSyntaxError(ValueError):
    """An order line that cannot be read; the message quotes it and says what was expected."""

    def __init__(self, line: str, why: str) -> None:
        self.line = line
        self.why = why
        super().__init__(f'"{line.strip()}": {why}')


class StackParts(OrderSyntaxError):
    """A support naming several units of a stack joined by `&` ("F Ion sup 1 A & 1 F Tun"). A unit supports one
    unit, so this is either one support from each supporting unit (where as many units support as are named,
    numbered: "2 F Wes sup 1 A & 1 F Naf", Multiplomacy rule 7's example) or a question; never one support of a
    fused A/F. `judge.notation.lines` makes the supports; the reader alone refuses, naming both readings."""

    def __init__(self, line: str, supporter: UnitRef, parts: list[UnitRef], destination: str | None) -> None:
        self.supporter = supporter
        self.parts = parts
        self.destination = destination
        where = parts[0].location
        goes = f" - {destination}" if destination else ""
        named = " & ".join(f"{p.count} {p.composition}" for p in parts)
        each = ", ".join(f"'{p.count} {_unit_text(supporter)} S {_part_text(p)}{goes}'" for p in parts)
        wanted = sum(p.count or 1 for p in parts)
        have = supporter.count or 1
        one = _unit_text(supporter)
        super().__init__(
            line,
            f"{'one unit' if have == 1 else f'{have} units'} ({one}) {'supports' if have == 1 else 'support'} "
            f"{named} {where}, {wanted} units, and a unit supports one unit: for one support from each, number as "
            f"many supporting units ('{wanted} {one} S {named} {where}{goes}') or write a line for each ({each}); "
            f"or support one of them ('{one} S {_part_text(parts[0])}{goes}')",
        )


def _unit_text(unit: UnitRef) -> str:
    """A unit as the refusal names it, without its number: "F ion"."""
    return f"{unit.composition or ''} {unit.location}".strip()


def _part_text(part: UnitRef) -> str:
    return f"{part.count} {part.composition} {part.location}" if (part.count or 1) > 1 else _unit_text(part)


# The reader's words are `Final`: compiled, a final module constant is read from a C static, not looked up in
# the module's dict at every use (the reader asks about these words a few dozen times a line).
HOLD_WORDS: Final = frozenset({"h", "hold", "holds", "hld", "stand", "stands", "st", "nothing"})
SUPPORT_WORDS: Final = frozenset({"s", "sup", "sups", "supp", "support", "supports", "sp", "sup.", "supported"})
CONVOY_WORDS: Final = frozenset(
    {"c", "convoy", "convoys", "cvy", "conv", "convoying", "convoyed", "cto", "transport", "transports"}
)
RETREAT_WORDS: Final = frozenset({"r", "retreat", "retreats"})
MOVE_WORDS: Final = (
    frozenset({"-", ":", "to", "m", "move", "moves", "moving", "attack", "attacks", "into"}) | RETREAT_WORDS
)
"""words for "goes to"; `:` is a colon between two places ("A Vie : Bud"), the only colon `_tokenise` keeps"""
DISBAND_WORDS: Final = frozenset({"d", "disband", "disbands", "disbanded", "destroy"})
REMOVE_WORDS: Final = frozenset({"remove", "removes", "removal"})
BUILD_WORDS: Final = frozenset({"b", "build", "builds", "add"})
WAIVE_WORDS: Final = frozenset({"waive", "waives", "waived", "waiver", "w", "pass"})
VIA_WORDS: Final = frozenset({"via", "by"})
MERGE_WORDS: Final = frozenset({"merge", "merges", "merging", "m"})
SPLIT_WORDS: Final = frozenset({"split", "splits", "divide", "divides", "division"})
JOIN_WORDS: Final = frozenset({"+", "&", "and"})
CENTRE_WORDS: Final = frozenset({"centre", "center", "sc", "s.c", "supply", "centres", "centers"})
"""what may stand between a placement's verb and its place ("Place a supply centre in Bur")"""
FILLER_WORDS: Final = frozenset({"the", "of", "at", "in", "from", "unit", "army's", "fleet's", "'s"})
KEYWORDS: Final[frozenset[str]] = frozenset().union(
    HOLD_WORDS, SUPPORT_WORDS, CONVOY_WORDS, MOVE_WORDS, DISBAND_WORDS, REMOVE_WORDS, BUILD_WORDS, WAIVE_WORDS,
    VIA_WORDS, MERGE_WORDS, SPLIT_WORDS, JOIN_WORDS, {"="},
)  # fmt: skip
ARTICLES: Final = frozenset({"the", "a", "an"})
# No many-word name ends with these, and joining them on would make another name: "Marseille S" is not
# "Marseilles", "ruh R kie" is a retreat from Ruhr, "wme D" disbands the fleet in the Western Med.
NOT_LAST: Final = KEYWORDS | FILLER_WORDS | ARTICLES | {"-"}  # and unit words and single letters
COAST_WORDS: Final = {
    "nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc",
    "north": "nc", "south": "sc", "east": "ec", "west": "wc",
    "n": "nc", "s": "sc", "e": "ec", "w": "wc",
    "northern": "nc", "southern": "sc", "eastern": "ec", "western": "wc",
}  # fmt: skip
FULL_UNIT_WORDS: Final = frozenset({"army", "fleet", "garrison"})
UNIT_WORDS: Final = {
    "a": "A", "army": "A", "armies": "A", "aa": "A", "a's": "A",
    "f": "F", "fleet": "F", "fleets": "F", "ff": "F", "f's": "F",
    "g": "G", "garrison": "G", "garrisons": "G",
}  # fmt: skip

_ARROWS = re.compile(r"\s*(?:->|=>|→|—|–|>)\s*")
# A coast written with the place: "spa/nc", "spa(nc)", "Spain (north coast)", "stp/s", "bul.ec", "spa (n.c.)".
# It becomes a token of its own ("/nc") that the place reader attaches to the name before it, so full names
# work too ("St. Petersburg (sc)") and whatever follows stays a separate word ("F stp/nc build").
_SHORT_COAST = r"[nsew](?:\.?c\b\.?)?(?![a-z])"
_LONG_COAST = r"(?:north|south|east|west)(?![a-z])"
_COAST_MARK = re.compile(
    rf"\s*(?:\(\s*({_SHORT_COAST}|{_LONG_COAST})\s*(?:coast\s*)?\)"
    rf"|/\s*({_SHORT_COAST}|{_LONG_COAST})(?:\s*coast\b)?"
    rf"|\.(?=[nsew]\.?c\b)({_SHORT_COAST}))",
    re.IGNORECASE,
)
_PARENS = re.compile(r"[()\[\]]")
_JOINERS = re.compile(r"([+&=])")
_COMPOSITION = re.compile(r"^(?:[0-9]*[afg])(?:/[0-9]*[afg])*$")
_COUNT = re.compile(r"^[0-9]+$")
_TOKEN = re.compile(r"\d+:[^\s,;:]+|[^\s,;:]+|(?<!\d):")
"""words; a board-qualified place (`3:par`, on a board of several maps) is one word, its colon kept; any other
colon is a word of its own"""
_LOOSE_COLON = re.compile(r"(?<!\d):")
"""a colon that is no board prefix (`3:par`): "A Vie: Bud", "England: A Par", "M: A/F(Pic)" """
_ROUTE_JOINS: Final = frozenset({"-", "and", "&", "+"})
"""between the seas of a named route: "via Nwg-Bar", "via Nwg and Bar" (commas are no words)"""
_ORDER_WORDS: Final = KEYWORDS - {":"}
"""after a colon that follows the unit, the word that says what the order is"""
_BEFORE_COLON: Final = frozenset(UNIT_WORDS) | CENTRE_WORDS | {"-", ":"}
"""words after which a colon says nothing: "M: A/F(Pic)", "Build: A Par" (with the reader's own words)"""
_PRIORITY = re.compile(r"^\s*(?:#\s*(\d+)|\(?(\d+)[.)])\s+(?=[^\d\s])")
"""a number the player put before an order to rank it: "1.", "2)", "(1)", "#1" (not "2 A ...", a count)"""
_BOARD_PREFIX = re.compile(r"\b(\d+)\s*:\s*(?=[a-z])", re.IGNORECASE)


class _Cursor(Record):
    """Where the reader is in a line's words."""

    tokens: list[str]
    pos: int

    names = ("tokens", "pos")

    def __init__(self, tokens: list[str], pos: int = 0) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        self.tokens = tokens
        self.pos = pos

    def peek(self, ahead: int = 0) -> str | None:
        i = self.pos + ahead
        return self.tokens[i] if i < len(self.tokens) else None

    def take(self) -> str:
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    @property
    def done(self) -> bool:
        return self.pos >= len(self.tokens)


def _coast_code(word: str) -> str:
    """`nc`, `n`, `n.c.`, `north` -> `nc`."""
    return COAST_WORDS[word.replace(".", "").lower()]


def _name_word(token: str) -> bool:
    """Whether a token can be part of a many-word place name: "-" (as in "mid-atlantic") or a real word,
    not a coast ("/nc") nor punctuation, which the name key would silently drop ("par ! H")."""
    return token == "-" or (not token.startswith("/") and bool(normalise_name(token)))


def _is_count(token: str) -> bool:
    """Whether a token is a number of units ("2 A bur"); the regex only for a token that starts with a digit."""
    return token[:1].isdigit() and _COUNT.match(token) is not None


def _can_end_name(token: str) -> bool:
    return len(token) > 1 and token not in NOT_LAST and token not in UNIT_WORDS


def _tokenise(line: str) -> list[str]:
    text = line.strip()
    # Each rewrite runs only where its pattern could match: most lines have no arrow, coast mark, bracket or
    # joiner, and a regex pass costs more than these few tests (written out: a loop over a string of characters
    # makes a string of each, and the three non-ASCII arrows are asked for only in a line that is not ASCII).
    if ">" in text or (not text.isascii() and ("→" in text or "—" in text or "–" in text)):
        text = _ARROWS.sub(" - ", text)
    if ":" in text:
        text = _BOARD_PREFIX.sub(r"\1:", text)  # "3: par" -> "3:par"
        text = _LOOSE_COLON.sub(" : ", text)
    if "(" in text or "/" in text or "." in text:
        text = _COAST_MARK.sub(lambda m: f" /{_coast_code(next(g for g in m.groups() if g))} ", text)
    if "(" in text or ")" in text or "[" in text or "]" in text:
        text = _PARENS.sub(" ", text)
    if "+" in text or "&" in text or "=" in text:
        text = _JOINERS.sub(r" \1 ", text)  # "F(Bre)+A(Par)M:" and "MERGE = 3A Bur"
    text = text.lower()
    # Without a comma, semicolon or colon `_TOKEN` finds the runs of what is not whitespace, which is what
    # `str.split()` gives at a fraction of the cost (the regex's `\s` and `split`'s whitespace are the same
    # characters, Py_UNICODE_ISSPACE; tests/test_notation.py holds them to it).
    raws = _TOKEN.findall(text) if "," in text or ";" in text or ":" in text else text.split()
    tokens: list[str] = []
    colon = ":" in text
    for raw in raws:
        if colon and raw == ":":
            # a colon is kept after a word it can join to the next ("A Vie : Bud", "England : A Par"); first, or
            # after one of the reader's own words ("M: A/F(Pic)", "D:", "Build:"), it is punctuation. Last ("A
            # Vie:") it stays, and is refused: the order may go on in a line the reader never sees
            if tokens and tokens[-1] not in KEYWORDS and tokens[-1] not in _BEFORE_COLON:
                tokens.append(raw)
            continue
        if "." in raw:
            raw = raw.rstrip(".")
            if not raw:
                continue
        if raw == "-" or "-" not in raw:  # the common word: taken as it is
            tokens.append(raw)
            continue
        # split "nth-nwy" into nth - nwy, but keep names with hyphens ("mid-atlantic") for the matcher
        parts = raw.split("-")
        for i, part in enumerate(parts):
            if i:
                tokens.append("-")
            if part:
                tokens.append(part)
    return tokens


class OrderReader:
    """Reads order lines against one board."""

    def __init__(self, board: Board) -> None:
        self.board = board
        names = self._all_names()
        self.max_words = 1 + max(len(_tokenise(n)) for n in names)
        # the first word of a many-word name and how many words such names take ("north" -> 3)
        self.name_starts: dict[str, int] = {}
        for name in names:
            words = _tokenise(name)
            if len(words) > 1:
                self.name_starts[words[0]] = max(self.name_starts.get(words[0], 0), len(words))
        # a power by name, alias or adjective: "Russia", "RUS", "Russian"
        self.power_words: dict[str, str] = dict(board.power_names)
        for power in board.powers.values():
            self.power_words.setdefault(normalise_name(power.adjective), power.name)
        self.initials: dict[str, str] = {
            p.initial.lower(): p.name for p in board.powers.values() if len(p.initial) == 1
        }
        # names written with a hyphen ("Mid-Atlantic"): the only names a "-" may join; "swe-den" is a move from
        # Sweden to Denmark, never the name "Sweden" read across the hyphen
        self.hyphenated = frozenset(normalise_name(n) for n in names if "-" in n)
        # The name key of each word the reader asks about most: the map's name keys, the powers' names and the
        # reader's own words. A key is `normalise_name`'s answer, worked out here once: asked from compiled
        # code, the cached function still costs a Python-level call each time, a dict lookup a tenth of that.
        known = {*board.names, *self.power_words, *UNIT_WORDS, *KEYWORDS, *FILLER_WORDS, *ARTICLES, *COAST_WORDS}
        self.word_keys: dict[str, str] = {word: normalise_name(word) for word in known}
        # Every start of a name key ("b", "bu", "bud", ..., "budapest"), for `_place` to stop widening a window
        # once its key can no longer become a name.
        self.name_prefixes = frozenset(key[:end] for key in board.names for end in range(len(key) + 1))
        # "the" before a place ("moves to the English Channel") is read past, unless the map has a place of that
        # name (Hoplite Wars' Thebes)
        self.the_is_a_place = board.lookup("the") is not None

    def _all_names(self) -> list[str]:
        names = []
        for p in self.board.provinces.values():
            names.append(p.name)
            names.extend(p.aliases)
        return names or ["x"]

    # --- places ----------------------------------------------------------------------------------------

    def _place(self, cur: _Cursor, line: str, what: str) -> str:
        """Read a place name (longest match) with an optional coast; return the location id."""
        if cur.done:
            raise OrderSyntaxError(line, f"expected {what} at the end of the line")
        best = self._name_at(cur.tokens, cur.pos)
        if best is None and cur.tokens[cur.pos] == "the" and not self.the_is_a_place and cur.pos + 1 < len(cur.tokens):
            cur.pos += 1  # "moves to the English Channel" (asked only where no name starts with "the")
            best = self._name_at(cur.tokens, cur.pos)
        if best is None:
            best = self._fused_coast(cur.tokens[cur.pos])
        if best is None:
            token = cur.peek() or ""
            if token == "-":
                raise OrderSyntaxError(line, f"expected {what} before '-'")
            if token.startswith("/"):
                raise OrderSyntaxError(line, f"expected {what} before the coast {token[1:]!r}")
            unknown = self._unknown_name(cur)
            raise OrderSyntaxError(line, f"{unknown!r} is not a place on the {self.board.name} map; expected {what}")
        cur.pos += best[0]
        location = best[1]
        if "/" not in location:
            coast = self._coast(cur)
            if coast is not None:
                location = f"{location}/{coast}"
        if "/" in location:
            prov, _, coast = location.partition("/")
            if coast not in self.board.provinces[prov].coasts:
                # an unknown or irrelevant coast is ignored (DATC 4.B.6)
                location = prov
        return location

    def _name_at(self, tokens: list[str], pos: int) -> tuple[int, str] | None:
        """The longest place name starting at `tokens[pos]`: how many words it takes and the location it names."""
        # How wide a window could be read as a name. A window's key is its words' keys one after the other
        # (`normalise_name` drops the spaces and keeps every other character where it was), so once the words so
        # far make no start of a name key, no wider window is a name: "ven" may start "venice", "ven - alb" is
        # no name, and neither is anything wider. Only the widths left are tried, widest first, as they were
        # (tests/test_notation.py holds this to trying every width).
        widest = min(self.max_words, len(tokens) - pos)
        reach = 1
        joined = self._key(tokens[pos])
        while reach < widest:
            joined += self._key(tokens[pos + reach])
            if joined not in self.name_prefixes:
                break
            reach += 1
        for width in range(reach, 0, -1):
            words = tokens[pos : pos + width]
            if width > 1 and (words[0] == "-" or not _can_end_name(words[-1]) or not all(map(_name_word, words))):
                continue
            key = self._key(" ".join(words))
            if width > 1 and "-" in words and key not in self.hyphenated:
                continue
            found = self.board.names.get(key)
            if found is not None:
                return (width, found)
        return None

    def _fused_coast(self, token: str) -> tuple[int, str] | None:
        """A coast written into its province's name: "stpnc", "BULEC", "3:spasc" (asked only of a word that is no
        name: the province must have that coast, so no other name is read into it)."""
        coast = token[-2:]
        if len(token) < 4 or coast not in ("nc", "sc", "ec", "wc"):
            return None
        found = self._lookup(token[:-2])
        if found is None or "/" in found or coast not in self.board.provinces[found].coasts:
            return None
        return (1, f"{found}/{coast}")

    def _coast(self, cur: _Cursor) -> str | None:
        """A coast after a place name: "/nc" from the tokeniser, or a word ("stp nc", "spa north coast")."""
        nxt = cur.peek()
        if nxt is None:
            return None
        if nxt.startswith("/") and nxt[1:] in COAST_WORDS:
            cur.pos += 1
            return COAST_WORDS[nxt[1:]]
        after = cur.peek(1)
        if nxt == "-" and after in ("nc", "sc", "ec", "wc"):  # "spa-nc" (never "- western med")
            cur.pos += 2
            return COAST_WORDS[after]
        key = nxt.replace(".", "")
        if key in COAST_WORDS and len(key) > 1:  # "s" alone is "supports", not "south coast"
            cur.pos += 1
            if cur.peek() == "coast":
                cur.pos += 1
            return COAST_WORDS[key]
        return None

    def _unknown_name(self, cur: _Cursor) -> str:
        """The words to quote for a name that is not on the map: one word, or as many as a name that
        starts with that word would take ("North See")."""
        words = [cur.tokens[cur.pos]]
        for token in cur.tokens[cur.pos + 1 : cur.pos + self.name_starts.get(words[0], 1)]:
            if token in KEYWORDS or token == "-" or token.startswith("/"):
                break
            words.append(token)
        return " ".join(words)

    # --- units -----------------------------------------------------------------------------------------

    def _unit(self, cur: _Cursor, line: str, what: str, parts: list[tuple[int, Composition]] | None = None) -> UnitRef:
        """A unit: "A par", "2 F eng", "Russian A gal", "a fleet in stp/nc", "1 A & 1 F Naf" (a stack named part
        by part, read as one force; `parts`, when given, gets the parts as written)."""
        count: int | None = None
        token = cur.peek()
        if token is not None and _is_count(token):
            count = int(cur.take())
            if count < 1:
                raise OrderSyntaxError(line, f"expected a number of units of at least 1 before {what}")
        self._skip_article(cur)
        # a nationality before the unit ("French A bur", "RUS A gal", "FA bur" as in zines)
        power = self._power(cur)
        if power is not None:
            self._skip_article(cur)
        composition = self._composition(cur, line)
        if composition is not None and cur.peek() in ("&", "and", "+"):
            # a mixed stack named part by part, as in zines: "1 A & 1 F Naf"
            total = composition.times(count or 1)
            if parts is not None:
                parts.append((count or 1, composition))
            count = None
            while cur.peek() in ("&", "and", "+") and cur.peek(1) is not None:
                cur.pos += 1
                number = int(cur.take()) if _is_count(cur.peek() or "") else 1
                part = self._composition(cur, line)
                if part is None:
                    raise OrderSyntaxError(line, f"expected a unit after '&' in {what}")
                if parts is not None:
                    parts.append((number, part))
                more = part.times(number)
                total = Composition.of(
                    total.armies + more.armies, total.fleets + more.fleets, total.garrisons + more.garrisons
                )
            composition = total
        self._skip_filler(cur)
        location = self._place(cur, line, what)
        return UnitRef(composition, location, count, power)

    def _skip_filler(self, cur: _Cursor) -> None:
        """Skip a filler word before a place ("A in Paris"), unless the word is itself a place of the map (Hoplite
        Wars' Thebes is `the`)."""
        token = cur.peek()
        if token in FILLER_WORDS and self._lookup(token or "") is None:
            cur.pos += 1

    def _skip_article(self, cur: _Cursor) -> None:
        """Skip "the" ("the fleet in Trieste") and "a"/"an" before a spelled-out unit ("a fleet in stp/nc",
        "a Russian army"); "A par" keeps its "A"."""
        token, nxt = cur.peek(), cur.peek(1)
        if token not in ARTICLES or nxt is None:
            return
        spelled_out = nxt in FULL_UNIT_WORDS or (self._power_word(nxt) is not None and cur.peek(2) in FULL_UNIT_WORDS)
        if spelled_out or (token == "the" and self._lookup(token) is None):
            cur.pos += 1

    def _key(self, word: str) -> str:
        """`normalise_name(word)`, from the reader's own table for the words it knows (see __init__)."""
        key = self.word_keys.get(word)
        return normalise_name(word) if key is None else key

    def _lookup(self, token: str) -> str | None:
        """`self.board.lookup(token)`, by the reader's table of keys."""
        return self.board.names.get(self._key(token))

    def _power_word(self, token: str) -> str | None:
        word = token[:-2] if token.endswith("'s") else token
        return self.power_words.get(self._key(word))

    def _is_type(self, token: str | None) -> bool:
        if token is None:
            return False
        token = token.removesuffix("'s")
        # the regex only for a token that could end one (`$` matches before a final newline too)
        return token in UNIT_WORDS or (token[-1:] in "afg\n" and _COMPOSITION.match(token) is not None)

    def _power(self, cur: _Cursor, *, at_start: bool = False) -> str | None:
        """A power named before a unit (or, at the start of a line, before the whole order)."""
        token = cur.peek()
        if token is None:
            return None
        nxt = cur.peek(1)
        power = self._power_word(token)
        if power is not None and nxt == ":" and at_start and cur.peek(2) is not None:
            # "England: A Par - Bur"; "Eng: Bre" is the unit in the English Channel moving to Brest
            after = cur.peek(2)
            if self._lookup(token) is None or self._is_type(after) or after in BUILD_WORDS | REMOVE_WORDS:
                cur.pos += 2
                return power
            return None
        if power is not None and nxt is not None:
            # "ENG" is England and the English Channel: a power only when a unit (or an order) follows
            is_place = self._lookup(token) is not None
            heads = BUILD_WORDS | REMOVE_WORDS | DISBAND_WORDS
            if not is_place or self._is_type(nxt) or (at_start and nxt in heads and cur.peek(2) is not None):
                cur.pos += 1
                return power
        if (
            not at_start  # at the start "R A Par" is njudge's removal
            and len(token) == 1
            and token in self.initials
            and self._is_type(nxt)
            and cur.peek(2) is not None
        ):
            # a nationality letter before the unit, as the seed texts write it: "1 I A Tun-Smy"
            cur.pos += 1
            return self.initials[token]
        if (
            len(token) == 2
            and token[1] in "af"
            and token[0] in self.initials
            and self._lookup(token) is None
            and nxt is not None
        ):
            cur.tokens[cur.pos] = token[1]
            return self.initials[token[0]]
        return None

    def _composition(self, cur: _Cursor, line: str) -> Composition | None:
        token = cur.peek()
        if token is None:
            return None
        if token in UNIT_WORDS:
            cur.pos += 1
            return Composition.parse(UNIT_WORDS[token])
        if _COMPOSITION.match(token.removesuffix("'s")):  # "3A's", as zines write the plural
            try:
                composition = Composition.parse(token.removesuffix("'s"))
            except ValueError:
                raise OrderSyntaxError(
                    line, f"{token!r} is not a unit; expected A, F or a force like 2A or A/F"
                ) from None
            cur.pos += 1
            return composition
        return None

    # --- orders ----------------------------------------------------------------------------------------

    def read(self, line: str, verbs: Mapping[str, Verb] | None = None) -> Order:
        numbered = _PRIORITY.match(line)
        if numbered:  # "1. A Pic S ...", "(2) F Pic S ...", "#1 ...": the player's priority for this order
            try:
                order = self.read(line[numbered.end() :], verbs)
            except OrderSyntaxError as refused:
                raise OrderSyntaxError(line, refused.why) from None  # quote the line the player wrote, whole
            return replace(order, priority=int(numbered[1] or numbered[2]))
        tokens = _tokenise(line)
        if not tokens:
            raise OrderSyntaxError(line, f"empty order; expected an order like {EXAMPLES}")
        if verbs:  # a variant's word for a move ("A Wms disembarks Spa") reads as "-", also inside a support
            tokens = ["-" if (v := verbs.get(t)) is not None and v.kind is OrderKind.MOVE else t for t in tokens]
        cur = _Cursor(tokens)
        power = self._power(cur, at_start=True)
        verb = verbs.get(cur.peek() or "") if verbs else None
        if verb is not None:  # a variant's verb first: "CLAIM ...", "SACK A Del"
            cur.pos += 1
            if cur.peek() == ":":  # "Centre: Pic"
                cur.pos += 1
            if verb.shape == "line":
                words = " ".join(line.split()[1:])
                terms = verb.read(words, self.board, verbs) if verb.read is not None else None
                return Order(verb.kind, None, words=words, terms=terms)
            if cur.done and verb.example:
                raise OrderSyntaxError(line, f"expected more after {tokens[cur.pos - 1]!r}; write {verb.example}")
            if verb.shape == "place for power":
                return self._place_for_power(cur, line, verb)
            names_centre = cur.peek() in CENTRE_WORDS or (cur.peek() == "a" and cur.peek(1) in CENTRE_WORDS)
            if verb.shape == "placement" and not names_centre:
                unit = self._unit(cur, line, "the unit to place")
                self._expect_end(cur, line)
                return Order(OrderKind.BUILD, unit)
            if verb.shape in ("place", "placement"):
                while cur.peek() in CENTRE_WORDS | FILLER_WORDS | {"a"}:
                    cur.pos += 1
                destination = self._place(cur, line, "where the centre goes")
                self._expect_end(cur, line)
                return Order(OrderKind.CENTRE, None, destination=destination)
            unit = self._unit(cur, line, "a unit")
            order = self._verb(cur, line, unit, verb)
        else:
            try:
                order = self._order(cur, line, verbs or {})
            except StackParts as asked:  # "England: 2 F Wes sup 1 A & 1 F Naf": the supporting units are England's
                if power is not None and asked.supporter.power is None:
                    asked.supporter = replace(asked.supporter, power=power)
                raise
        if power is not None and order.unit is not None and order.unit.power is None:
            order = replace(order, unit=replace(order.unit, power=power))
        elif power is not None and order.kind is OrderKind.WAIVE and order.for_power is None:
            # "3:England: Waive": the power it waives for, kept as a value (a side routes it by it)
            order = replace(order, for_power=power)
        return order

    def _verb(self, cur: _Cursor, line: str, unit: UnitRef, verb: Verb) -> Order:
        """What follows a variant's verb, by its shape."""
        if verb.shape == "unit target":
            while cur.peek() in ("on", "onto", "aboard", "to", "into", "with", ":"):  # "A(Rom) embarks on F(TYS)"
                cur.pos += 1
            target = self._unit(cur, line, "the unit it concerns")
            self._expect_end(cur, line)
            return Order(verb.kind, unit, target=target)
        if verb.shape == "unit place":
            self._skip_move_words(cur)
            destination = self._place(cur, line, "where the unit goes")
            self._expect_end(cur, line)
            return Order(verb.kind, unit, destination=destination)
        if verb.shape == "unit becomes":
            return self._becomes(cur, line, unit, verb)
        if verb.shape == "unit" and not cur.done:  # "A(Del) SACK Delphi": the place it acts on, named again
            destination = self._place(cur, line, f"the place to {verb.kind.value}")
            self._expect_end(cur, line)
            return Order(verb.kind, unit, destination=destination)
        self._expect_end(cur, line)
        return Order(verb.kind, unit)

    def _becomes(self, cur: _Cursor, line: str, unit: UnitRef, verb: Verb) -> Order:
        """What a unit becomes ("TO F", "into F sc", "-> F meg/sc"): its type in `target`, at the unit's
        province, or on the coast named."""
        while cur.peek() in ("to", "into", "-", "=", "as"):
            cur.pos += 1
        composition = self._composition(cur, line)
        if composition is None:
            example = f"; write {verb.example}" if verb.example else ""
            raise OrderSyntaxError(line, f"expected what the unit becomes (A or F){example}")
        location = province_of(unit.location)
        coast = self._coast(cur)
        if coast is not None:
            location = f"{location}/{coast}"
        elif not cur.done:
            location = self._place(cur, line, "where the unit stands")
        self._expect_end(cur, line)
        return Order(verb.kind, unit, target=UnitRef(composition, location))

    def _place_for_power(self, cur: _Cursor, line: str, verb: Verb) -> Order:
        """A place and the power it is for ("CAPTURE Meg FOR Anactorium")."""
        example = f"; write {verb.example}" if verb.example else ""
        destination = self._place(cur, line, "the place")
        if cur.peek() != "for":
            raise OrderSyntaxError(line, f"expected FOR and a power after the place{example}")
        cur.pos += 1
        token = cur.peek()
        power = self._power_word(token) if token is not None else None
        if power is None:
            named = "expected a power after FOR"
            if token is not None:
                named = f"{token!r} is not a power of this game; {named}"
            raise OrderSyntaxError(line, f"{named}{example}")
        cur.pos += 1
        self._expect_end(cur, line)
        return Order(verb.kind, None, destination=destination, for_power=power)

    def _order(self, cur: _Cursor, line: str, verbs: Mapping[str, Verb]) -> Order:
        rest = cur.tokens[cur.pos :]
        head = rest[0]
        if head in WAIVE_WORDS and (len(rest) == 1 or (len(rest) == 2 and rest[1] in BUILD_WORDS)):
            return Order(OrderKind.WAIVE, None)
        if head in BUILD_WORDS and len(rest) == 2 and rest[1] in WAIVE_WORDS:
            return Order(OrderKind.WAIVE, None)
        if head == "r" and self._is_type(cur.peek(1)):  # njudge's "R A Par": a removal (or "R A Par - Bur")
            cur.pos += 1
            unit = self._unit(cur, line, "the unit to remove")
            if cur.done:
                return Order(OrderKind.REMOVE, unit)
            if cur.peek() in MOVE_WORDS:
                self._skip_move_words(cur)
                destination = self._place(cur, line, "where the unit retreats")
                self._expect_end(cur, line)
                return Order(OrderKind.RETREAT, unit, destination=destination)
            self._expect_end(cur, line)
        if head in ("+", "-") and (
            self._is_type(cur.peek(1)) or _is_count(cur.peek(1) or "") or cur.peek(1) in ARTICLES
        ):
            return self._sign(cur, line, head)
        for words, kind, what in (
            (BUILD_WORDS, OrderKind.BUILD, "the unit to build"),
            (REMOVE_WORDS, OrderKind.REMOVE, "the unit to remove"),
            (DISBAND_WORDS, OrderKind.DISBAND, "the unit to disband"),
        ):
            if head in words:
                cur.pos += 1
                unit = self._unit(cur, line, what)
                result: UnitRef | None = None
                if cur.peek() == "=" and kind is not OrderKind.DISBAND:  # "Builds 2A(Gas) = 5A(Gas)": what it makes
                    cur.pos += 1
                    result = self._unit(cur, line, "the unit it makes")
                self._expect_end(cur, line)
                return Order(kind, unit, target=result)
        merge = self._merge(cur, line)
        if merge is not None:
            return merge
        unit = self._unit(cur, line, "a unit")
        verb = verbs.get(cur.peek() or "")
        if verb is not None:
            cur.pos += 1
            return self._verb(cur, line, unit, verb)
        return self._after_unit(cur, line, unit)

    def _sign(self, cur: _Cursor, line: str, sign: str) -> Order:
        """ "+ A Mun" builds and "- F Tri" removes, as adjustment lists write them. With an order after the unit
        ("- A Par - Bur") the sign may instead mark an item of a list: both readings are named and the line
        refused."""
        kind = OrderKind.BUILD if sign == "+" else OrderKind.REMOVE
        cur.pos += 1
        unit = self._unit(cur, line, "the unit to build" if sign == "+" else "the unit to remove")
        if not cur.done:
            rest = " ".join(cur.tokens[cur.pos :])
            raise OrderSyntaxError(
                line,
                f"{sign!r} before a unit {'builds' if sign == '+' else 'removes'} it, and for a "
                f"{'build' if sign == '+' else 'removal'} the end of the line was expected after the unit, but "
                f"{rest!r} follows: if {sign!r} marks an item of a list, write the order without it",
            )
        return Order(kind, unit)

    def _merge(self, cur: _Cursor, line: str) -> Order | None:
        """ "A Pie + A Par + A Gas MERGE = 3A Bur", "F(Bre)+A(Par)M: A/F(Pic)", "A(Mar) & A(Pic) MERGE 2A(Bur)"."""
        if not any(t in JOIN_WORDS for t in cur.tokens[cur.pos :]):
            return None
        start = cur.pos
        try:
            units = [self._unit(cur, line, "a merging unit")]
            while cur.peek() in JOIN_WORDS:
                cur.pos += 1
                units.append(self._unit(cur, line, "a merging unit"))
        except OrderSyntaxError:
            cur.pos = start
            return None
        if len(units) < 2 or cur.peek() not in MERGE_WORDS | {"="}:
            cur.pos = start
            return None
        while cur.peek() in MERGE_WORDS | {"=", "into", "to", "-"}:
            cur.pos += 1
        formed = self._composition(cur, line)
        self._skip_filler(cur)
        destination = self._place(cur, line, "where the units merge")
        self._expect_end(cur, line)
        target = UnitRef(formed, destination) if formed is not None else None
        return Order(OrderKind.MERGE, None, target=target, destination=destination, merging=tuple(units))

    def _split(self, cur: _Cursor, line: str, unit: UnitRef) -> Order:
        """ "3A Bur SPLIT = A Par A Bur A Mun", "A/F(Pic)D: F(Pic), A(Bel)"; a part naming the force's own
        province stays, and may carry its own order at the end ("..., A(Mar) s F(MAO) - GAS")."""
        origin = province_of(unit.location)
        while cur.peek() == "=":
            cur.pos += 1
        parts: list[Order] = []
        while not cur.done:
            count = int(cur.take()) if _is_count(cur.peek() or "") else 1
            composition = self._composition(cur, line)
            if composition is None:
                raise OrderSyntaxError(line, 'expected a part of the split, like "A par" or "2A bur"')
            composition = composition.times(count)
            place = self._place(cur, line, "where the part goes")
            ref = UnitRef(composition, unit.location)
            if province_of(place) == origin:
                nxt = cur.peek() or ""
                tail = nxt in SUPPORT_WORDS | CONVOY_WORDS | HOLD_WORDS or (len(nxt) == 2 and nxt[0] == "s")
                parts.append(self._after_unit(cur, line, ref) if tail else Order(OrderKind.HOLD, ref))
            else:
                parts.append(Order(OrderKind.MOVE, ref, destination=place))
            while cur.peek() in JOIN_WORDS:
                cur.pos += 1
        if len(parts) < 2:
            raise OrderSyntaxError(
                line, 'a split names at least two parts; expected like "3A bur SPLIT = A par, 2A bur"'
            )
        return Order(OrderKind.SPLIT, unit, parts=tuple(parts))

    def _after_unit(self, cur: _Cursor, line: str, unit: UnitRef) -> Order:
        if cur.done:
            return Order(OrderKind.HOLD, unit)
        word = cur.take()
        if word in SPLIT_WORDS or (word == "d" and not cur.done and self._is_type(cur.peek())):
            return self._split(cur, line, unit)
        if len(word) == 2 and word[0] == "s" and word[1] in "afgm" and self._lookup(word) is None:
            # zine shorthand: "F(Pic)SA(Pic)-Bel", "A(Bur)SM(Pic)" (support the merge at Picardy)
            cur.tokens.insert(cur.pos, "merge" if word[1] == "m" else word[1])
            word = "s"
        elif word == "ca" and self._lookup(word) is None:
            cur.tokens.insert(cur.pos, "a")  # the same shorthand for a convoy: "F(1:Eng)CA(1:Lon)-2:Gas"
            word = "c"
        for words, kind in (
            (HOLD_WORDS, OrderKind.HOLD),
            (BUILD_WORDS, OrderKind.BUILD),
            (REMOVE_WORDS, OrderKind.REMOVE),
            (DISBAND_WORDS, OrderKind.DISBAND),
        ):
            if word in words:
                self._expect_end(cur, line)
                return Order(kind, unit)
        if word in MOVE_WORDS:
            if word == ":" and cur.peek() in _ORDER_WORDS:  # "A Par: S A Mar - Bur", "A Par: H": the colon says nothing
                return self._after_unit(cur, line, unit)
            kind = OrderKind.RETREAT if word in RETREAT_WORDS else OrderKind.MOVE
            self._skip_move_words(cur)  # "moves to", "retreats to"
            if cur.peek() in HOLD_WORDS and cur.peek(1) is None:  # zines' "F(Pic)-st."
                cur.pos += 1
                return Order(OrderKind.HOLD, unit)
            destination = self._place(cur, line, "where the unit goes")
            path = False
            # njudge's convoy route "A lon - nth - bel": the army goes to the last place, by convoy
            while kind is OrderKind.MOVE and cur.peek() == "-":
                cur.pos += 1
                self._sea_of_route(line, destination)
                destination = self._place(cur, line, "where the convoyed army lands")
                path = True
            via = self._via_convoy(cur, line) or path
            self._expect_end(cur, line)
            # a retreat is never convoyed: "via convoy" on one is read past, as the engine does (retreat.py)
            return Order(kind, unit, destination=destination, via_convoy=via and kind is OrderKind.MOVE)
        if word in SUPPORT_WORDS:
            if cur.peek() in MERGE_WORDS:  # "A(Par) S MERGE (Bur)"
                cur.pos += 1
                self._skip_move_words(cur)
                into = self._place(cur, line, "where the supported merge takes place")
                self._expect_end(cur, line)
                return Order(OrderKind.SUPPORT, unit, target=None, destination=into)
            if self._is_type(cur.peek()) and cur.peek(1) in MOVE_WORDS:  # "A Mar S 3A's - Bur": the merge
                cur.pos += 1
                self._skip_move_words(cur)
                into = self._place(cur, line, "where the supported merge takes place")
                self._expect_end(cur, line)
                return Order(OrderKind.SUPPORT, unit, target=None, destination=into)
            if cur.peek() in HOLD_WORDS and cur.peek(1) is not None:  # "support hold A Par"
                cur.pos += 1
            start = cur.pos
            target = self._unit(cur, line, "the unit supported")
            named = target.composition
            parts: list[tuple[int, Composition]] | None = None
            if (
                named is not None
                and named is not ARMY
                and named is not FLEET
                and target.count is None
                and any(t in JOIN_WORDS for t in cur.tokens[start : cur.pos])
            ):  # a stack named part by part ("1 A & 1 F Naf"): read it again for its parts
                parts = []
                end, cur.pos = cur.pos, start
                self._unit(cur, line, "the unit supported", parts)
                cur.pos = end
            supported_to: str | None = None
            if cur.peek() in MOVE_WORDS and cur.peek(1) in HOLD_WORDS and cur.peek(2) is None:  # "S A ber to hold"
                cur.pos += 2
            elif cur.peek() in MOVE_WORDS:
                self._skip_move_words(cur)
                supported_to = self._place(cur, line, "where the supported unit goes")
                if province_of(supported_to) == province_of(target.location) and _same_place(
                    target.location, supported_to
                ):
                    raise OrderSyntaxError(line, _support_home(unit, target))
            elif cur.peek() in HOLD_WORDS:
                cur.pos += 1
            self._expect_end(cur, line)
            if parts is not None and len(parts) > 1:
                raise StackParts(
                    line, unit, [UnitRef(c, target.location, n, target.power) for n, c in parts], supported_to
                )
            return Order(OrderKind.SUPPORT, unit, target=target, destination=supported_to)
        if word in CONVOY_WORDS:
            target = self._unit(cur, line, "the army convoyed")
            if cur.peek() not in MOVE_WORDS:
                raise OrderSyntaxError(line, 'expected where the convoyed army goes, like "F nth C A lon - bel"')
            self._skip_move_words(cur)
            destination = self._place(cur, line, "where the convoyed army goes")
            route: list[str] = []
            while cur.peek() == "-":  # the army's route repeated: "F Nwg C A Edi-Nwg-Nwy"
                cur.pos += 1
                route.append(self._sea_of_route(line, destination))
                destination = self._place(cur, line, "where the convoyed army goes")
            if cur.peek() == "via":
                route.extend(self._route(cur, line) or ())
            if route and province_of(unit.location) not in route:
                raise OrderSyntaxError(
                    line,
                    f"the route named ({', '.join(route)}) does not pass {province_of(unit.location)}, the fleet "
                    f'that convoys; expected the route through it, or none: "F nwg C A edi - nwy"',
                )
            self._expect_end(cur, line)
            return Order(OrderKind.CONVOY, unit, target=target, destination=destination)
        if word == "via" or (word == "by" and cur.peek() in CONVOY_WORDS):
            return self._route_first(cur, line, unit)
        raise OrderSyntaxError(line, f"did not understand {word!r}; expected an order like {EXAMPLES}")

    @staticmethod
    def _skip_move_words(cur: _Cursor) -> None:
        while cur.peek() in MOVE_WORDS:
            cur.pos += 1

    def _via_convoy(self, cur: _Cursor, line: str) -> bool:
        """ "via convoy", a trailing "convoy" or "VIA", or the route named: "A Lon - Nwy via Nth"."""
        if cur.peek() in VIA_WORDS and cur.peek(1) in CONVOY_WORDS:
            cur.pos += 2
            return True
        if cur.peek() in CONVOY_WORDS and cur.peek(1) is None:
            cur.pos += 1
            return True
        return self._route(cur, line) is not None

    def _route(self, cur: _Cursor, line: str) -> list[str] | None:
        """A trailing "via" with the seas of the route, or alone: read (each must be a sea of the map) and taken
        as "by convoy"; which fleets carry the army is still decided by the convoy orders. None: no "via"."""
        if cur.peek() != "via":
            return None
        cur.pos += 1
        seas = []
        while not cur.done:
            seas.append(self._sea_of_route(line, self._place(cur, line, "a sea of the convoy route")))
            if cur.peek() in _ROUTE_JOINS:
                cur.pos += 1
        return seas

    def _route_first(self, cur: _Cursor, line: str, unit: UnitRef) -> Order:
        """The route before the destination: "A Edi via NWG to Nwy", "A Edi via NWG BAR to StP", "A Edi via Nwg -
        Nwy", "A Edi by convoy to Nwy": a move by convoy. The seas are read and checked to be seas (a land place
        named as the route is not a convoy: refused), then dropped, as in "A Lon - Nwy via Nth"."""
        if cur.peek() in CONVOY_WORDS:
            cur.pos += 1
        places: list[str] = []
        dashed = False
        while not cur.done and (cur.peek() not in MOVE_WORDS or cur.peek() == "-"):
            if cur.peek() in _ROUTE_JOINS:
                dashed = dashed or cur.peek() == "-"
                cur.pos += 1
                continue
            places.append(self._place(cur, line, "a sea of the convoy route"))
        if cur.done:  # "A Edi via Nwg - Nwy": the last place is where the army goes
            if not (dashed and len(places) > 1):
                raise OrderSyntaxError(
                    line, 'expected where the army goes after the route, like "A edi via nwg to nwy"'
                )
            destination = places.pop()
        else:
            self._skip_move_words(cur)
            destination = self._place(cur, line, "where the convoyed army goes")
            self._expect_end(cur, line)
        for place in places:
            self._sea_of_route(line, place)
        return Order(OrderKind.MOVE, unit, destination=destination, via_convoy=True)

    def _sea_of_route(self, line: str, place: str) -> str:
        """A place named as a sea of a convoy route, which must be one: "A Par - Bur - Mun" is no convoy."""
        province = province_of(place)
        if not self.board.provinces[province].is_sea:
            raise OrderSyntaxError(
                line,
                f"{province} is not a sea, so it is no part of a convoy route; expected the seas the army crosses "
                f'("A lon - nth - nwy", "A edi via nwg to nwy") or one move ("A par - bur")',
            )
        return province

    @staticmethod
    def _expect_end(cur: _Cursor, line: str) -> None:
        if not cur.done:
            rest = " ".join(cur.tokens[cur.pos :])
            read = " ".join(cur.tokens[: cur.pos])
            raise OrderSyntaxError(
                line,
                f"did not understand {shorten(rest, 60)!r} at the end of the order; expected nothing after {read!r}",
            )


def _support_home(unit: UnitRef, target: UnitRef) -> str:
    """The question a support of a move to the supported unit's own province ("A Gal SA Vie-Vie") asks. Players
    write a support to hold so; but no unit moves to its own province, and the DATC (6.A.5) rules a support of such a
    move illegal, so the reader cannot tell which is meant and names both."""
    who = f"{unit.composition or ''} {unit.location}".strip()
    whom = f"{target.composition or ''} {target.location}".strip()
    return (
        f"{whom} - {province_of(target.location)} is a move to its own province: a support to hold, or a support of "
        f"that move (which no unit can make, so the support would be illegal, DATC 6.A.5)? For a support to hold "
        f"write '{who} S {whom}'"
    )


def _same_place(unit: str, place: str) -> bool:
    """Whether a move from `unit` to `place` stays in the province ("A Vie-Vie"); two coasts named, and different,
    are two places (`F spa/nc - spa/sc` is no staying)."""
    if "/" in unit and "/" in place:
        return unit == place
    return province_of(unit) == province_of(place)


_READERS: dict[int, OrderReader] = {}


def parse_order(board: Board, line: str, verbs: Mapping[str, Verb] | None = None) -> Order:
    """Read one order line (with a variant's own verbs, `Rules.verbs`); raises OrderSyntaxError with the line
    quoted when it cannot be read."""
    reader = _READERS.get(id(board))
    if reader is None or reader.board is not board:
        reader = OrderReader(board)
        _READERS[id(board)] = reader
    return reader.read(line, verbs)


__all__ = ["OrderReader", "OrderSyntaxError", "StackParts", "parse_order", "province_of"]
