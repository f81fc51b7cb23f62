"""The game lifecycle service (no mail in it): what the mail commands and the scheduler call."""

from judge.game.service import GameService, Processed, ServiceError, Submission

__all__ = ["GameService", "Processed", "ServiceError", "Submission"]
