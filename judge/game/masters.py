"""Who runs a game: the GM names co-GMs (njudge's PROMOTE: each may do all the GM does, signing on as MASTER with his
own registered password) and hands the game to another GM (DPjudge's TAKEOVER of the master, without its shared
password: the new GM signs on with his own). The judge's admin (`[judge] admin`) signs on as MASTER of any game
with his own registered password, so he does both for a GM who vanished."""

from __future__ import annotations

from sqlalchemy.orm import Session

from judge.game.errors import GameError
from judge.game.names import as_shown
from judge.game.seat_events import CoGmNamed, GmHandedOver
from judge.game.use_case import UseCase, audience_of
from judge.store import Game


class Masters(UseCase):
    def promote(self, name: str, address: str) -> str:
        """Name the registered player at `address` a co-GM of the game; returns his name. Both are told."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player = self.store.player(s, address)
            co_gms = list(game.co_gms or [])
            if player.address == game.gm.address:
                raise GameError(f"{as_shown(player.name)} is the GM of {name} already")
            if player.address in co_gms:
                raise GameError(f"{as_shown(player.name)} is a co-GM of {name} already")
            if any(seat.player_id == player.id for seat in game.seats):
                raise GameError(f"{as_shown(player.name)} plays in {name}: a player is never its GM too")
            game.co_gms = sorted([*co_gms, player.address])
            self._told(s, game, player.name, player.address, named=True)
            return as_shown(player.name)

    def demote(self, name: str, address: str) -> str:
        """The co-GM at `address` is no longer one; returns his name. Both are told."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player = self.store.player(s, address)
            co_gms = list(game.co_gms or [])
            if player.address not in co_gms:
                raise GameError(f"{as_shown(player.name)} is not a co-GM of {name}")
            game.co_gms = [a for a in co_gms if a != player.address]
            self._told(s, game, player.name, player.address, named=False)
            return as_shown(player.name)

    def hand_over(self, name: str, address: str) -> str:
        """Give the game to the registered player at `address`: he is its GM from now on (a co-GM he was is no
        longer a co-GM), the old GM no longer is one. Returns his name. The new GM and the old are told, and the
        game who its GM is now."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player = self.store.player(s, address)
            old = game.gm
            if player.id == old.id:
                raise GameError(f"{as_shown(player.name)} is the GM of {name} already")
            if any(seat.player_id == player.id for seat in game.seats):
                raise GameError(f"{as_shown(player.name)} plays in {name}: a player is never its GM too")
            game.co_gms = [a for a in (game.co_gms or []) if a != player.address]
            game.gm = player
            s.flush()
            event = GmHandedOver(
                game=name,
                new=as_shown(player.name),
                new_address=player.address,
                old=as_shown(old.name),
                old_address=old.address,
                audience=audience_of(game),
            )
            self.raise_event(s, game, event)
            return as_shown(player.name)

    def _told(self, s: Session, game: Game, co_gm: str, address: str, *, named: bool) -> None:
        """The co-GM and the GM told of a PROMOTE or a DEMOTE."""
        event = CoGmNamed(
            game=game.name,
            co_gm=as_shown(co_gm),
            address=address,
            gm=as_shown(game.gm.name),
            gm_address=game.gm.address,
            named=named,
        )
        self.raise_event(s, game, event)
