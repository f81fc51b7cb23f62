"""The engine's one style of value: a plain class that declares its fields, names them in order (`names`) and
sets them once in a written-out `__init__`; this base gives it, once for all, what a frozen dataclass has:
equality and hash over the fields (of the same class only), the repr, and no assignment once made.

Why not dataclasses: the decorator writes each method as source text and compiles it whenever the class is
defined, in every process (about half a million instructions a method), and `judge adjudicate` defines every
value class at its start; compiled by mypyc (judge/speedups.py), a dataclass keeps that generated `__init__`
interpreted besides. A plain class costs nothing to define beyond the class itself, and mypyc compiles it whole,
`__init__` included. The base of the reason and refusal kinds (`judge.engine.reasons.Reason`) is one, and adds
their words and JSON. tests/test_written_out_inits.py holds each value's
`__init__` to its `names` and each to what `dataclasses` would write.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar


class Value:
    """A value of the engine: see the module."""

    __slots__ = ()
    names: ClassVar[tuple[str, ...]] = ()
    """the fields, in the order the class's `__init__` takes them"""
    optional: ClassVar[frozenset[str]] = frozenset()
    """the fields its `__init__` gives a default"""

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.names])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Value):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.names])
        return f"{self.__class__.__qualname__}({fields})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise _frozen(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise _frozen(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled as its class and its fields, made again through its `__init__` (the default would set each
        # field by assignment, which a value refuses)
        return (self.__class__, self._values())


def _frozen(message: str) -> Exception:
    """The error a frozen dataclass raises on assignment, `dataclasses.FrozenInstanceError`, imported when a value
    is assigned to (a bug) rather than at every start: `dataclasses` brings `inspect`, `ast` and `dis` with it."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)


class Record:
    """The engine's working state of one adjudication (an order's result row, a detachment, a binding, an
    outcome): a plain class of the same style as `Value` (fields named in order in `names`, set by a written-out
    `__init__`) that is changed while a phase is worked out, so it is compared over its fields and never hashed,
    as a dataclass that is not frozen is."""

    __slots__ = ()
    names: ClassVar[tuple[str, ...]] = ()
    """the fields, in the order the class's `__init__` takes them"""

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.names])

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Record):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: {self.__class__.__name__!r}")

    def __repr__(self) -> str:
        fields = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.names])
        return f"{self.__class__.__qualname__}({fields})"


V = TypeVar("V", bound=Value)


def replace(value: V, **changes: Any) -> V:
    """The value with some of its fields changed, the rest as they were (what `dataclasses.replace` does for a
    dataclass). A name that is not one of its fields is refused, as there."""
    unknown = changes.keys() - set(value.names)
    if unknown:
        raise TypeError(f"{type(value).__name__} has no field {', '.join(sorted(unknown))}")
    return type(value)(*[changes[name] if name in changes else getattr(value, name) for name in value.names])
