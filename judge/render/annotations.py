"""The zine's marks for what became of an order: (*bounce*), (*cut*), (*dislodged*), (*void*), (*no convoy*).

The engine gives every order's result with its reasons as values (`judge.engine.reasons`); results mails print
the mark the zines used and keep the words on the line below for the player who wants to know why. The marks come
from the reasons' kinds, never from their words. This module is the one place that turns reasons into marks, so
replies, results, PREDICT and HISTORY all agree. The words are the reasons' own, places named by the namer the
renderer passes (`Nth`, `Norway`), and where a mark says what the first reason would (void, cut, dislodged) that
reason gives only the rest (`Reason.beside`): nothing is cut out of a sentence.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from judge.engine.reasons import Mark, Namer, Part, PartlyCut, Reason, WasDislodged, as_is, text_of


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


def said_by(marks: tuple[str, ...]) -> Mark | None:
    """The mark whose word the first reason need not repeat: cut or dislodged when printed first, void when
    printed at all (an unordered line's own mark says nothing of why)."""
    if marks[:1] == (Mark.CUT.value,) or marks[:1] == (Mark.DISLODGED.value,):
        return Mark(marks[0])
    return Mark.VOID if Mark.VOID.value in marks else None


def why(reasons: Sequence[Reason], marks: tuple[str, ...], place: Namer = as_is) -> str:
    """The words printed on the line below an order: its reasons, the first one's less what the marks say."""
    if not reasons:
        return ""
    first = reasons[0].beside(said_by(marks), place)
    rest = text_of(reasons[1:], place)
    return f"{first}; {rest}" if rest else first


def annotate(
    printed: Callable[[int | None], str],
    result: str,
    reasons: Sequence[Reason],
    ordered: bool = True,
    place: Namer = as_is,
) -> list[Annotated]:
    """The printed lines for one order: `printed(None)` is the order as the sheet prints it, `printed(n)` the same
    order for `n` of its units. A partly cut support becomes two, as Multiplomacy's rule 5 ii asks: the part that
    stood and the part that was cut, each with its own mark. Places in the words are named by `place`."""
    partly = next((r for r in reasons if isinstance(r, PartlyCut)), None)
    if partly is not None:
        return [
            Annotated(printed(partly.stood), ()),
            Annotated(printed(partly.fell), (Mark.CUT.value,), f"by {partly.cutters(place)}"),
        ]
    marks = marks_for(result, reasons, ordered)
    return [Annotated(printed(None), marks, why(reasons, marks, place))]
