"""What happened by rule in a phase, as values: die rolls, units disbanded or annihilated without an order,
civil-disorder removals, powers eliminated, and a variant's own kinds (Atlantis wandering, Delphi sacked,
colonies declaring, win claims judged).

`Outcome.events` holds these; the `judge adjudicate` contract writes each as `json()` (its `kind` first, then its
fields in order, a field named `from_` written `from`), which is the JSON the events were before they were
typed, and the results mail reads that JSON. A new kind of event is a new class here, in the manner of
`judge/engine/reasons.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from judge.engine.order_text import render_order
from judge.engine.orders import Order
from judge.engine.reasons import Reason


class Event:
    """What every event is: a kind (its name in the JSON) and a JSON object. The kinds are dataclasses."""

    __slots__ = ()
    kind: ClassVar[str] = "event"

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        for field in fields(self):  # type: ignore[arg-type]  # every kind is a dataclass
            out[field.name.rstrip("_")] = _json(getattr(self, field.name))
        return out


def _json(value: Any) -> Any:
    if isinstance(value, Order):
        return render_order(value)
    if isinstance(value, (Reason, Event, Roll)):
        return value.json()
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return value


# --- the engine's own --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DieRoll(Event):
    """A seeded shuffle the rules called for (Multiplicity's cut choice): the orders in the order drawn."""

    kind: ClassVar[str] = "die_roll"
    purpose: str
    order: tuple[Order, ...]


@dataclass(frozen=True, slots=True)
class UnitDisbanded(Event):
    """A unit that left the board without an order of its own: a dislodged unit not retreating, or (Hoplite
    Wars rule 4) a garrison forced to retreat."""

    kind: ClassVar[str] = "disbanded"
    power: str
    unit: str
    at: str
    reason: str


@dataclass(frozen=True, slots=True)
class CivilDisorderRemoval(Event):
    """A removal the judge made for a power that ordered too few."""

    kind: ClassVar[str] = "civil_disorder_removal"
    power: str
    unit: str
    at: str


@dataclass(frozen=True, slots=True)
class Eliminated(Event):
    """A power left with no unit and no centre."""

    kind: ClassVar[str] = "eliminated"
    power: str


# --- the variants' ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class UnitPlaced(Event):
    """A unit the judge placed (Multiplicity II rule 1: a home centre left without one)."""

    kind: ClassVar[str] = "placed"
    power: str
    unit: str
    at: str
    reason: str


@dataclass(frozen=True, slots=True)
class CentrePlaced(Event):
    """A centre the judge placed (Mad Diplomacy rule 2: a power placed too few)."""

    kind: ClassVar[str] = "placed"
    power: str
    centre: str
    reason: str


@dataclass(frozen=True, slots=True)
class Annihilated(Event):
    """Armies lost at sea (Mad Diplomacy rule 4b, 4d)."""

    kind: ClassVar[str] = "annihilated"
    power: str
    unit: str
    at: str
    reason: str


@dataclass(frozen=True, slots=True)
class Roll:
    """One place's die in a round of Atlantis's roll."""

    at: str
    roll: int

    def json(self) -> dict[str, Any]:
        return {"at": self.at, "roll": self.roll}


@dataclass(frozen=True, slots=True)
class AtlantisMoved(Event):
    """Atlantis wandered (Mad Diplomacy rule 9): the dice of each round, the highest of the last."""

    kind: ClassVar[str] = "atlantis"
    from_: str
    to: str
    roll: int
    rounds: tuple[tuple[Roll, ...], ...]


@dataclass(frozen=True, slots=True)
class Sacked(Event):
    """Delphi sacked (Hoplite Wars rule 7): by a power's unit, for its player (the Major)."""

    kind: ClassVar[str] = "sack"
    power: str
    player: str
    at: str


@dataclass(frozen=True, slots=True)
class Captured(Event):
    """A centre a mixed force captured, given to the Minor its player named (Hoplite Wars rule 5)."""

    kind: ClassVar[str] = "capture"
    power: str
    centre: str


@dataclass(frozen=True, slots=True)
class ColonyDeclared(Event):
    """A colony declared for a Major (Hoplite Wars rule 6)."""

    kind: ClassVar[str] = "colony"
    colony: str
    major: str


@dataclass(frozen=True, slots=True)
class ClaimJudged(Event):
    """A win claim judged (CW Heptadiplomacy rule 7): granted or not, and why."""

    kind: ClassVar[str] = "claim"
    player: str
    power: str
    claim: str
    granted: bool
    reasons: tuple[Reason, ...]

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


def events_json(events: list[Event]) -> list[dict[str, Any]]:
    """The events as the contract writes them."""
    return [event.json() for event in events]
