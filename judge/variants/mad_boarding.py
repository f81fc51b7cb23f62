"""Mad Diplomacy's Abstraction A/F rule (4b) as orders the one resolver understands.

"An army in a coastal province may be placed aboard a fleet in an adjacent sea space to form an Army/Fleet. The
A/F may then move to another sea space and disembark the army, all in the same move." The text's example is three
orders of one move: `A(Rom) boards F(TYS)`, `A/F(TYS) - WMS`, `A(WMS) disembarks Spa`. Before the move is bound:
- a boarding army is put aboard its fleet (the army has left its province when the move begins: a ruling, see
  docs/variants/mad.md), and the boarding line succeeds;
- an order for the army at the sea its A/F sails to (`A(WMS) disembarks Spa`) is the army landing from there,
  carried by the fleet's sail (`Order.via`): it lands only if the sail succeeds; the sail is then the fleet's
  alone (`F(TYS) - WMS`); with no landing, the whole A/F sails, the army aboard;
- a unit supporting a merge into the province it stands in, and itself one of the merging units ("A(Bel) +
  A(Hol) MERGE = 2A(Bel), A(Bel)S A(Hol) - Bel", rule 7's note), lends its strength as part of the merge, once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.board.model import province_of
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.position import Position
from judge.engine.refusals import (
    Aboard,
    BoardsAtSea,
    NoArmyToBoard,
    NoFleetToBoard,
    NoneToBoard,
    NotAnArmy,
    NotNextTo,
    PartOfMerge,
    Refusal,
    Worded,
    unit_name,
)
from judge.engine.units import Composition, Force
from judge.value import replace

if TYPE_CHECKING:
    from judge.variants.mad import MadRules


@dataclass
class Prepared:
    """The move as the resolver will see it: the forces after boarding, the rewritten lines, and the lines
    already settled (their row, canonical order and what to tell the player).

    A dataclass still, on purpose: Mad Diplomacy's rule module is imported with its first game only, never at
    a standard start, and it stays interpreted (it subclasses `Rules`), where a class cannot subclass the
    compiled `Value` or `Record` (docs/engine.md, "One style of value")."""

    position: Position
    submitted: list[Submitted]
    settled: dict[int, tuple[Order, Worded, bool]] = field(default_factory=dict)
    """row -> (canonical order, note, succeeded)"""


def prepare(rules: MadRules, position: Position, submitted: Sequence[Submitted]) -> Prepared:
    forces = list(position.units)
    lines = list(submitted)
    settled: dict[int, tuple[Order, Worded, bool]] = {}
    board = rules.board
    for row, sub in enumerate(lines):
        order = sub.order
        if order is None or order.kind is not OrderKind.BOARD:
            continue
        assert order.unit is not None and order.target is not None
        why = _board(rules, forces, sub.power, order.unit, order.target)
        if why is not None:
            settled[row] = (order, why, False)
            lines[row] = replace(sub, order=None, error="boarding")
            continue
        settled[row] = (order, Aboard(), True)
        lines[row] = replace(sub, order=None, error="aboard")
    carried: set[int] = set()  # the sails and landings already rewritten
    sailing: dict[tuple[str, str], tuple[int, str]] = {}  # (power, sea it sails to) -> (row, sea it sails from)
    for row, sub in enumerate(lines):
        order = sub.order
        if order is None or order.kind is not OrderKind.MOVE or order.unit is None or order.destination is None:
            continue
        here = _force_at(forces, sub.power, order.unit.location)
        if here is not None and here.composition.fleets and board.provinces[here.province].is_sea:
            sailing[(sub.power, province_of(order.destination))] = (row, here.at)
    for row, sub in enumerate(lines):
        order = sub.order
        if order is None or order.kind is not OrderKind.MOVE or order.unit is None or order.destination is None:
            continue
        at = province_of(order.unit.location)
        if not board.provinces[at].is_sea or _force_at(forces, sub.power, at) is not None:
            continue
        sail = sailing.get((sub.power, at))
        if sail is None:
            continue
        sail_row, origin = sail
        ship = _force_at(forces, sub.power, origin)
        if ship is None or not ship.composition.armies:
            continue
        army = Composition.of(ship.composition.armies, 0)
        lines[row] = replace(
            sub, order=Order(OrderKind.MOVE, UnitRef(army, origin), destination=order.destination, via=at)
        )
        sail_order = lines[sail_row].order
        assert sail_order is not None and sail_order.destination is not None
        fleet = Composition.of(0, ship.composition.fleets)
        lines[sail_row] = replace(
            lines[sail_row], order=Order(OrderKind.MOVE, UnitRef(fleet, origin), destination=sail_order.destination)
        )
        carried.update((row, sail_row))
    _whole_sails(forces, lines, carried)
    _merged_supports(lines, settled)
    return Prepared(replace(position, units=tuple(forces)), lines, settled)


def _whole_sails(forces: list[Force], lines: list[Submitted], carried: set[int]) -> None:
    """`F(TYS) - WMS` for an A/F whose army has no order of its own: the A/F sails, the army aboard (rule 4b);
    read as the fleet alone, it would leave the army alone at sea, which cannot be."""
    for row, sub in enumerate(lines):
        order = sub.order
        if row in carried or order is None or order.kind is not OrderKind.MOVE or order.unit is None:
            continue
        ship = _force_at(forces, sub.power, order.unit.location)
        named = order.unit.composition
        if ship is None or not (ship.composition.armies and ship.composition.fleets) or named is None:
            continue
        if named.armies or named == ship.composition:
            continue
        army_ordered = any(
            other.order is not None
            and other.order.unit is not None
            and other.power == sub.power
            and province_of(other.order.unit.location) == ship.province
            and (other.order.unit.composition is None or other.order.unit.composition.armies)
            for n, other in enumerate(lines)
            if n != row
        )
        if not army_ordered:
            whole = UnitRef(ship.composition, ship.at)
            lines[row] = replace(sub, order=replace(order, unit=whole))


def _force_at(forces: list[Force], power: str, location: str) -> Force | None:
    province = province_of(location)
    return next((f for f in forces if f.province == province and f.power == power), None)


def _board(rules: MadRules, forces: list[Force], power: str, army_ref: UnitRef, fleet_ref: UnitRef) -> Refusal | None:
    """Put the army aboard (changing `forces`), or say why it cannot board."""
    board = rules.board
    army = _force_at(forces, power, army_ref.location)
    fleet = _force_at(forces, power, fleet_ref.location)
    if army is None:
        return NoArmyToBoard(power, province_of(army_ref.location))
    if fleet is None or not fleet.composition.fleets:
        return NoFleetToBoard(power, province_of(fleet_ref.location))
    if army.composition.fleets:
        return NotAnArmy(unit_name(army))
    if not board.provinces[fleet.province].is_sea:
        return BoardsAtSea(fleet.province)
    if fleet.province not in board.borders.get(army.province, frozenset()):
        return NotNextTo(army.province, fleet.province)
    wanted = army_ref.composition.times(army_ref.count or 1) if army_ref.composition else army.composition
    rest = army.composition.minus(wanted)
    if rest is None or wanted.fleets:
        return NoneToBoard(unit_name(army), wanted)
    forces.remove(army)
    if rest.size:
        forces.append(army.part(rest))
    forces.remove(fleet)
    aboard = fleet.with_facts(aboard=fleet.fact("aboard") or 0)
    forces.append(aboard.joined(Force(power, wanted, fleet.at)))
    return None


def _merged_supports(lines: list[Submitted], settled: dict[int, tuple[Order, Worded, bool]]) -> None:
    """A merging unit in the merge's own province that also supports the merge: its strength is the merge's
    already (merges are self-supporting), so the support line is settled as given and takes no part."""
    merges = [
        (sub.power, province_of(order.destination), {province_of(u.location) for u in order.merging})
        for sub in lines
        if (order := sub.order) is not None and order.kind is OrderKind.MERGE and order.destination
    ]
    for row, sub in enumerate(lines):
        order = sub.order
        if order is None or order.kind is not OrderKind.SUPPORT or order.unit is None or not order.destination:
            continue
        here = province_of(order.unit.location)
        into = province_of(order.destination)
        if here != into or order.target is None:
            continue
        helped = province_of(order.target.location)
        for power, province, members in merges:
            if power == sub.power and province == into and here in members and helped in members:
                settled[row] = (order, PartOfMerge(), True)
                lines[row] = replace(sub, order=None, error="merge support")
                break
