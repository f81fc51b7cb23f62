"""Why an order was refused, as values: `NoUnitAt("par")`, `NotAdjacent("nth", "bre")`, `PartCannot(part,
OrderKind.MOVE, refusal)`, each naming the provinces, units and powers involved, with one render to the GM's
sentence (`text()`).

An illegal order's result carries one of these as its reason (`OrderResult.reasons`); the legality checks, the
bindings and the variants' hooks (`Rules.order_problem`, `Rules.may_enter`, `Rules.build_site_problem`, ...)
return them, and the `judge adjudicate` contract and the mails render them. The contract writes a refusal as a
value of its own kind (issue 42): `{"kind": "no_unit_at", "province": "par", "words": "there is no unit in
par"}`, its kind the class's name in snake case, its fields by their names, and `words` the sentence a reader of
the old form (`{"kind": "note", "words": ...}`) still finds; judge/engine/kinds.py reads it back to the value. A
new kind of refusal is a new class here: its fields (`names`, set by its `__init__`) and its sentence.

A few remarks the judge adds to orders that stand (a unit raised by Delphi, a centre placed by the judge) are
here too, for they are written the same way.
"""

from __future__ import annotations

from enum import Enum, StrEnum
from typing import Any, ClassVar

from judge.engine.orders import OrderKind
from judge.engine.phase import PhaseType
from judge.engine.reasons import Mark, Namer, Reason, UnitName, as_is
from judge.engine.units import Composition, Force


class Worded(Reason):
    """A reason the judge words itself: a refusal, or a remark on an order that stands.

    The kinds are plain classes, each with its fields (`names`) set once by its `__init__` (through
    `object.__setattr__`: `Reason` refuses assignment, as a frozen dataclass does) and never changed, and
    compared, hashed and shown by them here: not dataclasses, for a module of a hundred dataclasses took as long
    to import as the rest of the engine (the decorator's work for each class at every start), and `judge
    adjudicate` starts for every batch. The module is compiled (judge/speedups.py) with `reasons.py`, whose `Reason`
    its kinds subclass."""

    names: ClassVar[tuple[str, ...]] = ()
    """the kind's fields, in the order its `__init__` takes them"""

    def json(self) -> dict[str, Any]:
        """The kind, its fields, and the sentence as `words` (what the contract wrote alone before issue 42)."""
        out: dict[str, Any] = {"kind": self.kind}
        for name in self.names:
            out[name] = field_json(getattr(self, name))
        out["words"] = self.text()
        return out

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.names)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Worded) and other.values() == self.values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.names, self.values(), strict=True))
        return f"{type(self).__name__}({shown})"

    def __str__(self) -> str:
        return self.text()


def field_json(value: Any) -> Any:
    """A refusal's field as JSON: a unit or a refusal as its object, a composition as the zines write it (`A/2F`,
    "" for none), a choice among names (`Then`, `OrderKind`, ...) as its member's name in lower case (`unit`,
    `move`, `movement`: a code, not the words it stands for), a tuple as a list; numbers, strings, booleans and
    `None` as they are."""
    if isinstance(value, (Reason, UnitName)):
        return value.json()
    if isinstance(value, Composition):
        return str(value)
    if isinstance(value, Enum):
        return value.name.lower()
    if isinstance(value, tuple):
        return [field_json(v) for v in value]
    return value


class Refusal(Worded):
    """Why an order is illegal."""


class Remark(Worded):
    """What the judge says of an order that stands (or of a line it added)."""


def kind_name(cls: type[Worded]) -> str:
    """A kind's name in the contract: its class's name in snake case (`NoUnitAt` -> `no_unit_at`, `AFAshore` ->
    `af_ashore`, `StaysRule3` -> `stays_rule3`), so that the two cannot drift apart; docs/adjudicate.md lists
    them (tests/test_refusal_kinds.py holds the list to the classes)."""
    name = cls.__name__
    out: list[str] = []
    for i, letter in enumerate(name):
        starts_word = letter.isupper() and i > 0 and (not name[i - 1].isupper() or name[i + 1 : i + 2].islower())
        out.append(("_" if starts_word else "") + letter.lower())
    return "".join(out)


