"""A deadline rush as the players see it (issue 31): N standard games due at one moment on one PostgreSQL database,
real `judge serve` processes (one, then two), and the time from the deadline to the last results copy in the
players' mailboxes -- not to the moment the results were queued, which is all `bench.deadlines` times.

The games are `bench.deadlines.build_games`' (six powers of seven with orders on file), built once in a template
database and copied for each round, so every round starts from the same bytes; their reminders and late notices
are marked done, so the rush is the results alone. Each round starts its processes from config files as an
operator would (mail in through the judge's own SMTP listener, out through an aiosmtpd relay on this machine),
waits until the deadline (`--lead`, `LEAD` seconds after the processes start by default: their start-up is not the
rush's), and during the rush mails the judge a LIST every second from a player. A judge draws the results pictures
of the games due within ten minutes ahead of their deadline (`DeadlineKeeper.draw_ahead`): a longer lead (the
judges up for a while before the deadline, as a judge running for days is) shows what that saves the rush; the
pictures drawn before the deadline and the judges' CPU then are shown apart.

The relay is store-and-forward, as Postfix in front of Dovecot: it answers 250 once a message is queued and
delivers it right after over LMTP into a private Dovecot (`judge.testing.lmtp_delivery`, `CONNECTIONS` LMTP
connections, one transaction a message with a RCPT TO for each recipient), where every player and the GM is a user.
A copy is in its mailbox when LMTP answers 250 for its recipient; that is what the players see, and what the
"in the mailboxes" figures time. The relay's acceptance is timed too, as before, so the two can be told apart.
After the round the mailboxes are counted (one `doveadm mailbox status` over every user): each must hold every copy
the relay accepted for it.

Figures a round: when the last results copy was accepted by the relay and when it was in its mailbox (and half,
and 90 %, of the players' copies, both ways); the replies' latency, from the LIST's sending to the reply in the
player's mailbox (median and worst; to the relay's acceptance as well); the delivery lag (a message's acceptance
to its last copy saved, median and worst); the pauses of over half a second between two mails at the relay while
results were still owed; the CPU time of the judges, of Dovecot and of this process (the relay and its LMTP
client). `--baseline REF` runs the same rounds, in the same run, with the judge of a git ref (exported by
`bench.baseline`), for ratios that survive a loaded machine. `--workers 0,1,2` runs this tree's rounds with pictures
once for each number of picture workers (`[judge] picture_workers`).

`python -m bench.rush --games 200` (`make bench` runs it with 200; the issue's figure is `--games 1000`).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlalchemy import select, update

from bench.baseline import ROOT, _export
from bench.cpu import process_cpu
from bench.deadlines import build_games
from judge.game.settings import DEFAULT_SETTINGS
from judge.game.timing import grace_end, timing_from_settings
from judge.store import Game, Marks, Player, open_database
from judge.testing.dovecot import DovecotServer, dovecot_available, free_port
from judge.testing.lmtp_delivery import Delivered, LmtpDelivery
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.smtp_relay import ReceivedMessage, SmtpRelay
from judge.testing.tables import POWERS

LEAD = 8.0
"""seconds between starting the judges and the deadline: their start-up is not part of the rush"""


def long_lead(games: int) -> float:
    """A lead in which two judges draw every game's picture ahead (about 80 ms a game and process, two cores)."""
    return max(30.0, 0.09 * games)


PAUSE = 0.5
"""a gap at the relay longer than this while results are owed counts as a pause"""
RESULTS = b": results of "
CONNECTIONS = 4
"""LMTP connections the relay delivers on (Postfix opens up to 20 to one destination; two cores need no more)"""


