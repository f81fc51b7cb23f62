"""Several judge processes on one PostgreSQL database, as docs/operations.md tells an operator to run them: each a
real `judge serve` polling the same IMAP mailbox (a private Dovecot) and sending through the same relay (aiosmtpd),
one of them killed with SIGKILL in the middle of its work. Every mail is answered once, every game adjudicated once,
none missed (issue 19, item 1 and the kill -9 target); and a process that dies holding a game with work due leaves
that work to the others at once (item 4, deadline failover)."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from itertools import zip_longest
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, func, select, text, update

from judge.config import Config, OutboundConfig, SmtpIntakeConfig, WebConfig
from judge.game import Games
from judge.schedule.keeper import DeadlineKeeper
from judge.serve import Daemon
from judge.store import Game, InboundMail, OutboundMail, PhaseRecord, open_database
from judge.store.outage import is_unavailable
from judge.testing.dovecot import DovecotServer
from judge.testing.judge_process import Judge, judge_processes, order_mail
from judge.testing.smtp_relay import SmtpRelay
from judge.testing.tables import OPENING_ORDERS, POWERS, full_games

pytestmark = pytest.mark.slow  # end to end: real servers, real processes (make test-fast skips them)

GAMES = {"alpha": POWERS, "beta": POWERS}


@dataclass
class Run:
    """The mails delivered and what the test saw of the processes' work meanwhile."""

    delivered: list[str] = field(default_factory=list)
    """Message-IDs, in the order delivered"""
    in_flight: Counter[int] = field(default_factory=Counter)
    """inbound mail under way (an attempt counted, not finished) when a process was killed: how many times"""
    killed: list[str] = field(default_factory=list)

    def deliver(self, dovecot: DovecotServer, mails: list[tuple[str, str]], pause: float = 0) -> None:
        """Append the mails to the judge's mailbox (what the MTA does), `pause` seconds apart: mail trickling in
        is stored by both processes' pollers in turn, and each wakes its own processor."""
        with dovecot.client() as imap:
            for sender, body in mails:
                message_id = f"<m{len(self.delivered)}@example.org>"
                imap.append("INBOX", order_mail(sender, body, message_id))
                self.delivered.append(message_id)
                time.sleep(pause)


def _worker(engine: Engine, names: list[str], give_up: float) -> tuple[str, str] | None:
    """The judge process in the middle of handling stored mail: a batch is under way (its attempts counted, not
    finished), and the process's database session is in a transaction that has written, not merely waiting for
    another's lock, nor storing mail from IMAP. With its last statement; None if none is found."""
    while time.monotonic() < give_up:
        with engine.connect() as conn:
            found = conn.execute(
                text(
                    "SELECT application_name, query FROM pg_stat_activity WHERE datname = current_database() "
                    "AND application_name = ANY(:names) AND backend_xid IS NOT NULL "
                    "AND wait_event_type IS DISTINCT FROM 'Lock' "
                    "AND query NOT LIKE 'INSERT INTO inbound_mail%' AND query NOT LIKE '%imap_state%' "
                    "AND EXISTS (SELECT 1 FROM inbound_mail WHERE status = 'received' AND attempts > 0)"
                ),
                {"names": names},
            ).first()
        if found:
            return str(found[0]), " ".join(str(found[1]).split())[:60]
        time.sleep(0.005)
    return None


def _until_its_sessions_end(engine: Engine, name: str) -> None:
    """Wait until the database has let go of a killed process's sessions: a COMMIT it sent just before it died
    may still land after the process is gone, and the mail that commit counted is then under way too."""
    give_up = time.monotonic() + 30
    while time.monotonic() < give_up:
        with engine.connect() as conn:
            left = conn.execute(
                text("SELECT count(*) FROM pg_stat_activity WHERE application_name = :name"), {"name": name}
            ).scalar_one()
        if not left:
            return
        time.sleep(0.01)
    raise AssertionError(f"the database still holds sessions of {name} killed 30 s ago")


def _kill_the_worker(run: Run, judges: list[Judge], engine: Engine, restart: bool) -> None:
    running = {judge.name: judge for judge in judges if judge.process is not None}
    found = _worker(engine, list(running), time.monotonic() + 30)
    assert found is not None, "no judge process was caught at work"
    name, doing = found
    victim = running[name]
    victim.kill()
    _until_its_sessions_end(engine, name)
    with engine.connect() as conn:
        under_way = set(
            conn.execute(text("SELECT id FROM inbound_mail WHERE status = 'received' AND attempts > 0")).scalars()
        )
    run.in_flight.update(under_way)
    run.killed.append(f"{name} after {doing!r} with {len(under_way)} mail(s) under way")
    if restart:
        victim.start()


