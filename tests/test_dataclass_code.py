"""The dataclass methods kept from `make install` (judge/dataclass_code.py) are the very code `dataclasses` compiles.

A kept method runs in place of the one `dataclasses` would have compiled at the class's definition, in every
process: it must be the same code, with the same annotations (the builtin `exec` compiles without the `__future__`
flags of the judge's modules, so a method compiled from here must too), and a file that does not fit this Python
must be left unread rather than trusted.
"""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge import dataclass_code, kept

METHODS = ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__", "__delattr__")


def _classes() -> list[type]:
    """Dataclasses of every shape the judge uses: frozen, with defaults and factories, keyword-only, ordered,
    with slots."""

    @dataclasses.dataclass(frozen=True)
    class Frozen:
        power: str
        units: int = 0
        names: tuple[str, ...] = ()

    @dataclasses.dataclass
    class Mutable:
        seen: list[str] = dataclasses.field(default_factory=list)
        note: str | None = None

    @dataclasses.dataclass(frozen=True, kw_only=True, order=True)
    class Ordered:
        year: int
        season: str = "Spring"

    @dataclasses.dataclass(slots=True)
    class Slotted:
        at: str
        strength: float = 1.0

    return [Frozen, Mutable, Ordered, Slotted]


def _methods(classes: list[type]) -> dict[tuple[str, str], Any]:
    return {
        (cls.__name__, name): cls.__dict__[name]
        for cls in classes
        for name in METHODS
        if callable(cls.__dict__.get(name))
    }


def _same_function(first: Any, second: Any) -> bool:
    return bool(
        first.__code__ == second.__code__
        and first.__code__.co_filename == second.__code__.co_filename
        and first.__annotations__ == second.__annotations__
        and first.__defaults__ == second.__defaults__
        and first.__kwdefaults__ == second.__kwdefaults__
        and first.__qualname__ == second.__qualname__
    )


@pytest.fixture
def restored() -> Iterator[None]:
    """Whatever `exec` dataclasses had before the test, it has after."""
    before = dataclasses.__dict__.get("exec")
    yield
    dataclass_code.uninstall()
    if before is not None:
        vars(dataclasses)["exec"] = before


@pytest.mark.usefixtures("restored")
def test_kept_methods_are_the_code_dataclasses_compiles(tmp_path: Path) -> None:
    """The same classes, defined by the builtin `exec`, by the hook compiling them, and by the hook from the kept
    file, have methods equal in code, file name, annotations and defaults."""
    dataclass_code.uninstall()
    builtin = _methods(_classes())

    recording = dataclass_code.install({})
    compiled = _methods(_classes())
    path = str(tmp_path / "kept.bin")
    kept.write(path, recording.compiled)

    replaying = dataclass_code.install(kept.load(path))
    from_file = _methods(_classes())

    assert recording.compiled, "the hook saw the methods compiled"
    assert replaying.compiled == {}, "every method came from the kept file"
    assert builtin.keys() == compiled.keys() == from_file.keys()
    for key, method in builtin.items():
        assert _same_function(method, compiled[key]), key
        assert _same_function(method, from_file[key]), key


@pytest.mark.usefixtures("restored")
def test_annotations_stay_objects_not_text() -> None:
    """The judge's modules compile with `from __future__ import annotations`; a method compiled for dataclasses
    must not inherit it, or its return annotation would become the string '_return_type'."""
    dataclass_code.install({})
    frozen = _classes()[0]
    assert frozen.__init__.__annotations__["return"] is None


def test_build_keeps_every_method_adjudication_defines(tmp_path: Path) -> None:
    """After a build, a fresh process importing what `judge adjudicate` and the daemon run compiles no dataclass
    method of its own."""
    path = str(tmp_path / "kept.bin")
    keep = f"from judge.dataclass_code import keep_judge_methods; keep_judge_methods({path!r})"
    subprocess.run([sys.executable, "-c", keep], check=True, timeout=300)
    script = (
        "from judge import dataclass_code, kept\n"
        f"hook = dataclass_code.install(kept.load({path!r}))\n"
        "import judge.cli, judge.contract.stream, judge.serve, judge.engine, judge.variants\n"
        "print(len(hook.compiled))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=300)
    assert done.stdout.split() == ["0"], done.stderr
