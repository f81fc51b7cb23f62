"""Reading a map file: parse the TOML, check every rule in docs/map-format.md, build the Board.

All problems are collected rather than stopping at the first, so a GM fixing a map sees them all at once.
"""

from __future__ import annotations

import marshal
import os
from functools import cache
from typing import TYPE_CHECKING, Any

from judge.board.model import Board, Power, Province, StartingUnit, Terrain, normalise_name, province_of
from judge.data import data_folder, data_path

if TYPE_CHECKING:
    from os import PathLike
    from pathlib import Path

    MapPath = str | PathLike[str]
    """a map file's path: a string where the judge loads a shipped map (pathlib is not imported for it), a Path
    where a GM names a file"""

# tomllib is imported where a map is parsed, not here: `judge adjudicate` imports this module (through the
# variants) before it knows whether any case comes, and a process that reads no map should not pay for it; and a
# shipped map is usually not parsed at all, but taken as `make install` parsed it (`parse_map_text`).


class MapError(Exception):
    """A map file that cannot be used; `problems` lists every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.source = source
        self.problems = problems
        super().__init__(f"{source}: {len(problems)} problem(s):\n  " + "\n  ".join(problems))


def maps_dir() -> Path:
    """The `maps/` folder, as the installed package has it (`judge.data.maps`)."""
    return data_path("maps")


def map_names() -> list[str]:
    return sorted(p.stem for p in maps_dir().glob("*.toml"))


@cache
def load_map(name: str) -> Board:
    """The map called `name` from `maps/`, loaded once per process."""
    path = os.path.join(data_folder("maps"), f"{name}.toml")
    if not os.path.isfile(path):
        raise MapError(name, [f"no map called {name!r} (known: {', '.join(map_names())})"])
    return load_map_file(path)


def _deep_merge(base: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A variant map's tables amend its base map's: tables merge key by key, other values replace."""
    merged = dict(base)
    for key, value in changes.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


_KEPT = "maps"


@cache
def _kept_maps() -> dict[str, bytes]:
    """The shipped maps as `make install` parsed them (judge/kept.py), read at the first map a process loads."""
    from judge import kept

    return kept.load(kept.kept_path(_KEPT))


def parse_map_text(text: str) -> dict[str, Any]:
    """A map file's TOML as data: as `make install` parsed this very text, where it did (a fresh copy each
    time), or parsed now. Importing tomllib and parsing the standard map was a tenth of `judge adjudicate`'s
    start with one case."""
    parsed = _kept_maps().get(text)
    if parsed is not None:
        data: dict[str, Any] = marshal.loads(parsed)
        return data
    import tomllib

    return tomllib.loads(text)


def keep_shipped_maps(path: str | None = None) -> int:
    """Parse every map file the judge ships and keep the data by its text (in `path`, by default where
    `parse_map_text` looks). Returns how many were kept."""
    import tomllib

    from judge import kept

    target = path or kept.kept_path(_KEPT)
    if target is None:
        return 0
    parsed: dict[str, object] = {}
    for file in sorted(maps_dir().glob("*.toml")):
        try:  # a map that is not TOML, or holds what marshal cannot write (a date), is left to be parsed (and
            # reported) where it is loaded
            text = file.read_text(encoding="utf-8")
            data = tomllib.loads(text)
            marshal.dumps(data)
        except ValueError:
            continue
        parsed[text] = data
    kept.write(target, parsed)
    _kept_maps.cache_clear()
    return len(parsed)


