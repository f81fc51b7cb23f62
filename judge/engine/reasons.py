"""Why an order had its result, as values: who bounced whom at what strengths, who cut a support and by how
much, who dislodged a unit from where, why an order was void.

Every order result carries a list of these. The `judge adjudicate` contract writes each one twice: as a GM's
sentence (`reason`, from `text()`) and as data (`reasons`, from `json()`), and the results mail takes its zine
marks from the kinds, never from the words. A new kind of outcome (a sack, Atlantis drowning a unit) is a new
class here, with its text and its fields.

Refusals (judge/engine/refusals/) are reasons too, each of its own kind. `Note` is the one reason in words
only: what a refusal stored before issue 42 (`{"kind": "note", "words": ...}`), or a kind written by a later
judge, reads back as (judge/engine/kinds.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from judge.value import Value

Namer = Callable[[str], str]
"""How a medium names a location id in a reason's words: as it is (`nth`, the contract's `reason`), as the zines
printed it (`Nth`, `3:Par`), or by its full name (`Norway`): the renderer passes it, so it never looks for places
in words."""


def as_is(location: str) -> str:
    """A location named by its id, as the contract writes it."""
    return location


class Mark(StrEnum):
    """The marks the zines printed beside an order."""

    BOUNCE = "bounce"
    CUT = "cut"
    VOID = "void"
    NO_CONVOY = "no convoy"
    PARADOX = "paradox"
    DISLODGED = "dislodged"
    DESTROYED = "destroyed"


class UnitName(Value):
    """A unit (or force, or detachment) as a reason names it: a value of the engine's one style (see `Reason`),
    its methods written out for its three fields, for the kinds a movement phase makes most name units."""

    power: str
    unit: str
    at: str

    names = ("power", "unit", "at")

    def __init__(self, power: str, unit: str, at: str) -> None:
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "at", at)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, UnitName) or other.__class__ is not self.__class__:
            return NotImplemented
        return (self.power, self.unit, self.at) == (other.power, other.unit, other.at)

    def __hash__(self) -> int:
        return hash((self.power, self.unit, self.at))

    def __repr__(self) -> str:
        return f"{self.__class__.__qualname__}(power={self.power!r}, unit={self.unit!r}, at={self.at!r})"

    def __str__(self) -> str:
        return self.named(as_is)

    def named(self, place: Namer) -> str:
        """The unit as a reason names it, its place named by `place`."""
        return f"{self.power} {self.unit} {place(self.at)}"

    def json(self) -> dict[str, str]:
        return {"power": self.power, "unit": self.unit, "at": self.at}


class Reason(Value):
    """What every reason is: a kind (its name in the JSON), the zine marks it calls for, a sentence and a JSON
    object.

    The kinds, here and in judge/engine/refusals/, are plain classes of the engine's one style of value
    (docs/engine.md, "One style of value"): each declares its fields, names them in order (`names`, and those
    with a default in `optional`), and sets them once in its written-out `__init__`; this base has, once for all
    kinds, what a frozen dataclass would have (from `Value`, judge/value.py): equality and hash over the
    fields, the repr, and no assignment once made (`FrozenInstanceError`, as a frozen dataclass raises). Not
    dataclasses: the decorator compiles each method it writes from text when the class is defined, in every
    process, and `judge adjudicate` defines every kind at its start. tests/test_written_out_inits.py holds them
    to what `dataclasses` would write."""

    __slots__ = ()
    kind: ClassVar[str] = "reason"
    marks: ClassVar[tuple[Mark, ...]] = ()

    def text(self, place: Namer = as_is) -> str:
        raise NotImplementedError

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        """The words a results sheet prints beside the zine mark `said`: what the mark does not say already
        (`void: no unit in bur` beside (*void*) is `no unit in bur`); all of `text` for most kinds."""
        return self.text(place)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name in self.names:
            out[name.rstrip("_")] = _json(getattr(self, name))
        return out


def _json(value: Any) -> Any:
    if isinstance(value, (UnitName, Reason)):  # a tuple: `A | B` would build a union object every call
        return value.json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


def _names(units: tuple[UnitName, ...], place: Namer) -> str:
    return ", ".join([u.named(place) for u in units])


def _against(stronger: int, weaker: int) -> str:
    """Two strengths as a move's failure tells them: the one that beat it first."""
    return f"strength {stronger} against {weaker}"


