"""`judge adjudicate`'s input and output: JSON cases in, JSON outcomes out, as bytes through orjson.

Why orjson and bytes: over a batch of random standard phases the stdlib's `json.dumps` took a sixth of the
whole run and decoding standard input to text another slice, for output a third the size of the engine's work;
orjson reads and writes the same JSON (UTF-8, keys in the order the outcome builds them) several times faster.
Its output is compact (`{"a":1}`) and writes non-ASCII characters as UTF-8 rather than `\\u` escapes: the same
JSON values, which is what the contract fixes. A line that is not UTF-8 is a malformed case like any other.

orjson is imported with the first case, not at the start: its own start (the extension, and the `json`,
`dataclasses`, `inspect`, `uuid` and `datetime` modules it imports) is a fifth of a no-case start of
`judge adjudicate`, and a batch given no case need not pay it.
"""

from __future__ import annotations

import gc
import select
from typing import TYPE_CHECKING, BinaryIO, TextIO

from judge.contract.adjudicate import CaseError, run_case

if TYPE_CHECKING:
    from types import ModuleType


def adjudicate_lines(given: BinaryIO, out: BinaryIO, variant: str | None = None) -> int:
    """`--jsonl`: one case a line, one outcome a line in the same order; a line that cannot be read as a case
    gets `{"error": ...}` and the batch goes on. Blank lines are skipped."""
    gc.freeze()  # what start-up made stays: the collector need never walk it again
    collecting = gc.isenabled()
    orjson: ModuleType | None = None
    for line in given:
        if not line.strip():
            continue
        gc.disable()  # a case's objects are freed as they are dropped (see `judge.engine.adjudicate`)
        if orjson is None:
            orjson = _orjson()  # with the collector paused, as the engine's import (judge/cli.py)
            gc.freeze()  # and what importing it made lives as long as the process too
        try:
            result = run_case(orjson.loads(line), variant)
        except (orjson.JSONDecodeError, CaseError) as exc:
            result = {"error": str(exc)}
        finally:
            if collecting:
                gc.enable()
        out.write(orjson.dumps(result, option=orjson.OPT_APPEND_NEWLINE))
        if _may_wait(given):
            out.flush()  # the program feeding us may be waiting for this outcome before it sends the next case
    return 0


def _orjson() -> ModuleType:
    """orjson, imported when the first case comes (see the module)."""
    import orjson

    return orjson


def _may_wait(given: BinaryIO) -> bool:
    """Could reading the next line wait on whoever writes our input? Not for a file, nor for a pipe that already
    holds more; then outcomes are written in blocks, else each as soon as it is made."""
    try:
        ready, _, _ = select.select([given.fileno()], [], [], 0)
    except (OSError, ValueError, AttributeError):  # not a descriptor select can watch (a test's bytes, say)
        return True
    return not ready


def adjudicate_one(given: BinaryIO, out: BinaryIO, errors: TextIO, variant: str | None = None) -> int:
    """One case (the whole input) in, its outcome out, indented; a malformed case: exit status 2 and one line on
    `errors`."""
    orjson = _orjson()
    try:
        result = run_case(orjson.loads(given.read()), variant)
    except (orjson.JSONDecodeError, CaseError) as exc:
        print(f"judge adjudicate: {exc}", file=errors)
        return 2
    out.write(orjson.dumps(result, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE))
    return 0
