"""Why an order was refused, as values: `NoUnitAt("par")`, `NotAdjacent("nth", "bre")`, `PartCannot(part,
OrderKind.MOVE, refusal)`, each naming the provinces, units and powers involved, with one render to the GM's
sentence (`text()`).

An illegal order's result carries one of these as its reason (`OrderResult.reasons`); the legality checks, the
bindings and the variants' hooks (`Rules.order_problem`, `Rules.may_enter`, `Rules.build_site_problem`, ...)
return them, and the `judge adjudicate` contract and the mails render them. The contract writes a refusal as a
value of its own kind (issue 42): `{"kind": "no_unit_at", "province": "par", "words": "there is no unit in
par"}`, its kind the class's name in snake case, its fields by their names, and `words` the sentence a reader of
the old form (`{"kind": "note", "words": ...}`) still finds; judge/engine/kinds.py reads it back to the value. A
new kind of refusal is a new class in the module of its topic, named here: its fields (`names`, set by its
`__init__`) and its sentence, which names each place by the namer it is given (`text(place)`).

A few remarks the judge adds to orders that stand (a unit raised by Delphi, a centre placed by the judge) are
written the same way, beside their variant's refusals.

The kinds are kept by topic (issue 42), each module one a reader can hold in his head: `base` (what a refusal is,
`AndSo`), `reading` (the order reader and the binding), `moves`, `supports` (and convoys), `merges` (and
splits), `standing` (where a force may stand), `retreats`, `adjustments` (builds and removals), and each variant's
own: `multiplicity`, `mad`, `hoplite`, `hepta`. This package names them all, so a caller imports any kind from
`judge.engine.refusals`.
"""

from __future__ import annotations

from judge.engine.refusals.adjustments import (
    BuildOnItsCoast,
    BuildOntoMakes,
    BuildsShort,
    BuildsUsed,
    BuildWhichCoast,
    BuildWhichType,
    BuiltAlready,
    FleetBuiltInland,
    NoBuilds,
    NoOwnUnitAt,
    NoRemovals,
    NotHome,
    NotOwned,
    Occupied,
    RemovalLeaves,
    RemovalsUsed,
    StatedWrongly,
)
from judge.engine.refusals.base import (
    NAMED,
    AndSo,
    Refusal,
    Remark,
    Then,
    Worded,
    either,
    field_json,
    kind_name,
    some_of,
    unit_at,
    unit_name,
)
from judge.engine.refusals.hepta import (
    ClaimOutOfSeason,
    ClaimUnread,
    OnlyTargetBoard,
    SoloNeedsNoClaim,
)
from judge.engine.refusals.hoplite import (
    CityInSpring,
    ConvertsArmyOrFleet,
    ConvertsInCentre,
    ConvertWhat,
    ConvertWhichCoast,
    DelphiRaises,
    GarrisonOffCentre,
    GarrisonsOnly,
    GarrisonSupport,
    MinorOpening,
    NotACentre,
    NotYourMinor,
    RaisedByDelphi,
    SackedOnce,
    SackerShunned,
    SackFailed,
    SackOnlyDelphi,
    SacksWhereItStands,
)
from judge.engine.refusals.mad import (
    Aboard,
    AFAshore,
    AFOnlyAtSea,
    BoardsAtSea,
    CentresPlaced,
    LandingCalledOff,
    MergeOnLand,
    NoArmyToBoard,
    NoFleetToBoard,
    NoneToBoard,
    NotAnArmy,
    NotNextTo,
    OutsideCountry,
    PartOfMerge,
    PlacedAlready,
    PlacedByJudge,
    PlacementStrength,
    PlacementWrongPhase,
    PlaceMixed,
    PlaceWhichCoast,
    PlaceWhichType,
)
from judge.engine.refusals.merges import (
    CannotMerge,
    MergeAcrossPowers,
    MergeCoasts,
    MergeNotAdjacent,
    MergePartStopped,
    MergeTooFew,
    NotAUnit,
    NotMultiple,
    PartCannot,
    PartLeftCannotStand,
    PartsTooMany,
    SplitPartsSupport,
    StaysRule3,
    SupportOfAMerger,
    WouldForm,
)
from judge.engine.refusals.moves import (
    ArmyToSea,
    CannotSail,
    CoastUnreachable,
    FleetInland,
    GarrisonNeverMoves,
    LandsOnlyNextTo,
    MoveToOwnProvince,
    NoConvoyChain,
    NotAdjacent,
    OnlyArmiesConvoyed,
    OutOfReach,
    WhichCoast,
)
from judge.engine.refusals.multiplicity import (
    BuildOntoRule12,
    NotSeaworthy,
    OpeningHasUnit,
    OpeningSingle,
    SplitFailsWhole,
    StrandedSupport,
)
from judge.engine.refusals.reading import (
    ConflictingOrders,
    DifferentOrders,
    NoMultiples,
    NothingLeft,
    NotThisPhase,
    NoUnitAt,
    StackLacks,
    StackShort,
    Unreadable,
)
from judge.engine.refusals.retreats import (
    CannotRetreat,
    DislodgedShort,
    NoDislodgedUnitAt,
    OnlyDislodged,
)
from judge.engine.refusals.standing import (
    ArmyOnCoast,
    CannotStand,
    FleetNeedsCoast,
)
from judge.engine.refusals.supports import (
    CannotConvoy,
    CannotMoveThere,
    CannotReach,
    ConvoyOnlyAtSea,
    NoArmyToConvoy,
    NotOnConvoyRoute,
    NoUnitToSupport,
    Supporting,
    SupportIntoOwnProvince,
    SupportsItself,
    TooMuchCargo,
)

