"""Forces: what stands on the board.

A force is one power's body of troops at one location, with a composition such as `A`, `F`, `2A`, `A/2F` or
`3G`. Standard Diplomacy is the special case where every composition is a single army or fleet. Variants
whose units stay individuals while sharing a province (Multiplomacy) simply put several single-unit forces on
one location.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_COMPONENT = re.compile(r"(\d*)([AFG])")


@dataclass(frozen=True, slots=True, order=True)
class Composition:
    armies: int = 0
    fleets: int = 0
    garrisons: int = 0

    @classmethod
    def parse(cls, text: str) -> Composition:
        """`A`, `F`, `2A`, `A/F`, `A/2F`, `2A/2F`, `G`, `2G` (also `AA`-free forms like `2 A`)."""
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
        return cls(counts["A"], counts["F"], counts["G"])

    @property
    def size(self) -> int:
        return self.armies + self.fleets + self.garrisons

    @property
    def is_single(self) -> bool:
        return self.size == 1

    @property
    def is_army(self) -> bool:
        """All army (armies or garrisons only): may stand inland, may be convoyed."""
        return self.fleets == 0

    @property
    def is_fleet(self) -> bool:
        """All fleet: may not stand inland."""
        return self.armies == 0 and self.garrisons == 0

    @property
    def kind(self) -> str:
        """The letter of a single unit, or of a uniform multiple ("A" for 3A)."""
        kinds = [k for k, n in (("A", self.armies), ("F", self.fleets), ("G", self.garrisons)) if n]
        return kinds[0] if len(kinds) == 1 else "/".join(kinds)

    def __str__(self) -> str:
        out = []
        for letter, n in (("A", self.armies), ("F", self.fleets), ("G", self.garrisons)):
            if n:
                out.append(letter if n == 1 else f"{n}{letter}")
        return "/".join(out)


ARMY = Composition(armies=1)
FLEET = Composition(fleets=1)


@dataclass(frozen=True, slots=True)
class Force:
    power: str
    composition: Composition
    at: str  # location id: `par`, `stp/sc` (later `3:par`)

    @property
    def province(self) -> str:
        slash = self.at.find("/")
        return self.at if slash < 0 else self.at[:slash]

    def describe(self) -> str:
        return f"{self.composition} {self.at}"

    def moved_to(self, location: str) -> Force:
        return Force(self.power, self.composition, location)
