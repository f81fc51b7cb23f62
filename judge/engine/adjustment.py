"""The adjustment phase: builds, removals, waived builds, and removals for powers in civil disorder."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from judge.board.model import Board, Terrain, province_of
from judge.engine.events import BuildsWaived, CivilDisorderRemoval, Event
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Outcome, Position, Result, result_rows
from judge.engine.reasons import CivilDisorder
from judge.engine.refusals import (
    BuildOnItsCoast,
    BuildOntoMakes,
    BuildsShort,
    BuildsUsed,
    BuildWhichCoast,
    BuildWhichType,
    FleetBuiltInland,
    NoBuilds,
    NoOwnUnitAt,
    NoRemovals,
    NotAUnit,
    NotThisPhase,
    Refusal,
    RemovalLeaves,
    RemovalsUsed,
    StatedWrongly,
    unit_name,
)
from judge.engine.rules import Rules
from judge.engine.supply import balances, halves
from judge.engine.units import ARMY, FLEET, Composition, Force
from judge.value import replace


def adjudicate_adjustment(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    board = rules.board
    units = list(position.units)
    # every count in half centres (`Rules.centre_value`, `Rules.upkeep`): a Hoplite town is worth 1, a city 2
    balance = {**dict.fromkeys(board.powers, 0), **balances(rules, position.centres, units, position.variant_state)}
    builds_done: dict[str, int] = dict.fromkeys(balance, 0)
    removals_done: dict[str, int] = dict.fromkeys(balance, 0)
    spent: dict[str, int] = {}
    """what each power's builds cost, in halves: its builds due less this are waived"""
    built_at: set[str] = set()
    results: list[OrderResult] = []
    events: list[Event] = []

    for entry, sub, order in result_rows(submitted, results):
        if order.kind is OrderKind.DISBAND:
            order = replace(order, kind=OrderKind.REMOVE)
        elif order.kind is OrderKind.HOLD and order.unit is not None:
            order = replace(order, kind=OrderKind.BUILD)  # a bare "A Par" in a winter is a build (njudge)
        entry.canonical = order
        power = sub.power
        due = balance.get(power, 0)
        if order.kind in (OrderKind.BUILD, OrderKind.WAIVE):
            if due <= 0:
                entry.reasons = (NoBuilds(power),)
                continue
            if builds_done[power] >= due:
                entry.reasons = (BuildsUsed(power, halves(due)),)
                continue
            if order.kind is OrderKind.WAIVE:
                builds_done[power] += min(2, due - builds_done[power])
                entry.result = Result.SUCCEEDS
                continue
            built, refusal = check_build(rules, power, order, position, units, built_at)
            if built is None:
                assert refusal is not None
                entry.reasons = (refusal,)
                continue
            refused = rules.build_problem(built, units, position.phase)
            if refused:
                entry.reasons = (refused,)
                continue
            joined = next((f for f in units if f.province == built.province and f.power == power), None)
            said = _stated_result(order, joined.composition.plus(built.composition) if joined else built.composition)
            if said:
                entry.reasons = (said,)
                continue
            if (
                joined is not None
                and rules.stacking == "province"
                and "/" in joined.at
                and "/" in built.at
                and built.at != joined.at
            ):
                # one force a province: what is built onto a unit joins it where it stands (a coast included)
                entry.reasons = (BuildOnItsCoast(unit_name(joined)),)
                continue
            if joined is not None and rules.stacking != "power":
                formed = joined.composition.plus(built.composition)
                refused = rules.build_onto_problem(joined.composition, built.composition)
                if refused:
                    entry.reasons = (refused,)
                    continue
                if not rules.allows(formed):
                    entry.reasons = (BuildOntoMakes(built.composition, unit_name(joined), formed, rules.variant),)
                    continue
                cannot = rules.check_force(Force(power, formed, joined.at))
                if cannot:
                    entry.reasons = (
                        BuildOntoMakes(built.composition, unit_name(joined), formed, rules.variant, cannot),
                    )
                    continue
            cost = rules.upkeep(built.composition)
            if builds_done[power] + cost > due:
                entry.reasons = (BuildsShort(built.composition, halves(cost), power, halves(due - builds_done[power])),)
                continue
            entry.canonical = Order(OrderKind.BUILD, UnitRef(built.composition, built.at))
            builds_done[power] += cost
            spent[power] = spent.get(power, 0) + cost
            built_at.add(built.province)
            units.append(built)
            entry.result = Result.SUCCEEDS
            continue
        if order.kind is OrderKind.REMOVE:
            assert order.unit is not None
            if due >= 0:
                entry.reasons = (NoRemovals(power),)
                continue
            found = _removal(units, power, order.unit)
            if isinstance(found, Refusal):
                entry.reasons = (found,)
                continue
            index, taken = found
            rest = units[index].composition.minus(taken)
            said = _stated_result(order, rest or Composition.of())
            if said:
                entry.reasons = (said,)
                continue
            if rest is not None and rest.size and rules.check_force(Force(power, rest, units[index].at)):
                entry.reasons = (RemovalLeaves(taken, unit_name(units[index]), rest),)
                continue
            left = -due - removals_done[power]
            over = rules.upkeep(taken) - left
            if left <= 0 or (over > 0 and over >= min(rules.upkeep(c) for c in taken.singles())):
                # a removal may free more than is owed only where no smaller removal would do (a whole army
                # for half a centre owed), never a second unit too many
                entry.reasons = (RemovalsUsed(power, halves(max(left, 0))),)
                continue
            victim = units[index]
            entry.canonical = Order(OrderKind.REMOVE, UnitRef(taken, victim.at))
            _reduce(units, index, taken)
            removals_done[power] += rules.upkeep(taken)
            entry.result = Result.SUCCEEDS
            continue
        entry.reasons = (NotThisPhase(order.kind, PhaseType.ADJUSTMENT),)

    for power, due in sorted(balance.items()):
        short = -due - removals_done[power]
        if due >= 0 or short <= 0:
            continue
        candidates = [f for f in units if f.power == power]
        for victim in civil_disorder_order(rules, power, candidates, position.centres):
            if short <= 0:
                break
            taken = _components(rules, victim, -(-short // 2))  # halves owed -> units, rounded up
            _reduce(units, units.index(victim), taken)
            short -= rules.upkeep(taken)
            results.append(
                OrderResult(
                    power,
                    "",
                    Order(OrderKind.REMOVE, UnitRef(taken, victim.at)),
                    Result.SUCCEEDS,
                    [CivilDisorder()],
                    added=True,
                )
            )
            events.append(CivilDisorderRemoval(power, str(taken), victim.at))

    events.extend(
        BuildsWaived(power, due - spent.get(power, 0))
        for power, due in sorted(balance.items())
        if due > spent.get(power, 0)
    )
    phase = position.phase
    won, state = rules.end_of_winter(position)
    return Outcome(
        phase=phase,
        results=results,
        units=tuple(rules.assemble(units)),
        dislodged=(),
        standoffs=frozenset(),
        centres=dict(position.centres),
        next_phase=rules.calendar.next_phase(phase, retreats_needed=False, adjustments_needed=False),
        events=events,
        winner=won,
        variant_state=state,
    )


def _stated_result(order: Order, made: Composition) -> StatedWrongly | None:
    """A build or removal written with what it makes ("Builds 2A(Gas) = 5A(Gas)", Mad Diplomacy rule 5): the
    statement must be true, or the order is refused rather than read as something the player did not mean."""
    said = order.target
    if said is None or said.composition is None:
        return None
    stated = said.composition.times(said.count or 1)
    if stated != made:
        return StatedWrongly(stated, made)
    return None


def _components(rules: Rules, force: Force, most: int) -> Composition:
    """Up to `most` units of a force to remove: fleets before armies, as the civil-disorder rules order --
    unless what is left could not stand there (an army left alone at sea), then armies first, else all."""
    composition = force.composition
    choices = []
    for first in ("fleets", "armies"):
        fleets = min(composition.fleets, most) if first == "fleets" else 0
        armies = min(composition.armies, most - fleets)
        if first == "armies":
            fleets = min(composition.fleets, most - armies)
        garrisons = min(composition.garrisons, most - fleets - armies)
        choices.append(Composition.of(armies, fleets, garrisons))
    for taken in choices:
        rest = composition.minus(taken)
        if rest is not None and (rest.size == 0 or rules.check_force(Force(force.power, rest, force.at)) is None):
            return taken
    return composition


def _removal(units: list[Force], power: str, ref: UnitRef) -> tuple[int, Composition] | Refusal:
    """Which force loses what: the named units (several where a multiple is reduced), or the whole force."""
    province = province_of(ref.location)
    mine = [i for i, f in enumerate(units) if f.province == province and f.power == power]
    if not mine:
        return NoOwnUnitAt(power, province)
    if ref.composition is None:
        return mine[0], units[mine[0]].composition
    wanted = ref.composition.times(ref.count or 1)
    for i in mine:
        if units[i].composition.minus(wanted) is not None:
            return i, wanted
    if ref.composition.is_single:
        for i in mine:  # a plain "Remove A par" of a single unit: the unit type is not checked (DATC 4.C.2)
            if units[i].composition.is_single:
                return i, units[i].composition
    return NoOwnUnitAt(power, province, wanted)


def _reduce(units: list[Force], index: int, taken: Composition) -> None:
    force = units[index]
    rest = force.composition.minus(taken)
    if rest is None or rest.size == 0:
        del units[index]
    else:
        units[index] = Force(force.power, rest, force.at)


def check_build(
    rules: Rules,
    power: str,
    order: Order,
    position: Position,
    units: list[Force],
    built_at: set[str],
) -> tuple[Force | None, Refusal | None]:
    board = rules.board
    assert order.unit is not None
    location = order.unit.location
    province = province_of(location)
    problem = rules.build_site_problem(power, province, position.centres, units, built_at, position.variant_state)
    if problem:
        return None, problem
    terrain = board.provinces[province].terrain
    composition = order.unit.composition
    if composition is None:
        # DATC 4.C.3: an army inland; a fleet where a coast is named; otherwise the type is needed
        if terrain is Terrain.LAND:
            composition = ARMY
        elif "/" in location:
            composition = FLEET
        else:
            return None, BuildWhichType()
    composition = composition.times(order.unit.count or 1)
    if not rules.allows(composition):
        return None, NotAUnit(composition, rules.variant)
    if composition.is_army:
        return Force(power, composition, province), None
    if terrain is not Terrain.COAST:
        return None, FleetBuiltInland(province)
    coasts = board.provinces[province].coasts
    if coasts:
        if "/" not in location:
            return None, BuildWhichCoast(province)
        return Force(power, composition, location), None
    return Force(power, composition, province), None


def civil_disorder_order(rules: Rules, power: str, units: list[Force], centres: dict[str, str]) -> list[Force]:
    """The units of a power in civil disorder, in the order they are removed."""
    board = rules.board
    if rules.edition.civil_disorder == "owned_centres":
        owned = [p for p, owner in centres.items() if owner == power]

        def key_2023(f: Force) -> tuple[bool, int, bool, str]:
            distance = min((board.distances_from(c).get(f.province, 10**6) for c in owned), default=10**6)
            on_centre = board.provinces[f.province].supply_centre
            return (on_centre, -distance, not f.composition.is_fleet, board.provinces[f.province].name)

        return sorted(units, key=key_2023)
    home = board.powers[power].home if power in board.powers else ()

    def key_1971(f: Force) -> tuple[int, bool, str]:
        distance = _home_distance(board, f, home)
        return (-distance, not f.composition.is_fleet, board.provinces[f.province].name)

    return sorted(units, key=key_1971)


def _home_distance(board: Board, force: Force, home: tuple[str, ...]) -> int:
    """Before 2023: fleets move as fleets; armies may also cross water (as if convoyed)."""
    if force.composition.is_army:
        return min((board.distances_from(h).get(force.province, 10**6) for h in home), default=10**6)
    seen = {force.at: 0}
    queue = deque([force.at])
    while queue:
        here = queue.popleft()
        if province_of(here) in home:
            return seen[here]
        for nxt in board.fleet_adjacency.get(here, ()):
            if nxt not in seen:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return 10**6