def _each(strength: int) -> str:
    """The strength of a standoff, the same on both sides."""
    return f"strength {strength} each"


def text_of(reasons: Sequence[Reason], place: Namer = as_is) -> str:
    """The reasons as one sentence, in the order they were found, places named by `place`."""
    return "; ".join(t for t in (r.text(place) for r in reasons) if t)


def marks_of(reasons: Sequence[Reason]) -> tuple[Mark, ...]:
    """The zine marks these reasons call for, each once, in order."""
    out: list[Mark] = []
    for reason in reasons:
        for mark in reason.marks:
            if mark not in out:
                out.append(mark)
    return tuple(out)


# --- words only -------------------------------------------------------------------------------------------


class Note(Reason):
    """A reason given in words only: a refusal as the judge stored it before its kinds were written out (issue
    42), or a kind this judge does not know."""

    words: str

    kind = "note"
    names = ("words",)

    def __init__(self, words: str) -> None:
        object.__setattr__(self, "words", words)

    def text(self, place: Namer = as_is) -> str:
        return self.words


class NotYours(Reason):
    """An order for a unit of another power: illegal, and never printed in the public results."""

    at: str
    owner: str
    many: bool

    kind = "not_yours"
    names = ("at", "owner", "many")
    optional = frozenset(("many",))

    def __init__(self, at: str, owner: str, many: bool = False) -> None:
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "owner", owner)
        object.__setattr__(self, "many", many)

    def text(self, place: Namer = as_is) -> str:
        return (
            f"the units in {place(self.at)} belong to {self.owner}"
            if self.many
            else f"the unit in {place(self.at)} belongs to {self.owner}"
        )


# --- moves ------------------------------------------------------------------------------------------------


class NoConvoy(Reason):
    """A move by convoy found no convoy order to carry it (or, `disrupted`, every route was broken)."""

    disrupted: bool

    kind = "no_convoy"
    marks = (Mark.NO_CONVOY,)
    names = ("disrupted",)
    optional = frozenset(("disrupted",))

    def __init__(self, disrupted: bool = False) -> None:
        object.__setattr__(self, "disrupted", disrupted)

    def text(self, place: Namer = as_is) -> str:
        return "convoy disrupted" if self.disrupted else "no convoy"


class OwnUnit(Reason):
    """A move that would dislodge a unit of its own side (only its own side's supports would carry it)."""

    into: str

    kind = "own_unit"
    marks = (Mark.BOUNCE,)
    names = ("into",)

    def __init__(self, into: str) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py); the kinds a movement phase
        # makes most (own unit, bounced, held by, head to head) and the names in them
        object.__setattr__(self, "into", into)

    def text(self, place: Namer = as_is) -> str:
        return f"cannot dislodge its own unit in {place(self.into)}"


class HeadToHead(Reason):
    """Lost a head-to-head battle: attack against the other unit's defence, beaten by a stronger one or stood off
    at equal strengths (`beaten` says which)."""

    by: UnitName
    attack: int
    defend: int

    kind = "head_to_head"
    marks = (Mark.BOUNCE,)
    names = ("by", "attack", "defend")

    def __init__(self, by: UnitName, attack: int, defend: int) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py); the kinds a movement phase
        # makes most (own unit, bounced, held by, head to head) and the names in them
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "defend", defend)

    @property
    def beaten(self) -> bool:
        """Beaten by a stronger defence (rather than stood off at equal strengths)."""
        return self.defend > self.attack

    def text(self, place: Namer = as_is) -> str:
        if self.beaten:
            return f"beaten head to head by {self.by.named(place)} ({_against(self.defend, self.attack)})"
        return f"bounced head to head with {self.by.named(place)} ({_each(self.attack)})"


