"""A game's entry limits (njudge's `SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT`, `data/dedsystems`): the least
dedication and on-time ratio, and the most civil-disorder ratio, a player needs to join; and the GM's waiver for one
player (`WAIVE LIMITS`).

`check_entry` is the one check, called wherever a player takes a place in a game (JOIN; a volunteer's takeover):
it refuses with the player's figure and the limit. A limit not set is no limit; a newly registered player has
njudge's "perfect" ratios (0/0) and no dedication, so only a dedication limit above 0 keeps him out, as on njudge.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.orm import Session

from judge.game.errors import GameError
from judge.game.record_values import Figures
from judge.game.records import record_of
from judge.game.settings import section
from judge.game.store import find_player
from judge.game.use_case import UseCase
from judge.store import Game, Player


class EntryRefused(GameError):
    """A player below a game's entry limit; the message gives his figure and the limit."""


@dataclass(frozen=True)
class Limits:
    dedication: int | None = None
    on_time: float | None = None
    resignation: float | None = None
    """the most: every other limit is a least"""


def limits_of(game: Game) -> Limits:
    """The game's entry limits as the GM set them (`entry.*`), None where unset."""
    entry = section(game.settings or {}, "entry")

    def number(key: str) -> float | None:
        value = entry.get(key)
        return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

    dedication = number("dedication")
    return Limits(
        dedication=int(dedication) if dedication is not None else None,
        on_time=number("on_time"),
        resignation=number("resignation"),
    )


def shortfall(figures: Figures, limits: Limits) -> str | None:
    """Why a player with these figures may not join under these limits, or None when he may."""
    if limits.dedication is not None and figures.dedication < limits.dedication:
        return f"your dedication is {figures.dedication}; this game asks at least {limits.dedication}"
    if limits.on_time is not None and figures.on_time_ratio < limits.on_time:
        return (
            f"your on-time ratio is {figures.on_time_ratio:.2f} ({figures.on_time} of {figures.due} phases); "
            f"this game asks at least {limits.on_time:.2f}"
        )
    if limits.resignation is not None and figures.resignation_ratio > limits.resignation:
        return (
            f"your civil-disorder ratio is {figures.resignation_ratio:.2f}; this game takes at most "
            f"{limits.resignation:.2f}"
        )
    return None


def check_entry(s: Session, game: Game, player: Player) -> None:
    """Refuse (`EntryRefused`) a player whose record is below the game's entry limits, unless the GM waived them
    for him; the figures are his in all variants, his own gunboat games counted (the refusal goes to him alone)."""
    limits = limits_of(game)
    if limits == Limits() or player.id in (game.waived or ()):
        return
    why = shortfall(record_of(s, player, hidden=True).total, limits)
    if why is not None:
        raise EntryRefused(f"{game.name} has entry limits: {why} (its GM may waive them for you: WAIVE LIMITS)")


class EntryLimits(UseCase):
    def waive(self, name: str, who: str) -> str:
        """Let one player (his name or address) join the game whatever his record; returns his name."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player = find_player(s, who)
            if player.id not in (game.waived or ()):
                game.waived = sorted({*(game.waived or ()), player.id})
            return player.name
