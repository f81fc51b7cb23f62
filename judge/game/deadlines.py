"""The deadline's rules, as a GM reads them in docs/deadlines.md: a phase goes early when every order is in,
players who owe orders are reminded before the deadline and told they are late after it, and at the end of grace
the phase is processed -- or, in a manual game, the GM is told it is due, and under `nmr=wait` the game waits for
a replacement. Each of these happens once a phase: the judge's marks (`judge.store.Marks`) remember the phase it
was done for.

A use case like every other: it raises events (`Reminder`, `OrdersLate`, `PhaseDue`, `WaitingForReplacements`,
and the results through `Adjudication`), which the notifier words from its templates. When to look, and which
process looks at which game under which lock, is the deadline keeper's (`judge.schedule.keeper`); what is due
when it looks is decided here, by one pure function (`plan`) that the keeper also uses to find the games with
something due without locking them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal, Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.contract import position_from_json
from judge.engine.phase import Phase, PhaseType
from judge.engine.supply import powers_to_order
from judge.game.adjudication import Adjudication
from judge.game.attendance import Away, held_away, owed_by_sides, owed_texts
from judge.game.deadline_events import OrdersLate, PhaseDeadline, PhaseDue, Reminder, WaitingForReplacements
from judge.game.settings import section
from judge.game.timing import Timing, early_from, grace_end, reminder_times, timing_from_settings
from judge.game.use_case import UseCase, audience_of, sides_of
from judge.store import Game, GameStatus, Marks, OrderSet, SeatStatus
from judge.variants import Side, get_variant

AtGrace = Literal["process", "tell GM", "wait"]
"""what the end of grace brings: the phase processed, the GM told it is due (a manual game), or the game waiting
for replacements (`nmr=wait` with a power nobody plays)"""


@dataclass(frozen=True)
class Look:
    """What the deadline's rules decide on for one game: the same whether read for every game at once (the keeper
    finding the games with something due) or read under the game's lock (to do it)."""

    index: int
    settings: dict[str, Any]
    marks: Marks
    away: Away
    """the players' absences (`Game.absences`)"""
    deadline: datetime | None
    phase_type: PhaseType
    due: frozenset[str]
    """the powers with orders to give in this phase (`powers_to_order`)"""
    seats: tuple[tuple[str, str, bool], ...]
    """(power, status, SET WAIT) of every seat with a power"""
    sets: dict[str, bool]
    """the powers with orders on file for this phase: power -> the set has errors"""
    last_in: datetime | None = None
    """when the last of the phase's orders on file came in (the delay before early processing runs from it)"""

    @classmethod
    def of(
        cls,
        game: Looked,
        phase_type: PhaseType,
        due: frozenset[str],
        seats: tuple[tuple[str, str, bool], ...],
        sets: dict[str, bool],
        last_in: datetime | None = None,
    ) -> Look:
        """The look of a game (loaded, or a row of the keeper's one query of every game) in its phase."""
        return cls(game.phase_index, game.settings, game.marks, game.absences, game.deadline, phase_type, due,
                   seats, sets, as_utc(last_in))  # fmt: skip


class Looked(Protocol):
    """What the rules read of a game itself: a `Game`, or a row of those columns."""

    phase_index: int
    settings: dict[str, Any]
    marks: Marks
    absences: dict[str, list[str]]
    deadline: datetime | None


@dataclass(frozen=True)
class Plan:
    """What is due for one game now, in the order it is done."""

    missing: list[str] = field(default_factory=list)
    """the powers that owe orders and have none on file"""
    faulty: list[str] = field(default_factory=list)
    """the powers that owe orders and whose orders on file have errors"""
    early: str | None = None
    """why the phase goes early, when it does"""
    early_at: datetime | None = None
    """every order is in and the phase goes early at this moment, the game's delay after the last came in"""
    remind: bool = False
    late: bool = False
    at_grace: AtGrace | None = None
    unfilled: list[str] = field(default_factory=list)
    """the powers owed and nobody's (waited for under `nmr=wait`)"""

    def __bool__(self) -> bool:
        return bool(self.early or self.remind or self.late or self.at_grace)


