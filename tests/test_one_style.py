"""Issue 42, item 6: one style of typed value. The engine and what it reads at start (the board, the order reader,
the contract, the variants' declarations) hold their values as plain classes on `judge.value.Value` (or, for the
working state of one adjudication, `judge.value.Record`), never as dataclasses: the decorator writes each method
as text and compiles it at every start, and compiled by mypyc its methods stay interpreted (docs/engine.md, "One
style of value"). A dataclass that stays says why in its docstring, and docs/engine.md names it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WHERE = ["judge/engine", "judge/board", "judge/variants", "judge/notation", "judge/contract", "judge/value.py"]
"""the engine and what `judge adjudicate` reads besides"""
REASON = "A dataclass still, on purpose"
"""how a class that stays a dataclass begins its reason (or points to a class of its module that gives it)"""


def _files() -> list[Path]:
    out: list[Path] = []
    for where in WHERE:
        path = ROOT / where
        out.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return out


def _dataclasses(path: Path) -> list[ast.ClassDef]:
    """The classes of a module decorated `@dataclass` or `@dataclass(...)` (as any name or attribute)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ClassDef):
            for deco in node.decorator_list:
                target = deco.func if isinstance(deco, ast.Call) else deco
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name == "dataclass":
                    found.append(node)
    return found


def _kept() -> dict[str, ast.ClassDef]:
    return {f"{path.relative_to(ROOT)}:{cls.name}": cls for path in _files() for cls in _dataclasses(path)}


def test_no_dataclass_without_a_written_reason() -> None:
    """Every dataclass left says why in its docstring, and docs/engine.md names it with the others kept."""
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    unexplained = [name for name, cls in _kept().items() if REASON not in (ast.get_docstring(cls) or "")]
    assert not unexplained, f"dataclasses without a written reason: {unexplained}"
    unnamed = [name for name, cls in _kept().items() if f"`{cls.name}`" not in docs]
    assert not unnamed, f"dataclasses docs/engine.md does not name: {unnamed}"


def test_the_check_finds_a_dataclass(tmp_path: Path) -> None:
    """The check sees each way of writing the decorator, and a docstring without the reason fails it."""
    module = tmp_path / "m.py"
    module.write_text(
        "import dataclasses\nfrom dataclasses import dataclass\n\n"
        "@dataclass\nclass A:\n    x: int\n\n"
        "@dataclasses.dataclass(frozen=True)\nclass B:\n    '''A dataclass still, on purpose: a test.'''\n\n"
        "class C:\n    pass\n"
    )
    found = _dataclasses(module)
    assert [cls.name for cls in found] == ["A", "B"]
    assert [REASON in (ast.get_docstring(cls) or "") for cls in found] == [False, True]


def test_a_start_defines_no_dataclass() -> None:
    """`judge adjudicate` given no case makes no dataclass and imports no `dataclasses` (orjson, which imports
    it, comes with the first case: judge/contract/stream.py)."""
    script = (
        "import sys\nfrom judge.cli import main\nassert main(['adjudicate', '--jsonl']) == 0\n"
        "print('dataclasses' in sys.modules, 'inspect' in sys.modules, 'orjson' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], stdin=subprocess.DEVNULL, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False"]
