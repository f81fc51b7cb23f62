"""Results pictures drawn ahead, in worker processes, while the keeper adjudicates the games before them.

The map picture of a results mail costs about 50 ms of CPU a game and holds the interpreter's lock, so drawn where
the results are composed it waits for, and holds up, the keeper, the sender and the processor of its process. It is
a pure function of the phase's outcome (with the game's name and phase code, which name its file), and the outcome
a pure function of what the game holds before the phase is processed (position, orders on file, options, the
phase's seed). So the keeper reads the next few due games without a lock and hands them to a process pool
(judge/schedule/predraw.py), which adjudicates each with the pure engine and draws its picture (`draw`).

When the keeper then processes the game under its lock, in the transaction that queues its results, the results
ask this cache for the picture of the outcome they print (`take`). The worker's outcome is compared by its digest
with the one just stored: the same, the picture drawn ahead is the one that would be drawn now, byte for byte;
different (an order arrived after the read), missing, late or failed, the picture is drawn where it is needed, as
it was before. The cache never decides what is processed or mailed, only where the picture's pixels were made: the
phase's processing and the queueing of its mail stay one transaction.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import CancelledError, Future, TimeoutError
from dataclasses import dataclass
from typing import Any

from judge.contract import outcome_json, position_from_json
from judge.game.adjudication import outcome_of, phase_seed, stored_orders
from judge.mail.pictures import map_files
from judge.render.results import phase_code
from judge.variants import get_variant

log = logging.getLogger(__name__)

Files = list[tuple[str, bytes]]
"""the pictures of a results mail by file name (`map_files`)"""

WAIT_SECONDS = 2.0
"""how long the results wait for a picture a worker has begun: less than drawing it again would cost on a machine
whose cores the workers share, and bounded, so that a stuck worker never holds a game's lock for long"""
KEPT = 2000
"""pictures (or drawings under way) kept at most: a deadline's games drawn before it (`DeadlineKeeper.draw_ahead`)"""
KEPT_BYTES = 128 * 1024 * 1024
"""and the bytes of the pictures drawn at most (a standard map is about 60 KB: 2,000 games; Heptadiplomacy's seven
boards about 270 KB: 480 games), the oldest dropped first"""


@dataclass(frozen=True)
class Ahead:
    """What a worker needs to adjudicate a phase and draw its results' picture: the game as read without a lock."""

    game: str
    index: int
    variant: str
    options: dict[str, Any]
    position: dict[str, Any]
    orders: dict[str, tuple[list[str], list[Any]]]
    """the orders on file, power -> its set's lines and the values read from them as stored (`OrderSet.lines`,
    `OrderSet.orders`), by power: JSON, which a pickle carries to a worker (the reader's values are compiled
    classes, which it cannot), made values again there as the processing makes them (`stored_orders`)"""
    seed: int
    """the game's seed (`phase_seed` makes the phase's)"""


@dataclass(frozen=True)
class Drawn:
    """A worker's answer: the digest of the outcome it drew and the pictures, by file name."""

    digest: str
    stem: str
    files: Files


