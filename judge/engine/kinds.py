"""Every kind of reason, refusal and remark by its name in the contract, and reading one back from its JSON to
the engine's value: a stored outcome, or a contract outcome fed back, gives the values the engine made.

Why a module of its own: the reasons (judge/engine/reasons.py) are what the refusals (judge/engine/refusals/)
build on, so neither can read the other's kinds back without importing in a circle; here both are known.

What reads back as what: a kind this judge writes, to its value (`reason_from_json(r.json()) == r` for every kind,
tests/test_refusal_kinds.py); a refusal stored before issue 42, written as `{"kind": "note", "words": ...}`, and a
kind a later judge added, to a `Note` of its words.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from judge.engine.orders import OrderKind
from judge.engine.phase import PhaseType
from judge.engine.reasons import (
    DisbandCause,
    LostAs,
    Note,
    Reason,
    UnitName,
    reason_kinds,
)
from judge.engine.refusals import Supporting, Then, Worded, worded_kinds
from judge.engine.units import Composition


def all_kinds() -> tuple[type[Reason], ...]:
    """Every kind the engine writes: the outcomes' reasons, then the refusals and remarks."""
    return (*reason_kinds(), *worded_kinds())


KINDS: dict[str, type[Reason]] = {cls.kind: cls for cls in all_kinds()}
"""kind -> class"""


def reason_from_json(raw: dict[str, Any]) -> Reason:
    """A reason, refusal or remark as its `json()` wrote it: the same value. An unknown kind (a refusal stored as
    a note before issue 42, or a kind written by a later judge) is kept as its words."""
    cls = KINDS.get(str(raw.get("kind")))
    if cls is None:
        return Note(str(raw.get("words", "")))
    if issubclass(cls, Worded):
        return cls(*[_refusal_field(name, raw.get(name)) for name in cls.names])
    values: dict[str, Any] = {}
    for name in cls.names:
        key = name.rstrip("_")
        if key in raw or name not in cls.optional:  # a key an earlier judge did not write: its default
            values[name] = _reason_field(name, raw.get(key))
    return cls(**values)


def reasons_from_json(raw: Any) -> list[Reason]:
    """An order's `reasons` as stored: the values (none where nothing was stored)."""
    return [reason_from_json(r) for r in raw] if isinstance(raw, list) else []


def _unit_name(raw: dict[str, Any]) -> UnitName:
    return UnitName(str(raw["power"]), str(raw["unit"]), str(raw["at"]))


def _reason_field(name: str, raw: Any) -> Any:
    """A field of an outcome's reason, as `Reason.json` wrote it."""
    if isinstance(raw, dict) and "kind" in raw:
        return reason_from_json(raw)
    if isinstance(raw, dict) and set(raw) == {"power", "unit", "at"}:
        return _unit_name(raw)
    if isinstance(raw, list):
        return tuple(_reason_field(name, v) for v in raw)
    if name == "cause":
        return DisbandCause(raw)
    if name == "words" and raw in LostAs._value2member_map_:
        return LostAs(raw)
    return raw


def _composition(raw: str) -> Composition:
    return Composition.parse(raw) if raw else Composition.of()


def _choice(among: type[Enum]) -> Callable[[str], Any]:
    return lambda raw: among[raw.upper()]


_STRINGS: dict[str, Callable[[str], Any]] = {
    **dict.fromkeys(
        (
            "built",
            "cargo",
            "composition",
            "formed",
            "made",
            "new",
            "occupant",
            "old",
            "part",
            "parts",
            "rest",
            "stated",
            "staying",
            "taken",
            "wanted",
        ),
        _composition,
    ),
    "order": _choice(OrderKind),
    "phase": _choice(PhaseType),
    "supporting": _choice(Supporting),
    "then": _choice(Then),
}
"""the refusals' fields written as strings that stand for a value, by name: the same name means the same thing in
every kind (a composition, a choice among names); every other string is a province, a power or words"""


def _refusal_field(name: str, raw: Any) -> Any:
    """A field of a refusal or remark, as `refusals.field_json` wrote it."""
    if isinstance(raw, dict) and "kind" in raw:
        return reason_from_json(raw)
    if isinstance(raw, dict):
        return _unit_name(raw)
    if isinstance(raw, list):
        return tuple(_refusal_field(name, v) for v in raw)
    read = _STRINGS.get(name) if isinstance(raw, str) else None
    return read(raw) if read is not None else raw
