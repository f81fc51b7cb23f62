"""Checking a map's picture against the map: what `judge map check` adds where a map has a geometry.

- every province has a shape (except a centre that stands nowhere, such as Mad Diplomacy's Atlantis), and every
  shape is a province of the map;
- shapes do not overlap, and stay inside the picture;
- provinces the map joins share a border (a land or sea border, whatever the unit type), unless the geometry
  declares a strait between them; and provinces it does not join share none longer than `touching`, so the
  picture never shows a border the map lacks;
- each province's unit anchor, label and supply-centre mark, and each coast's anchor, lie inside its shape;
  every centre has its mark and every coast its anchor.
"""

from __future__ import annotations

from functools import cache

from judge.board.geometry import Geometry
from judge.board.model import Board, Terrain
from judge.board.planar import Point, distance_to_outline, inside, overlaps, shared_borders

TOLERANCE = 0.5
"""map units: outlines closer than this are the same line (coordinates are written to a tenth)"""


@cache
def _borders(geometry: Geometry) -> dict[frozenset[str], float]:
    return shared_borders({k: o.rings for k, o in geometry.outlines.items()}, TOLERANCE)


@cache
def _overlapping(geometry: Geometry) -> dict[frozenset[str], Point]:
    return overlaps({k: o.rings for k, o in geometry.outlines.items()}, TOLERANCE)


def stands_nowhere(board: Board, province: str) -> bool:
    """A province with no place on the board: impassable and bordering nothing (Atlantis, whose place is the
    game's state)."""
    p = board.provinces[province]
    return p.terrain is Terrain.IMPASSABLE and not board.borders.get(province)


def check_geometry(board: Board, geometry: Geometry) -> list[str]:
    """Every problem of the geometry against the board (empty when the picture agrees with the map)."""
    problems: list[str] = []
    outlines = geometry.outlines
    for pid in board.provinces:
        if pid not in outlines and not stands_nowhere(board, pid):
            problems.append(f"geometry: province {pid} has no shape")
    for pid in outlines:
        if pid not in board.provinces:
            problems.append(f"geometry: shape {pid} is not a province of the map")
    problems += _places(board, geometry)
    problems += _overlaps(geometry)
    problems += _border_problems(board, geometry)
    return problems


def _places(board: Board, geometry: Geometry) -> list[str]:
    problems: list[str] = []
    for pid, outline in geometry.outlines.items():
        province = board.provinces.get(pid)
        if province is None:
            continue
        where = f"geometry: province {pid}"
        spots: list[tuple[str, Point]] = [("unit anchor", outline.unit), ("label", outline.label)]
        if outline.centre is not None:
            spots.append(("supply-centre mark", outline.centre))
        elif province.supply_centre:
            problems.append(f"{where}: a supply centre needs its mark (centre = [x, y])")
        for coast, point in outline.coasts.items():
            if coast not in province.coasts:
                problems.append(f"{where}: has no coast {coast}")
            spots.append((f"{coast} anchor", point))
        for coast in province.coasts:
            if coast not in outline.coasts:
                problems.append(f"{where}: coast {coast} needs an anchor (coasts = {{ {coast} = [x, y] }})")
        for what, point in spots:
            if not inside(point, outline.rings):
                problems.append(f"{where}: its {what} {_at(point)} lies outside its shape")
        w, h = geometry.width + TOLERANCE, geometry.height + TOLERANCE
        for ring in outline.rings:
            for x, y in ring:
                if not (-TOLERANCE <= x <= w and -TOLERANCE <= y <= h):
                    problems.append(f"{where}: its shape leaves the picture at {_at((x, y))}")
                    break
    return problems


def _overlaps(geometry: Geometry) -> list[str]:
    """Shapes that overlap, and shapes drawn wholly inside or over another (an anchor inside the other's shape)."""
    problems = [
        f"geometry: provinces {' and '.join(sorted(pair))} overlap (at {_at(hit)})"
        for pair, hit in sorted(_overlapping(geometry).items(), key=lambda item: sorted(item[0]))
    ]
    crossed = set(_overlapping(geometry))
    for pid, outline in geometry.outlines.items():
        for other, shape in geometry.outlines.items():
            if other == pid or frozenset((pid, other)) in crossed:
                continue
            x, y = outline.unit
            if not (shape.box[0] <= x <= shape.box[2] and shape.box[1] <= y <= shape.box[3]):
                continue
            if inside(outline.unit, shape.rings) and distance_to_outline(outline.unit, shape.rings) > TOLERANCE:
                problems.append(f"geometry: province {pid} overlaps {other} (its unit anchor is inside {other})")
    return problems


def _border_problems(board: Board, geometry: Geometry) -> list[str]:
    problems: list[str] = []
    borders = _borders(geometry)
    joined = {frozenset((a, b)) for a, near in board.borders.items() for b in near}
    drawn = set(geometry.outlines)
    for pair in sorted(joined, key=sorted):
        if not pair <= drawn:
            continue
        length = borders.get(pair, 0.0)
        a, b = sorted(pair)
        if length < TOLERANCE * 2 and pair not in geometry.straits:
            problems.append(
                f"geometry: {a} and {b} are adjacent but their shapes share no border "
                f'(draw one, or declare a strait: straits = [["{a}", "{b}"]])'
            )
    for pair in sorted(geometry.straits, key=sorted):
        if pair not in joined:
            problems.append(f"geometry: the strait {'-'.join(sorted(pair))} joins provinces the map does not join")
    for pair, length in sorted(borders.items(), key=lambda item: sorted(item[0])):
        if pair not in joined and length > geometry.touching and pair <= set(board.provinces):
            a, b = sorted(pair)
            problems.append(
                f"geometry: {a} and {b} share a border of {length:.1f} units but are not adjacent on the map"
            )
    return problems


def _at(point: Point) -> str:
    return f"({point[0]:g}, {point[1]:g})"