def digest(variant: str, outcome: dict[str, Any]) -> str:
    """The digest of an outcome as the results print it: equal digests, equal pictures."""
    text = json.dumps([variant, outcome], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def results_stem(game: str, outcome: dict[str, Any]) -> str:
    """The file name of a phase's picture, without `.png`: the game and the phase's code (alpha-S1901M)."""
    return f"{game}-{phase_code(outcome['phase'])}"


def draw(ahead: Ahead) -> Drawn:
    """A worker's task: adjudicate the phase as the processing will (`outcome_of`) and draw its results' picture
    (`map_files`, as the results would). Pure: no database, no clock."""
    rules = get_variant(ahead.variant).rules(ahead.options)
    position = position_from_json(rules, ahead.position)
    orders = stored_orders([(power, lines, stored) for power, (lines, stored) in ahead.orders.items()])
    outcome = outcome_json(ahead.variant, outcome_of(rules, position, orders, phase_seed(ahead.seed, ahead.index)))
    stem = results_stem(ahead.game, outcome)
    return Drawn(digest(ahead.variant, outcome), stem, map_files(ahead.variant, outcome, stem))


def warm() -> None:
    """A worker's first task: nothing more than being started, with the modules `draw` needs imported (the pool
    is used once it has answered, so that no game's results wait for a worker's start)."""


class Predrawn:
    """The pictures drawn (or being drawn) ahead in this process, by game and phase index; bounded, each taken once.

    Filled by the keeper's thread, read wherever the results are composed (the keeper's thread, the processor's
    for a GM's PROCESS): guarded by a lock."""

    def __init__(self, kept: int = KEPT, kept_bytes: int = KEPT_BYTES) -> None:
        self._kept = kept
        self._kept_bytes = kept_bytes
        self._lock = threading.Lock()
        self._futures: OrderedDict[tuple[str, int], Future[Drawn]] = OrderedDict()
        self._sizes: dict[tuple[str, int], int] = {}
        """the bytes of the pictures offered drawn (a worker's, still under way, count nothing)"""
        self._bytes = 0
        self.on_failure: Callable[[BaseException], None] | None = None
        """told of a worker's failure (the pool notes a broken pool once and starts afresh)"""
        self.wait_seconds = WAIT_SECONDS
        self.hits = 0
        """results that used a picture drawn ahead (the bench and the tests read it)"""
        self.misses = 0
        """results that drew their own (none drawn ahead, or not of their outcome)"""

    def offer(self, game: str, index: int, future: Future[Drawn]) -> None:
        """A picture on its way, or drawn; the oldest beyond `kept` pictures or `kept_bytes` are dropped (and
        cancelled if not begun)."""
        size = 0
        if future.done() and not future.cancelled() and future.exception() is None:
            size = sum(len(png) for _, png in future.result().files)
        with self._lock:
            self._bytes += size - self._sizes.get((game, index), 0)
            self._futures[(game, index)] = future
            self._futures.move_to_end((game, index))
            self._sizes[(game, index)] = size
            while len(self._futures) > self._kept or self._bytes > self._kept_bytes:
                key, dropped = self._futures.popitem(last=False)
                self._bytes -= self._sizes.pop(key, 0)
                dropped.cancel()

    def pending(self) -> int:
        """Pictures not yet drawn (waiting for a worker, or being drawn)."""
        with self._lock:
            return sum(1 for future in self._futures.values() if not future.done())

    def __contains__(self, key: tuple[str, int]) -> bool:
        with self._lock:
            return key in self._futures

    def clear(self) -> None:
        """Forget every picture (the pool is gone); those not begun are cancelled."""
        with self._lock:
            for future in self._futures.values():
                future.cancel()
            self._futures.clear()
            self._sizes.clear()
            self._bytes = 0

    def keep(self, phases: set[tuple[str, int]]) -> None:
        """Drop the pictures of every (game, phase index) but these (the games' phases now): those of phases since
        processed by another judge process would otherwise stay until pushed out."""
        with self._lock:
            for key in [key for key in self._futures if key not in phases]:
                self._futures.pop(key).cancel()
                self._bytes -= self._sizes.pop(key, 0)

    def take(self, game: str, index: int, variant: str, outcome: dict[str, Any], stem: str) -> Files | None:
        """The pictures drawn ahead for exactly this outcome, or None: none was asked, it was not begun (it is
        cancelled: drawing it here is as quick), it failed, or its outcome is not this one (an order came after the
        worker read the game). A picture being drawn is waited for, at most `WAIT_SECONDS`."""
        with self._lock:
            future = self._futures.pop((game, index), None)
            self._bytes -= self._sizes.pop((game, index), 0)
        files = None if future is None else self._drawn(future, variant, outcome, stem)
        with self._lock:
            if files is None:
                self.misses += 1
            else:
                self.hits += 1
        return files

    def _drawn(self, future: Future[Drawn], variant: str, outcome: dict[str, Any], stem: str) -> Files | None:
        if future.cancel():
            return None
        try:
            drawn = future.result(timeout=self.wait_seconds)
        except (TimeoutError, CancelledError):
            return None
        except Exception as error:  # a worker's failure: the picture is drawn here, as without a pool
            if self.on_failure is not None:
                self.on_failure(error)
            return None
        if drawn.digest != digest(variant, outcome) or drawn.stem != stem:
            return None
        return drawn.files


PREDRAWN = Predrawn()
"""this process's pictures drawn ahead: the keeper's pool offers, the results take"""


def results_pictures(game: str, index: int, variant: str, outcome: dict[str, Any]) -> Files:
    """The pictures a phase's results attach: drawn ahead when a worker drew this very outcome, else drawn now."""
    stem = results_stem(game, outcome)
    files = PREDRAWN.take(game, index, variant, outcome, stem)
    return map_files(variant, outcome, stem) if files is None else files
