"""CW Heptadiplomacy (Mark Nelson, 1990): seven standard boards played at once, with units moving, supporting
and convoying between them.

What departs from standard (rule numbers of the text; rulings in docs/variants/hepta.md):
- seven boards (`3:par`), each power a board-nation (`3:England`) that owns what its units capture and builds
  only on its own board (rule 5): both follow from the board-qualified map (judge/variants/hepta_board.py);
- option A, a player is one country on all seven boards (the seven `n:England` are one side), or B, a different
  country on each board (the game's sides say who plays what) (rule 2);
- movement module 1, 2 or 3 (rule 3): where units move is the board's adjacency; who may support across boards
  and which fleets convoy together are asked here;
- every valid move may cut support (rule 4), and under option B a player's unit of another nationality cuts his
  own support (rule 6);
- victory: 70 centres at the end of an Autumn, or a two- or three-way win claimed (rule 7; hepta_claims.py).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any, ClassVar

from judge.board import load_map
from judge.board.copies import board_of
from judge.board.model import Board, province_of
from judge.engine.binding import Binding
from judge.engine.events import ClaimJudged
from judge.engine.legality import convoy_possible, seas_chain
from judge.engine.orders import Order, OrderKind, Submitted, Verb
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import OrderResult, Outcome, Position, Result
from judge.engine.reasons import ClaimPending
from judge.engine.refusals import AndSo, ClaimOutOfSeason, ClaimUnread, OnlyTargetBoard, Refusal, SoloNeedsNoClaim, Then
from judge.engine.rules import EDITION_OPTION, RuleOption, Rules
from judge.engine.units import Force
from judge.variants.hepta_board import BOARDS, hepta_board, unqualified
from judge.variants.hepta_claims import Claim, ClaimError, claim_of, judge_claims, read_terms
from judge.variants.hepta_terms import ClaimTerms

COUNTRIES = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

ASSIGNMENT_B = {f"Player {p + 1}": tuple(f"{k}:{COUNTRIES[(p + k - 1) % 7]}" for k in range(1, 8)) for p in range(7)}
"""option B's assignment when the game gives none: player p plays country p + k - 1 on board k (a Latin square),
so each player plays every country once and no two players are the same neighbours on all seven boards"""


def country(power: str) -> str:
    """`4:England` -> `England`: the nationality of a board-nation."""
    return power.partition(":")[2] or power


def _key(name: str) -> str:
    """A player's name as claims match it: case, spaces and punctuation do not matter ("Player 2", "player2")."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def _standard() -> Board:
    return load_map("standard")


