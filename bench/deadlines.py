"""Deadline work shared between judge processes: N standard games on one PostgreSQL database, every deadline at
the same moment, each game's Spring 1901 processed and its mails queued; one keeper process against two (issue 19:
two must be faster than one, not fight over the same games).

The games are as the judge would hold them after a week of play: started through the game service, six of the
seven powers with their opening orders on file (a different one missing in each game, so each game also sends a
late notice). Building them by mail, or by `register` and `create_game`, hashes a password for every player and
game with scrypt (~60 ms each on purpose): 8,000 hashes for 1,000 games, twice. Here the players and games are
written straight into their tables with one hash made once (the product's hashing is untouched; the service checks
that hash like any other), the players join through the service, and the orders are the service's own check of
one game copied to the rest. The database is built once and copied (PostgreSQL's `CREATE DATABASE ... TEMPLATE`)
for each round, so one and two processes start from the same bytes.

`python -m bench.deadlines --due 1000` runs only this benchmark (`make bench` runs it with `--due 200`).
"""

from __future__ import annotations

import argparse
import cProfile
import multiprocessing
import pstats
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, insert, select, update

from judge.clock import FakeClock
from judge.config import Config
from judge.game import Games
from judge.game.seating import DEFAULT_SETTINGS
from judge.passwords import hash_password
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Database, Game, GameStatus, OrderSet, OutboundMail, PhaseRecord, Player, open_database
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.tables import OPENING_ORDERS, POWERS

PASSWORD = "pw"


def build_games(db: Database, games: int) -> None:
    """`games` started standard games g0, g1, ... (GM gm@example.org, players <power><n>@example.org), each with
    the opening orders of every power but one on file, and every deadline now."""
    digest = hash_password(PASSWORD)  # once: every player and game shares it
    now = datetime.now(UTC)
    with db.transaction() as s:
        addresses = ["gm@example.org"] + [f"{p.lower()}{g}@example.org" for g in range(games) for p in POWERS]
        s.execute(
            insert(Player),
            [{"address": a, "name": a, "password_hash": digest, "created_at": now} for a in addresses],
        )
        gm = s.scalar(select(Player.id).where(Player.address == "gm@example.org"))
        s.execute(
            insert(Game),
            [
                {
                    "name": f"g{g}",
                    "variant": "standard",
                    "options": {},
                    "settings": dict(DEFAULT_SETTINGS),
                    "status": GameStatus.FORMING,
                    "gm_id": gm,
                    "password_hash": digest,
                    "seed": g,
                    "created_at": now,
                    "version": 1,
                }
                for g in range(games)
            ],
        )
    service = Games(db)
    for g in range(games):  # the players join through the service: it assigns the powers and starts the game
        with db.transaction() as s:
            bound = service.bound(s)
            for power in POWERS:
                bound.seating.join(f"g{g}", f"{power.lower()}{g}@example.org", PASSWORD, [power])
    for power in POWERS:  # one game's orders as the service checks them...
        service.orders.submit("g0", power, OPENING_ORDERS[power].split("\n"))
    with db.transaction() as s:
        ids = {name: game_id for name, game_id in s.execute(select(Game.name, Game.id))}
        template = s.execute(
            select(OrderSet.power, OrderSet.lines, OrderSet.orders, OrderSet.checked, OrderSet.has_errors).where(
                OrderSet.game_id == ids["g0"]
            )
        ).all()
        s.execute(delete(OrderSet))
        s.execute(  # ...copied to every game, but for one power a game, whose player is late
            insert(OrderSet),
            [
                {
                    "game_id": ids[f"g{g}"],
                    "phase_index": 0,
                    "power": row.power,
                    "lines": row.lines,
                    "orders": row.orders,
                    "checked": row.checked,
                    "has_errors": row.has_errors,
                    "submitted_at": now,
                }
                for g in range(games)
                for row in template
                if row.power != POWERS[g % len(POWERS)]
            ],
        )
        s.execute(update(Game).values(deadline=now))


@dataclass(frozen=True)
class Round:
    processes: int
    seconds: float
    """from the moment every keeper was ready (the deadline) to the moment the last one finished its round: when
    the last results mail was queued"""
    each: tuple[float, ...]
    cpu: tuple[float, ...]
    """each keeper process's own CPU time in its round (not the database's): how the work was divided"""
    idle: float
    """a round right after, with nothing left due: what a round costs the rest of the time (the mail processor
    starts one after every batch of mail)"""
    phases: int
    results: int
    notices: int