def _finished(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(text("SELECT count(*) FROM inbound_mail WHERE status <> 'received'")).scalar_one())


def _wait(condition: Any, timeout: float, what: str) -> None:
    give_up = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < give_up, f"gave up waiting for {what}"
        time.sleep(0.1)


def test_two_judge_processes_answer_every_mail_once_and_adjudicate_every_game_once_though_one_is_killed(
    postgres_url: str, mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path
) -> None:
    judges = judge_processes(tmp_path, postgres_url, mailbox, smtp_relay)
    engine = create_engine(postgres_url)
    open_database(postgres_url).dispose()  # the schema, before either process starts
    run = Run()
    for judge in judges:
        judge.start()
    try:
        # wave 1: accounts, two games, fourteen players joining them (each REGISTER and CREATE hashes a password:
        # the batch takes a second or two, and the first kill lands in it)
        run.deliver(
            mailbox,
            [("gm@example.org", "REGISTER The GM gmpass\nCREATE alpha standard letmein\nCREATE beta standard letmein")]
            + [
                (f"{power.lower()}.{game}@example.org", f"REGISTER {power} of {game} pw\nJOIN {game} letmein {power}")
                for game, powers in GAMES.items()
                for power in powers
            ],
        )
        _kill_the_worker(run, judges, engine, restart=True)
        _wait(lambda: _finished(engine) == len(run.delivered), 60, "the first wave to be handled")
        # wave 2: three order mails from each player (Russia of beta never orders), people looking on, and the GM
        # processing beta; alpha goes early, by the deadline keeper, once every order is in
        orders = [
            (f"{power.lower()}.{game}@example.org", f"SIGNON {game} {power} pw\n{OPENING_ORDERS[power]}")
            for _ in range(3)
            for game, powers in GAMES.items()
            for power in powers
            if (game, power) != ("beta", "Russia")
        ]
        lookers = [(f"looker{n}@example.org", f"LIST {'alpha' if n % 2 else 'beta'}") for n in range(40)]
        wave = [mail for pair in zip_longest(orders, lookers) for mail in pair if mail is not None]
        run.deliver(mailbox, wave, pause=0.02)
        run.deliver(mailbox, [("gm@example.org", "SIGNON beta MASTER gmpass\nPROCESS")])
        _kill_the_worker(run, judges, engine, restart=False)
        # wave 3: the one left alone takes the mailbox on by itself
        run.deliver(mailbox, [(f"late{n}@example.org", "HELP") for n in range(10)])

        # a reply each; game-start mails to 7 + the GM; one results mail a game, everyone reading the same sheet
        expected = len(run.delivered) + 2 * 8 + 2
        try:
            _wait(lambda: len({_id(m) for m in smtp_relay.messages}) >= expected, 90, f"{expected} distinct mails")
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n{_missing(run, smtp_relay, engine, judges)}") from None
        time.sleep(2)  # nothing more comes
    finally:
        for judge in judges:
            judge.stop()
        engine.dispose()
    logs = "\n".join(judge.log() for judge in judges)

    accepted = smtp_relay.messages
    received = [message_from_bytes(m.data, policy=policy.default) for m in accepted]
    replies: dict[str, set[str]] = defaultdict(set)
    for message in received:
        if message["In-Reply-To"]:
            replies[str(message["In-Reply-To"])].add(str(message["Message-ID"]))
    assert sorted(replies) == sorted(run.delivered), "a mail without a reply, or a reply to no mail"
    assert Counter(len(ids) for ids in replies.values()) == {1: len(run.delivered)}, "a mail answered twice"
    # a message the relay had when its sender was killed may come again, under the same Message-ID (docs/mail.md)
    again = [mid for mid, n in Counter(str(m["Message-ID"]) for m in received).items() if n > 1]
    assert len(again) <= logs.count("may have accepted it"), f"sent twice without a word in the log: {again}"

    results = Counter(
        (str(message["Subject"]), to)
        for message, m in zip(received, accepted, strict=True)
        if "results of" in str(message["Subject"] or "")
        for to in m.rcpt_tos  # one transaction for the readers of one sheet: counted by its envelope
    )
    assert sorted({subject.split(":")[0] for subject, _ in results}) == ["alpha S1901M", "beta S1901M"]
    assert set(results.values()) == {1} and len(results) == 2 * 8, "results missing, or sent twice"

    db = open_database(postgres_url, migrate=False)
    with db.transaction() as s:
        phases = Counter(s.execute(select(Game.name).join(PhaseRecord, PhaseRecord.game_id == Game.id)).scalars().all())
        statuses = Counter(s.execute(select(InboundMail.status)).scalars().all())
        attempts = {mail: n for mail, n in s.execute(select(InboundMail.id, InboundMail.attempts))}
        answered = Counter(
            s.execute(select(OutboundMail.inbound_id).where(OutboundMail.kind == "reply")).scalars().all()
        )
        shunted = s.scalar(select(func.count()).select_from(InboundMail).where(InboundMail.status == "shunted"))
    db.dispose()
    assert phases == {"alpha": 1, "beta": 1}, "a game adjudicated twice, or not at all"
    assert statuses == {"processed": len(run.delivered)} and shunted == 0
    assert set(answered.values()) == {1} and len(answered) == len(run.delivered)
    # an attempt is counted once whichever process makes it; one more for each kill that found the mail under way
    miscounted = {mail: n for mail, n in attempts.items() if not 1 <= n <= 1 + run.in_flight[mail]}
    assert not miscounted, f"attempts counted twice (mail: attempts): {miscounted}"
    assert len(run.killed) == 2
    print(
        f"\n{len(run.delivered)} mails, {len(received)} delivered by the relay; killed: {'; '.join(run.killed)}; "
        f"attempts: {dict(Counter(attempts.values()))}; sent again: {len(again)}"
    )


