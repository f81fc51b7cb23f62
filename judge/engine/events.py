"""What happened by rule in a phase, as values: die rolls, units disbanded or annihilated without an order,
civil-disorder removals, powers eliminated, and a variant's own kinds (Atlantis wandering, Delphi sacked,
colonies declaring, win claims judged).

`Outcome.events` holds these; the `judge adjudicate` contract writes each as `json()` (its `kind` first, then its
fields in order, a field named `from_` written `from`), which is the JSON the events were before they were
typed, and the results mail reads that JSON. A new kind of event is a new class here, in the manner of
`judge/engine/reasons.py`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from judge.engine.order_text import render_order
from judge.engine.orders import Order
from judge.engine.reasons import Reason


class Event:
    """What every event is: a kind (its name in the JSON) and its fields (`names`), set once by its `__init__` and
    never changed. The kinds are plain classes, compared, hashed and shown by their fields here (not dataclasses:
    the decorator's work for each class would be done at every start of `judge adjudicate`)."""

    kind: ClassVar[str] = "event"
    names: ClassVar[tuple[str, ...]] = ()
    """the kind's fields, in the order its `__init__` takes them and its JSON lists them"""

    def values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.names)

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for name, value in zip(self.names, self.values(), strict=True):
            out[name.rstrip("_")] = _json(value)
        return out

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, Event) and other.values() == self.values()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.names, self.values(), strict=True))
        return f"{type(self).__name__}({shown})"


def _json(value: Any) -> Any:
    if isinstance(value, Order):
        return render_order(value)
    if isinstance(value, (Reason, Event)):
        return value.json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


# --- the engine's own --------------------------------------------------------------------------------------


class DieRoll(Event):
    """A seeded shuffle the rules called for (Multiplicity's cut choice): why, and the orders in the order drawn.
    Written as it always was (`purpose` in words, `order` as text), with `why`, the purpose as a value (the
    contract adds `read`, the orders as values), so the results name the places in both without reading words."""

    kind: ClassVar[str] = "die_roll"
    why: Reason
    order: tuple[Order, ...]

    names = ("why", "order")

    def __init__(self, why: Reason, order: tuple[Order, ...]) -> None:
        self.why = why
        self.order = order

    def json(self) -> dict[str, Any]:
        return {"kind": self.kind, "purpose": self.why.text(), "order": _json(self.order), "why": self.why.json()}


class UnitDisbanded(Event):
    """A unit that left the board without an order of its own: a dislodged unit not retreating, or (Hoplite
    Wars rule 4) a garrison forced to retreat."""

    kind: ClassVar[str] = "disbanded"
    power: str
    unit: str
    at: str
    reason: str

    names = ("power", "unit", "at", "reason")

    def __init__(self, power: str, unit: str, at: str, reason: str) -> None:
        self.power = power
        self.unit = unit
        self.at = at
        self.reason = reason


class CivilDisorderRemoval(Event):
    """A removal the judge made for a power that ordered too few."""

    kind: ClassVar[str] = "civil_disorder_removal"
    power: str
    unit: str
    at: str

    names = ("power", "unit", "at")

    def __init__(self, power: str, unit: str, at: str) -> None:
        self.power = power
        self.unit = unit
        self.at = at


class BuildsWaived(Event):
    """After a Winter: builds a power had due and did not make, ordered waived or not, in half centres (issue 40:
    the results said what the count of the finished Winter left over, "½ build waived" after a removal)."""

    kind: ClassVar[str] = "builds_waived"
    power: str
    halves: int

    names = ("power", "halves")

    def __init__(self, power: str, halves: int) -> None:
        self.power = power
        self.halves = halves


class Eliminated(Event):
    """A power left with no unit and no centre."""

    kind: ClassVar[str] = "eliminated"
    power: str

    names = ("power",)

    def __init__(self, power: str) -> None:
        self.power = power


# --- the variants' ----------------------------------------------------------------------------------------


