"""Hoplite Wars' own refusals and remark: garrisons (rule 4), the sack of Delphi (rule 7), the Minors (rules 1, 5),
Cities (rule 8), conversions (rule 9), and the unit Delphi raises.
"""

from __future__ import annotations

from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, Remark, unit_at
from judge.engine.units import Composition


class GarrisonOffCentre(Refusal):
    """Rule 4: a garrison stands only in a City or Town."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"a garrison stands only in a City or Town, not in {place(self.province)}"


class GarrisonSupport(Refusal):
    """Rule 4: a garrison supports only units that combine with it; `others` where its force has units that can.
    Worded as docs/variants/hoplite.md words it."""

    force: UnitName
    others: bool

    names = ("force", "others")

    def __init__(self, force: UnitName, others: bool) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "others", others)

    def text(self, place: Namer = as_is) -> str:
        name = " (name the units that can)" if self.others else ""
        return (
            "a garrison supports only units that combine with it to form a multiple unit (rule 4): one moving into "
            "its place, or merging there (name the garrison in the MERGE); "
            f"{unit_at(self.force, place)} cannot give this "
            f"support{name}"
        )


class SackerShunned(Refusal):
    """Rule 7: the units of the player who sacked Delphi receive no support from any other player."""

    sacker: str

    names = ("sacker",)

    def __init__(self, sacker: str) -> None:
        object.__setattr__(self, "sacker", sacker)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.sacker} sacked Delphi: its units may not receive support from any other player (rule 7)"


class SackOnlyDelphi(Refusal):
    """Rule 7: only Delphi is sacked."""

    def text(self, place: Namer = as_is) -> str:
        return "only Delphi can be sacked (rule 7)"


class SackedOnce(Refusal):
    """Rule 7: Delphi may be sacked once."""

    def text(self, place: Namer = as_is) -> str:
        return "Delphi may only be sacked once"


class SacksWhereItStands(Refusal):
    """Rule 7: a unit sacks the place it stands in ("A(Del) SACK Delphi"), not a place it names elsewhere."""

    force: UnitName
    place: str

    names = ("force", "place")

    def __init__(self, force: UnitName, place: str) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "place", place)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"{unit_at(self.force, place).strip()} is not in {place(self.place)}: a unit sacks the place it "
            "stands in (rule 7)"
        )


class SackFailed(Refusal):
    """Rule 7: the sacking unit was dislodged."""

    def text(self, place: Namer = as_is) -> str:
        return "dislodged from Delphi: the sack fails"


class NotACentre(Refusal):
    """A place that is no City or Town, as the player wrote it."""

    place: str

    names = ("place",)

    def __init__(self, place: str) -> None:
        object.__setattr__(self, "place", place)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.place)} is not a City or Town"


class NotYourMinor(Refusal):
    """Rule 5: a capture given to a power that is not the player's Minor, as the player wrote it."""

    power: str

    names = ("power",)

    def __init__(self, power: str) -> None:
        object.__setattr__(self, "power", power)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} is not your Minor State"


class CityInSpring(Refusal):
    """Rule 8: Cities change hands only after the Autumn."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.province)} is a City: Cities change hands only after the Autumn (rule 8)"


class DelphiRaises(Refusal):
    """Rule 7: Delphi raises so many units and no more."""

    left: int
    composition: Composition

    names = ("left", "composition")

    def __init__(self, left: int, composition: Composition) -> None:
        object.__setattr__(self, "left", left)
        object.__setattr__(self, "composition", composition)

    def text(self, place: Namer = as_is) -> str:
        return f"Delphi raises {self.left} more unit(s), not {self.composition}"


class ConvertWhat(Refusal):
    """Rule 9: a conversion names one army or fleet and what it becomes."""

    def text(self, place: Namer = as_is) -> str:
        return f"name one army or fleet and what it becomes: CONVERT A {place('ath')} TO F"  # Athens, an example


class ConvertsArmyOrFleet(Refusal):
    """Rule 9: an army becomes a fleet or a fleet an army."""

    old: Composition
    new: Composition

    names = ("old", "new")

    def __init__(self, old: Composition, new: Composition) -> None:
        object.__setattr__(self, "old", old)
        object.__setattr__(self, "new", new)

    def text(self, place: Namer = as_is) -> str:
        return f"an army becomes a fleet or a fleet an army, not {self.old} into {self.new}"


class ConvertsInCentre(Refusal):
    """Rule 9: a unit converts only in a City or Town."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"a unit converts only in a City or Town (rule 9), not in {place(self.province)}"


class ConvertWhichCoast(Refusal):
    """A fleet made in a province of two coasts, naming neither."""

    province: str
    coasts: tuple[str, ...]

    names = ("province", "coasts")

    def __init__(self, province: str, coasts: tuple[str, ...]) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "coasts", coasts)

    def text(self, place: Namer = as_is) -> str:
        return f"say on which coast of {place(self.province)} the fleet stands: {', '.join(map(place, self.coasts))}"


class GarrisonsOnly(Refusal):
    """Rule 4: a power owing no removals disbands only garrisons at will."""

    power: str

    names = ("power",)

    def __init__(self, power: str) -> None:
        object.__setattr__(self, "power", power)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.power} has no removals to make; only garrisons may be disbanded at will (rule 4)"


class MinorOpening(Refusal):
    """Rule 1: a Minor State starts with a single unit or a double garrison, and only one."""

    power: str
    composition: Composition
    again: bool

    names = ("power", "composition", "again")

    def __init__(self, power: str, composition: Composition, again: bool = False) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "again", again)

    def text(self, place: Namer = as_is) -> str:
        if self.again:
            return f"{self.power} already has its unit: a Minor State starts with a single unit (rule 1)"
        return f"a Minor State starts with a single unit or a double garrison (rule 1), not {self.composition}"


class RaisedByDelphi(Remark):
    """Hoplite Wars rule 7: a unit raised by the sack of Delphi, beyond the centres."""

    def text(self, place: Namer = as_is) -> str:
        return "raised by the sack of Delphi, beyond the centres (rule 7)"
