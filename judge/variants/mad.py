"""Mad Diplomacy (Jon Lovibond, 1974, rv04): units of any strength, placement openings, boarding at sea, Atlantis.

What departs from standard, by rule of the text (rulings and their options: docs/variants/mad.md):
- rule 2: Spring 1900 is a placement: each power places its normal number of centres anywhere in its country
  (the map's `country`); they are its home centres from then on (the game's state keeps them);
- rule 3: Autumn 1900 is a placement: units of any strength anywhere in the country, total strength at most the
  centres;
- rule 4: any strength of fleet convoys any strength of army, several armies at once; the Abstraction A/F rule:
  an army boards a fleet at sea (`A Rom boards F Tys`), the A/F sails as its fleet's strength and the army lands
  (`A Wms disembarks Spa`); an A/F exists only at sea; the army is lost if still aboard at the end of its fourth
  move; a convoyed army whose convoying fleet is dislodged is annihilated (4d), and so is an army landing from a
  fleet dislodged in the same move (4d with 4b);
- rule 5: builds of any strength on the power's placed home centres, onto its own unit there too; removals from a
  unit's strength;
- rules 6-8: merges (self-supporting, all units ordered, supported from outside and inside the target, in transit
  by convoy), splits (a part that stays may support the parts moving out); no merge or split in retreats, and a
  multiple may not retreat where a smaller unit goes;
- rule 9: Atlantis, one more centre, wanders from Switzerland by a die roll after each movement season and is
  credited at the year's end by where it stands;
- rule 10: an attack cuts a support by its own strength;
- rule 11 (optional): the powers are published under other names (presentation only).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from judge.board.model import Terrain
from judge.engine.binding import Binding
from judge.engine.events import Annihilated
from judge.engine.orders import Order, OrderKind, Submitted, Verb
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import Outcome, Position, Result
from judge.engine.reasons import NoConvoy, RouteBroken
from judge.engine.refusals import AFAshore, AFOnlyAtSea, LandingCalledOff, MergeOnLand, Refusal
from judge.engine.rules import EDITION_OPTION, VICTORY_OPTION, RuleOption, Rules
from judge.engine.units import Composition, Force
from judge.engine.view import MovementView
from judge.value import replace
from judge.variants.multiplicity import MultiplicityRules

MOVES_ABOARD = 4
"""an army still aboard at the end of its fourth move aboard is annihilated (rule 4b)"""

_ROTATED = {
    "France": "Italy",
    "Italy": "Turkey",
    "Turkey": "Austria",
    "Austria": "Germany",
    "Germany": "Russia",
    "Russia": "England",
    "England": "France",
}


def _reversed(name: str) -> str:
    return name[::-1].capitalize()


class MadRules(MultiplicityRules):
    """Mad Diplomacy, on the Multiplicity machinery for multiples (merges, splits, A/F)."""

    variant = "mad"
    merges_by_convoy = True  # rule 6: several units may merge whilst being convoyed
    merge_fails_whole = True  # rule 8: all units in a merge must be ordered
    stacking = "province"
    split_parts_support = True  # rule 7: units remaining may support units moving out
    builds_beside_own_units = True  # rule 5b: strength added to a unit on a home centre
    convoys_several = True  # rule 4e: separate armies carried by one fleet land in different provinces
    unit_facts = ("aboard",)
    verbs: ClassVar[Mapping[str, Verb]] = {
        "centre": Verb(OrderKind.CENTRE, "place"),
        "center": Verb(OrderKind.CENTRE, "place"),
        "sc": Verb(OrderKind.CENTRE, "place"),
        "supply": Verb(OrderKind.CENTRE, "place"),
        "place": Verb(OrderKind.BUILD, "placement"),
        "places": Verb(OrderKind.BUILD, "placement"),
        "boards": Verb(OrderKind.BOARD, "unit target"),
        "board": Verb(OrderKind.BOARD, "unit target"),
        "embarks": Verb(OrderKind.BOARD, "unit target"),
        "disembarks": Verb(OrderKind.MOVE, "unit place"),
        "disembark": Verb(OrderKind.MOVE, "unit place"),
        "lands": Verb(OrderKind.MOVE, "unit place"),
    }
    OPTIONS: ClassVar[dict[str, RuleOption]] = {
        "edition": EDITION_OPTION,
        "victory_centres": VICTORY_OPTION,
        "cut_by": RuleOption(
            "several attacks on one supporting unit cut it by the sum of their strengths (each cuts by its own, "
            "rule 10) or only by the strongest",
            ("sum", "strongest"),
            "sum",
        ),
        "atlantis_moves": RuleOption(
            "Atlantis wanders to any bordering province, seas included, or only to land (rule 9: 'an adjacent "
            "province')",
            ("any", "land"),
            "any",
        ),
        "retreat_clash": RuleOption(
            "retreats meeting in one space: the smallest unit arrives, a larger may not go where a smaller goes "
            "(rule 8), or every one is disbanded (standard)",
            ("smaller", "standard"),
            "smaller",
        ),
        "names": RuleOption(
            "optional rule 11: the powers are published as the next power (France as Italy), the next spelt "
            "backwards (Ylati), their own spelt backwards (Ecnarf), or sanely",
            ("sane", "rotated", "rotated_reversed", "reversed"),
            "sane",
        ),
    }

    # --- what a force is ------------------------------------------------------------------------------

    def allows(self, composition: Composition) -> bool:
        """Units of any strength, armies or fleets; armies and fleets together only as an A/F (an army aboard a
        fleet), which check_force keeps at sea."""
        return composition.garrisons == 0 and composition.size > 0

    def check_force(self, force: Force) -> Refusal | None:
        composition = force.composition
        if composition.armies and composition.fleets and not self.board.provinces[force.province].is_sea:
            return AFOnlyAtSea(force.province)
        return super().check_force(force)

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """A unit's strength is its size; an A/F moves and fights as its fleet (rule 4b); an army alone at sea
        (joining a fleet) adds nothing there."""
        if terrain is Terrain.SEA:
            return composition.fleets
        if composition.armies and composition.fleets:
            return composition.fleets
        return composition.size

    def may_enter(self, composition: Composition, province: str) -> Refusal | None:
        if composition.armies and composition.fleets and not self.board.provinces[province].is_sea:
            return AFAshore()
        return None

    def merge_may_enter(self, force: Force, province: str, merge: Order) -> bool:
        """An army boards its own fleet at sea (rule 4b)."""
        return self.board.provinces[province].is_sea

    def merge_problem(self, merged: Composition, province: str) -> Refusal | None:
        """Armies and fleets combine only by boarding: at sea (rule 6, "A's and F's may not merge except by the
        A/F move")."""
        if merged.armies and merged.fleets and not self.board.provinces[province].is_sea:
            return MergeOnLand(merged, province)
        return super().merge_problem(merged, province)

    def can_convoy(self, composition: Composition) -> bool:
        return composition.fleets > 0 and composition.armies == 0

    def convoy_capacity(self, composition: Composition) -> int | None:
        """Any strength of fleet convoys any strength of army (rule 4c)."""
        return None

    def _stranded_supports(self, resolver: MovementView) -> dict[int, Refusal]:
        return {}  # Multiplicity's A/F rule 7 is not Mad Diplomacy's

    def called_off(self, resolver: MovementView) -> dict[int, Refusal]:
        """A split at sea that would leave an army alone there fails whole, except where the army is landing from
        the sea its fleet sails to (it stays aboard the fleet if the landing fails, rule 4b)."""
        off = super().called_off(resolver)
        carried = {resolver.origin[i] for i in range(len(resolver.dets)) if resolver.dets[i].order.via}
        off = {i: why for i, why in off.items() if resolver.origin[i] not in carried}
        off.update(self._landings_of_dislodged_fleets(resolver))
        return off

    def _landings_of_dislodged_fleets(self, resolver: MovementView) -> dict[int, Refusal]:
        """Rule 4b with 4d: an army landing from a fleet at sea is carried by it ("a fleet disembarking an army",
        the A/F convoy rule), so when that fleet is forced to retreat in the same move, the landing is a convoy
        whose fleet was dislodged: the army does not land, and (after the phase) is annihilated with the fleet's
        A/F. A landing carried by the fleet's sail (`via`) goes with the sail: a fleet that sailed was not
        dislodged."""
        off: dict[int, Refusal] = {}
        provinces = self.board.provinces
        for i, d in enumerate(resolver.dets):
            if resolver.kind[i] is not OrderKind.MOVE or d.order.via or d.composition.fleets:
                continue
            sea = resolver.origin[i]
            if not provinces[sea].is_sea or not resolver.resolution[resolver.leader[i]]:
                continue
            fleets = [h for h in resolver.holders[sea] if resolver.dets[h].composition.fleets]
            stayed = [
                h
                for h in fleets
                if not (resolver.kind[h] is OrderKind.MOVE and resolver.resolution[resolver.leader[h]])
            ]
            entered = any(
                resolver.power[g] != resolver.power[i] and resolver.resolution[g]
                for g in resolver.moves_to.get(sea, ())
            )
            if stayed and entered:
                off[i] = LandingCalledOff(sea)
        return off

    # --- cuts (rule 10) -------------------------------------------------------------------------------

    def cut_amount(self, resolver: MovementView, support: int, cutters: dict[int, list[int]], high: bool) -> int:
        """An attack cuts a support by its own strength: a 3A's attack leaves a 4A's support 1 (rule 10). A merge
        cuts as the unit it forms, with all its strength, also the part that comes from the province the support
        helps into (rule 10's example: 2A(Gal) + A(War) MERGE = 3A(Ukr) leaves the 4A(Ukr)'s support for the
        attack on War 1, not 2)."""
        if not cutters:
            return 0
        strengths = [sum(resolver.attack_weight[m] for m in resolver.members[leader]) for leader in cutters]
        return max(strengths) if self.options.get("cut_by") == "strongest" else sum(strengths)

    def cut_order(self, resolver: MovementView, supports: list[int]) -> list[int]:
        return Rules.cut_order(self, resolver, supports)

    # --- orders: boarding, landing, supports from inside a merge -------------------------------------

    def bind_movement(self, position: Position, submitted: Sequence[Submitted]) -> Binding:
        """The A/F rule's boarding and same-move landing, and rule 7's support from inside a merge, as orders
        the resolver understands (judge/variants/mad_boarding.py); then the multiples' binding."""
        from judge.variants.mad_boarding import prepare

        prepared = prepare(self, position, submitted)
        binding = super().bind_movement(prepared.position, prepared.submitted)
        for row, (order, note, ok) in prepared.settled.items():
            entry = binding.results[row]
            entry.canonical = order
            entry.result = Result.SUCCEEDS if ok else Result.ILLEGAL
            entry.reasons = [] if ok and order.kind is OrderKind.BOARD else [note]
        return binding

    # --- retreats (rule 8) -----------------------------------------------------------------------------

    def settle_retreats(self, arrivals: list[list[Force]]) -> list[int]:
        """A multiple may not retreat into the space of a smaller unit: where retreats meet, the smallest arrives
        and the others are disbanded; two smallest alike are both disbanded, as in standard."""
        if len(arrivals) < 2 or self.options.get("retreat_clash") == "standard":
            return Rules.settle_retreats(self, arrivals)
        sizes = [sum(f.composition.size for f in units) for units in arrivals]
        least = min(sizes)
        if sizes.count(least) > 1:
            return [0] * len(arrivals)
        return [len(units) if size == least else 0 for units, size in zip(arrivals, sizes, strict=True)]

    # --- home centres: those the power placed (rule 2) ------------------------------------------------

    def home_centres(self, power: str, state: Mapping[str, Any], centres: Mapping[str, str]) -> tuple[str, ...]:
        """The centres the power placed in Spring 1900 (the state's `homes`); where a case gives no `homes`, the
        centres within its country, which are exactly those (rule 2: no other centre lies in a country)."""
        homes = state.get("homes") or {}
        if power in homes:
            return tuple(p for p in (self.board.lookup(str(h)) for h in homes[power]) if p)
        country = self.board.powers[power].country if power in self.board.powers else ()
        return tuple(sorted(p for p in centres if p in country))

    def may_be_centre(self, province: str) -> bool:
        """A supply centre of the map, or a province of a power's country (where its centres may be placed)."""
        if super().may_be_centre(province):
            return True
        return any(province in power.country for power in self.board.powers.values())

    def power_label(self, power: str, phase: Phase) -> str:
        """Optional rule 11, presentation only: the name the game publishes for a power."""
        chosen = self.options.get("names", "sane")
        if chosen == "rotated":
            return _ROTATED.get(power, power)
        if chosen == "rotated_reversed":
            return _reversed(_ROTATED.get(power, power))
        if chosen == "reversed":
            return _reversed(power)
        return power

    # --- the placement openings (rules 2 and 3) -------------------------------------------------------

    def adjudicate_placement(self, position: Position, submitted: Sequence[Submitted], seed: int) -> Outcome:
        from judge.variants.mad_placement import place_centres, place_units

        if position.phase == self.calendar.opening[0]:
            return place_centres(self, position, submitted)
        return place_units(self, position, submitted)

    # --- after each phase: the army aboard, Atlantis -----------------------------------------------------

    def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
        from judge.variants.mad_atlantis import credit_atlantis, wander

        phase = position.phase
        if phase.type is PhaseType.MOVEMENT:
            _back_aboard(self, outcome)
            _count_moves_aboard(position, outcome)
            _annihilate_convoyed(position, outcome)
            wander(self, outcome, rng)
        year_over = self.calendar.ownership_changes(phase) and outcome.next_phase.type is not PhaseType.RETREAT
        if year_over:
            credit_atlantis(self, outcome)
            self._after_crediting(outcome)

    def _after_crediting(self, outcome: Outcome) -> None:
        """Atlantis' credit may bring a build or a removal, or a victory, the phase did not count on."""
        from judge.engine.supply import adjustments_needed

        year = outcome.phase.year
        needed = adjustments_needed(self, outcome.centres, outcome.units, outcome.variant_state)
        outcome.next_phase = (
            Phase(self.calendar.adjustment_season, year, PhaseType.ADJUSTMENT)
            if needed
            else self.calendar.first_movement(year + 1)
        )
        outcome.winner = self.winners_after_fall(outcome.centres)


def _back_aboard(rules: MadRules, outcome: Outcome) -> None:
    """An army whose landing failed after its fleet sailed stays aboard, at the sea the fleet sailed to (rule 4b:
    the A/F moves, then the army disembarks); the resolver left it where the move began."""
    landing = {
        r.canonical.unit.location: r.canonical.via
        for r in outcome.results
        if r.canonical is not None and r.canonical.via and r.canonical.unit is not None
    }
    if not landing:
        return
    placed = []
    for force in outcome.units:
        via = landing.get(force.at)
        alone_at_sea = force.composition.fleets == 0 and rules.board.provinces[force.province].is_sea
        placed.append(force.moved_to(via) if via and alone_at_sea else force)
    outcome.units = tuple(rules.assemble(placed))


def _count_moves_aboard(position: Position, outcome: Outcome) -> None:
    """Each A/F's army counts its moves aboard (the move it boarded in is the first); at the end of its fourth it
    is annihilated if still aboard (rule 4b). The count travels as the unit's `aboard` fact."""
    units = []
    for force in outcome.units:
        composition = force.composition
        if not (composition.armies and composition.fleets):
            units.append(force.with_facts(aboard=None) if force.fact("aboard") is not None else force)
            continue
        moves = int(force.fact("aboard") or 0) + 1
        if moves >= MOVES_ABOARD:
            fleet = Composition.of(0, composition.fleets)
            units.append(Force(force.power, fleet, force.at))
            armies = str(Composition.of(composition.armies, 0))
            why = "not landed by the end of its fourth move aboard (rule 4b)"
            outcome.events.append(Annihilated(force.power, armies, force.at, why))
            continue
        units.append(force.with_facts(aboard=moves))
    outcome.units = tuple(units)


def _annihilate_convoyed(position: Position, outcome: Outcome) -> None:
    """Rule 4d: an army whose convoying fleet is forced to retreat is annihilated (it does not stay home)."""
    kept_dislodged = []
    for d in outcome.dislodged:  # an A/F forced to retreat: its fleet retreats, its army is lost
        composition = d.force.composition
        if composition.armies and composition.fleets:
            fleet = Force(d.force.power, Composition.of(0, composition.fleets), d.force.at)
            kept_dislodged.append(replace(d, force=fleet))
            armies = str(Composition.of(composition.armies, 0))
            why = "the fleet carrying it was forced to retreat (rule 4d)"
            outcome.events.append(Annihilated(d.force.power, armies, d.force.at, why))
        else:
            kept_dislodged.append(d)
    outcome.dislodged = tuple(kept_dislodged)
    dislodged_at = {d.force.at for d in outcome.dislodged}
    doomed: set[str] = set()
    for result in outcome.results:
        order = result.canonical
        if order is None or order.kind is not OrderKind.CONVOY or order.unit is None or order.target is None:
            continue
        if order.unit.location not in dislodged_at:
            continue
        army_at = order.target.location
        # only an army whose move went by this convoy and failed because the convoy did: not an army the convoy
        # merely named (a void convoy), nor one that moved over land
        carried_and_stopped = any(
            r.canonical is not None
            and r.canonical.kind is OrderKind.MOVE
            and r.canonical.unit is not None
            and r.canonical.unit.location == army_at
            and r.canonical.destination == order.destination
            and r.result is not Result.SUCCEEDS
            and any(isinstance(reason, (NoConvoy, RouteBroken)) for reason in r.reasons)
            for r in outcome.results
        )
        if carried_and_stopped:
            doomed.add(army_at)
    if not doomed:
        return
    kept = []
    for force in outcome.units:
        if force.at in doomed and force.composition.fleets == 0:
            why = "its convoying fleet was forced to retreat (rule 4d)"
            outcome.events.append(Annihilated(force.power, str(force.composition), force.at, why))
            continue
        kept.append(force)
    outcome.units = tuple(kept)
