"""Canonical order text: what results and replies print, whatever the player typed."""

from __future__ import annotations

from judge.engine.orders import Order, OrderKind, UnitRef


def _unit(ref: UnitRef) -> str:
    kind = f"{ref.composition} " if ref.composition is not None else ""
    count = f"{ref.count} " if ref.count else ""
    return f"{count}{kind}{ref.location}"


def render_order(order: Order) -> str:
    kind = order.kind
    if kind is OrderKind.WAIVE:
        return "Waive"
    assert order.unit is not None
    unit = _unit(order.unit)
    if kind is OrderKind.HOLD:
        return f"{unit} H"
    if kind is OrderKind.MOVE:
        return f"{unit} - {order.destination}" + (" via convoy" if order.via_convoy else "")
    if kind is OrderKind.SUPPORT:
        assert order.target is not None
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
    return f"Remove {unit}"
