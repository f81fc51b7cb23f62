"""A phase's orders as arrows over the board, in the ordering power's colour.

A move or retreat is an arrow; a support a dashed line to the middle of the move it supports (or a ring round
the unit it keeps in place); a convoy a dotted line to the middle of the army's crossing; a build a ring; a
removal or disband a cross over the unit. An order that failed is drawn faded with a red cross on it; illegal
orders (never carried out, perhaps naming no real place) and holds are not drawn. An order between two boards
of which only one is drawn (one Heptadiplomacy board alone) is a short link at the drawn end, written with the
other end's board and place (`to 3:Par`, `from 1:Par`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from judge.board.copies import board_of
from judge.board.planar import Point
from judge.engine.orders import Order, OrderKind
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Result
from judge.picture.layout import Layout
from judge.picture.palette import Palette, ink
from judge.picture.svg import attr, num, text
from judge.picture.units import dislodged_point

START_GAP = 6.0
END_GAP = 8.0


Segment = tuple[Point, Point]
Drawn = tuple[int, str, Segment | None]
"""an order's drawing: its layer (supports under moves), its SVG, the line it draws from the unit (or None)"""
LINK = 34.0
"""how long a link to an undrawn board is"""


def draw_orders(
    palette: Palette, layout: Layout, results: Sequence[OrderResult], phase: PhaseType, lines: list[Segment]
) -> str:
    """Every drawable order, moves last so their arrows lie on top of the supports aimed at them; each drawn
    line is added to `lines` (the names it crosses are written again over it, draw.py)."""
    drawings: list[Drawn] = []
    for row in results:
        order = row.canonical
        if order is None or row.result is Result.ILLEGAL:
            continue
        colour = palette.of(row.power).strong
        failed = row.result is Result.FAILS
        found = _order(layout, order, colour, failed, phase is PhaseType.RETREAT)
        if not found and order.kind is not OrderKind.SPLIT:
            found = _link(layout, order, colour, failed)
        drawings.extend(found)
    lines.extend(segment for _, _, segment in drawings if segment is not None)
    return "".join(svg for _, svg, _ in sorted(drawings, key=lambda d: d[0]))


def _elsewhere(layout: Layout, location: str | None) -> str | None:
    """`3:Par` where the location is on a board of copies that this picture does not draw, else None."""
    if not location:
        return None
    panel, base = layout.split(location)
    number = board_of(location)
    if panel is not None or number is None:
        return None
    return f"{number}:{base[:1].upper()}{base[1:]}"


def _link(layout: Layout, order: Order, colour: str, failed: bool) -> list[Drawn]:
    """An order with one end on an undrawn board: a short arrow out of the unit (`to 3:Par`) or into the
    drawn destination (`from 1:Par`), or a support's or convoy's line towards the other board."""
    unit = layout.point(order.unit.location) if order.unit is not None else None
    far = order.destination or (order.target.location if order.target is not None else None)
    if unit is not None:
        other = _elsewhere(layout, far)
        if other is None:
            return []
        end = (unit[0] + LINK * 0.8, unit[1] - LINK * 0.6)
        style = {OrderKind.SUPPORT: "os", OrderKind.CONVOY: "oc"}.get(order.kind)
        drawn = line(unit, end, colour, failed, style) if style else arrow(unit, end, colour, failed)
        return [(2, drawn + _tag(end, f"to {other}", colour), (unit, end))]
    there = layout.point(order.destination) if order.destination else None
    other = _elsewhere(layout, order.unit.location if order.unit is not None else None)
    if there is None or other is None:
        return []
    start = (there[0] - LINK * 0.8, there[1] - LINK * 0.6)
    return [(2, arrow(start, there, colour, failed) + _tag(start, f"from {other}", colour), (start, there))]


def _tag(at: Point, words: str, colour: str) -> str:
    """A few words in the power's colour, on a halo that sets it off: dark under a light colour."""
    halo = "#ffffff" if ink(colour) == "#ffffff" else "#1d1d1d"
    return (
        f'<text class="lk" x="{num(at[0])}" y="{num(at[1] - 2)}" stroke={attr(halo)} '
        f"fill={attr(colour)}>{text(words)}</text>"
    )