def plan(look: Look, now: datetime) -> Plan:
    """What is due for a game at `now`: the whole decision, a pure function of the look.

    Reckoned per power owed (docs/deadlines.md, "Several powers to a player"): the phase waits for every power
    that owes orders in it, a Hepta player's seven board-nations and a Hoplite Major and its Minor each apart, and
    goes early only when each has orders on file without errors; a side that ordered some of its powers still
    owes the others (its reminder and late notice name them)."""
    settings, index, marks = look.settings, look.index, look.marks
    timing = timing_from_settings(settings)
    # not waited for: powers in civil disorder, or away under `absence.mode=hold` (`judge.game.attendance`)
    disorder = {power for power, status, _ in look.seats if status == SeatStatus.CIVIL_DISORDER}
    awaited = look.due - disorder - held_away(settings, look.away, now)
    missing = sorted(awaited - look.sets.keys())
    faulty = sorted(p for p in awaited if look.sets.get(p))
    waiting = any(wait for power, _, wait in look.seats if power in awaited)
    nothing_to_decide = not look.due and look.phase_type is not PhaseType.MOVEMENT
    early = (look.due or nothing_to_decide) and marks.no_early != index  # not after a rollback
    early_at: datetime | None = None
    if not timing.manual and early and not missing and not faulty and not waiting:
        early_at = None if nothing_to_decide else early_from(look.last_in, timing)
        if early_at is None or now >= early_at:
            return Plan(early="nobody has anything to decide" if nothing_to_decide else "every order is in")
    deadline = as_utc(look.deadline)
    if deadline is None:
        return Plan(early_at=early_at)
    remind = reminder_due(timing, marks, deadline, index, now) > reminders_sent(marks, index)
    late = now >= deadline and marks.late != index and bool(missing or faulty)
    at_grace: AtGrace | None = None
    unfilled: list[str] = []
    if now >= grace_end(deadline, timing, look.phase_type.value):
        unfilled = [power for power, status, _ in look.seats if power in look.due and status == SeatStatus.VACANT]
        if timing.manual:
            at_grace = "tell GM" if marks.gm_told != index else None
        elif unfilled and settings.get("nmr") == "wait":
            at_grace = "wait" if marks.gm_told != index else None
        else:
            at_grace = "process"
    return Plan(missing, faulty, None, early_at, remind, late, at_grace, unfilled)


def reminders_sent(marks: Marks, index: int) -> int:
    """How many of the phase's reminders went out (one, where the mark is older than `Marks.reminders`)."""
    if marks.reminded != index:
        return 0
    return 1 if marks.reminders is None else marks.reminders


def reminder_due(timing: Timing, marks: Marks, deadline: datetime, index: int, now: datetime) -> int:
    """How many of the phase's reminders are due by `now` (`timing.reminders`, before the deadline only): one
    more than went out means a reminder now; a judge that was down sends the latest due once, not each missed."""
    if now >= deadline:
        return 0
    return sum(1 for moment in reminder_times(deadline, timing) if moment <= now)


def _moments(
    timing: Timing, marks: Marks, deadline: datetime, phase_type: str, index: int, last_in: datetime | None
) -> Iterator[datetime]:
    """The moments the rules act at for a phase, those not yet done for it: the end of the delay after the last
    orders came in, each reminder not yet sent, the deadline (late notices) and the end of grace."""
    early_at = early_from(last_in, timing)
    if early_at is not None and marks.processed != index:
        yield early_at
    yield from reminder_times(deadline, timing)[reminders_sent(marks, index) :]
    if marks.late != index:
        yield deadline
    if (marks.gm_told if timing.manual else marks.processed) != index:
        yield grace_end(deadline, timing, phase_type)


def next_moment(
    settings: dict[str, Any],
    marks: Marks,
    deadline: datetime | None,
    phase_type: str,
    index: int,
    now: datetime,
    last_in: datetime | None = None,
) -> datetime | None:
    """The next moment after `now` at which the rules have something to do for a game (the keeper sleeps until
    the earliest of every game's); None when nothing is to come before its GM or players act. `last_in`: when the
    phase's last orders came in (the end of the delay after them may be the next moment: it is one only when every
    order is in, which `plan` decides; waking for nothing costs a round)."""
    timing = timing_from_settings(settings)
    if deadline is None:
        early_at = early_from(as_utc(last_in), timing)
        return early_at if early_at is not None and early_at > now and marks.processed != index else None
    moments = _moments(timing, marks, as_utc(deadline), phase_type, index, as_utc(last_in))
    return min((m for m in moments if m > now), default=None)


def processed_at(
    settings: dict[str, Any], marks: Marks, deadline: datetime | None, phase_type: str, index: int
) -> datetime | None:
    """When the phase is processed at its deadline (the end of grace) if its orders do not come in first; None
    in a manual game, without a deadline, or once it is processed."""
    timing = timing_from_settings(settings)
    if deadline is None or timing.manual or marks.processed == index:
        return None
    return grace_end(as_utc(deadline), timing, phase_type)


def _owing(sides: list[Side], due: Plan, addresses: dict[str, str]) -> list[tuple[Side, list[str], list[str], str]]:
    """Each side that owes orders or has orders with errors, once: the side, its powers with no orders on file,
    those with errors, and its player's address (a side nobody plays is left out: there is nobody to tell)."""
    found = []
    for side, powers in owed_by_sides(sides, [*due.missing, *due.faulty]):
        address = next((addresses[power] for power in side.powers if power in addresses), None)
        if address is not None:
            missing = [power for power in powers if power in due.missing]
            found.append((side, missing, [power for power in powers if power in due.faulty], address))
    return found


def _in_part(side: Side, powers: list[str]) -> tuple[str, ...]:
    """The powers a notice names for a side: none when they are all the side has (the notice speaks to the
    player), else those powers (`England: we have no orders for 3:England, 7:England`)."""
    return () if set(powers) >= set(side.powers) else tuple(powers)


