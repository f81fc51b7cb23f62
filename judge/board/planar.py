"""Plane geometry in plain Python, for map pictures: point in shape, distances, borders two shapes share, shapes
that overlap.

The judge draws and checks a few thousand points; these loops do that in a fraction of a second, so the judge
needs no geometry library at run time. Shapes are lists of rings (closed, the last point joined to the first),
filled even-odd: a ring inside another is a hole.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence

Point = tuple[float, float]
Ring = tuple[Point, ...]
Box = tuple[float, float, float, float]
"""min x, min y, max x, max y"""


def bounds(rings: Iterable[Ring]) -> Box:
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


def boxes_meet(a: Box, b: Box, margin: float = 0.0) -> bool:
    return a[0] <= b[2] + margin and b[0] <= a[2] + margin and a[1] <= b[3] + margin and b[1] <= a[3] + margin


def segments(ring: Ring) -> Iterator[tuple[Point, Point]]:
    for i, p in enumerate(ring):
        yield p, ring[i - 1]


def inside(point: Point, rings: Sequence[Ring]) -> bool:
    """Whether the point is inside the shape, even-odd (a point on the outline may go either way)."""
    x, y = point
    crossings = 0
    for ring in rings:
        n = len(ring)
        j = n - 1
        for i in range(n):
            xi, yi = ring[i]
            xj, yj = ring[j]
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                crossings += 1
            j = i
    return crossings % 2 == 1


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def distance_to_outline(point: Point, rings: Sequence[Ring]) -> float:
    return min((distance_to_segment(point, a, b) for ring in rings for a, b in segments(ring)), default=math.inf)


def ring_area(ring: Ring) -> float:
    """Signed area (the shoelace formula)."""
    return 0.5 * sum(a[0] * b[1] - b[0] * a[1] for b, a in segments(ring))


def crossing(a: Point, b: Point, c: Point, d: Point, tolerance: float) -> Point | None:
    """Where segments ab and cd cross properly: at a point more than `tolerance` from all four ends (segments
    that only touch, or run along each other, do not cross)."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    denominator = r[0] * s[1] - r[1] * s[0]
    if denominator == 0:
        return None
    qp = (c[0] - a[0], c[1] - a[1])
    t = (qp[0] * s[1] - qp[1] * s[0]) / denominator
    u = (qp[0] * r[1] - qp[1] * r[0]) / denominator
    if not (0.0 < t < 1.0 and 0.0 < u < 1.0):
        return None
    hit = (a[0] + t * r[0], a[1] + t * r[1])
    if min(math.dist(hit, end) for end in (a, b, c, d)) <= tolerance:
        return None
    return hit


class SegmentGrid:
    """Every segment of every shape, filed by the square cells of the plane it passes through, so that the
    segments near a place are found without looking at all of them."""

    def __init__(self, shapes: dict[str, Sequence[Ring]], cell: float = 16.0) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[tuple[str, Point, Point]]] = defaultdict(list)
        for key, rings in shapes.items():
            for ring in rings:
                for a, b in segments(ring):
                    for place in self._cells_of(a, b):
                        self.cells[place].append((key, a, b))

    def _cells_of(self, a: Point, b: Point, margin: float = 0.0) -> Iterator[tuple[int, int]]:
        c = self.cell
        x0, x1 = math.floor((min(a[0], b[0]) - margin) / c), math.floor((max(a[0], b[0]) + margin) / c)
        y0, y1 = math.floor((min(a[1], b[1]) - margin) / c), math.floor((max(a[1], b[1]) + margin) / c)
        for i in range(x0, x1 + 1):
            for j in range(y0, y1 + 1):
                yield i, j

    def near(self, a: Point, b: Point, margin: float) -> list[tuple[str, Point, Point]]:
        """The segments filed in the cells the segment ab passes through, widened by `margin` (unique)."""
        found: dict[tuple[str, Point, Point], None] = {}
        for place in self._cells_of(a, b, margin):
            for entry in self.cells.get(place, ()):
                found[entry] = None
        return list(found)


