"""Canonical order text: what results and replies print, whatever the player typed."""

from __future__ import annotations

from judge.engine.orders import Order, OrderKind, UnitRef


def _unit(ref: UnitRef) -> str:
    kind = f"{ref.composition} " if ref.composition is not None else ""
    count = f"{ref.count} " if ref.count else ""
    return f"{count}{kind}{ref.location}"


def _part(part: Order, whole: UnitRef) -> str:
    """A split's part: where it goes ("A par"), or, for the part that stays, its own order."""
    assert part.unit is not None
    if part.kind is OrderKind.MOVE:
        return f"{part.unit.composition} {part.destination}"
    if part.kind is OrderKind.HOLD:
        return f"{part.unit.composition} {whole.location}"
    return render_order(part)


def render_order(order: Order) -> str:
    kind = order.kind
    if kind is OrderKind.WAIVE:
        return "Waive"
    if kind is OrderKind.CLAIM:
        return f"CLAIM {order.words}"
    if kind is OrderKind.MERGE:
        formed = f"{order.target.composition} " if order.target and order.target.composition else ""
        return " + ".join(_unit(u) for u in order.merging) + f" MERGE = {formed}{order.destination}"
    assert order.unit is not None
    unit = _unit(order.unit)
    if kind is OrderKind.HOLD:
        return f"{unit} H"
    if kind is OrderKind.MOVE:
        return f"{unit} - {order.destination}" + (" via convoy" if order.via_convoy else "")
    if kind is OrderKind.SPLIT:
        parts = ", ".join(_part(part, order.unit) for part in order.parts)
        return f"{unit} SPLIT = {parts}"
    if kind is OrderKind.SUPPORT:
        if order.target is None:
            return f"{unit} S MERGE {order.destination}"
        target = _unit(order.target)
        return f"{unit} S {target}" + (f" - {order.destination}" if order.destination else "")
    if kind is OrderKind.CONVOY:
        assert order.target is not None
        return f"{unit} C {_unit(order.target)} - {order.destination}"
    if kind is OrderKind.RETREAT:
        return f"{unit} R {order.destination}"
    if kind is OrderKind.DISBAND:
        return f"{unit} disband"
    if kind is OrderKind.BUILD:
        return f"Build {unit}"
    if kind is OrderKind.BOARD:
        assert order.target is not None
        return f"{unit} boards {_unit(order.target)}"
    if kind is OrderKind.SACK:
        return f"{unit} SACK"
    return f"Remove {unit}"
