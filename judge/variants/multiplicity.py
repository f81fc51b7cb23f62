"""Multiplicity I (Walkerdine) with the A/F rules, and Multiplicity II (Walkerdine, revised Black).

A force may be a multiple -- 2A, 3F, A/F, A/2F, 2A/2F -- that stands, moves, supports and is supported as one,
merges with others (MERGE) and splits (SPLIT, the A/F rules' DIVIDE). What departs from standard, by rule of
the texts (rulings and their options: docs/variants/multiplicity1.md and multiplicity2.md):

Multiplicity I
- strength by terrain: at sea an A/F counts its fleets, inland only its armies (rule 4, A/F rule 6c);
- in an A/F the armies are never more than the fleets (rule 3); a power's fleets may stand on both coasts of a
  split-coast province without acting together (A/F rule 5);
- an attack cuts support only up to its own strength (the GM's ruling), only the strongest of several attacks
  counts (A/F rule 10), a component ordered to stand absorbs an attack of its strength (GM) while an idle one
  does not (A/F rule 9); which of several supports falls is decided by a seeded die (GM), for an A/F the
  second written (A/F rule 11);
- 2F convoy a 2A; a force with a fleet in it is never convoyed (GM);
- builds may be added onto own units on home centres (rule 5, A/F rule 12); Winter 1900 placement (rule 9);
- an army and a fleet of one power retreating to one space: the army has priority (A/F rule 8);
- an A/F whose component fails to leave never divided: supports for the component that stays are void, and it
  defends and is dislodged whole (A/F rule 7).

Multiplicity II
- a force with armies is seaworthy when its fleets are at least as many; only seaworthy forces go to sea, an army
  merging at sea does not support the merge (rule 5);
- a support is cut up to the strongest single attack, supports for an attack on the cutter not counted, the
  last-written support first (rule 4); a merging unit does not cut a support for an attack on its own origin;
- split parts meeting in one space merge (rule 7); the part that stays may not support a splitting part;
- an A/F convoys when it and its cargo are seaworthy (rule 6); the stronger retreat wins (rule 8);
- a merging part dislodged while its merge fails is stopped, and the others follow their orders without it (rule 3).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar

from judge.board.model import Terrain
from judge.engine.binding import Binding, bind_multiples
from judge.engine.events import UnitPlaced
from judge.engine.orders import Order, OrderKind, Submitted
from judge.engine.phase import Phase
from judge.engine.position import Outcome, Position
from judge.engine.reasons import CutFirst
from judge.engine.refusals import (
    BuildOntoRule12,
    MergePartStopped,
    NotAUnit,
    NotMultiple,
    NotSeaworthy,
    OpeningHasUnit,
    OpeningSingle,
    PartLeftCannotStand,
    Refusal,
    SplitFailsWhole,
    StrandedSupport,
    SupportOfAMerger,
    unit_name,
)
from judge.engine.rules import EDITION_OPTION, VICTORY_OPTION, RuleOption, Rules
from judge.engine.units import ARMY, FLEET, Composition, Force
from judge.engine.view import MovementView


class MultiplicityRules(Rules):
    """Multiplicity I with the A/F rules."""

    variant = "multiplicity1"
    merges_by_convoy = False  # rule 6: "adjacent to, or already on, the province"
    stacking = "location"
    weighs_compositions = True
    split_parts_support = True
    builds_beside_own_units = True  # home centres held by the power's own units (rule 5)
    OPTIONS: ClassVar[dict[str, RuleOption]] = {
        "edition": EDITION_OPTION,
        "victory_centres": VICTORY_OPTION,
        "cut_choice": RuleOption(
            "which of a multiple's several supports an attack cuts: a seeded die (the GM's ruling) or the "
            "last written first (A/F rule 11); an A/F always uses A/F rule 11",
            ("die", "last_written"),
            "die",
        ),
        "standing_absorbs": RuleOption(
            "a component ordered to stand absorbs an attack of its strength before supports are cut (GM's ruling)",
            (True, False),
            True,
        ),
        "build_onto": RuleOption(
            "building onto a home centre the power's own unit holds: any units, making a multiple (rule 5), or "
            "only the other type onto a single unit, making an A/F (A/F rule 12)",
            ("rule5", "af12"),
            "rule5",
        ),
    }

    # --- what a force is ------------------------------------------------------------------------------

    def allows(self, composition: Composition) -> bool:
        if composition.garrisons or composition.size == 0:
            return False
        return composition.armies <= composition.fleets or composition.fleets == 0

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        if terrain is Terrain.SEA:
            return composition.fleets
        if terrain is Terrain.LAND:
            return composition.armies + composition.garrisons
        return composition.size

    def can_convoy(self, composition: Composition) -> bool:
        return composition.fleets > 0

    def convoy_capacity(self, composition: Composition) -> int | None:
        return composition.fleets

    def build_onto_problem(self, occupant: Composition, built: Composition) -> Refusal | None:
        """A/F rule 12 (option `build_onto = af12`): only onto a single unit, and only the other type."""
        if self.options.get("build_onto") != "af12":
            return None
        if not occupant.is_single or not built.is_single or occupant.is_army == built.is_army:
            return BuildOntoRule12(built, occupant)
        return None

    # --- orders ---------------------------------------------------------------------------------------

    def bind_movement(self, position: Position, submitted: Sequence[Submitted]) -> Binding:
        return bind_multiples(self, position, submitted)

    def called_off(self, resolver: MovementView) -> dict[int, Refusal]:
        """A split at sea whose failed parts would leave a force there that cannot stand at sea (an army
        alone; in Multiplicity II an unseaworthy force) fails whole (Multiplicity II rule 7, and for Multiplicity
        I the A/F rules' 'each component must move away')."""
        provinces = self.board.provinces
        off: dict[int, Refusal] = self._stranded_supports(resolver)
        for province, here in resolver.holders.items():
            if not provinces[province].is_sea:
                continue
            leaving = [
                i
                for i in here
                if resolver.kind[i] is OrderKind.MOVE and (resolver.dets[i].merge or "").startswith("split")
            ]
            if not leaving:
                continue
            staying = Composition.of()
            for i in here:
                if not (resolver.kind[i] is OrderKind.MOVE and resolver.resolution[resolver.leader[i]]):
                    staying = staying.plus(resolver.dets[i].composition)
            power = resolver.dets[here[0]].power
            left = Force(power, staying, resolver.dets[here[0]].at)
            if staying.size and (self.check_force(left) or self.may_enter(staying, province)):
                off.update(dict.fromkeys(leaving, SplitFailsWhole(staying)))
        return off

    def _stranded_supports(self, resolver: MovementView) -> dict[int, Refusal]:
        """A/F rule 7: "supports for the remaining unit are nullified if the other component fails to leave" --
        the supports to hold an A/F's staying component are void when a component ordered away stays. (Multiplicity
        II has no such clause; its Rules override this away.)"""
        void: dict[int, Refusal] = {}
        for province, here in resolver.holders.items():
            whole = Composition.of()
            for h in here:
                whole = whole.plus(resolver.dets[h].composition)
            if not (whole.armies and whole.fleets):
                continue
            stuck = any(
                resolver.kind[h] is OrderKind.MOVE
                and (resolver.dets[h].merge or "").startswith("split")
                and not resolver.resolution[resolver.leader[h]]
                for h in here
            )
            if not stuck:
                continue
            for s in range(len(resolver.dets)):
                if resolver.kind[s] is OrderKind.SUPPORT and not resolver.dest[s] and resolver.target[s] == province:
                    void[s] = StrandedSupport(province)
        return void

    def split_problem(self, force: Force, parts: list[tuple[Composition, Order]]) -> Refusal | None:
        if force.composition.is_single:
            return NotMultiple(unit_name(force), single=True)
        staying = force.composition
        for composition, order in parts:
            if not self.allows(composition):
                return NotAUnit(composition, self.variant)
            if order.kind is OrderKind.MOVE:
                staying = staying.minus(composition) or staying
        if staying.size and staying != force.composition:
            problem = self.check_force(Force(force.power, staying, force.at)) or self.may_enter(staying, force.province)
            if problem:
                return PartLeftCannotStand(force.province, staying, problem)
        return None

    # --- cuts -----------------------------------------------------------------------------------------

    def _absorbed(self, resolver: MovementView, support: int) -> int:
        """What the components ordered to stand in the supporting force's province take of an attack."""
        if not self.options.get("standing_absorbs", True):
            return 0
        return sum(
            resolver.own_strength[h]
            for h in resolver.holders.get(resolver.origin[support], ())
            if resolver.kind[h] is OrderKind.HOLD and not resolver.dets[h].idle and resolver.dets[h].merge is None
        )

    def cut_amount(self, resolver: MovementView, support: int, cutters: dict[int, list[int]], high: bool) -> int:
        """Only the strongest attack cuts, and only up to its own strength."""
        if not cutters:
            return 0
        strongest = max(sum(resolver.attack_weight[m] for m in members) for members in cutters.values())
        return max(0, strongest - self._absorbed(resolver, support))

    def cut_order(self, resolver: MovementView, supports: list[int]) -> list[int]:
        dets = resolver.dets
        if len(supports) > 1 and all(dets[s].order.priority is not None for s in supports):
            # the player numbered the supports (A/F rule 11): the highest number is cut first
            return sorted(supports, key=lambda s: (-(dets[s].order.priority or 0), -dets[s].written))
        last_first = sorted(supports, key=lambda s: -dets[s].written)
        if len(supports) < 2:
            return last_first
        # A/F rule 11 is about the force, an A/F whose components give separate supports: each support comes from
        # one component, so the force is looked at whole
        here = resolver.holders.get(resolver.origin[supports[0]], ())
        armies = any(resolver.dets[h].composition.armies for h in here)
        fleets = any(resolver.dets[h].composition.fleets for h in here)
        if (armies and fleets) or self.options.get("cut_choice") == "last_written":
            return last_first
        return resolver.shuffled(sorted(supports), CutFirst(resolver.origin[supports[0]]))

    # --- after the moves ------------------------------------------------------------------------------

    def assemble(self, forces: list[Force]) -> list[Force]:
        """A power's detachments that end in one place are one force again (merges, a split that failed)."""
        by_place: dict[tuple[str, str], Force] = {}
        armies_only: list[Force] = []
        for force in forces:
            if force.composition.fleets == 0 and "/" not in force.at:
                armies_only.append(force)
                continue
            key = (self._owner(force), force.at)
            known = by_place.get(key)
            by_place[key] = force if known is None else self._joined(known, force, force.at)
        for army in armies_only:
            owner = self._owner(army)
            hosts = [k for k, f in by_place.items() if k[0] == owner and f.province == army.province]
            key = hosts[0] if len(hosts) == 1 else (owner, army.at)
            known = by_place.get(key)
            by_place[key] = army if known is None else self._joined(known, army, key[1])
        return list(by_place.values())

    def _owner(self, force: Force) -> str:
        """Whose detachments make one force again: a power's (Hoplite Wars: a player's, Major and Minor)."""
        return force.power

    def _joined(self, force: Force, other: Force, at: str) -> Force:
        return force.joined(other, at)

    def settle_retreats(self, arrivals: list[list[Force]]) -> list[int]:
        """An army and a fleet of one power retreating to one space: the army has priority (A/F rule 8)."""
        if len(arrivals) == 2 and arrivals[0][0].power == arrivals[1][0].power:
            kinds = [units[0].composition for units in arrivals]
            if kinds[0].is_army != kinds[1].is_army:
                return [len(arrivals[0]) if kinds[0].is_army else 0, len(arrivals[1]) if kinds[1].is_army else 0]
        return super().settle_retreats(arrivals)


class Multiplicity2Rules(MultiplicityRules):
    """Multiplicity II (Walkerdine, revised Black), the multiple-unit rules Hoplite Wars uses."""

    variant = "multiplicity2"
    merges_by_convoy = True  # rule 3 asks only that the units reach the space
    merge_fails_whole = False  # rule 3: a part that fails leaves the others to follow their orders
    stacking = "province"
    split_parts_support = False

    OPTIONS: ClassVar[dict[str, RuleOption]] = {
        "edition": EDITION_OPTION,
        "victory_centres": VICTORY_OPTION,
        "merge_part_stopped": RuleOption(
            "when a merging part counts as stopped, the others following their orders without it (rule 3): when it "
            "is dislodged, or also when it bounces head to head with a unit leaving the merge's space for its own",
            ("dislodged", "bounced"),
            "dislodged",
        ),
    }

    def allows(self, composition: Composition) -> bool:
        return composition.garrisons == 0 and composition.size > 0

    def _stranded_supports(self, resolver: MovementView) -> dict[int, Refusal]:
        return {}  # A/F rule 7 is not a Multiplicity II rule

    def called_off(self, resolver: MovementView) -> dict[int, Refusal]:
        return {**super().called_off(resolver), **self._stopped_merge_parts(resolver)}

    def _stopped_merge_parts(self, resolver: MovementView) -> dict[int, Refusal]:
        """Rule 3: "if part of a merge fails due to one of the component units failing to reach the space in which
        the merge is to take place, then any other units ordered to merge will follow their movement orders
        unaffected (even if this results in a normal move as opposed to a merge)". A merge attacks as one (its
        parts support each other), so a part fails on its own only when it is dislodged while the merge fails
        (beaten head to head by a unit leaving the merge's space for the part's own, or taken where it stands) --
        or when its convoy fails or it cannot reach the space at all, which the resolver and the binding already
        leave to the others. The dislodged part stays, and the phase is resolved again with the others moving
        without it: a merge of the rest or a plain move. A support to hold the part's province is void as it was
        (a unit ordered to move is not supported to hold) and stays void."""
        off: dict[int, Refusal] = {}
        bounced = self.options.get("merge_part_stopped") == "bounced"
        for g, members in resolver.members.items():
            if resolver.resolution[g] or len(members) < 2 or not (resolver.dets[g].merge or "").startswith("merge"):
                continue
            for m in members:
                coming = [
                    k for k in resolver.moves_to.get(resolver.origin[m], ()) if resolver.power[k] != resolver.power[m]
                ]
                if any(resolver.resolution[k] for k in coming):
                    off[m] = MergePartStopped(str(resolver.dest[m]), bounced=False)
                elif bounced and any(
                    resolver.origin[x] == resolver.dest[m] for k in coming for x in resolver.members[k]
                ):
                    off[m] = MergePartStopped(str(resolver.dest[m]), bounced=True)
        stopped = {resolver.origin[m] for m in off}
        for s, kind in enumerate(resolver.kind):
            into = resolver.target[s]
            if (
                kind is OrderKind.SUPPORT
                and not resolver.dest[s]
                and into in stopped
                and all(h in off for h in resolver.holders[into])
            ):
                off[s] = SupportOfAMerger(str(into))
        return off

    # --- rule 1: the initial placement ----------------------------------------------------------------

    def build_problem(self, built: Force, units: Sequence[Force], phase: Phase) -> Refusal | None:
        """Rule 1: the game opens with one army or one fleet on each home supply centre, never a multiple."""
        if phase not in self.calendar.opening:
            return None
        if not built.composition.is_single:
            return OpeningSingle(built.composition)
        if any(f.province == built.province for f in units):
            return OpeningHasUnit(built.province)
        return None

    def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
        """Rule 1 leaves no home centre empty: a centre the player placed nothing on gets the unit the standard
        game starts there (an army, or a fleet where the map starts one), reported as a `placed` event."""
        if position.phase not in self.calendar.opening:
            return
        units = list(outcome.units)
        held = {f.province for f in units}
        for power in sorted(self.board.powers.values(), key=lambda p: p.name):
            for start in power.units:
                province = start.location.partition("/")[0]
                if province in held or outcome.centres.get(province) != power.name:
                    continue
                placed = Force(power.name, ARMY if start.kind == "A" else FLEET, start.location)
                units.append(placed)
                held.add(province)
                why = "rule 1: every home centre starts with a unit; none was placed here"
                outcome.events.append(UnitPlaced(power.name, str(placed.composition), placed.at, why))
        outcome.units = tuple(units)

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """The number of units, on land and at sea alike (rule 4; rule 5: "the usual Abstraction A/F rules are not
        used", so an A/F at sea counts its armies too). The one exception is rule 5's: an army merging into a sea
        space does not support the merge (an army alone is at sea only as part of a merge)."""
        if terrain is Terrain.SEA and composition.fleets == 0:
            return 0
        if terrain is Terrain.LAND:
            return composition.armies  # fleets cannot act inland at all: that is the board, not an A/F rule
        return composition.size

    def may_enter(self, composition: Composition, province: str) -> Refusal | None:
        if self.board.provinces[province].is_sea and composition.armies > composition.fleets:
            return NotSeaworthy(composition)
        return None

    def merge_may_enter(self, force: Force, province: str, merge: Order) -> bool:
        return self.board.provinces[province].is_sea  # an army may join a fleet at sea (rule 5)

    def merge_problem(self, merged: Composition, province: str) -> Refusal | None:
        return super().merge_problem(merged, province) or self.may_enter(merged, province)

    def can_convoy(self, composition: Composition) -> bool:
        return composition.fleets > composition.armies

    def convoy_capacity(self, composition: Composition) -> int | None:
        """Room for as many armies as keep it and its cargo seaworthy (rule 6)."""
        return composition.fleets - composition.armies

    def cut_amount(self, resolver: MovementView, support: int, cutters: dict[int, list[int]], high: bool) -> int:
        """Up to the strongest single attack with its supports -- not counting supports from the province the
        cut support helps into, and not counting merging units from that province (rule 4)."""
        if not cutters:
            return 0
        towards = resolver.dest[support] or resolver.target[support]
        strongest = 0
        for group, members in cutters.items():
            strength = sum(resolver.attack_weight[m] for m in members)
            for s in resolver.move_supports.get(group, []):
                if resolver.origin[s] != towards:
                    strength += sum(1 for share in resolver.shares[s] if resolver.resolve(share, high))
            strongest = max(strongest, strength)
        return strongest

    def cut_order(self, resolver: MovementView, supports: list[int]) -> list[int]:
        return sorted(supports, key=lambda s: -resolver.dets[s].written)

    def settle_retreats(self, arrivals: list[list[Force]]) -> list[int]:
        """The stronger retreating force wins a clash (rule 8); equal strengths are all disbanded."""
        strengths = [sum(f.composition.size for f in units) for units in arrivals]
        best = max(strengths)
        if strengths.count(best) > 1:
            return [0] * len(arrivals)
        return [len(units) if s == best else 0 for units, s in zip(arrivals, strengths, strict=True)]
