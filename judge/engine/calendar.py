"""A variant's calendar: which phases a year has, what comes first, and how seasons and years are written.

Standard Diplomacy's year is Spring and Fall movement (each with its retreats) and a Winter adjustment, from
Spring 1901. The seed variants bend each part of that:
- opening phases before the first movement: Multiplicity's Winter 1900 placement (an adjustment phase played
  from an empty board), Mad Diplomacy's two placement phases (centres in Spring 1900, units in Autumn 1900),
  Hoplite Wars' initial builds in Winter 451 BC;
- season names: "Autumn" where the text says Autumn (a case may write either; `Fall` is the stored name);
- years before Christ: stored as negative numbers (450 BC is -450), so a year still follows a year by adding
  one (Winter 451 BC, then Spring 450 BC), and written "450 BC";
- when supply centres change hands: after the Fall (with its retreats) in standard; a variant may hand over some
  centres after other seasons too (Hoplite Wars' towns after every Spring and Autumn).

The engine asks the calendar, never the season's name, which phase follows and whether ownership changes.
"""

from __future__ import annotations

from judge.engine.phase import Phase, PhaseType
from judge.value import Value


class Calendar(Value):
    movement_seasons: tuple[str, ...]
    """the movement seasons of a year, in order; adjustments follow the last of them"""
    adjustment_season: str
    ownership_seasons: frozenset[str]
    """movement seasons after which (with their retreats) every centre goes to the power whose unit stands on it"""
    season_names: dict[str, str]
    """how the variant writes a stored season name (`{"Fall": "Autumn"}`); absent names are written as stored"""
    opening: tuple[Phase, ...]
    """phases played before the first regular one, in order (placements, a Winter of initial builds)"""

    names = ("movement_seasons", "adjustment_season", "ownership_seasons", "season_names", "opening")
    optional = frozenset(("movement_seasons", "adjustment_season", "ownership_seasons", "season_names", "opening"))

    def __init__(
        self,
        movement_seasons: tuple[str, ...] = ("Spring", "Fall"),
        adjustment_season: str = "Winter",
        ownership_seasons: frozenset[str] = frozenset({"Fall"}),
        season_names: dict[str, str] | None = None,
        opening: tuple[Phase, ...] = (),
    ) -> None:
        object.__setattr__(self, "movement_seasons", movement_seasons)
        object.__setattr__(self, "adjustment_season", adjustment_season)
        object.__setattr__(self, "ownership_seasons", ownership_seasons)
        object.__setattr__(self, "season_names", {} if season_names is None else season_names)
        object.__setattr__(self, "opening", opening)

    # --- which phase follows ---------------------------------------------------------------------------

    @property
    def year_end(self) -> str:
        """The last movement season of a year: its end brings the adjustments and the victory check."""
        return self.movement_seasons[-1]

    def ends_year(self, phase: Phase) -> bool:
        """Is this the year's last movement (or its retreats), after which the year's adjustments come?"""
        return phase.season == self.year_end and phase.type in (PhaseType.MOVEMENT, PhaseType.RETREAT)

    def ownership_changes(self, phase: Phase) -> bool:
        """Do centres change hands at the end of this movement season (once its retreats are played)?"""
        return phase.season in self.ownership_seasons and phase.type in (PhaseType.MOVEMENT, PhaseType.RETREAT)

    def first_movement(self, year: int) -> Phase:
        return Phase(self.movement_seasons[0], year, PhaseType.MOVEMENT)

    def next_phase(self, phase: Phase, *, retreats_needed: bool, adjustments_needed: bool) -> Phase:
        """The phase after `phase`, skipping a retreat or adjustment phase nobody has to play."""
        if phase in self.opening:
            at = self.opening.index(phase)
            if at + 1 < len(self.opening):
                return self.opening[at + 1]
            return self.first_movement(phase.year + 1 if self._closes_year(phase) else phase.year)
        kind = phase.type
        if kind is PhaseType.MOVEMENT and retreats_needed:
            return Phase(phase.season, phase.year, PhaseType.RETREAT)
        if kind is PhaseType.ADJUSTMENT or kind is PhaseType.PLACEMENT:
            return self.first_movement(phase.year + 1)
        seasons = self.movement_seasons
        if phase.season in seasons:
            at = seasons.index(phase.season)
            if at + 1 < len(seasons):
                return Phase(seasons[at + 1], phase.year, PhaseType.MOVEMENT)
        if adjustments_needed:
            return Phase(self.adjustment_season, phase.year, PhaseType.ADJUSTMENT)
        return self.first_movement(phase.year + 1)

    def _closes_year(self, phase: Phase) -> bool:
        """An opening phase in the year's last season (Winter 1900, Autumn 1900) is followed by next year's
        Spring; one earlier in the year (Spring 1900 placement) by the next opening phase only."""
        return phase.season in (self.adjustment_season, self.year_end)

    # --- how it is written -----------------------------------------------------------------------------

    def season_name(self, season: str) -> str:
        return self.season_names.get(season, season)

    @staticmethod
    def year_name(year: int) -> str:
        """1901 -> "1901"; -450 -> "450 BC"."""
        return f"{-year} BC" if year < 0 else str(year)

    def display(self, phase: Phase) -> str:
        """A phase as players read it: "Spring 1901 Movement", "Autumn 1900 Placement", "Winter 451 BC Adjustment"."""
        return f"{self.season_name(phase.season)} {self.year_name(phase.year)} {phase.type.value}"


STANDARD_CALENDAR = Calendar()
