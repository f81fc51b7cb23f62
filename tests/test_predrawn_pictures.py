"""The results' pictures drawn ahead by the keeper's picture workers: used only for the very outcome processed, byte
for byte the picture drawn in place, and never needed: a changed order or a dead worker leaves the picture to be
drawn in place, and the results go out once."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.clock import FakeClock
from judge.config import Config
from judge.game import Games
from judge.mail.pictures import map_files
from judge.mail.predrawn import PREDRAWN, results_stem
from judge.mail.processor import Processor
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Database, Game, OutboundMail, PhaseRecord, open_database
from judge.testing.tables import OPENING_ORDERS, POWERS

NAMES = ("alpha", "bravo", "charlie", "delta")


@dataclass
class Judge:
    db: Database
    clock: FakeClock
    games: Games

    def keeper(self, workers: int) -> DeadlineKeeper:
        config = Config(address="judge@example.org", name="testjudge", pictures=True, picture_workers=workers)
        keeper = DeadlineKeeper(self.db, config, self.clock)
        keeper.pictures.window = len(NAMES)  # every game drawn ahead at once, so that every one can be a hit
        if workers:
            keeper.pictures.start()
            assert keeper.pictures.ready(timeout=120)
        return keeper

    def due(self, names: tuple[str, ...] = NAMES) -> list[tuple[int, str, int]]:
        """The games as the keeper's round lists them: (id, name, phase index)."""
        with self.db.transaction() as s:
            rows = s.execute(select(Game.id, Game.name, Game.phase_index).where(Game.name.in_(names))).all()
        return sorted(((game_id, name, index) for game_id, name, index in rows), key=lambda row: row[1])

    def results(self, game: str) -> list[EmailMessage]:
        with self.db.transaction() as s:
            rows = s.scalars(select(OutboundMail).where(OutboundMail.kind == "result").order_by(OutboundMail.id))
            found = [message_from_bytes(row.message, policy=policy.default) for row in rows]
        return [m for m in found if isinstance(m, EmailMessage) and str(m["Subject"]).startswith(f"{game} ")]

    def outcome(self, game: str) -> dict[str, Any]:
        with self.db.transaction() as s:
            record = s.scalars(
                select(PhaseRecord).join(Game, Game.id == PhaseRecord.game_id).where(Game.name == game)
            ).one()
            return dict(record.outcome)


def _judge(url: str) -> Judge:
    clock = FakeClock()
    db = open_database(url)
    games = Games(db, clock)
    games.accounts.register("gm@example.org", "GM", "pw")
    for power in POWERS:
        games.accounts.register(f"{power.lower()}@example.org", power, "pw")
    for number, name in enumerate(NAMES):
        games.seating.create_game(name, "standard", "gm@example.org", "pw", seed=number + 1)
        for power in POWERS:
            games.seating.join(name, f"{power.lower()}@example.org", "pw", [power])
        games.orders.submit(name, "France", ["A par - bur", "A mar - spa", "F bre - mao"])
        games.orders.submit(name, "Germany", ["A mun - bur", "A ber - kie", "F kie - hol"])
    return Judge(db, clock, games)


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    yield from _judge_with_pictures(f"sqlite:///{tmp_path / 'j.sqlite'}")


@pytest.fixture
def judge_on_postgres(postgres_url: str) -> Iterator[Judge]:
    yield from _judge_with_pictures(postgres_url)


def _judge_with_pictures(url: str) -> Iterator[Judge]:
    found = _judge(url)
    PREDRAWN.wait_seconds = 120  # a worker spawned on a loaded machine: the test waits for it, the judge would not
    PREDRAWN.hits = PREDRAWN.misses = 0
    yield found
    PREDRAWN.clear()
    PREDRAWN.wait_seconds = 2.0
    found.db.dispose()


def _pictures(mail: EmailMessage) -> list[tuple[str, bytes]]:
    found = []
    for part in mail.iter_attachments():
        payload = part.get_payload(decode=True)
        if part.get_content_type() == "image/png" and isinstance(payload, bytes):
            found.append((str(part.get_filename()), payload))
    return found


