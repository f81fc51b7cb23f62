"""The calendar: which phase a position is in and which phase follows."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PhaseType(StrEnum):
    MOVEMENT = "Movement"
    RETREAT = "Retreat"
    ADJUSTMENT = "Adjustment"


SEASON_ALIASES = {
    "spring": "Spring",
    "fall": "Fall",
    "autumn": "Fall",
    "winter": "Winter",
    "summer": "Summer",
}


@dataclass(frozen=True, slots=True)
class Phase:
    season: str
    year: int
    type: PhaseType

    @classmethod
    def parse(cls, season: str, year: int, type_: str) -> Phase:
        name = SEASON_ALIASES.get(season.strip().lower())
        if name is None:
            raise ValueError(f"unknown season {season!r}")
        try:
            kind = PhaseType(type_.strip().capitalize())
        except ValueError:
            raise ValueError(f"unknown phase type {type_!r} (Movement, Retreat or Adjustment)") from None
        return cls(name, int(year), kind)

    @property
    def code(self) -> str:
        """The njudge phase code: S1901M, F1901R, W1901A."""
        return f"{self.season[0]}{self.year}{self.type.value[0]}"

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.type.value}"


def next_phase(phase: Phase, *, retreats_needed: bool, adjustments_needed: bool) -> Phase:
    """The phase after `phase`, skipping a retreat or adjustment phase nobody has to play."""
    season, year, kind = phase.season, phase.year, phase.type
    if kind is PhaseType.MOVEMENT and retreats_needed:
        return Phase(season, year, PhaseType.RETREAT)
    if season == "Spring":
        return Phase("Fall", year, PhaseType.MOVEMENT)
    if season == "Fall" and kind is not PhaseType.ADJUSTMENT and adjustments_needed:
        return Phase("Winter", year, PhaseType.ADJUSTMENT)
    return Phase("Spring", year + 1, PhaseType.MOVEMENT)
