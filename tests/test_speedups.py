"""The compiled hot path (judge/speedups.py) gives exactly what the pure-Python path gives: the same JSON, byte for
byte, for every phase of random games of every variant, through `judge adjudicate --jsonl` run both ways."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.contract import position_json
from judge.engine.order_text import render_order
from judge.speedups import HOT, compiled, stale
from judge.testing.random_games import play
from judge.variants import VARIANTS, get_variant

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow  # a corpus of whole games, twice, in two processes


def _corpus() -> str:
    """Every phase of two short random games of each variant, as contract cases with their orders."""
    lines = []
    for name in sorted(VARIANTS):
        rules = get_variant(name).rules()
        for seed in (1, 2):
            for played, _ in play(rules, seed, years=3):
                case = position_json(name, played.position)
                orders: dict[str, list[str]] = {}
                for sub in played.orders:
                    if sub.order is not None:
                        orders.setdefault(sub.power, []).append(render_order(sub.order))
                case["orders"] = orders
                case["seed"] = seed
                lines.append(json.dumps(case))
    return "\n".join(lines) + "\n"


def _pure_copy(where: Path) -> Path:
    """The package as pure Python, laid out as a wheel installs it (the data folders inside it: copying follows
    the package's links to them, judge/data/__init__.py)."""
    package = where / "judge"
    shutil.copytree(ROOT / "judge", package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    assert (package / "data" / "maps" / "standard.toml").is_file()
    return where


def _adjudicate(cases: str, pythonpath: Path | None = None) -> str:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    done = subprocess.run(
        [sys.executable, "-m", "judge", "adjudicate", "--jsonl"],
        input=cases,
        capture_output=True,
        text=True,
        env=env,
        cwd=pythonpath or ROOT,
        check=True,
    )
    return done.stdout


def test_the_compiled_and_the_pure_path_adjudicate_every_variant_alike(tmp_path: Path) -> None:
    if not compiled():
        if os.environ.get("CI"):
            pytest.fail("CI runs the suite on the compiled build, and no module is compiled (make install)")
        pytest.skip("no compiled module here (no C compiler, or JUDGE_PURE): nothing to compare")
    assert not stale()
    assert len(compiled()) == len(HOT)
    cases = _corpus()
    fast = _adjudicate(cases)
    pure = _adjudicate(cases, _pure_copy(tmp_path))
    assert fast.count("\n") == cases.count("\n") > 100
    assert '"error"' not in fast
    assert fast == pure
