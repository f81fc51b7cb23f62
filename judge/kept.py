"""Work done ahead by `make install` for every later start, kept by the very text it was done on.

Some of a start's work is a pure function of a text that rarely changes: the first case of a process parses its
map's TOML (judge/board/loader.py). Python keeps its modules' bytecode for the same reason; this is kept the same
way, in files beside the bytecode (`judge/__pycache__/`), one file for each kind of work, read by the judge's own
code only (nothing here changes how Python or any other module works):

- a value is found by the whole text it was made from, so a changed text finds nothing and the work is done as
  before: nothing kept can be stale, and no key can give another value than its own text would;
- each value is marshalled on its own and read only when asked for (a command uses part of what is kept);
- a file written by another Python, or at another optimisation level, is not read at all.
"""

from __future__ import annotations

import marshal
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any


def _header() -> str:
    """What a kept file must have been written by: this Python, at this optimisation level."""
    return f"{sys.version} {sys.implementation.cache_tag} -O{sys.flags.optimize}"


def kept_path(kind: str) -> str | None:
    """Where the work of `kind` ("maps") is kept (None where this Python names no bytecode
    caches, so keeps nothing here)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "__pycache__", f"{kind}.{tag}.bin")


def load(path: str | None) -> dict[str, bytes]:
    """Text -> marshalled value, as kept in `path`; nothing when the file is missing, unreadable or another
    Python's."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as kept:
            header, values = marshal.loads(kept.read())  # one read: marshal.load reads a file piece by piece
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if header != _header() or not isinstance(values, dict):
        return {}
    return values


def write(path: str, values: Mapping[str, Any]) -> None:
    """Keep text -> value in `path`, whole or not at all (another process may be reading it). Every value must
    be one marshal can write."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    partial = f"{path}.{os.getpid()}.tmp"
    with open(partial, "wb") as out:
        out.write(marshal.dumps((_header(), {text: marshal.dumps(value) for text, value in values.items()})))
    os.replace(partial, path)


def build() -> None:
    """Everything kept, done again: `make install` runs this after the compiled modules are built."""
    from judge.board.loader import keep_shipped_maps

    maps = keep_shipped_maps()
    print(f"kept ahead: {maps} map files")
