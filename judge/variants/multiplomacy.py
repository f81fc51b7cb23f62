"""Multiplomacy (C. H. Hemming, 1973): any number of one power's units in a province, each an individual.

What departs from standard (rule numbers of the text; rulings in docs/variants/multiplomacy.md):
- units stand together and are ordered by number ("3 F Eng-Bre"); an unnumbered order moves one unit (5 i);
- a power's moves into one province act in unison, from wherever they come (6 ii); own units never stand each
  other off and may swap or share a province (5, 6 vi);
- an attack of n units cuts n supporting units, the last-written support first (7); separate powers' attacks
  each cut their own n;
- the board and deployment are in maps/multiplomacy.toml; builds and victory in the adjustment hooks.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.board.model import province_of
from judge.engine.binding import Binding, bind_stacks
from judge.engine.orders import Submitted
from judge.engine.position import Position
from judge.engine.resolution import Detachment
from judge.engine.rules import EDITION_OPTION, VICTORY_OPTION, RuleOption, Rules
from judge.engine.supply import centre_values
from judge.engine.units import Composition, Force
from judge.engine.view import MovementView


class MultiplomacyRules(Rules):
    variant = "multiplomacy"
    shares_provinces = True
    stacking = "power"
    builds_beside_own_units = True  # any home province held at the start, occupied or not (rule 10)
    OPTIONS = {  # noqa: RUF012 - class-level option table
        "edition": EDITION_OPTION,
        "victory_centres": VICTORY_OPTION,
        "victory_winters": RuleOption(
            "how many consecutive winters a power must end with the victory centres", (1, 2), 2
        ),
    }

    def bind_movement(self, position: Position, submitted: Sequence[Submitted]) -> Binding:
        return bind_stacks(self, position, submitted)

    def attack_group_key(self, detachment: Detachment, index: int) -> object:
        destination = detachment.order.destination
        assert destination is not None
        return ("unison", detachment.power, province_of(destination))

    def cut_amount(self, resolver: MovementView, support: int, cutters: dict[int, list[int]], high: bool) -> int:
        """Every attacking unit cuts one supporting unit (rule 7)."""
        return sum(resolver.dets[m].composition.size for members in cutters.values() for m in members)

    def winners_after_fall(self, centres: dict[str, str]) -> list[str] | None:
        return None  # decided at the end of the winter

    def winter_always(self, centres: dict[str, str], state: dict[str, Any]) -> bool:
        """A power at the victory count, or one that was there last winter, needs the winter to be counted."""
        counts = centre_values(self, centres)
        return any(n >= 2 * self.victory_centres() for n in counts.values()) or bool(
            state.get("winters_at_victory_count")
        )

    def end_of_winter(self, position: Position) -> tuple[list[str] | None, dict[str, Any]]:
        """Victory: at least 29 centres at the end of two consecutive winters (rule 11)."""
        need = 2 * self.victory_centres()  # in half centres, as every count
        counts = centre_values(self, position.centres)
        earlier = position.variant_state.get("winters_at_victory_count", {})
        now = {p: int(earlier.get(p, 0)) + 1 for p, n in counts.items() if n >= need}
        state = {**position.variant_state, "winters_at_victory_count": now}
        winners = sorted(p for p, n in now.items() if n >= int(self.options.get("victory_winters", 2)))
        return (winners or None), state

    def settle_retreats(self, arrivals: list[list[Force]]) -> list[int]:
        """One power's units may retreat together; between powers the larger survives by its margin (rule 9)."""
        by_power: dict[str, int] = {}
        for units in arrivals:
            by_power[units[0].power] = by_power.get(units[0].power, 0) + len(units)
        ranked = sorted(by_power.values(), reverse=True)
        margin = ranked[0] - (ranked[1] if len(ranked) > 1 else 0)
        strongest = [p for p, n in by_power.items() if n == ranked[0]]
        left = margin if len(strongest) == 1 else 0
        kept = []
        for units in arrivals:
            if len(strongest) == 1 and units[0].power == strongest[0]:
                take = min(left, len(units))
                left -= take
                kept.append(take)
            else:
                kept.append(0)
        return kept

    def convoy_capacity(self, composition: Composition) -> int | None:
        """A stack's convoy order carries one army per fleet ordered (rule 8's "2 F Ion convoy 2 A")."""
        return composition.fleets

    def assemble(self, forces: list[Force]) -> list[Force]:
        """Units stay individuals: a detachment of three fleets is three fleets again."""
        singles = []
        for force in forces:
            if force.composition.is_single:
                singles.append(force)
            else:
                singles.extend(Force(force.power, c, force.at) for c in force.composition.singles())
        return singles
