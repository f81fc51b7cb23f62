"""The position the engine reads and the outcome it returns."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from enum import StrEnum
from typing import Any, ClassVar

from judge.engine.events import Event
from judge.engine.order_text import render_order
from judge.engine.orders import Order, Submitted
from judge.engine.phase import Phase
from judge.engine.reasons import Reason, text_of
from judge.engine.refusals import Unreadable
from judge.engine.units import Force
from judge.value import Record, Value


class Dislodged(Value):
    force: Force
    attacker_from: str | None
    by_convoy: bool
    retreats: tuple[str, ...] | None
    """Where it may retreat; None until the engine works it out."""
    also_from: tuple[str, ...]
    """further provinces the dislodging attack came from (a merge, or Multiplomacy's attacks in unison)"""

    names = ("force", "attacker_from", "by_convoy", "retreats", "also_from")
    optional = frozenset(("by_convoy", "retreats", "also_from"))

    def __init__(
        self,
        force: Force,
        attacker_from: str | None,
        by_convoy: bool = False,
        retreats: tuple[str, ...] | None = None,
        also_from: tuple[str, ...] = (),
    ) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        object.__setattr__(self, "force", force)
        object.__setattr__(self, "attacker_from", attacker_from)
        object.__setattr__(self, "by_convoy", by_convoy)
        object.__setattr__(self, "retreats", retreats)
        object.__setattr__(self, "also_from", also_from)


class Position(Value):
    phase: Phase
    units: tuple[Force, ...]
    centres: dict[str, str]
    """supply centre province -> owning power (unowned centres are absent)"""
    dislodged: tuple[Dislodged, ...]
    standoffs: frozenset[str]
    variant_state: dict[str, Any]
    """what a variant carries from phase to phase (a wandering centre, winters at the victory count, ...)"""
    sides: dict[str, tuple[str, ...]]
    """player -> the powers that player controls, where the game gives them (Heptadiplomacy's option B); empty
    means the variant's fixed sides (`Rules.fixed_sides`), or each power alone"""

    names = ("phase", "units", "centres", "dislodged", "standoffs", "variant_state", "sides")
    optional = frozenset(("dislodged", "standoffs", "variant_state", "sides"))

    def __init__(
        self,
        phase: Phase,
        units: tuple[Force, ...],
        centres: dict[str, str],
        dislodged: tuple[Dislodged, ...] = (),
        standoffs: frozenset[str] = frozenset(),
        variant_state: dict[str, Any] | None = None,
        sides: dict[str, tuple[str, ...]] | None = None,
    ) -> None:
        object.__setattr__(self, "phase", phase)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "centres", centres)
        object.__setattr__(self, "dislodged", dislodged)
        object.__setattr__(self, "standoffs", standoffs)
        object.__setattr__(self, "variant_state", {} if variant_state is None else variant_state)
        object.__setattr__(self, "sides", {} if sides is None else sides)


