"""The keeper's picture workers: the results' pictures of the next due games, drawn in other processes.

At each game it takes, the keeper hands the pool the next few games of its round (`ahead`): they are read without a
lock (position, orders on file, options, seed: one query for the games, one for their orders) and each is sent to a
worker process, which adjudicates it with the pure engine and draws its picture (`judge.mail.predrawn.draw`). The
results of that phase, composed later under the game's lock, use the picture when its outcome is the one processed
(`judge.mail.predrawn`), so a phase's processing and the queueing of its mail stay one transaction and nothing the
workers do can change what is mailed: without workers, with a broken pool or a changed order, the picture is drawn
where the results are composed, as before.

The pool starts on the first round with games due (`Config.drawing_workers` processes; 0: none), with the
'spawn' method: the daemon runs threads, and a forked copy of a threaded process may inherit a lock held by a
thread that does not exist in the copy. A worker that dies breaks the pool: that is logged once, the pictures are
drawn in place, and a new pool is started at a later round (at most `RESTARTS` times).
"""

from __future__ import annotations

import logging
import multiprocessing
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from sqlalchemy import select, tuple_

from judge.mail.predrawn import PREDRAWN, Ahead, Drawn, Predrawn, draw, warm
from judge.store import Database, Game, GameStatus, OrderSet

log = logging.getLogger(__name__)

RESTARTS = 3
"""new pools after a broken one, at most, in the life of a process: a worker that keeps dying is not fed forever"""


LOOKAHEAD = 4
"""how far down the keeper's list (in windows) games are drawn ahead: the games between that another judge process
took are passed over, and the pictures drawn stay few enough to be used before the cache (`KEPT`) drops them"""


