"""The deadline keeper: looks at every running game and does what has fallen due -- early processing when every
order is in, reminders before the deadline, late notices after it, processing at the end of grace.

The games table is the source of truth: the keeper keeps no state of its own (only the powers each position has
to order, parsed once), so a judge that was down catches up on its first round, and several judges on one database
do each thing once: a game is dealt with under its row lock, and only while its phase is the one found due. What
was done for a phase is remembered in the game's settings (`_reminded`, `_late`, `_gm_told`, `_processed`: the
phase index).

A round reads every active game at once (three queries) and decides which have something due, with the same
function (`_plan`) that decides again under the lock; only those games are locked, so a round with nothing due
costs a few milliseconds whatever the number of games. The due games are taken by one statement each: the first of
a group of 50 that no other transaction holds (`SKIP LOCKED`) and whose phase is still the one found due, so
several judge processes divide a crowded minute between them without ever waiting for, or redoing, each other's
games. A game then costs one transaction of about ten statements: the lock (with seats, players and the GM), its
order sets, the phase record, one update of the game and of its seats, held press, and every mail it sends in one
insert. A game whose work fails is logged and left for a later round; the others go on.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from sqlalchemy import func, select, tuple_
from sqlalchemy.orm import Session, joinedload, selectinload

from judge.clock import SYSTEM_CLOCK, Clock, as_utc
from judge.config import Config
from judge.contract import position_from_json
from judge.engine.phase import Phase, PhaseType
from judge.engine.supply import powers_to_order
from judge.game import Games
from judge.game.attendance import held_away, owed_by_sides, owed_texts
from judge.game.events import OrdersLate, PhaseDue, Reminder, WaitingForReplacements
from judge.game.timing import grace_end, reminder_time, timing_from_settings
from judge.game.use_case import audience_of, phase_name, sides_of
from judge.mail.admin_events import GameWorkFailed
from judge.mail.notifier import Notifier
from judge.mail.outbox import queue_rows
from judge.render.dates import deadline_text, span_text, when_text
from judge.schedule.predraw import PicturePool
from judge.store import Database, Game, GameStatus, OrderSet, Seat, SeatStatus
from judge.store.outage import first_line, is_unavailable
from judge.variants import Side, get_variant

log = logging.getLogger(__name__)

_CHAIN = 4
"""phases of one game processed in one tick at most (a retreat phase with only destroyed units, then an
adjustment with nothing due)"""


@dataclass(frozen=True)
class _Look:
    """What the keeper decides on for one game: the same whether read for every game at once (to find the games
    with something due) or read under the game's lock (to do it)."""

    index: int
    settings: dict[str, Any]
    deadline: datetime | None
    phase_type: PhaseType
    due: frozenset[str]
    """the powers with orders to give in this phase (`powers_to_order`)"""
    seats: tuple[tuple[str, str, bool], ...]
    """(power, status, SET WAIT) of every seat with a power"""
    sets: dict[str, bool]
    """the powers with orders on file for this phase: power -> the set has errors"""


@dataclass(frozen=True)
class _Plan:
    """What is due for one game now, in the order it is done."""

    missing: list[str] = field(default_factory=list)
    """the powers that owe orders and have none on file"""
    faulty: list[str] = field(default_factory=list)
    """the powers that owe orders and whose orders on file have errors"""
    early: str | None = None
    """why the phase goes early, when it does"""
    remind: bool = False
    late: bool = False
    at_grace: Literal["process", "tell GM", "wait"] | None = None
    """at the end of grace: "process", "tell GM" (a manual game) or "wait" (for replacements: `unfilled`)"""
    unfilled: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.early or self.remind or self.late or self.at_grace)


