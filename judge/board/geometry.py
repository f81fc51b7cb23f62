"""A map's picture: every province's outline, where its units, label and supply-centre mark stand.

The geometry is map data a GM can author, in its own TOML file beside the map (`maps/geometry/<map>.toml`; a map
with a `base` and no geometry of its own is drawn with its base's: Multiplomacy and Mad Diplomacy with the
standard board's). docs/map-format.md, "Geometry", describes the format; `judge map check` checks it against the
map's adjacency (judge/board/geometry_check.py).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from judge.board.planar import Box, Point, Ring, bounds
from judge.data import data_path


class GeometryError(Exception):
    """A geometry file that cannot be read; `problems` lists every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))


@dataclass(frozen=True, eq=False)
class Outline:
    """One province as drawn.

    A dataclass still, on purpose: the pictures' geometry is drawn by the picture process only, never at a
    `judge adjudicate` start, and this module is not compiled, where a class cannot subclass the compiled
    `Value` (docs/engine.md, "One style of value")."""

    province: str
    rings: tuple[Ring, ...]
    """the outline: closed rings, filled even-odd (a ring inside another is a hole; islands are further rings)"""
    text: str
    """the label's text"""
    unit: Point
    """where its units stand (a fleet on a split coast stands at its coast's anchor instead)"""
    label: Point
    centre: Point | None
    """where its supply-centre mark stands (required on a centre, optional where a variant may make one)"""
    coasts: dict[str, Point] = field(default_factory=dict)
    """coast -> where a fleet on that coast stands"""
    box: Box = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True, eq=False)
class Scenery:
    """Land or water that is no province (Ireland, Corsica, the Caspian): drawn, never played on.

    A dataclass still, on purpose: see `Outline`."""

    kind: str  # "land" or "water"
    rings: tuple[Ring, ...]


@dataclass(frozen=True, eq=False)
class Geometry:
    """A map's picture, in map units (x to the right, y down; the picture is `width` by `height`).

    A dataclass still, on purpose: see `Outline`."""

    map: str
    width: float
    height: float
    outlines: dict[str, Outline]
    scenery: tuple[Scenery, ...] = ()
    straits: frozenset[frozenset[str]] = frozenset()
    """pairs of provinces the map joins across water, so that their shapes need not touch"""
    touching: float = 3.0
    """provinces the map does not join may still meet along less than this (at a corner, in a strait's mouth)"""
    source: str = ""

    def anchor(self, location: str) -> Point:
        """Where a unit at `location` (`par`, `stp/nc`) is drawn."""
        province, _, coast = location.partition("/")
        outline = self.outlines[province]
        return outline.coasts.get(coast, outline.unit) if coast else outline.unit


def geometry_dir() -> Path:
    """The shipped geometry files (`maps/geometry/`, as the installed package has it)."""
    return data_path("maps") / "geometry"


def geometry_path_for(map_path: Path) -> Path | None:
    """The geometry file of the map file at `map_path`: `geometry/<name>.toml` beside it, else its base map's;
    None when neither has one."""
    seen: set[Path] = set()
    path = map_path
    while path not in seen:
        seen.add(path)
        candidate = path.parent / "geometry" / f"{path.stem}.toml"
        if candidate.is_file():
            return candidate
        try:
            meta = tomllib.loads(path.read_text(encoding="utf-8")).get("map", {})
        except (OSError, tomllib.TOMLDecodeError):
            return None
        base = meta.get("base") if isinstance(meta, dict) else None
        if not isinstance(base, str) or not base:
            return None
        path = path.parent / f"{base}.toml"
    return None


@cache
def load_geometry(map_name: str) -> Geometry:
    """The geometry of the shipped map `map_name`, read once per process."""
    path = geometry_path_for(data_path("maps") / f"{map_name}.toml")
    if path is None:
        raise GeometryError(map_name, [f"the map {map_name!r} has no geometry (maps/geometry/{map_name}.toml)"])
    return read_geometry_file(path)


