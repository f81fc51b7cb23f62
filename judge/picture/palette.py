"""Colours by side: every side (a player, or a power alone) one hue, the terrain's colours, and stripes.

Who holds which power comes in as data (`sides`: label -> the powers it holds); where a picture is given none it
takes the position's own (Heptadiplomacy's option B) or each power alone, board-nations (`3:England`) by nation.
A side named after a power the board game colours (England) keeps that power's hue; every other side takes the
next free hue of `SIDE_HUES`, in the sides' order, so a picture never depends on chance. A side's powers on
different boards (a Heptadiplomacy player's seven) are all drawn in the side's colour; where a side holds two
powers on one board (Hoplite Wars' Major and Minor) the first (the one the side is named after) is solid and the
others are striped in the same hue (`Colours.hatch`), so a Minor reads as its Major's family and never as
another player.

The seven hues were tuned by a search, from the Okabe-Ito colour-blind-safe set towards the board game's
colours (Austria red, England dark blue, France light blue, Germany grey, Italy green, Russia purple, Turkey
yellow), so that under a simulation of protanopia, deuteranopia and tritanopia (full dichromacy, the Brettel
simulation of the `coloraide` library) as well as with normal sight no two units' colours are closer than 15 in
CIEDE2000 and no two owners' tints closer than 8, nor a tint closer than 6 to the unowned or the impassable land;
tests/test_picture_palette.py checks it for every variant's sides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from judge.board.model import Board

SEA = "#b5d3ea"
LAND = "#f1e9d2"
IMPASSABLE = "#d8d4cc"
SCENERY_LAND = "#dcd6c8"
SCENERY_WATER = "#c7dcec"
BORDER = "#5b564c"
COASTLINE = "#3f5f7a"
LABEL = "#2d2a26"
FAILED = "#d2201c"
TINT_SHARE = 0.35
"""how far an owner's colour is lightened towards white before it colours the land (`tint_of`)"""
GLASS_LIGHTNESS = 0.6
"""and at least this light (of 1), so that names stay readable on a dark power's land (Germany)"""


@dataclass(frozen=True, slots=True)
class Colours:
    strong: str
    """units, centre marks, arrows"""
    tint: str
    """the provinces a power owns"""
    ink: str
    """text on `strong`"""
    hatch: int | None = None
    """a side's second power on one board: striped in the side's hue (patterns `hs-N`, `ht-N`, `hf-N`)"""

    @property
    def fill(self) -> str:
        """What a chip or mark is filled with: the colour, or its stripes."""
        return self.strong if self.hatch is None else f"url(#hs-{self.hatch})"

    @property
    def tint_fill(self) -> str:
        return self.tint if self.hatch is None else f"url(#ht-{self.hatch})"


KNOWN = {
    "Austria": "#c25100",
    "England": "#006998",
    "France": "#84ccff",
    "Germany": "#262626",
    "Italy": "#65956c",
    "Russia": "#c087ac",
    "Turkey": "#ffe14d",
}
"""the board game's powers, in hues checked for colour-blind readers (module docstring)"""
SIDE_HUES = ("#006998", "#c25100", "#65956c", "#ffe14d", "#c087ac", "#84ccff", "#262626")
"""the same seven hues, for sides the board game does not name, in an order that puts the most different first"""
SPARE = ("#8a5a2b", "#1f8f8a", "#5a4fcf", "#a0306e", "#6e7f1d")
"""past seven sides (no variant the judge ships has more): distinct, but not checked for colour blindness"""
UNKNOWN = "#777777"


def mix(colour: str, other: str, share: float) -> str:
    a = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * (1 - share) + y * share):02x}" for x, y in zip(a, b, strict=True))


