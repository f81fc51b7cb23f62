"""Multiplicity I and II's own refusals: the A/F rules (7, 12), the opening, what may stand at sea."""

from __future__ import annotations

from judge.engine.reasons import Mark, Namer, as_is
from judge.engine.refusals.base import Refusal
from judge.engine.units import Composition


class BuildOntoRule12(Refusal):
    """A/F rule 12: a build onto an occupied centre adds the other type to a single unit."""

    built: Composition
    occupant: Composition

    names = ("built", "occupant")

    def __init__(self, built: Composition, occupant: Composition) -> None:
        object.__setattr__(self, "built", built)
        object.__setattr__(self, "occupant", occupant)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"under A/F rule 12 a build onto an occupied centre must add the other type to a single unit "
            f"(an A/F), not {self.built} onto {self.occupant}"
        )


class SplitFailsWhole(Refusal):
    """A split at sea that would leave a force there that cannot stand at sea (Multiplicity II rule 7)."""

    staying: Composition

    names = ("staying",)

    def __init__(self, staying: Composition) -> None:
        object.__setattr__(self, "staying", staying)

    def text(self, place: Namer = as_is) -> str:
        return f"the split fails whole: it would leave {self.staying} at sea, which cannot stand there"


class StrandedSupport(Refusal):
    """A/F rule 7: a support for the component that stays, voided when the other failed to leave."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"void: {self.beside(Mark.VOID, place)}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        if said is not Mark.VOID:
            return self.text(place)
        return (
            f"the other component of the A/F in {place(self.province)} failed to leave, so a support for the "
            "component that stays is nullified (A/F rule 7)"
        )


class OpeningSingle(Refusal):
    """Multiplicity II rule 1: the opening places one army or one fleet on each home centre."""

    composition: Composition

    names = ("composition",)

    def __init__(self, composition: Composition) -> None:
        object.__setattr__(self, "composition", composition)

    def text(self, place: Namer = as_is) -> str:
        return f"the initial placement is one army or one fleet on each home centre (rule 1), not {self.composition}"


class OpeningHasUnit(Refusal):
    """Multiplicity II rule 1: a second unit placed on a home centre."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.province)} already has its unit: one unit on each home centre (rule 1)"


class NotSeaworthy(Refusal):
    """Multiplicity II rule 5: more armies than fleets may not go to sea."""

    composition: Composition

    names = ("composition",)

    def __init__(self, composition: Composition) -> None:
        object.__setattr__(self, "composition", composition)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.composition} is not seaworthy (more armies than fleets) and cannot go to sea"