def _missing(run: Run, relay: SmtpRelay, engine: Engine, judges: list[Judge]) -> str:
    """What a run that gave up waiting lacks, for the failure's message: the mails without a reply and where the
    store has them, the results sent, what was killed, and the end of each judge's log."""
    sent = [message_from_bytes(m.data, policy=policy.default) for m in relay.messages]
    answered = {str(m["In-Reply-To"]) for m in sent if m["In-Reply-To"]}
    unanswered = [mid for mid in run.delivered if mid not in answered]
    with engine.connect() as conn:
        stored = conn.execute(
            text("SELECT message_id, status, attempts FROM inbound_mail WHERE message_id = ANY(:ids)"),
            {"ids": unanswered},
        ).all()
        games = conn.execute(text("SELECT name, status, phase_index, deadline FROM games ORDER BY name")).all()
    results = sorted({str(m["Subject"]) for m in sent if "results of" in str(m["Subject"] or "")})
    tails = "\n".join(f"--- {judge.name}\n" + "\n".join(judge.log().splitlines()[-40:]) for judge in judges)
    return (
        f"unanswered: {unanswered}\nin the store: {stored}\ngames: {games}\nresults sent: {results}\n"
        f"killed: {run.killed}\n{tails}"
    )


def _id(raw: Any) -> str:
    return str(message_from_bytes(raw.data, policy=policy.default)["Message-ID"])


# --- deadline failover ------------------------------------------------------------------------------------


def _hold_the_game(url: str, held: Any) -> None:
    """A judge process at work on the game: its row lock taken, then nothing (until it is killed)."""
    engine = create_engine(url)
    with engine.connect() as conn:
        conn.execute(text("SELECT id FROM games WHERE name = 'g0' FOR UPDATE"))
        held.set()
        time.sleep(600)