__all__ = [
    "NAMED",
    "AFAshore",
    "AFOnlyAtSea",
    "Aboard",
    "AndSo",
    "ArmyOnCoast",
    "ArmyToSea",
    "BoardsAtSea",
    "BuildOnItsCoast",
    "BuildOntoMakes",
    "BuildOntoRule12",
    "BuildWhichCoast",
    "BuildWhichType",
    "BuildsShort",
    "BuildsUsed",
    "BuiltAlready",
    "CannotConvoy",
    "CannotMerge",
    "CannotMoveThere",
    "CannotReach",
    "CannotRetreat",
    "CannotSail",
    "CannotStand",
    "CentresPlaced",
    "CityInSpring",
    "ClaimOutOfSeason",
    "ClaimUnread",
    "CoastUnreachable",
    "ConflictingOrders",
    "ConvertWhat",
    "ConvertWhichCoast",
    "ConvertsArmyOrFleet",
    "ConvertsInCentre",
    "ConvoyOnlyAtSea",
    "DelphiRaises",
    "DifferentOrders",
    "DislodgedShort",
    "FleetBuiltInland",
    "FleetInland",
    "FleetNeedsCoast",
    "GarrisonNeverMoves",
    "GarrisonOffCentre",
    "GarrisonSupport",
    "GarrisonsOnly",
    "LandingCalledOff",
    "LandsOnlyNextTo",
    "MergeAcrossPowers",
    "MergeCoasts",
    "MergeNotAdjacent",
    "MergeOnLand",
    "MergePartStopped",
    "MergeTooFew",
    "MinorOpening",
    "MoveToOwnProvince",
    "NoArmyToBoard",
    "NoArmyToConvoy",
    "NoBuilds",
    "NoConvoyChain",
    "NoDislodgedUnitAt",
    "NoFleetToBoard",
    "NoMultiples",
    "NoOwnUnitAt",
    "NoRemovals",
    "NoUnitAt",
    "NoUnitToSupport",
    "NoneToBoard",
    "NotACentre",
    "NotAUnit",
    "NotAdjacent",
    "NotAnArmy",
    "NotHome",
    "NotMultiple",
    "NotNextTo",
    "NotOnConvoyRoute",
    "NotOwned",
    "NotSeaworthy",
    "NotThisPhase",
    "NotYourMinor",
    "NothingLeft",
    "Occupied",
    "OnlyArmiesConvoyed",
    "OnlyDislodged",
    "OnlyTargetBoard",
    "OpeningHasUnit",
    "OpeningSingle",
    "OutOfReach",
    "OutsideCountry",
    "PartCannot",
    "PartLeftCannotStand",
    "PartOfMerge",
    "PartsTooMany",
    "PlaceMixed",
    "PlaceWhichCoast",
    "PlaceWhichType",
    "PlacedAlready",
    "PlacedByJudge",
    "PlacementStrength",
    "PlacementWrongPhase",
    "RaisedByDelphi",
    "Refusal",
    "Remark",
    "RemovalLeaves",
    "RemovalsUsed",
    "SackFailed",
    "SackOnlyDelphi",
    "SackedOnce",
    "SackerShunned",
    "SacksWhereItStands",
    "SoloNeedsNoClaim",
    "SplitFailsWhole",
    "SplitPartsSupport",
    "StackLacks",
    "StackShort",
    "StatedWrongly",
    "StaysRule3",
    "StrandedSupport",
    "SupportIntoOwnProvince",
    "SupportOfAMerger",
    "Supporting",
    "SupportsItself",
    "Then",
    "TooMuchCargo",
    "Unreadable",
    "WhichCoast",
    "Worded",
    "WouldForm",
    "either",
    "field_json",
    "kind_name",
    "some_of",
    "unit_at",
    "unit_name",
    "worded_kinds",
]


def worded_kinds() -> tuple[type[Worded], ...]:
    """Every kind of refusal and remark, as this module binds them."""
    return tuple(
        value
        for value in globals().values()
        if isinstance(value, type) and issubclass(value, Worded) and value not in (Worded, Refusal, Remark)
    )


def _name_kinds() -> None:
    """Each kind's `kind`, from its class's name (`kind_name`): set once, here, for every topic's kinds."""
    for cls in worded_kinds():
        cls.kind = kind_name(cls)


_name_kinds()
