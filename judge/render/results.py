"""A phase's results sheet: the outcome of one phase laid out the way the zines printed it.

The sheet is built here, in Python, from the engine's outcome (the `judge adjudicate` contract) and what the game
adds (its judge, deadline, late powers, the GM's note); the templates only lay it out. Keeping the logic out of the
templates lets a variant override the wording without copying any of it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from judge.engine.phase import Phase, PhaseType
from judge.engine.units import Composition
from judge.render.annotations import Annotated, annotate
from judge.variants import UnknownVariant, get_variant


@dataclass(frozen=True)
class Dislodgement:
    power: str
    unit: str
    at: str
    attacker_from: str
    retreats: list[str]


@dataclass(frozen=True)
class CentreLine:
    power: str
    centres: int
    units: int
    centre_names: list[str]

    @property
    def adjustment(self) -> str:
        change = self.centres - self.units
        if change > 0:
            return f"builds {change}"
        if change < 0:
            return f"removes {-change}"
        return "no change"


@dataclass
class ResultSheet:
    game: str
    variant: str
    judge: str
    phase: dict[str, Any]
    code: str
    title: str
    """"results" or, for a GM's PREDICT, "predicted results" """
    orders: dict[str, list[Annotated]]
    dislodged: list[Dislodgement]
    standoffs: list[str]
    die_rolls: list[dict[str, Any]]
    disbanded: list[dict[str, Any]]
    centres: list[CentreLine]
    show_centres: bool
    """after the year's last Fall phase, when ownership changes"""
    show_adjustments: bool
    next_phase: dict[str, Any] | None
    next_code: str | None
    deadline: str | None
    partial_cuts: bool = False
    """some support stood in part and was cut in part (Multiplomacy prints the two parts apart)"""
    winner: list[str] = field(default_factory=list)
    finished: str | None = None
    late: list[str] = field(default_factory=list)
    note: str | None = None
    press: list[dict[str, Any]] = field(default_factory=list)
    """press held for these results and visible to this reader"""


def phase_code(phase: dict[str, Any]) -> str:
    """The njudge phase code (S1901M, F1901R, W1901A) that mappers and scripts read."""
    return Phase(str(phase["season"]), int(phase["year"]), PhaseType(phase["type"])).code


def deadline_text(when: datetime) -> str:
    """njudge's deadline form, e.g. "Sun Nov 29 2026 20:00:00 UTC"."""
    return when.strftime("%a %b %d %Y %H:%M:%S ") + (when.tzname() or "UTC")


@cache
def _provinces(variant: str) -> frozenset[str]:
    try:
        return frozenset(get_variant(variant).rules().board.provinces)
    except UnknownVariant:
        return frozenset()


_WORD = re.compile(r"\b([a-z]{3})(?=\b|/)")


def zine_case(text: str, variant: str) -> str:
    """Province abbreviations capitalised as the zines printed them ("F Nth - Nwy"), coasts left as they are."""
    provinces = _provinces(variant)
    return _WORD.sub(lambda m: m[1].capitalize() if m[1] in provinces else m[1], text)


def _size(unit: str) -> int:
    try:
        return Composition.parse(unit).size
    except (KeyError, ValueError):
        return 1


_FIRST_PLACE = re.compile(r"\b([A-Z][a-z]{2})(?:/[a-z]{2})?\b")


def _has_line(orders: dict[str, list[Annotated]], power: str, at: str) -> bool:
    """Whether a power's printed orders already tell of the unit at `at` (so its disbanding needs no line): the
    first place an order names is where its unit stands."""
    where = at.split("/")[0]
    for line in orders.get(power, []):
        first = _FIRST_PLACE.search(line.order)
        if first and first[1] == where:
            return True
    return False


def build_sheet(
    game: str,
    outcome: dict[str, Any],
    next_phase: dict[str, Any] | None,
    *,
    judge: str = "judge",
    deadline: datetime | None = None,
    late: list[str] | None = None,
    note: str | None = None,
    finished: str | None = None,
    title: str = "results",
    press: list[dict[str, Any]] | None = None,
) -> ResultSheet:
    variant = str(outcome.get("variant") or "standard")
    phase = outcome["phase"]

    def z(text: str) -> str:
        return zine_case(text, variant)

    orders: dict[str, list[Annotated]] = {}
    for line in outcome.get("orders", []):
        written = line.get("order") or line.get("input") or ""
        for printed in annotate(written, line["result"], line.get("reason", ""), ordered=bool(line.get("input"))):
            orders.setdefault(line["power"], []).append(Annotated(z(printed.order), printed.marks, z(printed.why)))
    units_after: dict[str, int] = {}
    for unit in outcome.get("units", []):
        units_after[unit["power"]] = units_after.get(unit["power"], 0) + _size(unit["unit"])
    owned = outcome.get("supply_centers", {})
    centres = [
        CentreLine(power, len(names), units_after.get(power, 0), [z(n) for n in sorted(names)])
        for power, names in sorted(owned.items())
        if names or units_after.get(power)
    ]
    next_type = (next_phase or {}).get("type")
    return ResultSheet(
        game=game,
        variant=variant,
        judge=judge,
        phase=phase,
        code=phase_code(phase),
        title=title,
        orders=dict(sorted(orders.items())),
        dislodged=[
            Dislodgement(
                d["power"], d["unit"], z(d["at"]), z(d.get("attacker_from", "")), [z(r) for r in d["retreats"]]
            )
            for d in outcome.get("dislodged", [])
        ],
        standoffs=[z(p) for p in outcome.get("standoffs", [])],
        die_rolls=[
            {**e, "purpose": z(e["purpose"]), "order": [z(o) for o in e["order"]]}
            for e in outcome.get("events", [])
            if e["kind"] == "die_roll"
        ],
        disbanded=[
            {**e, "at": z(e["at"])}
            for e in outcome.get("events", [])
            if e["kind"] in ("disbanded", "civil_disorder_removal") and not _has_line(orders, e["power"], z(e["at"]))
        ],
        centres=centres,
        show_centres=phase["season"] == "Fall" and next_type != PhaseType.RETREAT.value,
        show_adjustments=next_type == PhaseType.ADJUSTMENT.value,
        next_phase=next_phase,
        next_code=phase_code(next_phase) if next_phase else None,
        deadline=deadline_text(deadline) if deadline else None,
        partial_cuts=any(str(o.get("reason", "")).startswith("partly cut") for o in outcome.get("orders", [])),
        winner=list(outcome.get("winner") or []),
        finished=finished,
        late=list(late or []),
        note=note,
        press=list(press or []),
    )