def _drawn_in_place(judge: Judge, game: str) -> list[tuple[str, bytes]]:
    outcome = judge.outcome(game)
    return map_files("standard", outcome, results_stem(game, outcome))


def _every_game_mailed_with_its_picture_drawn_ahead(judge: Judge, done: list[str], how: str) -> None:
    """Every game's phase `how` ("processed early"...), its results' picture the one drawn ahead, the same as one
    drawn in place."""
    assert sum(how in line for line in done) == len(NAMES)
    assert PREDRAWN.hits == len(NAMES) and PREDRAWN.misses == 0
    for game in NAMES:
        mails = judge.results(game)
        assert mails and all(_pictures(mail) == _drawn_in_place(judge, game) for mail in mails)


def _all_drawn_ahead(limit: float = 120.0) -> None:
    """Wait until the worker has drawn every picture handed to it: one not yet begun when the keeper takes its game
    is cancelled and drawn in place (quicker than waiting), which a loaded machine's slow worker would make a miss."""
    give_up = time.monotonic() + limit
    while PREDRAWN.pending() and time.monotonic() < give_up:
        time.sleep(0.05)


def test_a_picture_drawn_ahead_is_the_one_drawn_in_place(judge: Judge) -> None:
    keeper = judge.keeper(workers=1)
    try:
        keeper.pictures.ahead(judge.due())
        _all_drawn_ahead()
        judge.clock.advance(timedelta(hours=49))
        done = keeper.work().done
    finally:
        keeper.close()
    assert sum("processed at the deadline" in line for line in done) == len(NAMES)
    assert PREDRAWN.hits == len(NAMES) and PREDRAWN.misses == 0
    for game in NAMES:
        mails = judge.results(game)
        assert mails and all(_pictures(mail) == _drawn_in_place(judge, game) for mail in mails)
        assert len(_drawn_in_place(judge, game)) == 1


def test_the_results_are_the_same_with_and_without_workers(judge: Judge, tmp_path: Path) -> None:
    other = _judge(f"sqlite:///{tmp_path / 'inline.sqlite'}")
    try:
        for table, workers in ((judge, 1), (other, 0)):
            keeper = table.keeper(workers)
            try:
                keeper.pictures.ahead(table.due())
                _all_drawn_ahead()
                table.clock.advance(timedelta(hours=49))
                keeper.work()
            finally:
                keeper.close()
        assert PREDRAWN.hits == len(NAMES)  # drawn by the worker; without one, at the deadline, in place
        for game in NAMES:
            ahead, in_place = judge.results(game), other.results(game)
            assert [_pictures(m) for m in ahead] == [_pictures(m) for m in in_place]
            assert [m.get_body(("plain",)).get_content() for m in ahead] == [  # type: ignore[union-attr]
                m.get_body(("plain",)).get_content()  # type: ignore[union-attr]
                for m in in_place
            ]
    finally:
        other.db.dispose()


def test_without_workers_the_picture_of_a_game_processed_early_is_drawn_before_its_lock(judge: Judge) -> None:
    """A game whose orders are all in is processed in the middle of its players' mail: the keeper holds its lock to
    adjudicate and write it, not to draw, since every mail to the game waits while the lock is held."""
    for game in NAMES:
        for power in POWERS:
            if power not in ("France", "Germany"):
                judge.games.orders.submit(game, power, OPENING_ORDERS[power].splitlines())
    keeper = judge.keeper(workers=0)
    _every_game_mailed_with_its_picture_drawn_ahead(judge, keeper.work().done, "processed early")


def test_without_workers_the_pictures_of_a_deadline_are_drawn_in_place(judge: Judge) -> None:
    """At a deadline the keeper's own time is what every player waits for: no second read and adjudication."""
    keeper = judge.keeper(workers=0)
    judge.clock.advance(timedelta(hours=49))
    done = keeper.work().done
    assert sum("processed at the deadline" in line for line in done) == len(NAMES)
    assert PREDRAWN.hits == 0 and PREDRAWN.misses == len(NAMES)


