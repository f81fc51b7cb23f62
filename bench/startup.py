"""`judge adjudicate`'s start-up: the wall time of a process that reads no case, and of one that reads one standard
case (the first case also loads the standard map), against a target of 50 ms (issue 42).

Each figure is the best of `runs` starts, the commands taking turns, since this two-core machine is often busy
with something else; the reference is the bare interpreter of the same environment (`python -c pass`) measured
in the same rounds, so the ratio travels between machines better than the milliseconds. The processes may write
their bytecode caches (one start before the rounds does), as an installed judge has them: where the environment
sets PYTHONDONTWRITEBYTECODE and the checkout has no caches, every start would compile each of the judge's
modules again, which is another figure than the one the target is about.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TARGET_MS = 50.0
STANDARD_CASE = b'{"variant": "standard", "orders": {"France": ["A par - bur"]}}\n'


def _commands() -> dict[str, tuple[list[str], bytes]]:
    python = sys.executable
    commands = {
        "python -c pass (the reference)": ([python, "-c", "pass"], b""),
        "python -m judge adjudicate --jsonl, no case": ([python, "-m", "judge", "adjudicate", "--jsonl"], b""),
    }
    script = Path(python).parent / "judge"
    if script.is_file():
        commands["judge adjudicate --jsonl, no case"] = ([str(script), "adjudicate", "--jsonl"], b"")
    commands["python -m judge adjudicate --jsonl, 1 standard case"] = (
        [python, "-m", "judge", "adjudicate", "--jsonl"],
        STANDARD_CASE,
    )
    return commands


def _start(command: list[str], stdin: bytes, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, env=env, check=True, cwd="/")
    return time.perf_counter() - start


def _tree_commands(trees: dict[str, Path]) -> dict[str, tuple[list[str], bytes, dict[str, str]]]:
    """`judge adjudicate --jsonl` with no case and with one, for each tree exported from git (run by this
    interpreter with the tree first on its path)."""
    python = sys.executable
    out: dict[str, tuple[list[str], bytes, dict[str, str]]] = {}
    for name, tree in trees.items():
        env = {**os.environ, "PYTHONPATH": str(tree)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        command = [python, "-m", "judge", "adjudicate", "--jsonl"]
        out[f"{name}, no case"] = (command, b"", env)
        out[f"{name}, 1 standard case"] = (command, STANDARD_CASE, env)
    return out


def startup_against(refs: list[str], runs: int = 20, repeats: int = 3) -> None:
    """The start-up of this tree's committed code against each of `refs`, all exported from git into scratch
    folders and run pure Python by this interpreter, the commands taking turns; `repeats` times over, each the
    best of `runs` starts, and the median of those bests is printed, with its ratio to the first tree's."""
    from statistics import median

    from bench.baseline import exported

    with exported(["HEAD", *refs]) as trees:
        commands = _tree_commands({"HEAD" if ref == "HEAD" else ref: tree for ref, tree in trees.items()})
        commands = {"python -c pass (the reference)": ([sys.executable, "-c", "pass"], b"", dict(os.environ)),
                    **commands}  # fmt: skip
        for command, stdin, env in commands.values():
            _start(command, stdin, env)  # writes the bytecode caches, loads the files into the page cache
        bests: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(repeats):
            best = dict.fromkeys(commands, float("inf"))
            for _ in range(runs):
                for name, (command, stdin, env) in commands.items():
                    best[name] = min(best[name], _start(command, stdin, env))
            for name, took in best.items():
                bests[name].append(took)
    print(f"start-up, pure Python, exported from git: median of {repeats} bests of {runs} starts each")
    for name, took in bests.items():
        figures = ", ".join(f"{t * 1000:.1f}" for t in took)
        line = f"  {name:44} {median(took) * 1000:6.1f} ms  ({figures})"
        kind = name.partition(", ")[2]
        if kind and not name.startswith("HEAD"):
            line += f"  HEAD = {median(bests[f'HEAD, {kind}']) / median(took):.2f} x"
        print(line)


def startup_benchmark(runs: int = 20) -> None:
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    commands = _commands()
    for command, stdin in commands.values():
        _start(command, stdin, env)  # writes the bytecode caches, loads the files into the page cache
    best = dict.fromkeys(commands, float("inf"))
    for _ in range(runs):
        for name, (command, stdin) in commands.items():
            best[name] = min(best[name], _start(command, stdin, env))
    reference = best.pop("python -c pass (the reference)")
    print(f"start-up of judge adjudicate: best of {runs} starts each; target {TARGET_MS:.0f} ms")
    print(f"  {'python -c pass (the reference)':52} {reference * 1000:6.1f} ms")
    for name, took in best.items():
        verdict = "within" if took * 1000 < TARGET_MS else "over"
        print(f"  {name:52} {took * 1000:6.1f} ms  {took / reference:4.1f} x the reference  ({verdict} the target)")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("  (PYTHONDONTWRITEBYTECODE is set here: these starts were let write their bytecode caches)")
