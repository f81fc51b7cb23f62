"""The variants the judge knows: each is a map plus a rule module, selected by name.

A rule module is a `Rules` subclass: it answers the questions where the variant departs from standard
Diplomacy (strength of a force, who attacks together, what a cut removes, how orders bind to forces, builds,
victory). The engine has one resolver; variants never add `if variant ==` branches to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any

from judge.board import load_map
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.engine.calendar import STANDARD_CALENDAR, Calendar
from judge.engine.rules import RuleOption, Rules


@dataclass(frozen=True)
class Side:
    """What one player holds: the name the player joins and signs on with, and the powers (one power in most
    variants; a Major and its Minor in Hoplite Wars; seven board-nations in CW Heptadiplomacy)."""

    name: str
    powers: tuple[str, ...]

    @property
    def label(self) -> str:
        """The side as lists of players name it: its name, or its powers where the name is one of them
        ("Sparta + Elatea")."""
        if len(self.powers) > 1 and self.name in self.powers:
            return " + ".join([self.name, *(p for p in self.powers if p != self.name)])
        return self.name

    @property
    def described(self) -> str:
        """The side as its player is told it: the label, with the powers it holds where the label does not name
        them ("England (1:England, ..., 7:England)"; under CW Heptadiplomacy option B, the player's board-nations);
        a label that names every power (`Sparta + Elatea`, `France`) is enough."""
        if set(self.powers) <= set(self.label.split(" + ")):
            return self.label
        return f"{self.label} ({', '.join(self.powers)})"


def _key(text: str) -> str:
    return "".join(text.split()).lower()


def side_named(sides: list[Side], text: str, power: str | None) -> Side | None:
    """The side a player's word names: a side's name or its label as the judge prints it (spaces and case aside:
    `Player 2`, `player2`, `Sparta + Elatea`), or the side holding `power` (the board's reading of the word as a
    power, if any)."""
    wanted = _key(text)
    for side in sides:
        if wanted in (_key(side.name), _key(side.label)):
            return side
    if power is not None:
        return next((side for side in sides if power in side.powers), None)
    return None


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
    power_noun: str = "power"
    """what the variant calls one of a player's powers, as a refusal names them ("board-nation")"""

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

    def sides(self, options: dict[str, Any] | None = None) -> list[Side]:
        """What each player takes: the variant's fixed sides (Hoplite Wars: a Major with its Minor, named by the
        Major; CW Heptadiplomacy: a country's seven board-nations, or option B's `Player 1` ...), and every other
        power alone, named by itself. A game needs one player per side."""
        rules = self.rules(options)
        found = [Side(name, tuple(sorted(powers))) for name, powers in rules.fixed_sides().items() if powers]
        taken = {power for side in found for power in side.powers}
        found.extend(Side(power, (power,)) for power in sorted(rules.board.powers) if power not in taken)
        return sorted(found, key=lambda side: side.powers)

    def seat_groups(self, options: dict[str, Any] | None = None) -> list[tuple[str, ...]]:
        """The powers of each side (`sides`), in a fixed order."""
        return [side.powers for side in self.sides(options)]

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


class VariantRegistry(MutableMapping[str, Variant]):
    """The variants by name, each made on first use by the function that declares it.

    Why: a descriptor names its rule class, and importing every variant's rule module up front made
    `judge adjudicate` on a standard case load the rules of six variants it never runs. The names are known at
    once, so `sorted(VARIANTS)`, `len` and `in` import nothing; `VARIANTS[name]` (and so `.values()`, `.items()`,
    `get_variant`) imports that variant's rule module the first time and keeps the descriptor. An entry can be
    set or deleted as on a dict (tests add variants with `monkeypatch.setitem`). Two threads asking for the same
    new variant at once may each make it: the descriptors are equal values, and either one is kept."""

    def __init__(self, makers: dict[str, Callable[[], Variant]]) -> None:
        self._entries: dict[str, Variant | Callable[[], Variant]] = dict(makers)

    def __getitem__(self, name: str) -> Variant:
        entry = self._entries[name]
        if isinstance(entry, Variant):
            return entry
        variant = self._entries[name] = entry()
        return variant

    def __setitem__(self, name: str, variant: Variant) -> None:
        self._entries[name] = variant

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries  # without making the variant, as Mapping's own would

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _standard() -> Variant:
    return Variant("standard", "Standard Diplomacy (1971 rules as clarified by the DATC)", "standard", Rules)


def _multiplomacy() -> Variant:
    from judge.variants.multiplomacy import MultiplomacyRules

    return Variant("multiplomacy", "Multiplomacy (C. H. Hemming, 1973)", "multiplomacy", MultiplomacyRules)


def _multiplicity1() -> Variant:
    from judge.variants.multiplicity import MultiplicityRules

    return Variant(
        "multiplicity1",
        "Multiplicity I with the A/F rules (R. J. Walkerdine)",
        "standard",
        MultiplicityRules,
        MULTIPLICITY_CALENDAR,
        starts_with_units=False,
    )


def _multiplicity2() -> Variant:
    from judge.variants.multiplicity import Multiplicity2Rules

    return Variant(
        "multiplicity2",
        "Multiplicity II (R. J. Walkerdine, revised K. Black)",
        "standard",
        Multiplicity2Rules,
        MULTIPLICITY_CALENDAR,
        starts_with_units=False,
    )


def _mad() -> Variant:
    from judge.variants.mad import MadRules

    return Variant(
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
    )


def _hoplite() -> Variant:
    from judge.variants.hoplite import HopliteRules

    return Variant(
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
    )


def _hepta() -> Variant:
    from judge.variants.hepta import HeptaRules

    return Variant(
        "hepta",
        "CW Heptadiplomacy (Mark Nelson, 1990)",
        "standard",
        HeptaRules,
        draws=False,
        power_noun="board-nation",
        draws_instead=(
            "the game ends in a solo win (70 centres at the end of an Autumn) or a two- or three-way win claimed "
            "with the Autumn orders: CLAIM 2-way win with PLAYER (rule 7)"
        ),
        opening_help=(
            "Seven standard boards: write every location with its board, A 1:par - 3:par, F 2:nth C A 1:lon - "
            "2:bel. Claim a joint win with the Autumn orders: CLAIM 2-way win with PLAYER [if ...]."
        ),
    )


VARIANTS = VariantRegistry(
    {
        "standard": _standard,
        "multiplomacy": _multiplomacy,
        "multiplicity1": _multiplicity1,
        "multiplicity2": _multiplicity2,
        "mad": _mad,
        "hoplite": _hoplite,
        "hepta": _hepta,
    }
)
"""every variant the judge plays, in the order `judge variants` lists them"""


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise UnknownVariant(f"unknown variant {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
