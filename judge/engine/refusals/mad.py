"""Mad Diplomacy's own refusals and remarks: the A/F aboard a fleet (rule 4b), boarding, the opening placement of
centres and units (rules 2, 3), a landing called off (4b with 4d), and the remarks on a centre the judge placed, an
army aboard, a support inside its merge.
"""

from __future__ import annotations

from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, Remark, unit_at
from judge.engine.units import Composition


class AFOnlyAtSea(Refusal):
    """Rule 4b: an A/F exists only at sea."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"an A/F exists only at sea (rule 4b), not in {place(self.province)}"


class AFAshore(Refusal):
    """Rule 4b: an A/F is not ordered to land as one; the army disembarks."""

    def text(self, place: Namer = as_is) -> str:
        return "an A/F cannot be ordered to a land province as an entity (rule 4b): the army disembarks"


class MergeOnLand(Refusal):
    """Armies and fleets merging on land (they combine only by boarding at sea)."""

    formed: Composition
    province: str

    names = ("formed", "province")

    def __init__(self, formed: Composition, province: str) -> None:
        object.__setattr__(self, "formed", formed)
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"armies and fleets may not merge on land ({self.formed} in {place(self.province)}), only by "
            "boarding at sea"
        )


class NoArmyToBoard(Refusal):
    """A boarding order naming no army of the power, or (`wanted`) more armies than stand there."""

    power: str
    province: str

    names = ("power", "province")

    def __init__(self, power: str, province: str) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has no army in {place(self.province)}"


class NoFleetToBoard(Refusal):
    """A boarding order naming no fleet of the power."""

    power: str
    province: str

    names = ("power", "province")

    def __init__(self, power: str, province: str) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has no fleet in {place(self.province)} to board"


class NotAnArmy(Refusal):
    """A boarding order for a force with fleets."""

    force: UnitName

    names = ("force",)

    def __init__(self, force: UnitName) -> None:
        object.__setattr__(self, "force", force)

    def text(self, place: Namer = as_is) -> str:
        return f"{unit_at(self.force, place)} is not an army"


class BoardsAtSea(Refusal):
    """Rule 4b: an army boards a fleet at sea."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"an army boards a fleet at sea (rule 4b), and {place(self.province)} is not a sea"


class NotNextTo(Refusal):
    """Two provinces that are not neighbours."""

    province: str
    other: str

    names = ("province", "other")

    def __init__(self, province: str, other: str) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "other", other)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.province)} is not next to {place(self.other)}"


class NoneToBoard(Refusal):
    """A boarding order for more of a force than it holds."""

    force: UnitName
    wanted: Composition

    names = ("force", "wanted")

    def __init__(self, force: UnitName, wanted: Composition) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "wanted", wanted)

    def text(self, place: Namer = as_is) -> str:
        return f"{unit_at(self.force, place)} has no {self.wanted} to board"


class PlacementWrongPhase(Refusal):
    """Rules 2 and 3: centres are placed in the Spring of 1900, units in the Autumn."""

    units: bool

    names = ("units",)

    def __init__(self, units: bool) -> None:
        object.__setattr__(self, "units", units)

    def text(self, place: Namer = as_is) -> str:
        if self.units:
            return "Spring 1900 is for placing supply centres (Centre Bur), not units (rule 2)"
        return "Autumn 1900 is for placing units (Place 2A Bur, Place F Bre), one a province (rule 3)"


class OutsideCountry(Refusal):
    """A centre or unit placed outside the power's country (rule 2 or 3, with the country's provinces)."""

    province: str
    power: str
    rule: int
    country: tuple[str, ...]

    names = ("province", "power", "rule", "country")

    def __init__(self, province: str, power: str, rule: int, country: tuple[str, ...]) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "country", country)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{place(self.province)} is not within the borders of {self.power} (rule {self.rule}: "
            f"{', '.join(map(place, self.country))})"
        )


class PlacedAlready(Refusal):
    """A second centre, or unit, placed in one province."""

    province: str
    unit: bool

    names = ("province", "unit")

    def __init__(self, province: str, unit: bool = False) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "unit", unit)

    def text(self, place: Namer = as_is) -> str:
        if self.unit:
            return f"a unit is already placed in {place(self.province)} (one unit a province)"
        return f"a centre is already placed in {place(self.province)}"


class CentresPlaced(Refusal):
    """Rule 2: a power places its allocation of centres and no more."""

    power: str
    allocation: int

    names = ("power", "allocation")

    def __init__(self, power: str, allocation: int) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "allocation", allocation)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} places {self.allocation} centres, and has placed them"


class PlacementStrength(Refusal):
    """Rule 3: units placed to the strength of the centres held."""

    power: str
    strength: int
    composition: Composition
    size: int
    left: int

    names = ("power", "strength", "composition", "size", "left")

    def __init__(self, power: str, strength: int, composition: Composition, size: int, left: int) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "strength", strength)
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "size", size)
        object.__setattr__(self, "left", left)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{self.power} holds {self.strength} centres and may place units of total strength {self.strength} "
            f"(rule 3); {self.composition} needs {self.size} and {self.left} is left"
        )


class PlaceWhichType(Refusal):
    """A unit placed without its type."""

    def text(self, place: Namer = as_is) -> str:
        return "say whether to place an army or a fleet (Place A Bre, Place 2F Bre)"


class PlaceMixed(Refusal):
    """A mixed force placed on land (armies and fleets combine only aboard at sea)."""

    composition: Composition

    names = ("composition",)

    def __init__(self, composition: Composition) -> None:
        object.__setattr__(self, "composition", composition)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.composition}: a unit is armies or fleets; an army and a fleet combine only aboard at sea"


class PlaceWhichCoast(Refusal):
    """A fleet placed in a province of two coasts, naming neither."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"say which coast of {place(self.province)} the fleet is placed on"


class LandingCalledOff(Refusal):
    """Mad Diplomacy rules 4b with 4d: the fleet carrying a landing army was forced to retreat."""

    sea: str

    names = ("sea",)

    def __init__(self, sea: str) -> None:
        object.__setattr__(self, "sea", sea)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"the fleet in {place(self.sea)} disembarking the army was forced to retreat: the army does not land "
            "and is lost with it (rules 4b, 4d)"
        )


class PlacedByJudge(Remark):
    """Mad Diplomacy rule 2: a centre the judge placed for a power that placed too few."""

    def text(self, place: Namer = as_is) -> str:
        return "placed by the judge: a centre the power did not place"


class Aboard(Remark):
    """Mad Diplomacy rule 4b: the army boarded its fleet (the results print no reason for it)."""

    def text(self, place: Namer = as_is) -> str:
        return "the army is aboard"


class PartOfMerge(Remark):
    """Mad Diplomacy rule 7: a support from inside the merge it supports, which is self-supporting."""

    def text(self, place: Namer = as_is) -> str:
        return "part of the merge it supports, which is self-supporting (rule 7)"
