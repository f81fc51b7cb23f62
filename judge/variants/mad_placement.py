"""Mad Diplomacy's two placement phases (rules 2 and 3).

Spring 1900: each power places its normal number of supply centres (the map's `allocation`: 3, Russia 4), one a
province, anywhere within its country (`Centre Bur`). They are its home centres for the rest of the game (rule
5a's "home bases"), kept in the state as `homes`. Autumn 1900: each power places units of any strength anywhere
within its country (`Place 2A Bur`, `Place F Bre`, `Build 3F StP/sc`), one unit a province, their total strength
at most its centres (rule 3: Russia u,u,u,u or 2u,u,u or 2u,2u or 3u,u or 4u).

Rulings (docs/variants/mad.md): centres a power leaves unplaced go on its standard home centres (those of the
standard map), then on the first free provinces of its country in alphabetical order, so that every power has its
normal number (the centres are the game's, not the player's to forgo); strength a power leaves unplaced is waived,
as an unordered build is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from judge.board import load_map
from judge.board.model import Terrain, province_of
from judge.engine.events import CentrePlaced, Event
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.position import OrderResult, Outcome, Position, Result, result_rows
from judge.engine.refusals import (
    CentresPlaced,
    OutsideCountry,
    PlacedAlready,
    PlacedByJudge,
    PlacementStrength,
    PlacementWrongPhase,
    PlaceMixed,
    PlaceWhichCoast,
    PlaceWhichType,
    Refusal,
)
from judge.engine.units import ARMY, FLEET, Force
from judge.variants.mad_atlantis import START as ATLANTIS_START

if TYPE_CHECKING:
    from judge.variants.mad import MadRules


def _standard_homes(power: str) -> tuple[str, ...]:
    standard = load_map("standard").powers.get(power)
    return standard.home if standard else ()


def place_centres(rules: MadRules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    board = rules.board
    results: list[OrderResult] = []
    placed: dict[str, list[str]] = {power: [] for power in board.powers}
    taken: set[str] = set()
    for entry, sub, order in result_rows(submitted, results):
        power = sub.power
        entry.canonical = order
        if order.kind is not OrderKind.CENTRE or order.destination is None:
            entry.reasons = (PlacementWrongPhase(units=True),)
            continue
        province = province_of(order.destination)
        country = board.powers[power].country
        entry.canonical = Order(OrderKind.CENTRE, None, destination=province)
        if province not in country:
            entry.reasons = (OutsideCountry(province, power, 2, tuple(country)),)
            continue
        if province in taken:
            entry.reasons = (PlacedAlready(province),)
            continue
        if len(placed[power]) >= board.powers[power].allocation:
            entry.reasons = (CentresPlaced(power, board.powers[power].allocation),)
            continue
        placed[power].append(province)
        taken.add(province)
        entry.result = Result.SUCCEEDS
    events: list[Event] = []
    for power, chosen in sorted(placed.items()):
        spec = board.powers[power]
        defaults = [p for p in (*_standard_homes(power), *sorted(spec.country)) if p not in taken]
        while len(chosen) < spec.allocation and defaults:
            province = defaults.pop(0)
            if province in taken:
                continue
            chosen.append(province)
            taken.add(province)
            results.append(
                OrderResult(
                    power, "", Order(OrderKind.CENTRE, None, destination=province), Result.SUCCEEDS,
                    [PlacedByJudge()], added=True,
                )
            )  # fmt: skip
            events.append(
                CentrePlaced(
                    power, province, "rule 2: every power has its normal number of centres; this one was not placed"
                )
            )
    centres = {province: power for power, chosen in placed.items() for province in chosen}
    state = {
        **position.variant_state,
        "homes": {power: sorted(chosen) for power, chosen in sorted(placed.items())},
    }
    state.setdefault("atlantis", ATLANTIS_START)
    return Outcome(
        phase=position.phase,
        results=results,
        units=position.units,
        dislodged=(),
        standoffs=frozenset(),
        centres=centres,
        next_phase=rules.calendar.next_phase(position.phase, retreats_needed=False, adjustments_needed=False),
        events=events,
        variant_state=state,
    )


def place_units(rules: MadRules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    board = rules.board
    results: list[OrderResult] = []
    units: list[Force] = list(position.units)
    strength = {power: sum(1 for owner in position.centres.values() if owner == power) for power in board.powers}
    used = dict.fromkeys(board.powers, 0)
    held = {f.province for f in units}
    for entry, sub, order in result_rows(submitted, results):
        power = sub.power
        entry.canonical = order
        if order.kind is OrderKind.HOLD and order.unit is not None:
            order = Order(OrderKind.BUILD, order.unit)  # "2A Bur" in a placement is a placement
        if order.kind is OrderKind.WAIVE:
            entry.canonical = order
            entry.result = Result.SUCCEEDS
            continue
        if order.kind is not OrderKind.BUILD or order.unit is None:
            entry.reasons = (PlacementWrongPhase(units=False),)
            continue
        placed, why = _unit(rules, power, order.unit)
        if placed is None:
            assert why is not None
            entry.reasons = (why,)
            continue
        entry.canonical = Order(OrderKind.BUILD, UnitRef(placed.composition, placed.at))
        if placed.province in held:
            entry.reasons = (PlacedAlready(placed.province, unit=True),)
            continue
        size = placed.composition.size
        if used[power] + size > strength[power]:
            left = strength[power] - used[power]
            entry.reasons = (PlacementStrength(power, strength[power], placed.composition, size, left),)
            continue
        used[power] += size
        held.add(placed.province)
        units.append(placed)
        entry.result = Result.SUCCEEDS
    return Outcome(
        phase=position.phase,
        results=results,
        units=tuple(units),
        dislodged=(),
        standoffs=frozenset(),
        centres=dict(position.centres),
        next_phase=rules.calendar.next_phase(position.phase, retreats_needed=False, adjustments_needed=False),
        variant_state=dict(position.variant_state),
    )


def _unit(rules: MadRules, power: str, ref: UnitRef) -> tuple[Force | None, Refusal | None]:
    """The unit a placement order names, where it may stand within the power's country, or why not."""
    board = rules.board
    province = province_of(ref.location)
    country = board.powers[power].country
    if province not in country:
        return None, OutsideCountry(province, power, 3, tuple(country))
    composition = ref.composition
    terrain = board.provinces[province].terrain
    if composition is None:
        if terrain is Terrain.LAND:
            composition = ARMY
        elif "/" in ref.location:
            composition = FLEET
        else:
            return None, PlaceWhichType()
    composition = composition.times(ref.count or 1)
    if composition.armies and composition.fleets:
        return None, PlaceMixed(composition)
    at = ref.location if composition.fleets and "/" in ref.location else province
    if composition.fleets and board.provinces[province].coasts and "/" not in at:
        return None, PlaceWhichCoast(province)
    placed = Force(power, composition, at)
    problem = rules.check_force(placed)
    if problem:
        return None, problem
    return placed, None
