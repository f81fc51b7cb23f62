"""Rule editions and variant rules as small policy objects the resolver asks, instead of `if` branches.

`Edition` holds the points where the rulebooks (1971, 1982, 2000, 2023) differ and the DATC states a
preference; the default is the DATC v3 preference (the 2023 rulebook). `Rules` bundles the board, the edition
and the variant's own hooks; standard Diplomacy uses it as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from judge.board.model import Board, Terrain
from judge.engine.units import Composition

ParadoxRule = Literal["szykman", "1971", "1982", "2000"]
AdjacentConvoy = Literal["via_or_own_fleet", "opposite_move"]
CivilDisorder = Literal["owned_centres", "home_centres"]


@dataclass(frozen=True, slots=True)
class Edition:
    name: str
    paradox_rule: ParadoxRule
    """Which support-cut exception applies to convoy paradoxes; the Szykman rule is always the backup."""
    adjacent_convoy: AdjacentConvoy
    """When an army that could go by land is convoyed (DATC 4.A.3)."""
    multi_route_disrupted_by_any: bool
    """1971: a convoy with several routes is disrupted when any route is (DATC 4.A.1)."""
    retreat_to_convoy_origin: bool
    """A unit dislodged by a convoyed attack may retreat to the attacker's origin (DATC 4.A.5)."""
    civil_disorder: CivilDisorder
    """Civil-disorder removals by distance to owned centres (2023) or to home centres (earlier)."""


EDITIONS: dict[str, Edition] = {
    "2023": Edition("2023", "szykman", "via_or_own_fleet", False, True, "owned_centres"),
    "2000": Edition("2000", "2000", "via_or_own_fleet", False, False, "home_centres"),
    "1982": Edition("1982", "1982", "via_or_own_fleet", False, False, "home_centres"),
    "1971": Edition("1971", "1971", "opposite_move", True, False, "home_centres"),
}
DEFAULT_EDITION = "2023"


class RuleOptionError(ValueError):
    """An unknown option name or value in a case or a game's settings."""


@dataclass(frozen=True)
class Rules:
    board: Board
    edition: Edition
    variant: str = "standard"
    weighs_compositions: bool = False
    """True where a force's strength depends on its composition and terrain (the multi-unit variants)."""

    @classmethod
    def build(cls, board: Board, options: dict[str, Any] | None = None, variant: str = "standard") -> Rules:
        options = dict(options or {})
        edition_name = str(options.pop("edition", DEFAULT_EDITION))
        if edition_name not in EDITIONS:
            raise RuleOptionError(f"unknown edition {edition_name!r} (known: {', '.join(EDITIONS)})")
        if options:
            raise RuleOptionError(f"unknown option(s) for {variant}: {', '.join(sorted(options))}")
        return cls(board, EDITIONS[edition_name], variant)

    def victory_centres(self) -> int:
        return self.board.victory_centres

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """How much a force counts where it stands or moves (its support weighs the same).

        Standard: one per unit. The multi-unit variants weigh compositions by terrain (an A/F at sea
        counts its fleets); their rule modules override this.
        """
        return composition.size
