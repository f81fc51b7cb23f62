"""PostgreSQL restarted and stopped under a running judge (issue 32): real `judge serve` processes on a PostgreSQL
server of the test's own (initdb on a free port), mail through a private Dovecot and an SMTP relay, order mails
streaming in while the server is restarted twice (`pg_ctl restart -m fast`) and then stopped for 15 seconds. Every
mail is answered once, within 10 s of the database's return; every order is kept; nothing is shunted; the daemons
live throughout and say once that the database went and once that it came back (docs/operations.md)."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Iterator
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from sqlalchemy import create_engine, select

from judge.store import Game, InboundMail, OrderSet, open_database
from judge.testing.dovecot import DovecotServer
from judge.testing.judge_process import judge_processes, order_mail
from judge.testing.pg_server import PostgresServer, private_server_problem
from judge.testing.postgres import scratch_database
from judge.testing.smtp_relay import SmtpRelay
from judge.testing.tables import OPENING_ORDERS, POWERS

pytestmark = pytest.mark.slow  # real servers, real processes, a 15-second outage

ORDERING = [power for power in POWERS if power != "Russia"]
"""the powers that send orders: Russia never does, so the phase waits for its deadline and every order mail of the
run is for the first phase"""
RECOVERY = 10.0
"""seconds after the database's return by which every mail is answered (issue 32)"""
STOP = 15.0
"""how long the server stays stopped: thirty times the longest pause between the judge's probes of a database that
is away (`judge.store.outage.PROBE_MAX`), so the wait is the probes' steady state, not their first tries"""


@pytest.fixture(scope="module")
def private_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of the module's own (initdb and a start: seconds), which its tests restart and stop."""
    problem = private_server_problem()
    if problem:  # as conftest's servers: CI must run every test (.ci/run installs PostgreSQL), elsewhere it skips
        (pytest.fail if os.environ.get("CI") else pytest.skip)(problem)
    server = PostgresServer()
    try:
        server.start()
        yield server
    finally:
        server.close()


@pytest.fixture
def outage_url(private_postgres: PostgresServer) -> Iterator[str]:
    """A database of the test's own on the module's server, which runs when the test begins (a test that failed
    while it was stopped does not leave it so for the next)."""
    if not _running(private_postgres):
        private_postgres.start()
    with scratch_database(private_postgres.url) as url:
        try:
            yield url
        finally:
            if not _running(private_postgres):
                private_postgres.start()  # for the drop


def _running(server: PostgresServer) -> bool:
    return (server.data / "postmaster.pid").exists()


class Stream:
    """The mails put in the judge's mailbox, when, and when the relay first had each one's reply."""

    def __init__(self, dovecot: DovecotServer, relay: SmtpRelay) -> None:
        self.dovecot = dovecot
        self.relay = relay
        self.delivered: dict[str, float] = {}
        self.answered: dict[str, float] = {}
        self._stop = threading.Event()
        self._watcher = threading.Thread(target=self._watch, daemon=True)
        self._watcher.start()

    def deliver(self, mails: list[tuple[str, str]], pause: float = 0.0) -> None:
        with self.dovecot.client() as imap:
            for sender, body in mails:
                message_id = f"<m{len(self.delivered)}@example.org>"
                imap.append("INBOX", order_mail(sender, body, message_id))
                self.delivered[message_id] = time.monotonic()
                time.sleep(pause)

    def _watch(self) -> None:
        seen = 0
        while not self._stop.is_set():
            messages = self.relay.messages
            for message in messages[seen:]:
                parsed = message_from_bytes(message.data, policy=policy.default)
                if parsed["In-Reply-To"]:
                    self.answered.setdefault(str(parsed["In-Reply-To"]), time.monotonic())
            seen = len(messages)
            time.sleep(0.02)

    def all_answered(self) -> bool:
        return set(self.answered) >= set(self.delivered)

    def close(self) -> None:
        self._stop.set()
        self._watcher.join(timeout=5)


def _wait(condition: object, timeout: float, what: str) -> None:
    give_up = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < give_up, f"gave up waiting for {what}"
        time.sleep(0.05)


def _answer_due(delivered: float, outages: list[tuple[float, float]]) -> float:
    """When a mail delivered at `delivered` must be answered: `RECOVERY` after it came, pushed to `RECOVERY` after
    the end of every outage that began before then."""
    due = delivered + RECOVERY
    for down, up in outages:
        if down <= due:
            due = max(due, up + RECOVERY)
    return due


def _orders(power: str) -> tuple[str, str]:
    return f"{power.lower()}@example.org", f"SIGNON alpha {power} pw\n{OPENING_ORDERS[power]}"


