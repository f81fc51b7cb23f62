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


def _kind_of(ref: UnitRef) -> str | None:
    return ref.composition.kind if ref.composition is not None else None


def bind_stacks(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Binding:
    """Binding where one power's units stand together as individuals (Multiplomacy).

    A numbered order ("3 F Eng-Bre") takes that many units of the named type from the province's stack, in the
    order they stand; an unnumbered order takes one. Units left without an order hold, one hold per location
    and type. Asking for more units than are left is illegal, and so is an order that cannot be carried out.
    """
    forces = list(position.units)
    stacks: dict[str, list[int]] = {}
    for i, f in enumerate(forces):
        stacks.setdefault(f.province, []).append(i)
    index = {province: members[0] for province, members in stacks.items()}
    taken = [False] * len(forces)
    about: dict[str, list[int]] = {}
    results: list[OrderResult] = []
    dets: list[Detachment] = []

    for sub in submitted:
        entry = OrderResult(sub.power, sub.text, None, Result.ILLEGAL)
        results.append(entry)
        row = len(results) - 1
        order = sub.order
        if order is None:
            entry.reason = sub.error or "could not read this order"
            continue
        if order.unit is None or order.kind not in MOVEMENT_KINDS:
            entry.canonical = order
            entry.reason = f"a {order.kind.value} order is not possible in a movement phase"
            continue
        province = province_of(order.unit.location)
        stack = stacks.get(province)
        entry.canonical = order
        if not stack:
            entry.reason = f"there is no unit in {province}"
            continue
        if forces[stack[0]].power != sub.power:
            entry.reason = f"the units in {province} belong to {forces[stack[0]].power}"
            continue
        about.setdefault(province, []).append(row)
        wanted = _kind_of(order.unit)
        coast = order.unit.location if "/" in order.unit.location else None
        free = [
            i
            for i in stack
            if not taken[i]
            and (wanted is None or forces[i].composition.kind == wanted)
            and (coast is None or forces[i].at == coast)
        ]
        count = order.unit.count or 1
        if free:
            free = [i for i in free if forces[i].at == forces[free[0]].at]
        if len(free) < count:
            what = f"{wanted or 'unit'}s" if wanted else "units"
            entry.reason = f"only {len(free)} {what} left to order in {province}, not {count}; the units hold"
            continue
        chosen = free[:count]
        first = forces[chosen[0]]
        if order.kind is OrderKind.MOVE and order.destination and province_of(order.destination) == province:
            # a move to the province it stands in: where units share provinces, that is staying put
            order = Order(OrderKind.HOLD, order.unit)
        lookup = index
        if order.target is not None:
            target_kind = _kind_of(order.target)
            target_stack = stacks.get(province_of(order.target.location), [])
            matching = [i for i in target_stack if target_kind is None or forces[i].composition.kind == target_kind]
            if matching:
                lookup = {**index, province_of(order.target.location): matching[0]}
        checked = check_movement_order(rules, forces, lookup, first, order)
        entry.canonical = checked.order
        if not checked.ok:
            entry.reason = checked.reason + ("; the units hold" if count > 1 else "; the unit holds")
            continue
        for i in chosen:
            taken[i] = True
        composition = first.composition.times(count)
        entry.result = Result.FAILS  # until resolved
        dets.append(Detachment(Force(first.power, composition, first.at), checked.order, None, row, [row]))

    leftovers: dict[tuple[str, str], list[int]] = {}
    for i, force in enumerate(forces):
        if not taken[i]:
            leftovers.setdefault((force.at, force.composition.kind), []).append(i)
    for (_, _), members in leftovers.items():
        first = forces[members[0]]
        together = Force(first.power, first.composition.times(len(members)), first.at)
        hold = Order(OrderKind.HOLD, UnitRef(first.composition, first.at, len(members) if len(members) > 1 else None))
        rows = [r for r in about.get(first.province, []) if results[r].result is Result.ILLEGAL]
        if not about.get(first.province):
            results.append(OrderResult(first.power, "", hold, Result.SUCCEEDS, added=True))
            rows = [len(results) - 1]
        dets.append(Detachment(together, hold, None, 0, rows))
    return Binding(dets, results)
