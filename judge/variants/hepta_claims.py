"""CW Heptadiplomacy's win claims (rule 7): read from the Autumn orders, judged at the end of the Autumn.

A claim is an order line: `CLAIM 2-way win with France`, `CLAIM 3-way with France and Turkey if France holds 60`,
`CLAIM two-way with 4:England if A 4:par - 4:bur succeeds`, `CLAIM 2-way with Alice if Alice builds nothing`.
A player's claims count in the order written, the first the most preferred ("Two-way win with player four. If
this isn't possible then a three-way win with players four and seven"). What the rule leaves open is ruled in
docs/variants/hepta.md:
- a joint win is declared only when every player in it claims it (rule 7: "may be declared by players having...");
- a condition on another player's moves names an order and SUCCEEDS or FAILS; on holdings, `HOLDS [at least |
  at most | exactly] n`; on builds, `BUILDS [at least | at most | exactly] n` or `BUILDS NOTHING`, which puts off
  judging the joint claims to the end of the Winter (holdings do not change in a Winter);
- a solo win needs no claim: every player with 70 centres at the end of an Autumn wins, first equal;
- a claim the judge cannot read is discounted and the player told why (rule 7: "they will be discounted").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.board.model import Board
from judge.engine.orders import Order, Verb
from judge.engine.reasons import (
    ClaimCondition,
    ClaimNotJoined,
    ClaimShort,
    ClaimSuperseded,
    Reason,
    WinDeclared,
)
from judge.variants.hepta_terms import ClaimTerms, Proviso

SOLO_CENTRES = 70
JOINT = {2: ("two-way", 130, 63), 3: ("three-way", 185, 58)}
"""rule 7: a two-way win needs 130 together and 63 each; a three-way win 185 together and 58 each"""
KIND_WORDS = {
    "2-way": 2,
    "two-way": 2,
    "2way": 2,
    "twoway": 2,
    "3-way": 3,
    "three-way": 3,
    "3way": 3,
    "threeway": 3,
    "solo": 1,
}
COMPARISONS = {"at least": ">=", "at most": "<=", "exactly": "==", "more than": ">", "fewer than": "<"}


class ClaimError(ValueError):
    """Why a claim line cannot be judged: the claim is discounted and the player told this."""


@dataclass
class Claim:
    """One claim line, read: who claims, with whom, and the conditions still to be judged.

    A dataclass still, on purpose: CW Heptadiplomacy's rule module is imported with its first game only, never
    at a standard start, and it stays interpreted (it subclasses `Rules`), where a class cannot subclass the
    compiled `Value` or `Record` (docs/engine.md, "One style of value")."""

    player: str
    power: str
    text: str
    partners: tuple[str, ...]
    holds: list[tuple[str, str, int]] = field(default_factory=list)
    """(player, comparison, centres) conditions"""
    builds: list[tuple[str, str, int]] = field(default_factory=list)
    """(player, comparison, units built) conditions, judged after the Winter"""
    orders: list[tuple[str, str]] = field(default_factory=list)
    """(order line, "succeeds" or "fails") conditions, judged with the Autumn's results"""
    asked: list[Order | None] = field(default_factory=list)
    """in step with `orders`: each order as the reader read it when the claim came (None: it cannot be read)"""
    failed: list[str] = field(default_factory=list)
    """conditions found not to hold so far"""

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(sorted((self.player, *self.partners)))

    @property
    def win(self) -> str:
        return JOINT[len(self.players)][0]

    def json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "power": self.power,
            "text": self.text,
            "with": list(self.partners),
            "holds": [list(h) for h in self.holds],
            "builds": [list(b) for b in self.builds],
            "failed": list(self.failed),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Claim:
        return cls(
            str(raw["player"]),
            str(raw["power"]),
            str(raw["text"]),
            tuple(str(p) for p in raw.get("with", ())),
            [(str(p), str(op), int(n)) for p, op, n in raw.get("holds", ())],
            [(str(p), str(op), int(n)) for p, op, n in raw.get("builds", ())],
            [],
            [],
            [str(f) for f in raw.get("failed", ())],
        )


def _compare(value: int, op: str, n: int) -> bool:
    return {">=": value >= n, "<=": value <= n, "==": value == n, ">": value > n, "<": value < n}[op]


def _op_words(op: str) -> str:
    return next(words for words, symbol in COMPARISONS.items() if symbol == op)


_FILLER = ("a", "an", "win", "victory", "joint", "for")


