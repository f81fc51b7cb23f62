"""Reading one order line as a player types it by mail.

Players write orders in many dialects: full names or abbreviations, `-`, `->` or `to`, `S`/`supports`,
`C`/`convoys`, coasts as `/sc`, `(sc)` or ` sc`, DATC/jDip style or njudge style. The reader tokenises
the line, matches place names greedily (longest name first, so "North Sea" and "Mid-Atlantic Ocean" work),
and then reads the order by keyword. Anything it cannot read raises `OrderSyntaxError` with the line quoted
and what was expected, which is what the player sees in the reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from judge.board.model import Board, normalise_name, province_of
from judge.engine.orders import Order, OrderKind, UnitRef
from judge.engine.units import Composition

EXAMPLES = '"F nth - nwy", "A bud S A gal - bud", "F nth C A lon - bel", "A par H"'
ADJUSTMENT_EXAMPLES = '"Build F stp/nc", "Build A par", "Remove A par", "Waive"'


class OrderSyntaxError(ValueError):
    """An order line that cannot be read; the message quotes it and says what was expected."""

    def __init__(self, line: str, why: str) -> None:
        self.line = line
        self.why = why
        super().__init__(f'"{line.strip()}": {why}')


HOLD_WORDS = frozenset({"h", "hold", "holds", "hld", "stand", "stands", "st", "nothing"})
SUPPORT_WORDS = frozenset({"s", "sup", "sups", "supp", "support", "supports", "sp", "sup."})
CONVOY_WORDS = frozenset({"c", "convoy", "convoys", "cvy", "conv", "convoying", "cto"})
MOVE_WORDS = frozenset({"-", "to", "m", "move", "moves", "r", "retreat", "retreats", "retreat-to"})
DISBAND_WORDS = frozenset({"d", "disband", "disbands", "disbanded", "destroy"})
REMOVE_WORDS = frozenset({"remove", "removes", "removal"})
BUILD_WORDS = frozenset({"b", "build", "builds", "add"})
WAIVE_WORDS = frozenset({"waive", "waives", "waived", "waiver", "w", "pass"})
VIA_WORDS = frozenset({"via", "by"})
FILLER_WORDS = frozenset({"the", "of", "at", "in", "from", "unit", "army's", "fleet's", "'s"})
COAST_WORDS = {
    "nc": "nc", "sc": "sc", "ec": "ec", "wc": "wc",
    "north": "nc", "south": "sc", "east": "ec", "west": "wc",
    "n": "nc", "s": "sc", "e": "ec", "w": "wc",
}  # fmt: skip
UNIT_WORDS = {
    "a": "A", "army": "A", "armies": "A", "aa": "A", "a's": "A",
    "f": "F", "fleet": "F", "fleets": "F", "ff": "F", "f's": "F",
    "g": "G", "garrison": "G", "garrisons": "G",
}  # fmt: skip

_ARROWS = re.compile(r"\s*(?:->|=>|→|—|–|>)\s*")
_COAST_PAREN = re.compile(
    r"\s*[(/\\.]\s*([nsew]c?|north|south|east|west)(?![a-z])\s*(?:coast)?\s*\)?", re.IGNORECASE
)
_PARENS = re.compile(r"[()\[\]]")
_COMPOSITION = re.compile(r"^(?:\d*[afg])(?:/\d*[afg])*$")
_TOKEN = re.compile(r"[^\s,;:]+")


@dataclass
class _Cursor:
    tokens: list[str]
    pos: int = 0

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


def _tokenise(line: str) -> list[str]:
    text = _ARROWS.sub(" - ", line.strip())
    text = _COAST_PAREN.sub(lambda m: "/" + COAST_WORDS[m.group(1).lower()], text)
    text = _PARENS.sub(" ", text)
    tokens: list[str] = []
    for raw in _TOKEN.findall(text.lower()):
        raw = raw.rstrip(".")
        if not raw:
            continue
        if raw == "-":
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
        self.max_words = 1 + max(len(_tokenise(n)) for n in self._all_names())

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
        best: tuple[int, str] | None = None
        for width in range(min(self.max_words, len(cur.tokens) - cur.pos), 0, -1):
            words = cur.tokens[cur.pos : cur.pos + width]
            if width > 1 and (words[-1] == "-" or words[0] == "-"):
                continue
            found = self.board.names.get(normalise_name(" ".join(words)))
            if found is not None:
                best = (width, found)
                break
        if best is None:
            token = cur.peek() or ""
            if token == "-":
                raise OrderSyntaxError(line, f"expected {what} before '-'")
            raise OrderSyntaxError(line, f"{token!r} is not a place on the {self.board.name} map")
        cur.pos += best[0]
        location = best[1]
        # a coast written as a separate word: "stp nc", "spa north coast"
        nxt = cur.peek()
        if "/" not in location and nxt in COAST_WORDS and len(nxt) > 1:
            coast = COAST_WORDS[nxt]
            cur.pos += 1
            if cur.peek() == "coast":
                cur.pos += 1
            location = f"{location}/{coast}"
        if "/" in location:
            prov, _, coast = location.partition("/")
            if coast not in self.board.provinces[prov].coasts:
                # an unknown or irrelevant coast is ignored (DATC 4.B.6)
                location = prov
        return location

    # --- units -----------------------------------------------------------------------------------------

    def _unit(self, cur: _Cursor, line: str, what: str, *, optional_type: bool = True) -> UnitRef:
        count: int | None = None
        power: str | None = None
        token = cur.peek()
        if token is not None and token.isdigit():
            count = int(cur.take())
            if count < 1:
                raise OrderSyntaxError(line, "a number of units must be at least 1")
            token = cur.peek()
        # a nationality before the unit ("French A bur", "FA bur" as in zines)
        if token is not None and token not in UNIT_WORDS and not _COMPOSITION.match(token):
            maybe_power = self.board.lookup_power(token)
            if maybe_power is not None and self.board.lookup(token) is None:
                power = maybe_power
                cur.pos += 1
                token = cur.peek()
            elif (
                token is not None
                and len(token) == 2
                and token[1] in "af"
                and self._power_by_initial(token[0]) is not None
                and self.board.lookup(token) is None
            ):
                power = self._power_by_initial(token[0])
                cur.pos += 1
                cur.tokens.insert(cur.pos, token[1])
                token = cur.peek()
        composition: Composition | None = None
        if token is not None and (token in UNIT_WORDS or _COMPOSITION.match(token)):
            # "a" could also be the start of a place name: only a type if a place follows
            if token in UNIT_WORDS:
                composition = Composition.parse(UNIT_WORDS[token])
            else:
                composition = Composition.parse(token)
            cur.pos += 1
        elif not optional_type:
            raise OrderSyntaxError(line, f"expected {what} (A or F) here")
        if cur.peek() in FILLER_WORDS:
            cur.pos += 1
        location = self._place(cur, line, what)
        return UnitRef(composition, location, count, power)

    def _power_by_initial(self, letter: str) -> str | None:
        for power in self.board.powers.values():
            if power.initial.lower() == letter:
                return power.name
        return None

    # --- orders ----------------------------------------------------------------------------------------

    def read(self, line: str) -> Order:
        tokens = _tokenise(line)
        if not tokens:
            raise OrderSyntaxError(line, f"empty order; expected an order like {EXAMPLES}")
        cur = _Cursor(tokens)
        head = cur.peek()
        if head in WAIVE_WORDS and (len(tokens) == 1 or tokens[1] in BUILD_WORDS | {"build"}):
            return Order(OrderKind.WAIVE, None)
        if head in BUILD_WORDS and len(tokens) > 1 and tokens[1] in WAIVE_WORDS:
            return Order(OrderKind.WAIVE, None)
        if head in BUILD_WORDS:
            cur.pos += 1
            unit = self._unit(cur, line, "the unit to build")
            self._expect_end(cur, line)
            return Order(OrderKind.BUILD, unit)
        if head in REMOVE_WORDS:
            cur.pos += 1
            unit = self._unit(cur, line, "the unit to remove")
            self._expect_end(cur, line)
            return Order(OrderKind.REMOVE, unit)
        if head in DISBAND_WORDS:
            cur.pos += 1
            unit = self._unit(cur, line, "the unit to disband")
            self._expect_end(cur, line)
            return Order(OrderKind.DISBAND, unit)
        unit = self._unit(cur, line, "a unit")
        return self._after_unit(cur, line, unit)

    def _after_unit(self, cur: _Cursor, line: str, unit: UnitRef) -> Order:
        if cur.done:
            return Order(OrderKind.HOLD, unit)
        word = cur.take()
        if word in HOLD_WORDS:
            self._expect_end(cur, line)
            return Order(OrderKind.HOLD, unit)
        if word in BUILD_WORDS:
            self._expect_end(cur, line)
            return Order(OrderKind.BUILD, unit)
        if word in REMOVE_WORDS:
            self._expect_end(cur, line)
            return Order(OrderKind.REMOVE, unit)
        if word in DISBAND_WORDS:
            self._expect_end(cur, line)
            return Order(OrderKind.DISBAND, unit)
        if word in MOVE_WORDS:
            kind = OrderKind.RETREAT if word in ("r", "retreat", "retreats", "retreat-to") else OrderKind.MOVE
            if cur.peek() in MOVE_WORDS:
                cur.pos += 1
            destination = self._place(cur, line, "where the unit goes")
            via = self._via_convoy(cur, line)
            self._expect_end(cur, line)
            return Order(kind, unit, destination=destination, via_convoy=via)
        if word in SUPPORT_WORDS:
            target = self._unit(cur, line, "the unit supported")
            supported_to: str | None = None
            if not cur.done and cur.peek() in MOVE_WORDS:
                cur.pos += 1
                supported_to = self._place(cur, line, "where the supported unit goes")
            elif not cur.done and cur.peek() in HOLD_WORDS:
                cur.pos += 1
            self._expect_end(cur, line)
            return Order(OrderKind.SUPPORT, unit, target=target, destination=supported_to)
        if word in CONVOY_WORDS:
            target = self._unit(cur, line, "the army convoyed")
            if cur.done or cur.peek() not in MOVE_WORDS:
                raise OrderSyntaxError(line, 'a convoy says where the army goes, like "F nth C A lon - bel"')
            cur.pos += 1
            destination = self._place(cur, line, "where the convoyed army goes")
            self._expect_end(cur, line)
            return Order(OrderKind.CONVOY, unit, target=target, destination=destination)
        raise OrderSyntaxError(line, f"did not understand {word!r}; expected an order like {EXAMPLES}")

    def _via_convoy(self, cur: _Cursor, line: str) -> bool:
        if cur.peek() in VIA_WORDS and cur.peek(1) in CONVOY_WORDS:
            cur.pos += 2
            return True
        if cur.peek() in CONVOY_WORDS and cur.peek(1) is None:
            cur.pos += 1
            return True
        return False

    def _expect_end(self, cur: _Cursor, line: str) -> None:
        if not cur.done:
            rest = " ".join(cur.tokens[cur.pos :])
            raise OrderSyntaxError(line, f"did not understand {rest!r} at the end of the order")


_READERS: dict[int, OrderReader] = {}


def parse_order(board: Board, line: str) -> Order:
    """Read one order line; raises OrderSyntaxError with the line quoted when it cannot be read."""
    reader = _READERS.get(id(board))
    if reader is None or reader.board is not board:
        reader = OrderReader(board)
        _READERS[id(board)] = reader
    return reader.read(line)


__all__ = ["OrderReader", "OrderSyntaxError", "parse_order", "province_of"]