def shared_borders(shapes: dict[str, Sequence[Ring]], tolerance: float) -> dict[frozenset[str], float]:
    """For every two shapes whose outlines run together, the length they share: a segment of one counts when
    both its ends and its middle lie within `tolerance` of the other's outline. Each pair's figure is the
    larger of the two sides' counts."""
    grid = SegmentGrid(shapes)
    lengths: dict[tuple[str, str], float] = defaultdict(float)
    for key, rings in shapes.items():
        for ring in rings:
            for a, b in segments(ring):
                length = math.dist(a, b)
                if length == 0:
                    continue
                middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                by_other: dict[str, list[tuple[Point, Point]]] = defaultdict(list)
                for other, c, d in grid.near(a, b, tolerance):
                    if other != key:
                        by_other[other].append((c, d))
                for other, near in by_other.items():
                    if all(min(distance_to_segment(p, c, d) for c, d in near) <= tolerance for p in (a, b, middle)):
                        lengths[(key, other)] += length
    out: dict[frozenset[str], float] = {}
    for (a_key, b_key), length in lengths.items():
        pair = frozenset((a_key, b_key))
        out[pair] = max(out.get(pair, 0.0), length)
    return out


class Banded:
    """A shape with its segments filed by horizontal bands, so that "is this point inside?" looks only at the
    segments of the point's band (a ray cast along the band)."""

    def __init__(self, rings: Sequence[Ring], band: float = 16.0) -> None:
        self.rings = rings
        self.band = band
        self.box = bounds(rings)
        self.bands: dict[int, list[tuple[Point, Point]]] = defaultdict(list)
        for ring in rings:
            for a, b in segments(ring):
                for j in range(math.floor(min(a[1], b[1]) / band), math.floor(max(a[1], b[1]) / band) + 1):
                    self.bands[j].append((a, b))

    def contains(self, point: Point) -> bool:
        x, y = point
        if not (self.box[0] <= x <= self.box[2] and self.box[1] <= y <= self.box[3]):
            return False
        crossings = 0
        for (xi, yi), (xj, yj) in self.bands.get(math.floor(y / self.band), ()):
            if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
                crossings += 1
        return crossings % 2 == 1

    def distance(self, point: Point) -> float:
        """Distance to the outline, exact when it is under one band's height (what the callers ask about)."""
        j = math.floor(point[1] / self.band)
        near = [s for k in (j - 1, j, j + 1) for s in self.bands.get(k, ())]
        return min((distance_to_segment(point, a, b) for a, b in near), default=math.inf)


def overlaps(shapes: dict[str, Sequence[Ring]], tolerance: float) -> dict[frozenset[str], Point]:
    """Pairs of shapes that overlap, with a place where they do: their outlines cross, or the middle of an edge
    of one lies inside the other, off its outline (which catches overlaps whose outlines only touch)."""
    found = crossings(shapes, tolerance)
    banded = {key: Banded(rings) for key, rings in shapes.items()}
    for key, rings in shapes.items():
        for ring in rings:
            for a, b in segments(ring):
                middle = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                for other, shape in banded.items():
                    if other == key or frozenset((key, other)) in found or not shape.contains(middle):
                        continue
                    if shape.distance(middle) > tolerance:
                        found[frozenset((key, other))] = middle
    return found


def crossings(shapes: dict[str, Sequence[Ring]], tolerance: float) -> dict[frozenset[str], Point]:
    """Pairs of shapes whose outlines cross (so the shapes overlap), with one place where they do."""
    grid = SegmentGrid(shapes)
    found: dict[frozenset[str], Point] = {}
    for entries in grid.cells.values():
        for i, (key, a, b) in enumerate(entries):
            for other, c, d in entries[i + 1 :]:
                if other == key or frozenset((key, other)) in found:
                    continue
                hit = crossing(a, b, c, d, tolerance)
                if hit is not None:
                    found[frozenset((key, other))] = hit
    return found