def _phase_deadline(game: Game, phase: Phase) -> PhaseDeadline:
    """The moments a reminder or late notice names."""
    deadline = as_utc(game.deadline)
    assert deadline is not None  # a notice is due only where there is a deadline (`plan`)
    timing = timing_from_settings(game.settings)
    zone = timing.zone
    return PhaseDeadline(game.variant, phase.njudge_code, deadline, grace_end(deadline, timing, phase.type.value), zone)


def latest(known: datetime | None, moment: datetime | None) -> datetime | None:
    """The later of two moments, either unknown (the last orders' arrival, read set by set)."""
    if moment is None:
        return known
    moment = as_utc(moment)
    return moment if known is None or moment > known else known


def mark(game: Game, **done: Any) -> None:
    """Remember what the judge did for a phase (`Marks`: each a phase index), with the game's own update."""
    game.marks = replace(game.marks, **done)


class Deadlines(UseCase):
    """What the deadline's rules do to a game the caller holds under its lock."""

    def look(self, s: Session, game: Game) -> tuple[Look, Phase]:
        """The game as the rules decide on it, read under its lock, and its phase."""
        rules = get_variant(game.variant).rules(game.options)
        assert game.position is not None
        position = position_from_json(rules, game.position)
        sets: dict[str, bool] = {}
        last_in: datetime | None = None
        for power, has_errors, submitted_at in s.execute(
            select(OrderSet.power, OrderSet.has_errors, OrderSet.submitted_at).where(
                OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index
            )
        ):
            sets[power] = has_errors
            last_in = latest(last_in, submitted_at)
        seats = tuple((seat.power, seat.status, seat.wait) for seat in game.seats if seat.power)
        look = Look.of(game, position.phase.type, frozenset(powers_to_order(rules, position)), seats, sets, last_in)
        return look, position.phase

    def keep(self, s: Session, game: Game) -> list[str]:
        """Do what is due now for a game the caller holds under its lock, in the caller's transaction; returns
        what was done, one line each (for the log and the tests)."""
        if game.status != GameStatus.ACTIVE or game.position is None:  # paused or ended since it was found due
            return []
        look, phase = self.look(s, game)
        due = plan(look, self.clock.now())
        name, index = game.name, game.phase_index
        said = get_variant(game.variant).phase_name(phase)  # "Fall 450 BC Movement", as players read it
        if due.early:
            return self._process(game, f"{name}: {due.early}, {said} processed early")
        audience = audience_of(game)
        sides = sides_of(game)
        done: list[str] = []
        if due.remind:
            moments = _phase_deadline(game, phase)
            for side, missing, faulty, address in _owing(sides, due, audience.players):
                reminder = Reminder(
                    game=name, phase=said, power=side.label, signon=side.name, missing=bool(missing),
                    deadline=moments, address=address, owing=_in_part(side, missing),
                    with_errors=_in_part(side, faulty),
                )  # fmt: skip
                self.raise_event(s, game, reminder)
            mark(game, reminded=index, reminders=reminder_due(timing_from_settings(game.settings), game.marks,
                                                              moments.deadline, index, self.clock.now()))  # fmt: skip
            done.append(f"{name}: reminded {', '.join(owed_texts(sides, [*due.missing, *due.faulty])) or 'nobody'}")
        if due.late:
            owing = [(side, missing, address) for side, missing, _, address in _owing(sides, due, audience.players)]
            late = OrdersLate(
                game=name, phase=said, missing=tuple(owed_texts(sides, due.missing)),
                faulty=tuple(owed_texts(sides, due.faulty)), deadline=_phase_deadline(game, phase),
                audience=audience, addresses={side.label: address for side, missing, address in owing if missing},
                owing={side.label: _in_part(side, missing) for side, missing, _ in owing if missing},
                to_all=section(game.settings, "late").get("to") == "all",
            )  # fmt: skip
            self.raise_event(s, game, late)
            mark(game, late=index)
            done.append(f"{name}: late notices to {', '.join(late.missing) or 'nobody'}")
        if due.at_grace == "tell GM":
            self.raise_event(s, game, PhaseDue(game=name, phase=said, audience=audience))
            mark(game, gm_told=index)
            done.append(f"{name}: the GM was told the phase is due")
        elif due.at_grace == "wait":
            powers = tuple(owed_texts(sides, due.unfilled))
            self.raise_event(s, game, WaitingForReplacements(game=name, phase=said, powers=powers, audience=audience))
            mark(game, gm_told=index)
            done.append(f"{name}: waiting for replacements")
        elif due.at_grace == "process":
            done.extend(self._process(game, f"{name}: {said} processed at the deadline"))
        return done

    def _process(self, game: Game, what: str) -> list[str]:
        """Process the phase of a game the caller's transaction holds; its results go to everyone in it."""
        mark(game, processed=game.phase_index)
        assert self.store.session is not None
        with self.store.session.no_autoflush:  # the mark goes out with the phase's own update of the game
            processed = Adjudication(self.store, self.clock, self.events).process_held(game)  # same unit of work
        return [what + (f"; late: {', '.join(processed.late)}" if processed.late else "")]