def _order(layout: Layout, order: Order, colour: str, failed: bool, retreat: bool) -> list[Drawn]:
    kind = order.kind
    unit = layout.point(order.unit.location) if order.unit is not None else None
    if kind is OrderKind.SPLIT:
        return [d for part in order.parts for d in _order(layout, part, colour, failed, retreat)]
    if kind in (OrderKind.MOVE, OrderKind.RETREAT):
        to = layout.point(order.destination) if order.destination else None
        if unit is None or to is None:
            return []
        start = dislodged_point(unit) if kind is OrderKind.RETREAT or retreat else unit
        return [(2, arrow(start, to, colour, failed), (start, to))]
    if kind is OrderKind.MERGE:
        to = layout.point(order.destination) if order.destination else unit
        if to is None:
            return []
        starts = [layout.point(ref.location) for ref in (*order.merging, *([order.unit] if order.unit else []))]
        return [(2, arrow(s, to, colour, failed), (s, to)) for s in starts if s is not None and math.dist(s, to) > 1]
    if kind in (OrderKind.SUPPORT, OrderKind.CONVOY):
        target = layout.point(order.target.location) if order.target is not None else None
        to = layout.point(order.destination) if order.destination else None
        if unit is None:
            return []
        style = "os" if kind is OrderKind.SUPPORT else "oc"
        if target is not None and to is not None and math.dist(target, to) > 1:
            middle = ((target[0] + to[0]) / 2, (target[1] + to[1]) / 2)
            return [(1, line(unit, middle, colour, failed, style), (unit, middle))]
        aim = target or to
        if aim is None:
            return []
        return [(1, line(unit, aim, colour, failed, style, ring=True), (unit, aim))]
    if kind is OrderKind.BOARD:
        target = layout.point(order.target.location) if order.target is not None else None
        if unit is None or target is None:
            return []
        return [(2, arrow(unit, target, colour, failed), (unit, target))]
    if kind in (OrderKind.BUILD, OrderKind.CENTRE):
        where = layout.point(order.destination) if kind is OrderKind.CENTRE and order.destination else unit
        if where is None:
            return []
        built = order.unit.composition if kind is OrderKind.BUILD and order.unit is not None else None
        what = _tag((where[0], where[1] + 20), f"+{built}", colour) if built is not None and not failed else ""
        return [(0, ring(where, colour, failed) + what, None)]
    if kind in (OrderKind.REMOVE, OrderKind.DISBAND):
        if unit is None:
            return []
        at = dislodged_point(unit) if kind is OrderKind.DISBAND and retreat else unit
        return [(3, cross(at, 6.0, colour if not failed else None), None)]
    return []


def _shorten(a: Point, b: Point, start: float, end: float) -> tuple[Point, Point] | None:
    length = math.dist(a, b)
    if length <= start + end + 2:
        return None
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    return (a[0] + ux * start, a[1] + uy * start), (b[0] - ux * end, b[1] - uy * end)


def _head(tip: Point, tail: Point, size: float) -> str:
    length = math.dist(tip, tail) or 1.0
    ux, uy = (tip[0] - tail[0]) / length, (tip[1] - tail[1]) / length
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    left = (bx - uy * size * 0.55, by + ux * size * 0.55)
    right = (bx + uy * size * 0.55, by - ux * size * 0.55)
    return " ".join(f"{num(x)},{num(y)}" for x, y in (tip, left, right))


def arrow(a: Point, b: Point, colour: str, failed: bool) -> str:
    ends = _shorten(a, b, START_GAP, END_GAP)
    if ends is None:
        return ""
    start, tip = ends
    size = 6.5
    length = math.dist(start, tip)
    shaft_end = (tip[0] - (tip[0] - start[0]) / length * size * 0.8, tip[1] - (tip[1] - start[1]) / length * size * 0.8)
    faded = " of" if failed else ""
    out = (
        f'<g class="a{faded}"><line class="oe" x1="{num(start[0])}" y1="{num(start[1])}" x2="{num(shaft_end[0])}" '
        f'y2="{num(shaft_end[1])}"/><line class="o" x1="{num(start[0])}" y1="{num(start[1])}" '
        f'x2="{num(shaft_end[0])}" y2="{num(shaft_end[1])}" stroke={attr(colour)}/>'
        f'<polygon class="oh" points="{_head(tip, start, size)}" fill={attr(colour)}/></g>'
    )
    if failed:
        out += cross(_along(start, tip, 0.62), 4.0, None)
    return out


def line(a: Point, b: Point, colour: str, failed: bool, style: str, ring: bool = False) -> str:
    ends = _shorten(a, b, START_GAP, 9.0 if ring else 2.0)
    if ends is None:
        return ""
    start, end = ends
    faded = " of" if failed else ""
    out = (
        f'<g class="l{faded}"><line class="{style}" x1="{num(start[0])}" y1="{num(start[1])}" x2="{num(end[0])}" '
        f'y2="{num(end[1])}" stroke={attr(colour)}/>'
    )
    if ring:
        out += f'<circle class="{style}" cx="{num(b[0])}" cy="{num(b[1])}" r="9" stroke={attr(colour)}/>'
    else:
        out += f'<circle cx="{num(end[0])}" cy="{num(end[1])}" r="1.8" fill={attr(colour)}/>'
    out += "</g>"
    if failed:
        out += cross(_along(start, end, 0.5), 4.0, None)
    return out


def ring(at: Point, colour: str, failed: bool) -> str:
    faded = " of" if failed else ""
    out = f'<circle class="os{faded}" cx="{num(at[0])}" cy="{num(at[1])}" r="10" stroke={attr(colour)}/>'
    return out + (cross(at, 4.0, None) if failed else "")


def cross(at: Point, size: float, colour: str | None) -> str:
    """An X: red where it marks a failure, else in the given colour (a removal)."""
    x, y = at
    stroke = f' style="stroke:{colour}"' if colour else ""  # a style, since the class's red outranks attributes
    return (
        f'<path class="x"{stroke} d="M{num(x - size)} {num(y - size)}L{num(x + size)} {num(y + size)}'
        f'M{num(x - size)} {num(y + size)}L{num(x + size)} {num(y - size)}"/>'
    )


def _along(a: Point, b: Point, share: float) -> Point:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share)
