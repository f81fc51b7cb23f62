"""WHOIS, INFO PLAYER and a player's web page: who a registered player is (REGISTER's form), his record and his
ratings, as one typed view (`PlayerCard`) every medium renders. His address is in it only when he allows it
(`Show address: yes`); another player's gunboat seats are in it only after the game's reveal."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import select

from judge.clock import as_utc
from judge.game.errors import GameError
from judge.game.names import as_shown
from judge.game.ratings import Rating, ratings_of
from judge.game.record_values import PlayerRecord
from judge.game.records import record_of
from judge.game.settings import is_private
from judge.game.store import account_of, find_player
from judge.game.use_case import UseCase
from judge.store import Game, Player


@dataclass(frozen=True)
class PlayerCard:
    name: str
    registered: datetime
    country: str | None
    zone: str | None
    level: str | None
    address: str | None
    """his address, only where he allows others to see it (or he asks about himself)"""
    record: PlayerRecord
    ratings: tuple[Rating, ...]


class Whois(UseCase):
    def card(self, who: str, *, asker: str | None = None) -> PlayerCard:
        """The player `who` names (his name, or an address of his), as others may see him; `asker`: the address
        the question came from (a player asking about himself sees his own address and gunboat games)."""
        with self.store.plain() as s:
            player = find_player(s, who)
            mine = account_of(s, asker) if asker else None
            own = mine is not None and mine.id == player.id
            if "@" in who and not (own or player.show_address):  # an address names nobody but its allowing owner
                raise GameError(f"no registered player is called {who!r}")
            return PlayerCard(
                name=as_shown(player.name),
                registered=as_utc(player.created_at),
                country=player.country,
                zone=player.zone,
                level=player.level,
                address=player.address if (player.show_address or own) else None,
                record=record_of(s, player, hidden=own),
                ratings=tuple(ratings_of(s, player.id)),
            )

    def page(self, player_id: int) -> PlayerCard | None:
        """A player's card as his web page shows it (None: no such player, or one in no game the site shows): his
        address only where he allows it, no gunboat seat before its reveal, and no private game's name (its players
        are behind its page password)."""
        with self.store.plain() as s:
            player = s.get(Player, player_id)
            if player is None:
                return None
            record = record_of(s, player)
            hidden = {
                name for name, settings in s.execute(select(Game.name, Game.settings)) if is_private(settings or {})
            }
            shown = replace(record, games=[line for line in record.games if line.game not in hidden])
            if not shown.games:  # a player the public site has never shown is not made public by a page
                return None
            return PlayerCard(
                name=as_shown(player.name),
                registered=as_utc(player.created_at),
                country=player.country,
                zone=player.zone,
                level=player.level,
                address=player.address if player.show_address else None,
                record=shown,
                ratings=tuple(ratings_of(s, player.id)),
            )

    def player_ids(self) -> list[int]:
        """Every registered player's id (the export writes a page for each)."""
        with self.store.plain() as s:
            return list(s.scalars(select(Player.id).order_by(Player.id)))
