"""Forces: what stands on the board.

A force is one power's body of troops at one location, with a composition such as `A`, `F`, `2A`, `A/2F` or
`3G`. Standard Diplomacy is the special case where every composition is a single army or fleet. Variants
whose units stay individuals while sharing a province (Multiplomacy) simply put several single-unit forces on
one location.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from judge.value import Value

_COMPONENT = re.compile(r"(\d*)([AFG])")


class Composition(Value):
    """The units of a force, by kind: a value (judge/value.py), ordered by its counts as a tuple of them
    is; `of` gives the one shared instance for a set of counts."""

    armies: int
    fleets: int
    garrisons: int
    size: int
    halves: int
    """the standard upkeep in half centres: 2 an army or fleet, 1 a garrison (`Rules.upkeep`)"""
    is_army: bool
    """All army (armies or garrisons only): may stand inland, may be convoyed."""
    is_fleet: bool
    """All fleet: may not stand inland."""
    _text: str

    names = ("armies", "fleets", "garrisons")
    optional = frozenset(("armies", "fleets", "garrisons"))

    def __init__(self, armies: int = 0, fleets: int = 0, garrisons: int = 0) -> None:
        object.__setattr__(self, "armies", armies)
        object.__setattr__(self, "fleets", fleets)
        object.__setattr__(self, "garrisons", garrisons)
        # precomputed: the resolver asks these questions in its hot loops
        text = "/".join(
            letter if n == 1 else f"{n}{letter}" for letter, n in (("A", armies), ("F", fleets), ("G", garrisons)) if n
        )
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "size", armies + fleets + garrisons)
        object.__setattr__(self, "halves", 2 * (armies + fleets) + garrisons)
        object.__setattr__(self, "is_army", fleets == 0)
        object.__setattr__(self, "is_fleet", armies == 0 and garrisons == 0)

    def _counts(self) -> tuple[int, int, int]:
        return (self.armies, self.fleets, self.garrisons)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Composition):
            return NotImplemented
        return self._counts() == other._counts()

    def __hash__(self) -> int:
        return hash(self._counts())

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Composition):
            return NotImplemented
        return self._counts() < other._counts()

    def __le__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Composition):
            return NotImplemented
        return self._counts() <= other._counts()

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Composition):
            return NotImplemented
        return self._counts() > other._counts()

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Composition):
            return NotImplemented
        return self._counts() >= other._counts()

    @classmethod
    def parse(cls, text: str) -> Composition:
        """`A`, `F`, `2A`, `A/F`, `A/2F`, `2A/2F`, `G`, `2G` (also `AA`-free forms like `2 A`)."""
        known = _PARSED.get(text)
        if known is not None:
            return known
        parsed = cls._parse(text)
        if len(_PARSED) < 4096:
            _PARSED[text] = parsed
        return parsed

    @classmethod
    def _parse(cls, text: str) -> Composition:
        cleaned = text.replace(" ", "").upper()
        counts = {"A": 0, "F": 0, "G": 0}
        parts = cleaned.split("/") if cleaned else []
        if not parts:
            raise ValueError(f"{text!r} is not a unit")
        for part in parts:
            match = _COMPONENT.fullmatch(part)
            if match is None:
                raise ValueError(f"{text!r} is not a unit (write A, F, 2A, A/F, ...)")
            number, kind = match.groups()
            n = int(number) if number else 1
            if n < 1 or counts[kind]:
                raise ValueError(f"{text!r} is not a unit")
            counts[kind] = n
        return cls.of(counts["A"], counts["F"], counts["G"])

    @classmethod
    def of(cls, armies: int = 0, fleets: int = 0, garrisons: int = 0) -> Composition:
        """The shared instance for these numbers (compositions are values; sharing makes `is` checks cheap)."""
        key = (armies, fleets, garrisons)
        known = _INTERNED.get(key)
        if known is None:
            known = _INTERNED[key] = cls(armies, fleets, garrisons)
        return known

    def times(self, count: int) -> Composition:
        """This composition `count` times over (a Multiplomacy stack order's detachment)."""
        return Composition.of(self.armies * count, self.fleets * count, self.garrisons * count)

    def minus(self, other: Composition) -> Composition | None:
        """What is left after taking `other` away, or None when `other` is not part of this force."""
        armies, fleets, garrisons = (
            self.armies - other.armies,
            self.fleets - other.fleets,
            self.garrisons - other.garrisons,
        )
        if min(armies, fleets, garrisons) < 0:
            return None
        return Composition.of(armies, fleets, garrisons)

    def plus(self, other: Composition) -> Composition:
        return Composition.of(self.armies + other.armies, self.fleets + other.fleets, self.garrisons + other.garrisons)

    def singles(self) -> list[Composition]:
        """The individual units this composition is made of."""
        return (
            [Composition.of(armies=1)] * self.armies
            + [Composition.of(fleets=1)] * self.fleets
            + [Composition.of(garrisons=1)] * self.garrisons
        )

    @property
    def is_single(self) -> bool:
        return self.size == 1

    @property
    def kind(self) -> str:
        """The letter of a single unit, or of a uniform multiple ("A" for 3A)."""
        kinds = [k for k, n in (("A", self.armies), ("F", self.fleets), ("G", self.garrisons)) if n]
        return kinds[0] if len(kinds) == 1 else "/".join(kinds)

    def __str__(self) -> str:
        return self._text


_INTERNED: dict[tuple[int, int, int], Composition] = {}
ARMY = Composition.of(armies=1)
FLEET = Composition.of(fleets=1)


_PARSED: dict[str, Composition] = {}
"""compositions already read from text (a position lists the same few, `A` and `F`, over and over)"""

Facts = tuple[tuple[str, Any], ...]
"""Per-unit facts as sorted (key, value) pairs: hashable, so a force stays a value."""


class Force(Value):
    power: str
    composition: Composition
    at: str  # location id: `par`, `stp/sc`, on a board of several maps `3:par`, `3:stp/nc`
    facts: Facts
    """what belongs to this unit and travels with it through moves, splits and retreats (an embarked army's
    moves aboard in Mad Diplomacy, the board a Heptadiplomacy unit was built on); the variant names the keys"""
    province: str

    names = ("power", "composition", "at", "facts")
    optional = frozenset(("facts",))

    def __init__(self, power: str, composition: Composition, at: str, facts: Facts = ()) -> None:
        # written out rather than generated: compiled (judge/speedups.py), a generated __init__ would run as
        # Python on every force the engine places, several times the cost of the rest of the placing
        slash = at.find("/")
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "facts", facts)
        object.__setattr__(self, "province", at if slash < 0 else at[:slash])

    def describe(self) -> str:
        return f"{self.composition} {self.at}"

    def fact(self, key: str, default: Any = None) -> Any:
        for name, value in self.facts:
            if name == key:
                return value
        return default

    def with_facts(self, **changes: Any) -> Force:
        """The same force with some facts set (None removes one)."""
        merged = dict(self.facts)
        for key, value in changes.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = value
        return Force(self.power, self.composition, self.at, facts_of(merged))

    def moved_to(self, location: str) -> Force:
        return Force(self.power, self.composition, location, self.facts)

    def joined(self, other: Force, at: str | None = None) -> Force:
        """This force with another of its power's added (a merge, a failed split's parts coming together), at
        `at` (default: where this one stands). Facts of both are kept; where both have one, the larger number (an
        army's moves aboard count from the longest aboard)."""
        merged = dict(self.facts)
        for key, value in other.facts:
            mine = merged.get(key)
            merged[key] = value if mine is None or (isinstance(value, int) and value > mine) else mine
        return Force(self.power, self.composition.plus(other.composition), at or self.at, facts_of(merged))

    def part(self, composition: Composition) -> Force:
        """Some of this force's units, where it stands, with its facts (a split's part, a stack's detachment)."""
        return Force(self.power, composition, self.at, self.facts)


def facts_of(values: dict[str, Any]) -> Facts:
    return tuple(sorted(values.items()))


def stacking_problem(forces: Sequence[Force], stacking: str, sides: Mapping[str, str]) -> str | None:
    """Why these forces cannot share the board like this, or None (`Rules.check_stacking`, here to run compiled:
    every case and every stored position is checked). `stacking`: one force a "province", one force a
    "location", or any number of one "power" (or side: `sides`, power -> side) together."""
    seen: dict[str, Force] = {}
    by_location = stacking == "location"
    for force in forces:
        key = force.at if by_location else force.province
        other = seen.get(key)
        if other is not None and (
            stacking != "power" or sides.get(other.power, other.power) != sides.get(force.power, force.power)
        ):
            return f"{force.province} already holds {other.power} {other.describe()}"
        if other is None:
            seen[key] = force
        if by_location:
            rival = seen.setdefault(force.province, force)
            if sides.get(rival.power, rival.power) != sides.get(force.power, force.power):
                return f"{force.province} already holds {rival.power} {rival.describe()}"
    return None
