"""CW Heptadiplomacy's own refusals: supports across boards (rule 3's modules) and win claims (rule 7)."""

from __future__ import annotations

from judge.engine.reasons import Namer, as_is
from judge.engine.refusals.base import Refusal


class OnlyTargetBoard(Refusal):
    """Rule 3, modules 1 and 2: only units on the target board support into it."""

    module: int
    board: str
    into: str

    names = ("module", "board", "into")

    def __init__(self, module: int, board: str, into: str) -> None:
        object.__setattr__(self, "module", module)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "into", into)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"under module {self.module} only units on board {self.board} may support into {place(self.into)} (rule 3)"
        )


class ClaimOutOfSeason(Refusal):
    """Rule 7: claims are made with the Autumn orders."""

    def text(self, place: Namer = as_is) -> str:
        return "claims are made with the Autumn orders (rule 7); the claim is discounted"


class ClaimUnread(Refusal):
    """A claim the judge could not read, with what was wrong with it."""

    why: str

    names = ("why",)

    def __init__(self, why: str) -> None:
        object.__setattr__(self, "why", why)

    def text(self, place: Namer = as_is) -> str:
        return self.why


class SoloNeedsNoClaim(Refusal):
    """Rule 7: a solo win needs no claim."""

    def text(self, place: Namer = as_is) -> str:
        return "a solo win needs no claim: 70 centres at the end of an Autumn win (rule 7)"