class HeldBy(Reason):
    """The unit in the destination held: attack against hold strength, held off by a stronger hold or stood off
    at equal strengths (`beaten` says which). `stayed` when it was ordered to move away and did not."""

    by: UnitName
    attack: int
    hold: int
    stayed: bool

    kind = "held_by"
    marks = (Mark.BOUNCE,)
    names = ("by", "attack", "hold", "stayed")
    optional = frozenset(("stayed",))

    def __init__(self, by: UnitName, attack: int, hold: int, stayed: bool = False) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py); the kinds a movement phase
        # makes most (own unit, bounced, held by, head to head) and the names in them
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "hold", hold)
        object.__setattr__(self, "stayed", stayed)

    @property
    def beaten(self) -> bool:
        """Held off by a stronger hold (rather than stood off at equal strengths)."""
        return self.hold > self.attack

    def text(self, place: Namer = as_is) -> str:
        stayed = ", which did not move away" if self.stayed else ""
        if self.beaten:
            return f"held off by {self.by.named(place)}{stayed} ({_against(self.hold, self.attack)})"
        return f"bounced off {self.by.named(place)}{stayed} ({_each(self.attack)})"


class Bounced(Reason):
    """A standoff: other attacks on the same province exactly as strong as this one (`strength`, each). A
    stronger attack is `Beaten`. `strength` is 0 in an outcome stored before it was kept (issue 28), when
    "bounced" also stood for a move beaten by a stronger one."""

    with_: tuple[UnitName, ...]
    strength: int

    kind = "bounced"
    marks = (Mark.BOUNCE,)
    names = ("with_", "strength")
    optional = frozenset(("strength",))

    def __init__(self, with_: tuple[UnitName, ...], strength: int = 0) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py); the kinds a movement phase
        # makes most (own unit, bounced, held by, head to head) and the names in them
        object.__setattr__(self, "with_", with_)
        object.__setattr__(self, "strength", strength)

    def text(self, place: Namer = as_is) -> str:
        each = f" ({_each(self.strength)})" if self.strength else ""
        return f"bounced with {_names(self.with_, place)}{each}"


class Beaten(Reason):
    """Beaten by a stronger attack on the same province (issue 28: it was told as "bounced with"): the units
    of that attack (several where they move in unison from several provinces), its strength (`prevent`, in the
    variant's counting) against this move's `attack`. One reason for each stronger attack."""

    by: tuple[UnitName, ...]
    attack: int
    prevent: int

    kind = "beaten"
    marks = (Mark.BOUNCE,)
    names = ("by", "attack", "prevent")

    def __init__(self, by: tuple[UnitName, ...], attack: int, prevent: int) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "attack", attack)
        object.__setattr__(self, "prevent", prevent)

    def text(self, place: Namer = as_is) -> str:
        return f"beaten by {_names(self.by, place)} ({_against(self.prevent, self.attack)})"


class Failed(Reason):
    """A move that failed for none of the reasons above (a rule of the variant stopped it)."""

    kind = "failed"

    def text(self, place: Namer = as_is) -> str:
        return "failed"


# --- what happened to the unit ----------------------------------------------------------------------------


class WasDislodged(Reason):
    """The unit was dislodged by the attack from `from_` (several provinces for a merge or attacks in unison);
    `from_` is empty where the unit's order was illegal and only where it stood is told."""

    at: str
    from_: tuple[str, ...]
    convoyed: bool

    kind = "dislodged"
    marks = (Mark.DISLODGED,)
    names = ("at", "from_", "convoyed")
    optional = frozenset(("from_", "convoyed"))

    def __init__(self, at: str, from_: tuple[str, ...] = (), convoyed: bool = False) -> None:
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "from_", from_)
        object.__setattr__(self, "convoyed", convoyed)

    def text(self, place: Namer = as_is) -> str:
        return f"dislodged {self.beside(Mark.DISLODGED, place)}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        if said is not Mark.DISLODGED:
            return self.text(place)
        if not self.from_:
            return f"from {place(self.at)}"
        via = " (convoyed)" if self.convoyed else ""
        return f"by the attack from {', '.join(map(place, self.from_))}{via}"


