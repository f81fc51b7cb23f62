"""Refusals of moves: where a unit (or a force) may not go, by land, by sea, by convoy or from aboard a fleet."""

from __future__ import annotations

from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, either, unit_at


class GarrisonNeverMoves(Refusal):
    """A garrison ordered to move or convoy."""

    force: UnitName

    names = ("force",)

    def __init__(self, force: UnitName) -> None:
        object.__setattr__(self, "force", force)

    def text(self, place: Namer = as_is) -> str:
        return f"a garrison never moves; {unit_at(self.force, place)} can only hold or support"


class CannotSail(Refusal):
    """An army aboard a fleet at sea landing from a sea its fleet cannot sail to."""

    fleet_at: str
    via: str

    names = ("fleet_at", "via")

    def __init__(self, fleet_at: str, via: str) -> None:
        object.__setattr__(self, "fleet_at", fleet_at)
        object.__setattr__(self, "via", via)

    def text(self, place: Namer = as_is) -> str:
        return f"the fleet at {place(self.fleet_at)} cannot sail to {place(self.via)}"


class LandsOnlyNextTo(Refusal):
    """An army aboard landing on a province that is no coast next to it."""

    at: str

    names = ("at",)

    def __init__(self, at: str) -> None:
        object.__setattr__(self, "at", at)

    def text(self, place: Namer = as_is) -> str:
        return f"an army at {place(self.at)} can only land on a coast next to it"


class MoveToOwnProvince(Refusal):
    """A move to the province the unit stands in."""

    def text(self, place: Namer = as_is) -> str:
        return "a unit cannot move to the province it stands in"


class ArmyToSea(Refusal):
    """An army ordered to sea."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"an army cannot move to the sea {place(self.province)}"


class NoConvoyChain(Refusal):
    """A move via convoy that no fleets at sea could carry."""

    origin: str
    destination: str

    names = ("origin", "destination")

    def __init__(self, origin: str, destination: str) -> None:
        object.__setattr__(self, "origin", origin)
        object.__setattr__(self, "destination", destination)

    def text(self, place: Namer = as_is) -> str:
        return f"no fleets at sea could convoy an army from {place(self.origin)} to {place(self.destination)}"


class OutOfReach(Refusal):
    """An army's move to a province not next to it, which no fleets at sea could convoy it to."""

    destination: str
    origin: str

    names = ("destination", "origin")

    def __init__(self, destination: str, origin: str) -> None:
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "origin", origin)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{place(self.destination)} is not next to {place(self.origin)}, and no fleets at sea could convoy it there"
        )


class OnlyArmiesConvoyed(Refusal):
    """A fleet's move via convoy, or a convoy of a fleet."""

    def text(self, place: Namer = as_is) -> str:
        return "only armies can be convoyed"


class FleetInland(Refusal):
    """A fleet ordered inland."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"a fleet cannot move inland to {place(self.province)}"


class CoastUnreachable(Refusal):
    """A fleet's move to a coast it cannot reach, where it reaches another coast of the province."""

    at: str
    coast: str

    names = ("at", "coast")

    def __init__(self, at: str, coast: str) -> None:
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "coast", coast)

    def text(self, place: Namer = as_is) -> str:
        return f"a fleet in {place(self.at)} cannot reach {place(self.coast)}"


class NotAdjacent(Refusal):
    """A fleet's move to a province not next to it."""

    province: str
    at: str

    names = ("province", "at")

    def __init__(self, province: str, at: str) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "at", at)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.province)} is not next to {place(self.at)} for a fleet"


class WhichCoast(Refusal):
    """A fleet's move to a province of two coasts it could reach, naming neither (DATC 4.B.1)."""

    province: str
    coasts: tuple[str, ...]

    names = ("province", "coasts")

    def __init__(self, province: str, coasts: tuple[str, ...]) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "coasts", coasts)

    def text(self, place: Namer = as_is) -> str:
        return f"say which coast of {place(self.province)}: {either(tuple(map(place, self.coasts)))}"