def read_map_data(path: MapPath, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The map file's data with its `base` map (if any) applied underneath."""
    path = os.fspath(path)
    with open(path, encoding="utf-8") as file:
        data = parse_map_text(file.read())
    meta = data.get("map", {})
    base_name = meta.get("base") if isinstance(meta, dict) else None
    if not base_name:
        return data
    base_path = os.path.join(os.path.dirname(path), f"{base_name}.toml")
    if base_path in seen or base_path == path:
        raise MapError(str(path), [f"map {base_name!r} is its own base"])
    base = read_map_data(base_path, (*seen, path))
    base_meta = dict(base.get("map", {}))
    merged = _deep_merge(base, data)
    merged["map"] = {**base_meta, **meta}
    merged["map"].pop("base", None)
    if "powers" in data:  # a variant's powers replace the base's whole (their home centres differ)
        merged["powers"] = data["powers"]
    return merged


def load_map_file(path: MapPath) -> Board:
    try:
        data = read_map_data(path)
    except (OSError, ValueError) as exc:  # a file that cannot be read, or is not TOML (TOMLDecodeError)
        raise MapError(str(path), [str(exc)]) from exc
    board, problems = build_board(data)
    if problems or board is None:
        raise MapError(str(path), problems)
    return board


def check_map_file(path: Path) -> list[str]:
    """Every problem in the map file (empty when it is sound)."""
    try:
        data = read_map_data(path)
    except (OSError, ValueError) as exc:  # a file that cannot be read, or is not TOML (TOMLDecodeError)
        return [str(exc)]
    except MapError as exc:
        return exc.problems
    board, problems = build_board(data)
    if board is not None and not problems:
        problems = check_geometry_of(path, board)
    return problems


def check_geometry_of(path: Path, board: Board) -> list[str]:
    """The problems of the map's picture, where it has one (`geometry/<map>.toml` beside it, or its base's;
    docs/map-format.md, "Geometry"): a map without a picture is still a sound map."""
    from judge.board.geometry import GeometryError, geometry_path_for, read_geometry_file
    from judge.board.geometry_check import check_geometry

    geometry_path = geometry_path_for(path)
    if geometry_path is None:
        return []
    try:
        geometry = read_geometry_file(geometry_path)
    except GeometryError as exc:
        return [f"geometry: {problem}" for problem in exc.problems]
    return check_geometry(board, geometry)


def _strings(value: Any, where: str, problems: list[str]) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"{where}: expected a list of strings")
        return []
    return list(value)


