"""Is an order legal? Checked against the board and the position only, never against other orders.

A legal order is one that, not knowing any other orders, could be valid (DATC 4.E.1). Illegal orders are
reported with a reason a player understands and the unit holds. Coasts are normalised here: a fleet move
to a split-coast province without a coast goes to the only coast it can reach (DATC 4.B.2), an impossible
coast is illegal (4.B.3), and a wrong or irrelevant coast on the ordered unit is ignored (4.B.5, 4.B.6).
"""

from __future__ import annotations

from functools import cache

from judge.board.model import Board, province_of
from judge.engine.orders import Order, OrderKind, UnitRef
from judge.engine.refusals import (
    ArmyToSea,
    CannotConvoy,
    CannotMoveThere,
    CannotReach,
    CannotSail,
    CoastUnreachable,
    ConvoyOnlyAtSea,
    FleetInland,
    LandsOnlyNextTo,
    MoveToOwnProvince,
    NoArmyToConvoy,
    NoConvoyChain,
    NotAdjacent,
    NotOnConvoyRoute,
    NoUnitToSupport,
    OnlyArmiesConvoyed,
    OutOfReach,
    Refusal,
    Supporting,
    SupportIntoOwnProvince,
    SupportsItself,
    TooMuchCargo,
    WhichCoast,
    unit_name,
)
from judge.engine.rules import Rules
from judge.engine.units import Force
from judge.value import replace


class Legal:
    """An order as the checks read it (canonical), whether it may stand, and if not, why (a refusal value). A
    plain class: compiled (judge/speedups.py) it is built natively, where a named tuple's constructor runs as Python."""

    def __init__(self, order: Order, ok: bool, refusal: Refusal | None = None) -> None:
        self.order = order
        self.ok = ok
        self.refusal = refusal

    @property
    def refused(self) -> Refusal:
        """Why the order is illegal (asked only of an illegal order)."""
        assert self.refusal is not None
        return self.refusal


def _bad(order: Order, refusal: Refusal) -> Legal:
    return Legal(order, False, refusal)


@cache
def _sea_component(board: Board, province: str) -> frozenset[str]:
    """Seas a fleet route can use from a coastal province: all seas connected to the seas next to it."""
    start = {province_of(t) for loc in board.locations(province) for t in board.fleet_adjacency.get(loc, ())}
    frontier = [s for s in start if board.provinces[s].is_sea]
    seen = set(frontier)
    while frontier:
        here = frontier.pop()
        for t in board.fleet_adjacency.get(here, ()):
            tp = province_of(t)
            if tp not in seen and board.provinces[tp].is_sea:
                seen.add(tp)
                frontier.append(tp)
    return frozenset(seen)


def _sea_neighbours(board: Board, province: str) -> frozenset[str]:
    return frozenset(
        province_of(t)
        for loc in board.locations(province)
        for t in board.fleet_adjacency.get(loc, ())
        if board.provinces[province_of(t)].is_sea
    )


def convoy_possible(board: Board, origin: str, destination: str, through: str | None = None) -> bool:
    """Could an army go from origin to destination by a chain of seas (one that uses the sea `through`)?"""
    o, d = board.provinces[origin], board.provinces[destination]
    if o.terrain.value != "coast" or d.terrain.value != "coast" or origin == destination:
        return False
    if through is None:
        return bool(_sea_component(board, origin) & _sea_neighbours(board, destination))
    return through in convoy_route_seas(board, origin, destination)


@cache
def convoy_route_seas(board: Board, origin: str, destination: str) -> frozenset[str]:
    """Seas that lie on some convoy route from origin to destination in which every sea is necessary.

    A route is a chain of seas with no short cut: no sea touches a later one except its successor, only
    the first touches the origin and only the last touches the destination (DATC 6.G.19: a fleet that no
    such route needs is not part of any convoy, and its convoy order is illegal).
    """
    starts = _sea_neighbours(board, origin)
    ends = _sea_neighbours(board, destination)
    neighbours = {s: _sea_neighbours(board, s) for s in _sea_component(board, origin)}
    found: set[str] = set()

    def extend(path: list[str]) -> None:
        last = path[-1]
        if last in ends:
            found.update(path)
            return
        for nxt in neighbours.get(last, frozenset()):
            if nxt in path or nxt in starts:
                continue
            if any(nxt in neighbours[earlier] for earlier in path[:-1]):
                continue  # a short cut: this route would not need every sea
            path.append(nxt)
            extend(path)
            path.pop()

    for first in starts:
        extend([first])
    return frozenset(found)


def _reaches(board: Board, force: Force, province: str) -> bool:
    """Could the force act into `province`: an army's reach, a fleet's, and for a mixed force either (the army
    component of an A/F on a coast supports into an adjacent inland province, Multiplicity I rule 4)."""
    composition = force.composition
    if composition.is_army:
        return board.army_can_move(force.at, province)
    if composition.armies and board.army_can_move(force.province, province):
        return True
    return board.fleet_reaches_province(force.at, province)


