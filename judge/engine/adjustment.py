"""The adjustment phase: builds, removals, waived builds, and removals for powers in civil disorder."""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from judge.board.model import Board, Terrain, province_of
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import next_phase
from judge.engine.position import OrderResult, Outcome, Position, Result
from judge.engine.rules import Rules
from judge.engine.supply import centre_counts, unit_counts
from judge.engine.units import ARMY, FLEET, Force


def adjudicate_adjustment(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    board = rules.board
    units = list(position.units)
    have = centre_counts(position.centres)
    fielded = unit_counts(units)
    balance = {p: have[p] - fielded[p] for p in set(have) | set(fielded) | set(board.powers)}
    builds_done: dict[str, int] = dict.fromkeys(balance, 0)
    occupied = {f.province for f in units}
    removals_done: dict[str, int] = dict.fromkeys(balance, 0)
    removed: set[str] = set()
    built_at: set[str] = set()
    results: list[OrderResult] = []
    events: list[dict[str, Any]] = []

    for sub in submitted:
        entry = OrderResult(sub.power, sub.text, None, Result.ILLEGAL)
        results.append(entry)
        order = sub.order
        if order is None:
            entry.reason = sub.error or "could not read this order"
            continue
        if order.kind is OrderKind.DISBAND:
            order = replace(order, kind=OrderKind.REMOVE)
        entry.canonical = order
        power = sub.power
        due = balance.get(power, 0)
        if order.kind in (OrderKind.BUILD, OrderKind.WAIVE):
            if due <= 0:
                entry.reason = f"{power} has no builds this winter"
                continue
            if builds_done[power] >= due:
                entry.reason = f"{power} has only {due} build(s)"
                continue
            if order.kind is OrderKind.WAIVE:
                builds_done[power] += 1
                entry.result = Result.SUCCEEDS
                continue
            built, reason = _check_build(rules, power, order, position.centres, occupied, built_at)
            if built is None:
                entry.reason = reason
                continue
            entry.canonical = Order(OrderKind.BUILD, UnitRef(built.composition, built.at))
            builds_done[power] += 1
            built_at.add(built.province)
            occupied.add(built.province)
            units.append(built)
            entry.result = Result.SUCCEEDS
            continue
        if order.kind is OrderKind.REMOVE:
            assert order.unit is not None
            province = province_of(order.unit.location)
            if due >= 0:
                entry.reason = f"{power} has no removals to make"
                continue
            victim = next((f for f in units if f.province == province and f.power == power), None)
            if province in removed:
                entry.reason = f"the unit in {province} is already removed"
                continue
            if victim is None:
                entry.reason = f"{power} has no unit in {province}"
                continue
            if removals_done[power] >= -due:
                entry.reason = f"{power} has only {-due} removal(s)"
                continue
            entry.canonical = Order(OrderKind.REMOVE, UnitRef(victim.composition, victim.at))
            removed.add(province)
            removals_done[power] += 1
            entry.result = Result.SUCCEEDS
            continue
        entry.reason = f"a {order.kind.value} order is not possible in an adjustment phase"

    for power, due in sorted(balance.items()):
        if due >= 0:
            continue
        short = -due - removals_done[power]
        if short <= 0:
            continue
        candidates = [f for f in units if f.power == power and f.province not in removed]
        for victim in civil_disorder_order(rules, power, candidates, position.centres)[:short]:
            removed.add(victim.province)
            results.append(
                OrderResult(
                    power,
                    "",
                    Order(OrderKind.REMOVE, UnitRef(victim.composition, victim.at)),
                    Result.SUCCEEDS,
                    "civil disorder: too few removals were ordered",
                    added=True,
                )
            )
            events.append({"kind": "civil_disorder_removal", "power": power, "unit": str(victim.composition),
                           "at": victim.at})  # fmt: skip

    after = tuple(f for f in units if f.province not in removed)
    phase = position.phase
    return Outcome(
        phase=phase,
        results=results,
        units=after,
        dislodged=(),
        standoffs=frozenset(),
        centres=dict(position.centres),
        next_phase=next_phase(phase, retreats_needed=False, adjustments_needed=False),
        events=events,
        winner=None,
    )


def _check_build(
    rules: Rules,
    power: str,
    order: Order,
    centres: dict[str, str],
    occupied: set[str],
    built_at: set[str],
) -> tuple[Force | None, str]:
    board = rules.board
    assert order.unit is not None
    location = order.unit.location
    province = province_of(location)
    home = board.powers[power].home if power in board.powers else ()
    if province not in home:
        return None, f"{province} is not a home centre of {power}"
    if centres.get(province) != power:
        return None, f"{power} does not own {province}"
    if province in built_at:
        return None, f"a unit was already built in {province}"
    if province in occupied:
        return None, f"{province} is occupied"
    terrain = board.provinces[province].terrain
    composition = order.unit.composition
    if composition is None:
        # DATC 4.C.3: an army inland; a fleet where a coast is named; otherwise the type is needed
        if terrain is Terrain.LAND:
            composition = ARMY
        elif "/" in location:
            composition = FLEET
        else:
            return None, "say whether to build an army or a fleet"
    if not composition.is_single:
        return None, "only single units are built in this variant"
    if composition.is_fleet:
        if terrain is not Terrain.COAST:
            return None, f"a fleet cannot be built inland in {province}"
        coasts = board.provinces[province].coasts
        if coasts:
            if "/" not in location:
                return None, f"say which coast of {province} the fleet is built on"
            return Force(power, composition, location), ""
        return Force(power, composition, province), ""
    return Force(power, composition, province), ""


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
