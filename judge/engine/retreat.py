"""The retreat phase: where dislodged units may go, and what happens when they try."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from judge.board.model import province_of
from judge.engine.events import Event, UnitDisbanded
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import PhaseType
from judge.engine.position import Dislodged, OrderResult, Outcome, Position, Result, result_rows
from judge.engine.reasons import DisbandCause, Disbanded, Lost, LostAs, NotYours, RetreatClash, UnitName
from judge.engine.refusals import (
    CannotRetreat,
    DifferentOrders,
    DislodgedShort,
    NoDislodgedUnitAt,
    NotThisPhase,
    OnlyDislodged,
    unit_name,
)
from judge.engine.rules import Rules
from judge.engine.supply import adjustments_needed, winners
from judge.engine.units import Force
from judge.value import Record, replace


def retreat_options(
    rules: Rules, dislodged: Dislodged, units: Iterable[Force], standoffs: frozenset[str]
) -> tuple[str, ...]:
    """Legal retreat locations: adjacent, vacant, not a stand-off, not where the attack came from
    (unless the attack was convoyed and the edition allows it, DATC 4.A.5). Where a power's units share
    provinces, a province held by its own units is open to them."""
    board = rules.board
    force = dislodged.force
    occupied = {f.province for f in units if not (rules.shares_provinces and f.power == force.power)}
    blocked = occupied | standoffs
    if dislodged.attacker_from and not (dislodged.by_convoy and rules.edition.retreat_to_convoy_origin):
        blocked = blocked | {dislodged.attacker_from, *dislodged.also_from}
    if force.composition.is_army:
        candidates: Iterable[str] = board.army_adjacency.get(force.province, ())
    elif force.composition.is_fleet:
        candidates = board.fleet_adjacency.get(force.at, ())
    else:  # a mixed force retreats where its fleets can go and its armies can stand
        candidates = [
            t for t in board.fleet_adjacency.get(force.at, ()) if board.provinces[province_of(t)].holds_fleets
        ]
    return tuple(
        sorted(
            loc
            for loc in candidates
            if province_of(loc) not in blocked and rules.may_enter(force.composition, province_of(loc)) is None
        )
    )  # a retreat goes only where the force may go at all (Multiplicity II rule 5: an A/F at sea is seaworthy)


def _events_for_disband(force: Force, why: str) -> UnitDisbanded:
    return UnitDisbanded(force.power, str(force.composition), force.at, why)


class _Retreat(Record):
    """One retreat order's units (several where units retreat together) and where they go."""

    power: str
    units: list[int]
    order: Order
    rows: list[int]

    names = ("power", "units", "order", "rows")

    def __init__(self, power: str, units: list[int], order: Order, rows: list[int]) -> None:
        self.power = power
        self.units = units
        self.order = order
        self.rows = rows


