"""Supply centres: each owned one tints its province in the owner's colour, and every centre has its mark,
a city a round one and a town (Hoplite Wars' half centre) a smaller diamond, filled with the owner's colour or
left white. A centre that stands nowhere on the map (Mad Diplomacy's Atlantis) is drawn where the position's
state says it is."""

from __future__ import annotations

from functools import cache

from judge.board.geometry import Geometry
from judge.board.geometry_check import stands_nowhere
from judge.board.model import Board
from judge.board.planar import Point
from judge.engine.position import Position
from judge.picture.layout import Layout
from judge.picture.palette import Palette, tint_factor
from judge.picture.svg import attr, num, path_data, text

CITY_RADIUS = 4.2
TOWN_SIZE = 3.6


def is_centre(board: Board, position: Position, province: str) -> bool:
    """A centre of the map, or one a variant made (Mad Diplomacy's placed centres)."""
    p = board.provinces.get(province)
    return p is not None and (p.supply_centre or province in position.centres)


def draw_tints(board: Board, layout: Layout, position: Position, palette: Palette, inline: bool = False) -> str:
    """Each owned centre's province in its owner's tint (striped for a side's second power on a board): by
    reference to the outline (`<use>`), or with the outline written out and the colour as a multiplier
    (`inline`, for the PNG path)."""
    out: list[str] = []
    for province, owner in sorted(position.centres.items()):
        panel, base = layout.split(province)
        if panel is None or base not in layout.geometry.outlines:
            continue
        colours = palette.of(owner)
        if inline:
            d = outline_path(layout.geometry, base)
            fill = tint_factor(colours.tint) if colours.hatch is None else f"url(#hf-{colours.hatch})"
            out.append(
                f'<path transform="translate({num(panel.dx)} {num(panel.dy)})" fill-rule="evenodd" '
                f'fill={attr(fill)} d="{d}"/>'
            )
        else:
            x, y = num(panel.dx), num(panel.dy)
            out.append(f'<use href="#p-{base}" x="{x}" y="{y}" fill={attr(colours.tint_fill)}/>')
    return "".join(out)


@cache
def outline_path(geometry: Geometry, province: str) -> str:
    return path_data(geometry.outlines[province].rings)


def draw_marks(board: Board, layout: Layout, position: Position, palette: Palette) -> str:
    out: list[str] = []
    for province in board.provinces:
        if not is_centre(board, position, province):
            continue
        panel, base = layout.split(province)
        outline = layout.geometry.outlines.get(base)
        if panel is None or outline is None:
            continue
        at = outline.centre or outline.label
        point = (at[0] + panel.dx, at[1] + panel.dy)
        owner = position.centres.get(province)
        fill = palette.of(owner).fill if owner else "#ffffff"
        town = board.provinces[province].centre_kind == "town"
        out.append(mark(point, fill, town, f"{outline.text}: {owner or 'unowned'}"))
    return "".join(out)


def mark(at: Point, fill: str, town: bool, title: str) -> str:
    x, y = at
    tip = f"<title>{text(title)}</title>"
    if town:
        s = TOWN_SIZE
        return (
            f'<path class="sc" d="M{num(x)} {num(y - s)}L{num(x + s)} {num(y)}L{num(x)} {num(y + s)}'
            f'L{num(x - s)} {num(y)}Z" fill={attr(fill)}>{tip}</path>'
        )
    return (
        f'<circle class="sc" cx="{num(x)}" cy="{num(y)}" r="{CITY_RADIUS}" fill={attr(fill)}>{tip}</circle>'
        f'<circle cx="{num(x)}" cy="{num(y)}" r="1.3" fill="#1d1d1d"/>'
    )


def wandering(board: Board, position: Position) -> dict[str, str]:
    """Centres that stand nowhere -> the province the position's state puts them in (Mad Diplomacy's
    `"atlantis": "swi"`); a name the board does not know is left out."""
    out: dict[str, str] = {}
    for province in board.provinces:
        if not board.provinces[province].supply_centre or not stands_nowhere(board, province):
            continue
        where = position.variant_state.get(province)
        if isinstance(where, str):
            found = board.lookup(where)
            if found is not None and found in board.provinces:
                out[province] = found.partition("/")[0]
    return out


def draw_wandering(board: Board, layout: Layout, position: Position, palette: Palette) -> str:
    """A ring of waves with the centre's name, beside the mark of the province it stands in, filled with its
    owner's colour when it has one."""
    out: list[str] = []
    for centre, province in sorted(wandering(board, position).items()):
        panel, base = layout.split(province)
        outline = layout.geometry.outlines.get(base)
        if panel is None or outline is None:
            continue
        x, y = outline.centre or outline.label
        x, y = x + panel.dx - 11, y + panel.dy + 9
        owner = position.centres.get(centre)
        name = board.provinces[centre].name
        fill = palette.of(owner).tint_fill if owner else "#e6f6f7"
        out.append(
            f"<g><title>{text(name)} ({text(owner or 'unowned')})</title>"
            f'<circle cx="{num(x)}" cy="{num(y)}" r="7" fill={attr(fill)}/>'
            f'<circle class="atl" cx="{num(x)}" cy="{num(y)}" r="7"/>'
            f'<text class="at" x="{num(x)}" y="{num(y + 2.4)}">{text(name[:3])}</text></g>'
        )
    return "".join(out)