class UnitPlaced(Event):
    """A unit the judge placed (Multiplicity II rule 1: a home centre left without one)."""

    kind: ClassVar[str] = "placed"
    power: str
    unit: str
    at: str
    reason: str

    names = ("power", "unit", "at", "reason")

    def __init__(self, power: str, unit: str, at: str, reason: str) -> None:
        self.power = power
        self.unit = unit
        self.at = at
        self.reason = reason


class CentrePlaced(Event):
    """A centre the judge placed (Mad Diplomacy rule 2: a power placed too few)."""

    kind: ClassVar[str] = "placed"
    power: str
    centre: str
    reason: str

    names = ("power", "centre", "reason")

    def __init__(self, power: str, centre: str, reason: str) -> None:
        self.power = power
        self.centre = centre
        self.reason = reason


class Annihilated(Event):
    """Armies lost at sea (Mad Diplomacy rule 4b, 4d)."""

    kind: ClassVar[str] = "annihilated"
    power: str
    unit: str
    at: str
    reason: str

    names = ("power", "unit", "at", "reason")

    def __init__(self, power: str, unit: str, at: str, reason: str) -> None:
        self.power = power
        self.unit = unit
        self.at = at
        self.reason = reason


class Roll(Event):
    """One place's die in a round of Atlantis's roll."""

    at: str
    roll: int

    names = ("at", "roll")

    def __init__(self, at: str, roll: int) -> None:
        self.at = at
        self.roll = roll

    def json(self) -> dict[str, Any]:
        return {"at": self.at, "roll": self.roll}


class AtlantisMoved(Event):
    """Atlantis wandered (Mad Diplomacy rule 9): the dice of each round, the highest of the last."""

    kind: ClassVar[str] = "atlantis"
    from_: str
    to: str
    roll: int
    rounds: tuple[tuple[Roll, ...], ...]

    names = ("from_", "to", "roll", "rounds")

    def __init__(self, from_: str, to: str, roll: int, rounds: tuple[tuple[Roll, ...], ...]) -> None:
        self.from_ = from_
        self.to = to
        self.roll = roll
        self.rounds = rounds


class Sacked(Event):
    """Delphi sacked (Hoplite Wars rule 7): by a power's unit, for its player (the Major)."""

    kind: ClassVar[str] = "sack"
    power: str
    player: str
    at: str

    names = ("power", "player", "at")

    def __init__(self, power: str, player: str, at: str) -> None:
        self.power = power
        self.player = player
        self.at = at


class Captured(Event):
    """A centre a mixed force captured, given to the Minor its player named (Hoplite Wars rule 5)."""

    kind: ClassVar[str] = "capture"
    power: str
    centre: str

    names = ("power", "centre")

    def __init__(self, power: str, centre: str) -> None:
        self.power = power
        self.centre = centre


class ColonyDeclared(Event):
    """A colony declared for a Major (Hoplite Wars rule 6)."""

    kind: ClassVar[str] = "colony"
    colony: str
    major: str

    names = ("colony", "major")

    def __init__(self, colony: str, major: str) -> None:
        self.colony = colony
        self.major = major


class ClaimJudged(Event):
    """A win claim judged (CW Heptadiplomacy rule 7): granted or not, and why."""

    kind: ClassVar[str] = "claim"
    player: str
    power: str
    claim: str
    granted: bool
    reasons: tuple[Reason, ...]

    names = ("player", "power", "claim", "granted", "reasons")

    def __init__(self, player: str, power: str, claim: str, granted: bool, reasons: tuple[Reason, ...]) -> None:
        self.player = player
        self.power = power
        self.claim = claim
        self.granted = granted
        self.reasons = reasons

    def json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "player": self.player,
            "power": self.power,
            "claim": self.claim,
            "granted": self.granted,
            "reason": "; ".join(r.text() for r in self.reasons),
            "reasons": [r.json() for r in self.reasons],
        }
