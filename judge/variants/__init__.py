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
from judge.engine.calendar import STANDARD_CALENDAR, Calendar
from judge.engine.rules import RuleOption, Rules


@dataclass(frozen=True)
class Variant:
    """A variant's descriptor: everything that makes its game, in one place (docs/variants/adding-a-variant.md).

    The rule module answers the engine's questions; the map holds the board, its powers and home centres; the
    calendar says which phases a year has and what opens the game; the rest says how a game starts."""

    name: str
    title: str
    map_name: str
    rules_class: type[Rules]
    calendar: Calendar = STANDARD_CALENDAR
    """phases, opening phases, season names and years (judge/engine/calendar.py)"""
    starts_with_units: bool = True
    """the map's starting units stand on the board when the game opens (False where the powers place them)"""
    draws: bool = True
    """may the players agree a draw (CW Heptadiplomacy rule 7: "There are no draws")?"""
    draws_instead: str = ""
    """what a game without draws offers instead, told to a player who votes for one"""
    opening_help: str = ""
    """what the game-start mail tells players about an opening of placements (how to write the orders)"""

    @property
    def options(self) -> dict[str, RuleOption]:
        return self.rules_class.OPTIONS

    def rules(self, options: dict[str, Any] | None = None) -> Rules:
        return self.rules_class.build(load_map(self.map_name), dict(options or {}), self.calendar)

    def first_phase(self) -> Phase:
        """The phase a game opens with: the first opening phase, or the map's first movement."""
        if self.calendar.opening:
            return self.calendar.opening[0]
        board = self.rules().board
        return Phase(board.start_season, board.start_year, PhaseType.MOVEMENT)

    def starting_position(self) -> Position:
        """The position the first phase is played from: the map's starting units (unless the powers place their
        own) and home centres."""
        board = self.rules().board
        units: list[Force] = []
        centres: dict[str, str] = {}
        for power in board.powers.values():
            if self.starts_with_units:
                for start in power.units:
                    units.append(Force(power.name, ARMY if start.kind == "A" else FLEET, start.location))
            for home in power.home:
                centres[home] = power.name
        return Position(self.first_phase(), tuple(units), centres)

    def seat_groups(self, options: dict[str, Any] | None = None) -> list[tuple[str, ...]]:
        """The powers each player takes: the variant's fixed sides (Hoplite Wars: a Major with its Minor), and
        every other power alone. A game needs one player per group."""
        rules = self.rules(options)
        groups = [tuple(sorted(powers)) for powers in rules.fixed_sides().values() if powers]
        taken = {power for group in groups for power in group}
        groups.extend((power,) for power in sorted(rules.board.powers) if power not in taken)
        return sorted(groups)

    def phase_name(self, phase: Phase) -> str:
        """A phase as the variant writes it ("Autumn 1900 Placement", "Spring 450 BC Movement")."""
        return self.calendar.display(phase)


MULTIPLICITY_CALENDAR = Calendar(opening=(Phase("Winter", 1900, PhaseType.ADJUSTMENT),))
"""Multiplicity's rule 9 (and Multiplicity II's rule 1): the powers place their units in a Winter 1900."""


MAD_CALENDAR = Calendar(
    opening=(Phase("Spring", 1900, PhaseType.PLACEMENT), Phase("Fall", 1900, PhaseType.PLACEMENT)),
    season_names={"Fall": "Autumn"},
)
"""Mad Diplomacy's rules 2 and 3: centres placed in Spring 1900, units in Autumn 1900; the text says Autumn."""


HOPLITE_CALENDAR = Calendar(
    season_names={"Fall": "Autumn"},
    opening=(Phase("Winter", -451, PhaseType.ADJUSTMENT),),
    ownership_seasons=frozenset({"Spring", "Fall"}),
)
"""Hoplite Wars' rules 12 and 8: initial builds in Winter 451 BC, then Spring 450 BC; centres may change hands
after Spring moves too (Towns only: `HopliteRules.take_ownership`)."""


def _registry() -> dict[str, Variant]:
    from judge.variants.hepta import HeptaRules
    from judge.variants.hoplite import HopliteRules
    from judge.variants.mad import MadRules
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
            MULTIPLICITY_CALENDAR,
            starts_with_units=False,
        ),
        "multiplicity2": Variant(
            "multiplicity2",
            "Multiplicity II (R. J. Walkerdine, revised K. Black)",
            "standard",
            Multiplicity2Rules,
            MULTIPLICITY_CALENDAR,
            starts_with_units=False,
        ),
        "mad": Variant(
            "mad",
            "Mad Diplomacy (Jon Lovibond, 1974)",
            "mad",
            MadRules,
            MAD_CALENDAR,
            starts_with_units=False,
            opening_help=(
                "The game opens with two placements. Spring 1900: each power places its normal number of supply "
                "centres (3, Russia 4) anywhere within its country, one order each (Centre Bur); they are its home "
                "centres. Autumn 1900: it places units of any strength anywhere within its country, their total "
                "strength at most its centres (Place 2A Bur, Place F Bre, Place 2F StP/sc)."
            ),
        ),
        "hoplite": Variant(
            "hoplite",
            "Hoplite Wars (Stephen Agar), with the Multiplicity II rules",
            "hoplite",
            HopliteRules,
            HOPLITE_CALENDAR,
            starts_with_units=False,
            opening_help=(
                "The game opens with the initial builds of Winter 451 BC: each Major builds what it likes on its "
                "home Cities (Build 2F Ath, Build A Mar, Build G Pra; home centres may stay empty); each Minor "
                "one unit or a double garrison (Build A Ana, Build 2G Ana)."
            ),
        ),
        "hepta": Variant(
            "hepta",
            "CW Heptadiplomacy (Mark Nelson, 1990)",
            "standard",
            HeptaRules,
            draws=False,
            draws_instead=(
                "the game ends in a solo win (70 centres at the end of an Autumn) or a two- or three-way win claimed "
                "with the Autumn orders: CLAIM 2-way win with PLAYER (rule 7)"
            ),
            opening_help=(
                "Seven standard boards: write every location with its board, A 1:par - 3:par, F 2:nth C A 1:lon - "
                "2:bel. Claim a joint win with the Autumn orders: CLAIM 2-way win with PLAYER [if ...]."
            ),
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