def adjudicate_retreat(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    units = list(position.units)
    dislodged = list(position.dislodged)
    disbanded_now: list[Event] = []
    if "retreating" in rules.overrides:  # what cannot retreat at all (Hoplite Wars' garrisons) goes first
        retreating = []
        for d in dislodged:
            part = rules.retreating(d.force)
            if part is not d.force:
                gone = d.force.composition.minus(part.composition) if part is not None else d.force.composition
                lost = Force(d.force.power, gone or d.force.composition, d.force.at)
                disbanded_now.append(_events_for_disband(lost, "a garrison forced to retreat disbands"))
            if part is not None:
                retreating.append(replace(d, force=part))
        dislodged = retreating
    pending = [
        d if d.retreats is not None else replace(d, retreats=retreat_options(rules, d, units, position.standoffs))
        for d in dislodged
    ]
    stacks: dict[str, list[int]] = {}
    for k, d in enumerate(pending):
        stacks.setdefault(d.force.province, []).append(k)
    results: list[OrderResult] = []
    ordered: dict[int, _Retreat] = {}
    """dislodged unit -> the order that moves or disbands it"""
    voided: set[int] = set()

    for entry, sub, order in result_rows(submitted, results):
        row = len(results) - 1
        entry.canonical = order
        if order.unit is None:
            entry.reasons = (OnlyDislodged(),)
            continue
        province = province_of(order.unit.location)
        stack = stacks.get(province, [])
        mine = [k for k in stack if pending[k].force.power == sub.power or rules.may_order(sub.power, pending[k].force)]
        if not stack:
            entry.reasons = (NoDislodgedUnitAt(province),)
            continue
        if not mine:
            entry.reasons = [NotYours(province, pending[stack[0]].force.power)]
            continue
        if order.kind is OrderKind.MOVE:
            order = replace(order, kind=OrderKind.RETREAT, via_convoy=False)
        elif order.kind is OrderKind.REMOVE:
            order = replace(order, kind=OrderKind.DISBAND)  # "R A Par" or "Remove A Par" for a dislodged unit
        if order.kind not in (OrderKind.RETREAT, OrderKind.DISBAND):
            entry.reasons = [NotThisPhase(order.kind, PhaseType.RETREAT), Lost()]
            continue
        assert order.unit is not None
        kind = order.unit.composition.kind if order.unit.composition is not None else None
        count = order.unit.count or 1
        free = [k for k in mine if k not in ordered and (kind is None or pending[k].force.composition.kind == kind)]
        if rules.stacking != "power":
            free = mine[:1]
        if len(free) < count:
            entry.reasons = [
                DislodgedShort(len(free), province),
                Lost(LostAs.REST),
            ]
            continue
        chosen = free[:count]
        first = pending[chosen[0]].force
        order = replace(order, unit=UnitRef(first.composition, first.at, count if count > 1 else None))
        entry.canonical = order
        if order.kind is OrderKind.RETREAT:
            assert order.destination is not None
            wheres = {_retreat_location(rules, pending[k], order.destination) for k in chosen}
            where = wheres.pop() if len(wheres) == 1 else None
            if where is None:
                entry.reasons = [
                    CannotRetreat(unit_name(first), order.destination, pending[chosen[0]].retreats or ()),
                    Lost(),
                ]
                continue
            order = replace(order, destination=where)
            entry.canonical = order
        entry.result = Result.FAILS  # until settled
        earlier = ordered.get(chosen[0])
        if earlier is not None:  # a second order for one unit (never for stacks: they take fresh units)
            if earlier.order == order:
                earlier.rows.append(row)
            else:
                voided.update(earlier.units)
                for void_row in (*earlier.rows, row):
                    results[void_row].result = Result.ILLEGAL
                    results[void_row].reasons = [DifferentOrders(holds=False), Lost(LostAs.IT)]
            continue
        retreat = _Retreat(sub.power, chosen, order, [row])
        for k in chosen:
            ordered[k] = retreat

    retreats = list({id(r): r for k, r in ordered.items() if k not in voided}.values())
    arrivals: dict[str, list[_Retreat]] = {}
    for r in retreats:
        if r.order.kind is OrderKind.RETREAT:
            assert r.order.destination is not None
            arrivals.setdefault(province_of(r.order.destination), []).append(r)

    events: list[Event] = disbanded_now
    after = list(units)
    arrived: set[int] = set()
    for province, group in arrivals.items():
        sizes = [[pending[k].force for k in r.units] for r in group]
        survivors = rules.settle_retreats(sizes)
        for r, kept in zip(group, survivors, strict=True):
            others = tuple(
                UnitName(f.power, str(f.composition), f.at)
                for other in group
                if other is not r
                for f in (pending[k].force for k in other.units)
            )
            assert r.order.destination is not None
            for k in r.units[:kept]:
                after.append(pending[k].force.moved_to(r.order.destination))
                arrived.add(k)
            for row in r.rows:
                results[row].result = Result.SUCCEEDS if kept else Result.FAILS
                if kept < len(r.units):
                    results[row].reasons = [RetreatClash(others, province, len(r.units) - kept, len(r.units))]
    for r in retreats:
        if r.order.kind is OrderKind.DISBAND:
            for row in r.rows:
                results[row].result = Result.SUCCEEDS
    for k, d in enumerate(pending):
        if k in arrived:
            continue
        its_order = ordered.get(k)
        if its_order is not None and k not in voided and its_order.order.kind is OrderKind.RETREAT:
            cause = DisbandCause.CLASHED
        elif its_order is not None and k not in voided:
            cause = DisbandCause.ORDERED
        else:
            cause = DisbandCause.NOWHERE if not d.retreats else DisbandCause.UNORDERED
            if its_order is None and not _has_line(results, d.force):
                disband = Order(OrderKind.DISBAND, UnitRef(d.force.composition, d.force.at))
                results.append(OrderResult(d.force.power, "", disband, Result.SUCCEEDS, [Disbanded(cause)], added=True))
        events.append(_events_for_disband(d.force, cause.value))

    after = rules.assemble(after)
    centres = dict(position.centres)
    phase = position.phase
    calendar = rules.calendar
    year_over = calendar.ends_year(phase)
    if calendar.ownership_changes(phase):
        centres = rules.take_ownership(centres, after, phase)
    following = calendar.next_phase(
        phase,
        retreats_needed=False,
        adjustments_needed=year_over and adjustments_needed(rules, centres, after, position.variant_state),
    )
    return Outcome(
        phase=phase,
        results=results,
        units=tuple(after),
        dislodged=(),
        standoffs=frozenset(),
        centres=centres,
        next_phase=following,
        events=events,
        winner=winners(rules, centres) if year_over else None,
        variant_state=dict(position.variant_state),
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