def read_geometry_file(path: Path) -> Geometry:
    """The geometry in a file, read afresh (a GM checking a file edits it between checks)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise GeometryError(str(path), [str(exc)]) from exc
    geometry, problems = build_geometry(data, str(path))
    if geometry is None or problems:
        raise GeometryError(str(path), problems)
    return geometry


def _point(value: Any, where: str, problems: list[str]) -> Point | None:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        return (float(value[0]), float(value[1]))
    problems.append(f"{where}: expected a point [x, y]")
    return None


def _rings(value: Any, where: str, problems: list[str]) -> tuple[Ring, ...]:
    """`["x,y x,y ...", ...]`: each string a ring of at least three points."""
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        problems.append(f"{where}: shape must be a list of rings, each a string of points 'x,y x,y ...'")
        return ()
    rings: list[Ring] = []
    for n, text in enumerate(value):
        try:
            ring = tuple((float(x), float(y)) for x, _, y in (pair.partition(",") for pair in text.split()))
        except ValueError:
            problems.append(f"{where}: ring {n + 1} is not a list of points 'x,y x,y ...'")
            continue
        if len(ring) < 3:
            problems.append(f"{where}: ring {n + 1} has fewer than three points")
            continue
        rings.append(ring)
    return tuple(rings)


def build_geometry(data: dict[str, Any], source: str = "") -> tuple[Geometry | None, list[str]]:
    """The geometry in a decoded file, and every problem of form found in it (the checks against the map are
    judge/board/geometry_check.py's)."""
    problems: list[str] = []
    meta = data.get("geometry")
    if not isinstance(meta, dict):
        return None, ["no [geometry] table"]
    width, height = meta.get("width"), meta.get("height")
    if not isinstance(width, int | float) or not isinstance(height, int | float) or width <= 0 or height <= 0:
        problems.append("[geometry] needs a positive width and height")
        width, height = 1.0, 1.0
    touching = meta.get("touching", 3.0)
    if not isinstance(touching, int | float) or touching < 0:
        problems.append("[geometry] touching must be a length of zero or more")
        touching = 3.0
    straits: set[frozenset[str]] = set()
    raw_straits = meta.get("straits", [])
    if not isinstance(raw_straits, list):
        raw_straits = [None]
    for pair in raw_straits:
        if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(p, str) for p in pair):
            problems.append('[geometry] straits must be pairs of province ids: [["den", "swe"]]')
            continue
        straits.add(frozenset(pair))
    outlines: dict[str, Outline] = {}
    raw = data.get("provinces")
    if not isinstance(raw, dict):
        problems.append("no [provinces] table")
        raw = {}
    for pid, spec in raw.items():
        where = f"province {pid}"
        if not isinstance(spec, dict):
            problems.append(f"{where}: expected a table")
            continue
        rings = _rings(spec.get("shape"), where, problems)
        unit = _point(spec.get("unit"), f"{where} unit", problems)
        label = _point(spec.get("label"), f"{where} label", problems)
        centre = _point(spec["centre"], f"{where} centre", problems) if "centre" in spec else None
        coasts: dict[str, Point] = {}
        raw_coasts = spec.get("coasts", {})
        if not isinstance(raw_coasts, dict):
            problems.append(f"{where}: coasts must be a table of points ({{ nc = [x, y] }})")
            raw_coasts = {}
        for coast, value in raw_coasts.items():
            point = _point(value, f"{where} coast {coast}", problems)
            if point is not None:
                coasts[coast] = point
        text = spec.get("text", pid[:1].upper() + pid[1:])
        if not rings or unit is None or label is None:
            continue
        outlines[pid] = Outline(pid, rings, str(text), unit, label, centre, coasts, bounds(rings))
    scenery: list[Scenery] = []
    raw_scenery = data.get("scenery", [])
    if not isinstance(raw_scenery, list):
        problems.append("scenery must be an array of tables ([[scenery]])")
        raw_scenery = []
    for n, spec in enumerate(raw_scenery):
        where = f"scenery {n + 1}"
        if not isinstance(spec, dict) or spec.get("kind") not in ("land", "water"):
            problems.append(f'{where}: needs kind = "land" or "water"')
            continue
        rings = _rings(spec.get("shape"), where, problems)
        if rings:
            scenery.append(Scenery(str(spec["kind"]), rings))
    geometry = Geometry(
        map=str(meta.get("map", "")),
        width=float(width),
        height=float(height),
        outlines=outlines,
        scenery=tuple(scenery),
        straits=frozenset(straits),
        touching=float(touching),
        source=source,
    )
    return geometry, problems
