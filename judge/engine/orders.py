"""Orders as data: what a player asked for, already read from text (see `judge.notation`)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, ClassVar, Literal

from judge.engine.units import Composition
from judge.value import Value


class OrderKind(StrEnum):
    HOLD = "hold"
    MOVE = "move"
    SUPPORT = "support"
    CONVOY = "convoy"
    MERGE = "merge"
    SPLIT = "split"
    RETREAT = "retreat"
    DISBAND = "disband"
    BUILD = "build"
    REMOVE = "remove"
    WAIVE = "waive"
    BOARD = "board"
    """a variant's: an army boards a fleet at sea (Mad Diplomacy's Abstraction A/F rule)"""
    SACK = "sack"
    """a variant's: a unit sacks the place it stands in (Hoplite Wars' Delphi)"""
    CENTRE = "centre"
    """a variant's: a power places a supply centre (Mad Diplomacy's Spring 1900 placement), at `destination`"""
    CAPTURE = "capture"
    """a variant's: a player says which of his powers takes a centre his mixed force captures (Hoplite Wars
    rule 5: "CAPTURE Meg FOR Anactorium"): the centre at `destination`, the power in `for_power`"""
    CONVERT = "convert"
    """a variant's: an army becomes a fleet, or a fleet an army, in an adjustment (Hoplite Wars rule 9): what
    it becomes in `target` ("CONVERT A ath TO F", "Transform A(Cor) to F")"""
    CLAIM = "claim"
    """a variant's: a line that is not about a unit (Heptadiplomacy's win claims), kept in `Order.words`"""


MOVEMENT_KINDS = frozenset(
    {OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY, OrderKind.MERGE, OrderKind.SPLIT}
)
RETREAT_KINDS = frozenset({OrderKind.RETREAT, OrderKind.DISBAND})
ADJUSTMENT_KINDS = frozenset({OrderKind.BUILD, OrderKind.REMOVE, OrderKind.WAIVE})


class UnitRef(Value):
    """How an order names a unit: its type (if given), where it stands, and (Multiplomacy) how many."""

    composition: Composition | None
    location: str
    count: int | None
    power: str | None

    names = ("composition", "location", "count", "power")
    optional = frozenset(("count", "power"))

    def __init__(
        self, composition: Composition | None, location: str, count: int | None = None, power: str | None = None
    ) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        object.__setattr__(self, "composition", composition)
        object.__setattr__(self, "location", location)
        object.__setattr__(self, "count", count)
        object.__setattr__(self, "power", power)

    def describe(self) -> str:
        head = f"{self.count} " if self.count else ""
        kind = f"{self.composition} " if self.composition else ""
        return f"{head}{kind}{self.location}"


class Terms(Value):
    """What a variant's statement says (a Heptadiplomacy claim), as the variant's reader read it from the line when
    the order was read (`Verb.read`), so that the variant judges the values and never reads the words again. A
    kind of terms is registered in `TERMS_KINDS` by its `kind`, which is how its JSON reads back (`terms_from_json`)."""

    __slots__ = ()
    kind: ClassVar[str] = "terms"

    def json(self) -> dict[str, Any]:
        raise NotImplementedError

    def places(self) -> tuple[str, ...]:
        """The places of the units the statement names, in order (a claim's conditions' orders): a side's line is
        filed with the power whose unit it names first (`judge.game.checking.route_lines`)."""
        return ()


TERMS_KINDS: dict[str, Callable[[dict[str, Any]], Terms]] = {}
"""kind -> the reader of its JSON; each kind's module registers it where it is defined"""


def terms_from_json(raw: dict[str, Any]) -> Terms | None:
    """The terms `Terms.json` wrote; None for a kind this judge does not know (its variant reads the words)."""
    reader = TERMS_KINDS.get(str(raw.get("kind")))
    return reader(raw) if reader is not None else None