def unit_name(force: Force) -> UnitName:
    """A force as a refusal names it."""
    return UnitName(force.power, str(force.composition), force.at)


def _unit(name: UnitName, place: Namer) -> str:
    return f"{name.unit} {place(name.at)}"


NAMED = 8
"""the most places or names a refusal lists before it counts the rest"""


def some_of(names: tuple[str, ...] | list[str], most: int = NAMED) -> str:
    """Names as a refusal lists them: all of a few, or the first `most` and how many more (`1:par, 1:bur, ... and
    27 more`; issue 40: a Heptadiplomacy retreat refused listed 35 places), so a reply stays readable."""
    if len(names) <= most:
        return ", ".join(names)
    return f"{', '.join(names[:most])} and {len(names) - most} more"


def _either(items: tuple[str, ...]) -> str:
    return " or ".join(items)


# --- what follows a refusal ----------------------------------------------------------------------------------


class Then(StrEnum):
    """What the units an illegal order names do instead."""

    UNIT = "the unit holds"
    UNITS = "the units hold"
    FORCE = "the force holds"
    CLAIM = "the claim is discounted (rule 7)"


class AndSo(Refusal):
    """A refusal, and what the units it concerns do instead."""

    refusal: Refusal
    then: Then

    names = ("refusal", "then")

    def __init__(self, refusal: Refusal, then: Then) -> None:
        object.__setattr__(self, "refusal", refusal)
        object.__setattr__(self, "then", then)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.refusal.text(place)}; {self.then.value}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        return f"{self.refusal.beside(said, place)}; {self.then.value}"


# --- reading and binding ---------------------------------------------------------------------------------------


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
        return f"{_unit(self.force, place)} has no {self.part} left to order; it holds"


# --- moves ------------------------------------------------------------------------------------------------------


class GarrisonNeverMoves(Refusal):
    """A garrison ordered to move or convoy."""

    force: UnitName

    names = ("force",)

    def __init__(self, force: UnitName) -> None:
        object.__setattr__(self, "force", force)

    def text(self, place: Namer = as_is) -> str:
        return f"a garrison never moves; {_unit(self.force, place)} can only hold or support"


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
        return f"say which coast of {place(self.province)}: {_either(tuple(map(place, self.coasts)))}"


# --- supports and convoys -----------------------------------------------------------------------------------------


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
            f"{_unit(self.force, place)} cannot reach {place(self.province)}, so it cannot support "
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
        return f"{_unit(self.force, place)} cannot move to {place(self.destination)}"


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
        return f"{_unit(self.force, place)} can carry only {self.room} {armies}, not {self.cargo}"


# --- splits and merges ----------------------------------------------------------------------------------------------


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
            return f"{_unit(self.force, place)} is a single unit and cannot split"
        return f"{_unit(self.force, place)} is not a multiple unit"


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
        return f"the parts ({self.parts}) are more than {_unit(self.force, place)}"


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
        return f"units of different powers do not merge ({_unit(self.force, place)} is {self.force.power})"


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
            f"{_unit(self.force, place)} is not next to {place(self.province)}: merging units must be "
            "adjacent to, or already on, "
            f"the province (a merge reached by convoy is not allowed)"
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
        return f"{_unit(self.force, place)} cannot merge into {place(self.destination)}: {self.refusal.text(place)}"


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


# --- where a force may stand --------------------------------------------------------------------------------------


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


# --- retreats ------------------------------------------------------------------------------------------------------


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
                f"{_unit(self.force, place)} cannot retreat to {place(self.destination)}: it has no "
                "retreat open, only disband"
            )
        return (
            f"{_unit(self.force, place)} cannot retreat to {place(self.destination)}; "
            f"the retreats open: {some_of([place(c) for c in self.choices])} (or disband)"
        )


# --- adjustments ---------------------------------------------------------------------------------------------------


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
            f"{_unit(self.joined, place)} stands on {place(self.joined.at)}: a unit built onto it must be built there"
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
        head = f"building {self.built} onto {_unit(self.joined, place)} would make {self.formed}"
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
            f"removing {self.taken} from {_unit(self.force, place)} would leave {self.rest}, which cannot stand there"
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


