"""A game's position as players read it on demand (`LIST game`) and in the game-start mail: the phase and its
deadline, every unit by power (a stack of one power's units counted, a multiple shown with its composition),
the centres each power owns, and the units waiting to retreat with where they may go."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from judge.render.results import deadline_text, season_and_year, zine_case


def position_lines(variant: str, position: dict[str, Any], deadline: datetime | None) -> list[str]:
    phase = position["phase"]
    lines = [f"Phase: {phase['type']} for {season_and_year(variant, phase)}."]
    lines.append(f"Deadline: {deadline_text(deadline)}." if deadline else "Deadline: none set (the GM processes).")
    units: dict[str, Counter[str]] = {}
    for unit in position.get("units", []):
        units.setdefault(unit["power"], Counter())[f"{unit['unit']} {zine_case(unit['at'], variant)}"] += 1
    centres = position.get("supply_centers", {})
    for power in sorted(set(units) | {p for p, owned in centres.items() if owned}):
        here = units.get(power, Counter())
        shown = [f"{n} {u}" if n > 1 else u for u, n in sorted(here.items())]
        lines.append(f"{power}: {', '.join(shown) or 'no units'}")
        owned = sorted(zine_case(c, variant) for c in centres.get(power, []))
        lines.append(f"  {len(owned)} centre(s): {', '.join(owned) or '-'}")
    for d in position.get("dislodged", []):
        where = ", ".join(zine_case(r, variant) for r in d.get("retreats") or []) or "nowhere: it will be disbanded"
        lines.append(f"Dislodged: {d['power']} {d['unit']} {zine_case(d['at'], variant)}, may retreat to {where}")
    return lines
