"""A game's position as players read it on demand (`LIST game`) and in the game-start mail: the phase and its
deadline, every unit by power (a stack of one power's units counted, a multiple shown with its composition),
the centres each power owns counted as the results count them (`judge.render.tally`: in halves where towns count
half), each player's totals where a player holds several powers, and the units waiting to retreat with where
they may go."""

from __future__ import annotations

from collections import Counter
from datetime import datetime
from typing import Any

from judge.engine.refusals import some_of
from judge.engine.supply import halves
from judge.render.dates import when_text
from judge.render.results import season_and_year, zine_case
from judge.render.tally import Holding, by_side, holdings, sides_for


def position_lines(
    variant: str,
    position: dict[str, Any],
    deadline: datetime | None,
    options: dict[str, Any] | None = None,
    brief: bool = False,
    zone: str | None = None,
) -> list[str]:
    """`brief`: a power on one line, its units then its centres, where the players hold several powers each
    (issue 40: LIST of a Heptadiplomacy game was 122 lines, two for each of its 49 board-nations)."""
    phase = position["phase"]
    lines = [f"Phase: {phase['type']} for {season_and_year(variant, phase)}."]
    lines.append(f"Deadline: {when_text(deadline, zone)}." if deadline else "Deadline: none set (the GM processes).")
    units: dict[str, Counter[str]] = {}
    for unit in position.get("units", []):
        units.setdefault(unit["power"], Counter())[f"{unit['unit']} {zine_case(unit['at'], variant)}"] += 1
    centres = position.get("supply_centers", {})
    held = holdings(variant, position, options)
    players = by_side(sides_for(variant, options), held)
    for power in sorted(set(units) | {p for p, owned in centres.items() if owned}):
        here = units.get(power, Counter())
        shown = [f"{n} {u}" if n > 1 else u for u, n in sorted(here.items())]
        owned = sorted(zine_case(c, variant) for c in centres.get(power, []))
        count = halves(held.get(power, Holding(0, 0)).centres)
        counted = f"{count} centre{'' if count == '1' else 's'}: {', '.join(owned) or '-'}"
        if brief and players:
            lines.append(f"{power}: {', '.join(shown) or 'no units'}; {counted}")
        else:
            lines += [f"{power}: {', '.join(shown) or 'no units'}", f"  {counted}"]
    if players:
        width = max(len(name) for name in players) + 1
        lines.append("By player (centres, units):")
        for name, total in players.items():
            lines.append(f"  {name + ':':{width}} {halves(total.centres):>3} {halves(total.units):>3}")
    for d in position.get("dislodged", []):
        places = [zine_case(r, variant) for r in d.get("retreats") or []]
        where = (some_of(places) if brief else ", ".join(places)) or "nowhere: it will be disbanded"
        lines.append(f"Dislodged: {d['power']} {d['unit']} {zine_case(d['at'], variant)}, may retreat to {where}")
    return lines
