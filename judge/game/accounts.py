"""Players' own records: who they are, how they sign in, where their mail goes. No game in it."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.game.errors import GameError
from judge.game.use_case import UseCase
from judge.passwords import hash_password, verify_password
from judge.store import Player


class Accounts(UseCase):
    def register(self, address: str, name: str, password: str) -> None:
        address = address.strip().lower()
        with self.store.write() as s:
            if s.scalar(select(Player).where(Player.address == address)) is not None:
                raise GameError(f"{address} is already registered")
            s.add(
                Player(address=address, name=name, password_hash=hash_password(password), created_at=self.clock.now())
            )

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
