"""Units as markers: the composition written on a chip of the power's colour (`A`, `F`, `G`, `2A`, `A/2F`).

Armies' chips are round, fleets' square-cornered, mixed forces in between. Several forces of one power with the
same composition at one place (a Multiplomacy stack of individual units) are one chip drawn as a pile with its
count on a badge; different forces at one place stand side by side. A dislodged unit stands beside its
province, outlined in red.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from judge.board.model import Board
from judge.board.planar import Point
from judge.engine.units import Composition, Force
from judge.picture.layout import Layout
from judge.picture.palette import colours_for
from judge.picture.svg import attr, num, text

HEIGHT = 14.0
GAP = 2.0
DISLODGED_OFFSET = (13.0, 12.0)
"""where a dislodged unit is drawn, from its province's anchor"""


@dataclass(frozen=True, slots=True)
class Chip:
    power: str
    composition: Composition
    count: int


def chip_width(composition: Composition) -> float:
    return max(HEIGHT, 6.0 + 6.2 * len(str(composition)))


def corner(composition: Composition) -> float:
    if composition.is_fleet:
        return 2.0
    return HEIGHT / 2 if composition.is_army else 4.0


def chips_at(forces: Iterable[Force]) -> dict[str, list[Chip]]:
    """location -> its chips, in a stable order (by power, then composition)."""
    counts: dict[str, Counter[tuple[str, Composition]]] = defaultdict(Counter)
    for force in forces:
        counts[force.at][(force.power, force.composition)] += 1
    return {
        location: [Chip(power, comp, n) for (power, comp), n in sorted(found.items(), key=lambda i: (i[0][0], i[0][1]))]
        for location, found in counts.items()
    }


def draw_chips(board: Board, chips: list[Chip], centre: Point, dislodged: bool = False) -> str:
    """The chips of one place, side by side, centred on `centre`."""
    widths = [chip_width(c.composition) for c in chips]
    x = centre[0] - (sum(widths) + GAP * (len(chips) - 1)) / 2
    out: list[str] = []
    for chip, width in zip(chips, widths, strict=True):
        out.append(_chip(board, chip, x, centre[1] - HEIGHT / 2, width, dislodged))
        x += width + GAP
    return "".join(out)


def _chip(board: Board, chip: Chip, x: float, y: float, width: float, dislodged: bool) -> str:
    colours = colours_for(board, chip.power)
    rx = num(corner(chip.composition))
    body = f'rx="{rx}" width="{num(width)}" height="{num(HEIGHT)}" fill={attr(colours.strong)}'
    cls = "u dis" if dislodged else "u"
    out = []
    for depth in (2, 1)[-(min(chip.count, 3) - 1) :] if chip.count > 1 else ():
        out.append(f'<rect class="u" x="{num(x + 2.2 * depth)}" y="{num(y - 2.2 * depth)}" {body}/>')
    title = f"{chip.power} {chip.composition}" + (f" x{chip.count}" if chip.count > 1 else "")
    out.append(f'<rect class="{cls}" x="{num(x)}" y="{num(y)}" {body}><title>{text(title)}</title></rect>')
    out.append(
        f'<text class="ut" x="{num(x + width / 2)}" y="{num(y + HEIGHT / 2 + 3.5)}" fill={attr(colours.ink)}>'
        f"{text(str(chip.composition))}</text>"
    )
    if chip.count > 1:
        bx, by = x + width + 2.2 * min(chip.count - 1, 2), y - 2.2 * min(chip.count - 1, 2)
        out.append(f'<circle class="bdg" cx="{num(bx)}" cy="{num(by)}" r="5"/>')
        out.append(f'<text class="bt" x="{num(bx)}" y="{num(by + 2.5)}">{chip.count}</text>')
    return "".join(out)


def draw_units(board: Board, layout: Layout, forces: Iterable[Force]) -> str:
    out: list[str] = []
    for location, chips in chips_at(forces).items():
        point = layout.point(location)
        if point is not None:
            out.append(draw_chips(board, chips, point))
    return "".join(out)


def dislodged_point(point: Point) -> Point:
    return (point[0] + DISLODGED_OFFSET[0], point[1] + DISLODGED_OFFSET[1])


def draw_dislodged(board: Board, layout: Layout, forces: Iterable[Force]) -> str:
    out: list[str] = []
    for location, chips in chips_at(forces).items():
        point = layout.point(location)
        if point is not None:
            out.append(draw_chips(board, chips, dislodged_point(point), dislodged=True))
    return "".join(out)
