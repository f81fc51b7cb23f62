"""The variants the judge knows: each is a map plus a rule module, selected by name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from judge.board import Board, load_map
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.engine.rules import DEFAULT_EDITION, EDITIONS, Rules


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    map_name: str
    make_rules: Callable[[Board, dict[str, Any]], Rules]
    options: dict[str, str]
    """option name -> what it does and its values (for `judge variants --options`)"""

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        return self.make_rules(load_map(self.map_name), dict(options or {}))

    def starting_position(self) -> Position:
        """The position the first phase is played from: the map's starting units and home centres."""
        board = load_map(self.map_name)
        units = []
        centres = {}
        for power in board.powers.values():
            for start in power.units:
                units.append(Force(power.name, ARMY if start.kind == "A" else FLEET, start.location))
            for home in power.home:
                centres[home] = power.name
        phase = Phase(board.start_season, board.start_year, PhaseType.MOVEMENT)
        return Position(phase, tuple(units), centres)


def _standard_rules(board: Board, options: dict[str, Any]) -> Rules:
    return Rules.build(board, options, "standard")


VARIANTS: dict[str, Variant] = {
    "standard": Variant(
        name="standard",
        title="Standard Diplomacy (1971 rules as clarified by the DATC)",
        map_name="standard",
        make_rules=_standard_rules,
        options={
            "edition": f"rulebook for the points where editions differ: {', '.join(EDITIONS)} "
            f"(default {DEFAULT_EDITION}, the DATC v3 preferences)",
        },
    ),
}


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise UnknownVariant(f"unknown variant {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
