"""The compiled hot path: the engine's modules built with mypyc into C extensions beside their sources.

Why mypyc: it compiles the very modules the judge runs, from the type hints they already carry (`mypy --strict`
clean), with no second implementation to keep in step, and where an extension is missing Python imports the `.py`
beside it, so the pure-Python path is the fallback by construction; outcomes are byte-identical both ways
(tests/test_speedups.py). What compiling does not do by itself, and the compiled modules do by hand: a dataclass's
generated `__init__` stays Python under mypyc, so the values made for every order and force write theirs out
(tests/test_written_out_inits.py); calls into the interpreted rule module cost a Python call each, so the engine
asks it only where a variant overrides the standard answer (docs/engine.md, "Speed").

`make install` runs `python -m judge.speedups build` where a C compiler exists (`JUDGE_PURE=1 make install`
skips it); `python -m judge.speedups clean` goes back to pure Python. The module left out is the one the
variants subclass (`rules.py`); `reasons.py` and `value.py` are in, the engine's values plain classes (docs/engine.md,
"One style of value"), and so are the values that module and the variants' declarations name (`engine/edition.py`,
`variants/descriptor.py`: an interpreted class cannot subclass the compiled `Value`). A compiled
module whose source changed afterwards would shadow the change: `import judge` refuses to run with one
(`check`), and says how to rebuild.
"""

from __future__ import annotations

import os
import sys

# Only `os` and `sys` here: every `import judge.engine` on a compiled build runs `check`, `judge adjudicate`
# included, and the check needs no more than a listing and a stat per folder. Building and cleaning import
# what they use (subprocess, tempfile, shutil, pathlib) themselves.

PACKAGE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(PACKAGE)
HOT = (
    "engine/units.py",
    "engine/orders.py",
    "engine/phase.py",
    "engine/calendar.py",
    "engine/edition.py",
    "engine/position.py",
    "engine/resolver.py",
    "engine/resolution.py",
    "engine/view.py",
    "engine/legality.py",
    "engine/binding.py",
    "engine/movement.py",
    "engine/retreat.py",
    "engine/adjustment.py",
    "engine/supply.py",
    "value.py",
    "engine/reasons.py",
    "engine/refusals/__init__.py",
    "engine/refusals/base.py",
    "engine/refusals/reading.py",
    "engine/refusals/moves.py",
    "engine/refusals/supports.py",
    "engine/refusals/merges.py",
    "engine/refusals/standing.py",
    "engine/refusals/retreats.py",
    "engine/refusals/adjustments.py",
    "engine/refusals/multiplicity.py",
    "engine/refusals/mad.py",
    "engine/refusals/hoplite.py",
    "engine/refusals/hepta.py",
    "board/model.py",
    "variants/descriptor.py",
    "variants/hepta_terms.py",
    "notation/parse.py",
    "notation/lines.py",
    "engine/order_text.py",
    "contract/orders.py",
    "contract/adjudicate.py",
)
"""the modules compiled, relative to the package"""
NATIVE = os.path.join(ROOT, "build", "native")
"""where mypyc's shared library goes (the extensions import it as a top-level module)"""
PTH = "judge-native.pth"
"""the file that puts NATIVE on the virtual environment's path"""


class StaleBuild(ImportError):
    """A compiled module is older than its source: running it would ignore the change."""


def _extensions(source: str) -> list[str]:
    """The compiled extensions of the module whose source is at `source`, as paths."""
    folder, file = os.path.split(source)
    prefix = f"{file.removesuffix('.py')}.cpython-"
    return sorted(
        os.path.join(folder, name) for name in os.listdir(folder) if name.startswith(prefix) and name.endswith(".so")
    )


def compiled() -> list[str]:
    """The hot modules that have a compiled extension beside them."""
    return [name for name in HOT if _extensions(os.path.join(PACKAGE, name))]


def stale() -> list[str]:
    """The compiled modules whose source is newer than their extension."""
    out = []
    for name in HOT:
        source = os.path.join(PACKAGE, name)
        built = _extensions(source)
        if built and os.stat(source).st_mtime > min(os.stat(path).st_mtime for path in built):
            out.append(name)
    return out


def check() -> None:
    """Refuse to run a stale build (called on `import judge` where any module is compiled)."""
    old = stale()
    if old:
        raise StaleBuild(
            f"the compiled {', '.join(old)} {'is' if len(old) == 1 else 'are'} older than the source: run "
            "`make install` to rebuild, or `python -m judge.speedups clean` for pure Python"
        )


def _purelib() -> str:
    import sysconfig

    return sysconfig.get_paths()["purelib"]


def clean() -> None:
    """Remove every compiled extension, the shared library and its path file: the pure-Python path. Every
    extension in the package goes, not only HOT's: one left by a module taken out of HOT since would shadow its
    source, and could not even load without the shared library."""
    import shutil

    for folder, _, files in os.walk(PACKAGE):
        for file in files:
            if ".cpython-" in file and file.endswith(".so"):
                os.unlink(os.path.join(folder, file))
    shutil.rmtree(NATIVE, ignore_errors=True)
    pth = os.path.join(_purelib(), PTH)
    if os.path.exists(pth):
        os.unlink(pth)


def build() -> None:
    """Compile the hot modules in place with mypyc (in a scratch copy of the tree, so that its build files and
    shared library never land in the checkout), then put the shared library on the environment's path."""
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    clean()
    with tempfile.TemporaryDirectory() as scratch:
        tree = Path(scratch) / "src"
        shutil.copytree(PACKAGE, tree / "judge", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        command = [sys.executable, "-m", "mypyc", *(f"judge/{name}" for name in HOT)]
        done = subprocess.run(command, cwd=tree, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"mypyc failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        native = Path(NATIVE)
        native.mkdir(parents=True, exist_ok=True)
        for library in tree.glob("*__mypyc.cpython-*.so"):
            shutil.copy2(library, native / library.name)
        for name in HOT:
            for built in _extensions(str(tree / "judge" / name)):
                shutil.copy2(built, os.path.dirname(os.path.join(PACKAGE, name)))
    Path(_purelib(), PTH).write_text(f"{NATIVE}\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "status"
    if what == "build":
        if os.environ.get("JUDGE_PURE"):
            clean()
            print("JUDGE_PURE is set: the pure-Python path")
            return 0
        try:
            build()
        except (RuntimeError, OSError) as exc:
            clean()
            print(f"the compiled hot path could not be built, the pure-Python path runs: {exc}", file=sys.stderr)
            return 0
        print(f"compiled {len(compiled())} modules with mypyc")
        return 0
    if what == "clean":
        clean()
        return 0
    names = compiled()
    print(f"compiled: {', '.join(names) if names else 'none (pure Python)'}")
    old = stale()
    if old:
        print(f"stale: {', '.join(old)}")
    return 1 if old else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