def read_terms(words: str, board: Board | None = None, verbs: Mapping[str, Verb] | None = None) -> ClaimTerms:
    """The claim `words` (the line after CLAIM) as values: the CLAIM verb's reader, run once when the line is read
    (`judge.game.checking.read_orders`). An order named in a condition is read here too, on `board` (None: left
    unread, for a claim read without a board)."""
    from judge.notation.parse import OrderSyntaxError, parse_order

    text = " ".join(words.split())
    split = re.search(r"\s+if\s+", text, flags=re.I)
    head_text, conditions = (text[: split.start()], text[split.end() :]) if split else (text, "")
    head_text = head_text.lower().replace("two way", "two-way").replace("three way", "three-way")
    head: list[tuple[str, str]] = []
    reading_partners = False
    for token in (t for t in re.split(r"[\s,&]+", head_text) if t):
        if token in KIND_WORDS:
            head.append(("size", str(KIND_WORDS[token])))
        elif token in _FILLER and not reading_partners:
            continue
        elif token == "with":
            reading_partners = True
        elif token == "and" and reading_partners:
            continue
        elif reading_partners:
            head.append(("partner", token))
        else:
            head.append(("unread", token))
    provisos: list[Proviso] = []
    for condition in re.split(r"\s+and\s+", conditions, flags=re.I) if conditions else ():
        condition = condition.strip()
        lowered = condition.lower().rstrip(".")
        named = re.fullmatch(r"(.+?)\s+(succeeds|fails)", lowered)
        if named:
            written = condition[: named.end(1)].strip()
            order = None
            if board is not None:
                try:
                    order = parse_order(board, written, verbs)
                except OrderSyntaxError:
                    order = None
            provisos.append(Proviso("order", written, order=order, wanted=named[2]))
            continue
        about = re.fullmatch(
            r"(.+?)\s+(holds|has|builds)\s+(nothing|no units|(?:(at least|at most|exactly|more than|fewer than)\s+)?"
            r"(\d+)(?:\s+(?:supply\s+)?(?:centres|centers|scs|sc|units|builds))?)",
            lowered,
        )
        if not about:
            provisos.append(Proviso("unread", condition))
        elif about[3] in ("nothing", "no units") and about[2] != "builds":  # "holds nothing": no such condition
            provisos.append(Proviso("unread", condition, op="nothing"))
        elif about[3] in ("nothing", "no units"):
            provisos.append(Proviso("builds", condition, about[1], "==", 0))
        else:
            op = COMPARISONS[about[4]] if about[4] else (">=" if about[2] != "builds" else "==")
            what = "builds" if about[2] == "builds" else "holds"
            provisos.append(Proviso(what, condition, about[1], op, int(about[5])))
    return ClaimTerms(text, tuple(head), tuple(provisos))


def read_claim(
    words: str,
    player: str,
    power: str,
    find_player: Callable[[str], str | None],
    names: Sequence[str] = (),
) -> Claim | None:
    """The claim `words` make for `player`, read and judged at once (`read_terms`, then `claim_of`): for a claim
    read before its terms were kept, and for the tests of the rule."""
    return claim_of(read_terms(words), player, power, find_player, names)


def _partners(head: Sequence[tuple[str, str]], names: Sequence[str]) -> list[tuple[str, str]]:
    """The head with a player's name of several words (option B's "Player 2") made one partner, wherever it
    stands: names are matched whole, case and spaces aside, the longest first."""
    keyed = sorted(((n.lower().split(), n) for n in names if " " in n.strip()), key=lambda kn: -len(kn[0]))
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(head):
        kind, token = head[i]
        if kind == "partner":
            for parts, name in keyed:
                window = head[i : i + len(parts)]
                if [t for _, t in window] == parts and all(k == "partner" for k, _ in window):
                    out.append(("partner", name.replace(" ", "")))  # one word, as a finder takes a name
                    i += len(parts)
                    break
            else:
                out.append((kind, token))
                i += 1
            continue
        out.append((kind, token))
        i += 1
    return out


def claim_of(
    terms: ClaimTerms,
    player: str,
    power: str,
    find_player: Callable[[str], str | None],
    names: Sequence[str] = (),
) -> Claim | None:
    """The claim the terms make for `player`, its partners and conditions found among the game's players, or None
    for a claim of a solo win (it needs none); raises ClaimError saying why a claim cannot be judged. `names`: the
    players' names (some of several words: option B's "Player 2")."""
    kind: int | None = None
    partners: list[str] = []
    for what, token in _partners(terms.head, names):
        if what == "size":
            kind = int(token)
        elif what == "partner":
            found = find_player(token)
            if found is None:
                listed = f"; the players are {', '.join(names)} (or name a board-nation)" if names else ""
                raise ClaimError(f"{token!r} is not a player of this game{listed}")
            if found == player:
                raise ClaimError(f"{token} is the claimant's own side")
            if found not in partners:
                partners.append(found)
        else:
            raise ClaimError(f"cannot read {token!r}; write CLAIM 2-way win with PLAYER [and PLAYER] [if ...]")
    if kind == 1:
        if partners or terms.provisos:
            raise ClaimError("a solo win has no partners and no conditions")
        return None
    if not partners:
        raise ClaimError("name the partners: CLAIM 2-way win with PLAYER, CLAIM 3-way win with PLAYER and PLAYER")
    if len(partners) > 2:
        raise ClaimError("a joint win is two-way or three-way (rule 7)")
    if kind is not None and kind != len(partners) + 1:
        raise ClaimError(f"a {JOINT[kind][0]} win has {kind - 1} partner(s), not {len(partners)}")
    claim = Claim(player, power, terms.text, tuple(partners))
    for proviso in terms.provisos:
        if proviso.about == "order":
            claim.orders.append((proviso.text, proviso.wanted))
            claim.asked.append(proviso.order)
            continue
        if proviso.about == "unread" and proviso.op == "nothing":
            raise ClaimError(f"cannot read the condition {proviso.text!r}")
        if proviso.about == "unread":
            raise ClaimError(
                f"cannot read the condition {proviso.text!r}; write PLAYER HOLDS [at least] N, PLAYER BUILDS N, "
                "PLAYER BUILDS NOTHING, or an order followed by SUCCEEDS or FAILS"
            )
        written = proviso.who
        if " " in written and any(written == n.lower() for n in names):  # "player 2": one word, as above
            written = written.replace(" ", "")
        who = find_player(written)
        if who is None:
            raise ClaimError(f"{written!r} is not a player of this game")
        (claim.builds if proviso.about == "builds" else claim.holds).append((who, proviso.op, proviso.n))
    return claim


