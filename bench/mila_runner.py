"""Adjudicate `judge adjudicate` cases with MILA's `diplomacy` package (1.1.2), JSON lines in, JSON lines out.

Run as a script by `bench/mila.py` in its own process, so that the figure is end to end like `judge adjudicate
--jsonl`'s: process start, reading each case, setting up MILA's game, processing the phase, writing the units,
centres and order results out. Only the standard map; movement and adjustment phases (MILA's API cannot be given
a dislodged unit without replaying its movement phase).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from diplomacy import Game  # type: ignore[import-not-found]

_KINDS = {"Movement": "M", "Adjustment": "A", "Retreat": "R"}
_SEASONS = {"Spring": "S", "Fall": "F", "Autumn": "F", "Winter": "W"}


def _phase(phase: dict[str, Any]) -> str:
    return f"{_SEASONS[phase['season']]}{phase['year']}{_KINDS[phase['type']]}"


def _unit(entry: dict[str, Any]) -> str:
    return f"{entry['unit']} {entry['at'].upper()}"


def _order(read: dict[str, Any]) -> str | None:
    """A judge order (its `read`, as `judge/contract/orders.py` writes it) in MILA's notation."""
    kind = read["kind"]
    unit = read.get("unit") or {}
    head = f"{unit.get('type', 'A')} {str(unit.get('at', '')).upper()}"
    if kind == "hold":
        return f"{head} H"
    if kind == "move":
        return f"{head} - {read['to'].upper()}{' VIA' if read.get('via_convoy') else ''}"
    if kind in ("support", "convoy"):
        target = read.get("target") or {}
        supported = f"{target.get('type', 'A')} {str(target.get('at', '')).upper()}"
        letter = "S" if kind == "support" else "C"
        return f"{head} {letter} {supported}" + (f" - {read['to'].upper()}" if read.get("to") else "")
    if kind == "build":
        return f"{head} B"
    if kind in ("remove", "disband"):
        return f"{head} D"
    if kind == "waive":
        return "WAIVE"
    return None


def adjudicate(case: dict[str, Any]) -> dict[str, Any]:
    game = Game()
    game.clear_units()
    game.clear_centers()
    units: dict[str, list[str]] = {}
    for entry in case.get("units", []):
        units.setdefault(entry["power"].upper(), []).append(_unit(entry))
    for power, listed in units.items():
        game.set_units(power, listed)
    for power, centres in (case.get("supply_centers") or {}).items():
        game.set_centers(power.upper(), [c.upper() for c in centres])
    game.set_current_phase(_phase(case["phase"]))
    for power, lines in (case.get("mila_orders") or {}).items():
        game.set_orders(power.upper(), lines)
    game.process()
    history = game.result_history
    last = history.last_value() if len(history) else {}
    results = {unit: [str(r) for r in outcome] for unit, outcome in last.items()}
    return {
        "phase": game.get_current_phase(),
        "units": game.get_units(),
        "centers": game.get_centers(),
        "results": results,
    }


def main() -> None:
    out = sys.stdout
    for line in sys.stdin:
        if line.strip():
            out.write(json.dumps(adjudicate(json.loads(line))) + "\n")


if __name__ == "__main__":
    main()
