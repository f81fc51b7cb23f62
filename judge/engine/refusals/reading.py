"""Refusals of what the order reader and the binding found: a line unread, an order of the wrong phase, no unit where
the order names one, two orders for one unit, more of a stack ordered than it holds.
"""

from __future__ import annotations

from judge.engine.orders import OrderKind
from judge.engine.phase import PhaseType
from judge.engine.reasons import Namer, UnitName, as_is
from judge.engine.refusals.base import Refusal, unit_at
from judge.engine.units import Composition


class Unreadable(Refusal):
    """A line the order reader could not read, with what it said (empty: it said nothing)."""

    error: str

    names = ("error",)

    def __init__(self, error: str = "") -> None:
        object.__setattr__(self, "error", error)

    def text(self, place: Namer = as_is) -> str:
        return self.error or "could not read this order"


class NotThisPhase(Refusal):
    """An order of a kind the phase does not take (a build in a movement phase)."""

    order: OrderKind
    phase: PhaseType

    names = ("order", "phase")

    def __init__(self, order: OrderKind, phase: PhaseType) -> None:
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "phase", phase)

    def text(self, place: Namer = as_is) -> str:
        article = "an" if self.phase.value[0] in "AEIOU" else "a"
        return f"a {self.order.value} order is not possible in {article} {self.phase.value.lower()} phase"


class NoUnitAt(Refusal):
    """An order for a province where no unit stands."""

    province: str

    names = ("province",)

    def __init__(self, province: str) -> None:
        object.__setattr__(self, "province", province)

    def text(self, place: Namer = as_is) -> str:
        return f"there is no unit in {place(self.province)}"


class NoMultiples(Refusal):
    """A number of units written where every unit is single ("2 A Mun - Boh")."""

    variant: str
    count: int
    unit: str

    names = ("variant", "count", "unit")

    def __init__(self, variant: str, count: int, unit: str) -> None:
        object.__setattr__(self, "variant", variant)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "unit", unit)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.variant} has no multiple units: {self.count} {self.unit} is not a unit here"


class DifferentOrders(Refusal):
    """A unit given two different orders (DATC 4.D.3); `holds` where the order is a movement phase's."""

    holds: bool

    names = ("holds",)

    def __init__(self, holds: bool = True) -> None:
        object.__setattr__(self, "holds", holds)

    def text(self, place: Namer = as_is) -> str:
        if self.holds:
            return "the unit was given different orders; it holds (DATC 4.D.3)"
        return "the unit was given different orders"


class ConflictingOrders(Refusal):
    """A force given orders for its whole and for its parts, or two whole orders (DATC 4.D.3)."""

    def text(self, place: Namer = as_is) -> str:
        return "the force was given conflicting orders; it holds (DATC 4.D.3)"


class StackShort(Refusal):
    """More units of a stack ordered than are left unordered (Multiplomacy's numbered orders)."""

    free: int
    what: str
    province: str
    count: int

    names = ("free", "what", "province", "count")

    def __init__(self, free: int, what: str, province: str, count: int) -> None:
        object.__setattr__(self, "free", free)
        object.__setattr__(self, "what", what)
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "count", count)

    def text(self, place: Namer = as_is) -> str:
        return f"only {self.free} {self.what} left to order in {place(self.province)}, not {self.count}"


class StackLacks(Refusal):
    """A support or convoy naming more units of a stack than it holds."""

    province: str
    wanted: Composition

    names = ("province", "wanted")

    def __init__(self, province: str, wanted: Composition) -> None:
        object.__setattr__(self, "province", province)
        object.__setattr__(self, "wanted", wanted)

    def text(self, place: Namer = as_is) -> str:
        return f"{place(self.province)} does not hold {self.wanted} to support or convoy"


class NothingLeft(Refusal):
    """A part ordered of a force whose other orders took it already."""

    force: UnitName
    part: Composition

    names = ("force", "part")

    def __init__(self, force: UnitName, part: Composition) -> None:
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "part", part)

    def text(self, place: Namer = as_is) -> str:
        return f"{unit_at(self.force, place)} has no {self.part} left to order; it holds"