def test_a_process_killed_while_it_holds_a_due_game_leaves_it_to_the_others_at_once(
    postgres_url: str, tmp_path: Path
) -> None:
    """Issue 19, item 4: the keeper skips a game another process holds (SKIP LOCKED); when that process dies
    holding it, the game is processed by the survivor within seconds, not at the survivor's next wake-up (a
    minute away when nothing else is due)."""
    db = open_database(postgres_url)
    full_games(Games(db), 1, hashed_once=True)  # g0
    with db.transaction() as s:  # due now, with an order missing (so it waits for its deadline, not for orders)
        s.scalars(select(Game).where(Game.name == "g0")).one().deadline = datetime.now(UTC) - timedelta(seconds=1)
    context = multiprocessing.get_context("spawn")
    held = context.Event()
    holder = context.Process(target=_hold_the_game, args=(postgres_url, held), daemon=True)
    holder.start()
    assert held.wait(60)
    config = Config(
        database_url=postgres_url,
        smtp_intake=SmtpIntakeConfig(enabled=False),
        web=WebConfig(enabled=False),
        outbound=OutboundConfig(outbox_dir=str(tmp_path / "outbox")),
    )
    daemon = Daemon(config)
    daemon.start()  # its first round finds the game due and held by the other process
    try:
        threading.Event().wait(1.5)
        with db.transaction() as s:
            assert s.scalars(select(PhaseRecord)).first() is None, "processed under another process's lock"
        assert holder.pid is not None
        os.kill(holder.pid, signal.SIGKILL)
        holder.join()
        killed = datetime.now(UTC)
        _wait(lambda: _processed_at(db) is not None, 30, "the survivor to process the game")
    finally:
        daemon.shutdown()
    processed = _processed_at(db)
    db.dispose()
    assert processed is not None and processed >= killed - timedelta(seconds=1)


def _processed_at(db: Any) -> datetime | None:
    with db.transaction() as s:
        found: datetime | None = s.scalar(select(PhaseRecord.processed_at))
        return found


# --- the deadline keepers of two processes -------------------------------------------------------------------


def _due_games(url: str, games: int) -> None:
    """`games` started standard games g0, g1, ... (`full_games`: its players and games share one password digest,
    as thousands of scrypt hashes would be most of the test) with every deadline past and no orders."""
    db = open_database(url)
    full_games(Games(db), games, hashed_once=True)
    with db.transaction() as s:
        s.execute(update(Game).values(deadline=datetime.now(UTC) - timedelta(hours=1)))
    db.dispose()


def _keeper_round(args: tuple[str, Any]) -> list[str]:
    url, barrier = args
    db = open_database(url, migrate=False)
    keeper = DeadlineKeeper(db, Config(database_url=url))
    barrier.wait()
    done = keeper.tick()
    db.dispose()
    return done


def test_the_keepers_of_two_processes_divide_the_games_due_at_one_moment(database_url: str) -> None:
    """Issue 19, item 3: two keepers woken by the same deadline each take games the other does not hold; every game
    is processed once and sends its results once. On PostgreSQL both get a share (SKIP LOCKED); SQLite queues its
    writers, and a game the other has done is passed over."""
    games = 40
    _due_games(database_url, games)
    context = multiprocessing.get_context("spawn")
    with context.Manager() as manager:
        barrier = manager.Barrier(2)
        with context.Pool(2) as pool:
            rounds = pool.map(_keeper_round, [(database_url, barrier)] * 2)
    processed = [[line.split(":")[0] for line in done if "processed" in line] for done in rounds]
    assert sorted(processed[0] + processed[1]) == sorted(f"g{g}" for g in range(games))
    if not database_url.startswith("sqlite"):
        assert processed[0] and processed[1], f"one keeper did all the work: {[len(p) for p in processed]}"
    db = open_database(database_url, migrate=False)
    with db.transaction() as s:
        phases = Counter(s.execute(select(PhaseRecord.game_id)).scalars().all())
        results = Counter(
            (row.game_id, recipient)
            for row in s.execute(
                select(OutboundMail.game_id, OutboundMail.recipients).where(OutboundMail.kind == "result")
            )
            for recipient in row.recipients
        )
    db.dispose()
    assert len(phases) == games and set(phases.values()) == {1}
    assert len(results) == games * 8 and set(results.values()) == {1}


def test_a_game_whose_work_fails_does_not_hold_up_the_others(postgres_url: str, caplog: Any) -> None:
    """One game the keeper cannot process (its variant is gone) is logged and left for a later round; the games
    after it are processed in the same round."""
    _due_games(postgres_url, 3)
    db = open_database(postgres_url, migrate=False)
    with db.transaction() as s:
        s.execute(update(Game).where(Game.name == "g0").values(variant="withdrawn"))
    done = DeadlineKeeper(db, Config(database_url=postgres_url)).work()
    with db.transaction() as s:
        processed = sorted(s.execute(select(Game.name).join(PhaseRecord, PhaseRecord.game_id == Game.id)).scalars())
    db.dispose()
    assert done.failed == ["g0"] and processed == ["g1", "g2"]
    assert "the deadline work of g0 failed" in caplog.text


