"""The mail benchmark: N order mails from the players of several games, appended to a real Dovecot, then timed
until every one is stored, checked against its game and answered (its reply queued) -- next to the raw IMAP
fetch-and-parse rate measured in the same run, the ceiling any judge reading that mailbox has.

Three set-ups: SQLite with one judge process, PostgreSQL with one, and PostgreSQL with two processes on the one
database and mailbox (docs/operations.md, "How the work is shared"). Each judge is a real process (`_RUNNER`: the
judge as `judge serve` runs it), started on a fresh database and mailbox, its players' passwords checked before the
clock starts (as a judge that has been running has). With `--baseline REF` the same set-ups are run with the judge
of REF (exported from git, as the engine's baseline is) in the same run, alternately with this tree's."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from sqlalchemy import func, select

from bench.baseline import ROOT, _export
from bench.cpu import idle_cpu_seconds, process_cpu
from judge.store import Database, OutboundMail, OutboundStatus, open_database
from judge.testing.dovecot import DovecotServer, dovecot_available
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.tables import OPENING_ORDERS, Seat

STALL_SECONDS = 600
"""the benchmark gives up (and says so) if the replies are not all sent by then"""

SETUPS = (("SQLite", 1), ("PostgreSQL", 1), ("PostgreSQL", 2))
"""(database, judge processes)"""

_RUNNER = """
import json, sys
from judge.config import Config, ImapConfig, OutboundConfig, SmtpIntakeConfig
from judge.passwords import verify_password
from judge.serve import Daemon
from judge.store import Player, open_database
a = json.loads(sys.argv[1])
db = open_database(a["url"])
with db.transaction() as s:  # a judge that has been running has checked its players' passwords before
    for player in s.query(Player):
        verify_password("pw", player.password_hash)
site = {}
try:  # a judge of a ref before the web site has no [web]
    from judge.config import WebConfig
    from dataclasses import fields

    given = {"enabled": a["web"], "port": 0, "secret_file": a["outbox"] + "-web-secret"}  # a file before 0008
    site = {"web": WebConfig(**{f.name: given[f.name] for f in fields(WebConfig) if f.name in given})}
except ImportError:
    pass
