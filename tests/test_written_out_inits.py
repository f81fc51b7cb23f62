"""The engine's value classes whose `__init__` is written out rather than generated (judge/speedups.py: compiled,
a generated one runs as Python on every order and force) must take exactly the dataclass's fields, in order,
with the same defaults, and leave every field set as given: a field added to the class but not to its
`__init__` would otherwise be silently missing.

The reason kinds and `UnitName` are plain values of the engine's one style, not dataclasses (docs/engine.md, "One
style of value"): they name their fields (`names`, those with a default in `optional`) and write out all that
`dataclasses` would write for a frozen dataclass (their `__init__` here, equality, hash, repr and refusing
assignment in their base, `Reason`); every written-out `__init__` of a dataclass is one `dataclasses` is told
not to write: it compiles each method it writes from text at every start (docs/engine.md,
"Start-up"). They must be what `dataclasses` would have written: the same repr, equal and hashing alike exactly
when a frozen dataclass of the same fields would be."""

from __future__ import annotations

import ast
import dataclasses
import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

from judge.board.model import StartingUnit, Terrain
from judge.engine.binding import Binding, _Claim
from judge.engine.calendar import Calendar
from judge.engine.order_text import Form
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef, Verb
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import Adjustment, Dislodged, OrderResult, Outcome, OwnershipChange, Position, Result
from judge.engine.reasons import (
    Beaten,
    Bounced,
    DisbandCause,
    HeadToHead,
    HeldBy,
    LostAs,
    Note,
    OwnUnit,
    Reason,
    UnitName,
    reason_kinds,
)
from judge.engine.resolution import Detachment
from judge.engine.retreat import _Retreat
from judge.engine.rules import Rules
from judge.engine.units import ARMY, FLEET, Composition, Force
from judge.notation.lines import ReadOrder
from judge.notation.parse import _Cursor
from judge.value import Record
from judge.variants.descriptor import Variant
from judge.variants.hepta_claims import read_terms
from judge.variants.hepta_terms import ClaimTerms

KINDS = sorted(reason_kinds(), key=lambda k: k.__name__)
"""every reason kind"""
RECORDS = [
    OrderResult, Detachment, _Cursor, Binding, _Claim, _Retreat, Outcome,
]  # fmt: skip
"""the engine's working state on `judge.value.Record` (changed while a phase is worked out)"""
VALUES = [
    Force,
    UnitRef,
    Order,
    Submitted,
    Dislodged,
    Position,
    Composition,
    Phase,
    Calendar,
    Verb,
    OwnershipChange,
    Adjustment,
    Form,
    ReadOrder,
]
"""the engine's values on `judge.value.Value`"""
PLAIN = [UnitName, *VALUES, *(kind for kind in KINDS if kind.names)]
"""the values of the engine's one style (plain classes naming their fields in `names`) that have fields"""
SOURCE = Path(__file__).resolve().parent.parent
_EMPTY = object()


def _init_source(cls: type) -> ast.FunctionDef:
    """The class's `__init__` as written in its source (compiled, the method has no signature to inspect)."""
    path = SOURCE / (cls.__module__.replace(".", "/") + ".py")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == cls.__name__)
    return next(node for node in found.body if isinstance(node, ast.FunctionDef) and node.name == "__init__")


def _default(cls: type, node: ast.expr) -> Any:
    """A default as written: a literal, a member of an enum of the class's module (`LostAs.UNIT`), a function of
    it (`_same`) or a frozen set (`frozenset({"Fall"})`)."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return getattr(getattr(sys.modules[cls.__module__], node.value.id), node.attr)
    if isinstance(node, ast.Name):
        return getattr(sys.modules[cls.__module__], node.id)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "frozenset":
        return frozenset(ast.literal_eval(node.args[0])) if node.args else frozenset()
    return ast.literal_eval(node)


def _written_out(cls: type) -> list[tuple[str, Any]]:
    """The parameters of the class's `__init__` as written in its source, with their defaults."""
    init = _init_source(cls)
    names = [a.arg for a in init.args.args[1:]]
    defaults = [_default(cls, d) for d in init.args.defaults]
    padded = [_EMPTY] * (len(names) - len(defaults)) + defaults
    return list(zip(names, padded, strict=True))


def _field_names(cls: Any) -> list[str]:
    """A value's fields, in order: a dataclass's, or those a plain value names."""
    return [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else list(cls.names)


@pytest.mark.parametrize("cls", PLAIN, ids=lambda c: c.__name__)
def test_a_plain_value_names_the_fields_its_init_takes(cls: Any) -> None:
    """`names` is what equality, hash, repr and the JSON go by, and `optional` what reading back leaves to the
    default: a parameter of `__init__` left out of either would be silently dropped."""
    given = _written_out(cls)
    assert [name for name, _ in given] == list(cls.names)
    assert {name for name, default in given if default is not _EMPTY} == set(getattr(cls, "optional", ()))


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
        Bounced((UnitName("France", "A", "par"),), 1),
        Beaten((UnitName("France", "A", "par"),), 1, 2),
    ]
    for value in made:
        for name in _field_names(value):
            assert hasattr(value, name), f"{type(value).__name__}.{name} is not set"
    assert force.province == "stp"
    assert Detachment(force, order).entries == []
    assert Detachment(force, order).entries is not Detachment(force, order).entries


