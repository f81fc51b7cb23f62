"""The orders a side has on file, as a view (issue 43, item 1), and withdrawing them (CLEAR).

Every reply to a signed-on player ends with this view (njudge ends its replies with the player's "Pending orders";
DPjudge's STATUS shows them), the ORDERS command shows it alone, and CLEAR withdraws orders: all the side's, or
those of the units named. A unit whose order is withdrawn is as if it was never ordered: its set on file loses the
order (a set left empty is removed), so the deadline does for it what it does for any unordered unit -- it holds,
and a side with nothing on file is late as one that never sent orders.

The view is built from the values the reader made when the orders came (`OrderSet.orders`, `OrderSet.checked`),
never from their words. It takes the phase (`phase`), so that orders filed for a later phase (njudge's PHASE) can
be shown by the same view: for a phase that is not the current one there is no position to hold the units up to,
and the view lists the orders alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.board.model import province_of
from judge.engine import PhaseType, Position, Rules
from judge.engine.supply import balances, halves, powers_to_order
from judge.game.checking import LineCheck, OrderLine, check_orders, orders_from_json, orders_json, read_orders
from judge.game.errors import GameError
from judge.game.later_orders import HeldOrders, held_orders
from judge.game.order_writes import remove_order_sets, write_order_sets
from judge.game.snapshot import Snapshot
from judge.game.use_case import UseCase, phase_name, side_of
from judge.store import GameStatus, OrderSet


@dataclass(frozen=True)
class FiledOrder:
    """One order on file, as the judge read it (`LineCheck`), and the unit it orders (None: a build, a waive, a
    claim, an order for a unit the power does not have)."""

    check: LineCheck
    unit: str | None = None
    """the province of the unit it orders"""


@dataclass(frozen=True)
class UnitOnFile:
    """A unit the power orders this phase, and its order on file (None: not ordered; it holds at the deadline,
    or in a retreat is disbanded)."""

    unit: str
    """the unit as the orders name it: `A par`, `F stp/sc`"""
    order: LineCheck | None


@dataclass(frozen=True)
class PowerOnFile:
    power: str
    units: tuple[UnitOnFile, ...]
    """in a movement or retreat phase, each unit that takes an order, with its order or none"""
    others: tuple[LineCheck, ...]
    """the orders that order no unit of the power listed above: builds, removals, waives, claims, and orders for a
    unit it does not have"""
    due: int = 0
    """in an adjustment phase: builds due (above zero) or removals due (below), in halves (`balances`)"""
    owes: bool = False
    """whether the power has to order this phase at all"""

    @property
    def due_count(self) -> str:
        """How many builds or removals are due, as players write it (`halves`)."""
        return halves(abs(self.due))


@dataclass(frozen=True)
class OnFile:
    """A side's orders on file for a phase: what a reply ends with, and what ORDERS shows."""

    game: str
    variant: str
    """whose templates word it (`templates/<variant>/on_file.txt.j2` where it has one)"""
    phase: str
    """the phase as players read it ("" for a phase not yet reached: the template names it by `phase_index`)"""
    phase_index: int
    phase_type: PhaseType | None
    """None for a phase not yet reached (orders filed ahead)"""
    side: str
    """the side as lists name it"""
    powers: tuple[PowerOnFile, ...]
    later: tuple[HeldOrders, ...] = ()
    """the orders the side holds for later phases (njudge's PHASE: `judge.game.later_orders`), earliest first"""


@dataclass(frozen=True)
class Cleared:
    """What CLEAR withdrew: the orders, power by power, and the units named that had no order on file."""

    withdrawn: dict[str, tuple[LineCheck, ...]]
    not_ordered: tuple[str, ...]
    """the units named that had no order on file (as the player named them)"""


def _side(game: Snapshot, power: str) -> list[str]:
    """The powers of the player who plays `power`, as the order path files them (`Orders.submit`)."""
    seat = game.seat(power)
    if seat is None:
        raise GameError(f"{power} is not a power in {game.name}")
    mine = [o.power for o in game.seats if o.power and seat.address and o.address == seat.address]
    return sorted(mine) if len(mine) > 1 else [power]


def _filed(lines: Sequence[OrderLine], checked: Sequence[dict[str, Any]]) -> list[FiledOrder]:
    """Each order of a set on file with its check and the province of the unit it names, in the order written."""
    reads = [read for line in lines for read in line.orders]
    out = []
    for read, check in zip(reads, checked, strict=False):
        order = read.order
        unit = province_of(order.unit.location) if order is not None and order.unit is not None else None
        out.append(FiledOrder(LineCheck.from_json(check), unit))
    return out


def _ordering(position: Position, power: str) -> list[tuple[str, str]]:
    """The units a power orders in this phase (movement: its units; retreat: its dislodged ones): (province, name)."""
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        forces = [f for f in position.units if f.power == power]
    elif kind is PhaseType.RETREAT:
        forces = [d.force for d in position.dislodged if d.force.power == power]
    else:
        return []
    return [(f.province, f"{f.composition} {f.at}") for f in forces]


def power_on_file(
    rules: Rules, position: Position | None, power: str, lines: Sequence[OrderLine], checked: Sequence[dict[str, Any]]
) -> PowerOnFile:
    """One power's orders on file, held up against the units it orders in `position` (None: a phase not yet
    reached, the orders alone)."""
    filed = _filed(lines, checked)
    if position is None:
        return PowerOnFile(power, (), tuple(f.check for f in filed))
    units: list[UnitOnFile] = []
    used: set[int] = set()
    for province, name in _ordering(position, power):
        found = next((i for i, f in enumerate(filed) if f.unit == province and i not in used), None)
        if found is not None:
            used.add(found)
        units.append(UnitOnFile(name, filed[found].check if found is not None else None))
    others = tuple(f.check for i, f in enumerate(filed) if i not in used)
    due = 0
    if position.phase.type is PhaseType.ADJUSTMENT:
        due = balances(rules, position.centres, position.units, position.variant_state).get(power, 0)
    return PowerOnFile(power, tuple(units), others, due, power in powers_to_order(rules, position))


