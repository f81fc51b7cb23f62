"""The variants the judge knows: each is a map plus a rule module, selected by name.

A rule module is a `Rules` subclass: it answers the questions where the variant departs from standard
Diplomacy (strength of a force, who attacks together, what a cut removes, how orders bind to forces, builds,
victory). The engine has one resolver; variants never add `if variant ==` branches to it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.board import load_map
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.engine.rules import RuleOption, Rules


@dataclass(frozen=True)
class Variant:
    name: str
    title: str
    map_name: str
    rules_class: type[Rules]
    placement: bool = False
    """the game opens with a winter in which the powers place their units (Multiplicity's Winter 1900)"""

    @property
    def options(self) -> dict[str, RuleOption]:
        return self.rules_class.OPTIONS

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        return self.rules_class.build(load_map(self.map_name), dict(options or {}))

    def starting_position(self) -> Position:
        """The position the first phase is played from: the map's starting units and home centres."""
        board = load_map(self.map_name)
        units: list[Force] = []
        centres: dict[str, str] = {}
        for power in board.powers.values():
            if not self.placement:
                for start in power.units:
                    units.append(Force(power.name, ARMY if start.kind == "A" else FLEET, start.location))
            for home in power.home:
                centres[home] = power.name
        if self.placement:
            return Position(Phase("Winter", board.start_year - 1, PhaseType.ADJUSTMENT), (), centres)
        phase = Phase(board.start_season, board.start_year, PhaseType.MOVEMENT)
        return Position(phase, tuple(units), centres)


def _registry() -> dict[str, Variant]:
    from judge.variants.multiplicity import Multiplicity2Rules, MultiplicityRules
    from judge.variants.multiplomacy import MultiplomacyRules

    return {
        "standard": Variant("standard", "Standard Diplomacy (1971 rules as clarified by the DATC)", "standard", Rules),
        "multiplomacy": Variant(
            "multiplomacy", "Multiplomacy (C. H. Hemming, 1973)", "multiplomacy", MultiplomacyRules
        ),
        "multiplicity1": Variant(
            "multiplicity1",
            "Multiplicity I with the A/F rules (R. J. Walkerdine)",
            "standard",
            MultiplicityRules,
            placement=True,
        ),
        "multiplicity2": Variant(
            "multiplicity2",
            "Multiplicity II (R. J. Walkerdine, revised K. Black)",
            "standard",
            Multiplicity2Rules,
            placement=True,
        ),
    }


VARIANTS: dict[str, Variant] = _registry()


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise UnknownVariant(f"unknown variant {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
