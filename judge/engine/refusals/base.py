"""What a refusal is: a reason the judge words itself (`Worded`), an order's refusal (`Refusal`) or a remark on
an order that stands (`Remark`), written to the contract as its own kind with its fields and its sentence
(`json`, `field_json`, `kind_name`); `AndSo`, a refusal and what the units do instead; and the helpers every
topic's refusals name units and places with.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Any

from judge.engine.reasons import Mark, Namer, Reason, UnitName, as_is
from judge.engine.units import Composition, Force


class Worded(Reason):
    """A reason the judge words itself: a refusal, or a remark on an order that stands.

    The kinds are plain classes, each with its fields (`names`) set once by its `__init__` (through
    `object.__setattr__`: `Reason` refuses assignment, as a frozen dataclass does) and never changed, and
    compared, hashed and shown by them here: not dataclasses, for a module of a hundred dataclasses took as long
    to import as the rest of the engine (the decorator's work for each class at every start), and `judge
    adjudicate` starts for every batch. The module is compiled (judge/speedups.py) with `reasons.py`, whose `Reason`
    its kinds subclass."""

    def json(self) -> dict[str, Any]:
        """The kind, its fields, and the sentence as `words` (what the contract wrote alone before issue 42)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in self.names:
            out[name] = field_json(getattr(self, name))
        out["words"] = self.text()
        return out

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.names)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Worded) and other.values() == self.values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.names, self.values(), strict=True))
        return f"{type(self).__name__}({shown})"

    def __str__(self) -> str:
        return self.text()


def field_json(value: Any) -> Any:
    """A refusal's field as JSON: a unit or a refusal as its object, a composition as the zines write it (`A/2F`,
    "" for none), a choice among names (`Then`, `OrderKind`, ...) as its member's name in lower case (`unit`,
    `move`, `movement`: a code, not the words it stands for), a tuple as a list; numbers, strings, booleans and
    `None` as they are."""
    if isinstance(value, (Reason, UnitName)):
        return value.json()
    if isinstance(value, Composition):
        return str(value)
    if isinstance(value, Enum):
        return value.name.lower()
    if isinstance(value, tuple):
        return [field_json(v) for v in value]
    return value


class Refusal(Worded):
    """Why an order is illegal."""


class Remark(Worded):
    """What the judge says of an order that stands (or of a line it added)."""


def kind_name(cls: type[Worded]) -> str:
    """A kind's name in the contract: its class's name in snake case (`NoUnitAt` -> `no_unit_at`, `AFAshore` ->
    `af_ashore`, `StaysRule3` -> `stays_rule3`), so that the two cannot drift apart; docs/adjudicate.md lists
    them (tests/test_refusal_kinds.py holds the list to the classes)."""
    name = cls.__name__
    out: list[str] = []
    for i, letter in enumerate(name):
        starts_word = letter.isupper() and i > 0 and (not name[i - 1].isupper() or name[i + 1 : i + 2].islower())
        out.append(("_" if starts_word else "") + letter.lower())
    return "".join(out)


def unit_name(force: Force) -> UnitName:
    """A force as a refusal names it."""
    return UnitName(force.power, str(force.composition), force.at)


def unit_at(name: UnitName, place: Namer) -> str:
    return f"{name.unit} {place(name.at)}"


NAMED = 8
"""the most places or names a refusal lists before it counts the rest"""


def some_of(names: tuple[str, ...] | list[str], most: int = NAMED) -> str:
    """Names as a refusal lists them: all of a few, or the first `most` and how many more (`1:par, 1:bur, ... and
    27 more`; issue 40: a Heptadiplomacy retreat refused listed 35 places), so a reply stays readable."""
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[:most])} and {len(names) - most} more"


def either(items: tuple[str, ...]) -> str:
    return " or ".join(items)


class Then(StrEnum):
    """What the units an illegal order names do instead."""

    UNIT = "the unit holds"
    UNITS = "the units hold"
    FORCE = "the force holds"
    CLAIM = "the claim is discounted (rule 7)"


class AndSo(Refusal):
    """A refusal, and what the units it concerns do instead."""

    refusal: Refusal
    then: Then

    names = ("refusal", "then")

    def __init__(self, refusal: Refusal, then: Then) -> None:
        object.__setattr__(self, "refusal", refusal)
        object.__setattr__(self, "then", then)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.refusal.text(place)}; {self.then.value}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        return f"{self.refusal.beside(said, place)}; {self.then.value}"