def test_a_reminder_draws_no_picture(judge: Judge) -> None:
    keeper = judge.keeper(workers=0)
    judge.clock.advance(timedelta(hours=47))  # the reminder's time, before the deadline
    done = keeper.work().done
    assert done and not any("processed" in line for line in done)
    assert PREDRAWN.hits == PREDRAWN.misses == 0
    assert not any((name, index) in PREDRAWN for _, name, index in judge.due())


def test_an_order_changed_after_the_drawing_gets_the_picture_of_its_own_outcome(judge: Judge) -> None:
    keeper = judge.keeper(workers=1)
    try:
        keeper.pictures.ahead(judge.due(("alpha",)))
        judge.games.orders.submit("alpha", "Italy", ["A ven - tyr", "A rom - ven", "F nap - ion"])
        judge.clock.advance(timedelta(hours=49))
        keeper.work()
    finally:
        keeper.close()
    assert PREDRAWN.misses >= 1
    assert "A ven - tyr" in str(judge.outcome("alpha"))
    (mail,) = [m for m in judge.results("alpha") if _pictures(m)][:1]
    assert _pictures(mail) == _drawn_in_place(judge, "alpha")


def test_a_dead_picture_worker_leaves_the_pictures_drawn_in_place_and_the_results_sent_once(
    judge: Judge, caplog: pytest.LogCaptureFixture
) -> None:
    before = {child.pid for child in multiprocessing.active_children()}
    keeper = judge.keeper(workers=1)
    try:
        keeper.pictures.ahead(judge.due())
        workers = [child.pid for child in multiprocessing.active_children() if child.pid not in before]
        assert workers
        for pid in workers:
            if pid is not None:
                os.kill(pid, signal.SIGKILL)
        judge.clock.advance(timedelta(hours=49))
        done = keeper.work().done
        assert keeper.work().done == []  # nothing is done twice
    finally:
        keeper.close()
    assert sum("processed at the deadline" in line for line in done) == len(NAMES) and PREDRAWN.hits == 0
    for game in NAMES:
        mails = judge.results(game)
        assert len(mails) == len({tuple(sorted(m.get_all("To") or [])) for m in mails})  # one mail a sheet
        assert all(_pictures(mail) == _drawn_in_place(judge, game) for mail in mails)
    with judge.db.transaction() as s:
        assert len(s.scalars(select(PhaseRecord)).all()) == len(NAMES)


def _before_the_deadline(judge: Judge, minutes: int) -> None:
    """The clock set `minutes` before the games' deadline (all four share it)."""
    with judge.db.transaction() as s:
        deadline = max(d for d in s.scalars(select(Game.deadline)) if d is not None)
    judge.clock.set(deadline.replace(tzinfo=judge.clock.now().tzinfo) - timedelta(minutes=minutes))


def test_the_pictures_of_games_due_soon_are_drawn_ahead_of_the_deadline_and_used_at_it(judge: Judge) -> None:
    """Issue 31: the quiet minutes before a deadline draw what every player would otherwise wait for at it."""
    keeper = judge.keeper(workers=0)
    _before_the_deadline(judge, 5)
    assert keeper.draw_ahead() == len(NAMES)
    assert all((name, index) in PREDRAWN for _, name, index in judge.due())
    assert keeper.draw_ahead() == 0  # nothing changed: nothing drawn twice
    judge.clock.advance(timedelta(hours=1))
    _every_game_mailed_with_its_picture_drawn_ahead(judge, keeper.work().done, "processed at the deadline")


def test_an_order_filed_after_the_drawing_ahead_has_its_game_drawn_again(judge: Judge) -> None:
    keeper = judge.keeper(workers=0)
    _before_the_deadline(judge, 5)
    assert keeper.draw_ahead() == len(NAMES)
    judge.games.orders.submit("alpha", "Italy", ["A ven - tyr", "A rom - ven", "F nap - ion"])
    assert keeper.draw_ahead() == 1  # alpha alone
    judge.clock.advance(timedelta(hours=1))
    keeper.work()
    assert PREDRAWN.hits == len(NAMES) and PREDRAWN.misses == 0
    assert "A ven - tyr" in str(judge.outcome("alpha"))
    (mail, *_) = [m for m in judge.results("alpha") if _pictures(m)]
    assert _pictures(mail) == _drawn_in_place(judge, "alpha")


