"""The board as it is before any position: water, scenery, provinces by terrain, borders and names.

It is the same for every picture of a board, so it is built once per process and geometry and reused: each
province's outline is defined once (`#p-par`) and every later layer (an owner's tint, the borders, each of seven
boards) refers to it with `<use>`, so a picture of seven boards carries the outlines only once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache

from judge.board.geometry import Geometry
from judge.board.planar import Point, segments
from judge.picture import palette
from judge.picture.svg import FONT, num, path_data, text


def style(label_size: float = 9.0) -> str:
    """The pictures' style sheet; `label_size`: the provinces' names, in map units (sea names a little larger)."""
    return _STYLE.replace("9px", f"{num(label_size)}px").replace("9.5px", f"{num(label_size * 1.06)}px")


_STYLE = f"""
.sea{{fill:{palette.SEA}}}.land{{fill:{palette.LAND}}}.imp{{fill:{palette.IMPASSABLE}}}
.sl{{fill:{palette.SCENERY_LAND};stroke:{palette.COASTLINE};stroke-width:.5}}.sw{{fill:{palette.SCENERY_WATER}}}
.bs{{fill:none;stroke:#87aecd;stroke-width:.6}}.bl{{fill:none;stroke:{palette.BORDER};stroke-width:.7}}
.bc{{fill:none;stroke:{palette.COASTLINE};stroke-width:.9}}
.lb{{font-family:{FONT};font-size:9px;fill:{palette.LABEL};text-anchor:middle}}
.ls{{font-family:{FONT};font-size:9.5px;font-style:italic;fill:#2f5d85;text-anchor:middle;letter-spacing:.5px}}
.cap{{font-family:{FONT};font-size:14px;font-weight:bold;fill:#333}}
.u{{stroke:#1d1d1d;stroke-width:.8}}.ut{{font-family:{FONT};font-size:10px;font-weight:bold;text-anchor:middle}}
.dis{{stroke:{palette.FAILED};stroke-width:1.4;stroke-dasharray:2 1.4;opacity:.9}}
.bdg{{fill:#fff;stroke:#1d1d1d;stroke-width:.7}}.bt{{font-family:{FONT};font-size:7px;font-weight:bold;
fill:#1d1d1d;text-anchor:middle}}
.sc{{stroke:#1d1d1d;stroke-width:.9}}
.atl{{fill:none;stroke:#0d7f8c;stroke-width:1.6}}.at{{font-family:{FONT};font-size:7px;font-weight:bold;
fill:#0d7f8c;text-anchor:middle}}
.o{{fill:none;stroke-width:1.6;stroke-linecap:round}}.oe{{fill:none;stroke:#1d1d1d;stroke-width:2.8;
stroke-linecap:round;stroke-opacity:.45}}.oh{{stroke:#1d1d1d;stroke-width:.5}}
.os{{fill:none;stroke-width:1.2;stroke-dasharray:4 2.5}}
.oc{{fill:none;stroke-width:1.2;stroke-dasharray:1 2.2;stroke-linecap:round}}.of{{opacity:.55}}
.x{{stroke:{palette.FAILED};stroke-width:1.8;stroke-linecap:round}}
.lh{{paint-order:stroke;stroke:#fff;stroke-width:2.6px;stroke-linejoin:round}}
.uh{{paint-order:stroke;stroke:#fff;stroke-width:2.2px;stroke-linejoin:round}}
.lg{{font-family:{FONT};font-size:10px;fill:#1d1d1d}}.lgb{{fill:#fff}}.lgs{{stroke:#1d1d1d;stroke-width:.8}}
.tg{{font-family:{FONT};font-size:7px;font-weight:bold;text-anchor:middle;paint-order:stroke;stroke:#fff;
stroke-width:2.2px;stroke-linejoin:round}}.tw{{stroke:#1d1d1d;stroke-width:.6}}
.lk{{font-family:{FONT};font-size:10px;font-weight:bold;text-anchor:middle;paint-order:stroke;stroke-width:2.4px}}
.sk{{fill:none;stroke:{palette.FAILED};stroke-width:2;stroke-dasharray:3 1.5}}
""".replace("\n", "")
STYLE = style()


@dataclass(frozen=True)
class BaseLayer:
    defs: str
    """the style, the outlines (`#p-<id>`), the `#under` and `#over` groups"""


def province_class(terrain: str) -> str:
    return {"sea": "sea", "impassable": "imp"}.get(terrain, "land")


@cache
def base_layer(geometry: Geometry, terrains: tuple[tuple[str, str], ...], label_size: float = 9.0) -> BaseLayer:
    """The static layer for a geometry whose provinces have these terrains ((id, terrain) in the geometry's
    order: Switzerland is impassable on one map and land on another).

    Drawn for speed as much as looks (a PNG costs in proportion to what is painted): one water rectangle with
    only the land and scenery painted over it, and every border once, as three paths (coastline, land borders,
    sea borders), rather than each province's outline stroked on its own."""
    outlines = geometry.outlines
    terrain = dict(terrains)
    defs: list[str] = [f"<style>{style(label_size)}</style>"]
    for pid, outline in outlines.items():
        defs.append(f'<path id="p-{pid}" d="{path_data(outline.rings)}"/>')
    under = [f'<g id="under"><rect class="sea" width="{num(geometry.width)}" height="{num(geometry.height)}"/>']
    for scenery in geometry.scenery:
        cls = "sl" if scenery.kind == "land" else "sw"
        under.append(f'<path class="{cls}" fill-rule="evenodd" d="{path_data(scenery.rings)}"/>')
    for pid in outlines:
        cls = province_class(terrain.get(pid, "land"))
        if cls != "sea":
            under.append(f'<use href="#p-{pid}" class="{cls}" fill-rule="evenodd"/>')
    under.append("</g>")
    lines = border_lines(geometry, terrain)
    over = ['<g id="over">']
    for cls in ("bs", "bl", "bc"):
        if lines.get(cls):
            over.append(f'<path class="{cls}" d="{lines[cls]}"/>')
    for pid, outline in outlines.items():
        cls = "ls" if terrain.get(pid) == "sea" else "lb"
        x, y = outline.label
        over.append(f'<text class="{cls}" x="{num(x)}" y="{num(y + 3)}">{text(outline.text)}</text>')
    over.append("</g>")
    defs.append("".join(under))
    defs.append("".join(over))
    return BaseLayer(defs="<defs>" + "".join(defs) + "</defs>")


Edge = tuple[Point, Point]


def border_lines(geometry: Geometry, terrain: dict[str, str]) -> dict[str, str]:
    """Path data of every border, once: `bc` the coastline (land against water), `bl` between two lands, `bs`
    between two seas. An edge two outlines share is found by its two ends (the coordinates are written once,
    to a tenth, so shared vertices are equal); an edge only one outline has is a border with scenery or the
    picture's edge, drawn in that outline's kind."""
    owners: dict[Edge, list[str]] = defaultdict(list)
    for pid, outline in geometry.outlines.items():
        for ring in outline.rings:
            for a, b in segments(ring):
                if a != b:
                    owners[(a, b) if a < b else (b, a)].append(pid)
    kinds: dict[str, list[Edge]] = defaultdict(list)
    for edge, pids in owners.items():
        seas = sum(1 for pid in pids if terrain.get(pid) == "sea")
        if len(pids) == 1:
            kinds["bs" if seas else "bl"].append(edge)
        else:
            kinds["bs" if seas == len(pids) else "bc" if seas else "bl"].append(edge)
    return {kind: _chained(edges) for kind, edges in kinds.items()}


def _chained(edges: list[Edge]) -> str:
    """Edges joined into as few polylines as their ends allow (shorter path data, fewer joins to paint)."""
    at: dict[Point, list[int]] = defaultdict(list)
    for n, (a, b) in enumerate(edges):
        at[a].append(n)
        at[b].append(n)
    used = [False] * len(edges)
    parts: list[str] = []

    def walk(start: Point) -> list[Point]:
        line = [start]
        here = start
        while True:
            nxt = next((n for n in at[here] if not used[n]), None)
            if nxt is None:
                return line
            used[nxt] = True
            a, b = edges[nxt]
            here = b if a == here else a
            line.append(here)

    # start from the loose ends first, so open lines are walked whole
    starts = [p for p, ns in at.items() if len(ns) % 2 == 1] + [a for a, _ in edges]
    for start in starts:
        if not any(not used[n] for n in at[start]):
            continue
        line = walk(start)
        parts.append(f"M{num(line[0][0])} {num(line[0][1])}L" + " ".join(f"{num(x)} {num(y)}" for x, y in line[1:]))
    return "".join(parts)