# --- supports and convoys ---------------------------------------------------------------------------------


class VoidSupport(Reason):
    """The support matched no order: no unit where it points, or the unit there did something else."""

    target: str
    destination: str | None
    no_unit: bool

    kind = "void_support"
    marks = (Mark.VOID,)
    names = ("target", "destination", "no_unit")

    def __init__(self, target: str, destination: str | None, no_unit: bool) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "no_unit", no_unit)

    def text(self, place: Namer = as_is) -> str:
        return f"void: {self.beside(Mark.VOID, place)}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        if said is not Mark.VOID:
            return self.text(place)
        if self.no_unit:
            return f"no unit in {place(self.target)}"
        if self.destination:
            return f"{place(self.target)} did not move to {place(self.destination)}"
        return f"{place(self.target)} did not hold"


class Cut(Reason):
    """The support was cut by these attacks (each unit with the province it attacked from)."""

    by: tuple[UnitName, ...]
    from_: tuple[str, ...]

    kind = "cut"
    marks = (Mark.CUT,)
    names = ("by", "from_")

    def __init__(self, by: tuple[UnitName, ...], from_: tuple[str, ...]) -> None:
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "from_", from_)

    def text(self, place: Namer = as_is) -> str:
        return f"cut {self.beside(Mark.CUT, place)}" if self.by else "cut"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        if said is not Mark.CUT:
            return self.text(place)
        return (
            "by " + ", ".join(f"{u.named(place)} from {place(o)}" for u, o in zip(self.by, self.from_, strict=True))
            if self.by
            else ""
        )


class PartlyCut(Reason):
    """Part of a multiple support stood and part was cut (Multiplomacy rule 5 ii prints the two apart)."""

    unit: str
    """the letter of the supporting units ("A", "F")"""
    at: str
    support: str
    """what they support, as written in the results ("S A mun - boh")"""
    stood: int
    fell: int
    by: tuple[UnitName, ...]
    from_: tuple[str, ...]

    kind = "partly_cut"
    names = ("unit", "at", "support", "stood", "fell", "by", "from_")

    def __init__(
        self, unit: str, at: str, support: str, stood: int, fell: int, by: tuple[UnitName, ...], from_: tuple[str, ...]
    ) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "support", support)
        object.__setattr__(self, "stood", stood)
        object.__setattr__(self, "fell", fell)
        object.__setattr__(self, "by", by)
        object.__setattr__(self, "from_", from_)

    def part(self, count: int, place: Namer = as_is) -> str:
        return f"{count} {self.unit} {place(self.at)} {self.support}"

    def cutters(self, place: Namer = as_is) -> str:
        names = ", ".join(f"{u.named(place)} from {place(o)}" for u, o in zip(self.by, self.from_, strict=True))
        return names or "an attack"

    def text(self, place: Namer = as_is) -> str:
        return (
            f"partly cut: {self.part(self.stood, place)} stands; {self.part(self.fell, place)} was cut by "
            f"{self.cutters(place)}"
        )


class Paradox(Reason):
    """A convoy paradox: the support fails, or (`convoy`) the convoying fleet holds, by the Szykman rule."""

    convoy: bool

    kind = "paradox"
    marks = (Mark.PARADOX,)
    names = ("convoy",)
    optional = frozenset(("convoy",))

    def __init__(self, convoy: bool = False) -> None:
        object.__setattr__(self, "convoy", convoy)

    def text(self, place: Namer = as_is) -> str:
        return "convoy paradox: the fleet holds (Szykman rule)" if self.convoy else "paradox: support fails"


class VoidConvoy(Reason):
    """The convoy matched no move: no such army moved, or (`overland`) it went by land."""

    target: str
    destination: str
    overland: bool

    kind = "void_convoy"
    marks = (Mark.VOID,)
    names = ("target", "destination", "overland")

    def __init__(self, target: str, destination: str, overland: bool) -> None:
        object.__setattr__(self, "target", target)
        object.__setattr__(self, "destination", destination)
        object.__setattr__(self, "overland", overland)

    def text(self, place: Namer = as_is) -> str:
        return f"void: {self.beside(Mark.VOID, place)}"

    def beside(self, said: Mark | None, place: Namer = as_is) -> str:
        if said is not Mark.VOID:
            return self.text(place)
        if self.overland:
            return "the army went over land"
        return f"no army moved from {place(self.target)} to {place(self.destination)}"