def fleet_chain_exists(board: Board, forces: list[Force], origin: str, destination: str) -> bool:
    """Is there a chain of fleets at sea (any power's) that could carry an army from origin to destination?"""
    if not convoy_possible(board, origin, destination):
        return False
    fleets_at_sea = {f.province for f in forces if f.composition.fleets and board.provinces[f.province].is_sea}
    return seas_chain(board, fleets_at_sea, origin, destination)


def seas_chain(board: Board, fleets_at_sea: set[str], origin: str, destination: str) -> bool:
    """Is there a chain of the seas `fleets_at_sea` (the seas that hold fleets) from next to `origin` to next to
    `destination`?"""
    frontier = [s for s in _sea_neighbours(board, origin) if s in fleets_at_sea]
    seen = set(frontier)
    ends = _sea_neighbours(board, destination)
    while frontier:
        here = frontier.pop()
        if here in ends:
            return True
        for t in board.fleet_adjacency.get(here, ()):
            if t in fleets_at_sea and t not in seen:
                seen.add(t)
                frontier.append(t)
    return False


def _unit_can_move(rules: Rules, force: Force, destination: str, forces: list[Force]) -> bool:
    """Could this unit, by itself or by convoy, move to destination (a location or province)?"""
    board = rules.board
    province = province_of(destination)
    if province == force.province:
        return False
    if force.composition.is_army:
        if board.provinces[province].is_sea:
            return False
        return board.army_can_move(force.at, province) or rules.fleet_chain(forces, force.province, province)
    reachable = board.fleet_coasts_reachable(force.at, province)
    if "/" in destination:
        return destination in reachable
    return bool(reachable)


def check_movement_order(rules: Rules, forces: list[Force], index: dict[str, int], force: Force, order: Order) -> Legal:
    """Check one order for the unit `force`; the returned order is in canonical form (real unit types and
    coasts filled in) whether or not it is legal, so that results print what the judge understood."""
    given = order.unit
    assert given is not None
    if given.composition is force.composition and given.location == force.at and given.power is None:
        unit = given  # already canonical: the common case, spared an allocation
    else:
        unit = UnitRef(force.composition, force.at, given.count)
    kind = order.kind
    if kind is OrderKind.HOLD:
        return Legal(order if unit is given else Order(kind, unit), True)
    if force.composition.garrisons or "order_problem" in rules.overrides:
        refused = rules.order_problem(force, order)
        if refused:
            return _bad(replace(order, unit=unit), refused)
    if kind is OrderKind.MOVE:
        legal = _check_move(rules, forces, force, unit, order)
        if legal.ok:
            assert legal.order.destination is not None
            # asked only where the variant overrides it: this runs for every move, and the call would cost a call
            # into Python (standard: a force may enter whatever it reaches)
            if "may_enter" in rules.overrides:
                problem = rules.may_enter(force.composition, province_of(legal.order.destination))
                if problem:
                    return _bad(legal.order, problem)
        return legal
    if kind is OrderKind.SUPPORT:
        legal = _check_support(rules, forces, index, force, unit, order)
        if legal.ok and "support_problem" in rules.overrides:
            supported = legal.order  # into its destination (a move, a merge) or where its target holds
            into = supported.destination or (supported.target.location if supported.target else force.at)
            refused = rules.support_problem(force, province_of(into))
            if refused:
                return _bad(legal.order, refused)
        return legal
    return _check_convoy(rules, forces, index, force, unit, order)


def _check_move(rules: Rules, forces: list[Force], force: Force, unit: UnitRef, order: Order) -> Legal:
    assert order.destination is not None
    board = rules.board
    dest = order.destination
    province = province_of(dest)
    via = order.via_convoy
    target = board.provinces[province]
    if force.composition.is_army and board.provinces[force.province].is_sea:
        # armies aboard a force at sea land on an adjacent coast (a split A/F, Multiplicity II rule 7), or on a
        # coast next to the sea their fleet sails to in the same move (Mad Diplomacy rule 4b)
        canonical = Order(OrderKind.MOVE, unit, destination=province, via=order.via)
        lands_from = order.via or force.at
        if order.via and not board.fleet_reaches_province(force.at, province_of(order.via)):
            return _bad(canonical, CannotSail(force.at, order.via))
        if target.terrain.value != "coast" or not board.fleet_reaches_province(lands_from, province):
            return _bad(canonical, LandsOnlyNextTo(lands_from))
        return Legal(canonical, True)
    if force.composition.is_army:
        if unit is order.unit and dest == province:
            canonical = order
        else:
            canonical = Order(OrderKind.MOVE, unit, destination=province, via_convoy=via)
        if province == force.province:
            return _bad(canonical, MoveToOwnProvince())
        if target.is_sea:
            return _bad(canonical, ArmyToSea(province))
        if not via and board.army_can_move(force.at, province):
            return Legal(canonical, True)
        if rules.fleet_chain(forces, force.province, province):
            return Legal(canonical, True)
        if via:
            return _bad(canonical, NoConvoyChain(force.province, province))
        return _bad(canonical, OutOfReach(province, force.province))
    if province == force.province:
        return _bad(Order(OrderKind.MOVE, unit, destination=dest), MoveToOwnProvince())
    if via:
        return _bad(Order(OrderKind.MOVE, unit, destination=dest, via_convoy=via), OnlyArmiesConvoyed())
    if not target.holds_fleets:
        return _bad(Order(OrderKind.MOVE, unit, destination=province), FleetInland(province))
    if board.fleet_can_move(force.at, dest):
        return Legal(order if unit is order.unit else Order(OrderKind.MOVE, unit, destination=dest), True)
    reachable = board.fleet_coasts_reachable(force.at, province)
    if "/" in dest:
        canonical = Order(OrderKind.MOVE, unit, destination=dest)
        if reachable:
            return _bad(canonical, CoastUnreachable(force.at, dest))
        return _bad(canonical, NotAdjacent(province, force.at))
    if len(reachable) == 1:
        return Legal(Order(OrderKind.MOVE, unit, destination=reachable[0]), True)
    canonical = Order(OrderKind.MOVE, unit, destination=province)
    if len(reachable) > 1:
        return _bad(canonical, WhichCoast(province, tuple(reachable)))
    return _bad(canonical, NotAdjacent(province, force.at))


