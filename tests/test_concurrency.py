"""Two judge processes on one database: no phase is processed twice, no order submitted meanwhile is lost.

These run real separate processes (multiprocessing, spawn) against PostgreSQL, and against a SQLite file.
"""

from __future__ import annotations

import multiprocessing
import threading
from typing import Any

import pytest
from sqlalchemy import select

from judge.game import Games
from judge.store import OrderSet, PhaseRecord, open_database
from judge.testing.tables import POWERS, full_games

pytestmark = pytest.mark.slow  # end to end: real servers, whole games (make test-fast skips them)


RACE = "g0"
"""the game both processes go at: `full_games`' one game, every power ordered (with nothing), so it may go now"""


def _set_up(url: str) -> None:
    db = open_database(url)
    service = Games(db)
    full_games(service, 1, hashed_once=True)  # one password digest for all: the test is not about scrypt
    for power in POWERS:
        service.orders.submit(RACE, power, [])
    db.dispose()


def _process_once(args: tuple[str, Any]) -> bool:
    url, barrier = args
    db = open_database(url, migrate=False)
    service = Games(db)
    barrier.wait()
    done = service.adjudication.process(RACE, expected_index=0)
    db.dispose()
    return done is not None


def _submit_many(args: tuple[str, Any, int]) -> list[tuple[str, list[str]]]:
    url, barrier, count = args
    db = open_database(url, migrate=False)
    service = Games(db)
    barrier.wait()
    filed = []
    for n in range(count):
        lines = ["A vie H", f"A bud - {'ser' if n % 2 else 'rum'}", "F tri H"]
        submission = service.orders.submit(RACE, "Austria", lines)
        filed.append((submission.phase, lines))
    db.dispose()
    return filed


def _process_during(args: tuple[str, Any, int]) -> bool:
    url, barrier, _ = args
    return _process_once((url, barrier))


def _run_both(url: str, first: Any, second: Any, *extra: Any) -> list[Any]:
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(2)
        with context.Pool(2) as pool:
            a = pool.apply_async(first, ((url, barrier, *extra),))
            b = pool.apply_async(second, ((url, barrier, *extra),))
            return [a.get(timeout=120), b.get(timeout=120)]


def test_two_processes_never_process_the_same_phase_twice(database_url: str) -> None:
    _set_up(database_url)
    results = _run_both(database_url, _process_once, _process_once)
    assert sorted(results) == [False, True]
    db = open_database(database_url, migrate=False)
    with db.transaction() as s:
        assert s.scalars(select(PhaseRecord.index)).all() == [0]
    db.dispose()


def test_orders_submitted_while_a_phase_is_processed_are_never_lost(database_url: str) -> None:
    _set_up(database_url)
    filed, processed = _run_both(database_url, _submit_many, _process_during, 60)
    assert processed is True
    db = open_database(database_url, migrate=False)
    with db.transaction() as s:
        record = s.scalars(select(PhaseRecord).where(PhaseRecord.index == 0)).one()
        later = s.scalar(select(OrderSet).where(OrderSet.phase_index == 1, OrderSet.power == "Austria"))
    db.dispose()
    before = [lines for phase, lines in filed if phase == "Spring 1901 Movement"]
    after = [lines for phase, lines in filed if phase != "Spring 1901 Movement"]
    assert len(before) + len(after) == 60
    # the phase used exactly the last set filed before it was processed (Austria may have filed nothing yet)
    assert record.orders.get("Austria", []) == (before[-1] if before else [])
    # every set filed afterwards went to the next phase; the last one is on file there
    if after:
        assert later is not None and later.lines == after[-1]


def test_a_deadline_moved_by_another_process_is_honoured_within_seconds(database_url: str, tmp_path: Any) -> None:
    """Issue 19, item 4: a judge asleep until a far deadline still sees, within `RECHECK`, a deadline that another
    judge process (or one that died) brought forward, and processes the phase."""
    from datetime import UTC, datetime, timedelta

    from judge.config import Config, OutboundConfig, SmtpIntakeConfig, WebConfig
    from judge.serve import RECHECK, Daemon
    from judge.store import Game, Marks

    _set_up(database_url)
    config = Config(
        database_url=database_url,
        smtp_intake=SmtpIntakeConfig(enabled=False),
        web=WebConfig(enabled=False),
        outbound=OutboundConfig(outbox_dir=str(tmp_path / "outbox")),
    )
    db = open_database(database_url, migrate=False)
    with db.transaction() as s:  # nothing due for two days, and a phase that waits for its deadline
        game = s.scalars(select(Game).where(Game.name == RACE)).one()
        game.deadline = datetime.now(UTC) + timedelta(days=2)
        game.marks = Marks(no_early=game.phase_index)
    daemon = Daemon(config)
    daemon.start()
    try:
        with db.transaction() as s:  # another process moves the deadline to now
            s.scalars(select(Game).where(Game.name == RACE)).one().deadline = datetime.now(UTC)
        moved = datetime.now(UTC)
        give_up = moved + RECHECK + timedelta(seconds=10)
        while datetime.now(UTC) < give_up:
            with db.transaction() as s:
                if s.scalars(select(PhaseRecord)).first() is not None:
                    break
            threading.Event().wait(0.2)
        took = datetime.now(UTC) - moved
    finally:
        daemon.shutdown()
        db.dispose()
    assert took <= RECHECK + timedelta(seconds=3), f"the moved deadline was seen after {took}"