class RouteBroken(Reason):
    """The convoy stood, but every route of the army it carried was broken elsewhere."""

    kind = "route_broken"
    marks = (Mark.NO_CONVOY,)

    def text(self, place: Namer = as_is) -> str:
        return "the convoy route was broken elsewhere"


# --- several parts on one line ----------------------------------------------------------------------------


class Part(Reason):
    """What became of one part of an order for several detachments (a split, a merge)."""

    unit: str
    at: str
    reasons: tuple[Reason, ...]

    kind = "part"
    names = ("unit", "at", "reasons")

    def __init__(self, unit: str, at: str, reasons: tuple[Reason, ...]) -> None:
        object.__setattr__(self, "unit", unit)
        object.__setattr__(self, "at", at)
        object.__setattr__(self, "reasons", reasons)

    @property
    def marks(self) -> tuple[Mark, ...]:  # type: ignore[override]
        """Only what became of the whole force is marked: its being dislodged."""
        dislodged = any(isinstance(r, WasDislodged) and r.from_ for r in self.reasons)
        return (Mark.DISLODGED,) if dislodged else ()

    def text(self, place: Namer = as_is) -> str:
        return f"{self.unit} {place(self.at)}: {text_of(self.reasons, place)}"


# --- retreats and adjustments -----------------------------------------------------------------------------


class RetreatClash(Reason):
    """Retreats met in one province; `lost` of this order's `units` were disbanded."""

    with_: tuple[UnitName, ...]
    into: str
    lost: int
    units: int

    kind = "retreat_clash"
    names = ("with_", "into", "lost", "units")

    def __init__(self, with_: tuple[UnitName, ...], into: str, lost: int, units: int) -> None:
        object.__setattr__(self, "with_", with_)
        object.__setattr__(self, "into", into)
        object.__setattr__(self, "lost", lost)
        object.__setattr__(self, "units", units)

    @property
    def marks(self) -> tuple[Mark, ...]:  # type: ignore[override]
        return (Mark.BOUNCE, Mark.DESTROYED) if self.lost else (Mark.BOUNCE,)

    def text(self, place: Namer = as_is) -> str:
        names = ", ".join(f"{u.unit} {place(u.at)}" for u in self.with_)
        if self.lost == self.units:
            return f"bounced with {names}; the unit is disbanded"
        return f"met {names} in {place(self.into)}; {self.lost} of {self.units} disbanded"


class LostAs(StrEnum):
    UNIT = "the unit is disbanded"
    REST = "the rest are disbanded"
    IT = "it is disbanded"


class Lost(Reason):
    """A dislodged unit whose retreat order could not be carried out is disbanded."""

    words: LostAs

    kind = "lost"
    marks = (Mark.DESTROYED,)
    names = ("words",)
    optional = frozenset(("words",))

    def __init__(self, words: LostAs = LostAs.UNIT) -> None:
        object.__setattr__(self, "words", words)

    def text(self, place: Namer = as_is) -> str:
        return self.words.value


class DisbandCause(StrEnum):
    CLASHED = "retreats clashed"
    ORDERED = "ordered to disband"
    NOWHERE = "no retreat was possible"
    UNORDERED = "no retreat was ordered"


class Disbanded(Reason):
    """A dislodged unit left the board in the retreat phase."""

    cause: DisbandCause

    kind = "disbanded"
    names = ("cause",)

    def __init__(self, cause: DisbandCause) -> None:
        object.__setattr__(self, "cause", cause)

    def text(self, place: Namer = as_is) -> str:
        return self.cause.value


class CivilDisorder(Reason):
    """A removal the judge made because the power ordered too few."""

    kind = "civil_disorder"

    def text(self, place: Namer = as_is) -> str:
        return "civil disorder: too few removals were ordered"


