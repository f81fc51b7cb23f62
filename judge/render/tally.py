"""What each power holds, counted one way for every table the judge prints (the results' chart in every season,
the players' totals, LIST, SUMMARY): centres in halves by the variant's worth (`Rules.centre_value`: a Hoplite
Wars town is half a centre), units by what they cost (`Rules.costs`: a garrison costs half a centre, so `2G`
counts 1), as the engine counts them for the adjustments (`judge.engine.supply.adjustment_counts`). Issue 27: the
Spring chart counted towns whole and the Autumn chart in halves; a `2G` counted 2 in one table and 1 in another."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.contract.adjudicate import CaseError, read_position
from judge.engine.phase import Phase, PhaseType
from judge.engine.rules import Rules
from judge.engine.supply import adjustment_counts, halves
from judge.engine.units import Composition
from judge.variants import Side, UnknownVariant, get_variant


@dataclass(frozen=True)
class Holding:
    """A power's (or a player's) centres and units, in half centres."""

    centres: int
    units: int

    def __add__(self, other: Holding) -> Holding:
        return Holding(self.centres + other.centres, self.units + other.units)

    @property
    def centres_shown(self) -> str:
        return halves(self.centres)

    @property
    def units_shown(self) -> str:
        return halves(self.units)


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
        case: dict[str, Any] = {k: data[k] for k in ("units", "supply_centers", "sides") if k in data}
        try:
            position = read_position(rules, case, Phase("Spring", 1901, PhaseType.MOVEMENT))
        except (CaseError, KeyError, ValueError):
            position = None
        if position is not None:
            counted = adjustment_counts(rules, position.centres, position.units)
            return {p: Holding(a.centres, a.units) for p, a in counted.items()}
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


def by_side(sides: list[Side], held: dict[str, Holding]) -> dict[str, Holding]:
    """Each player's totals, for the sides that hold several powers (a side of one is its power's line)."""
    return {
        side.label: sum((held.get(p, Holding(0, 0)) for p in side.powers), Holding(0, 0))
        for side in sorted(sides, key=lambda side: side.name)
        if len(side.powers) > 1
    }
