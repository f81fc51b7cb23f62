"""The zine's marks for what became of an order: (*bounce*), (*cut*), (*dislodged*), (*void*), (*no convoy*).

The engine explains every outcome in words ("held by England F lon (1 against 1)"); results mails print the mark the
zines used and keep the words on the line below for the player who wants to know why. This module is the one place
that turns an outcome's words into marks, so replies, results, PREDICT and HISTORY all agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# first matching prefix of the engine's reason wins; order matters ("partly cut" before "cut")
_MARKS: tuple[tuple[str, str], ...] = (
    ("partly cut", "partly cut"),
    ("cut", "cut"),
    ("void", "void"),
    ("the unit was given different orders", "void"),
    ("no convoy", "no convoy"),
    ("convoy disrupted", "no convoy"),
    ("the convoy route was broken", "no convoy"),
    ("convoy paradox", "paradox"),
    ("paradox", "paradox"),
    ("bounced", "bounce"),
    ("held by", "bounce"),
    ("beaten head to head", "bounce"),
    ("cannot dislodge its own", "bounce"),
    ("met ", "bounce"),
    ("dislodged", "dislodged"),
)

_PARTLY_CUT = re.compile(r"^partly cut: (?P<stood>.+) stands; (?P<fell>.+) was cut by (?P<by>.+)$")


@dataclass(frozen=True)
class Annotated:
    """One printed line of results: the order, its marks and, where the marks do not say it all, why."""

    order: str
    marks: tuple[str, ...]
    why: str = ""

    @property
    def mark_text(self) -> str:
        return " ".join(f"(*{mark}*)" for mark in self.marks)


def marks_for(result: str, reason: str, ordered: bool = True) -> tuple[str, ...]:
    """The zine's marks for one order's result and the engine's reason."""
    marks: list[str] = []
    if result == "illegal":
        marks.append("void")
    elif reason:
        lowered = reason.lower()
        for prefix, mark in _MARKS:
            if lowered.startswith(prefix):
                marks.append(mark)
                break
        else:
            if result == "fails":
                marks.append("fails")
        if "dislodged by" in lowered and "dislodged" not in marks:
            marks.append("dislodged")
    elif result == "fails":
        marks.append("fails")
    if "disbanded" in reason:
        marks.append("destroyed")
    if not ordered:
        marks.insert(0, "unordered")
    return tuple(marks)


def annotate(order: str, result: str, reason: str, ordered: bool = True) -> list[Annotated]:
    """The printed lines for one order; a partly cut support becomes two, as Multiplomacy's rule 5 ii asks:
    the part that stood and the part that was cut, each with its own mark."""
    partly = _PARTLY_CUT.match(reason)
    if partly:
        return [
            Annotated(partly["stood"], ()),
            Annotated(partly["fell"], ("cut",), f"by {partly['by']}"),
        ]
    marks = marks_for(result, reason, ordered)
    why = reason.removeprefix("void: ") if marks and marks != ("unordered",) else reason
    for said in ("cut", "dislodged"):  # the mark already says it: keep only by whom
        if marks[:1] == (said,) and why.startswith(said):
            why = why.removeprefix(said).strip()
    return [Annotated(order, marks, why)]