def _plan(look: _Look, now: datetime) -> _Plan:
    """What is due for a game at `now`: the keeper's whole decision, a pure function of the look.

    Reckoned per power owed (docs/deadlines.md, "Several powers to a player"): the phase waits for every power
    that owes orders in it, a Hepta player's seven board-nations and a Hoplite Major and its Minor each apart, and
    goes early only when each has orders on file without errors; a side that ordered some of its powers still
    owes the others (its reminder and late notice name them: `DeadlineKeeper._game`)."""
    settings, index = look.settings, look.index
    timing = timing_from_settings(settings)
    # not waited for: powers in civil disorder, or away under `absence.mode=hold` (`judge.game.attendance`)
    disorder = {power for power, status, _ in look.seats if status == SeatStatus.CIVIL_DISORDER}
    awaited = look.due - disorder - held_away(settings, now)
    missing = sorted(awaited - look.sets.keys())
    faulty = sorted(p for p in awaited if look.sets.get(p))
    waiting = any(wait for power, _, wait in look.seats if power in awaited)
    nothing_to_decide = not look.due and look.phase_type is not PhaseType.MOVEMENT
    early = (look.due or nothing_to_decide) and settings.get("_no_early") != index  # not after a rollback
    if not timing.manual and early and not missing and not faulty and not waiting:
        return _Plan(early="nobody has anything to decide" if nothing_to_decide else "every order is in")
    deadline = as_utc(look.deadline)
    if deadline is None:
        return _Plan()
    remind = reminder_time(deadline, timing) <= now < deadline and settings.get("_reminded") != index
    late = now >= deadline and settings.get("_late") != index and bool(missing or faulty)
    at_grace: Literal["process", "tell GM", "wait"] | None = None
    unfilled: list[str] = []
    if now >= grace_end(deadline, timing, look.phase_type.value):
        unfilled = [power for power, status, _ in look.seats if power in look.due and status == SeatStatus.VACANT]
        if timing.manual:
            at_grace = "tell GM" if settings.get("_gm_told") != index else None
        elif unfilled and settings.get("nmr") == "wait":
            at_grace = "wait" if settings.get("_gm_told") != index else None
        else:
            at_grace = "process"
    return _Plan(missing, faulty, None, remind, late, at_grace, unfilled)


def _owing(sides: list[Side], plan: _Plan, addresses: dict[str, str]) -> list[tuple[Side, list[str], list[str], str]]:
    """Each side that owes orders or has orders with errors, once: the side, its powers with no orders on file,
    those with errors, and its player's address (a side nobody plays is left out: there is nobody to tell)."""
    found = []
    for side, powers in owed_by_sides(sides, [*plan.missing, *plan.faulty]):
        address = next((addresses[power] for power in side.powers if power in addresses), None)
        if address is not None:
            missing = [power for power in powers if power in plan.missing]
            found.append((side, missing, [power for power in powers if power in plan.faulty], address))
    return found


def _in_part(side: Side, powers: list[str]) -> tuple[str, ...]:
    """The powers a notice names for a side: none when they are all the side has (the notice speaks to the
    player), else those powers (`England: we have no orders for 3:England, 7:England`)."""
    return () if set(powers) >= set(side.powers) else tuple(powers)


WARM_AHEAD = timedelta(minutes=10)
"""the picture workers are started when a deadline is this near (judge/schedule/predraw.py)"""

DRAW_AHEAD = timedelta(minutes=10)
"""the results pictures of the games to be processed this soon are drawn ahead, from the orders on file
(`DeadlineKeeper.draw_ahead`)"""
DRAW_MARGIN = timedelta(seconds=1)
"""no game is drawn ahead closer than this to the moment it is processed: the keeper is about to take it"""

_GROUP = 50
"""games taken from at a time: the first free one of a group is taken by one statement"""


class _GameFailed(Exception):
    """The work of one game failed (its transaction is undone); the round goes on with the others."""

    def __init__(self, game_id: int, name: str) -> None:
        super().__init__(name)
        self.game_id = game_id
        self.name = name


@dataclass
class Round:
    """What one pass of the keeper did."""

    done: list[str] = field(default_factory=list)
    """one line for each thing done (for the log and the tests)"""
    held: list[str] = field(default_factory=list)
    """games with something due that another transaction held (another judge process at work on them, or a mail
    being handled): look again in a moment, as that process may die before it is done"""
    failed: list[str] = field(default_factory=list)
    """games whose work failed (logged); the others went on"""


def in_turn(
    found: list[tuple[int, str, int]], drawn: set[tuple[int, str, int]], place: int, processes: int
) -> list[tuple[int, str, int]]:
    """The order in which a keeper takes the games found due, (id, name, phase index) each: those whose pictures it
    drew ahead of the deadline first (`DeadlineKeeper.draw_ahead`: they go in groups of their own), then the rest of
    its share (the ids that fall to its `place` among the `processes`), then the others' shares, whose pictures the
    others drew; each part in the order found. So two processes meet only at the end, and take no game whose
    picture the other has ready."""
    ahead = [game for game in found if game in drawn]
    rest = [game for game in found if game not in drawn]
    return ahead + sorted(rest, key=lambda game: game[0] % processes != place)  # stable: the order found kept


