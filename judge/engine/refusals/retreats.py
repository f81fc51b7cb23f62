"""Refusals of retreats: no dislodged unit there, more ordered than were dislodged, a retreat to where the unit may not
go.
"""

from __future__ import annotations

from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, some_of, unit_at


class OnlyDislodged(Refusal):
    """A line in a retreat phase about no unit."""

    def text(self, place: Namer = as_is) -> str:
        return "only dislodged units are ordered in a retreat phase"


class NoDislodgedUnitAt(Refusal):
    """A retreat order for a province where no unit was dislodged."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"there is no dislodged unit in {place(self.province)}"


class DislodgedShort(Refusal):
    """More dislodged units ordered than are left unordered."""

    free: int
    province: str

    names = ("free", "province")

    def __init__(self, free: int, province: str) -> None:
        object.__setattr__(self, "free", free)
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"only {self.free} dislodged unit(s) left to order in {place(self.province)}"


class CannotRetreat(Refusal):
    """A retreat to where the unit may not go, naming the retreats open (a refusal gives the choices)."""

    force: UnitName
    destination: str
    choices: tuple[str, ...]
    """the retreats open to it"""

    names = ("force", "destination", "choices")

    def __init__(self, force: UnitName, destination: str, choices: tuple[str, ...] = ()) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "choices", choices)

    def text(self, place: Namer = as_is) -> str:
        if not self.choices:
            return (
                f"{unit_at(self.force, place)} cannot retreat to {place(self.destination)}: it has no "
                "retreat open, only disband"
            )
        return (
            f"{unit_at(self.force, place)} cannot retreat to {place(self.destination)}; "
            f"the retreats open: {some_of([place(c) for c in self.choices])} (or disband)"
        )
