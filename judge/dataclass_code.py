"""Dataclass methods compiled ahead: the code `dataclasses` compiles at every start, kept from `make install`.

Why: a `@dataclass` writes its methods (`__init__`, `__repr__`, `__eq__`, `__hash__`, and a frozen one's
`__setattr__` and `__delattr__`) as source text and compiles that text when the class is defined, in every process,
every time. `judge adjudicate` defines about sixty dataclasses (the engine's, the contract's, and the compiled
modules', which mypyc has made by the same code at import): compiling their 300 methods was 17 ms of a start of
50, a third of what the judge adds to the interpreter's own start (docs/engine.md, "Start-up").

The same text always compiles to the same code, so `make install` keeps the code of every method the judge's
modules define, keyed by its very text, in a file beside the bytecode (`judge/__pycache__/`). A method whose text
is in the file runs the kept code; any other text (a class changed since, another library's class) is compiled as
before. No key can give another method than its text would, and a file written by another Python, or with
another optimisation level, is not read at all.

`dataclasses` compiles through the name `exec` in its own module (`_create_fn` up to 3.12, `_FuncBuilder` after);
`install` gives that module an `exec` of its own, which does what the builtin does with a string (compiles it as
"<string>", with no `__future__` flag: `dataclasses` has none to pass on) unless the text is kept. Nothing else in
the module changes.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import CodeType
    from typing import Any

_FILE_NAME = "dataclasses.{tag}.bin"
_HOOK = "exec"


def _header() -> str:
    """What a kept file must have been written by: this Python, at this optimisation level."""
    return f"{sys.version} {sys.implementation.cache_tag} -O{sys.flags.optimize}"


def cache_path() -> str | None:
    """Where the kept code lives (None where this Python writes no bytecode caches, so keeps no file here)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", _FILE_NAME.format(tag=tag))


def load(path: str | None) -> dict[str, bytes]:
    """The kept code in `path`, each method's marshalled on its own (unmarshalled when its class is defined: a
    command defines half the judge's classes), or nothing when the file is missing, unreadable or another
    Python's."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as kept:
            header, code = marshal.loads(kept.read())  # one read: marshal.load reads a file piece by piece
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if header != _header() or not isinstance(code, dict):
        return {}
    return code


def _compile(source: str) -> CodeType:
    """What the builtin `exec` compiles a string to, called from `dataclasses`."""
    return compile(source, "<string>", "exec", dont_inherit=True)


class _KeptExec:
    """`dataclasses`' `exec`: the kept code of a text it has, else the text compiled, run as the builtin would.
    `compiled` collects the texts it had to compile (what `write` keeps)."""

    def __init__(self, kept: Mapping[str, bytes]) -> None:
        self.kept = kept
        self.compiled: dict[str, CodeType] = {}

    def __call__(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if not isinstance(source, str):
            builtins.exec(source, globals, locals)
            return
        blob = self.kept.get(source)
        if blob is None:
            code = self.compiled[source] = _compile(source)
        else:
            code = marshal.loads(blob)
        builtins.exec(code, globals, locals)


def install(kept: Mapping[str, bytes]) -> _KeptExec:
    """Make `dataclasses` run the kept code of the texts in `kept` (replacing any earlier install)."""
    hook = _KeptExec(kept)
    setattr(dataclasses, _HOOK, hook)
    return hook


def uninstall() -> None:
    """`dataclasses` compiles every text again, with the builtin `exec`."""
    if isinstance(getattr(dataclasses, _HOOK, None), _KeptExec):
        delattr(dataclasses, _HOOK)


def install_kept() -> None:
    """At the judge's import: use the file `make install` wrote, where there is one."""
    kept = load(cache_path())
    if kept:
        install(kept)


def write(path: str, code: Mapping[str, CodeType]) -> None:
    """Keep `code` in `path`, whole or not at all (another process may be reading it)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    partial = f"{path}.{os.getpid()}.tmp"
    with open(partial, "wb") as out:
        out.write(marshal.dumps((_header(), {text: marshal.dumps(each) for text, each in code.items()})))
    os.replace(partial, path)


def judge_modules() -> list[str]:
    """Every module of the judge that defines its classes at import (all but `__main__`, which runs the CLI)."""
    import pkgutil

    import judge

    return [
        module.name
        for module in pkgutil.walk_packages(judge.__path__, "judge.")
        if not module.name.endswith("__main__") and not module.name.startswith("judge.data.")
    ]


def build(path: str | None = None) -> int:
    """Import every judge module with nothing kept, and keep the code of every method its dataclasses compiled.
    Returns how many methods were kept. Run by `make install`, after the compiled modules are built."""
    from importlib import import_module

    target = path or cache_path()
    if target is None:
        return 0
    hook = install({})
    for name in judge_modules():
        try:
            import_module(name)
        except ImportError as missing:  # a module whose optional library is absent here defines nothing here
            print(f"dataclass methods: {name} not imported ({missing})", file=sys.stderr)
    write(target, hook.compiled)
    return len(hook.compiled)
