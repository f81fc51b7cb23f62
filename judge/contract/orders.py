"""An order as the judge read it, as JSON (the contract's per-order `read` key): what it is, the unit it names, the
unit it supports or convoys, where to. Results mails print every order from this value in the form the game
chose, and tools that script `judge adjudicate` need not parse order text."""

from __future__ import annotations

from typing import Any

from judge.engine.orders import Order, OrderKind, UnitRef, terms_from_json
from judge.engine.units import Composition
from judge.notation.lines import ReadOrder


def _unit_json(ref: UnitRef) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if ref.composition is not None:
        out["type"] = str(ref.composition)
    out["at"] = ref.location
    if ref.count:
        out["count"] = ref.count
    if ref.power:
        out["power"] = ref.power
    return out


def _unit_from(data: dict[str, Any]) -> UnitRef:
    kind = data.get("type")
    return UnitRef(Composition.parse(kind) if kind else None, str(data["at"]), data.get("count"), data.get("power"))


def order_json(order: Order) -> dict[str, Any]:
    """The order's value, keys left out where they say nothing (built key by key: this runs for every order of
    every outcome, and one dict grown in place costs a fifth of merging a small dict per key)."""
    out: dict[str, Any] = {"kind": str(order.kind)}  # a StrEnum: its text, cheaper than `.value`
    if order.unit is not None:
        out["unit"] = _unit_json(order.unit)
    if order.target is not None:
        out["target"] = _unit_json(order.target)
    if order.destination:
        out["to"] = order.destination
    if order.via_convoy:
        out["via_convoy"] = True
    if order.merging:
        out["merging"] = [_unit_json(u) for u in order.merging]
    if order.parts:
        out["parts"] = [order_json(p) for p in order.parts]
    if order.words:
        out["words"] = order.words
    if order.priority is not None:
        out["priority"] = order.priority
    if order.via:
        out["via"] = order.via
    if order.for_power:
        out["for"] = order.for_power
    if order.terms is not None:
        out["terms"] = order.terms.json()
    return out


def order_from_json(data: dict[str, Any]) -> Order:
    """The order `order_json` wrote: the one way back from an order's JSON to its value (the results, the
    pictures, and the orders on file read it)."""
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
        data.get("for"),
        terms_from_json(terms) if (terms := data.get("terms")) else None,
    )


def read_json(read: ReadOrder) -> dict[str, Any]:
    """One order as the judge read it from a line, kept (`OrderSet.orders`) so that nothing reads the line again:
    the piece of the line it was read from, and its value, or why it could not be read."""
    if read.order is None:
        return {"input": read.text, "error": read.error}
    return {"input": read.text, "read": order_json(read.order)}


def read_from_json(data: dict[str, Any]) -> ReadOrder:
    """What `read_json` kept, as the reader made it."""
    value = data.get("read")
    return ReadOrder(str(data["input"]), order_from_json(value) if value else None, str(data.get("error", "")))
