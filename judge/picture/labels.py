"""Province names that a unit, a badge, a tag or an order's line would hide are written again, on a white halo,
over everything: moved just below (or above) what covers them where a chip or tag does, in place where only a
line crosses them. The board's own names (base_layer.py) are drawn once and cached, so only the few covered
ones cost anything.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.board.planar import Point
from judge.picture.layout import Layout
from judge.picture.svg import num, text
from judge.picture.units import Box

SIZE = 9.0
"""the names' size in map units (base_layer.py's `.lb`)"""
WIDTH = 0.58
"""a character's width, in sizes"""
Segment = tuple[Point, Point]


def label_box(at: Point, words: str, size: float = SIZE) -> Box:
    """The box a name written at `at` (its middle, on the baseline 3 units below) takes."""
    x, y = at
    half = len(words) * size * WIDTH / 2
    return (x - half, y + 3 - size * 0.75, x + half, y + 3 + size * 0.2)


def _meets(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _hidden(label: Box, cover: Box) -> bool:
    """Does `cover` hide enough of the name that it no longer reads (a third of its box)?"""
    w = min(label[2], cover[2]) - max(label[0], cover[0])
    h = min(label[3], cover[3]) - max(label[1], cover[1])
    return w > 0 and h > 0 and w * h >= (label[2] - label[0]) * (label[3] - label[1]) / 3


def _crosses(box: Box, segment: Segment) -> bool:
    """Does the segment pass through the box (Liang-Barsky clipping)?"""
    (x0, y0), (x1, y1) = segment
    dx, dy = x1 - x0, y1 - y0
    low, high = 0.0, 1.0
    for p, q in ((-dx, x0 - box[0]), (dx, box[2] - x0), (-dy, y0 - box[1]), (dy, box[3] - y0)):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            low = max(low, t)
        else:
            high = min(high, t)
        if low > high:
            return False
    return True


def uncovered(layout: Layout, boxes: Sequence[Box], lines: Sequence[Segment], seas: frozenset[str],
              size: float = SIZE) -> str:  # fmt: skip
    """The covered names, written again where they can be read."""
    out: list[str] = []
    taken = list(boxes)
    for panel in layout.panels.values():
        near = [b for b in boxes if panel.dx - 50 < b[0] < panel.dx + layout.geometry.width + 50]
        near_lines = [s for s in lines if panel.dx - 50 < s[0][0] < panel.dx + layout.geometry.width + 50]
        for pid, outline in layout.geometry.outlines.items():
            cls = "ls" if pid in seas else "lb"
            at = (outline.label[0] + panel.dx, outline.label[1] + panel.dy)
            box = label_box(at, outline.text, size)
            covering = [b for b in near if _hidden(box, b)]
            if covering:
                moved = _free_spot(at, outline.text, covering, taken, size)
                taken.append(label_box(moved, outline.text, size))
                out.append(_name(moved, outline.text, cls))
            elif any(_crosses(box, s) for s in near_lines):
                out.append(_name(at, outline.text, cls))
    return "".join(out)


def _free_spot(at: Point, words: str, covering: list[Box], taken: list[Box], size: float) -> Point:
    """Just below what covers the name, else just above, else below anyway."""
    below = (at[0], max(b[3] for b in covering) + size * 0.75 - 3 + 1)
    above = (at[0], min(b[1] for b in covering) - size * 0.2 - 3 - 1)
    for spot in (below, above):
        if not any(_meets(label_box(spot, words, size), b) for b in taken):
            return spot
    return below


def _name(at: Point, words: str, cls: str) -> str:
    return f'<text class="{cls} lh" x="{num(at[0])}" y="{num(at[1] + 3)}">{text(words)}</text>'