class PicturePool:
    """The worker processes that draw the next due games' pictures, and what this round has handed them; without
    workers, the keeper's own thread draws the picture of the game it is about to lock (`before_lock`)."""

    def __init__(
        self,
        db: Database,
        workers: int,
        window: int | None = None,
        predrawn: Predrawn = PREDRAWN,
        *,
        pictures: bool = True,
    ) -> None:
        self.db = db
        self.pictures = pictures
        """whether results carry pictures at all (`[judge] pictures`): if not, nothing is drawn, here or ahead"""
        self.workers = max(0, workers) if pictures else 0
        self.window = window if window is not None else 2 * self.workers
        """pictures being drawn at most: enough to keep every worker busy, few enough that the games another judge
        process takes meanwhile cost little"""
        self.predrawn = predrawn
        self.predrawn.on_failure = self._failed
        self._pool: ProcessPoolExecutor | None = None
        self._ready: Future[None] | None = None
        """done once a worker has started and imported what it draws with"""
        self._broken = False
        self._restarts = 0
        self._asked: set[tuple[int, int]] = set()
        """(game id, phase index) read this round: each game is read once a round, handed out or not"""

    @property
    def enabled(self) -> bool:
        return self.workers > 0 and self._restarts <= RESTARTS

    def new_round(self) -> None:
        """A round begins: every due game may be read again (what is still in `predrawn` stays usable)."""
        self._asked.clear()

    def ahead(self, upcoming: Sequence[tuple[int, str, int]]) -> None:
        """Hand the workers the first games of `upcoming` (id, name, phase index: the keeper's next games, in the
        order it takes them) not yet handed out this round and still in that phase, while fewer than `window` are
        being drawn."""
        if not self.enabled:
            return
        room = self.window - self.predrawn.pending()
        if room <= 0:
            return
        wanted = [
            (game_id, index)
            for game_id, name, index in upcoming[: LOOKAHEAD * self.window]
            if (game_id, index) not in self._asked and (name, index) not in self.predrawn
        ][:room]
        if not wanted:
            return
        pool = self.start()
        if pool is None or not self.ready():
            return  # the workers are still starting: the results draw their own meanwhile, and nobody waits
        self._asked.update(wanted)
        for ahead in self._read(wanted):
            try:
                future = pool.submit(draw, ahead)
            except BrokenProcessPool as error:
                self._failed(error)
                return
            except RuntimeError:  # shut down meanwhile (the daemon stops): the results draw their own
                return
            except Exception as error:  # a worker that cannot be started
                self._off(error)
                self.close()
                return
            self.predrawn.offer(ahead.game, ahead.index, future)

    def before_lock(self, game_id: int, name: str, index: int) -> None:
        """Without workers: the picture of a game the keeper is about to process early (its orders all in), drawn
        here before its lock is taken (read without a lock, adjudicated with the pure engine, as a worker would), so
        that the lock is held for the adjudication and its writes only. Such a game is processed in the middle of its
        players' mail, and drawn under the lock its picture (about 0.15 s) held up every mail to the game meanwhile --
        and the mail processor's whole batch with it. Not at a deadline: there the keeper's own time is what every
        player waits for, and the unlocked read and second adjudication (with two processes, some pictures of games
        the other took) cost 6 to 14 % of a 1,000-game rush. A failure here is logged and the picture drawn in place,
        as before."""
        if self.enabled or not self.pictures or (name, index) in self.predrawn:
            return
        self.draw_here(game_id, name, index)

    def draw_here(self, game_id: int, name: str, index: int) -> bool:
        """The picture of a game's phase as it stands (read without a lock, adjudicated with the pure engine, as a
        worker would), drawn in this thread and put in `predrawn` in place of any drawn before; whether it was (a
        game no longer active or in that phase is not). A failure is logged: the picture is drawn in place."""
        for ahead in self._read([(game_id, index)]):
            drawn: Future[Drawn] = Future()
            try:
                drawn.set_result(draw(ahead))
            except Exception as error:
                log.warning("drawing %s's picture ahead failed (%r): it is drawn in place", name, error)
                return False
            self.predrawn.offer(ahead.game, ahead.index, drawn)
            return True
        return False

    def ready(self, timeout: float = 0.0) -> bool:
        """Whether the workers are up (`start`), waiting for them at most `timeout` seconds."""
        if self._ready is None:
            return False
        try:
            self._ready.result(timeout=timeout)
        except TimeoutError:  # still starting
            return False
        except BrokenProcessPool as error:  # died starting: a new pool at a later round
            self._failed(error)
            return False
        except Exception as error:
            self._off(error)
            return False
        return True

    def close(self) -> None:
        """Stop the workers (the daemon's shutdown): what is not begun is cancelled."""
        self.predrawn.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def start(self) -> ProcessPoolExecutor | None:
        """The pool, started now if it is not yet (or was broken); None when it cannot be had. Its workers start
        in the background (`_ready`): the keeper calls this when a deadline is near, so that they are up when it
        falls due."""
        if not self.enabled:
            return None
        if self._broken and self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._broken = False
            self._restarts += 1
            if not self.enabled:
                log.warning("the picture workers broke %d times: results pictures are drawn in place", RESTARTS + 1)
                return None
        if self._pool is None:
            pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
            try:
                self._ready = pool.submit(warm)
            except Exception as error:  # no processes to be had here (a daemonic process may have no children)
                pool.shutdown(wait=False, cancel_futures=True)
                self._off(error)
                return None
            self._pool = pool
        return self._pool

    def _off(self, error: BaseException) -> None:
        """No workers for this process: said once; the pictures are drawn in place."""
        log.warning("no picture workers (%r): results pictures are drawn in place", error)
        self.workers = 0

    def _failed(self, error: BaseException) -> None:
        """A worker's failure: a broken pool is said once and replaced at a later round; one failed picture is
        drawn in place."""
        if isinstance(error, BrokenProcessPool):
            if not self._broken:
                log.warning("a picture worker died (%s): pictures are drawn in place until a new pool starts", error)
            self._broken = True
        else:
            log.warning("a picture worker failed: %r; the picture is drawn in place", error)

    def _read(self, wanted: list[tuple[int, int]]) -> list[Ahead]:
        """The games to draw, read without a lock, still active and in the phase found due."""
        with self.db.transaction() as s:
            games = s.execute(
                select(Game.id, Game.name, Game.phase_index, Game.variant, Game.options, Game.position, Game.seed)
                .where(tuple_(Game.id, Game.phase_index).in_(wanted), Game.status == GameStatus.ACTIVE)
                .order_by(Game.name)
            ).all()
            orders: dict[int, dict[str, tuple[list[str], list[Any]]]] = {}
            for game_id, power, lines, stored in s.execute(
                select(OrderSet.game_id, OrderSet.power, OrderSet.lines, OrderSet.orders)
                .where(tuple_(OrderSet.game_id, OrderSet.phase_index).in_(wanted))
                .order_by(OrderSet.game_id, OrderSet.power)
            ):
                orders.setdefault(game_id, {})[power] = (list(lines), list(stored))
        return [
            Ahead(name, index, variant, dict(options), position, orders.get(game_id, {}), seed)
            for game_id, name, index, variant, options, position, seed in games
            if position is not None
        ]
