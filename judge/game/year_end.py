"""A game that ends at a set year (`end.year`, issue 44 item 5): the timed game of the hobby's tournaments and of
many postal games, which stops at the end of a year agreed beforehand, the player holding the most supply centres
taking the game.

Rulings (docs/mail.md, "The game's own end"):
- the game ends with the last phase of its end year, whichever that is: the Winter's adjustments, or the Fall (or
  its retreats) where nobody adjusts. Centres change hands after the Fall, so the count is the Fall's, and the
  Winter's builds are played out as in every year, so the last position is a whole year's;
- a victory by the rules in that year comes first (the engine's, `Outcome.winner`): the year's end decides only a
  game nobody won;
- the side (a player's powers together: a Hoplite Major with its Minor, a Hepta player's seven board-nations)
  holding the most centres, counted as every table counts them (in halves where a town is worth half), wins; sides
  level at the top share the result as a draw is shared (judge.game.ratings gives them equal shares of the point).

The engine is not asked: it has no clock and no settings; the game layer reads the setting after the phase, from
the position the phase gave (`judge.game.adjudication`).
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine import Position, Rules
from judge.engine.supply import centre_values
from judge.game.settings import end_year
from judge.game.use_case import sides_of
from judge.store import Game

CENTRES = "centres"
"""The result of a game ended at its end year (`Game.result`, `Processed.finished`), beside victory, draw,
concession and terminated: the winners are the leaders in centres."""


@dataclass(frozen=True)
class YearEnd:
    """How a game that reached its end year ended: a value the results, the game-over mail and the game's page word
    (a frozen dataclass, as the game layer's values are: judge.value's compiled `Value` is the engine's)."""

    year: int
    """the end year (`end.year`), as the calendar stores it (440 BC is -440)"""
    winners: tuple[str, ...]
    """the powers of the sides holding the most centres, as `Game.winners` keeps a result's powers"""
    leaders: int
    """how many sides share the top: one wins outright, more share the game"""
    centres: int
    """the leaders' count, in half centres as every count is kept"""


def year_end(game: Game, rules: Rules, after: Position) -> YearEnd | None:
    """The game's end at its end year, when the phase just processed was that year's last (the position it gave is
    of a later year), else None."""
    year = end_year(game.settings)
    if year is None or after.phase.year <= year:
        return None
    worth = centre_values(rules, after.centres)
    held = {side.powers: sum(worth.get(power, 0) for power in side.powers) for side in sides_of(game)}
    top = max(held.values(), default=0)
    leading = sorted(powers for powers, count in held.items() if count == top)
    return YearEnd(year, tuple(sorted(p for powers in leading for p in powers)), len(leading), top)