class OnFileOrders(UseCase):
    """The orders on file for a side: shown (the reply's end, ORDERS), and withdrawn (CLEAR)."""

    def view(self, name: str, power: str, phase: int | None = None) -> OnFile:
        """The side's orders on file for the phase numbered `phase` (the current one when None)."""
        with self.store.plain() as s:
            game = self.store.snapshot(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            powers = _side(game, power)
            index = game.phase_index if phase is None else phase
            current = index == game.phase_index
            sets = _sets(s, game.id, index, powers)
            position = game.current if current else None
            return OnFile(
                name,
                game.variant,
                phase_name(game.position or {}) if current else "",
                index,
                position.phase.type if position is not None else None,
                side_of(game, power).label if len(powers) > 1 else power,
                tuple(power_on_file(game.rules, position, p, *sets.get(p, ([], []))) for p in powers),
                tuple(held_orders(s, game, powers)) if current else (),
            )

    def clear(self, name: str, power: str, units: Sequence[str] = ()) -> Cleared:
        """Withdraw the side's orders for the current phase: all of them, or those of the units named (`A Par`,
        `F Bre`, or the place alone). A set left empty is removed, so the power is as one that sent nothing. Two
        writes (the sets removed, the sets kept), so in a savepoint of its own: a failure leaves no trace."""
        with self.store.write() as s:
            game = self.store.snapshot(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            powers = _side(game, power)
            sets = _sets(s, game.id, game.phase_index, powers)
            named = {_province(game.rules, unit): unit for unit in units}
            withdrawn: dict[str, tuple[LineCheck, ...]] = {}
            kept_sets: list[dict[str, Any]] = []
            emptied: list[str] = []
            hit: set[str] = set()
            for each, (lines, checked) in sets.items():
                if not named:
                    withdrawn[each] = tuple(LineCheck.from_json(c) for c in checked)
                    emptied.append(each)
                    continue
                kept, gone = _without(lines, named)
                if not gone:
                    continue
                hit |= gone
                checks = check_orders(game.rules, game.current, each, kept)
                before = {province_of(u): c for u, c in _units_of(lines, checked)}
                withdrawn[each] = tuple(before[p] for p in sorted(gone) if p in before)
                if not kept:
                    emptied.append(each)
                    continue
                kept_sets.append(
                    {
                        "set_game": game.id,
                        "set_phase": game.phase_index,
                        "set_power": each,
                        "lines": [line.line for line in kept],
                        "orders": orders_json(kept),
                        "checked": [c.as_json() for c in checks],
                        "has_errors": any(c.refused for c in checks),
                        "submitted_at": self.clock.now(),
                        "source_message_id": None,
                    }
                )
            remove_order_sets(s, game.id, game.phase_index, emptied)
            write_order_sets(s, kept_sets)
            game.on_file.difference_update(emptied)
            return Cleared(withdrawn, tuple(unit for province, unit in named.items() if province not in hit))


def _sets(
    s: Session, game_id: int, phase: int, powers: Sequence[str]
) -> dict[str, tuple[list[OrderLine], list[dict[str, Any]]]]:
    """The sets on file for the powers in the phase: per power, its lines as read and their checks."""
    rows = s.execute(
        select(OrderSet.power, OrderSet.lines, OrderSet.orders, OrderSet.checked).where(
            OrderSet.game_id == game_id, OrderSet.phase_index == phase, OrderSet.power.in_(list(powers))
        )
    )
    return {power: (orders_from_json(lines, stored), list(checked)) for power, lines, stored, checked in rows}


def _province(rules: Rules, named: str) -> str:
    """The province of a unit as CLEAR names it: `A Par`, `F stp/sc`, `Paris` (read by the order reader, as a
    hold, so that the unit is read as the player's orders are)."""
    for line in read_orders(rules, [named]):
        for read in line.orders:
            if read.order is not None and read.order.unit is not None:
                return province_of(read.order.unit.location)
    place = rules.board.lookup(named)
    if place is None:
        raise GameError(f"{named!r} names no unit or place on this board (CLEAR A Par, F Bre)")
    return province_of(place)


def _units_of(lines: Sequence[OrderLine], checked: Sequence[dict[str, Any]]) -> list[tuple[str, LineCheck]]:
    """(location of the unit ordered, check) for each order of a set that orders a unit."""
    reads = [read for line in lines for read in line.orders]
    return [
        (read.order.unit.location, LineCheck.from_json(check))
        for read, check in zip(reads, checked, strict=False)
        if read.order is not None and read.order.unit is not None
    ]


def _without(lines: Sequence[OrderLine], named: dict[str, str]) -> tuple[list[OrderLine], set[str]]:
    """The lines left when the orders of the named units' provinces are taken out, and the provinces hit."""
    kept: list[OrderLine] = []
    gone: set[str] = set()
    for line in lines:
        left = []
        for read in line.orders:
            order = read.order
            province = province_of(order.unit.location) if order is not None and order.unit is not None else None
            if province is not None and province in named:
                gone.add(province)
            else:
                left.append(read)
        if left:
            kept.append(OrderLine(line.line, tuple(left)))
    return kept, gone
