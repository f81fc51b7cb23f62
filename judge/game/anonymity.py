"""Who may read a player's name: the one place a player's name is put into anything another person reads.

In a gunboat game (the `gunboat` setting: njudge's gunboat games, DPjudge's NO_REVEAL rule) nobody but the GM
learns who plays which power -- not the other players, not the observers, not a visitor of the site -- until the
game ends (unless `reveal_at_end` is off, as under DPjudge's NO_REVEAL) or the GM sends REVEAL. Every view, event
and notice that names a player for others (LIST, the game-start mail, a replacement's notice, the web's players'
table, its list of games, its events, the feed and the export) takes the name from `known_as`, so that none can
forget the game is gunboat. The GM's own views (STATUS) name the players by `as_shown` and their addresses: he
still sees everything. A player's own mail (the one telling him he replaces someone) names only himself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.game.names import shown_name
from judge.game.settings import is_gunboat, reveals_at_end
from judge.store import Game, GameStatus, Player

ANONYMOUS = "anonymous"
"""what others read for a player's name while the game keeps it hidden (a name nobody may register: it is what
the pages and mail print in its place, and a player called "anonymous" in an open game reads the same)"""


def names_hidden(game: Game) -> bool:
    """Whether the game keeps its players' names from everyone but the GM now: a gunboat game, not yet revealed
    (REVEAL turns `gunboat` off), and not over where it reveals at the end."""
    return hides_names(game.settings, game.status)


def hides_names(settings: dict[str, Any], status: str) -> bool:
    """`names_hidden` from a game's settings and status, for a view read without the game's row."""
    if not is_gunboat(settings):
        return False
    return not (status == GameStatus.FINISHED and reveals_at_end(settings))


def known_as(game: Game, player: Player | None) -> str | None:
    """A player's name as anyone but the GM may read it in `game`: `ANONYMOUS` while the game hides its players,
    else the name as the pages show it (never an address: `judge.game.names.shown_name`); None for nobody."""
    return None if player is None else name_for_others(game, player.name)


def name_for_others(game: Game, name: str) -> str:
    """A stored name (a replacement's, kept with the game's events) as anyone but the GM may read it now."""
    return ANONYMOUS if names_hidden(game) else shown_name(name)


def joined_names(game: Game, players: Iterable[Player]) -> tuple[str, ...]:
    """The names of the players who joined a forming game, as others may read them: `ANONYMOUS` once for each
    while the game hides them (how many joined is public; who is not)."""
    joined = {player.id: player for player in players}
    if names_hidden(game):
        return (ANONYMOUS,) * len(joined)
    return tuple(sorted({shown_name(player.name) for player in joined.values()}))
