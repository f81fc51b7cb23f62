"""A player's record as values (`judge.game.records` works them out from the games' events): his counts in one
variant or in all (`Figures`, with njudge's derived figures), his games (`GameLine`), and the whole (`PlayerRecord`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any


@dataclass
class Figures:
    """One player's counts, in one variant or in all."""

    started: int = 0
    """games he held a side in when they started"""
    finished: int = 0
    """games he held a side in when they ended (victory, draw, concession)"""
    abandoned: int = 0
    """games in which a side of his missed `abandon_after` phases in a row (the judge marked it abandoned)"""
    resigned: int = 0
    ejected: int = 0
    replacements: int = 0
    """sides he took over in a running game (njudge's "abandoned positions taken over")"""
    on_time: int = 0
    late: int = 0
    missed: int = 0
    """phases his side owed orders and had none when processed (NMR)"""
    disorder: int = 0
    """of the missed phases, those at or past `abandon_after` in a row: the side was in civil disorder"""

    def add(self, other: Figures) -> None:
        for each in fields(self):
            setattr(self, each.name, getattr(self, each.name) + getattr(other, each.name))

    @property
    def due(self) -> int:
        """The phases his side owed orders in (njudge's "total turns due")."""
        return self.on_time + self.late + self.missed

    @property
    def dedication(self) -> int:
        """njudge's original points (`data/dedsystems`, system 1): +3 a phase on time, -1 a phase late (njudge
        took a point for each late notice; the judge sends one a phase), -50 a game abandoned, -100 a phase missed
        past the grace ("going CD")."""
        return 3 * self.on_time - self.late - 50 * self.abandoned - 100 * self.missed

    @property
    def on_time_ratio(self) -> float:
        """njudge's on-time ratio (system 2): phases ordered on time over phases due; 1.0 with none due, as
        njudge holds 0/0 "perfect"."""
        return self.on_time / self.due if self.due else 1.0

    @property
    def resignation_ratio(self) -> float:
        """njudge's CD ratio (system 3, `SET RESRAT`): times in civil disorder (phases missed past the grace) over
        games started plus positions taken over; 0.0 with neither. Lower is better; it may pass 1."""
        games = self.started + self.replacements
        return self.missed / games if games else 0.0

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {each.name: getattr(self, each.name) for each in fields(self)}
        out.update(
            due=self.due,
            dedication=self.dedication,
            on_time_ratio=round(self.on_time_ratio, 3),
            resignation_ratio=round(self.resignation_ratio, 3),
        )
        return out


@dataclass(frozen=True)
class GameLine:
    """One game of a player's, as his record lists it."""

    game: str
    variant: str
    side: str
    """the side he played last in it, as lists name it"""
    how: str
    """playing, finished, resigned, ejected, replaced (the GM gave his side to another), terminated, forming"""
    result: str | None = None
    """the game's end (victory, draw, concession, terminated, centres: its end year), None while it runs"""
    won: bool = False
    """his side was among the winners (alone, in a draw, or conceded to)"""


@dataclass
class PlayerRecord:
    """A player's whole record: by variant and in all, and his games."""

    name: str
    by_variant: dict[str, Figures] = field(default_factory=dict)
    games: list[GameLine] = field(default_factory=list)

    @property
    def total(self) -> Figures:
        whole = Figures()
        for each in self.by_variant.values():
            whole.add(each)
        return whole

    def in_variant(self, variant: str) -> Figures:
        return self.by_variant.setdefault(variant, Figures())


@dataclass(frozen=True)
class SeatChange:
    """Who came to a side or left it, and in which phase (issue 43 item 8: SUMMARY names every player of a side and
    every change, as njudge's summary listed "from S1903M" under a power): read from the same walk as the records."""

    side: str
    """the side, as lists name it"""
    how: str
    """started (he held it at the start; `player` None: nobody did), replaced (the GM's REPLACE), took over (a
    volunteer's TAKEOVER), resigned, ejected, abandoned (missed `abandon_after` phases in a row: open to a
    volunteer)"""
    player: str | None
    """his name as the events name him (`as_shown`): the newcomer, or the one who left; never an address"""
    phase_index: int
    """the phase the game was in (for an abandonment: the phase whose processing found it)"""