# --- win claims (CW Heptadiplomacy rule 7) ----------------------------------------------------------------


def _players(players: tuple[str, ...]) -> str:
    return " and ".join(players) if len(players) < 3 else f"{', '.join(players[:-1])} and {players[-1]}"


class WinDeclared(Reason):
    """A claim granted: the game is won (`win` is "solo", "two-way" or "three-way")."""

    win: str
    players: tuple[str, ...]

    kind = "win_declared"
    names = ("win", "players")

    def __init__(self, win: str, players: tuple[str, ...]) -> None:
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "players", players)

    def text(self, place: Namer = as_is) -> str:
        return f"{self.win} win declared for {_players(self.players)}"


class ClaimShort(Reason):
    """A joint win claimed by players who hold too few centres for it."""

    win: str
    players: tuple[str, ...]
    held: tuple[int, ...]
    together: int
    each: int

    kind = "claim_short"
    names = ("win", "players", "held", "together", "each")

    def __init__(self, win: str, players: tuple[str, ...], held: tuple[int, ...], together: int, each: int) -> None:
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "players", players)
        object.__setattr__(self, "held", held)
        object.__setattr__(self, "together", together)
        object.__setattr__(self, "each", each)

    def text(self, place: Namer = as_is) -> str:
        holdings = ", ".join(f"{p} {n}" for p, n in zip(self.players, self.held, strict=True))
        return f"too few centres ({holdings}): a {self.win} win needs {self.together} together and {self.each} each"


class ClaimNotJoined(Reason):
    """A joint win that not every partner claimed."""

    win: str
    missing: tuple[str, ...]

    kind = "claim_not_joined"
    names = ("win", "missing")

    def __init__(self, win: str, missing: tuple[str, ...]) -> None:
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "missing", missing)

    def text(self, place: Namer = as_is) -> str:
        return f"{_players(self.missing)} did not claim this {self.win} win"


class ClaimCondition(Reason):
    """A condition a claim was made on that did not hold."""

    condition: str

    kind = "claim_condition"
    names = ("condition",)

    def __init__(self, condition: str) -> None:
        object.__setattr__(self, "condition", condition)

    def text(self, place: Namer = as_is) -> str:
        return f"its condition did not hold: {self.condition}"


class ClaimPending(Reason):
    """A claim recorded with the Autumn orders and judged later: after the Autumn retreats, or after the Winter
    builds it is conditional on."""

    until: str

    kind = "claim_pending"
    names = ("until",)

    def __init__(self, until: str) -> None:
        object.__setattr__(self, "until", until)

    def text(self, place: Namer = as_is) -> str:
        return f"recorded; judged {self.until}"


class ClaimSuperseded(Reason):
    """A claim that could have been granted, set aside for a win its players preferred or a win that took one
    of them."""

    win: str
    players: tuple[str, ...]

    kind = "claim_superseded"
    names = ("win", "players")

    def __init__(self, win: str, players: tuple[str, ...]) -> None:
        object.__setattr__(self, "win", win)
        object.__setattr__(self, "players", players)

    def text(self, place: Namer = as_is) -> str:
        return f"set aside: the {self.win} win of {_players(self.players)} was declared"


# --- why a die was rolled --------------------------------------------------------------------------------


class CutFirst(Reason):
    """Why the judge rolled a die (Multiplicity's cut choice): to say which of the supports given from `at` is cut
    first. Its words are also the die's seed (`Resolver.shuffled`), so they stay as they are."""

    at: str

    kind = "cut_first"
    names = ("at",)

    def __init__(self, at: str) -> None:
        object.__setattr__(self, "at", at)

    def text(self, place: Namer = as_is) -> str:
        return f"which support in {place(self.at)} is cut first"


# --- every kind -----------------------------------------------------------------------------------------


def reason_kinds() -> tuple[type[Reason], ...]:
    """Every kind here, as this module binds them (`__subclasses__` would hold the refusals too); judge/engine/kinds.py
    reads them back by their `kind`."""
    return tuple(
        value
        for value in globals().values()
        if isinstance(value, type) and issubclass(value, Reason) and value is not Reason
    )
