"""Supply centres: ownership changes, what each power may build or must remove, and victory."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from judge.board.model import Board
from judge.engine.rules import Rules
from judge.engine.units import Force


def update_ownership(board: Board, centres: dict[str, str], units: Iterable[Force]) -> dict[str, str]:
    """After the Fall: every supply centre with a unit on it belongs to that unit's power."""
    updated = dict(centres)
    for force in units:
        province = force.province
        if board.provinces[province].supply_centre:
            updated[province] = force.power
    return updated


def centre_counts(centres: dict[str, str]) -> Counter[str]:
    return Counter(centres.values())


def unit_counts(units: Iterable[Force]) -> Counter[str]:
    count: Counter[str] = Counter()
    for force in units:
        count[force.power] += force.composition.size
    return count


def build_sites(rules: Rules, power: str, centres: dict[str, str], units: Iterable[Force]) -> list[str]:
    """Owned, vacant home centres where `power` could build."""
    occupied = {f.province for f in units}
    home = rules.board.powers[power].home if power in rules.board.powers else ()
    return [p for p in home if centres.get(p) == power and p not in occupied]


def adjustments_needed(rules: Rules, centres: dict[str, str], units: Iterable[Force]) -> bool:
    units = list(units)
    have = centre_counts(centres)
    fielded = unit_counts(units)
    for power in set(have) | set(fielded):
        diff = have[power] - fielded[power]
        if diff < 0:
            return True
        if diff > 0 and build_sites(rules, power, centres, units):
            return True
    return False


def winners(rules: Rules, centres: dict[str, str]) -> list[str] | None:
    need = rules.victory_centres()
    won = sorted(p for p, n in centre_counts(centres).items() if n >= need)
    return won or None
