"""Refusals of splits and merges (Multiplicity I and II, Multiplomacy's stacks): a part that cannot do its order, a
merge across powers or from too far, a force the merge would form that may not stand; and what becomes of a merge's
part that is stopped (Multiplicity II rule 3).
"""

from __future__ import annotations

from judge.engine.orders import OrderKind
from judge.engine.reasons import Mark, Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, unit_at
from judge.engine.units import Composition


class NotAUnit(Refusal):
    """A composition the variant has no unit of."""

    composition: Composition
    variant: str

    names = ("composition", "variant")

    def __init__(self, composition: Composition, variant: str) -> None:
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "variant", variant)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.composition} is not a unit of {self.variant}"


class NotMultiple(Refusal):
    """A split of a force that is a single unit; `single` words it as the multi-unit variants do."""

    force: UnitName
    single: bool

    names = ("force", "single")

    def __init__(self, force: UnitName, single: bool = False) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "single", single)

    def text(self, place: Namer = as_is) -> str:
        if self.single:
            return f"{unit_at(self.force, place)} is a single unit and cannot split"
        return f"{unit_at(self.force, place)} is not a multiple unit"


class PartCannot(Refusal):
    """A part of a split whose own order is illegal."""

    part: Composition
    order: OrderKind
    refusal: Refusal

    names = ("part", "order", "refusal")

    def __init__(self, part: Composition, order: OrderKind, refusal: Refusal) -> None:
        object.__setattr__(self, "part", part)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "refusal", refusal)

    def text(self, place: Namer = as_is) -> str:
        return f"the part {self.part} cannot {self.order.value}: {self.refusal.text(place)}"


class PartsTooMany(Refusal):
    """A split into more than the force holds."""

    parts: Composition
    force: UnitName

    names = ("parts", "force")

    def __init__(self, parts: Composition, force: UnitName) -> None:
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "force", force)

    def text(self, place: Namer = as_is) -> str:
        return f"the parts ({self.parts}) are more than {unit_at(self.force, place)}"


class SplitPartsSupport(Refusal):
    """The parts of a split supporting each other where the variant forbids it."""

    def text(self, place: Namer = as_is) -> str:
        return "the parts of a split do not support each other"


class PartLeftCannotStand(Refusal):
    """A split whose staying part could not stand where it is."""

    province: str
    staying: Composition
    refusal: Refusal

    names = ("province", "staying", "refusal")

    def __init__(self, province: str, staying: Composition, refusal: Refusal) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "staying", staying)
        object.__setattr__(self, "refusal", refusal)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"the part left in {place(self.province)} ({self.staying}) could not stand there: "
            f"{self.refusal.text(place)}"
        )


class MergeAcrossPowers(Refusal):
    """A merge naming another power's unit."""

    force: UnitName

    names = ("force",)

    def __init__(self, force: UnitName) -> None:
        object.__setattr__(self, "force", force)

    def text(self, place: Namer = as_is) -> str:
        return f"units of different powers do not merge ({unit_at(self.force, place)} is {self.force.power})"


class MergeNotAdjacent(Refusal):
    """A merging unit not next to the merge, where the variant wants it adjacent (Multiplicity I rule 6)."""

    force: UnitName
    province: str

    names = ("force", "province")

    def __init__(self, force: UnitName, province: str) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{unit_at(self.force, place)} is not next to {place(self.province)}: merging units must be "
            "adjacent to, or already on, the province (a merge reached by convoy is not allowed)"
        )


class CannotMerge(Refusal):
    """A merging unit whose move into the merge is illegal."""

    force: UnitName
    destination: str
    refusal: Refusal

    names = ("force", "destination", "refusal")

    def __init__(self, force: UnitName, destination: str, refusal: Refusal) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "refusal", refusal)

    def text(self, place: Namer = as_is) -> str:
        return f"{unit_at(self.force, place)} cannot merge into {place(self.destination)}: {self.refusal.text(place)}"


class StaysRule3(Refusal):
    """A merging unit that cannot reach the merge stays, the others going on (Multiplicity II rule 3)."""

    refusal: Refusal

    names = ("refusal",)

    def __init__(self, refusal: Refusal) -> None:
        object.__setattr__(self, "refusal", refusal)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.refusal.text(place)}; it stays (rule 3)"


class MergeTooFew(Refusal):
    """A merge of fewer than two units."""

    def text(self, place: Namer = as_is) -> str:
        return "a merge needs two or more units"


class MergeCoasts(Refusal):
    """Merging fleets that would arrive on different coasts."""

    province: str
    coasts: tuple[str, ...]

    names = ("province", "coasts")

    def __init__(self, province: str, coasts: tuple[str, ...]) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "coasts", coasts)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"the merging fleets would arrive on different coasts of {place(self.province)} "
            f"({', '.join(map(place, self.coasts))})"
        )


class WouldForm(Refusal):
    """Several merges (or split parts) of one power into one province forming a force that may not stand."""

    province: str
    formed: Composition
    refusal: Refusal

    names = ("province", "formed", "refusal")

    def __init__(self, province: str, formed: Composition, refusal: Refusal) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "formed", formed)
        object.__setattr__(self, "refusal", refusal)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"together the units ordered into {place(self.province)} would form {self.formed}: "
            f"{self.refusal.text(place)}"
        )


class MergePartStopped(Refusal):
    """Multiplicity II rule 3: a merging part stopped (dislodged, or met head to head where the game says so) does
    not join the merge; the other parts follow their orders without it."""

    destination: str
    bounced: bool

    names = ("destination", "bounced")

    def __init__(self, destination: str, bounced: bool) -> None:
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "bounced", bounced)

    def text(self, place: Namer = as_is) -> str:
        if self.bounced:
            return (
                f"met the unit leaving {place(self.destination)} head to head, so it does not join the merge; "
                "the others follow their orders without it (rule 3, merge_part_stopped = bounced)"
            )
        return (
            f"dislodged, so it does not join the merge into {place(self.destination)}; the others follow their orders "
            "without it (rule 3)"
        )


class SupportOfAMerger(Refusal):
    """Multiplicity II rule 3: a support to hold a unit ordered to merge is void, also when the unit is stopped."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"void: {self.beside(Mark.VOID, place)}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        if said is not Mark.VOID:
            return self.text(place)
        return f"the unit in {place(self.province)} was ordered to merge, not to hold"
