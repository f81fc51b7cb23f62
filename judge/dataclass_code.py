"""Dataclass methods compiled ahead: the code `dataclasses` compiles at every start, kept from `make install`.

Why: a `@dataclass` writes its methods (`__init__`, `__repr__`, `__eq__`, `__hash__`, and a frozen one's
`__setattr__` and `__delattr__`) as source text and compiles that text when the class is defined, in every process,
every time. `judge adjudicate` defines about sixty dataclasses (the engine's, the contract's, and the compiled
modules', which mypyc has made by the same code at import): compiling their 300 methods was 17 ms of a start of
50, a third of what the judge adds to the interpreter's own start (docs/engine.md, "Start-up").

The same text always compiles to the same code, so `make install` keeps the code of every method the judge's
modules define, keyed by its very text (judge/kept.py: beside the bytecode, never read by another Python). A
method whose text is kept runs the kept code; any other text (a class changed since, another library's class)
is compiled as before, and no key can give another method than its own text would.

`dataclasses` compiles through the name `exec` in its own module (`_create_fn` up to 3.12, `_FuncBuilder` after);
`install` gives that module an `exec` of its own, which does what the builtin does with a string (compiles it as
"<string>", with no `__future__` flag: `dataclasses` has none to pass on) unless the text is kept. Nothing else in
the module changes.
"""

from __future__ import annotations

import builtins
import dataclasses
import marshal
from typing import TYPE_CHECKING

from judge import kept

if TYPE_CHECKING:
    from collections.abc import Mapping
    from types import CodeType
    from typing import Any

_HOOK = "exec"
_KIND = "dataclasses"


def _compile(source: str) -> CodeType:
    """What the builtin `exec` compiles a string to, called from `dataclasses`."""
    return compile(source, "<string>", "exec", dont_inherit=True)


class _KeptExec:
    """`dataclasses`' `exec`: the kept code of a text it has, else the text compiled, run as the builtin would.
    `compiled` collects the texts it had to compile (what `write` keeps)."""

    def __init__(self, methods: Mapping[str, bytes]) -> None:
        self.methods = methods
        self.compiled: dict[str, CodeType] = {}

    def __call__(self, source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if not isinstance(source, str):
            builtins.exec(source, globals, locals)
            return
        blob = self.methods.get(source)
        if blob is None:
            code = self.compiled[source] = _compile(source)
        else:
            code = marshal.loads(blob)
        builtins.exec(code, globals, locals)


def install(methods: Mapping[str, bytes]) -> _KeptExec:
    """Make `dataclasses` run the kept code of the texts in `methods` (text -> marshalled code), replacing any
    earlier install."""
    hook = _KeptExec(methods)
    setattr(dataclasses, _HOOK, hook)
    return hook


def uninstall() -> None:
    """`dataclasses` compiles every text again, with the builtin `exec`."""
    if isinstance(getattr(dataclasses, _HOOK, None), _KeptExec):
        delattr(dataclasses, _HOOK)


def install_kept() -> None:
    """At the judge's import: use the methods `make install` kept, where it kept any."""
    methods = kept.load(kept.kept_path(_KIND))
    if methods:
        install(methods)


def judge_modules() -> list[str]:
    """Every module of the judge that defines its classes at import (all but `__main__`, which runs the CLI,
    and the data folders, which define none)."""
    import pkgutil

    import judge

    return [
        module.name
        for module in pkgutil.walk_packages(judge.__path__, "judge.")
        if not module.name.endswith("__main__") and not module.name.startswith("judge.data.")
    ]


def keep_judge_methods(path: str | None = None) -> int:
    """Import every judge module with nothing kept, and keep the code of every method its dataclasses compiled
    (in `path`, by default where `install_kept` looks). Returns how many methods were kept."""
    import sys
    from importlib import import_module

    target = path or kept.kept_path(_KIND)
    if target is None:
        return 0
    hook = install({})
    for name in judge_modules():
        try:
            import_module(name)
        except Exception as failed:
            # a module that cannot be imported here (a library absent or broken on this machine) has nothing to
            # keep, and `make install` should not stop for it: its methods are compiled at its import, as before
            print(f"dataclass methods: {name} not imported ({type(failed).__name__}: {failed})", file=sys.stderr)
    kept.write(target, hook.compiled)
    return len(hook.compiled)
