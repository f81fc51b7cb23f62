"""A deadline rush as the players see it (issue 31): N standard games due at one moment on one PostgreSQL database,
real `judge serve` processes (one, then two), and the time from the deadline to the relay's acceptance of the last
results mail -- not to the moment the results were queued, which is all `bench.deadlines` times.

The games are `bench.deadlines.build_games`' (six powers of seven with orders on file), built once in a template
database and copied for each round, so every round starts from the same bytes; their reminders and late notices
are marked done, so the rush is the results alone. Each round starts its processes from config files as an
operator would (mail in through the judge's own SMTP listener, out through an aiosmtpd relay on this machine that
accepts every message and notes when), waits until the deadline (`LEAD` seconds after the processes start: their
start-up is not the rush's), and during the rush mails the judge a LIST every second from a player: the reply
latency is from that mail's sending to the relay's acceptance of its answer.

Figures a round: when the last results mail was accepted (and half, and 90 %, of the players' copies), the
replies' latency (median and worst), the pauses of over half a second between two mails at the relay while results
were still owed, and the judges' CPU time. `--baseline REF` runs the same rounds, in the same run, with the judge of
a git ref (exported by `bench.baseline`), for ratios that survive a loaded machine. `--workers 0,1,2` runs this
tree's rounds with pictures once for each number of picture workers (`[judge] picture_workers`).

`python -m bench.rush --games 200` (`make bench` runs it with 200; the issue's figure is `--games 1000`).
"""

from __future__ import annotations

import argparse
import os
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
from bench.deadlines import build_games
from judge.game.settings import DEFAULT_SETTINGS
from judge.game.timing import grace_end, timing_from_settings
from judge.store import Game, open_database
from judge.testing.dovecot import free_port
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.smtp_relay import ReceivedMessage, SmtpRelay
from judge.testing.tables import POWERS

LEAD = 8.0
"""seconds between starting the judges and the deadline: their start-up is not part of the rush"""
PAUSE = 0.5
"""a gap at the relay longer than this while results are owed counts as a pause"""
RESULTS = b": results of "


@dataclass(frozen=True)
class Rush:
    label: str
    processes: int
    pictures: bool
    last: float | None
    """seconds from the deadline to the acceptance of the last results copy (None: not all within the timeout)"""
    half: float
    ninety: float
    copies: int
    """results copies accepted (recipients of results mails), against `owed`"""
    owed: int
    transactions: int
    replies: list[float]
    pauses: int
    paused: float
    cpu: float


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
        for game_id, settings in s.execute(select(Game.id, Game.settings)).all():
            done = {**settings, "_reminded": 0, "_late": 0, "_gm_told": 0}
            s.execute(update(Game).where(Game.id == game_id).values(deadline=moment - grace, settings=done))
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
    return RESULTS in message.data[: message.data.find(b"\r\n\r\n")]