@dataclass(frozen=True)
class Times:
    """When the players' copies of the results got somewhere, in seconds from the deadline."""

    last: float | None
    """the last copy (None: not all within the timeout)"""
    half: float
    ninety: float
    copies: int

    @staticmethod
    def of(times: list[float], owed: int) -> Times:
        times = sorted(times)
        return Times(
            last=times[-1] if len(times) >= owed else None,
            half=times[owed // 2 - 1] if len(times) >= owed // 2 else float("nan"),
            ninety=times[owed * 9 // 10 - 1] if len(times) >= owed * 9 // 10 else float("nan"),
            copies=len(times),
        )


@dataclass(frozen=True)
class Rush:
    label: str
    processes: int
    pictures: bool
    delivered: bool
    """delivered into the mailboxes (else the relay only accepted, and `boxed` and the mailbox figures are empty)"""
    accepted: Times
    """the results copies at the relay's acceptance (recipients of the results mails accepted)"""
    boxed: Times
    """the results copies in the players' mailboxes (LMTP's 250 for each)"""
    owed: int
    transactions: int
    replies: list[float]
    """each LIST's reply in the player's mailbox, seconds from its sending (inf: none in the timeout)"""
    replies_accepted: list[float]
    """the same replies at the relay's acceptance"""
    lags: list[float]
    """each delivered message's acceptance to its last copy saved"""
    held: int
    """messages the mailboxes hold after the round, counted by Dovecot"""
    expected: int
    """copies the relay accepted (every message times its recipients): what the mailboxes must hold"""
    wrong: int
    """users whose mailbox holds another number of messages than the relay accepted for them"""
    refused: int
    """copies LMTP refused"""
    pauses: int
    paused: float
    cpu: float
    cpu_before: float
    """the judges' CPU from their start to the deadline (part of `cpu`)"""
    drawn_ahead: int
    """results pictures the judges drew ahead of the deadline (their logs)"""
    dovecot_cpu: float
    relay_cpu: float


def _config(
    folder: Path, name: str, url: str, relay: SmtpRelay, intake: int, pictures: bool, workers: int | None
) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(
        f"""[judge]
address = "judge@example.org"
name = "benchjudge"
admin = "admin@example.org"
pictures = {"true" if pictures else "false"}
{"" if workers is None else f"picture_workers = {workers}"}
[database]
url = "{url}?application_name={name}"
[intake.smtp]
enabled = true
host = "127.0.0.1"
port = {intake}
[intake.imap]
enabled = false
[outbound]
relay_host = "{relay.host}"
relay_port = {relay.port}
relay_security = "plain"
""",
        encoding="utf-8",
    )
    return path


def _due_at(url: str, moment: datetime) -> None:
    """Every game's processing due at `moment` (its deadline that much before, by its grace), its reminder and
    late notices marked sent."""
    timing = timing_from_settings(DEFAULT_SETTINGS)
    grace = grace_end(moment, timing, "movement") - moment
    db = open_database(url, migrate=False)
    with db.transaction() as s:
        done = Marks(reminded=0, late=0, gm_told=0)  # the games' phase 0
        s.execute(update(Game).values(deadline=moment - grace, marks=done))
    db.dispose()


def _ask(port: int, game: int) -> tuple[str, float]:
    """A player's LIST, mailed to the judge's SMTP listener; its Message-ID and when it went."""
    message = EmailMessage()
    message["From"] = f"{POWERS[game % len(POWERS)].lower()}{game}@example.org"
    message["To"] = "judge@example.org"
    message["Subject"] = "list"
    message["Message-ID"] = make_msgid(domain="player.example.org")
    message.set_content(f"LIST g{game}\n")
    sent = time.monotonic()
    with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
        smtp.send_message(message)
    return str(message["Message-ID"]), sent


def _is_results(message: ReceivedMessage) -> bool:
    return RESULTS in _head(message)


def _head(message: ReceivedMessage) -> bytes:
    return message.data[: message.data.find(b"\r\n\r\n")]


def _users(url: str) -> list[str]:
    """The Dovecot users the round's mail goes to: every player and the GM (by local part, as LMTP delivers), and
    the admin."""
    db = open_database(url, migrate=False)
    with db.transaction() as s:
        addresses = list(s.scalars(select(Player.address)))
    db.dispose()
    return sorted({address.split("@")[0].lower() for address in addresses} | {"admin"})


def _dovecot_cpu(dovecot: DovecotServer) -> float:
    """Seconds of CPU of the Dovecot's processes so far, with those of its children that ended (the master's
    cutime and cstime)."""
    return sum(process_cpu(pid, children=True) for pid in dovecot.processes())


def _cpu(usage: resource.struct_rusage) -> float:
    return usage.ru_utime + usage.ru_stime


def _round(
    template: str,
    games: int,
    processes: int,
    pictures: bool,
    tree: Path,
    label: str,
    timeout: float,
    workers: int | None = None,
    deliver: bool = True,
    lead: float = LEAD,
) -> Rush:
    """One rush; with `deliver` off, the relay only accepts (as before delivery was timed): the same run's cost of
    delivery is the difference."""
    owed = games * (len(POWERS) + 1)  # each game's players and its GM
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with scratch_database(template=template) as url:
        users = _users(url)
        with (
            DovecotServer(users=dict.fromkeys(users, "pw")) as dovecot,
            LmtpDelivery(dovecot.host, dovecot.lmtp_port, CONNECTIONS) as delivery,
            SmtpRelay(delivery if deliver else None) as relay,
            tempfile.TemporaryDirectory() as tmp,
        ):
            folder = Path(tmp)
            # each player's mailbox exists before the deadline, as a real player's does (looking at it makes it):
            # the rush's deliveries do not pay for creating 7,000 mailboxes, some 15 % of Dovecot's CPU
            dovecot.message_counts(users)
            ports = [free_port() for _ in range(processes)]
            configs = [_config(folder, f"rush-{n}", url, relay, ports[n], pictures, workers) for n in range(processes)]
            deadline = datetime.now(UTC) + timedelta(seconds=lead)
            _due_at(url, deadline)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            judges = [
                subprocess.Popen(
                    [sys.executable, "-m", "judge", "--config", str(config), "serve"],
                    cwd=folder,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=(folder / f"{config.stem}.log").open("wb"),
                )
                for config in configs
            ]
            start = time.monotonic() + (deadline - datetime.now(UTC)).total_seconds()
            asked: dict[str, float] = {}
            answered: dict[str, float] = {}
            """the reply in the player's mailbox"""
            taken: dict[str, float] = {}
            """the reply at the relay's acceptance"""
            try:
                time.sleep(max(0.0, start - time.monotonic()))
                cpu_before = sum(process_cpu(judge.pid) for judge in judges)
                mine, dovecot_before = resource.getrusage(resource.RUSAGE_SELF), _dovecot_cpu(dovecot)
                boxed, copies, seen, looked = 0, 0, 0, 0
                while time.monotonic() - start < timeout:
                    done = boxed if deliver else copies
                    if done < owed and len(asked) < int(time.monotonic() - start):
                        n = len(asked)
                        message_id, sent = _ask(ports[n % processes], n % games)
                        asked[message_id] = sent
                    # each message looked at once: the loop shares the relay's core
                    received = relay.messages
                    for m in received[seen:]:
                        copies += len(m.rcpt_tos) if _is_results(m) else 0
                        _answers(_head(m), asked, taken, m.at)
                    seen = len(received)
                    delivered = delivery.delivered
                    for d in delivered[looked:]:
                        head = _head(d.message)
                        if RESULTS in head:
                            boxed += sum(copy.saved for copy in d.copies)
                        _answers(head, asked, answered, d.at)
                    looked = len(delivered)
                    if (boxed if deliver else copies) >= owed and len(answered if deliver else taken) == len(asked):
                        break
                    time.sleep(0.1)
            except BaseException:
                for log in sorted(folder.glob("*.log")):
                    print(f"--- {log.name}:\n{log.read_text(errors='replace')[-3000:]}", file=sys.stderr)
                raise
            finally:
                for judge in judges:
                    judge.terminate()
                for judge in judges:
                    judge.wait(60)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            received = relay.messages
            try:  # what the judges handed over before they stopped is delivered before the mailboxes are counted
                delivered = delivery.wait_delivered(len(received) if deliver else 0, timeout=60)
            except TimeoutError:
                delivered = delivery.delivered
            dovecot_cpu, relay_cpu = _dovecot_cpu(dovecot) - dovecot_before, _cpu(resource.getrusage(0)) - _cpu(mine)
            counts = dovecot.message_counts(users) if deliver else {}
            drawn_ahead = sum(
                int(n) for log in folder.glob("*.log") for n in _DRAWN_AHEAD.findall(log.read_text(errors="replace"))
            )
    accepted = [m.at - start for m in received if _is_results(m) for _ in m.rcpt_tos]
    results = sorted(m.at for m in received if _is_results(m))
    arrivals = [m.at for m in received if results and m.at <= results[-1]]
    gaps = [b - a for a, b in zip([start, *arrivals], arrivals, strict=False) if b - a > PAUSE]
    owned: dict[str, int] = {}
    for m in received if deliver else []:
        for address in m.rcpt_tos:
            owned[address.split("@")[0].lower()] = owned.get(address.split("@")[0].lower(), 0) + 1
    return Rush(
        label=label,
        processes=processes,
        pictures=pictures,
        delivered=deliver,
        accepted=Times.of(accepted, owed),
        boxed=Times.of(_saved(delivered, start), owed),
        owed=owed,
        transactions=len(results),
        replies=_latencies(asked, answered),
        replies_accepted=_latencies(asked, taken),
        lags=sorted(d.at - d.message.at for d in delivered),
        held=sum(counts.values()),
        expected=sum(owned.values()),
        wrong=sum(counts.get(user, 0) != owned.get(user, 0) for user in {*counts, *owned}),
        refused=sum(not copy.saved for d in delivered for copy in d.copies),
        pauses=len(gaps),
        paused=sum(gaps),
        cpu=_cpu(after) - _cpu(before),
        cpu_before=cpu_before,
        drawn_ahead=drawn_ahead,
        dovecot_cpu=dovecot_cpu,
        relay_cpu=relay_cpu,
    )


_DRAWN_AHEAD = re.compile(r"(\d+) results picture\(s\) drawn ahead of their deadline")


def _answers(head: bytes, asked: dict[str, float], answered: dict[str, float], at: float) -> None:
    """Note `at` for the LIST this mail answers, if it answers one."""
    if b"In-Reply-To: " not in head:
        return
    for message_id in asked.keys() - answered.keys():
        if f"In-Reply-To: {message_id}".encode() in head:
            answered[message_id] = at


def _saved(delivered: list[Delivered], start: float) -> list[float]:
    """When each results copy was saved in its mailbox, from the deadline."""
    return [c.at - start for d in delivered if _is_results(d.message) for c in d.copies if c.saved]


def _latencies(asked: dict[str, float], answered: dict[str, float]) -> list[float]:
    return sorted(answered[m] - asked[m] for m in answered) + [float("inf")] * (len(asked) - len(answered))


def _times(times: Times, owed: int) -> str:
    last = f"{times.last:6.1f} s" if times.last is not None else f"  >{times.copies}/{owed} copies"
    return f"{last} (half {times.half:.1f} s, 90 % {times.ninety:.1f} s)"


def _show(rush: Rush) -> None:
    replies = rush.replies or [float("nan")]
    accepted = rush.replies_accepted or [float("nan")]
    lags = rush.lags or [float("nan")]
    heading = f"  {rush.label}, {rush.processes} process(es), pictures {'on ' if rush.pictures else 'off'}"
    if not rush.delivered:
        print(
            f"{heading}, relay only (no delivery):\n    last results copy accepted by the relay "
            f"{_times(rush.accepted, rush.owed)}; {rush.transactions} SMTP transactions\n"
            f"    replies at the relay {statistics.median(accepted):.2f} s median, {max(accepted):.2f} s worst "
            f"({len(rush.replies)}); {rush.pauses} pauses over {PAUSE} s ({rush.paused:.1f} s); "
            f"CPU: judges {rush.cpu:.0f} s, relay and bench {rush.relay_cpu:.0f} s"
        )
        return
    print(
        f"{heading}:\n"
        f"    last results copy in the mailboxes {_times(rush.boxed, rush.owed)}; "
        f"accepted by the relay {_times(rush.accepted, rush.owed)}; {rush.transactions} SMTP transactions\n"
        f"    replies in the mailbox {statistics.median(replies):.2f} s median, {max(replies):.2f} s worst "
        f"({len(rush.replies)}; at the relay {statistics.median(accepted):.2f} s, {max(accepted):.2f} s); "
        f"delivery lag {statistics.median(lags):.2f} s median, {max(lags):.2f} s worst\n"
        f"    mailboxes hold {rush.held} of {rush.expected} copies accepted ({rush.wrong} mailboxes wrong, "
        f"{rush.refused} copies refused); {rush.pauses} pauses over {PAUSE} s ({rush.paused:.1f} s); "
        f"CPU: judges {rush.cpu:.0f} s, Dovecot {rush.dovecot_cpu:.0f} s, relay and bench {rush.relay_cpu:.0f} s"
        + (
            f"\n    before the deadline: {rush.drawn_ahead} results pictures drawn ahead, the judges' CPU "
            f"{rush.cpu_before:.0f} s (of the {rush.cpu:.0f} s)"
            if rush.drawn_ahead or rush.cpu_before > 10
            else ""
        )
    )


_BUILD = """
import sys
from bench.deadlines import build_games
from judge.store import open_database
db = open_database(sys.argv[1])
build_games(db, int(sys.argv[2]))
db.dispose()
"""


def rush_benchmark(
    games: int,
    processes: tuple[int, ...] = (1, 2),
    pictures: tuple[bool, ...] = (True, False),
    baseline: str = "",
    timeout: float | None = None,
    workers: tuple[int | None, ...] = (None,),
    delivery: tuple[bool, ...] = (True,),
    leads: tuple[float, ...] = (LEAD,),
) -> list[Rush]:
    """Each combination of processes and pictures, on this tree (and on `baseline`'s judge, alternately); this
    tree's with each number of picture workers in `workers` where pictures are on (None: the judge's default);
    each with delivery into the mailboxes and/or without (`delivery`: the relay only accepts)."""
    problem = postgres_problem()
    if problem:
        print(f"rush: skipped ({problem})")
        return []
    no_dovecot = dovecot_available()
    if no_dovecot and any(delivery):
        print(f"rush: the relay only accepts, nothing is delivered ({no_dovecot})")
        delivery = (False,)
    limit = timeout if timeout is not None else max(180.0, games * 0.6)
    print(f"rush: {games} games due at one moment, on PostgreSQL, to the last results copy in its mailbox")
    rushes: list[Rush] = []
    with (
        tempfile.TemporaryDirectory(prefix="judge-baseline-") as old,
        scratch_database() as template,
        scratch_database() as old_template,
    ):
        trees = [("this tree", ROOT)]
        templates = {ROOT: template}
        if baseline:
            _export(baseline, Path(old), ("judge", "maps", "templates", "migrations"))
            trees.append((baseline, Path(old)))
            templates[Path(old)] = old_template
        began = time.perf_counter()
        db = open_database(template)
        build_games(db, games)
        db.dispose()
        if baseline:  # the ref's games in its own schema (a ref before a migration cannot open this tree's)
            subprocess.run([sys.executable, "-c", _BUILD, old_template, str(games)], cwd=old, check=True,
                           env={**os.environ, "PYTHONPATH": f"{old}{os.pathsep}{ROOT}"})  # fmt: skip
        print(f"  set-up: {time.perf_counter() - began:.1f} s")
        for with_pictures in pictures:
            for count in processes:
                for label, tree in trees:
                    for number in workers if with_pictures and tree == ROOT else (None,):
                        for lead in leads if with_pictures and tree == ROOT else (LEAD,):
                            named = label if number is None else f"{label} ({number} picture workers)"
                            named += "" if lead == LEAD else f", judges up {lead:g} s before the deadline"
                            for deliver in delivery:
                                args = (templates[tree], games, count, with_pictures, tree, named, limit, number)
                                rushes.append(_round(*args, deliver, lead))
                                _show(rushes[-1])
    return rushes


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.rush")
    parser.add_argument("--games", type=int, default=200, help="games due at the same moment (the issue: 1000)")
    parser.add_argument("--processes", default="1,2", help="judge processes a round, comma-separated")
    parser.add_argument("--pictures", default="on,off", help="rounds with and without the map picture")
    parser.add_argument("--baseline", default=os.environ.get("BENCH_BASELINE", ""), help="a git ref to compare")
    parser.add_argument("--timeout", type=float, help="seconds a round may take (default: 0.6 s a game, 180 s least)")
    parser.add_argument(
        "--workers", default="", help="this tree's rounds with pictures with each of these picture_workers (0,1,2)"
    )
    parser.add_argument(
        "--delivery", default="on", help="on: into the mailboxes; off: the relay only accepts; on,off: both"
    )
    parser.add_argument(
        "--lead",
        default=str(LEAD),
        help="this tree's rounds with pictures once for each of these seconds the judges run before the deadline "
        "(drawing pictures ahead), comma-separated",
    )
    args = parser.parse_args()
    rush_benchmark(
        args.games,
        tuple(int(n) for n in args.processes.split(",")),
        tuple(p.strip() == "on" for p in args.pictures.split(",")),
        args.baseline,
        args.timeout,
        tuple(int(n) for n in args.workers.split(",")) if args.workers else (None,),
        tuple(d.strip() == "on" for d in args.delivery.split(",")),
        tuple(float(n) for n in args.lead.split(",")),
    )


if __name__ == "__main__":
    main()
