"""Refusals of builds and removals: no build due, a build where the power may not build, a removal of a unit it does
not have or that would leave a part that cannot stand.
"""

from __future__ import annotations

from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, unit_at
from judge.engine.units import Composition


class BuildWhichType(Refusal):
    """A build without a type where the province does not decide it (DATC 4.C.3)."""

    def text(self, place: Namer = as_is) -> str:
        return "say whether to build an army or a fleet"


class FleetBuiltInland(Refusal):
    """A fleet built inland (DATC 4.C.4)."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"a fleet cannot be built inland in {place(self.province)}"


class BuildWhichCoast(Refusal):
    """A fleet built in a province of two coasts, naming neither (DATC 4.B.7)."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"say which coast of {place(self.province)} the fleet is built on"


class NoBuilds(Refusal):
    """A build or waiver by a power with none due."""

    power: str

    names = ("power",)

    def __init__(self, power: str) -> None:
        object.__setattr__(self, "power", power)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has no builds this winter"


class BuildsUsed(Refusal):
    """A build beyond the power's count (`due` written as players write counts, "1½")."""

    power: str
    due: str

    names = ("power", "due")

    def __init__(self, power: str, due: str) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "due", due)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has only {self.due} build(s)"


class BuildsShort(Refusal):
    """A build of a force that costs more than the builds left."""

    composition: Composition
    cost: str
    power: str
    left: str

    names = ("composition", "cost", "power", "left")

    def __init__(self, composition: Composition, cost: str, power: str, left: str) -> None:
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "cost", cost)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "left", left)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.composition} needs {self.cost} builds and {self.power} has {self.left} left"


class NoRemovals(Refusal):
    """A removal by a power with none due."""

    power: str

    names = ("power",)

    def __init__(self, power: str) -> None:
        object.__setattr__(self, "power", power)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has no removals to make"


class RemovalsUsed(Refusal):
    """A removal beyond what the power owes."""

    power: str
    left: str

    names = ("power", "left")

    def __init__(self, power: str, left: str) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "left", left)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has only {self.left} removal(s) left"


class NoOwnUnitAt(Refusal):
    """A removal (or conversion, or disband) of a unit the power does not have there; `wanted` None: any unit."""

    power: str
    province: str
    wanted: Composition | None

    names = ("power", "province", "wanted")

    def __init__(self, power: str, province: str, wanted: Composition | None = None) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "wanted", wanted)

    def text(self, place: Namer = as_is) -> str:
        if self.wanted is None:
            return f"{self.power} has no unit in {place(self.province)}"
        return f"{self.power} has no {self.wanted} in {place(self.province)}"


class StatedWrongly(Refusal):
    """A build or removal written with what it makes ("= 5A(Gas)") that would make something else."""

    stated: Composition
    made: Composition

    names = ("stated", "made")

    def __init__(self, stated: Composition, made: Composition) -> None:
        object.__setattr__(self, "stated", stated)
        object.__setattr__(self, "made", made)

    def text(self, place: Namer = as_is) -> str:
        made = str(self.made) if self.made.size else "nothing"
        return f"the order says it makes {self.stated}, but it would make {made}"


class BuildOnItsCoast(Refusal):
    """A build onto a fleet on one coast, ordered on the other."""

    joined: UnitName

    names = ("joined",)

    def __init__(self, joined: UnitName) -> None:
        object.__setattr__(self, "joined", joined)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{unit_at(self.joined, place)} stands on {place(self.joined.at)}: a unit built onto it must be built there"
        )


class BuildOntoMakes(Refusal):
    """A build onto the power's own unit making a force that is no unit, or (`refusal`) cannot stand there."""

    built: Composition
    joined: UnitName
    formed: Composition
    variant: str
    refusal: Refusal | None

    names = ("built", "joined", "formed", "variant", "refusal")

    def __init__(
        self, built: Composition, joined: UnitName, formed: Composition, variant: str, refusal: Refusal | None = None
    ) -> None:
        object.__setattr__(self, "built", built)
        object.__setattr__(self, "joined", joined)
        object.__setattr__(self, "formed", formed)
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "refusal", refusal)

    def text(self, place: Namer = as_is) -> str:
        head = f"building {self.built} onto {unit_at(self.joined, place)} would make {self.formed}"
        if self.refusal is not None:
            return f"{head}: {self.refusal.text(place)}"
        return f"{head}, which is not a unit of {self.variant}"


class RemovalLeaves(Refusal):
    """A removal leaving a part of a force that cannot stand where it is."""

    taken: Composition
    force: UnitName
    rest: Composition

    names = ("taken", "force", "rest")

    def __init__(self, taken: Composition, force: UnitName, rest: Composition) -> None:
        object.__setattr__(self, "taken", taken)
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "rest", rest)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"removing {self.taken} from {unit_at(self.force, place)} would leave {self.rest}, which cannot stand there"
        )


class NotHome(Refusal):
    """A build outside the power's home centres."""

    province: str
    power: str

    names = ("province", "power")

    def __init__(self, province: str, power: str) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "power", power)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.province)} is not a home centre of {self.power}"


class NotOwned(Refusal):
    """A build in a centre the power does not own (`controls`: Hoplite Wars' word)."""

    power: str
    province: str
    controls: bool

    names = ("power", "province", "controls")

    def __init__(self, power: str, province: str, controls: bool = False) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "controls", controls)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} does not {'control' if self.controls else 'own'} {place(self.province)}"


class BuiltAlready(Refusal):
    """A second build in one province."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"a unit was already built in {place(self.province)} (one build a province)"


class Occupied(Refusal):
    """A build in an occupied centre: by any unit, by another power's (`another`), or another player's."""

    province: str
    by: str

    names = ("province", "by")

    def __init__(self, province: str, by: str = "") -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "by", by)

    def text(self, place: Namer = as_is) -> str:
        if self.by == "power":
            return f"{place(self.province)} is held by another power"
        if self.by == "player":
            return f"{place(self.province)} is held by another player's unit"
        return f"{place(self.province)} is occupied"