def test_an_order_filed_after_the_last_drawing_ahead_gets_the_picture_of_its_own_outcome(judge: Judge) -> None:
    keeper = judge.keeper(workers=0)
    _before_the_deadline(judge, 5)
    keeper.draw_ahead()
    judge.games.orders.submit("alpha", "Italy", ["A ven - tyr", "A rom - ven", "F nap - ion"])
    judge.clock.advance(timedelta(hours=1))
    keeper.work()
    assert PREDRAWN.hits == len(NAMES) - 1 and PREDRAWN.misses == 1
    (mail, *_) = [m for m in judge.results("alpha") if _pictures(m)]
    assert _pictures(mail) == _drawn_in_place(judge, "alpha")


def test_games_not_due_soon_are_not_drawn_ahead(judge: Judge) -> None:
    keeper = judge.keeper(workers=0)
    _before_the_deadline(judge, 11)  # `DRAW_AHEAD` is ten minutes
    assert keeper.draw_ahead() == 0
    assert not any((name, index) in PREDRAWN for _, name, index in judge.due())


def test_the_games_drawn_ahead_are_processed_first(judge: Judge) -> None:
    """Two judge processes each draw ahead from a place of their own in the list, and each takes its own first."""
    keeper = judge.keeper(workers=0)
    (charlie,) = [game for game in judge.due() if game[1] == "charlie"]
    assert keeper.pictures.draw_here(*charlie)
    judge.clock.advance(timedelta(hours=49))
    done = keeper.work().done
    assert done[0].startswith("charlie:")
    assert sum("processed at the deadline" in line for line in done) == len(NAMES)
    assert PREDRAWN.hits == 1


def test_a_running_judge_wakes_to_draw_the_pictures_of_a_deadline_ten_minutes_away(
    judge: Judge, tmp_path: Path
) -> None:
    """The daemon's own ticks start the drawing ahead: a judge asleep until a deadline wakes when the pictures can
    begin (`DRAW_AHEAD` before it), not only at it."""
    from judge.config import OutboundConfig, SmtpIntakeConfig, WebConfig
    from judge.schedule.keeper import DRAW_AHEAD
    from judge.serve import Daemon

    with judge.db.transaction() as s:  # just outside the window when the judge starts
        for game in s.scalars(select(Game)):
            game.deadline = datetime.now(UTC) + DRAW_AHEAD + timedelta(seconds=2)
    config = Config(
        address="judge@example.org",
        pictures=True,
        picture_workers=0,
        smtp_intake=SmtpIntakeConfig(enabled=False),
        web=WebConfig(enabled=False),
        outbound=OutboundConfig(outbox_dir=str(tmp_path / "outbox")),
    )
    daemon = Daemon(config, db=judge.db)
    daemon.start()
    try:
        give_up = time.monotonic() + 120
        while time.monotonic() < give_up and not all((n, i) in PREDRAWN for _, n, i in judge.due()):
            time.sleep(0.1)
        assert all((name, index) in PREDRAWN for _, name, index in judge.due())
        assert PREDRAWN.hits == PREDRAWN.misses == 0  # drawn, not yet used: nothing was processed
    finally:
        daemon.shutdown()  # (which forgets them)


def test_the_pictures_drawn_for_phases_another_process_processed_are_dropped(judge: Judge) -> None:
    """A process's pictures of games another process processed (one started while this one drew, or taking the
    games this one had not reached) are freed at its next round, not kept until pushed out."""
    from judge.mail.predrawn import Predrawn
    from judge.schedule.predraw import PicturePool

    mine = judge.keeper(workers=0)
    mine.pictures = PicturePool(judge.db, 0, predrawn=Predrawn())  # this process's own pictures
    _before_the_deadline(judge, 5)
    assert mine.draw_ahead() == len(NAMES)
    judge.clock.advance(timedelta(hours=1))
    other = judge.keeper(workers=0)  # the other process takes every game
    assert sum("processed at the deadline" in line for line in other.work().done) == len(NAMES)
    assert all((name, index - 1) in mine.pictures.predrawn for _, name, index in judge.due())
    assert not any("processed" in line for line in mine.work().done)
    assert not any((name, index - 1) in mine.pictures.predrawn for _, name, index in judge.due())