def _check_support(
    rules: Rules, forces: list[Force], index: dict[str, int], force: Force, unit: UnitRef, order: Order
) -> Legal:
    board = rules.board
    rules_share_provinces = rules.shares_provinces or rules.split_parts_support
    if order.target is None:  # support for the merge into a province
        assert order.destination is not None
        into = province_of(order.destination)
        canonical = Order(OrderKind.SUPPORT, unit, destination=into)
        if into == force.province:
            return _bad(canonical, SupportIntoOwnProvince(merge=True))
        if not _reaches(board, force, into):
            return _bad(canonical, CannotReach(unit_name(force), into, Supporting.MERGE))
        return Legal(canonical, True)
    target_province = province_of(order.target.location)
    t = index.get(target_province)
    if t is None:
        return _bad(replace(order, unit=unit), NoUnitToSupport(target_province))
    target = forces[t]
    named = order.target.composition
    part = named if named is not None and target.composition.minus(named) is not None else target.composition
    target_ref = UnitRef(part, target.at, order.target.count)
    if order.destination is None:
        canonical = Order(OrderKind.SUPPORT, unit, target=target_ref)
        if target_province == force.province:
            return _bad(canonical, SupportsItself())
        if not _reaches(board, force, target_province):
            return _bad(canonical, CannotReach(unit_name(force), target_province, Supporting.HOLD))
        return Legal(canonical, True)
    province = province_of(order.destination)
    destination = order.destination
    if target.composition.is_army or not board.provinces[province].coasts:
        destination = province  # a coast matters only for a fleet's move
    canonical = Order(OrderKind.SUPPORT, unit, target=target_ref, destination=destination)
    if province == force.province:
        return _bad(canonical, SupportIntoOwnProvince())
    if target_province == force.province and not rules_share_provinces:
        return _bad(canonical, SupportsItself(move=True))
    if not _reaches(board, force, province):
        return _bad(canonical, CannotReach(unit_name(force), province, Supporting.MOVE))
    if not _unit_can_move(rules, target, destination, forces):
        return _bad(canonical, CannotMoveThere(unit_name(target), destination))
    return Legal(canonical, True)


def _check_convoy(
    rules: Rules, forces: list[Force], index: dict[str, int], force: Force, unit: UnitRef, order: Order
) -> Legal:
    board = rules.board
    assert order.target is not None and order.destination is not None
    target_province = province_of(order.target.location)
    province = province_of(order.destination)
    t = index.get(target_province)
    target_ref = order.target if t is None else UnitRef(forces[t].composition, forces[t].at)
    canonical = Order(OrderKind.CONVOY, unit, target=target_ref, destination=province)
    if not rules.can_convoy(force.composition):
        return _bad(canonical, CannotConvoy(force.composition))
    if not board.provinces[force.province].is_sea:
        return _bad(canonical, ConvoyOnlyAtSea())
    if t is None:
        return _bad(canonical, NoArmyToConvoy(target_province))
    if not forces[t].composition.is_army:
        return _bad(canonical, OnlyArmiesConvoyed())
    if not rules.convoy_through(target_province, province, force.province):
        return _bad(canonical, NotOnConvoyRoute(force.at, target_province, province))
    if rules.weighs_compositions:  # multiples: the convoying force must have room for the army (known now)
        room, cargo = rules.convoy_capacity(force.composition), forces[t].composition
        if room is not None and cargo.size > room:
            return _bad(canonical, TooMuchCargo(unit_name(force), room, cargo))
    return Legal(canonical, True)
