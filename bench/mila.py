"""`judge adjudicate --jsonl` end to end against MILA's `diplomacy` package (1.1.2), on the same phases.

850 phases of seeded random standard games (movement and adjustment phases: MILA's API cannot be given a
dislodged unit without replaying its movement), written once as contract cases; then each program runs as its own
process over the whole file, JSON lines in and JSON lines out, and the wall time of each (process start included)
is compared. MILA is a bench-only dependency (`pip install -e '.[bench]'`, which `make bench` does); where it is
missing the comparison is skipped with a note.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from judge.contract import position_json
from judge.contract.orders import order_json
from judge.engine.order_text import render_order
from judge.engine.phase import PhaseType
from judge.testing.random_games import play
from judge.variants import get_variant

HERE = Path(__file__).parent


def corpus(phases: int = 850, mila: bool = True) -> list[dict[str, Any]]:
    """Contract cases of random standard games' movement and adjustment phases, with the orders both ways: as
    order lines for the judge and in MILA's notation (worked out here, outside the timing; not where `mila` is
    False, which needs no MILA installed)."""
    if mila:
        from bench.mila_runner import _order

    rules = get_variant("standard").rules()
    cases: list[dict[str, Any]] = []
    seed = 0
    while len(cases) < phases:
        for played, _ in play(rules, seed, years=10):
            if played.position.phase.type is PhaseType.RETREAT or len(cases) >= phases:
                continue
            case = position_json("standard", played.position)
            orders: dict[str, list[str]] = {}
            theirs: dict[str, list[str]] = {}
            for sub in played.orders:
                if sub.order is None:
                    continue
                orders.setdefault(sub.power, []).append(render_order(sub.order))
                line = _order(order_json(sub.order)) if mila else None
                if line is not None:
                    theirs.setdefault(sub.power, []).append(line)
            case["orders"] = orders
            if mila:
                case["mila_orders"] = theirs
            cases.append(case)
        seed += 1
    return cases


def _run(command: list[str], path: Path) -> tuple[float, int]:
    with path.open("rb") as given:
        start = time.perf_counter()
        done = subprocess.run(command, stdin=given, capture_output=True, check=True)
        took = time.perf_counter() - start
    return took, len(done.stdout.splitlines())


def _judge_line(seconds: float, phases: int) -> str:
    return f"  judge adjudicate --jsonl: {seconds:6.2f} s  ({phases / seconds:7,.0f} phases/s, process start included)"


def mila_benchmark(phases: int = 850, rounds: int = 3) -> None:
    cases = corpus(phases, mila=importlib.util.find_spec("diplomacy") is not None)
    movement = sum(1 for c in cases if c["phase"]["type"] == "Movement")
    print(f"end to end, JSON lines in and out: {len(cases)} random standard phases ({movement} movement)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cases.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in cases))
        judge = [sys.executable, "-m", "judge", "adjudicate", "--jsonl"]
        if importlib.util.find_spec("diplomacy") is None:
            best = min(_run(judge, path)[0] for _ in range(rounds))
            print(_judge_line(best, len(cases)))
            print("  MILA's diplomacy is not installed (pip install -e '.[bench]'): no comparison")
            return
        mila = [sys.executable, str(HERE / "mila_runner.py")]
        # the two take turns, round after round, and each keeps its best: a busy spell on this shared machine then
        # slows both alike rather than one of them
        best, theirs = float("inf"), float("inf")
        for _ in range(rounds):
            best = min(best, _run(judge, path)[0])
            theirs = min(theirs, _run(mila, path)[0])
        print(_judge_line(best, len(cases)))
        print(f"  MILA diplomacy 1.1.2:     {theirs:6.2f} s  ({len(cases) / theirs:7,.0f} phases/s)")
        print(f"  judge = {theirs / best:.1f} x MILA end to end (target 10 x)")


def jsonl_against(refs: list[str], phases: int = 850, rounds: int = 5, repeats: int = 3) -> None:
    """`judge adjudicate --jsonl` over the same `phases` cases (process start included), this tree's committed code
    against each of `refs`, all exported from git and run pure Python by this interpreter, taking turns: `repeats`
    times the best of `rounds`, the median printed with its ratio; and whether each ref's output is HEAD's to the
    byte."""
    import os
    from statistics import median

    from bench.baseline import exported

    cases = corpus(phases, mila=False)
    with tempfile.TemporaryDirectory() as tmp, exported(["HEAD", *refs]) as trees:
        path = Path(tmp) / "cases.jsonl"
        path.write_text("".join(json.dumps(c) + "\n" for c in cases))
        outputs: dict[str, bytes] = {}
        envs = {}
        for ref, tree in trees.items():
            envs[ref] = {**os.environ, "PYTHONPATH": str(tree)}
            with path.open("rb") as given:
                command = [sys.executable, "-m", "judge", "adjudicate", "--jsonl"]
                done = subprocess.run(command, stdin=given, capture_output=True, check=True, env=envs[ref], cwd="/")
            outputs[ref] = done.stdout
        bests: dict[str, list[float]] = {ref: [] for ref in trees}
        for _ in range(repeats):
            best = dict.fromkeys(trees, float("inf"))
            for _ in range(rounds):
                for ref in trees:
                    with path.open("rb") as given:
                        command = [sys.executable, "-m", "judge", "adjudicate", "--jsonl"]
                        start = time.perf_counter()
                        subprocess.run(command, stdin=given, capture_output=True, check=True, env=envs[ref], cwd="/")
                        best[ref] = min(best[ref], time.perf_counter() - start)
            for ref, took in best.items():
                bests[ref].append(took)
    print(f"judge adjudicate --jsonl over {len(cases)} phases, pure Python, exported from git: median of {repeats} "
          f"bests of {rounds}")  # fmt: skip
    for ref, took in bests.items():
        figures = ", ".join(f"{t * 1000:.1f}" for t in took)
        line = f"  {ref:12} {median(took) * 1000:7.1f} ms  ({figures})"
        if ref != "HEAD":
            same = "the same output" if outputs[ref] == outputs["HEAD"] else "another output"
            line += f"  HEAD = {median(bests['HEAD']) / median(took):.2f} x; {same}"
        print(line)


if __name__ == "__main__":
    mila_benchmark()