def test_a_deadlock_in_a_games_work_is_no_failure_it_is_done_again_and_nobody_is_told(postgres_url: str) -> None:
    """A deadlock PostgreSQL breaks (the keeper processing a game while another transaction holds one of its seats
    and then asks for the game) undoes the keeper's work: it is the database's moment, not the game's failure (the
    daemon waits for the database as for an outage, `judge.store.outage`, and goes on at once), nobody is told, and
    the next round processes the game."""
    _due_games(postgres_url, 1)
    db = open_database(postgres_url, migrate=False)
    keeper = DeadlineKeeper(db, Config(database_url=postgres_url, admin="admin@example.org"))
    other = create_engine(postgres_url)
    raised: list[BaseException] = []
    with other.connect() as conn:
        conn.execute(text("SET deadlock_timeout = '3s'"))  # the keeper, waiting first, is the one undone
        conn.execute(
            text(
                "SELECT seats.id FROM seats JOIN games ON games.id = seats.game_id "
                "WHERE games.name = 'g0' FOR UPDATE OF seats"
            )
        )
        worker = threading.Thread(target=_round, args=(keeper, raised))
        worker.start()
        _wait(lambda: _waiting_for_a_lock(other), 30, "the keeper to wait for the seat")
        conn.execute(text("SELECT id FROM games WHERE name = 'g0' FOR UPDATE"))  # the keeper holds it: a deadlock
        conn.rollback()
    worker.join(60)
    again = keeper.work()
    with db.transaction() as s:
        phases = s.scalar(select(func.count()).select_from(PhaseRecord))
        told = [r for r in s.scalars(select(OutboundMail.recipients)) if "admin@example.org" in r]
    db.dispose()
    other.dispose()
    assert len(raised) == 1 and is_unavailable(raised[0]), raised
    assert again.failed == [] and any(line.startswith("g0:") for line in again.done)
    assert phases == 1 and not told


def _round(keeper: DeadlineKeeper, raised: list[BaseException]) -> None:
    try:
        keeper.work()
    except Exception as error:
        raised.append(error)


def _waiting_for_a_lock(engine: Engine) -> bool:
    with engine.connect() as conn:
        waiting = conn.execute(
            text(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
        ).scalar_one()
    return bool(waiting)


def test_a_games_gm_and_the_admin_are_told_once_when_its_work_fails(postgres_url: str, caplog: Any) -> None:
    """A game whose stored position the judge cannot read (as a Hoplite Wars game's once, its mixed A/F at sea
    refused) fails at every round; its GM and the admin are told once for the phase, the GM without the error
    (it may quote orders), and the work is done once the game is mended."""
    _due_games(postgres_url, 2)
    db = open_database(postgres_url, migrate=False)
    with db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == "g0")).one()
        kept = dict(game.position or {})
        game.position = {**kept, "units": [*kept["units"], {"power": "England", "unit": "A", "at": "nth"}]}
    keeper = DeadlineKeeper(db, Config(database_url=postgres_url, admin="admin@example.org"))
    rounds = [keeper.work() for _ in range(3)]
    with db.transaction() as s:
        notices = [
            message_from_bytes(raw, policy=policy.default)
            for raw in s.scalars(select(OutboundMail.message).where(OutboundMail.kind == "notice"))
        ]
    notices = [m for m in notices if str(m["Subject"]).startswith("g0:")]  # g1's players are told they are late
    told = Counter((str(m["To"]), str(m["Subject"])) for m in notices)
    assert [r.failed for r in rounds] == [["g0"]] * 3
    assert told == {
        ("admin@example.org", "g0: the work due failed"): 1,
        ("gm@example.org", "g0: Spring 1901 Movement is held up"): 1,
    }
    by_whom = {str(m["To"]): m.get_content() for m in notices}
    assert "an army cannot stand in nth" in by_whom["admin@example.org"]
    assert "nth" not in by_whom["gm@example.org"] and "England" not in by_whom["gm@example.org"]
    assert caplog.text.count("admin told") == 1 and caplog.text.count("failed again") == 2  # the trace logged once
    with db.transaction() as s:
        s.scalars(select(Game).where(Game.name == "g0")).one().position = kept
    mended = keeper.work()
    db.dispose()
    assert mended.failed == [] and any(line.startswith("g0:") for line in mended.done)