def _round(
    template: str,
    games: int,
    processes: int,
    pictures: bool,
    tree: Path,
    label: str,
    timeout: float,
    workers: int | None = None,
) -> Rush:
    owed = games * (len(POWERS) + 1)  # each game's players and its GM
    env = {**os.environ, "PYTHONPATH": str(tree)}
    with scratch_database(template=template) as url, SmtpRelay() as relay, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ports = [free_port() for _ in range(processes)]
        configs = [_config(folder, f"rush-{n}", url, relay, ports[n], pictures, workers) for n in range(processes)]
        deadline = datetime.now(UTC) + timedelta(seconds=LEAD)
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
        try:
            time.sleep(max(0.0, start - time.monotonic()))
            copies, seen = 0, 0
            while time.monotonic() - start < timeout:
                if copies < owed and len(asked) < int(time.monotonic() - start):
                    n = len(asked)
                    message_id, sent = _ask(ports[n % processes], n % games)
                    asked[message_id] = sent
                received = relay.messages
                for m in received[seen:]:  # each message looked at once: the loop shares the relay's core
                    head = m.data[: m.data.find(b"\r\n\r\n")]
                    if RESULTS in head:
                        copies += len(m.rcpt_tos)
                    for message_id in asked.keys() - answered.keys():
                        if f"In-Reply-To: {message_id}".encode() in head:
                            answered[message_id] = m.at
                seen = len(received)
                if copies >= owed and len(answered) == len(asked):
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
    results = sorted((m.at, len(m.rcpt_tos)) for m in received if _is_results(m))
    times: list[float] = []
    for at, count in results:
        times.extend([at - start] * count)
    arrivals = [m.at for m in received if results and m.at <= results[-1][0]]
    gaps = [b - a for a, b in zip([start, *arrivals], arrivals, strict=False) if b - a > PAUSE]
    return Rush(
        label=label,
        processes=processes,
        pictures=pictures,
        last=times[-1] if len(times) >= owed else None,
        half=times[owed // 2 - 1] if len(times) >= owed // 2 else float("nan"),
        ninety=times[owed * 9 // 10 - 1] if len(times) >= owed * 9 // 10 else float("nan"),
        copies=len(times),
        owed=owed,
        transactions=len(results),
        replies=sorted(answered[m] - asked[m] for m in answered) + [float("inf")] * (len(asked) - len(answered)),
        pauses=len(gaps),
        paused=sum(gaps),
        cpu=(after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime),
    )


def _show(rush: Rush) -> None:
    last = f"{rush.last:6.1f} s" if rush.last is not None else f"  >{rush.copies}/{rush.owed} copies"
    replies = rush.replies or [float("nan")]
    print(
        f"  {rush.label}, {rush.processes} process(es), pictures {'on ' if rush.pictures else 'off'}: last results "
        f"{last} (half {rush.half:.1f} s, 90 % {rush.ninety:.1f} s; {rush.transactions} SMTP transactions); "
        f"replies {statistics.median(replies):.2f} s median, {max(replies):.2f} s worst ({len(replies)}); "
        f"{rush.pauses} pauses over {PAUSE} s ({rush.paused:.1f} s); judges' CPU {rush.cpu:.0f} s"
    )


def rush_benchmark(
    games: int,
    processes: tuple[int, ...] = (1, 2),
    pictures: tuple[bool, ...] = (True, False),
    baseline: str = "",
    timeout: float | None = None,
    workers: tuple[int | None, ...] = (None,),
) -> list[Rush]:
    """Each combination of processes and pictures, on this tree (and on `baseline`'s judge, alternately); this
    tree's with each number of picture workers in `workers` where pictures are on (None: the judge's default)."""
    problem = postgres_problem()
    if problem:
        print(f"rush: skipped ({problem})")
        return []
    limit = timeout if timeout is not None else max(180.0, games * 0.6)
    print(f"rush: {games} standard games due at one moment, on PostgreSQL, until the relay has the last results")
    rushes: list[Rush] = []
    with tempfile.TemporaryDirectory(prefix="judge-baseline-") as old, scratch_database() as template:
        trees = [("this tree", ROOT)]
        if baseline:
            _export(baseline, Path(old), ("judge", "maps", "templates", "migrations"))
            trees.append((baseline, Path(old)))
        began = time.perf_counter()
        db = open_database(template)
        build_games(db, games)
        db.dispose()
        print(f"  set-up: {time.perf_counter() - began:.1f} s")
        for with_pictures in pictures:
            for count in processes:
                for label, tree in trees:
                    for number in workers if with_pictures and tree == ROOT else (None,):
                        named = label if number is None else f"{label} ({number} picture workers)"
                        rushes.append(_round(template, games, count, with_pictures, tree, named, limit, number))
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
    args = parser.parse_args()
    rush_benchmark(
        args.games,
        tuple(int(n) for n in args.processes.split(",")),
        tuple(p.strip() == "on" for p in args.pictures.split(",")),
        args.baseline,
        args.timeout,
        tuple(int(n) for n in args.workers.split(",")) if args.workers else (None,),
    )


if __name__ == "__main__":
    main()
