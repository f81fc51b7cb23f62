"""How long a reply may grow (issue 40: a CW Heptadiplomacy PREVIEW was 226 lines, a retreat refusal listed 35
places): a command's answer stays within `ANSWER_LINES` and `ANSWER_BYTES`, so that the reply to it stays under
`REPLY_LINES` lines and `REPLY_BYTES` bytes (a mail of several commands gets each its own bound), unless the
player asked for it all with the command's FULL word; what grows with the board is summed up or cut here, saying
how to ask."""

from __future__ import annotations

REPLY_LINES = 120
"""the most lines of text a reply has, unless its sender asked for the whole (`PREVIEW FULL`, `LIST game FULL`)"""
REPLY_BYTES = 64 * 1024
"""the most bytes of text a reply has, on the same terms"""
ANSWER_LINES = 100
"""the most lines one command's answer takes: the rest of the reply (the greeting, the quoted command, the game's
phase and deadline at the foot) fits in what is left of `REPLY_LINES`"""
REPLY_FOOT = 8
"""the lines a reply takes besides its commands' answers and the orders on file: the greeting, the game's phase and
deadline at its foot, the blank lines between"""
ANSWER_BYTES = 48 * 1024
FULL = "FULL"
"""the word after a command (PREVIEW, PREDICT, HISTORY, LIST game) that asks for its whole answer"""


def asks_full(args: list[str]) -> tuple[list[str], bool]:
    """A command's arguments without a last `FULL`, and whether it was there."""
    if args and args[-1].upper() == FULL:
        return args[:-1], True
    return args, False


def fit(lines: list[str], full: str, whole: bool = False) -> list[str]:
    """One command's answer within `ANSWER_LINES` and `ANSWER_BYTES`: the first lines (the sender's own side and
    what he asked about come first), then how many were left out and the command that sends them all; `whole`:
    the sender asked for them all."""
    if whole:
        return lines
    kept: list[str] = []
    size = 0
    for line in lines:
        size += len(line.encode()) + 1
        if len(kept) == ANSWER_LINES - 1 or size > ANSWER_BYTES:
            break
        kept.append(line)
    if len(kept) == len(lines):
        return lines
    return [*kept, f"... {len(lines) - len(kept)} more lines left out: {full} sends them all."]