# --- Multiplicity I and II ------------------------------------------------------------------------------------------


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


# --- Mad Diplomacy --------------------------------------------------------------------------------------------------


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
        return f"{_unit(self.force, place)} is not an army"


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
        return f"{_unit(self.force, place)} has no {self.wanted} to board"


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


# --- Hoplite Wars ---------------------------------------------------------------------------------------------------


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
            f"{_unit(self.force, place)} cannot give this "
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
            f"{_unit(self.force, place).strip()} is not in {place(self.place)}: a unit sacks the place it "
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


# --- CW Heptadiplomacy ----------------------------------------------------------------------------------------------


class OnlyTargetBoard(Refusal):
    """Rule 3, modules 1 and 2: only units on the target board support into it."""

    module: int
    board: str
    into: str

    names = ("module", "board", "into")

    def __init__(self, module: int, board: str, into: str) -> None:
        object.__setattr__(self, "module", module)
        object.__setattr__(self, "board", board)
        object.__setattr__(self, "into", into)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"under module {self.module} only units on board {self.board} may support into {place(self.into)} (rule 3)"
        )


class ClaimOutOfSeason(Refusal):
    """Rule 7: claims are made with the Autumn orders."""

    def text(self, place: Namer = as_is) -> str:
        return "claims are made with the Autumn orders (rule 7); the claim is discounted"


class ClaimUnread(Refusal):
    """A claim the judge could not read, with what was wrong with it."""

    why: str

    names = ("why",)

    def __init__(self, why: str) -> None:
        object.__setattr__(self, "why", why)

    def text(self, place: Namer = as_is) -> str:
        return self.why


class SoloNeedsNoClaim(Refusal):
    """Rule 7: a solo win needs no claim."""

    def text(self, place: Namer = as_is) -> str:
        return "a solo win needs no claim: 70 centres at the end of an Autumn win (rule 7)"


# --- remarks on orders that stand -----------------------------------------------------------------------------------


class PlacedByJudge(Remark):
    """Mad Diplomacy rule 2: a centre the judge placed for a power that placed too few."""

    def text(self, place: Namer = as_is) -> str:
        return "placed by the judge: a centre the power did not place"


class RaisedByDelphi(Remark):
    """Hoplite Wars rule 7: a unit raised by the sack of Delphi, beyond the centres."""

    def text(self, place: Namer = as_is) -> str:
        return "raised by the sack of Delphi, beyond the centres (rule 7)"


class Aboard(Remark):
    """Mad Diplomacy rule 4b: the army boarded its fleet (the results print no reason for it)."""

    def text(self, place: Namer = as_is) -> str:
        return "the army is aboard"


class PartOfMerge(Remark):
    """Mad Diplomacy rule 7: a support from inside the merge it supports, which is self-supporting."""

    def text(self, place: Namer = as_is) -> str:
        return "part of the merge it supports, which is self-supporting (rule 7)"


# --- the rulings of issue 28 (Multiplicity II rule 3; Mad Diplomacy rules 4b with 4d) --------------------------


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
                f"met the unit leaving {place(self.destination)} head to head, so it does not join "
                "the merge; the others "
                "follow their orders without it (rule 3, merge_part_stopped = bounced)"
            )
        return (
            f"dislodged, so it does not join the merge into {place(self.destination)}; the others follow their orders "
            "without it (rule 3)"
        )


class LandingCalledOff(Refusal):
    """Mad Diplomacy rules 4b with 4d: the fleet carrying a landing army was forced to retreat."""

    sea: str

    names = ("sea",)

    def __init__(self, sea: str) -> None:
        object.__setattr__(self, "sea", sea)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"the fleet in {place(self.sea)} disembarking the army was forced to retreat: the army "
            "does not land and is "
            "lost with it (rules 4b, 4d)"
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


def worded_kinds() -> tuple[type[Worded], ...]:
    """Every kind of refusal and remark, as this module binds them."""
    return tuple(
        value
        for value in globals().values()
        if isinstance(value, type) and issubclass(value, Worded) and value not in (Worded, Refusal, Remark)
    )


def _name_kinds() -> None:
    for cls in worded_kinds():
        cls.kind = kind_name(cls)


_name_kinds()
