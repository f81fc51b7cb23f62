"""The game layer (no mail in it): use cases that change games and say what happened as typed events, and typed
views that mails and pages read. `docs/architecture.md` draws the whole."""

from judge.game.adjudication import Processed
from judge.game.errors import GameError, NoSuchGame
from judge.game.layer import Games
from judge.game.orders import Submission

__all__ = ["GameError", "Games", "NoSuchGame", "Processed", "Submission"]
