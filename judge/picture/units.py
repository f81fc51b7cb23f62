"""Units as markers: the composition written on a chip of the power's colour (`A`, `F`, `G`, `2A`, `A/2F`).

Armies' chips are round, fleets' square-cornered, mixed forces in between. Several forces of one power with the
same composition at one place (a Multiplomacy stack of individual units) are one chip drawn as a pile with its
count on a badge; different forces at one place stand side by side. A force of two powers of one side (Hoplite
Wars' mixed force of a Major and its Minor) is one chip of two parts, each power's share in its own colour
(the variant's `Rules.written_as` says the shares). A dislodged unit stands beside its province, outlined in red.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from judge.board.planar import Point
from judge.engine.units import Composition, Force
from judge.picture.layout import Layout
from judge.picture.palette import Palette
from judge.picture.svg import attr, num, text

HEIGHT = 14.0
GAP = 2.0
DISLODGED_OFFSET = (13.0, 12.0)
"""where a dislodged unit is drawn, from its province's anchor"""

Split = Callable[[Force], tuple[Force, ...]]
"""a force -> its shares by power (`Rules.written_as`)"""
Box = tuple[float, float, float, float]
"""x0, y0, x1, y1 of something drawn over the board (a chip, a badge), which a name must not hide"""


def whole(force: Force) -> tuple[Force, ...]:
    return (force,)


@dataclass(frozen=True, slots=True)
class Chip:
    parts: tuple[tuple[str, Composition], ...]
    """each power's share of the force: one part, or a mixed force's two"""
    count: int

    @property
    def power(self) -> str:
        return self.parts[0][0]


def part_width(composition: Composition) -> float:
    return max(HEIGHT, 6.0 + 6.2 * len(str(composition)))


def chip_width(chip: Chip) -> float:
    return sum(part_width(c) for _, c in chip.parts)


def corner(composition: Composition) -> float:
    if composition.is_fleet:
        return 2.0
    return HEIGHT / 2 if composition.is_army else 4.0


def chips_at(forces: Iterable[Force], split: Split = whole) -> dict[str, list[Chip]]:
    """location -> its chips, in a stable order (by power, then composition)."""
    counts: dict[str, Counter[tuple[tuple[str, Composition], ...]]] = defaultdict(Counter)
    for force in forces:
        counts[force.at][tuple((f.power, f.composition) for f in split(force))] += 1
    return {location: [Chip(parts, n) for parts, n in sorted(found.items())] for location, found in counts.items()}


def draw_chips(palette: Palette, chips: list[Chip], centre: Point, boxes: list[Box], dislodged: bool = False) -> str:
    """The chips of one place, side by side, centred on `centre`; each one's box is added to `boxes`."""
    widths = [chip_width(c) for c in chips]
    x = centre[0] - (sum(widths) + GAP * (len(chips) - 1)) / 2
    out: list[str] = []
    for chip, width in zip(chips, widths, strict=True):
        y = centre[1] - HEIGHT / 2
        out.append(_chip(palette, chip, x, y, dislodged))
        pile = 2.2 * min(chip.count - 1, 2) + (5 if chip.count > 1 else 0)
        boxes.append((x, y - pile, x + width + pile, y + HEIGHT))
        x += width + GAP
    return "".join(out)


def _chip(palette: Palette, chip: Chip, x: float, y: float, dislodged: bool) -> str:
    width = chip_width(chip)
    out = []
    if chip.count > 1:  # the pile behind, in the first part's colours
        lead = palette.of(chip.power)
        rx = num(corner(chip.parts[0][1]))
        for depth in (2, 1)[-(min(chip.count, 3) - 1) :]:
            out.append(
                f'<rect class="u" x="{num(x + 2.2 * depth)}" y="{num(y - 2.2 * depth)}" rx="{rx}" '
                f'width="{num(width)}" height="{num(HEIGHT)}" fill={attr(lead.fill)}/>'
            )
    title = " + ".join(f"{power} {composition}" for power, composition in chip.parts)
    title += f" x{chip.count}" if chip.count > 1 else ""
    cls = "u dis" if dislodged else "u"
    left = x
    for n, (power, composition) in enumerate(chip.parts):
        colours = palette.of(power)
        w = part_width(composition)
        rx = num(corner(composition) if len(chip.parts) == 1 else 1.5)
        tip = f"<title>{text(title)}</title>" if n == 0 else ""
        out.append(
            f'<rect class="{cls}" x="{num(left)}" y="{num(y)}" rx="{rx}" width="{num(w)}" height="{num(HEIGHT)}" '
            f"fill={attr(colours.fill)}>{tip}</rect>"
        )
        halo = ' class="ut uh"' if colours.hatch is not None else ' class="ut"'
        out.append(
            f'<text{halo} x="{num(left + w / 2)}" y="{num(y + HEIGHT / 2 + 3.5)}" fill={attr(colours.ink)}>'
            f"{text(str(composition))}</text>"
        )
        left += w
    if chip.count > 1:
        bx, by = x + width + 2.2 * min(chip.count - 1, 2), y - 2.2 * min(chip.count - 1, 2)
        out.append(f'<circle class="bdg" cx="{num(bx)}" cy="{num(by)}" r="5"/>')
        out.append(f'<text class="bt" x="{num(bx)}" y="{num(by + 2.5)}">{chip.count}</text>')
    return "".join(out)


def draw_units(
    palette: Palette, layout: Layout, forces: Iterable[Force], boxes: list[Box], split: Split = whole
) -> str:
    out: list[str] = []
    for location, chips in chips_at(forces, split).items():
        point = layout.point(location)
        if point is not None:
            out.append(draw_chips(palette, chips, point, boxes))
    return "".join(out)


def dislodged_point(point: Point) -> Point:
    return (point[0] + DISLODGED_OFFSET[0], point[1] + DISLODGED_OFFSET[1])


def draw_dislodged(
    palette: Palette, layout: Layout, forces: Iterable[Force], boxes: list[Box], split: Split = whole
) -> str:
    out: list[str] = []
    for location, chips in chips_at(forces, split).items():
        point = layout.point(location)
        if point is not None:
            out.append(draw_chips(palette, chips, dislodged_point(point), boxes, dislodged=True))
    return "".join(out)
