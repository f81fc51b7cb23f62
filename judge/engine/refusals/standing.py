"""Refusals of where a force may stand: an army at sea, a fleet inland, a coast named or missing."""

from __future__ import annotations

from judge.engine.reasons import Namer, as_is
from judge.engine.refusals.base import Refusal
from judge.engine.units import Composition


class CannotStand(Refusal):
    """A force where its kind cannot stand: an army at sea, a fleet inland, a mixed force inland."""

    composition: Composition
    province: str

    names = ("composition", "province")

    def __init__(self, composition: Composition, province: str) -> None:
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        if self.composition.is_army:
            return f"an army cannot stand in {place(self.province)}"
        if self.composition.is_fleet:
            return f"a fleet cannot stand in {place(self.province)}"
        return f"{self.composition} cannot stand inland in {place(self.province)}"


class ArmyOnCoast(Refusal):
    """An army given a coast."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"an army in {place(self.province)} stands on no coast"


class FleetNeedsCoast(Refusal):
    """A fleet in a province of two coasts, naming neither."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"a fleet in {place(self.province)} must name its coast"