class Order(Value):
    """One order. `destination` is the move's, retreat's, or supported/convoyed move's destination;
    a support with no destination is a support to hold, a support with no target supports the merge into its
    destination. A MERGE names its merging units in `merging` (and `target` the force it forms, if written);
    a SPLIT gives each part its own order in `parts`."""

    kind: OrderKind
    unit: UnitRef | None
    target: UnitRef | None
    destination: str | None
    via_convoy: bool
    merging: tuple[UnitRef, ...]
    parts: tuple[Order, ...]
    words: str
    """the rest of the line, for an order that is not about a unit (a claim)"""
    via: str | None
    """for an army aboard a fleet at sea: the sea its fleet sails to before the army lands, all in one move
    (Mad Diplomacy's A/F rule 4b, `A/F(TYS) - WMS` with `A(WMS) disembarks Spa`)"""
    priority: int | None
    """the number a player gave the order ("1. A/F Pic: F S ..."), ranking a force's separate supports: the
    highest number is cut first (A/F rule 11)"""
    for_power: str | None
    """the power an order is for, beside the units it names (a CAPTURE's Minor: "CAPTURE Meg FOR Anactorium")"""
    terms: Terms | None
    """for a statement (a claim), what it says as its variant read it (`Verb.read`): never read from `words` again"""

    names = (
        "kind",
        "unit",
        "target",
        "destination",
        "via_convoy",
        "merging",
        "parts",
        "words",
        "via",
        "priority",
        "for_power",
        "terms",
    )
    optional = frozenset(
        ("target", "destination", "via_convoy", "merging", "parts", "words", "via", "priority", "for_power", "terms")
    )

    def __init__(
        self,
        kind: OrderKind,
        unit: UnitRef | None,
        target: UnitRef | None = None,
        destination: str | None = None,
        via_convoy: bool = False,
        merging: tuple[UnitRef, ...] = (),
        parts: tuple[Order, ...] = (),
        words: str = "",
        via: str | None = None,
        priority: int | None = None,
        for_power: str | None = None,
        terms: Terms | None = None,
    ) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "via_convoy", via_convoy)
        object.__setattr__(self, "merging", merging)
        object.__setattr__(self, "parts", parts)
        object.__setattr__(self, "words", words)
        object.__setattr__(self, "via", via)
        object.__setattr__(self, "priority", priority)
        object.__setattr__(self, "for_power", for_power)
        object.__setattr__(self, "terms", terms)


VerbShape = Literal[
    "unit", "unit target", "unit place", "unit becomes", "place for power", "line", "place", "placement"
]


class Verb(Value):
    """An order word a variant adds to the notation, and what follows it, so that the reader reads the variant's
    words once and the variant receives the order as values:

    - "unit": the unit (`A Del SACK`, `SACK A Del`, `SACK Delphi`: a unit of no type named, the one there), and
      the place it acts on if written again, in `destination` (`A(Del) SACK Delphi`);
    - "unit target": another unit (`A Rom boards F Tys`);
    - "unit place": a place (`A Wms disembarks Spa`, a move);
    - "unit becomes": what the unit becomes, a unit type and a coast if need be, in `target` (`CONVERT A ath TO
      F`, `Transform A(Cor) to F`, `CONVERT A meg TO F sc`);
    - "place for power": a place and the power it is for, in `destination` and `for_power` (`CAPTURE Meg FOR
      Anactorium`);
    - "line": free words, kept in `words` (`CLAIM 2-way win with Russia`);
    - "place": only a place (`Centre Bur`);
    - "placement": for a placement, a centre or a unit (`Place centre Bur`, `Place 2A Bur`: a CENTRE or a BUILD).

    `example` is how the order is written, quoted when a line cannot be read. `read`, for a "line": the variant's
    reader of its words, called once when the line is read, with the words, the board and the verbs; what it
    returns is kept in the order's `terms`."""

    kind: OrderKind
    shape: VerbShape
    example: str
    read: Callable[..., Terms] | None

    names = ("kind", "shape", "example", "read")
    optional = frozenset(("example", "read"))

    def __init__(
        self, kind: OrderKind, shape: VerbShape, example: str = "", read: Callable[..., Terms] | None = None
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "shape", shape)
        object.__setattr__(self, "example", example)
        object.__setattr__(self, "read", read)


class Submitted(Value):
    """An order line as a power sent it, read or not."""

    power: str
    text: str
    order: Order | None
    error: str

    names = ("power", "text", "order", "error")
    optional = frozenset(("error",))

    def __init__(self, power: str, text: str, order: Order | None, error: str = "") -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "error", error)
