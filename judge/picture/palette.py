"""Colours: the powers' (the board game's colours where it has them) and the terrain's.

A board-nation of several boards (`3:England`) takes its nation's colour. Powers the table does not know (a
variant's own) take colours from a fixed list in the map's order, so a picture never depends on chance.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from judge.board.model import Board

SEA = "#b5d3ea"
LAND = "#f1e9d2"
IMPASSABLE = "#c9c4b8"
SCENERY_LAND = "#dcd6c8"
SCENERY_WATER = "#c7dcec"
BORDER = "#5b564c"
COASTLINE = "#3f5f7a"
LABEL = "#2d2a26"
FAILED = "#d2201c"


@dataclass(frozen=True, slots=True)
class Colours:
    strong: str
    """units, centre marks, arrows"""
    tint: str
    """the provinces a power owns"""
    ink: str
    """text on `strong`"""


KNOWN = {
    "Austria": "#c8312b",
    "England": "#27389a",
    "France": "#2f9fd8",
    "Germany": "#4b4b4b",
    "Italy": "#2e9a45",
    "Russia": "#8b5cb8",
    "Turkey": "#e1ad12",
}
OTHERS = ("#d46a1f", "#1f8f8a", "#a0306e", "#6e7f1d", "#5a4fcf", "#8a5a2b", "#c03a8a", "#3c7fb0")


def _mix(colour: str, other: str, share: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * (1 - share) + y * share):02x}" for x, y in zip(a, b, strict=True))


def _ink(colour: str) -> str:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#1d1d1d" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def nation(power: str) -> str:
    """`3:England` -> `England`: the nation a board-nation belongs to."""
    head, colon, rest = power.partition(":")
    return rest if colon and head.isdigit() else power


def colours_of(strong: str) -> Colours:
    return Colours(strong, _mix(strong, LAND, 0.55), _ink(strong))


@cache
def power_colours(board: Board) -> dict[str, Colours]:
    """Every power of the board with its colours."""
    out: dict[str, Colours] = {}
    spare = iter(OTHERS * 4)
    assigned: dict[str, str] = {}
    for power in board.powers:
        name = nation(power)
        if name not in assigned:
            assigned[name] = KNOWN.get(name) or next(spare)
        out[power] = colours_of(assigned[name])
    return out


def colours_for(board: Board, power: str) -> Colours:
    """A power's colours; one the board does not list (a case's stray name) is drawn grey."""
    return power_colours(board).get(power) or colours_of(KNOWN.get(nation(power), "#777777"))
