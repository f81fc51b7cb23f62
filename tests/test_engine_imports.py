"""The engine is the pure core: it imports only itself and the board model beneath it, never the order reader
(`judge.notation`), the contract, the variants or anything else above it (issue 26: the engine had taken
`render_order` from `judge/notation/`)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "judge" / "engine"
BENEATH = ("judge.engine", "judge.board", "judge.speedups", "judge.value")
"""what the engine may import of the judge: itself, the board model, the compiled build's stale check, and the
one style of value beneath the engine and the board both (`judge.value`)"""


def _judge_imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if node.module == "judge")
        elif isinstance(node, ast.ImportFrom) and node.level:
            found.add("judge.engine" if node.level == 1 else "judge")  # relative: within the engine, or above it
    return {name for name in found if name == "judge" or name.startswith("judge.")}


def test_the_engine_imports_nothing_above_it() -> None:
    above = {
        f"{path.name}: {name}"
        for path in sorted(ENGINE.glob("*.py"))
        for name in _judge_imports(path)
        if not any(name == ok or name.startswith(ok + ".") for ok in BENEATH)
    }
    assert not above


def test_the_check_sees_an_import_of_the_order_reader(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from judge.notation.parse import parse_order\n")
    assert _judge_imports(module) == {"judge.notation.parse"}