class HeptaRules(Rules):
    variant = "hepta"
    refused_options = {  # noqa: RUF012 - class-level table
        "victory_centres": "CW Heptadiplomacy is won by claims judged after the Fall (rule 7), not by a count of "
        "centres, so a victory count would never be read",
    }
    OPTIONS = {  # noqa: RUF012 - class-level option table
        "edition": EDITION_OPTION,
        "module": RuleOption(
            "movement between the boards (rule 3): 1 the same province on another board, supported from that board;"
            " 2 any province the unit could reach, on any board, convoys on one board (the designer's choice);"
            " 3 as 2, with convoys and supports from any boards",
            (1, 2, 3),
            2,
        ),
        "assignment": RuleOption(
            "who plays what (rule 2): a, one country on all seven boards (recommended); b, a different country on "
            "each board (the game's sides, or a Latin square of Player 1..7)",
            ("a", "b"),
            "a",
        ),
    }
    verbs: ClassVar[Mapping[str, Verb]] = {"claim": Verb(OrderKind.CLAIM, "line", read=read_terms)}
    """CLAIM's words are read once, with the order (`read_terms`): the claim is judged from those values"""

    @classmethod
    def shape_board(cls, board: Board, options: Mapping[str, Any]) -> Board:
        return hepta_board(int(options.get("module", 2)))

    @property
    def module(self) -> int:
        return int(self.options["module"])

    # --- sides -------------------------------------------------------------------------------------------

    def fixed_sides(self) -> dict[str, tuple[str, ...]]:
        """Option A: each country's seven board-nations are one player, named by the country; option B: the
        default Latin square (a game or case names its own players with `sides`)."""
        if self.options["assignment"] == "a":
            return {c: tuple(f"{k}:{c}" for k in range(1, BOARDS + 1)) for c in COUNTRIES}
        return dict(ASSIGNMENT_B)

    def cut_side(self, power: str, side: str) -> str:
        """Rule 6: a player may cut his own support with a unit of a different nationality."""
        return f"{side}|{country(power)}"

    # --- across the boards (rule 3) ---------------------------------------------------------------------

    def support_problem(self, force: Force, into: str) -> Refusal | None:
        if self.module == 3 or board_of(force.at) == board_of(into):
            return None
        return OnlyTargetBoard(self.module, str(board_of(into)), into)

    def convoy_link(self, fleet_at: str, next_at: str) -> bool:
        """Module 2: "multi-fleet convoys must be on the same board"; module 3: fleets of any boards."""
        return self.module == 3 or board_of(fleet_at) == board_of(next_at)

    def convoy_through(self, origin: str, destination: str, sea: str) -> bool:
        """Judged on one standard board: the army's, the fleet's and the destination's boards are free under
        modules 2 and 3 (moves and convoys reach any board); module 1 convoys on one board only."""
        if self.module == 1 and not board_of(origin) == board_of(destination) == board_of(sea):
            return False
        o, d = unqualified(origin), unqualified(destination)
        return o != d and convoy_possible(_standard(), o, d, through=unqualified(sea))

    def fleet_chain(self, forces: Sequence[Force], origin: str, destination: str) -> bool:
        """A chain of fleets at sea, searched on one standard board with the fleets of the boards the module
        lets convoy together, so that the search is as small as a single board's."""
        base = _standard()
        o, d = unqualified(origin), unqualified(destination)
        if o == d or not convoy_possible(base, o, d):
            return False
        if self.module == 1 and board_of(origin) != board_of(destination):
            return False
        groups: dict[int, set[str]] = {}
        for f in forces:
            if f.composition.fleets and self.board.provinces[f.province].is_sea:
                key = 0 if self.module == 3 else board_of(f.at) or 0
                groups.setdefault(key, set()).add(unqualified(f.province))
        if self.module == 1:
            seas = groups.get(board_of(origin) or 0, set())
            return seas_chain(base, seas, o, d)
        return any(seas_chain(base, seas, o, d) for seas in groups.values())

    # --- claims and victory (rule 7) --------------------------------------------------------------------

    def winners_after_fall(self, centres: dict[str, str]) -> list[str] | None:
        return None  # judged with the claims, in after_phase

    def winter_always(self, centres: dict[str, str], state: dict[str, Any]) -> bool:
        """A Winter is played for claims conditional on builds (rule 7), even where nobody adjusts."""
        return any(claim.get("builds") for claim in state.get("claims", []))

    def players(self, position: Position) -> dict[str, str]:
        """power -> the player (side) playing it, by the side's own name."""
        sides = position.sides or self.fixed_sides()
        return {power: player for player, powers in sides.items() for power in powers}

    def _finder(self, position: Position) -> Callable[[str], str | None]:
        players = self.players(position)
        by_name = {_key(player): player for player in set(players.values())}
        countries = {country(p).lower() for p in players}

        def find(token: str) -> str | None:
            key = _key(token)
            if key in by_name:
                return by_name[key]
            power = self.board.lookup_power(token)
            if power is not None and power in players:
                return players[power]
            if key in countries:
                raise ClaimError(f"{token} is a country on every board: name the player or a board-nation (4:{token})")
            return None

        return find

    def bind_movement(self, position: Position, submitted: Sequence[Submitted]) -> Binding:
        """Standard binding, and each claim line read now, so that a player checking his orders learns at once
        whether a claim can be judged."""
        binding = super().bind_movement(position, submitted)
        for row in binding.results:
            if row.canonical is not None and row.canonical.kind is OrderKind.CLAIM:
                self._read_row(position, row)
        return binding

    def _read_row(self, position: Position, row: OrderResult) -> Claim | None:
        assert row.canonical is not None
        row.result = Result.ILLEGAL
        if position.phase.season not in ("Fall", "Autumn"):
            row.reasons = (ClaimOutOfSeason(),)
            return None
        player = self.players(position).get(row.power, row.power)
        try:
            names = sorted(set(self.players(position).values()))
            terms = row.canonical.terms
            if not isinstance(terms, ClaimTerms):  # a claim stored before its terms were kept: read it now
                terms = read_terms(row.canonical.words, self.board, self.verbs)
            claim = claim_of(terms, player, row.power, self._finder(position), names)
        except ClaimError as refused:
            row.reasons = (AndSo(ClaimUnread(str(refused)), Then.CLAIM),)
            return None
        if claim is None:
            row.reasons = (SoloNeedsNoClaim(),)
            return None
        row.result = Result.SUCCEEDS
        row.reasons = [ClaimPending("at the end of the Autumn")]
        return claim

    def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
        state = outcome.variant_state
        kind = position.phase.type
        if kind is PhaseType.MOVEMENT:
            rows: list[tuple[OrderResult, Claim]] = []
            for row in outcome.results:
                if row.canonical is not None and row.canonical.kind is OrderKind.CLAIM:
                    claim = self._read_row(position, row)
                    if claim is not None:
                        self._judge_orders(claim, outcome.results)
                        rows.append((row, claim))
            if outcome.next_phase.type is PhaseType.RETREAT:
                if rows:
                    state["claims"] = [c.json() for _, c in rows]
                    for row, _ in rows:
                        row.reasons = [ClaimPending("after the Autumn retreats")]
                return
            if self._autumn_over(position.phase, outcome):
                self._judge(position, outcome, [c for _, c in rows], {id(c): row for row, c in rows})
        elif kind is PhaseType.RETREAT:
            claims = [Claim.from_json(c) for c in state.pop("claims", [])]
            if self._autumn_over(position.phase, outcome):
                self._judge(position, outcome, claims, {})
        elif kind is PhaseType.ADJUSTMENT and state.get("claims"):
            claims = [Claim.from_json(c) for c in state.pop("claims")]
            built: dict[str, int] = {}
            players = self.players(position)
            for row in outcome.results:
                if (
                    row.canonical is not None
                    and row.canonical.kind is OrderKind.BUILD
                    and row.result is Result.SUCCEEDS
                ):
                    who = players.get(row.power, row.power)
                    built[who] = built.get(who, 0) + 1
            self._verdicts(position, outcome, claims, {}, built)

    def _autumn_over(self, phase: Phase, outcome: Outcome) -> bool:
        return self.calendar.ends_year(phase) and outcome.next_phase.type is not PhaseType.RETREAT

    def _judge_orders(self, claim: Claim, results: Sequence[OrderResult]) -> None:
        """The claim's conditions on moves, with this Autumn's results: an order not given does not hold. Each
        order was read with the claim (`Claim.asked`)."""
        for (text, wanted), asked in zip(claim.orders, claim.asked, strict=True):
            if asked is None:
                claim.failed.append(f"{text} {wanted} (not an order the judge can read)")
                continue
            row = next((r for r in results if _same_order(r.canonical, asked)), None)
            if row is None:
                claim.failed.append(f"{text} {wanted} (no such order was given)")
            elif (row.result is Result.SUCCEEDS) != (wanted == "succeeds"):
                claim.failed.append(f"{text} {wanted}")

    def _judge(self, position: Position, outcome: Outcome, claims: list[Claim], rows: dict[int, OrderResult]) -> None:
        if any(c.builds for c in claims):
            # conditional on builds: judged at the end of the Winter, unless a solo win ends the game now
            counts = self._counts(position, outcome.centres)
            if not any(n >= 70 for n in counts.values()):
                outcome.variant_state["claims"] = [c.json() for c in claims]
                for claim in claims:
                    if id(claim) in rows:
                        rows[id(claim)].reasons = [ClaimPending("after the Winter builds")]
                if outcome.next_phase.type is not PhaseType.ADJUSTMENT:
                    outcome.next_phase = Phase(
                        self.calendar.adjustment_season, position.phase.year, PhaseType.ADJUSTMENT
                    )
                return
            for claim in claims:
                if claim.builds:
                    claim.failed.append("conditional on builds, but the game ended before them")
        self._verdicts(position, outcome, claims, rows, {})

    def _counts(self, position: Position, centres: Mapping[str, str]) -> dict[str, int]:
        players = self.players(position)
        counts = dict.fromkeys(set(players.values()), 0)
        for owner in centres.values():
            who = players.get(owner, owner)
            counts[who] = counts.get(who, 0) + 1
        return counts

    def _verdicts(
        self,
        position: Position,
        outcome: Outcome,
        claims: list[Claim],
        rows: dict[int, OrderResult],
        built: dict[str, int],
    ) -> None:
        verdicts = judge_claims(claims, self._counts(position, outcome.centres), built)
        for claim, granted, reasons in verdicts.claims:
            row = rows.get(id(claim))
            if row is not None:
                row.result = Result.SUCCEEDS if granted else Result.FAILS
                row.reasons = reasons
            outcome.events.append(ClaimJudged(claim.player, claim.power, claim.text, granted, tuple(reasons)))
        if verdicts.wins:
            outcome.winner = sorted(verdicts.wins)
            outcome.wins = dict(sorted(verdicts.wins.items()))


def _same_order(given: Order | None, asked: Order) -> bool:
    """Does the order given (canonical) match the order a condition names (as the player wrote it)?"""
    if given is None or given.unit is None or asked.unit is None or given.kind is not asked.kind:
        return False
    if province_of(given.unit.location) != province_of(asked.unit.location):
        return False
    if (given.destination is None) != (asked.destination is None):
        return False
    if given.destination and asked.destination and province_of(given.destination) != province_of(asked.destination):
        return False
    if (given.target is None) != (asked.target is None):
        return False
    return not (
        given.target and asked.target and province_of(given.target.location) != province_of(asked.target.location)
    )
