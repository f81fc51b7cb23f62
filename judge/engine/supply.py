"""Supply centres: ownership changes, what each power may build or must remove, and victory."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from judge.board.model import Board
from judge.engine.phase import PhaseType
from judge.engine.position import Adjustment, Dislodged, Position
from judge.engine.rules import Rules
from judge.engine.units import Force


def update_ownership(board: Board, centres: dict[str, str], units: Iterable[Force]) -> dict[str, str]:
    """After the Fall: every supply centre with a unit on it belongs to that unit's power. A centre is one the map
    has, or one the position already counts (Mad Diplomacy's placed centres, which the map does not know)."""
    updated = dict(centres)
    for force in units:
        province = force.province
        if province in centres or board.provinces[province].supply_centre:
            updated[province] = force.power
    return updated


def centre_values(rules: Rules, centres: dict[str, str]) -> Counter[str]:
    """What each power's centres are worth, in half centres (`Rules.centre_value`)."""
    return Counter(_centre_halves(rules, centres))


def upkeep(rules: Rules, units: Iterable[Force]) -> Counter[str]:
    """What each power's units cost, in half centres (`Rules.upkeep`)."""
    return Counter(_upkeep_halves(rules, units))


# The two counts as plain dicts, added up key by key: compiled (judge/speedups.py) that runs natively, where
# adding to a Counter key by key runs its Python methods; the Counters above are made from them in one step.


def _centre_halves(rules: Rules, centres: dict[str, str]) -> dict[str, int]:
    value: dict[str, int] = {}
    if rules.all_centres_whole:  # the common board: every centre counts two halves
        for owner in centres.values():
            value[owner] = value.get(owner, 0) + 2
        return value
    worth = rules.centre_values
    for province, owner in centres.items():
        value[owner] = value.get(owner, 0) + worth[province]
    return value


def _upkeep_halves(rules: Rules, units: Iterable[Force]) -> dict[str, int]:
    cost: dict[str, int] = {}
    if "costs" in rules.overrides:
        for force in units:
            for power, halves in rules.costs(force):
                cost[power] = cost.get(power, 0) + halves
        return cost
    if "upkeep" not in rules.overrides:  # the standard upkeep, precomputed on each (shared) composition
        for force in units:
            cost[force.power] = cost.get(force.power, 0) + force.composition.halves
        return cost
    each = rules.upkeep
    for force in units:
        cost[force.power] = cost.get(force.power, 0) + each(force.composition)
    return cost


def adjustment_counts(
    rules: Rules, centres: dict[str, str], units: Iterable[Force], state: dict[str, Any] | None = None
) -> dict[str, Adjustment]:
    """What each power owns and fields, in half centres, and the builds the variant grants it beyond its centres
    (`Rules.extra_builds`: Hoplite Wars' sack of Delphi): the one count behind the adjustments, the results' chart,
    LIST, SUMMARY, the picture's legend, the web site's chart and the Winter reply (issue 40)."""
    have = _centre_halves(rules, centres)
    cost = _upkeep_halves(rules, units)
    extra = rules.extra_builds(state or {}) if state else {}
    return {
        p: Adjustment(have.get(p, 0), cost.get(p, 0), extra.get(p, 0))
        for p in sorted(set(have) | set(cost) | set(extra))
    }


def balances(
    rules: Rules, centres: dict[str, str], units: Iterable[Force], state: dict[str, Any] | None = None
) -> dict[str, int]:
    """Each power's centres less its upkeep, in halves, with the builds the variant grants beyond the centres
    (`adjustment_counts`): above zero it may build, below it must remove."""
    return {p: a.change for p, a in adjustment_counts(rules, centres, units, state).items()}


def halves(n: int) -> str:
    """A count of half centres as players write it: 4 -> "2", 3 -> "1½", 1 -> "½", -2 -> "-1"."""
    sign = "-" if n < 0 else ""
    whole, half = divmod(abs(n), 2)
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole or ''}½"


def build_sites(
    rules: Rules, power: str, centres: dict[str, str], units: Iterable[Force], state: dict[str, Any] | None = None
) -> list[str]:
    """Home centres where `power` could build now."""
    units = list(units)
    home = rules.home_centres(power, state or {}, centres)
    return [p for p in home if rules.build_site_problem(power, p, centres, units, set(), state) is None]


def adjustments_needed(
    rules: Rules, centres: dict[str, str], units: Iterable[Force], state: dict[str, Any] | None = None
) -> bool:
    """Does anybody have to adjust this winter (or does the variant keep a winter count regardless)?"""
    if rules.winter_always(centres, state or {}):
        return True
    units = list(units)
    owed = balances(rules, centres, units, state)
    if any(diff < 0 for diff in owed.values()):  # a removal is due: no need to look for build sites
        return True
    return any(diff > 0 and build_sites(rules, power, centres, units, state) for power, diff in owed.items())


def winners(rules: Rules, centres: dict[str, str]) -> list[str] | None:
    return rules.winners_after_fall(centres)


def powers_to_order(rules: Rules, position: Position) -> set[str]:
    """The powers that have orders to give in this phase (the others are not waited for, nor marked late)."""
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        return {f.power for f in position.units}
    if kind is PhaseType.RETREAT:  # a unit with nowhere to go has nothing to decide: it is disbanded
        return {d.force.power for d in position.dislodged if d.retreats is None or d.retreats}
    if kind is PhaseType.PLACEMENT:  # every power places (Mad Diplomacy: its centres, then its units)
        placing = set(rules.board.powers)
        return placing if not position.centres else placing & set(position.centres.values())
    due = set()
    for power, diff in balances(rules, position.centres, position.units, position.variant_state).items():
        if diff < 0 or (
            diff > 0 and build_sites(rules, power, position.centres, position.units, position.variant_state)
        ):
            due.add(power)
    return due


def powers_present(units: Iterable[Force], centres: dict[str, str], dislodged: Iterable[Dislodged]) -> set[str]:
    """Powers with a unit, a centre or a unit awaiting its retreat."""
    return {f.power for f in units} | set(centres.values()) | {d.force.power for d in dislodged}


def surviving_powers(position: Position) -> set[str]:
    """Powers still in the game: with a unit or a centre."""
    return powers_present(position.units, position.centres, position.dislodged)