config = Config(
    address="judge@example.org",
    rate_limit=10**9,  # the benchmark's players write more often than the limit lets anyone
    database_url=a["url"],
    smtp_intake=SmtpIntakeConfig(enabled=False),
    imap=ImapConfig(enabled=True, host=a["host"], port=a["port"], security="plain", user=a["user"], password="secret"),
    outbound=OutboundConfig(outbox_dir=a["outbox"]),
    **site,
)
daemon = Daemon(config, db=db)
print("ready", flush=True)
sys.stdin.readline()
daemon.start()
web = getattr(daemon, "web", None)
print(web.url if web is not None else "-", flush=True)  # the site's address, for a reader
sys.stdin.readline()  # the bench says stop (or goes away)
daemon.shutdown()
"""


_SETUP = """
import json, sys
from judge.game import Games
from judge.store import open_database
from judge.testing.tables import full_games
db = open_database(sys.argv[1])
print(json.dumps([[s.game, s.power, s.address] for s in full_games(Games(db), int(sys.argv[2]))]))
db.dispose()
"""


def _order_mail(address: str, game: str, power: str, n: int) -> bytes:
    message = EmailMessage()
    message["From"] = address
    message["To"] = "judge@example.org"
    message["Subject"] = f"orders {n}"
    message["Message-ID"] = f"<bench{n}@example.org>"
    message.set_content(f"SIGNON {game} {power} pw\n{OPENING_ORDERS[power]}\n")
    return bytes(message)


@contextmanager
def _database_url(kind: str, folder: str) -> Iterator[str]:
    if kind == "SQLite":
        yield f"sqlite:///{Path(folder) / 'judge.sqlite'}"
        return
    with scratch_database() as url:
        yield url


@contextmanager
def _folder(keep: Path | None) -> Iterator[str]:
    """A run's folder: made in `keep` and left there (deleted with it when the whole benchmark ends), or a temporary
    one deleted after the run. Deleting a run's thousands of reply files just before the next run writes its own
    measured the filesystem, not the judge, on a machine seen here: on ext4 without a journal, a new file's inode
    is not taken from those freed in the last minute or more, and each of the next run's files cost 0.3 ms of CPU
    looking past them (0.01-0.03 ms otherwise), more than a third of what the judge spends on the mail it answers."""
    if keep is not None:
        yield tempfile.mkdtemp(dir=keep)
        return
    with tempfile.TemporaryDirectory() as folder:
        yield folder


@dataclass
class Timing:
    answered: float
    """seconds until every mail was stored, checked and answered (its reply queued)"""
    sent: float
    """seconds until every reply was sent (.eml)"""
    idle: float | None = None
    """CPU-seconds the machine's cores were idle until every mail was answered (/proc/stat; None elsewhere): how far
    the judges were short of CPU, or waiting"""
    cpu: float = 0.0
    """CPU-seconds the judge processes spent until every mail was answered (/proc; 0 elsewhere): the judge's cost,
    steadier from run to run than its rate on a machine shared with others"""


def _reference(dovecot: DovecotServer, user: str) -> float:
    """Seconds to fetch every message of the mailbox and parse it, nothing else."""
    start = time.perf_counter()
    with dovecot.client(user) as imap:
        imap.select_folder("INBOX", readonly=True)
        uids = imap.search("ALL")
        for i in range(0, len(uids), 500):
            for data in imap.fetch(uids[i : i + 500], ["BODY.PEEK[]"]).values():
                parsed = message_from_bytes(data[b"BODY[]"], policy=policy.default)
                _ = parsed["From"], parsed["Subject"], parsed.get_body(("plain",))
    return time.perf_counter() - start


@dataclass(frozen=True)
class SiteReader:
    """A command given the site's address and a rate, reading the site in a process of its own while the judge
    works, printing the pages it read when stopped (bench/web.py)."""

    command: list[str]
    rate: float


def _run(tree: Path, dovecot: DovecotServer, user: str, database: str, processes: int, mails: int,
         games: int, reference: bool = False, web: bool = False,
         reader: SiteReader | None = None, keep: Path | None = None) -> tuple[Timing | None, float]:  # fmt: skip
    """One set-up, on a fresh database and mailbox: the judges of `tree` at work until every reply is sent; with
    `web` the judges serve the site too, and `reader` reads the first one's all along. `keep`: where the run's
    folder (its outbox, its SQLite file) is made and left until the caller is done with every run (`_folder`)."""
    dovecot.add_user(user, "secret")
    with _folder(keep) as folder, _database_url(database, folder) as url:
        # the games are made by the tree under test (its schema: a ref before a migration cannot open a database
        # this tree made), and watched without migrating
        made = subprocess.run([sys.executable, "-c", _SETUP, url, str(games)], cwd=tree, check=True, text=True,
                              capture_output=True, env={**os.environ, "PYTHONPATH": str(tree)})  # fmt: skip
        players = [Seat(*seat) for seat in json.loads(made.stdout.strip().splitlines()[-1])]
        db = open_database(url, migrate=False)
        with dovecot.client(user) as imap:
            for n in range(mails):
                seat = players[n % len(players)]
                imap.append("INBOX", _order_mail(seat.address, seat.game, seat.power, n))
        took_reference = _reference(dovecot, user) if reference else 0.0
        args = {"url": url, "host": dovecot.host, "port": dovecot.imap_port, "user": user,
                "outbox": str(Path(folder) / "outbox"), "web": web}  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(tree)}
        logs = [Path(folder) / f"judge{n}.log" for n in range(processes)]
        judges = [
            subprocess.Popen(
                [sys.executable, "-c", _RUNNER, json.dumps(args)],
                cwd=tree,
                env=env,
                text=True,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log.open("w"),
            )
            for log in logs
        ]
        reading: subprocess.Popen[str] | None = None
        try:
            for judge in judges:
                assert judge.stdout is not None and judge.stdout.readline().strip() == "ready", "a judge did not start"
            start = time.perf_counter()
            idle_at_start = idle_cpu_seconds()
            cpu_at_start = sum(process_cpu(judge.pid) for judge in judges)
            for judge in judges:
                assert judge.stdin is not None
                judge.stdin.write("go\n")
                judge.stdin.flush()
            sites = [judge.stdout.readline().strip() for judge in judges if judge.stdout is not None]
            if reader is not None and sites and sites[0] != "-":
                reading = subprocess.Popen([*reader.command, sites[0], str(reader.rate)], stdout=subprocess.PIPE,
                                           text=True)  # fmt: skip
            timing = _watch(db, mails, start, judges, idle_at_start, cpu_at_start)
            if reading is not None:
                reading.terminate()
                out, _ = reading.communicate(timeout=30)
                pages = int(out.split()[-1]) if out.split() else 0
                if timing is not None:
                    print(f"  (the site was read {pages} times meanwhile: {pages / timing.sent:.1f} pages/s)")
            if timing is None:  # say why
                for log in logs:
                    print("\n".join(log.read_text().splitlines()[-5:]))
        finally:
            for judge in judges:
                assert judge.stdin is not None
                judge.stdin.close()
            for judge in judges:
                judge.wait(timeout=60)
            db.dispose()
    return timing, took_reference


def _watch(
    db: Database,
    mails: int,
    start: float,
    judges: list[subprocess.Popen[str]],
    idle_at_start: float | None = None,
    cpu_at_start: float = 0.0,
) -> Timing | None:
    """Poll the outbound queue until every reply is sent; None if that takes longer than `STALL_SECONDS`, or a
    judge process ends."""
    answered = 0.0
    idle = None
    cpu = 0.0
    while True:
        time.sleep(0.05)
        with db.transaction() as s:
            counts = dict(
                s.execute(
                    select(OutboundMail.status, func.count())
                    .where(OutboundMail.kind == "reply")
                    .group_by(OutboundMail.status)
                ).all()
            )
        now = time.perf_counter() - start
        if not answered and sum(counts.values()) >= mails:
            answered = now
            idle_now = idle_cpu_seconds()
            idle = idle_now - idle_at_start if idle_now is not None and idle_at_start is not None else None
            cpu = sum(process_cpu(judge.pid) for judge in judges) - cpu_at_start
        if counts.get(OutboundStatus.SENT, 0) >= mails:
            return Timing(answered, now, idle, cpu)
        if now > STALL_SECONDS or any(judge.poll() is not None for judge in judges):
            return None


def mail_benchmark(mails: int, games: int = 10, baseline: str = "") -> None:
    problem = dovecot_available()
    if problem:
        print(f"mail: skipped ({problem})")
        return
    setups = [s for s in SETUPS if s[0] == "SQLite" or postgres_problem() is None]
    print(f"mail: {mails} order mails from {games * 7} players of {games} games, through Dovecot, each judge a "
          f"process of its own" + (f"; this tree against {baseline}, alternately" if baseline else ""))  # fmt: skip
    if len(setups) < len(SETUPS):
        print(f"  PostgreSQL: skipped ({postgres_problem()})")
    with (
        tempfile.TemporaryDirectory(prefix="judge-baseline-") as tmp,
        tempfile.TemporaryDirectory(prefix="judge-mail-runs-") as runs,
        DovecotServer() as dovecot,
    ):
        runs_folder = Path(runs)
        trees = [("this tree", ROOT)]
        if baseline:
            _export(baseline, Path(tmp))
            trees.insert(0, (baseline, Path(tmp)))
        results: dict[tuple[str, str, int], Timing | None] = {}
        runs = 0
        for database, processes in setups:
            for name, tree in trees:
                timing, reference = _run(tree, dovecot, f"run{runs}", database, processes, mails, games,
                                         reference=runs == 0, keep=runs_folder)  # fmt: skip
                if runs == 0:
                    print(f"  reference (IMAP fetch + parse only): {mails / reference:8,.0f} mails/s")
                runs += 1
                results[(name, database, processes)] = timing
                _line(name, database, processes, mails, timing, results.get((name, database, 1)))
        if baseline:
            for database, processes in setups:
                then, now = results[(baseline, database, processes)], results[("this tree", database, processes)]
                if then and now:
                    cost = f", at {now.cpu / then.cpu:.2f} x its CPU a mail" if then.cpu and now.cpu else ""
                    print(f"  {database}, {processes} process(es): this tree answers at "
                          f"{then.answered / now.answered:.2f} x the rate of {baseline}{cost}")  # fmt: skip


def mail_time_over_reference(mails: int, web: bool = False, reader: SiteReader | None = None,
                             keep: Path | None = None) -> float | None:  # fmt: skip
    """One SQLite judge of this tree answering `mails` order mails, its time over the IMAP reference of the same
    mailbox (the machine's load moves both); with `web` the judge serves its site, read by `reader` all along.
    None when Dovecot is missing or the judge stopped (bench/web.py compares with and without the site). `keep`:
    as `_run`'s."""
    if dovecot_available():
        return None
    with DovecotServer() as dovecot:
        timing, reference = _run(ROOT, dovecot, "site", "SQLite", 1, mails, 10, reference=True, web=web,
                                 reader=reader, keep=keep)  # fmt: skip
    return timing.answered / reference if timing is not None else None


def _line(name: str, database: str, processes: int, mails: int, timing: Timing | None, one: Timing | None) -> None:
    label = f"{name:>10} {database:10} {processes} process{'es' if processes > 1 else '  '}"
    if timing is None:
        print(f"  {label}: stopped, the replies not all sent (a judge ended, or {STALL_SECONDS} s passed)")
        return
    scale = f"  ({one.answered / timing.answered:.2f} x one process)" if processes > 1 and one else ""
    cores = os.cpu_count() or 1
    idle = f"; cores idle {timing.idle:.1f} of {cores * timing.answered:.1f} CPU-s" if timing.idle is not None else ""
    cost = f"; the judges' CPU {1000 * timing.cpu / mails:.2f} ms a mail" if timing.cpu else ""
    print(f"  {label}: stored, checked and answered {mails / timing.answered:6,.0f} mails/s, every reply sent "
          f"{mails / timing.sent:6,.0f} mails/s{scale}{idle}{cost}")  # fmt: skip
