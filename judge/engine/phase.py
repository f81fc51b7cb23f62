"""A phase: its season, year and type. Which phase follows is the variant's calendar (`calendar.py`)."""

from __future__ import annotations

from enum import StrEnum

from judge.value import Value


class PhaseType(StrEnum):
    MOVEMENT = "Movement"
    RETREAT = "Retreat"
    ADJUSTMENT = "Adjustment"
    PLACEMENT = "Placement"
    """a variant's opening phase in which powers place what they start with (Mad Diplomacy's centres, then units)"""


SEASON_ALIASES = {
    "spring": "Spring",
    "fall": "Fall",
    "autumn": "Fall",
    "winter": "Winter",
    "summer": "Summer",
}


class Phase(Value):
    season: str
    year: int
    type: PhaseType

    names = ("season", "year", "type")

    def __init__(self, season: str, year: int, type: PhaseType) -> None:
        object.__setattr__(self, "season", season)
        object.__setattr__(self, "year", year)
        object.__setattr__(self, "type", type)

    @classmethod
    def parse(cls, season: str, year: int, type_: str) -> Phase:
        name = SEASON_ALIASES.get(season.strip().lower())
        if name is None:
            raise ValueError(f"unknown season {season!r}")
        try:
            kind = PhaseType(type_.strip().capitalize())
        except ValueError:
            raise ValueError(f"unknown phase type {type_!r} (Movement, Retreat, Adjustment or Placement)") from None
        return cls(name, int(year), kind)

    @property
    def code(self) -> str:
        """The njudge phase code: S1901M, F1901R, W1901A; a year before Christ as S450BCM; a placement P."""
        year = f"{-self.year}BC" if self.year < 0 else str(self.year)
        return f"{self.season[0]}{year}{self.type.value[0]}"

    @property
    def njudge_code(self) -> str:
        """The phase as njudge's `::` header lines and subjects name it (issue 45): a winter's adjustments are the
        Fall's `B` phase (`F1901B`; njudge's `A` is Machiavelli's bidding), an Autumn is `F`, a Summer `U`; a year
        before Christ and a placement as `code` writes them."""
        if self.year < 0 or self.type is PhaseType.PLACEMENT:
            return self.code
        if self.type is PhaseType.ADJUSTMENT:
            return f"F{self.year}B"
        season = {"Summer": "U", "Autumn": "F"}.get(self.season, self.season[0])
        return f"{season}{self.year}{self.type.value[0]}"

    def __str__(self) -> str:
        return f"{self.season} {self.year} {self.type.value}"
