"""An outcome stored before its values were written, brought up to them (issue 42).

Before issue 42 the contract wrote a refusal as `{"kind": "note", "words": ...}` and a die roll in words only, and
an outcome stored before orders were written as values has no `read`; the renderers print all of these from
values now (places named by the namer of each medium), so an old phase would print its words as they are stored.
A stored phase keeps its input (the position before, the order lines, the seed) and the engine is pure, so the
values are had by adjudicating that input again: `with_values` takes them from that fresh outcome into the stored
one where the two tell the same (every line's power, input, order, result and reason, every die roll's words),
and leaves the stored outcome as it is where they do not (an engine since corrected would tell another story:
what the players were sent stands). The migration `0012_typed_reasons` does this once for every stored phase.

Why once, in a migration, and not each time a phase is read: the web pages, the replies, HISTORY and the mails
read stored outcomes in several places, and each would need the phase's input and an adjudication; upgraded
once, every reader sees one form, and an outcome that could not be upgraded still reads (a note is a `Note`).
"""

from __future__ import annotations

from typing import Any

_TOLD = ("power", "input", "order", "result", "reason")
"""what an order line tells, which the fresh outcome must tell alike"""


def needs_values(stored: dict[str, Any]) -> bool:
    """Whether a stored outcome lacks values today's outcome has: a reason written as a note, an order without
    `read`, a die roll without `why`."""
    for line in stored.get("orders") or []:
        if line.get("order") and "read" not in line:
            return True
        if _has_note(line.get("reasons") or []):
            return True
    return any(e.get("kind") == "die_roll" and "why" not in e for e in stored.get("events") or [])


def _has_note(reasons: list[Any]) -> bool:
    return any(isinstance(r, dict) and (r.get("kind") == "note" or _has_note(r.get("reasons") or [])) for r in reasons)


def with_values(stored: dict[str, Any], fresh: dict[str, Any]) -> dict[str, Any]:
    """`stored` with the values of `fresh` (the same phase adjudicated again) where the two tell the same; `stored`
    itself where they do not."""
    old_lines, new_lines = stored.get("orders") or [], fresh.get("orders") or []
    if len(old_lines) != len(new_lines):
        return stored
    if any(old.get(key) != new.get(key) for old, new in zip(old_lines, new_lines, strict=True) for key in _TOLD):
        return stored
    events = list(stored.get("events") or [])
    rolls = [i for i, e in enumerate(events) if e.get("kind") == "die_roll"]
    fresh_rolls = [e for e in fresh.get("events") or [] if e.get("kind") == "die_roll"]
    if len(rolls) != len(fresh_rolls) or any(
        (events[i].get("purpose"), events[i].get("order")) != (new.get("purpose"), new.get("order"))
        for i, new in zip(rolls, fresh_rolls, strict=True)
    ):
        return stored
    for i, new in zip(rolls, fresh_rolls, strict=True):
        events[i] = {**events[i], "why": new["why"], "read": new["read"]}
    lines = [
        {**old, "reasons": new.get("reasons") or [], **({"read": new["read"]} if "read" in new else {})}
        for old, new in zip(old_lines, new_lines, strict=True)
    ]
    return {**stored, "orders": lines, "events": events}
