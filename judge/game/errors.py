"""What a use case says when it cannot do what was asked: the message is what the player or GM is told."""

from __future__ import annotations


class GameError(Exception):
    """A request that cannot be done; the message is the reply's explanation."""


class NoSuchGame(GameError):
    """The one answer for a game name that names no game."""

    def __init__(self, name: str) -> None:
        super().__init__(f"there is no game called {name}")
        self.name = name
