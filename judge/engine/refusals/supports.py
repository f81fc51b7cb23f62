"""Refusals of supports and convoys: a supporter that cannot reach, a support of nothing or of itself, a convoy a fleet
cannot give or that no route needs.
"""

from __future__ import annotations

from enum import StrEnum

from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, unit_at
from judge.engine.units import Composition


class Supporting(StrEnum):
    """What a support a unit cannot give is for."""

    MERGE = "a merge there"
    HOLD = "there"
    MOVE = "a move there"


class CannotReach(Refusal):
    """A support into a province the supporter cannot reach."""

    force: UnitName
    province: str
    supporting: Supporting

    names = ("force", "province", "supporting")

    def __init__(self, force: UnitName, province: str, supporting: Supporting) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "supporting", supporting)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{unit_at(self.force, place)} cannot reach {place(self.province)}, so it cannot support "
            f"{self.supporting.value}"
        )


class SupportIntoOwnProvince(Refusal):
    """A support for a move, or a merge, into the supporter's own province."""

    merge: bool

    names = ("merge",)

    def __init__(self, merge: bool = False) -> None:
        object.__setattr__(self, "merge", merge)

    def text(self, place: Namer = as_is) -> str:
        if self.merge:
            return "a unit cannot support a merge into its own province"
        return "a unit cannot support a move into its own province"


class NoUnitToSupport(Refusal):
    """A support naming a province where no unit stands."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"there is no unit in {place(self.province)} to support"


class SupportsItself(Refusal):
    """A unit supporting itself to hold, or its own move."""

    move: bool

    names = ("move",)

    def __init__(self, move: bool = False) -> None:
        object.__setattr__(self, "move", move)

    def text(self, place: Namer = as_is) -> str:
        return "a unit cannot support its own move" if self.move else "a unit cannot support itself"


class CannotMoveThere(Refusal):
    """A support for a move the supported unit could not make."""

    force: UnitName
    destination: str

    names = ("force", "destination")

    def __init__(self, force: UnitName, destination: str) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "destination", destination)

    def text(self, place: Namer = as_is) -> str:
        return f"{unit_at(self.force, place)} cannot move to {place(self.destination)}"


class CannotConvoy(Refusal):
    """A convoy order for a force that does not convoy."""

    composition: Composition

    names = ("composition",)

    def __init__(self, composition: Composition) -> None:
        object.__setattr__(self, "composition", composition)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.composition} cannot convoy"


class ConvoyOnlyAtSea(Refusal):
    """A convoy order for a fleet not at sea."""

    def text(self, place: Namer = as_is) -> str:
        return "only a fleet at sea can convoy"


class NoArmyToConvoy(Refusal):
    """A convoy naming a province where no army stands."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"there is no army in {place(self.province)} to convoy"


class NotOnConvoyRoute(Refusal):
    """A convoy by a fleet no route of the army needs (DATC 6.G.19)."""

    at: str
    origin: str
    destination: str

    names = ("at", "origin", "destination")

    def __init__(self, at: str, origin: str, destination: str) -> None:
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "origin", origin)
        object.__setattr__(self, "destination", destination)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.at)} cannot be part of a convoy from {place(self.origin)} to {place(self.destination)}"


class TooMuchCargo(Refusal):
    """A convoy of more armies than the convoying force has room for."""

    force: UnitName
    room: int
    cargo: Composition

    names = ("force", "room", "cargo")

    def __init__(self, force: UnitName, room: int, cargo: Composition) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "room", room)
        object.__setattr__(self, "cargo", cargo)

    def text(self, place: Namer = as_is) -> str:
        armies = "army" if self.room == 1 else "armies"
        return f"{unit_at(self.force, place)} can carry only {self.room} {armies}, not {self.cargo}"