def _alone() -> tuple[int, int]:
    """A judge process alone on its database: place 0 of 1."""
    return 0, 1


class DeadlineKeeper:
    def __init__(self, db: Database, config: Config, clock: Clock = SYSTEM_CLOCK) -> None:
        self.db = db
        self.config = config
        self.clock = clock
        self.notifier = Notifier(config)
        self.on_queued: Callable[[], None] | None = None
        """called once a game's mail is committed to the outbound queue (the daemon wakes its sender): the results
        of the first games go out while the keeper adjudicates the next, not once the whole round is done"""
        self.pictures = PicturePool(db, config.drawing_workers, pictures=config.pictures)
        """the workers that draw the next games' results pictures while this one is adjudicated"""
        self._random = random.Random()
        self._due: dict[tuple[int, int, int], tuple[frozenset[str], PhaseType]] = {}
        """the powers to order and the phase's type, by (game id, phase index, version): a position is parsed once,
        not every round"""
        self._early: set[int] = set()
        """the games of the last round found due to be processed early (all orders in): their pictures are drawn
        before their lock when there are no workers (`PicturePool.before_lock`)"""
        self._phases: set[tuple[str, int]] = set()
        """(name, phase index) of every active game at the last round's start"""
        self._drawn_ahead: dict[int, tuple[object, ...]] = {}
        """the games whose picture was drawn ahead of their deadline, with what it was drawn from (`draw_ahead`)"""
        self.share: Callable[[], tuple[int, int]] = _alone
        """this process's place among the judge processes on the database and how many they are (the daemon gives
        `Processor.place`): the processes divide the pictures drawn ahead between them (`draw_ahead`)"""
        self._place = _alone()
        """the place found by the last drawing ahead: at the deadline, this process's share is taken before the
        others' (`work`)"""

    def tick(self) -> list[str]:
        """Do everything due now; returns what was done, one line each (for the log and the tests)."""
        return self.work().done

    def work(self) -> Round:
        """Do everything due now.

        One read of every active game finds the games with something due (`_plan`); each of those is then taken
        under its row lock, looked at again and dealt with in a transaction of its own. The games are taken a
        group at a time, each time the first of the group that no other transaction holds (`SKIP LOCKED`) and
        whose phase is still the one found due: several judge processes divide a crowded minute between them,
        never queue behind each other, and pass over a game another has done, or holds, at no cost. A game whose
        work fails is logged and left for a later round: it never holds up the others."""
        now = self.clock.now()
        result = Round()
        found = self._candidates(now)
        self.pictures.new_round()
        if self.pictures.pictures and found:
            # the pictures of the games this process takes next are drawn ahead (by the workers, or before the lock
            # without them): each process begins at a place of its own in the list, so that two do not take turns
            # down the same games (and draw each other's)
            start = self._random.randrange(len(found))
            found = found[start:] + found[:start]
        # the games whose pictures this process drew ahead of the deadline first, in groups of their own (`in_turn`)
        mine = {game for game in found if (game[1], game[2]) in self.pictures.predrawn}
        found = in_turn(found, mine, *self._place)
        ahead = found[: len(mine)]
        groups = [(start, min(start + _GROUP, len(ahead))) for start in range(0, len(ahead), _GROUP)]
        groups += [(start, min(start + _GROUP, len(found))) for start in range(len(ahead), len(found), _GROUP)]
        left: dict[int, tuple[str, int]] = {}  # games of the groups gone through that this process did not take
        for start, end in groups:
            group = {game_id: (name, index) for game_id, name, index in found[start:end]}
            while group:
                # the pictures of the games after the one taken now are drawn by the workers meanwhile
                following = [(game_id, name, index) for game_id, (name, index) in group.items()]
                self.pictures.ahead([*following[1:], *found[end : end + self.pictures.window]])
                first = min(following, key=lambda game: game[1])  # the one `_take` tries first: by name
                if first[0] in self._early:  # without workers, its picture is drawn before its lock
                    self.pictures.before_lock(*first)
                try:
                    taken = self._take(group)
                except _GameFailed as failure:
                    cause = failure.__cause__ or failure
                    if self._tell_failed(failure.game_id, first_line(cause)):
                        log.exception("the deadline work of %s failed (its GM and the admin told); the others go on",
                                      failure.name)  # fmt: skip
                    else:
                        log.warning("the deadline work of %s failed again: %s", failure.name, first_line(cause))
                    result.failed.append(failure.name)
                    group.pop(failure.game_id)
                    continue
                if taken is None:
                    break
                game_id, done = taken
                group.pop(game_id)
                result.done.extend(done)
            left.update(group)
        if found and self.pictures.enabled:
            drawn = self.pictures.predrawn
            log.info("results pictures: %d drawn ahead, %d in place (since the start)", drawn.hits, drawn.misses)
        # the pictures drawn here of phases since processed (by another process) are of no more use
        self.pictures.predrawn.keep(self._phases)
        if left:  # those still in the phase found due were held by another transaction all along
            with self.db.transaction() as s:
                still = s.scalars(
                    select(Game.name).where(
                        tuple_(Game.id, Game.phase_index).in_([(g, i) for g, (_, i) in left.items()])
                    )
                )
                result.held.extend(sorted(still))
        return result

    def draw_ahead(self, stop: threading.Event | None = None) -> int:
        """Draw the results pictures of the games to be processed within `DRAW_AHEAD` (at the end of their grace,
        automatically), from the orders on file, in this thread; returns how many were drawn.

        Games fall due together (a zine's games all at midnight), and their pictures were most of the keeper's time
        at the deadline while every player waited for it: drawn in the quiet minutes before, each is a picture of
        the outcome the orders on file give (read without a lock, adjudicated with the pure engine, as the picture
        workers do: `PicturePool.draw_here`), kept in this process (`judge.mail.predrawn`). At the deadline the
        results use it only if its outcome is the one processed (by digest); an order filed or changed after the
        drawing makes the game's picture be drawn again at the next pass, or at the deadline in place. Several judge
        processes divide the games between them (`share`): each draws the games whose id falls to its place, and
        at the deadline takes the games it drew first, then the rest of its share, then the others' (`work`), so no
        picture is drawn twice and each process's share is ready sooner; the share of a process that stops is drawn
        by the others at their next pass. Stops at `stop`, and passes over a game within `DRAW_MARGIN` of its
        moment."""
        if not self.pictures.pictures:
            return 0
        soon = self._soon_processed(self.clock.now())
        self._drawn_ahead = {game_id: seen for game_id, seen in self._drawn_ahead.items() if game_id in soon}
        if not soon:
            return 0
        place, processes = self._place = self.share()
        drawn = 0
        for game_id, (moment, name, index, seen) in soon.items():
            if stop is not None and stop.is_set():
                break
            if game_id % processes != place:
                continue  # another process's to draw
            if self._drawn_ahead.get(game_id) == seen or self.clock.now() >= moment - DRAW_MARGIN:
                continue
            if self.pictures.draw_here(game_id, name, index):
                drawn += 1
            self._drawn_ahead[game_id] = seen
        return drawn

    def _soon_processed(self, now: datetime) -> dict[int, tuple[datetime, str, int, tuple[object, ...]]]:
        """The active games to be processed automatically within `DRAW_AHEAD` of `now`, by id, in the order they
        are due (those due together from a random place on): the moment, name, phase index and what a picture
        would be drawn from (phase, position's version, how many order sets and when the last was filed). Two
        queries of small columns."""
        with self.db.transaction() as s:
            games = s.execute(
                select(
                    Game.id, Game.name, Game.phase_index, Game.version, Game.settings, Game.deadline,
                    Game.position["phase"]["type"].as_string(),
                ).where(Game.status == GameStatus.ACTIVE, Game.deadline.is_not(None)).order_by(Game.name)
            ).all()  # fmt: skip
            due: list[tuple[datetime, int, str, int, int]] = []
            for game_id, name, index, version, settings, stored, kind in games:
                deadline = as_utc(stored)
                if deadline is None or kind is None or settings.get("_processed") == index:
                    continue
                timing = timing_from_settings(settings)
                moment = grace_end(deadline, timing, str(kind))
                if not timing.manual and now < moment <= now + DRAW_AHEAD:
                    due.append((moment, game_id, name, index, version))
            if not due:
                return {}
            filed = {
                game_id: (count, last)
                for game_id, count, last in s.execute(
                    select(OrderSet.game_id, func.count(), func.max(OrderSet.submitted_at))
                    .where(tuple_(OrderSet.game_id, OrderSet.phase_index).in_([(g, i) for _, g, _, i, _ in due]))
                    .group_by(OrderSet.game_id)
                )
            }
        start = self._random.randrange(len(due))
        turned = sorted(due[start:] + due[:start], key=lambda game: game[0])  # stable: the turn kept among equals
        return {
            game_id: (moment, name, index, (index, version, *filed.get(game_id, (0, None))))
            for moment, game_id, name, index, version in turned
        }

    def close(self) -> None:
        """Stop the picture workers (the daemon's shutdown)."""
        self.pictures.close()

    def fingerprint(self) -> int:
        """The active games' deadlines and phases, as one number: it changes when any of them is changed, by this
        process or another on the database."""
        with self.db.transaction() as s:
            rows = s.execute(
                select(Game.name, Game.deadline, Game.phase_index, Game.status)
                .where(Game.status == GameStatus.ACTIVE)
                .order_by(Game.name)
            ).all()
        return hash(tuple((name, as_utc(deadline), index, status) for name, deadline, index, status in rows))

    def next_due(self) -> datetime | None:
        """The next instant something will fall due (the scheduler sleeps until then). One query of small columns
        (the phase's type read inside the position, not the position)."""
        now = self.clock.now()
        found: list[datetime] = []
        with self.db.transaction() as s:
            rows = s.execute(
                select(
                    Game.settings, Game.deadline, Game.phase_index, Game.position["phase"]["type"].as_string()
                ).where(Game.status == GameStatus.ACTIVE)
            ).all()
        for settings, stored_deadline, index, kind in rows:
            deadline = as_utc(stored_deadline)
            if deadline is None or kind is None:
                continue
            timing = timing_from_settings(settings)
            for moment, key in (
                (reminder_time(deadline, timing), "_reminded"),
                (deadline, "_late"),
                (grace_end(deadline, timing, str(kind)), "_gm_told" if timing.manual else "_processed"),
            ):
                if moment > now and settings.get(key) != index:
                    found.append(moment)
        upcoming = min(found) if found else None
        if upcoming is not None and upcoming - now <= WARM_AHEAD:
            self.pictures.start()  # the picture workers are up when the games fall due
        return upcoming

    # --- finding the games with something due ------------------------------------------------------------

    def _candidates(self, now: datetime) -> list[tuple[int, str, int]]:
        """(id, name, phase index) of the active games with something due at `now`, by name: three queries for all
        of them (games, seats, order sets), and the positions of games not seen since they last changed."""
        with self.db.transaction() as s:
            games = s.execute(
                select(
                    Game.id, Game.name, Game.version, Game.phase_index, Game.settings, Game.deadline, Game.variant,
                    Game.options,
                ).where(Game.status == GameStatus.ACTIVE).order_by(Game.name)
            ).all()  # fmt: skip
            seats: dict[int, list[tuple[str, str, bool]]] = {}
            for game_id, power, status, wait in s.execute(
                select(Seat.game_id, Seat.power, Seat.status, Seat.wait)
                .join(Game, Game.id == Seat.game_id)
                .where(Game.status == GameStatus.ACTIVE, Seat.power.is_not(None))
            ):
                if power is not None:
                    seats.setdefault(game_id, []).append((power, status, wait))
            sets: dict[int, dict[str, bool]] = {}
            for game_id, power, has_errors in s.execute(
                select(OrderSet.game_id, OrderSet.power, OrderSet.has_errors)
                .join(Game, (Game.id == OrderSet.game_id) & (Game.phase_index == OrderSet.phase_index))
                .where(Game.status == GameStatus.ACTIVE)
            ):
                sets.setdefault(game_id, {})[power] = has_errors
            keys = {game.id: (game.id, game.phase_index, game.version) for game in games}
            self._phases = {(game.name, game.phase_index) for game in games}
            unknown = [game.id for game in games if keys[game.id] not in self._due]
            positions: dict[int, tuple[int, dict[str, Any] | None]] = {}
            if unknown:
                for game_id, version, stored in s.execute(
                    select(Game.id, Game.version, Game.position).where(Game.id.in_(unknown))
                ):
                    positions[game_id] = (version, stored)
        known = {key: self._due[key] for key in keys.values() if key in self._due}
        found = []
        early: set[int] = set()
        for game in games:
            key = keys[game.id]
            try:
                if key not in known:
                    version, stored = positions.get(game.id, (None, None))
                    if version != game.version or stored is None:
                        # changed since the first query (by another process): look at it under its lock
                        found.append((game.id, game.name, game.phase_index))
                        continue
                    rules = get_variant(game.variant).rules(game.options)
                    position = position_from_json(rules, stored)
                    known[key] = (frozenset(powers_to_order(rules, position)), position.phase.type)
                due, phase_type = known[key]
                look = _Look(
                    game.phase_index,
                    game.settings,
                    game.deadline,
                    phase_type,
                    due,
                    tuple(seats.get(game.id, ())),
                    sets.get(game.id, {}),
                )
                plan = _plan(look, now)
                if plan:
                    found.append((game.id, game.name, game.phase_index))
                if plan.early:
                    early.add(game.id)
            except Exception:  # a game the keeper cannot read: its own round says why, and the others go on
                found.append((game.id, game.name, game.phase_index))
        self._due = known  # only the games still active are remembered
        self._early = early
        return found

    # --- one game ------------------------------------------------------------------------------------------

    def _take(self, group: dict[int, tuple[str, int]]) -> tuple[int, list[str]] | None:
        """Take the first game of the group that no other transaction holds and whose phase is still the one found
        due, and do what is due for it under its row lock, in one transaction -- with the phases that follow at
        once (a phase nobody has to play). Returns the game's id and what was done; None when the group has no
        such game left."""
        with self.db.transaction() as s:
            game = s.scalar(
                select(Game)
                .where(
                    tuple_(Game.id, Game.phase_index).in_([(game_id, index) for game_id, (_, index) in group.items()])
                )
                .order_by(Game.name)
                .limit(1)
                .options(selectinload(Game.seats).joinedload(Seat.player), joinedload(Game.gm))
                .with_for_update(of=Game, skip_locked=True)  # another process has it: the next one
            )
            if game is None:
                return None
            game_id, name = game.id, game.name
            try:
                done: list[str] = []
                games = Games(self.db, self.clock).bound(s)
                for _ in range(_CHAIN):
                    before = game.phase_index
                    done.extend(self._game(s, game, games))
                    if game.phase_index == before or game.status != GameStatus.ACTIVE:
                        break
                mails = self.notifier.rows(games.take_events(), now=self.clock.now(), game_id=game.id)
                queue_rows(s, mails)  # every mail of the game in one insert
                s.flush()
            except Exception as error:
                if is_unavailable(error):
                    raise  # the database's failure, not the game's: its work is done again when it answers
                raise _GameFailed(game_id, name) from error
        if mails and self.on_queued is not None:
            self.on_queued()
        return game_id, done

    def _tell_failed(self, game_id: int, error: str) -> bool:
        """The admin and the game's GM told that its work failed, once for the phase (the mark `_failed` kept with
        the game, under its row lock: one process tells, once, however often the work is tried again). Returns
        whether they were told now; False also when another process holds the game (it tells, if anyone)."""
        with self.db.transaction() as s:
            game = s.scalar(
                select(Game)
                .where(Game.id == game_id)
                .options(joinedload(Game.gm))
                .with_for_update(of=Game, skip_locked=True)
            )
            if game is None or game.settings.get("_failed") == game.phase_index:
                return False
            self._mark(game, "_failed", game.phase_index)
            try:
                phase = phase_name(game.position or {})
            except (KeyError, TypeError, ValueError):  # an unknown variant is a KeyError
                phase = f"phase {game.phase_index}"  # the position itself may be what failed
            event = GameWorkFailed(game=game.name, phase=phase, gm=game.gm.address, error=error)
            queue_rows(s, self.notifier.rows([event], now=self.clock.now(), game_id=game.id))
        if self.on_queued is not None:
            self.on_queued()
        return True

    def _game(self, s: Session, game: Game, games: Games) -> list[str]:
        """Do what is due for a game held under its lock; what it did is said as events on `games`."""
        if game.status != GameStatus.ACTIVE or game.position is None:  # paused or ended since it was found due
            return []
        now = self.clock.now()
        rules = get_variant(game.variant).rules(game.options)
        position = position_from_json(rules, game.position)
        sets = {
            power: has_errors
            for power, has_errors in s.execute(
                select(OrderSet.power, OrderSet.has_errors).where(
                    OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index
                )
            )
        }
        look = _Look(
            game.phase_index,
            game.settings,
            game.deadline,
            position.phase.type,
            frozenset(powers_to_order(rules, position)),
            tuple((seat.power, seat.status, seat.wait) for seat in game.seats if seat.power),
            sets,
        )
        plan = _plan(look, now)
        name, index = game.name, game.phase_index
        phase = get_variant(game.variant).phase_name(position.phase)  # "Fall 450 BC Movement", as players read it
        audience = audience_of(game)
        done: list[str] = []
        if plan.early:
            return self._process(game, f"{name}: {plan.early}, {phase} processed early", games)
        sides = sides_of(game)
        if plan.remind:
            notice = self._notice(game, position.phase)
            for side, missing, faulty, address in _owing(sides, plan, audience.players):
                reminder = Reminder(
                    game=name, phase=phase, power=side.label, signon=side.name, missing=bool(missing), notice=notice,
                    address=address, owing=_in_part(side, missing), with_errors=_in_part(side, faulty),
                )  # fmt: skip
                games.events.append(reminder)
            self._mark(game, "_reminded", index)
            done.append(f"{name}: reminded {', '.join(owed_texts(sides, [*plan.missing, *plan.faulty])) or 'nobody'}")
        if plan.late:
            owing = [(side, missing, address) for side, missing, _, address in _owing(sides, plan, audience.players)]
            late = OrdersLate(
                game=name, phase=phase, missing=tuple(owed_texts(sides, plan.missing)),
                faulty=tuple(owed_texts(sides, plan.faulty)), notice=self._notice(game, position.phase),
                audience=audience, addresses={side.label: address for side, missing, address in owing if missing},
                owing={side.label: _in_part(side, missing) for side, missing, _ in owing if missing},
            )  # fmt: skip
            games.events.append(late)
            self._mark(game, "_late", index)
            done.append(f"{name}: late notices to {', '.join(late.missing) or 'nobody'}")
        if plan.at_grace == "tell GM":
            games.events.append(PhaseDue(game=name, phase=phase, audience=audience))
            self._mark(game, "_gm_told", index)
            done.append(f"{name}: the GM was told the phase is due")
        elif plan.at_grace == "wait":
            waiting = WaitingForReplacements(
                game=name, phase=phase, powers=tuple(owed_texts(sides, plan.unfilled)), audience=audience
            )
            games.events.append(waiting)
            self._mark(game, "_gm_told", index)
            done.append(f"{name}: waiting for replacements")
        elif plan.at_grace == "process":
            done.extend(self._process(game, f"{name}: {phase} processed at the deadline", games))
        return done

    def _process(self, game: Game, what: str, games: Games) -> list[str]:
        """Process the phase of a game this transaction holds; its results go to everyone in it (the notifier)."""
        self._mark(game, "_processed", game.phase_index)
        assert games.store.session is not None
        with games.store.session.no_autoflush:  # the marks go out with the phase's own update of the game
            processed = games.adjudication.process_held(game)
        return [what + (f"; late: {', '.join(processed.late)}" if processed.late else "")]

    @staticmethod
    def _notice(game: Game, phase: Phase) -> dict[str, Any]:
        """What a reminder or late notice prints: the njudge header, the deadline and its grace."""
        deadline = as_utc(game.deadline)
        assert deadline is not None
        timing = timing_from_settings(game.settings)
        grace = timing.for_phase(phase.type.value).grace_hours
        end = grace_end(deadline, timing, phase.type.value)
        return {
            "game": game.name,
            "variant": game.variant,
            "code": phase.code,
            "deadline_code": phase.code,
            "deadline": deadline_text(deadline),
            "due": when_text(deadline, timing.zone),
            "phase": get_variant(game.variant).phase_name(phase),
            "grace": span_text(timedelta(hours=grace)) if grace else None,
            "grace_end": when_text(end, timing.zone) if end > deadline else None,
        }

    @staticmethod
    def _mark(game: Game, key: str, index: int) -> None:
        game.settings = {**game.settings, key: index}
