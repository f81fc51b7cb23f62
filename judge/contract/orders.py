"""An order as the judge read it, as JSON (the contract's per-order `read` key): what it is, the unit it names, the
unit it supports or convoys, where to. Results mails print every order from this value in the form the game
chose, and tools that script `judge adjudicate` need not parse order text."""

from __future__ import annotations

from typing import Any

from judge.engine.orders import Order, OrderKind, UnitRef
from judge.engine.units import Composition


def _unit_json(ref: UnitRef) -> dict[str, Any]:
    return {
        **({"type": str(ref.composition)} if ref.composition is not None else {}),
        "at": ref.location,
        **({"count": ref.count} if ref.count else {}),
        **({"power": ref.power} if ref.power else {}),
    }


def _unit_from(data: dict[str, Any]) -> UnitRef:
    kind = data.get("type")
    return UnitRef(Composition.parse(kind) if kind else None, str(data["at"]), data.get("count"), data.get("power"))


def order_json(order: Order) -> dict[str, Any]:
    """The order's value, keys left out where they say nothing."""
    return {
        "kind": order.kind.value,
        **({"unit": _unit_json(order.unit)} if order.unit is not None else {}),
        **({"target": _unit_json(order.target)} if order.target is not None else {}),
        **({"to": order.destination} if order.destination else {}),
        **({"via_convoy": True} if order.via_convoy else {}),
        **({"merging": [_unit_json(u) for u in order.merging]} if order.merging else {}),
        **({"parts": [order_json(p) for p in order.parts]} if order.parts else {}),
        **({"words": order.words} if order.words else {}),
        **({"priority": order.priority} if order.priority is not None else {}),
        **({"via": order.via} if order.via else {}),
    }


def order_from_json(data: dict[str, Any]) -> Order:
    unit = data.get("unit")
    target = data.get("target")
    return Order(
        OrderKind(data["kind"]),
        _unit_from(unit) if unit else None,
        _unit_from(target) if target else None,
        data.get("to"),
        bool(data.get("via_convoy")),
        tuple(_unit_from(u) for u in data.get("merging", ())),
        tuple(order_from_json(p) for p in data.get("parts", ())),
        str(data.get("words", "")),
        data.get("via"),
        data.get("priority"),
    )