def test_written_out_values_stay_frozen_and_equal_by_value() -> None:
    """Force, UnitRef and Order stay values: equal and hashing alike when alike, and never changed in place."""
    assert Force("France", ARMY, "par") == Force("France", ARMY, "par")
    assert hash(Order(OrderKind.HOLD, UnitRef(ARMY, "par"))) == hash(Order(OrderKind.HOLD, UnitRef(ARMY, "par")))
    with pytest.raises(dataclasses.FrozenInstanceError):
        Force("France", ARMY, "par").at = "bur"  # type: ignore[misc]


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_record_compares_by_its_fields_and_is_never_hashed(cls: Any) -> None:
    """A record is what a dataclass that is not frozen was: equal to one of its class with equal fields, shown
    with its fields, changed in place, and never a key (its fields change)."""
    assert issubclass(cls, Record)
    made = RECORD_SAMPLES[cls.__name__]
    twin = cls(*[getattr(made, name) for name in cls.names])
    assert twin == made
    assert not twin.__ne__(made)
    with pytest.raises(TypeError):
        hash(made)
    name, value = RECORD_CHANGES[cls.__name__]
    setattr(twin, name, value)
    assert getattr(twin, name) == value and twin != made
    if cls is not Outcome:  # an outcome shows what the phase decided, not its workings
        assert repr(made).startswith(f"{cls.__qualname__}(") and all(f"{n}=" in repr(made) for n in cls.names)


NAME = UnitName("France", "A", "par")
SAMPLES: dict[str, tuple[Any, Any]] = {
    "str": ("par", "bur"),
    "str | None": ("par", None),
    "bool": (True, False),
    "int": (2, 3),
    "UnitName": (NAME, UnitName("Germany", "F", "kie")),
    "tuple[UnitName, ...]": ((NAME,), ()),
    "tuple[str, ...]": (("par", "bur"), ("kie",)),
    "tuple[int, ...]": ((1, 2), (3,)),
    "tuple[Reason, ...]": ((Note("void"),), ()),
    "LostAs": (LostAs.UNIT, LostAs.REST),
    "DisbandCause": (DisbandCause.CLASHED, DisbandCause.ORDERED),
    "PhaseType": (PhaseType.MOVEMENT, PhaseType.RETREAT),
    "Phase": (Phase("Spring", 1901, PhaseType.MOVEMENT), Phase("Fall", 1901, PhaseType.MOVEMENT)),
    "tuple[Force, ...]": ((Force("France", ARMY, "par"),), ()),
    "dict[str, str]": ({"par": "France"}, {}),
    "tuple[Dislodged, ...]": ((Dislodged(Force("France", ARMY, "par"), "bur"),), ()),
    "dict[str, Any] | None": ({"winters": 1}, None),
    "dict[str, tuple[str, ...]] | None": ({"Ann": ("France",)}, None),
    "Composition": (ARMY, FLEET),
    "Composition | None": (ARMY, None),
    "Facts": ((("moves", 1),), ()),
    "Force": (Force("France", ARMY, "par"), Force("Germany", FLEET, "kie")),
    "UnitRef | None": (UnitRef(ARMY, "par"), None),
    "tuple[UnitRef, ...]": ((UnitRef(ARMY, "par"),), ()),
    "tuple[Order, ...]": ((Order(OrderKind.HOLD, UnitRef(ARMY, "par")),), ()),
    "int | None": (2, None),
    "tuple[str, ...] | None": (("bur",), None),
    "Order | None": (Order(OrderKind.HOLD, UnitRef(ARMY, "par")), None),
    "OrderKind": (OrderKind.MOVE, OrderKind.HOLD),
    "VerbShape": ("unit", "place"),
    "Callable[[str], str]": (str.upper, str.lower),
    "frozenset[str]": (frozenset({"Fall"}), frozenset({"Spring"})),
    "dict[str, str] | None": ({"Fall": "Autumn"}, None),
    "tuple[Phase, ...]": ((Phase("Spring", 1901, PhaseType.MOVEMENT),), ()),
    "Terms | None": (ClaimTerms("2-way with France", (("partner", "france"),), ()), None),
    "Callable[..., Terms] | None": (read_terms, None),
    "Terrain": (Terrain.LAND, Terrain.SEA),
    "tuple[StartingUnit, ...]": ((StartingUnit("A", "par"),), ()),
    "ParadoxRule": ("szykman", "1971"),
    "AdjacentConvoy": ("via_or_own_fleet", "opposite_move"),
    "CivilDisorder": ("owned_centres", "home_centres"),
    "tuple[Any, ...]": ((1, 2), ("a",)),
    "Any": (1, "a"),
    "type[Rules]": (Rules, Calendar),
    "Calendar": (Calendar(), Calendar(season_names={"Fall": "Autumn"})),
}
"""two values of each type a kind's field has, unequal"""


