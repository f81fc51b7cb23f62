"""The retreat phase: where dislodged units may go, and what happens when they try."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from judge.board.model import province_of
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import next_phase
from judge.engine.position import Dislodged, OrderResult, Outcome, Position, Result
from judge.engine.rules import Rules
from judge.engine.supply import adjustments_needed, update_ownership, winners
from judge.engine.units import Force


def retreat_options(
    rules: Rules, dislodged: Dislodged, units: Iterable[Force], standoffs: frozenset[str]
) -> tuple[str, ...]:
    """Legal retreat locations: adjacent, vacant, not a stand-off, not where the attack came from
    (unless the attack was convoyed and the edition allows it, DATC 4.A.5)."""
    board = rules.board
    force = dislodged.force
    occupied = {f.province for f in units}
    blocked = occupied | standoffs
    if dislodged.attacker_from and not (dislodged.by_convoy and rules.edition.retreat_to_convoy_origin):
        blocked = blocked | {dislodged.attacker_from, *dislodged.also_from}
    if force.composition.is_army:
        candidates: Iterable[str] = board.army_adjacency.get(force.province, ())
    else:
        candidates = board.fleet_adjacency.get(force.at, ())
    return tuple(sorted(loc for loc in candidates if province_of(loc) not in blocked))


def _events_for_disband(force: Force, why: str) -> dict[str, Any]:
    return {
        "kind": "disbanded",
        "power": force.power,
        "unit": str(force.composition),
        "at": force.at,
        "reason": why,
    }


def adjudicate_retreat(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    units = list(position.units)
    pending = [
        d if d.retreats is not None else replace(d, retreats=retreat_options(rules, d, units, position.standoffs))
        for d in position.dislodged
    ]
    by_province = {d.force.province: k for k, d in enumerate(pending)}
    results: list[OrderResult] = []
    chosen: list[list[tuple[int, Order]]] = [[] for _ in pending]

    for sub in submitted:
        entry = OrderResult(sub.power, sub.text, None, Result.ILLEGAL)
        results.append(entry)
        order = sub.order
        if order is None:
            entry.reason = sub.error or "could not read this order"
            continue
        entry.canonical = order
        if order.unit is None:
            entry.reason = "only dislodged units are ordered in a retreat phase"
            continue
        k = by_province.get(province_of(order.unit.location))
        if k is None:
            entry.reason = f"there is no dislodged unit in {province_of(order.unit.location)}"
            continue
        d = pending[k]
        if d.force.power != sub.power:
            entry.reason = f"the unit in {d.force.province} belongs to {d.force.power}"
            continue
        if order.kind is OrderKind.MOVE:
            order = replace(order, kind=OrderKind.RETREAT, via_convoy=False)
        order = replace(order, unit=UnitRef(d.force.composition, d.force.at))
        entry.canonical = order
        if order.kind is OrderKind.DISBAND:
            chosen[k].append((len(results) - 1, order))
            continue
        if order.kind is not OrderKind.RETREAT:
            entry.reason = f"a {order.kind.value} order is not possible in a retreat phase; the unit is disbanded"
            continue
        assert order.destination is not None and d.retreats is not None
        where = _retreat_location(rules, d, order.destination)
        if where is None:
            entry.reason = f"{d.force.describe()} cannot retreat to {order.destination}; the unit is disbanded"
            continue
        order = replace(order, destination=where)
        entry.canonical = order
        chosen[k].append((len(results) - 1, order))

    final: list[Order | None] = []
    for k in range(len(pending)):
        distinct = {o for _, o in chosen[k]}
        if len(distinct) > 1:
            for r, _ in chosen[k]:
                results[r].result = Result.ILLEGAL
                results[r].reason = "the unit was given different orders; it is disbanded"
            chosen[k] = []
            final.append(None)
        else:
            final.append(chosen[k][0][1] if chosen[k] else None)

    arrivals: dict[str, list[int]] = {}
    for k, order in enumerate(final):
        if order is not None and order.kind is OrderKind.RETREAT:
            assert order.destination is not None
            arrivals.setdefault(province_of(order.destination), []).append(k)

    events: list[dict[str, Any]] = []
    after = list(units)
    for k, d in enumerate(pending):
        order = final[k]
        entries = [r for r, _ in chosen[k]]
        if order is None or order.kind is OrderKind.DISBAND:
            why = "ordered to disband" if order is not None else "no retreat was ordered"
            if not d.retreats:
                why = "no retreat was possible"
            events.append(_events_for_disband(d.force, why))
            for r in entries:
                results[r].result = Result.SUCCEEDS
                results[r].reason = ""
            if not entries and not _has_line(results, d.force):
                disband = Order(OrderKind.DISBAND, UnitRef(d.force.composition, d.force.at))
                results.append(OrderResult(d.force.power, "", disband, Result.SUCCEEDS, why, added=True))
            continue
        assert order.destination is not None
        rivals = [j for j in arrivals[province_of(order.destination)] if j != k]
        if rivals:
            names = ", ".join(pending[j].force.describe() for j in rivals)
            for r in entries:
                results[r].result = Result.FAILS
                results[r].reason = f"bounced with {names}; the unit is disbanded"
            events.append(_events_for_disband(d.force, "retreats clashed"))
            continue
        for r in entries:
            results[r].result = Result.SUCCEEDS
            results[r].reason = ""
        after.append(d.force.moved_to(order.destination))

    centres = dict(position.centres)
    phase = position.phase
    if phase.season == "Fall":
        centres = update_ownership(rules.board, centres, after)
    following = next_phase(phase, retreats_needed=False, adjustments_needed=adjustments_needed(rules, centres, after))
    return Outcome(
        phase=phase,
        results=results,
        units=tuple(after),
        dislodged=(),
        standoffs=frozenset(),
        centres=centres,
        next_phase=following,
        events=events,
        winner=winners(rules, centres) if phase.season == "Fall" else None,
    )


def _has_line(results: list[OrderResult], force: Force) -> bool:
    """Did the power write any line (even an illegal one) for this unit?"""
    return any(
        r.power == force.power
        and r.canonical is not None
        and r.canonical.unit is not None
        and province_of(r.canonical.unit.location) == force.province
        for r in results
    )


def _retreat_location(rules: Rules, dislodged: Dislodged, destination: str) -> str | None:
    """The retreat option the order means (filling in a fleet's coast when only one fits), or None."""
    options = dislodged.retreats or ()
    if dislodged.force.composition.is_army:
        province = province_of(destination)
        return province if province in options else None
    if "/" in destination:
        return destination if destination in options else None
    fitting = [o for o in options if province_of(o) == destination]
    return fitting[0] if len(fitting) == 1 else None
