"""SUMMARY's table: the centres held at the end of each year, counted as the results count them
(`judge.render.tally`: in halves where towns count half), a column a player (issue 27: by player, with the
powers' detail where a player holds several), the years as the variant writes them (`451 BC`), columns as wide
as the longest name and no line cut."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.calendar import Calendar
from judge.engine.supply import halves
from judge.render.tally import Holding, holdings, rules_for, side_total, sides_holding
from judge.variants import UnknownVariant, get_variant

WIDTH = 78
"""the detail lines are wrapped to a mail's width"""


@dataclass(frozen=True)
class Year:
    year: int
    owned: dict[str, list[str]]
    finished: bool


def _calendar(variant: str) -> Calendar | None:
    try:
        return get_variant(variant).calendar
    except UnknownVariant:
        return None


def summary_lines(game: str, variant: str, options: dict[str, Any] | None, years: Sequence[Year]) -> list[str]:
    calendar = _calendar(variant)
    year_name = calendar.year_name if calendar is not None else str
    counted = [holdings(variant, {"supply_centers": y.owned}, options) for y in years]
    present = {p for held in counted for p in held}
    sides = sides_holding(variant, options, present)
    several = any(len(s.powers) > 1 for s in sides)
    names = [s.name for s in sides]
    column = max([5, *(len(n) for n in names)]) + 2
    first = max([6, *(len(year_name(y.year)) for y in years)]) + 1
    lines = [f"Supply centres held at the end of each year in {game}{', by player' if several else ''}:", ""]
    rules = rules_for(variant, options)
    if rules is not None and "victory_centres" in rules.OPTIONS:  # a variant won by a count (Hepta: by claims)
        whose = "set by the GM" if (options or {}).get("victory_centres") else "the map's"
        lines[-1:-1] = [f"Victory: {rules.victory_centres()} supply centres ({whose})."]
    if several:
        lines.append("Players: " + ", ".join(s.label for s in sides if len(s.powers) > 1) + ".")
        lines.append("")
    lines.append(" " * first + "".join(f"{n:>{column}}" for n in names))
    for y, held in zip(years, counted, strict=True):
        totals = [side_total(s.powers, held).centres for s in sides]
        mark = "" if y.finished else "   (the year is not over: centres so far)"
        lines.append(f"{year_name(y.year):<{first}}" + "".join(f"{halves(t):>{column}}" for t in totals) + mark)
    if several and years:
        last, held = years[-1], counted[-1]
        lines += ["", f"By power, {year_name(last.year)}:"]
        for side in sides:
            if len(side.powers) > 1:
                parts = [f"{p} {halves(held.get(p, Holding(0, 0)).centres)}" for p in side.powers]
                lines += _wrapped(f"  {side.name}: ", parts)
    return lines


def _wrapped(lead: str, parts: list[str]) -> list[str]:
    """`parts` after `lead`, comma-separated, wrapped to `WIDTH` with the later lines indented under the first."""
    lines, line = [], lead
    for n, part in enumerate(parts):
        piece = part + ("," if n < len(parts) - 1 else "")
        if len(line) + len(piece) > WIDTH and line.strip() != lead.strip():
            lines.append(line.rstrip())
            line = " " * len(lead)
        line += piece + " "
    lines.append(line.rstrip())
    return lines
