"""Rule editions and variant rules as small policy objects the resolver asks, instead of `if` branches.

`Edition` holds the points where the rulebooks (1971, 1982, 2000, 2023) differ and the DATC states a
preference; the default is the DATC v3 preference (the 2023 rulebook). `Rules` bundles the board, the edition
and the variant's own hooks; standard Diplomacy uses it as is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from judge.board.model import Board, Terrain
from judge.engine.units import Composition, Force

if TYPE_CHECKING:
    from judge.engine.resolution import Detachment, MovementResolver

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
CUT_ALL = 1 << 30
"""a cut amount that cuts every share of a support"""


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

    shares_provinces: bool = False
    """True where one power's units may stand together in a province and swap places (Multiplomacy)."""

    def attack_group_key(self, detachment: Detachment, index: int) -> object:
        """Moves with the same key attack as one group. Standard: every move alone; a merge together."""
        if detachment.merge is not None:
            return ("merge", detachment.power, detachment.merge)
        return index

    def cut_order(self, resolver: MovementResolver, supports: list[int]) -> list[int]:
        """The supports of one province in the order their shares are cut: the last written first."""
        return sorted(supports, key=lambda s: -resolver.dets[s].written)

    def cut_amount(self, resolver: MovementResolver, support: int, cutters: dict[int, list[int]], high: bool) -> int:
        """How many shares of a province's supports the attacks in `cutters` cut. Standard: any attack cuts all."""
        return CUT_ALL if cutters else 0

    def assemble(self, forces: list[Force]) -> list[Force]:
        """The forces after a movement phase, from the detachments' new places. Standard: as they are;
        variants with multiples merge a power's detachments that end on one location."""
        return forces

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """How much a force counts where it stands or moves (its support weighs the same).

        Standard: one per unit. The multi-unit variants weigh compositions by terrain (an A/F at sea
        counts its fleets); their rule modules override this.
        """
        return composition.size