def _keeper(args: tuple[str, Any, datetime, str | None, bool]) -> tuple[float, float, float]:
    url, barrier, now, profile, pictures = args
    db = open_database(url, migrate=False)
    keeper = DeadlineKeeper(db, Config(database_url=url, pictures=pictures), FakeClock(now))
    barrier.wait()
    profiler = cProfile.Profile() if profile else None
    start, cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    keeper.tick()
    if profiler is not None:
        profiler.disable()
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    if profiler is not None and profile:
        profiler.dump_stats(profile)
    barrier.wait()  # every keeper is done: nothing is due any more
    start = time.perf_counter()
    keeper.tick()
    idle = time.perf_counter() - start
    db.dispose()
    return took, cpu, idle


def _round(template: str, processes: int, profile: str | None = None, pictures: bool = True) -> Round:
    with scratch_database(template=template) as url:
        now = datetime.now(UTC) + timedelta(days=3)  # past every deadline and grace
        context = multiprocessing.get_context("spawn")
        with context.Manager() as manager:
            barrier = manager.Barrier(processes)
            with context.Pool(processes) as pool:
                jobs = [
                    (url, barrier, now, f"{profile}.{processes}.{n}" if profile else None, pictures)
                    for n in range(processes)
                ]
                timings = pool.map(_keeper, jobs)
        db = open_database(url, migrate=False)
        with db.transaction() as s:
            phases = int(s.scalar(select(func.count()).select_from(PhaseRecord)) or 0)
            kinds = {
                kind: int(n)
                for kind, n in s.execute(select(OutboundMail.kind, func.count()).group_by(OutboundMail.kind))
            }
        db.dispose()
        each = tuple(took for took, _, _ in timings)
        cpu = tuple(used for _, used, _ in timings)
        idle = max(idle for _, _, idle in timings)
        return Round(processes, max(each), each, cpu, idle, phases, kinds.get("result", 0), kinds.get("notice", 0))


def _show(result: Round) -> None:
    each = ", ".join(f"{took:.1f} s ({cpu:.1f} s CPU)" for took, cpu in zip(result.each, result.cpu, strict=True))
    print(
        f"  {result.processes} process(es): {result.seconds:6.1f} s  ({result.phases} phases, {result.results} results "
        f"and {result.notices} other mails queued; each process {each}; then a round with nothing due: "
        f"{result.idle * 1000:.0f} ms)"
    )


def deadline_benchmark(
    games: int, profile: str | None = None, repeat: int = 1, pictures: bool = True
) -> tuple[Round, Round] | None:
    """One keeper process, then two, each on a fresh copy of one database of `games` games due at once; `repeat`
    times, one and two in turn (a shared machine's load changes by the minute), with the best of each. `pictures`:
    the map picture on every results mail, as the judge sends them by default ([judge] pictures)."""
    problem = postgres_problem()
    if problem:
        print(f"deadlines: skipped ({problem})")
        return None
    with_pictures = "with the map picture" if pictures else "without pictures"
    print(f"deadlines: {games} standard games due at one moment, on PostgreSQL, results {with_pictures}")
    ones: list[Round] = []
    twos: list[Round] = []
    with scratch_database() as template:
        started = time.perf_counter()
        db = open_database(template)
        build_games(db, games)
        db.dispose()
        print(f"  set-up: {time.perf_counter() - started:.1f} s")
        for _ in range(repeat):
            ones.append(_round(template, 1, profile, pictures))
            _show(ones[-1])
            twos.append(_round(template, 2, profile, pictures))
            _show(twos[-1])
            ratio = twos[-1].seconds / ones[-1].seconds
            print(f"  two processes take {ratio:.2f} x the time of one ({1 / ratio:.2f} x as fast)")
    one = min(ones, key=lambda r: r.seconds)
    two = min(twos, key=lambda r: r.seconds)
    if repeat > 1:
        ratio = two.seconds / one.seconds
        print(f"  best of {repeat}: one {one.seconds:.1f} s, two {two.seconds:.1f} s: {1 / ratio:.2f} x as fast")
    return one, two


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.deadlines")
    parser.add_argument("--due", type=int, default=200, help="games due at the same moment")
    parser.add_argument("--repeat", type=int, default=1, help="rounds of one process and two, in turn")
    parser.add_argument("--profile", help="write each keeper's cProfile statistics to PROFILE.<processes>.<n>")
    parser.add_argument("--no-pictures", action="store_true", help="results mails without the map picture")
    args = parser.parse_args()
    rounds = deadline_benchmark(args.due, args.profile, args.repeat, pictures=not args.no_pictures)
    if rounds and args.profile:
        pstats.Stats(f"{args.profile}.1.0").sort_stats("cumulative").print_stats(40)


if __name__ == "__main__":
    main()