class _Builder:
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.problems: list[str] = []
        self.provinces: dict[str, Province] = {}
        self.army: dict[str, set[str]] = {}
        self.fleet: dict[str, set[str]] = {}
        self.names: dict[str, str] = {}
        self.power_names: dict[str, str] = {}

    def fail(self, text: str) -> None:
        self.problems.append(text)

    def add_name(self, name: str, target: str, where: str) -> None:
        key = normalise_name(name)
        if not key:
            self.fail(f"{where}: empty name")
            return
        known = self.names.get(key)
        if known is not None and known != target:
            self.fail(f"{where}: name {name!r} is already used by {known}")
            return
        self.names[key] = target

    def read_provinces(self) -> None:
        meta = self.data.get("map", {})
        every_land_centre = bool(meta.get("every_land_province_a_centre", False)) if isinstance(meta, dict) else False
        raw = self.data.get("provinces")
        if not isinstance(raw, dict) or not raw:
            self.fail("no [provinces] table")
            return
        for pid, spec in raw.items():
            where = f"province {pid}"
            if pid != pid.lower() or "/" in pid or ":" in pid:
                self.fail(f"{where}: ids are lower case without '/' or ':'")
            if not isinstance(spec, dict):
                self.fail(f"{where}: expected a table")
                continue
            try:
                terrain = Terrain(spec.get("terrain", ""))
            except ValueError:
                self.fail(f"{where}: terrain must be one of land, coast, sea, impassable")
                continue
            coasts_raw = spec.get("coasts", {})
            if not isinstance(coasts_raw, dict):
                self.fail(f"{where}: coasts must be a table of coast tables")
                coasts_raw = {}
            if coasts_raw and terrain is not Terrain.COAST:
                self.fail(f"{where}: only coast provinces have coasts")
            kind = spec.get("centre_kind", "city")
            if kind not in ("city", "town"):
                self.fail(f"{where}: centre_kind must be city or town")
            aliases = _strings(spec.get("aliases"), where, self.problems)
            self.provinces[pid] = Province(
                id=pid,
                name=str(spec.get("name", pid)),
                terrain=terrain,
                supply_centre=bool(spec.get("supply_centre", False))
                or (every_land_centre and terrain in (Terrain.LAND, Terrain.COAST)),
                centre_kind=str(kind),
                coasts=tuple(coasts_raw),
                aliases=tuple(aliases),
            )
            self.add_name(pid, pid, where)
            self.add_name(str(spec.get("name", pid)), pid, where)
            for alias in aliases:
                self.add_name(alias, pid, where)
            for coast, cspec in coasts_raw.items():
                loc = f"{pid}/{coast}"
                if not isinstance(cspec, dict):
                    self.fail(f"{where}: coast {coast} must be a table")
                    continue
                self.fleet[loc] = set(_strings(cspec.get("fleet"), f"{where} coast {coast}", self.problems))
                self.names[normalise_name(loc)] = loc
            army = _strings(spec.get("army"), where, self.problems)
            fleet = _strings(spec.get("fleet"), where, self.problems)
            if terrain is Terrain.SEA and army:
                self.fail(f"{where}: a sea has no army adjacency")
            if terrain is Terrain.LAND and fleet:
                self.fail(f"{where}: an inland province has no fleet adjacency")
            if coasts_raw and fleet:
                self.fail(f"{where}: fleet adjacency goes on its coasts, not on the province")
            if terrain is Terrain.COAST and not coasts_raw and not fleet:
                self.fail(f"{where}: a coast province needs fleet adjacency")
            if (terrain is Terrain.LAND and not army) or (terrain is Terrain.COAST and "army" not in spec):
                self.fail(
                    f"{where}: no army adjacency (an island, which armies reach only by convoy, writes army = [])"
                )
            if army:
                self.army[pid] = set(army)
            if fleet:
                self.fleet[pid] = set(fleet)

    def check_adjacency(self) -> None:
        for pid, targets in self.army.items():
            for t in sorted(targets):
                tp = self.provinces.get(t)
                if tp is None:
                    self.fail(f"province {pid}: army adjacency names unknown province {t!r}")
                elif tp.is_sea:
                    self.fail(f"province {pid}: army adjacency names sea {t}")
                elif pid not in self.army.get(t, ()):
                    self.fail(f"province {pid}: army adjacency to {t} is not listed back by {t}")
        for loc, targets in self.fleet.items():
            for t in sorted(targets):
                tprov = province_of(t)
                tp = self.provinces.get(tprov)
                if tp is None:
                    self.fail(f"location {loc}: fleet adjacency names unknown province {t!r}")
                    continue
                if tp.coasts and t == tprov:
                    self.fail(f"location {loc}: fleet adjacency to {t} must name a coast ({'/'.join(tp.coasts)})")
                    continue
                if t not in self.fleet:
                    self.fail(f"location {loc}: fleet adjacency names {t}, which has no fleet adjacency")
                    continue
                if tp.terrain is Terrain.LAND:
                    self.fail(f"location {loc}: fleet adjacency names inland {t}")
                if loc not in self.fleet[t]:
                    self.fail(f"location {loc}: fleet adjacency to {t} is not listed back by {t}")

    def read_powers(self) -> dict[str, Power]:
        powers: dict[str, Power] = {}
        raw = self.data.get("powers")
        if not isinstance(raw, dict) or not raw:
            self.fail("no [powers] table")
            return powers
        power_names: dict[str, str] = {}
        started: dict[str, str] = {}
        for name, spec in raw.items():
            where = f"power {name}"
            if not isinstance(spec, dict):
                self.fail(f"{where}: expected a table")
                continue
            home = _strings(spec.get("home"), where, self.problems)
            for h in home:
                hp = self.provinces.get(h)
                if hp is None:
                    self.fail(f"{where}: home centre {h!r} is not a province")
                elif not hp.supply_centre:
                    self.fail(f"{where}: home centre {h} is not a supply centre")
            units: list[StartingUnit] = []
            for text in _strings(spec.get("units"), where, self.problems):
                parts = text.split()
                if len(parts) != 2 or parts[0] not in ("A", "F"):
                    self.fail(f"{where}: starting unit {text!r} should read like 'A par' or 'F stp/sc'")
                    continue
                kind, loc = parts
                prov = self.provinces.get(province_of(loc))
                if prov is None or (loc != prov.id and province_of(loc) == prov.id and "/" not in loc):
                    self.fail(f"{where}: starting unit {text!r} stands on an unknown location")
                    continue
                coast = loc.partition("/")[2]
                if kind == "A" and (not prov.holds_armies or coast):
                    self.fail(f"{where}: an army cannot start at {loc}")
                if kind == "F" and (not prov.holds_fleets or (prov.coasts and coast not in prov.coasts)):
                    self.fail(f"{where}: a fleet cannot start at {loc}")
                if prov.id in started:
                    self.fail(f"{where}: {prov.id} already holds a unit of {started[prov.id]}")
                started[prov.id] = name
                units.append(StartingUnit(kind, loc))
            country = _strings(spec.get("country"), where, self.problems)
            for c in country:
                cp = self.provinces.get(c)
                if cp is None or cp.terrain not in (Terrain.LAND, Terrain.COAST):
                    self.fail(f"{where}: its country's province {c!r} is not a land or coast province")
            allocation = spec.get("allocation", len(home))
            if not isinstance(allocation, int) or allocation < 0:
                self.fail(f"{where}: allocation must be a whole number of centres")
                allocation = len(home)
            aliases = _strings(spec.get("aliases"), where, self.problems)
            for alias in (name, *aliases):
                key = normalise_name(alias)
                if key in power_names and power_names[key] != name:
                    self.fail(f"{where}: name {alias!r} is already used by {power_names[key]}")
                power_names[key] = name
            powers[name] = Power(
                name=name,
                adjective=str(spec.get("adjective", name)),
                initial=str(spec.get("initial", name[:1])),
                aliases=tuple(aliases),
                home=tuple(home),
                units=tuple(units),
                country=tuple(country),
                allocation=allocation,
            )
        self.power_names = power_names
        return powers

    def build(self) -> Board | None:
        meta = self.data.get("map", {})
        if not isinstance(meta, dict):
            self.fail("[map] must be a table")
            meta = {}
        self.read_provinces()
        self.check_adjacency()
        powers = self.read_powers()
        centres = sum(1 for p in self.provinces.values() if p.supply_centre)
        centres += sum(p.allocation for p in powers.values() if not p.home)  # centres the powers place
        victory = meta.get("victory_centres", centres // 2 + 1)
        if not isinstance(victory, int) or victory > centres:
            self.fail(f"[map] victory_centres ({victory}) must be a number up to the {centres} centres")
            victory = centres // 2 + 1
        start = meta.get("start", {})
        if self.problems:
            return None
        passable = {pid for pid, p in self.provinces.items() if p.terrain is not Terrain.IMPASSABLE}
        army = {
            pid: frozenset(t for t in targets if t in passable) for pid, targets in self.army.items() if pid in passable
        }
        fleet = {
            loc: frozenset(t for t in targets if province_of(t) in passable)
            for loc, targets in self.fleet.items()
            if province_of(loc) in passable
        }
        borders: dict[str, set[str]] = {pid: set() for pid in self.provinces}
        for origin, targets in [*self.army.items(), *self.fleet.items()]:
            for target in targets:
                a, b = province_of(origin), province_of(target)
                if a != b and a in borders and b in borders:
                    borders[a].add(b)
                    borders[b].add(a)
        return Board(
            id=str(meta.get("id", "map")),
            name=str(meta.get("name", meta.get("id", "map"))),
            victory_centres=victory,
            start_season=str(start.get("season", "Spring")),
            start_year=int(start.get("year", 1901)),
            provinces=self.provinces,
            powers=powers,
            army_adjacency=army,
            fleet_adjacency=fleet,
            names=self.names,
            power_names=self.power_names,
            borders={pid: frozenset(near) for pid, near in borders.items()},
        )


def build_board(data: dict[str, Any]) -> tuple[Board | None, list[str]]:
    builder = _Builder(data)
    board = builder.build()
    return board, builder.problems
