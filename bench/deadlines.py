"""Deadline work shared between judge processes: N standard games on one PostgreSQL database, every deadline at
the same moment, each game's Spring 1901 processed and its results mails queued; one keeper process against two
(issue 19: two must be faster than one, not fight over the same games)."""

from __future__ import annotations

import multiprocessing
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select, update

from judge.clock import FakeClock
from judge.config import Config
from judge.game import GameService
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Game, OutboundMail, PhaseRecord, open_database
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.tables import full_games


def _keeper(args: tuple[str, Any, datetime]) -> float:
    url, barrier, now = args
    db = open_database(url, migrate=False)
    keeper = DeadlineKeeper(db, Config(database_url=url), FakeClock(now))
    barrier.wait()
    start = time.perf_counter()
    keeper.tick()
    took = time.perf_counter() - start
    db.dispose()
    return took


def _round(games: int, processes: int) -> tuple[float, int, int]:
    """Seconds until the last keeper finished, phases processed, results mails queued."""
    with scratch_database() as url:
        db = open_database(url)
        full_games(GameService(db), games)
        with db.transaction() as s:
            s.execute(update(Game).values(deadline=datetime.now(UTC)))
        db.dispose()
        now = datetime.now(UTC) + timedelta(days=3)  # past every deadline and grace
        context = multiprocessing.get_context("spawn")
        with context.Manager() as manager:
            barrier = manager.Barrier(processes)
            with context.Pool(processes) as pool:
                took = max(pool.map(_keeper, [(url, barrier, now)] * processes))
        db = open_database(url, migrate=False)
        with db.transaction() as s:
            phases = int(s.scalar(select(func.count()).select_from(PhaseRecord)) or 0)
            mails = int(
                s.scalar(select(func.count()).select_from(OutboundMail).where(OutboundMail.kind == "result")) or 0
            )
        db.dispose()
        return took, phases, mails


def deadline_benchmark(games: int) -> None:
    problem = postgres_problem()
    if problem:
        print(f"deadlines: skipped ({problem})")
        return
    print(f"deadlines: {games} standard games due at one moment, on PostgreSQL")
    one = _round(games, 1)
    two = _round(games, 2)
    for processes, (took, phases, mails) in ((1, one), (2, two)):
        print(f"  {processes} process(es): {took:6.1f} s  ({phases} phases, {mails} results mails queued)")
    print(f"  two processes take {two[0] / one[0]:.2f} x the time of one")
