"""The zine's marks for what became of an order: (*bounce*), (*cut*), (*dislodged*), (*void*), (*no convoy*).

The engine gives every order's result with its reasons as values (`judge.engine.reasons`); results mails print
the mark the zines used and keep the words on the line below for the player who wants to know why. The marks come
from the reasons' kinds, never from their words. This module is the one place that turns reasons into marks, so
replies, results, PREDICT and HISTORY all agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.engine.reasons import Mark, Part, PartlyCut, Reason, WasDislodged, text_of


@dataclass(frozen=True)
class Annotated:
    """One printed line of results: the order, its marks and, where the marks do not say it all, why."""

    order: str
    marks: tuple[str, ...]
    why: str = ""

    @property
    def mark_text(self) -> str:
        return " ".join(f"(*{mark}*)" for mark in self.marks)


def marks_for(result: str, reasons: Sequence[Reason], ordered: bool = True) -> tuple[str, ...]:
    """The zine's marks for one order's result and reasons: an illegal order is void; otherwise the mark of the
    first reason (what stopped the order), then whether the unit was dislodged or destroyed."""
    marks: list[str] = []
    if result == "illegal":
        marks.append(Mark.VOID.value)
    elif reasons:
        first = reasons[0]
        if first.marks and not isinstance(first, Part):
            marks.append(first.marks[0].value)
        elif result == "fails":
            marks.append("fails")
        dislodged = any((isinstance(r, WasDislodged) and r.from_) or (isinstance(r, Part) and r.marks) for r in reasons)
        if dislodged and Mark.DISLODGED.value not in marks:
            marks.append(Mark.DISLODGED.value)
    elif result == "fails":
        marks.append("fails")
    if any(Mark.DESTROYED in r.marks for r in reasons):
        marks.append(Mark.DESTROYED.value)
    if not ordered:
        marks.insert(0, "unordered")
    return tuple(marks)


def annotate(order: str, result: str, reasons: Sequence[Reason], ordered: bool = True) -> list[Annotated]:
    """The printed lines for one order; a partly cut support becomes two, as Multiplomacy's rule 5 ii asks:
    the part that stood and the part that was cut, each with its own mark."""
    partly = next((r for r in reasons if isinstance(r, PartlyCut)), None)
    if partly is not None:
        return [
            Annotated(partly.part(partly.stood), ()),
            Annotated(partly.part(partly.fell), (Mark.CUT.value,), f"by {partly.cutters}"),
        ]
    marks = marks_for(result, reasons, ordered)
    why = text_of(reasons)
    if marks and marks != ("unordered",):
        why = why.removeprefix("void: ")  # the mark says it
    for said in ("cut", "dislodged"):  # the mark already says it: keep only by whom
        if marks[:1] == (said,) and why.startswith(said):
            why = why.removeprefix(said).strip()
    return [Annotated(order, marks, why)]
