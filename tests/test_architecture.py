"""The layers of the judge, held: which package may import which (docs/architecture.md), and the game layer's
modules kept small enough to read. Read from the source with `ast`, so a lazy import inside a function counts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

JUDGE = Path(__file__).resolve().parent.parent / "judge"


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def _package_imports(package: str) -> dict[Path, set[str]]:
    return {path: _imports(path) for path in sorted((JUDGE / package).rglob("*.py"))}


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("mail", "judge.commands"),  # the processor is handed the commands' entry point by the daemon
        ("game", "judge.schedule"),
        ("game", "judge.mail"),
        ("game", "judge.commands"),
        ("commands", "judge.schedule"),
        ("engine", "judge.notation"),
        ("engine", "judge.game"),
        ("render", "judge.game"),
        ("web", "judge.store"),  # the site reads typed views of the game layer, never the tables
        ("web", "judge.schedule"),
        ("web", "judge.mail"),
        ("game", "judge.web"),
        ("mail", "judge.web"),
    ],
)
def test_a_package_never_imports_the_layers_above_it(package: str, forbidden: str) -> None:
    offenders = {
        str(path.relative_to(JUDGE)): sorted(m for m in modules if m == forbidden or m.startswith(forbidden + "."))
        for path, modules in _package_imports(package).items()
    }
    assert {path: mods for path, mods in offenders.items() if mods} == {}


def test_the_commands_import_no_circle() -> None:
    graph = {
        path.stem: {m.rsplit(".", 1)[-1] for m in modules if m.startswith("judge.commands.")}
        for path, modules in _package_imports("commands").items()
    }

    def reaches(start: str, goal: str, seen: set[str]) -> bool:
        for nxt in graph.get(start, set()):
            if nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt})):
                return True
        return False

    assert [name for name in graph if reaches(name, name, set())] == []


def test_every_module_of_the_game_layer_is_short() -> None:
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in (JUDGE / "game").glob("*.py")}
    assert {name: n for name, n in lengths.items() if n > 400} == {}


def test_no_class_of_the_game_layer_has_more_than_fifteen_public_methods() -> None:
    crowded = {}
    for path in (JUDGE / "game").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                public = [
                    f.name
                    for f in node.body
                    if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and not f.name.startswith("_")
                ]
                if len(public) > 15:
                    crowded[f"{path.name}:{node.name}"] = len(public)
    assert crowded == {}


def test_a_game_is_loaded_or_locked_only_by_the_game_store() -> None:
    """`select(Game)` and the row lock are written once, in judge/game/store.py (and the snapshot it uses). The
    count of guesses at a page password locks rows of its own (`PageGuesses`, judge/game/web_access.py)."""
    writers = []
    for path in (JUDGE / "game").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        locks = [line for line in text.splitlines() if "with_for_update" in line and "PageGuesses" not in line]
        if path.name not in ("store.py", "snapshot.py", "reads.py") and ("select(Game)" in text or locks):
            writers.append(path.name)
    assert writers == []