@dataclass
class Verdicts:
    """What judging the claims decided: the winners with the kind of win, and each claim's reasons.

    A dataclass still, on purpose: see `Claim`."""

    wins: dict[str, str] = field(default_factory=dict)
    """player -> "solo", "two-way" or "three-way" """
    claims: list[tuple[Claim, bool, list[Reason]]] = field(default_factory=list)


def judge_claims(
    claims: Sequence[Claim], counts: Mapping[str, int], builds: Mapping[str, int] | None = None
) -> Verdicts:
    """Judge a season's claims with the players' centres (`counts`) at the end of the Autumn and, for claims
    conditional on builds, the units each player built in the Winter (`builds`; None when not yet known)."""
    out = Verdicts()
    for player, n in sorted(counts.items()):
        if n >= SOLO_CENTRES:
            out.wins[player] = "solo"
    solos = tuple(sorted(out.wins))
    by_player: dict[str, list[Claim]] = {}
    for claim in claims:
        by_player.setdefault(claim.player, []).append(claim)
    standing: dict[int, list[Reason]] = {}
    valid: list[Claim] = []
    for claim in claims:
        reasons: list[Reason] = [ClaimCondition(c) for c in claim.failed]
        for who, op, n in claim.holds:
            if not _compare(counts.get(who, 0), op, n):
                reasons.append(ClaimCondition(f"{who} holds {_op_words(op)} {n} (holds {counts.get(who, 0)})"))
        for who, op, n in claim.builds:
            built = (builds or {}).get(who, 0)
            if not _compare(built, op, n):
                reasons.append(ClaimCondition(f"{who} builds {_op_words(op)} {n} (built {built})"))
        players = claim.players
        win, together, each = JOINT[len(players)]
        missing = tuple(p for p in players if not any(c.players == players for c in by_player.get(p, ())))
        if missing:
            reasons.append(ClaimNotJoined(win, missing))
        held = tuple(counts.get(p, 0) for p in players)
        if sum(held) < together or min(held) < each:
            reasons.append(ClaimShort(win, players, held, together, each))
        taken = [p for p in players if p in solos]
        if taken and not reasons:
            reasons.append(ClaimSuperseded("solo", tuple(taken)))
        standing[id(claim)] = reasons
        if not reasons:
            valid.append(claim)
    # a joint win stands when every member's own claim of it is valid; among several, the one its members
    # prefer most (the worst of their ranks, then the sum), then the smaller, then by name
    rank = {id(c): by_player[c.player].index(c) for c in claims}
    candidates: dict[tuple[str, ...], list[Claim]] = {}
    for claim in valid:
        candidates.setdefault(claim.players, []).append(claim)
    granted: dict[tuple[str, ...], bool] = {}
    taken_players: set[str] = set(solos)

    def preference(players: tuple[str, ...]) -> tuple[int, int, int, tuple[str, ...]]:
        ranks = [min(rank[id(c)] for c in candidates[players] if c.player == p) for p in players]
        return (max(ranks), sum(ranks), len(players), players)

    complete = [p for p, cs in candidates.items() if {c.player for c in cs} == set(p)]
    for players in sorted(complete, key=preference):
        if taken_players.isdisjoint(players):
            granted[players] = True
            taken_players.update(players)
            for p in players:
                out.wins[p] = JOINT[len(players)][0]
    for claim in claims:
        reasons = standing[id(claim)]
        players = claim.players
        ok = granted.get(players, False)
        if ok:
            reasons = [WinDeclared(claim.win, players)]
        elif not reasons:
            winners = next((g for g in granted if set(g) & set(players)), None)
            if winners is not None:
                reasons = [ClaimSuperseded(JOINT[len(winners)][0], winners)]
            else:  # a partner's own claim of it fell: name who did not claim it validly
                fell = tuple(p for p in players if p not in {c.player for c in candidates.get(players, [])})
                reasons = [ClaimNotJoined(claim.win, fell)]
        out.claims.append((claim, ok, reasons))
    return out
