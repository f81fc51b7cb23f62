"""`make bench`: engine speed on seeded random standard games.

The games are generated first; only the engine's `adjudicate` calls are timed. Two figures: one process, and
one worker process per core (a judge adjudicates many games at once, and these machines have two cores). The
reference measured in the same run is a JSON round trip (`json.dumps` + `json.loads`) of each phase's
`judge adjudicate` case, a stdlib cost of the same size as the input, so the ratio travels between machines
better than the raw figure.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from dataclasses import dataclass

from bench.baseline import baseline_benchmark
from bench.deadlines import deadline_benchmark
from bench.mail import mail_benchmark
from bench.mila import jsonl_against, mila_benchmark
from bench.picture import picture_benchmark
from bench.rush import LEAD, long_lead, rush_benchmark
from bench.startup import startup_against, startup_benchmark
from bench.web import web_benchmark
from judge.engine import adjudicate
from judge.engine.phase import PhaseType
from judge.testing.random_games import PlayedPhase, play
from judge.variants import get_variant


@dataclass
class Run:
    best: float
    """the fastest round, in seconds"""
    phases: int
    movement: int
    orders: int
    start: float
    end: float
    reference: float


def _case_json(phase: PlayedPhase) -> dict[str, object]:
    p = phase.position
    return {
        "variant": "standard",
        "phase": {"season": p.phase.season, "year": p.phase.year, "type": p.phase.type.value},
        "units": [{"power": f.power, "unit": str(f.composition), "at": f.at} for f in p.units],
        "orders": [[s.power, repr(s.order)] for s in phase.orders],
    }


def _games(seeds: range, years: int, variant: str = "standard") -> list[PlayedPhase]:
    rules = get_variant(variant).rules()
    phases: list[PlayedPhase] = []
    for seed in seeds:
        phases.extend(played for played, _ in play(rules, seed, years))
    return phases


def _timed(seeds: range, years: int, rounds: int, barrier: object = None) -> Run:
    phases = _games(seeds, years)
    if barrier is not None:
        barrier.wait()  # type: ignore[attr-defined]
    # the best of the rounds, as every row here takes: the first round also pays for the collector moving the
    # freshly made corpus into its oldest generation, once in a process's life
    start = time.perf_counter()
    best = float("inf")
    for _ in range(rounds):
        began = time.perf_counter()
        for p in phases:
            adjudicate(p.rules, p.position, p.orders)
        best = min(best, time.perf_counter() - began)
    end = time.perf_counter()
    cases = [_case_json(p) for p in phases]
    ref_start = time.perf_counter()
    for _ in range(rounds):
        for case in cases:
            json.loads(json.dumps(case))
    reference = time.perf_counter() - ref_start
    return Run(
        best=best,
        phases=len(phases) * rounds,
        movement=sum(1 for p in phases if p.position.phase.type is PhaseType.MOVEMENT) * rounds,
        orders=sum(len(p.orders) for p in phases) * rounds,
        start=start,
        end=end,
        reference=reference,
    )


def _worker(args: tuple[range, int, int, object]) -> Run:
    seeds, years, rounds, barrier = args
    return _timed(seeds, years, rounds, barrier)


def engine_benchmark(games: int, years: int, rounds: int, workers: int) -> None:
    single = _timed(range(games), years, rounds)
    took = single.best * rounds
    print(
        f"engine: {games} random standard games of {years} years, {single.phases // rounds} phases "
        f"({single.movement // rounds} movement), {single.orders // rounds} orders; best of {rounds} rounds"
    )
    print(f"  1 process:  {single.phases / took:8,.0f} phases/s  {single.orders / took:9,.0f} orders/s")
    print(
        f"  reference (JSON round trip of the same cases): {single.phases / single.reference:,.0f} phases/s; "
        f"engine cost = {took / single.reference:.1f} x the reference"
    )
    if workers > 1:
        manager = multiprocessing.Manager()
        barrier = manager.Barrier(workers)
        share = [range(w, games, workers) for w in range(workers)]
        with multiprocessing.Pool(workers) as pool:
            runs = pool.map(_worker, [(s, years, rounds, barrier) for s in share])
        wall = max(r.end for r in runs) - min(r.start for r in runs)
        phases = sum(r.phases for r in runs)
        orders = sum(r.orders for r in runs)
        print(f"  {workers} processes: {phases / wall:8,.0f} phases/s  {orders / wall:9,.0f} orders/s  "
              f"({phases / wall / (single.phases / took):.2f} x one process)")  # fmt: skip


def _phase_seconds(phases: list[PlayedPhase], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        for p in phases:
            adjudicate(p.rules, p.position, p.orders)
        best = min(best, time.perf_counter() - start)
    return best


def variant_benchmark(games: int, years: int, rounds: int) -> None:
    """The multi-unit variants next to standard: cost of a phase, and of a movement phase, as a ratio."""
    print(f"variants: {games} random games of {years} years each; best of {rounds} rounds")
    base: tuple[float, float] | None = None
    for name in ("standard", "multiplomacy", "multiplicity1", "multiplicity2", "mad", "hoplite"):
        phases = _games(range(games), years, name)
        movement = [p for p in phases if p.position.phase.type is PhaseType.MOVEMENT]
        per_phase = _phase_seconds(phases, rounds) / len(phases)
        per_move = _phase_seconds(movement, rounds) / len(movement)
        orders = sum(len(p.orders) for p in movement) / len(movement)
        if base is None:
            base = (per_phase, per_move)
        print(
            f"  {name:14} {1 / per_phase:8,.0f} phases/s  movement {1 / per_move:7,.0f}/s "
            f"({orders:4.1f} orders)  cost x{per_phase / base[0]:.2f} a phase, x{per_move / base[1]:.2f} a movement"
        )


def hepta_benchmark(games: int, years: int, rounds: int) -> None:
    """CW Heptadiplomacy's seven boards (150-240 units a phase): the time of one phase, against a target of 10 ms,
    for each movement module (module 3's convoys and supports reach across every board)."""
    print(f"hepta: {games} random seven-board games of {years} years each; best of {rounds} rounds")
    for module in (1, 2, 3):
        rules = get_variant("hepta").rules({"module": module})
        phases = [played for seed in range(games) for played, _ in play(rules, seed, years)]
        movement = [p for p in phases if p.position.phase.type is PhaseType.MOVEMENT]
        per_phase = _phase_seconds(phases, rounds) / len(phases)
        per_move = _phase_seconds(movement, rounds) / len(movement)
        units = sum(len(p.position.units) for p in movement) / len(movement)
        print(
            f"  module {module}: {per_phase * 1000:5.2f} ms a phase, {per_move * 1000:5.2f} ms a movement phase "
            f"({units:.0f} units on average; target 10 ms)"
        )


PARTS = ("engine", "variants", "hepta", "startup", "pictures", "mila", "mail", "deadlines", "rush", "web")
"""the bench's parts, in the order a whole run takes them (`--only`)"""


def main() -> None:
    parser = argparse.ArgumentParser(prog="make bench")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--mails", type=int, default=2000, help="order mails for the mail benchmark (0: skip)")
    parser.add_argument("--mila", type=int, default=850, help="phases for the end-to-end race with MILA (0: skip)")
    parser.add_argument("--due", type=int, default=200, help="games due at once for the deadline benchmark (0: skip)")
    parser.add_argument(
        "--rush", type=int, default=200, help="games due at once, timed to the last results copy delivered (0: skip)"
    )
    parser.add_argument("--pictures", type=int, default=15, help="drawings of each map picture timed (0: skip)")
    parser.add_argument("--web-games", type=int, default=1000, help="games the site's export is timed on (0: skip it)")
    parser.add_argument("--web-mails", type=int, default=500, help="mails of the mail bench beside the site (0: skip)")
    parser.add_argument(
        "--baseline",
        default=os.environ.get("BENCH_BASELINE", ""),
        help="a git ref whose engine and mail path to time against this tree's in the same run (env BENCH_BASELINE); "
        "several, comma-separated, for the start-up and the --jsonl run (the other parts take the first)",
    )
    parser.add_argument(
        "--only",
        choices=PARTS,
        action="append",
        help="run only this part (repeatable): a part alone, without the whole bench's time",
    )
    args = parser.parse_args()
    run = set(args.only or PARTS)
    # several refs, comma-separated: the start-up and the --jsonl run are timed against each, the rest the first
    refs = args.baseline.split(",") if args.baseline else []
    args.baseline = refs[0] if refs else ""
    if args.baseline and "engine" in run:
        baseline_benchmark(args.baseline, args.games, args.years, args.rounds)
    if "engine" in run:
        engine_benchmark(args.games, args.years, args.rounds, args.workers)
    if "variants" in run:
        variant_benchmark(max(8, args.games // 4), args.years, args.rounds)
    if "hepta" in run:
        hepta_benchmark(max(2, args.games // 20), max(3, args.years // 2), args.rounds)
    if "startup" in run:
        startup_benchmark()
        if args.baseline:
            startup_against(refs)
    if args.pictures and "pictures" in run:
        picture_benchmark(args.pictures, args.baseline)
    if args.mila and "mila" in run:
        mila_benchmark(args.mila, args.rounds)
        if args.baseline:
            jsonl_against(refs, args.mila)
    if args.mails and "mail" in run:
        mail_benchmark(args.mails, baseline=args.baseline)
    if args.due and "deadlines" in run:
        deadline_benchmark(args.due)
    if args.rush and "rush" in run:
        rush_benchmark(args.rush, baseline=args.baseline, leads=(LEAD, long_lead(args.rush)))
    if "web" in run:
        web_benchmark(args.web_games, mails=args.web_mails)


if __name__ == "__main__":
    main()