def _samples(cls: type) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two sets of arguments for the class, differing in every field, by the types its `__init__` is written
    with."""
    first, second = {}, {}
    for arg in _init_source(cls).args.args[1:]:
        assert arg.annotation is not None
        first[arg.arg], second[arg.arg] = SAMPLES[ast.unparse(arg.annotation)]
    return first, second


_FORCE = Force("France", ARMY, "par")
_ORDER = Order(OrderKind.HOLD, UnitRef(ARMY, "par"))
_ROW = OrderResult("France", "A par H", _ORDER, Result.SUCCEEDS)
_SPRING = Phase("Spring", 1901, PhaseType.MOVEMENT)
RECORD_SAMPLES: dict[str, Any] = {
    "OrderResult": _ROW,
    "Detachment": Detachment(_FORCE, _ORDER, "m", 1, [0], False, ()),
    "_Cursor": _Cursor(["a", "par"], 1),
    "Binding": Binding([], [_ROW], {}),
    "_Claim": _Claim(0, _ORDER, ARMY, None, None, [0]),
    "_Retreat": _Retreat("France", [0], _ORDER, [0]),
    "Outcome": Outcome(_SPRING, [_ROW], (_FORCE,), (), frozenset(), {"par": "France"}, _SPRING),
}
"""a record of each kind"""
RECORD_CHANGES: dict[str, tuple[str, Any]] = {
    "OrderResult": ("power", "Germany"),
    "Detachment": ("written", 5),
    "_Cursor": ("pos", 2),
    "Binding": ("results", []),
    "_Claim": ("row", 3),
    "_Retreat": ("power", "Germany"),
    "Outcome": ("winner", ["France"]),
}
"""a field of each record, and a value it does not have in its sample"""


def _as_dataclasses_writes_it(cls: type) -> Any:
    """A frozen dataclass of the same name and fields, with the methods `dataclasses` writes."""
    twin = dataclasses.make_dataclass(cls.__name__, list(cls.names), frozen=True)
    twin.__qualname__ = cls.__qualname__
    return twin


@pytest.mark.parametrize("cls", [UnitName, *VALUES, *KINDS], ids=lambda c: c.__name__)
def test_written_out_values_are_what_a_frozen_dataclass_would_be(cls: Any) -> None:
    first, second = _samples(cls) if cls.names else ({}, {})
    value, twin = cls(**first), _as_dataclasses_writes_it(cls)(**first)
    assert repr(value) == repr(twin)
    assert value == cls(**first)
    if cls in (Calendar, Position, Variant):  # a dict among their fields (or a calendar's): no hash, as a frozen
        # dataclass has none
        for unhashable in (value, twin):
            with pytest.raises(TypeError):
                hash(unhashable)
    else:
        assert hash(value) == hash(cls(**first)) == hash(twin)
    assert value != twin, "a value equals only one of its own class, as a dataclass's"
    for name in first:
        other = cls(**{**first, name: second[name]})
        assert value != other, f"{cls.__name__}.{name} counts for equality"
    for name in first or ["words"]:  # a kind without fields refuses any name, as a frozen dataclass does
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, second.get(name))
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, name)


def test_compositions_order_as_their_counts() -> None:
    """`Composition` sorts as the frozen dataclass with `order=True` it was: by armies, then fleets, then
    garrisons."""
    made = [Composition(fleets=1), Composition(armies=1), Composition(1, 1), Composition(garrisons=2)]
    assert sorted(made) == sorted(made, key=lambda c: (c.armies, c.fleets, c.garrisons))
    assert Composition(armies=1) <= Composition(armies=1) < Composition(armies=2) > Composition(fleets=3)
    assert Composition(armies=2) >= Composition(1, 1)


def test_reasons_of_two_kinds_with_the_same_fields_differ() -> None:
    """Equality is of the same kind only: a `Note` is never equal to another kind with the same words."""
    alike = [(a, b) for a, b in itertools.combinations(KINDS, 2) if a.names == b.names]
    assert alike, "some kinds share their fields"
    for a, b in alike:
        first, _ = _samples(a) if a.names else ({}, {})
        assert a(**first) != b(**first), (a.__name__, b.__name__)
    assert Reason.__eq__(Note("x"), "x") is NotImplemented
