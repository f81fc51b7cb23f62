"""A variant's descriptor (`Variant`) and what one player holds (`Side`): values of the judge's one style
(judge/value.py), compiled with it (judge/speedups.py); `judge.variants` declares every variant with them."""

from __future__ import annotations

from typing import Any

from judge.board import load_map
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.engine.calendar import STANDARD_CALENDAR, Calendar
from judge.engine.rules import RuleOption, Rules
from judge.value import Value


class Side(Value):
    """What one player holds: the name the player joins and signs on with, and the powers (one power in most
    variants; a Major and its Minor in Hoplite Wars; seven board-nations in CW Heptadiplomacy)."""

    name: str
    powers: tuple[str, ...]

    names = ("name", "powers")

    def __init__(self, name: str, powers: tuple[str, ...]) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "powers", powers)

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


class Variant(Value):
    """A variant's descriptor: everything that makes its game, in one place (docs/variants/adding-a-variant.md).

    The rule module answers the engine's questions; the map holds the board, its powers and home centres; the
    calendar says which phases a year has and what opens the game; the rest says how a game starts."""

    name: str
    title: str
    map_name: str
    rules_class: type[Rules]
    calendar: Calendar
    """phases, opening phases, season names and years (judge/engine/calendar.py)"""
    starts_with_units: bool
    """the map's starting units stand on the board when the game opens (False where the powers place them)"""
    draws: bool
    """may the players agree a draw (CW Heptadiplomacy rule 7: "There are no draws")?"""
    draws_instead: str
    """what a game without draws offers instead, told to a player who votes for one"""
    opening_help: str
    """what the game-start mail tells players about an opening of placements (how to write the orders)"""
    power_noun: str
    """what the variant calls one of a player's powers, as a refusal names them ("board-nation")"""

    names = (
        "name", "title", "map_name", "rules_class", "calendar", "starts_with_units", "draws", "draws_instead",
        "opening_help", "power_noun",
    )  # fmt: skip
    optional = frozenset(("calendar", "starts_with_units", "draws", "draws_instead", "opening_help", "power_noun"))

    def __init__(
        self,
        name: str,
        title: str,
        map_name: str,
        rules_class: type[Rules],
        calendar: Calendar = STANDARD_CALENDAR,
        starts_with_units: bool = True,
        draws: bool = True,
        draws_instead: str = "",
        opening_help: str = "",
        power_noun: str = "power",
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "title", title)
        object.__setattr__(self, "map_name", map_name)
        object.__setattr__(self, "rules_class", rules_class)
        object.__setattr__(self, "calendar", calendar)
        object.__setattr__(self, "starts_with_units", starts_with_units)
        object.__setattr__(self, "draws", draws)
        object.__setattr__(self, "draws_instead", draws_instead)
        object.__setattr__(self, "opening_help", opening_help)
        object.__setattr__(self, "power_noun", power_noun)

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
