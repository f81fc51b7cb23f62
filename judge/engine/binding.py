"""Binding order lines to the forces they name, and turning them into detachments for the resolver.

Standard binding: one force per province, one order per force; a force given two different legal orders holds
(DATC 4.D.3); a force with no order holds and gets an added result line. Variants whose forces share
provinces or split and merge extend this through their rule module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.board.model import province_of
from judge.engine.legality import check_movement_order
from judge.engine.orders import MOVEMENT_KINDS, Order, OrderKind, Submitted, UnitRef
from judge.engine.position import OrderResult, Position, Result
from judge.engine.resolution import Detachment
from judge.engine.rules import Rules
from judge.engine.units import Force


@dataclass
class Binding:
    detachments: list[Detachment]
    results: list[OrderResult]


def hold_order(force: Force) -> Order:
    return Order(OrderKind.HOLD, UnitRef(force.composition, force.at))


def bind_movement(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Binding:
    forces = list(position.units)
    index = {f.province: i for i, f in enumerate(forces)}
    results: list[OrderResult] = []
    chosen: list[list[tuple[int, Order]]] = [[] for _ in forces]
    about: list[list[int]] = [[] for _ in forces]
    """result lines that name each force, legal or not"""

    for sub in submitted:
        entry = OrderResult(sub.power, sub.text, None, Result.ILLEGAL)
        results.append(entry)
        order = sub.order
        if order is None:
            entry.reason = sub.error or "could not read this order"
            continue
        if order.unit is None or order.kind not in MOVEMENT_KINDS:
            entry.canonical = order
            entry.reason = f"a {order.kind.value} order is not possible in a movement phase"
            continue
        i = index.get(province_of(order.unit.location))
        if i is None:
            entry.canonical = order
            entry.reason = f"there is no unit in {province_of(order.unit.location)}"
            continue
        force = forces[i]
        if force.power != sub.power:
            entry.canonical = order
            entry.reason = f"the unit in {force.province} belongs to {force.power}"
            continue
        checked = check_movement_order(rules, forces, index, force, order)
        entry.canonical = checked.order
        about[i].append(len(results) - 1)
        if checked.ok:
            chosen[i].append((len(results) - 1, checked.order))
            entry.result = Result.FAILS  # until resolved
        else:
            entry.reason = checked.reason + "; the unit holds"

    dets: list[Detachment] = []
    for i, force in enumerate(forces):
        candidates = chosen[i]
        if len(candidates) > 1 and len({o for _, o in candidates}) > 1:
            for r, _ in candidates:
                results[r].result = Result.ILLEGAL
                results[r].reason = "the unit was given different orders; it holds (DATC 4.D.3)"
            candidates = []
        if candidates:
            first = candidates[0][0]
            dets.append(Detachment(force, candidates[0][1], None, first, [r for r, _ in candidates]))
            continue
        hold = hold_order(force)
        if not about[i]:
            results.append(OrderResult(force.power, "", hold, Result.SUCCEEDS, added=True))
            entries = [len(results) - 1]
        else:
            entries = about[i]
        dets.append(Detachment(force, hold, None, 0, entries))
    return Binding(dets, results)
