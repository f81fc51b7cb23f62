"""The engine's value classes whose `__init__` is written out rather than generated (judge/speedups.py: compiled,
a generated one runs as Python on every order and force) must take exactly the dataclass's fields, in order,
with the same defaults, and leave every field set as given: a field added to the class but not to its
`__init__` would otherwise be silently missing."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

import pytest

from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.position import Dislodged, OrderResult, OwnershipChange, Result
from judge.engine.reasons import Bounced, HeadToHead, HeldBy, OwnUnit, UnitName
from judge.engine.resolution import Detachment
from judge.engine.units import ARMY, Force
from judge.notation.lines import ReadOrder
from judge.notation.parse import _Cursor

WRITTEN_OUT = [
    Force, UnitRef, Order, Submitted, Dislodged, OwnershipChange, OrderResult, Detachment, ReadOrder, _Cursor,
    UnitName, OwnUnit, HeadToHead, HeldBy, Bounced,
]  # fmt: skip
SOURCE = Path(__file__).resolve().parent.parent
_EMPTY = object()


def _written_out(cls: type) -> list[tuple[str, Any]]:
    """The parameters of the class's `__init__` as written in its source, with their defaults (read from the
    source: compiled, the method has no signature to inspect)."""
    path = SOURCE / (cls.__module__.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == cls.__name__)
    init = next(node for node in found.body if isinstance(node, ast.FunctionDef) and node.name == "__init__")
    names = [a.arg for a in init.args.args[1:]]
    defaults = [ast.literal_eval(d) for d in init.args.defaults]
    padded = [_EMPTY] * (len(names) - len(defaults)) + defaults
    return list(zip(names, padded, strict=True))


def _defaults(cls: type) -> list[tuple[str, Any]]:
    out = []
    for f in dataclasses.fields(cls):
        if not f.init:
            continue
        if f.default is not dataclasses.MISSING:
            out.append((f.name, f.default))
        elif f.default_factory is not dataclasses.MISSING:
            out.append((f.name, "factory"))
        else:
            out.append((f.name, _EMPTY))
    return out


@pytest.mark.parametrize("cls", WRITTEN_OUT, ids=lambda c: c.__name__)
def test_written_out_init_takes_the_dataclass_fields(cls: type) -> None:
    assert "__init__" in cls.__dict__
    given = _written_out(cls)
    expected = _defaults(cls)
    assert [name for name, _ in given] == [name for name, _ in expected]
    for (name, default), (_, wanted) in zip(given, expected, strict=True):
        if wanted == "factory":
            assert default is None, f"{cls.__name__}.{name}: a field with a default factory takes None"
        else:
            assert default == wanted, f"{cls.__name__}.{name}"


def test_written_out_inits_set_every_field() -> None:
    ref = UnitRef(ARMY, "par", 2, "France")
    order = Order(OrderKind.MOVE, ref, ref, "bur", True, (ref,), (), "w", "mao", 3)
    force = Force("France", ARMY, "stp/nc", (("moves", 1),))
    made: list[Any] = [
        force,
        ref,
        order,
        Submitted("France", "A par - bur", order, "e"),
        Dislodged(force, "mun", True, ("bur",), ("ruh",)),
        OwnershipChange("par", "France", "Germany"),
        OrderResult("France", "A par - bur", order, Result.FAILS, (), True, None),
        Detachment(force, order, "m", 2, [1], True, (("par", "bur"),)),
        ReadOrder("A par - bur", order, "e"),
        _Cursor(["a", "par"], 1),
        UnitName("France", "A", "par"),
        OwnUnit("bur"),
        HeadToHead(UnitName("France", "A", "par"), 2, 1),
        HeldBy(UnitName("France", "A", "par"), 1, 1, True),
        Bounced((UnitName("France", "A", "par"),)),
    ]
    for value in made:
        for f in dataclasses.fields(value):
            assert hasattr(value, f.name), f"{type(value).__name__}.{f.name} is not set"
    assert force.province == "stp"
    assert Detachment(force, order).entries == []
    assert Detachment(force, order).entries is not Detachment(force, order).entries


def test_written_out_values_stay_frozen_and_equal_by_value() -> None:
    """Force, UnitRef and Order stay values: equal and hashing alike when alike, and never changed in place."""
    assert Force("France", ARMY, "par") == Force("France", ARMY, "par")
    assert hash(Order(OrderKind.HOLD, UnitRef(ARMY, "par"))) == hash(Order(OrderKind.HOLD, UnitRef(ARMY, "par")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        Force("France", ARMY, "par").at = "bur"  # type: ignore[misc]