@pytest.mark.parametrize("processes", [1, 2], ids=["one process", "two processes"])
def test_every_mail_is_answered_once_within_seconds_of_the_database_return_after_restarts_and_a_stop(
    processes: int,
    private_postgres: PostgresServer,
    outage_url: str,
    mailbox: DovecotServer,
    smtp_relay: SmtpRelay,
    tmp_path: Path,
) -> None:
    url = outage_url
    open_database(url).dispose()  # the schema, before any process starts
    names = ("judge-a", "judge-b")[:processes]
    judges = judge_processes(tmp_path, url, mailbox, smtp_relay, names)
    stream = Stream(mailbox, smtp_relay)
    outages: list[tuple[float, float]] = []
    for judge in judges:
        judge.start()
    try:
        stream.deliver(
            [("gm@example.org", "REGISTER The GM gmpass\nCREATE alpha standard letmein")]
            + [
                (f"{power.lower()}@example.org", f"REGISTER {power} Player pw\nJOIN alpha letmein {power}")
                for power in POWERS
            ]
        )
        _wait(stream.all_answered, 60, "the players to join")

        # order mails streaming in, the server restarted twice in their midst
        orders = [_orders(power) for _ in range(12) for power in ORDERING]
        feeder = threading.Thread(target=stream.deliver, args=(orders, 0.1))
        feeder.start()
        for _ in range(2):
            time.sleep(2.5)
            down = time.monotonic()
            private_postgres.restart()
            outages.append((down, time.monotonic()))
        feeder.join()

        # a stop of STOP seconds, mail coming in all the while
        down = time.monotonic()
        private_postgres.stop()
        stream.deliver([_orders(power) for _ in range(5) for power in ORDERING], pause=STOP / 35)
        time.sleep(max(0.0, down + STOP - time.monotonic()))
        private_postgres.start()
        outages.append((down, time.monotonic()))

        _wait(stream.all_answered, 60, "every mail to be answered")
        time.sleep(2)  # nothing more comes
        alive = {judge.name: judge.process is not None and judge.process.poll() is None for judge in judges}
    finally:
        stream.close()
        for judge in judges:
            judge.stop()
    logs = {judge.name: judge.log() for judge in judges}
    _check(stream, outages, smtp_relay, logs, url, alive)


def _check(
    stream: Stream,
    outages: list[tuple[float, float]],
    relay: SmtpRelay,
    logs: dict[str, str],
    url: str,
    alive: dict[str, bool],
) -> None:
    assert all(alive.values()), f"a judge died: {alive}"
    late = {
        mid: round(stream.answered[mid] - _answer_due(at, outages) + RECOVERY, 1)
        for mid, at in stream.delivered.items()
        if stream.answered[mid] > _answer_due(at, outages)
    }
    assert not late, f"answered more than {RECOVERY} s after the database's return (s after): {late}"

    received = [message_from_bytes(m.data, policy=policy.default) for m in relay.messages]
    replies = Counter(str(m["In-Reply-To"]) for m in received if m["In-Reply-To"])
    assert set(replies) == set(stream.delivered), "a reply to no mail"
    copies = Counter(str(m["Message-ID"]) for m in received)
    again = [mid for mid, n in copies.items() if n > 1]
    every_log = "\n".join(logs.values())
    # a reply the relay took as its process stopped may go once more, under its own Message-ID (docs/mail.md)
    assert len(again) <= every_log.count("may have accepted it"), f"sent twice: {again}"
    assert {mid: n for mid, n in replies.items() if n > 1 and mid not in again} == {}, "a mail answered twice"

    engine = create_engine(url)
    db = open_database(url, migrate=False)
    with db.transaction() as s:
        statuses = Counter(s.scalars(select(InboundMail.status)).all())
        game_id = s.scalar(select(Game.id).where(Game.name == "alpha"))
        phase = s.scalar(select(Game.phase_index).where(Game.id == game_id))
        ordered = dict(s.execute(select(OrderSet.power, OrderSet.lines).where(OrderSet.game_id == game_id)).all())
    db.dispose()
    engine.dispose()
    assert statuses == {"processed": len(stream.delivered)}, "a mail shunted, ignored or left"
    assert phase == 0, "the first phase went before its deadline"
    assert sorted(ordered) == sorted(ORDERING), "a power's orders were lost"
    assert all(ordered.values()), f"orders on file without their lines: {ordered}"

    for name, log in logs.items():
        assert "Traceback" not in log, f"{name} logged a traceback:\n{log[log.index('Traceback') - 300 :][:3000]}"
        went = log.count("the database is unavailable")
        back = log.count("the database answers again after")
        assert 1 <= went <= len(outages) and back == went, f"{name}: {went} outage lines, {back} return lines"
    latencies = sorted(stream.answered[mid] - at for mid, at in stream.delivered.items())
    after = {mid: stream.answered[mid] - _answer_due(at, outages) + RECOVERY for mid, at in stream.delivered.items()}
    worst = max(after, key=after.__getitem__)
    start = stream.delivered[min(stream.delivered, key=stream.delivered.__getitem__)]
    came, answered = stream.delivered[worst] - start, stream.answered[worst] - start
    print(
        f"\n{len(stream.delivered)} mails, {len(received)} delivered by the relay; outages (from, to) "
        f"{[(round(down - start, 1), round(up - start, 1)) for down, up in outages]} s; the slowest answer "
        f"{after[worst]:.1f} s after the mail came or the database returned ({worst}: came at {came:.1f} s, "
        f"answered at {answered:.1f} s); median latency {latencies[len(latencies) // 2]:.2f} s"
    )