def ink(colour: str) -> str:
    """Text on this colour: dark on a light one, white on a dark one."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#1d1d1d" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def nation(power: str) -> str:
    """`3:England` -> `England`: the nation a board-nation belongs to."""
    head, colon, rest = power.partition(":")
    return rest if colon and head.isdigit() else power


def board_number(power: str) -> str:
    """`3:England` -> `3`; a power of a single board -> ``."""
    head, colon, _ = power.partition(":")
    return head if colon and head.isdigit() else ""


def tint_of(strong: str) -> str:
    """The land an owner holds: the plain land coloured through the owner's colour lightened, as a glass would
    (a multiply), so that the PNG path can paint it over the cached board by multiplying (raster.py)."""
    r, g, b = (int(strong[i : i + 2], 16) for i in (1, 3, 5))
    light = (0.299 * r + 0.587 * g + 0.114 * b) / 255
    share = max(TINT_SHARE, (GLASS_LIGHTNESS - light) / (1 - light)) if light < 1 else 0.0
    glass = mix(strong, "#ffffff", share)
    land = [int(LAND[i : i + 2], 16) for i in (1, 3, 5)]
    through = [int(glass[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x * y / 255):02x}" for x, y in zip(land, through, strict=True))


def colours_of(strong: str, hatch: int | None = None) -> Colours:
    return Colours(strong, tint_of(strong), ink(strong) if hatch is None else "#1d1d1d", hatch)


Sides = tuple[tuple[str, tuple[str, ...]], ...]
"""label -> the powers that side holds, in the order the legend lists them"""


def frozen_sides(sides: Mapping[str, Sequence[str]] | None) -> Sides | None:
    return None if sides is None else tuple((label, tuple(powers)) for label, powers in sides.items())


def resolve_sides(board: Board, given: Sides | None) -> Sides:
    """The sides a picture colours by: those given (powers the board lacks left out), then every other power
    alone, board-nations together by nation."""
    out: list[tuple[str, tuple[str, ...]]] = []
    taken: set[str] = set()
    for label, powers in given or ():
        mine = tuple(p for p in powers if p in board.powers and p not in taken)
        if mine:
            out.append((label, mine))
            taken.update(mine)
    rest: dict[str, list[str]] = {}
    for power in board.powers:
        if power not in taken:
            rest.setdefault(nation(power), []).append(power)
    out.extend((label, tuple(powers)) for label, powers in rest.items())
    return tuple(out)


@dataclass(frozen=True)
class Palette:
    """Every power of a board with its colours, and the sides they come from."""

    sides: Sides
    colours: Mapping[str, Colours]
    side_of: Mapping[str, str]

    def of(self, power: str) -> Colours:
        """A power's colours; one the board does not list (a case's stray name) is drawn grey."""
        found = self.colours.get(power)
        return found if found is not None else colours_of(KNOWN.get(nation(power), UNKNOWN))

    def defs(self) -> str:
        """The stripe patterns of the striped powers: on chips and marks (`hs`), on owned land (`ht`), and as
        the multiplier the PNG path paints the land with (`hf`, raster.py)."""
        out = []
        for colours in self.colours.values():
            n = colours.hatch
            if n is None:
                continue
            for prefix, on, off in (
                ("hs", colours.strong, "#ffffff"),
                ("ht", colours.tint, LAND),
                ("hf", tint_factor(colours.tint), "#ffffff"),
            ):
                out.append(
                    f'<pattern id="{prefix}-{n}" width="4" height="4" patternUnits="userSpaceOnUse" '
                    f'patternTransform="rotate(45)"><rect width="4" height="4" fill="{off}"/>'
                    f'<rect width="2.2" height="4" fill="{on}"/></pattern>'
                )
        return "".join(dict.fromkeys(out))


def tint_factor(tint: str) -> str:
    """The colour that, multiplied into the plain land colour, gives `tint`: how the PNG path paints an owner's
    tint over the board's cached picture without hiding its borders and names (raster.py)."""
    land = [int(LAND[i : i + 2], 16) for i in (1, 3, 5)]
    want = [int(tint[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{min(255, round(255 * w / max(g, 1))):02x}" for w, g in zip(want, land, strict=True))


@cache
def palette_for(board: Board, sides: Sides | None = None) -> Palette:
    """The board's colours by side (module docstring)."""
    resolved = resolve_sides(board, sides)
    hues = iter((*SIDE_HUES, *SPARE, *SPARE))
    used: set[str] = set()
    chosen: dict[str, str] = {}
    for label, powers in resolved:  # named sides first, so that a free hue never takes a named one's
        nations = {nation(p) for p in powers}
        name = label if label in KNOWN else next(iter(nations)) if len(nations) == 1 else ""
        if name in KNOWN and KNOWN[name] not in used:
            chosen[label] = KNOWN[name]
            used.add(KNOWN[name])
    for label, _ in resolved:
        if label not in chosen:
            hue = next((h for h in hues if h not in used), UNKNOWN)
            chosen[label] = hue
            used.add(hue)
    colours: dict[str, Colours] = {}
    side_of: dict[str, str] = {}
    stripes = 0
    for label, powers in resolved:
        lead = label if label in powers else powers[0]
        boards_seen: set[str] = {board_number(lead)}
        for power in (lead, *(p for p in powers if p != lead)):
            side_of[power] = label
            if power == lead or board_number(power) not in boards_seen:
                boards_seen.add(board_number(power))
                colours[power] = colours_of(chosen[label])
            else:
                colours[power] = colours_of(chosen[label], stripes)
                stripes += 1
    return Palette(resolved, colours, side_of)


def colours_for(board: Board, power: str, sides: Sides | None = None) -> Colours:
    """A power's colours on this board, by the given sides (default: each power alone)."""
    return palette_for(board, sides).of(power)
