"""What each power holds, counted one way for every table the judge prints (the results' chart in every season,
the players' totals, LIST, SUMMARY, the web site's chart): the engine's one count,
`judge.engine.supply.adjustment_counts` (centres by the variant's worth, units by what they cost, the builds the
variant grants beyond the centres), read from the contract's JSON here. Issue 27: the Spring chart counted towns
whole and the Autumn chart in halves; issue 40: the picture's legend counted units, the web chart provinces, and
the results' chart left out Delphi's builds that the Winter reply counted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from judge.contract.adjudicate import CaseError, read_position
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import Adjustment
from judge.engine.rules import Rules
from judge.engine.supply import adjustment_counts
from judge.engine.units import Composition
from judge.variants import Side, UnknownVariant, get_variant

Holding = Adjustment
"""A power's (or a player's) centres and units in half centres, and the builds granted beyond the centres."""


def side_total(powers: Iterable[str], held: dict[str, Holding]) -> Holding:
    """A player's side's count: its powers' added up (a Hoplite Major and its Minor, a Hepta player's seven
    board-nations)."""
    return sum((held.get(p, Holding(0, 0)) for p in powers), Holding(0, 0))


def rules_for(variant: str, options: dict[str, Any] | None = None) -> Rules | None:
    try:
        return get_variant(variant).rules(options or None)
    except (UnknownVariant, KeyError, ValueError):
        return None


def sides_for(variant: str, options: dict[str, Any] | None = None) -> list[Side]:
    """The game's players' sides (`Variant.sides`); none for a variant the judge does not know."""
    try:
        return get_variant(variant).sides(options or None)
    except (UnknownVariant, KeyError, ValueError):
        return []


def holdings(variant: str, data: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Holding]:
    """Each power's centres and units in a position or an outcome (the contract's `units` and `supply_centers`),
    counted as the adjustments count them."""
    rules = rules_for(variant, options)
    if rules is not None:
        case: dict[str, Any] = {k: data[k] for k in ("units", "supply_centers", "sides", "state") if k in data}
        try:
            position = read_position(rules, case, Phase("Spring", 1901, PhaseType.MOVEMENT))
        except (CaseError, KeyError, ValueError):
            position = None
        if position is not None:
            return adjustment_counts(rules, position.centres, position.units, position.variant_state)
    # a variant the judge does not know: every centre whole, every unit by its size
    out: dict[str, Holding] = {}
    for power, names in (data.get("supply_centers") or {}).items():
        out[power] = out.get(power, Holding(0, 0)) + Holding(2 * len(names), 0)
    for unit in data.get("units") or []:
        try:
            size = Composition.parse(unit["unit"]).size
        except (KeyError, ValueError):
            size = 1
        out[unit["power"]] = out.get(unit["power"], Holding(0, 0)) + Holding(0, 2 * size)
    return out


def sides_holding(variant: str, options: dict[str, Any] | None, present: Iterable[str]) -> list[Side]:
    """The sides (`sides_for`) with a power among `present`, by name, then each power present that no side holds
    (a power the map does not know) as a side of its own: the columns or lines of a table by player."""
    here = set(present)
    found = sorted((s for s in sides_for(variant, options) if here & set(s.powers)), key=lambda s: s.name)
    return found + [Side(p, (p,)) for p in sorted(here - {p for s in found for p in s.powers})]


def by_side(sides: list[Side], held: dict[str, Holding]) -> dict[str, Holding]:
    """Each player's totals, for the sides that hold several powers (a side of one is its power's line)."""
    return {
        side.label: side_total(side.powers, held)
        for side in sorted(sides, key=lambda side: side.name)
        if len(side.powers) > 1
    }