def _process(url: str, clock: FakeClock, apart: bool) -> tuple[Database, Processor, DeadlineKeeper]:
    """One judge process's parts on a shared database: its connections, its mail processor (whose mark tells the
    others it is there) and its keeper; `apart`: its pictures kept apart from this test process's own (those the
    results take theirs from)."""
    from judge.commands import answer_mail
    from judge.mail.predrawn import Predrawn
    from judge.schedule.predraw import PicturePool

    db = open_database(url)
    config = Config(address="judge@example.org", name="testjudge", pictures=True, picture_workers=0)
    processor = Processor(db, config, clock, handler=answer_mail)
    keeper = DeadlineKeeper(db, config, clock)
    if apart:
        keeper.pictures = PicturePool(db, 0, predrawn=Predrawn())
    keeper.share = processor.place
    return db, processor, keeper


def test_two_processes_divide_the_pictures_drawn_ahead_and_one_stopping_leaves_its_share_to_the_other(
    judge_on_postgres: Judge,
) -> None:
    """Issue 31: each game's picture is drawn ahead once, not once by every process; a process that stops hands
    its share to the others at their next pass."""
    judge = judge_on_postgres
    _before_the_deadline(judge, 5)
    url = judge.db.engine.url.render_as_string(hide_password=False)
    db_a, processor_a, a = _process(url, judge.clock, apart=False)
    db_b, processor_b, b = _process(url, judge.clock, apart=True)
    try:
        processor_a.place(), processor_b.place()  # each takes its mark (a running judge's processor, at once)
        assert sorted([processor_a.place(), processor_b.place()]) == [(0, 2), (1, 2)]
        drawn_a, drawn_b = a.draw_ahead(), b.draw_ahead()
        assert drawn_a + drawn_b == len(NAMES) and drawn_a and drawn_b
        phases = [(name, index) for _, name, index in judge.due()]
        assert all((phase in a.pictures.predrawn) != (phase in b.pictures.predrawn) for phase in phases)
        db_b.dispose()  # b stops: its connections, and with them its mark, are gone
        # once its server process has ended: PostgreSQL frees a session's advisory locks as that process exits,
        # a moment after the client hangs up (a running judge looks again at its next pass)
        gone_by = time.monotonic() + 10
        while processor_a.place() != (0, 1) and time.monotonic() < gone_by:
            time.sleep(0.05)
        assert processor_a.place() == (0, 1)
        assert a.draw_ahead() == drawn_b
        assert all(phase in a.pictures.predrawn for phase in phases)
        judge.clock.advance(timedelta(hours=1))
        assert sum("processed at the deadline" in line for line in a.work().done) == len(NAMES)
        assert PREDRAWN.hits == len(NAMES) and PREDRAWN.misses == 0
    finally:
        db_a.dispose()
        db_b.dispose()


def test_at_the_deadline_each_process_takes_what_it_drew_then_its_share_then_the_others() -> None:
    """The games a process drew ahead come first, then the rest of its share, and only then the other's, whose
    pictures the other drew: two processes meet only at the end, and no picture is drawn twice."""
    from judge.schedule.keeper import in_turn

    found = [(7, "g", 1), (2, "b", 1), (5, "e", 1), (4, "d", 1), (3, "c", 1), (6, "f", 1)]
    # place 0 of 2: the even ids; it drew 6 and 2 ahead
    assert in_turn(found, {(6, "f", 1), (2, "b", 1)}, 0, 2) == [
        (2, "b", 1), (6, "f", 1), (4, "d", 1), (7, "g", 1), (5, "e", 1), (3, "c", 1),
    ]  # fmt: skip
    assert in_turn(found, set(), 1, 2) == [
        (7, "g", 1), (5, "e", 1), (3, "c", 1), (2, "b", 1), (4, "d", 1), (6, "f", 1),
    ]  # fmt: skip
    assert in_turn(found, {(4, "d", 1)}, 0, 1) == [(4, "d", 1), *[game for game in found if game[0] != 4]]