class Result(StrEnum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"
    ILLEGAL = "illegal"


class OrderResult(Record):
    power: str
    input: str
    canonical: Order | None
    """the order as the judge understood it (None when the line could not be read)"""
    result: Result
    found: Sequence[Reason]
    """why, as far as known when the row was made (see `reasons`)"""
    added: bool
    """True for the holds (or civil-disorder removals) the judge added for unordered units"""
    explain: Callable[[], Sequence[Reason]] | None
    """works out the rest of the reasons when they are first read (naming every unit that bounced a move costs
    more than the adjudication; most callers never ask)"""

    names = ("power", "input", "canonical", "result", "found", "added", "explain")
    # as its dataclass had (`slots=True`): the pure-Python path reads these in every loop
    __slots__ = ("added", "canonical", "explain", "found", "input", "power", "result")

    def __init__(
        self,
        power: str,
        input: str,
        canonical: Order | None,
        result: Result,
        found: Sequence[Reason] = (),
        added: bool = False,
        explain: Callable[[], Sequence[Reason]] | None = None,
    ) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        self.power = power
        self.input = input
        self.canonical = canonical
        self.result = result
        self.found = found
        self.added = added
        self.explain = explain

    @property
    def reasons(self) -> Sequence[Reason]:
        """Why the order had its result, as values (judge/engine/reasons.py)."""
        if self.explain is not None:
            self.found = (*self.explain(), *self.found)
            self.explain = None
        return self.found

    @reasons.setter
    def reasons(self, values: Sequence[Reason]) -> None:
        self.found = values
        self.explain = None

    @property
    def reason(self) -> str:
        """Why the order had its result, in a GM's words."""
        return text_of(self.reasons)

    @property
    def order(self) -> str:
        """The canonical text, rendered on demand: the engine's callers decide when text is needed."""
        return render_order(self.canonical) if self.canonical is not None else ""


def result_rows(
    submitted: Sequence[Submitted], results: list[OrderResult]
) -> Iterator[tuple[OrderResult, Submitted, Order]]:
    """Every submitted line gets its row in `results`, illegal until the phase's rules say otherwise; a line the
    notation could not read is answered here, once for every phase type, and only readable orders are yielded."""
    for sub in submitted:
        entry = OrderResult(sub.power, sub.text, None, Result.ILLEGAL)
        results.append(entry)
        if sub.order is None:
            entry.reasons = (Unreadable(sub.error),)
            continue
        yield entry, sub, sub.order


class Outcome(Record):
    """What a phase decided (docs/engine.md, "The outcome, as values"): worked out and filled in by the phase's
    adjudication and the variant's hooks, so a `Record`, not a `Value`."""

    phase: Phase
    results: list[OrderResult]
    units: tuple[Force, ...]
    dislodged: tuple[Dislodged, ...]
    standoffs: frozenset[str]
    centres: dict[str, str]
    next_phase: Phase
    events: list[Event]
    """what happened by rule (judge/engine/events.py)"""
    winner: list[str] | None
    wins: dict[str, str]
    """each winner's kind of win, where the variant tells kinds apart (CW Heptadiplomacy: "solo", "two-way",
    "three-way"); empty otherwise"""
    variant_state: dict[str, Any]
    sides: dict[str, tuple[str, ...]]
    """the sides the phase was played with (echoed, so an outcome feeds the next phase)"""
    centres_before: dict[str, str] | None
    """ownership before the phase, where it changed (`ownership_changes` is worked out from it when read)"""
    count_adjustments: Callable[[], dict[str, Adjustment]] | None
    """works out `adjustments` when they are first read (most callers never ask)"""
    _adjustments: dict[str, Adjustment] | None

    names = (
        "phase", "results", "units", "dislodged", "standoffs", "centres", "next_phase", "events", "winner", "wins",
        "variant_state", "sides", "centres_before", "count_adjustments", "_adjustments",
    )  # fmt: skip
    shown: ClassVar[tuple[str, ...]] = (
        "phase", "results", "units", "dislodged", "standoffs", "centres", "next_phase", "events", "winner", "wins",
        "variant_state", "sides",
    )  # fmt: skip
    """the fields its repr shows (what the phase decided; not the workings kept for reading it later)"""

    def __init__(
        self,
        phase: Phase,
        results: list[OrderResult],
        units: tuple[Force, ...],
        dislodged: tuple[Dislodged, ...],
        standoffs: frozenset[str],
        centres: dict[str, str],
        next_phase: Phase,
        events: list[Event] | None = None,
        winner: list[str] | None = None,
        wins: dict[str, str] | None = None,
        variant_state: dict[str, Any] | None = None,
        sides: dict[str, tuple[str, ...]] | None = None,
        centres_before: dict[str, str] | None = None,
        count_adjustments: Callable[[], dict[str, Adjustment]] | None = None,
        _adjustments: dict[str, Adjustment] | None = None,
    ) -> None:
        self.phase = phase
        self.results = results
        self.units = units
        self.dislodged = dislodged
        self.standoffs = standoffs
        self.centres = centres
        self.next_phase = next_phase
        self.events = [] if events is None else events
        self.winner = winner
        self.wins = {} if wins is None else wins
        self.variant_state = {} if variant_state is None else variant_state
        self.sides = {} if sides is None else sides
        self.centres_before = centres_before
        self.count_adjustments = count_adjustments
        self._adjustments = _adjustments

    def __repr__(self) -> str:
        fields = ", ".join([f"{name}={getattr(self, name)!r}" for name in self.shown])
        return f"{self.__class__.__qualname__}({fields})"

    @property
    def ownership_changes(self) -> list[OwnershipChange]:
        """The centres that changed hands in this phase, from whom to whom."""
        before, after = self.centres_before, self.centres
        if before is None:
            return []
        moved = {c for c, owner in after.items() if before.get(c) != owner} | {c for c in before if c not in after}
        return [OwnershipChange(c, before.get(c), after.get(c)) for c in sorted(moved)]

    @property
    def adjustments(self) -> dict[str, Adjustment]:
        """When the next phase is an adjustment phase: what each power owns and fields, and so may build or must
        remove (in half centres); otherwise empty."""
        if self._adjustments is None:
            self._adjustments = self.count_adjustments() if self.count_adjustments is not None else {}
            self.count_adjustments = None
        return self._adjustments


class OwnershipChange(Value):
    centre: str
    before: str | None
    after: str | None

    names = ("centre", "before", "after")

    def __init__(self, centre: str, before: str | None, after: str | None) -> None:
        object.__setattr__(self, "centre", centre)
        object.__setattr__(self, "before", before)
        object.__setattr__(self, "after", after)


class Adjustment(Value):
    """What a power (or, added up, a player's side) holds, in half centres, counted one way for every table,
    legend, chart and reply the judge writes (`judge.engine.supply.adjustment_counts`; issue 40): its centres by
    the variant's worth (`Rules.centre_value`: a Hoplite Wars Town is half a City), its units by what they cost
    (`Rules.costs`: a garrison half, so `2G` counts 1; the units Delphi raised nothing), and the builds the variant
    grants beyond the centres (`Rules.extra_builds`: Hoplite Wars' sack of Delphi)."""

    centres: int
    units: int
    extra: int

    names = ("centres", "units", "extra")
    optional = frozenset(("extra",))

    def __init__(self, centres: int, units: int, extra: int = 0) -> None:
        object.__setattr__(self, "centres", centres)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "extra", extra)

    @property
    def change(self) -> int:
        """Builds (above zero) or removals (below) due."""
        return self.centres + self.extra - self.units

    def __add__(self, other: Adjustment) -> Adjustment:
        return Adjustment(self.centres + other.centres, self.units + other.units, self.extra + other.extra)
