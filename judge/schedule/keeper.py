"""The deadline keeper: decides when to wake and which games have something due, takes each of those under its row
lock (several judge processes share one database), and coordinates the pictures drawn ahead of the deadline. What
is due -- early processing when every order is in, reminders before the deadline, late notices after it,
processing at the end of grace -- is the deadline's rules', a use case of the game layer (`judge.game.deadlines`),
which raises the events the notifier words; the keeper raises none and writes no deadline itself.

The games table is the source of truth: the keeper keeps no state of its own (only the powers each position has
to order, parsed once), so a judge that was down catches up on its first round, and several judges on one database
do each thing once: a game is dealt with under its row lock, and only while its phase is the one found due. What
was done for a phase is remembered in the game's marks (`judge.store.Marks`: the phase index).

A round reads every active game at once (three queries) and decides which have something due, with the same function
(`judge.game.deadlines.plan`) that decides again under the lock; only those games are locked, so a round with
nothing due costs a few milliseconds whatever the number of games. The due games are taken by one statement each:
the first of a group of 50 that no other transaction holds (`SKIP LOCKED`) and whose phase is still the one found
due, so several judge processes divide a crowded minute between them without ever waiting for, or redoing, each
other's games. A game then costs one transaction of about ten statements: the lock (with seats, players and the GM),
its order sets, the phase record, one update of the game and of its seats, held press, and every mail it sends in
one insert. A game whose work fails is logged and left for a later round; the others go on.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select, tuple_
from sqlalchemy.orm import joinedload, selectinload

from judge.clock import SYSTEM_CLOCK, Clock, as_utc
from judge.config import Config
from judge.contract import position_from_json
from judge.engine.phase import PhaseType
from judge.engine.supply import powers_to_order
from judge.game import Games
from judge.game.deadlines import Look, latest, mark, next_moment, plan, processed_at
from judge.game.use_case import phase_name
from judge.mail.admin_events import GameWorkFailed
from judge.mail.notifier import Notifier
from judge.mail.outbox import queue_rows
from judge.schedule.predraw import PicturePool
from judge.store import Database, Game, GameStatus, OrderSet, Seat
from judge.store.outage import first_line, is_unavailable
from judge.variants import get_variant

log = logging.getLogger(__name__)

_CHAIN = 4
"""phases of one game processed in one tick at most (a retreat phase with only destroyed units, then an
adjustment with nothing due)"""


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

        One read of every active game finds the games with something due (`judge.game.deadlines.plan`); each of those is
        then taken under its row lock, looked at again and dealt with in a transaction of its own. The games are taken a
        group at a time, each time the first of the group that no other transaction holds (`SKIP LOCKED`) and whose
        phase is still the one found due: several judge processes divide a crowded minute between them, never queue
        behind each other, and pass over a game another has done, or holds, at no cost. A game whose work fails is
        logged and left for a later round: it never holds up the others."""
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
                    Game.id, Game.name, Game.phase_index, Game.version, Game.settings, Game.marks, Game.deadline,
                    Game.position["phase"]["type"].as_string(),
                ).where(Game.status == GameStatus.ACTIVE, Game.deadline.is_not(None)).order_by(Game.name)
            ).all()  # fmt: skip
            due: list[tuple[datetime, int, str, int, int]] = []
            for game_id, name, index, version, settings, marks, deadline, kind in games:
                if kind is None:
                    continue
                moment = processed_at(settings, marks, deadline, str(kind), index)
                if moment is not None and now < moment <= now + DRAW_AHEAD:
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
        """The next instant something will fall due (the scheduler sleeps until then). Two queries of small columns
        (the phase's type read inside the position, not the position; when each game's last orders came in, from
        which its delay before early processing runs)."""
        now = self.clock.now()
        with self.db.transaction() as s:
            rows = s.execute(
                select(
                    Game.id, Game.settings, Game.marks, Game.deadline, Game.phase_index,
                    Game.position["phase"]["type"].as_string(),
                ).where(Game.status == GameStatus.ACTIVE)
            ).all()  # fmt: skip
            # when each game's last orders came in: the delay before early processing runs from it (timing.delay)
            last_in = dict(
                s.execute(
                    select(OrderSet.game_id, func.max(OrderSet.submitted_at))
                    .join(Game, (Game.id == OrderSet.game_id) & (Game.phase_index == OrderSet.phase_index))
                    .where(Game.status == GameStatus.ACTIVE)
                    .group_by(OrderSet.game_id)
                ).all()
            )
        found = [
            moment
            for game_id, settings, marks, deadline, index, kind in rows
            if kind is not None
            and (moment := next_moment(settings, marks, deadline, str(kind), index, now, last_in.get(game_id)))
        ]
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
                    Game.id, Game.name, Game.version, Game.phase_index, Game.settings, Game.marks, Game.absences,
                    Game.deadline, Game.variant, Game.options,
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
            last_in: dict[int, datetime | None] = {}
            for game_id, power, has_errors, submitted_at in s.execute(
                select(OrderSet.game_id, OrderSet.power, OrderSet.has_errors, OrderSet.submitted_at)
                .join(Game, (Game.id == OrderSet.game_id) & (Game.phase_index == OrderSet.phase_index))
                .where(Game.status == GameStatus.ACTIVE)
            ):
                sets.setdefault(game_id, {})[power] = has_errors
                last_in[game_id] = latest(last_in.get(game_id), submitted_at)
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
                look = Look.of(game, phase_type, due, tuple(seats.get(game.id, ())), sets.get(game.id, {}),
                               last_in.get(game.id))  # fmt: skip
                due_now = plan(look, now)
                if due_now:
                    found.append((game.id, game.name, game.phase_index))
                if due_now.early:
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
                    done.extend(games.deadlines.keep(s, game))
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
            if game is None or game.marks.failed == game.phase_index:
                return False
            mark(game, failed=game.phase_index)
            try:
                phase = phase_name(game.position or {})
            except (KeyError, TypeError, ValueError):  # an unknown variant is a KeyError
                phase = f"phase {game.phase_index}"  # the position itself may be what failed
            event = GameWorkFailed(game=game.name, phase=phase, gm=game.gm.address, error=error)
            queue_rows(s, self.notifier.rows([event], now=self.clock.now(), game_id=game.id))
        if self.on_queued is not None:
            self.on_queued()
        return True
