"""The judge changes no module but its own: importing it, or running a command, leaves the standard library and
every package as they were (the developers' guide: patch nothing outside the judge).

Why a test: a start-up trick that reaches into another module (the judge once gave `dataclasses` an `exec` of its
own, to run dataclass methods compiled ahead) changes that module for every library in the process, and rests on
a private name that a new Python may drop without a word. The figures it bought are `make bench`'s; this holds
the line on what may be done for them (docs/engine.md, "Start-up").
"""

from __future__ import annotations

import json
import subprocess
import sys

STANDARD_CASE = '{"variant": "standard", "orders": {"France": ["A par - bur"]}}\n'

_SHAPE = """
import json, sys
def shape(module):
    # each name a module binds, with what it is: the value's type, and a callable's home module and qualified name
    # (a function put in from outside shows by its home), comparable between processes
    out = {}
    for name, value in vars(module).items():
        about = [type(value).__module__, type(value).__qualname__]
        if callable(value):
            about += [getattr(value, "__module__", None), getattr(value, "__qualname__", None)]
        out[name] = [a if isinstance(a, str) else None for a in about]
    return out
def shapes(names):
    return {name: shape(sys.modules[name]) for name in names if sys.modules.get(name) is not None}
"""


def _others_after(code: str, stdin: str = "") -> dict[str, dict[str, list[str]]]:
    """The shape of every module outside the judge that a fresh interpreter holds after running `code`."""
    script = (
        f"{_SHAPE}\n{code}\n"
        "mains = ('__main__', '__mp_main__')\n"  # the script itself, under both names
        "names = sorted(n for n in sys.modules if n not in mains and n.split('.')[0] != 'judge')\n"
        "print(json.dumps(shapes(names)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=stdin, capture_output=True, text=True, check=True, timeout=300
    )
    return dict(json.loads(done.stderr.splitlines()[-1]))


def _imported_alone(bound: dict[str, list[str]]) -> dict[str, dict[str, list[str]]]:
    """The shape of the same modules in a fresh interpreter that imports them (and so what they import) without
    the judge, and asks each for the names it bound there (a module that makes a name on first use, as
    `concurrent.futures` does its executors, then binds it too); a name no import finds (a module a package makes
    up as it loads) is left out."""
    script = (
        f"{_SHAPE}\nimport importlib\nbound = json.loads(sys.stdin.read())\n"
        "for name, names in bound.items():\n"
        "    try:\n        module = importlib.import_module(name)\n    except ImportError:\n        continue\n"
        "    for n in names:\n        getattr(module, n, None)\n"
        "print(json.dumps(shapes(list(bound))), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=json.dumps(bound), capture_output=True, text=True, check=True, timeout=300
    )
    return dict(json.loads(done.stderr.splitlines()[-1]))


def _changed(code: str, stdin: str = "") -> dict[str, list[str]]:
    """Module -> the names it binds differently after `code` than when imported without the judge."""
    with_judge = _others_after(code, stdin)
    alone = _imported_alone({module: sorted(names) for module, names in with_judge.items()})
    assert "dataclasses" in alone
    changed = {}
    for module, other in alone.items():
        names = with_judge[module]
        differ = sorted(n for n in names.keys() | other.keys() if names.get(n) != other.get(n))
        if differ:
            changed[module] = differ
    return changed


def test_importing_the_judge_leaves_dataclasses_as_it_was() -> None:
    """Every name `dataclasses` binds is the very object it was before `import judge` and a standard case through
    the command line, and it has no `exec` of its own (the builtin's is the one it compiles with)."""
    script = (
        "import dataclasses, io, sys\n"
        "before = dict(vars(dataclasses))\n"
        "import judge, judge.cli\n"
        "sys.argv = ['judge', 'adjudicate', '--jsonl']\n"
        "judge.cli.main()\n"
        "after = vars(dataclasses)\n"
        "print(sorted(n for n in before.keys() | after.keys() if before.get(n) is not after.get(n)), file=sys.stderr)\n"
        "print('exec' in after, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], input=STANDARD_CASE, capture_output=True, text=True, check=True, timeout=120
    )
    assert '"France"' in done.stdout, "the case was adjudicated"
    assert done.stderr.splitlines()[-2:] == ["[]", "False"]


def test_judge_adjudicate_changes_no_other_module() -> None:
    """After `judge adjudicate` runs a standard case, every module outside the judge binds the same names to the
    same kinds of things as it does imported without the judge."""
    code = "import sys\nsys.argv = ['judge', 'adjudicate', '--jsonl']\nfrom judge.cli import main\nmain()\n"
    assert _changed(code, STANDARD_CASE) == {}


def test_importing_every_judge_module_changes_no_other_module() -> None:
    """The daemon, the mail, the store and every variant included: no module of the judge changes another's."""
    code = (
        "import pkgutil, importlib, judge\n"
        "for found in pkgutil.walk_packages(judge.__path__, 'judge.'):\n"
        "    if not found.name.endswith('__main__') and not found.name.startswith('judge.data.'):\n"
        "        importlib.import_module(found.name)\n"
    )
    assert _changed(code) == {}
