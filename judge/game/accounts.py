"""Players' own records: who they are, how they sign in, where their mail goes. No game in it."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.game.errors import GameError
from judge.game.names import NameRefused, as_shown, look_alike_key, player_name
from judge.game.use_case import UseCase
from judge.passwords import hash_password, verify_password
from judge.store import Player


class Accounts(UseCase):
    def register(self, address: str, name: str, password: str) -> str:
        """Register an address under a name (judge.game.names: normalised, bounded, like no other player's);
        returns the name as stored."""
        address = address.strip().lower()
        name = player_name(name)
        with self.store.write() as s:
            if s.scalar(select(Player).where(Player.address == address)) is not None:
                raise GameError(f"{address} is already registered")
            key = look_alike_key(name)
            taken = s.scalar(select(Player.name).where(Player.name_key == key).limit(1))
            if taken is not None:
                raise NameRefused(f"{name} is, or looks like, {as_shown(taken)}: another player's name; choose another")
            s.add(
                Player(
                    address=address,
                    name=name,
                    name_key=key,
                    password_hash=hash_password(password),
                    created_at=self.clock.now(),
                )
            )
        return name

    @staticmethod
    def authenticate(s: Session, address: str, password: str) -> Player:
        player = s.scalar(select(Player).where(Player.address == address.strip().lower()))
        if player is None or not verify_password(password, player.password_hash):
            raise GameError("unknown address or wrong password")
        return player

    def change_password(self, address: str, old: str, new: str) -> None:
        with self.store.write() as s:
            player = self.authenticate(s, address, old)
            player.password_hash = hash_password(new)

    def change_address(self, address: str, password: str, new_address: str) -> None:
        new_address = new_address.strip().lower()
        with self.store.write() as s:
            player = self.authenticate(s, address, password)
            if s.scalar(select(Player).where(Player.address == new_address)) is not None:
                raise GameError(f"{new_address} is already registered")
            player.address = new_address

    def check(self, address: str, password: str) -> bool:
        with self.store.write() as s:
            try:
                self.authenticate(s, address, password)
            except GameError:
                return False
            return True
