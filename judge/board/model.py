"""The board as the engine sees it: immutable, with adjacency precomputed for fast look-ups.

A *location* is where a unit stands: a province id (`par`) or, on a split-coast province, a coast
(`stp/nc`). Armies always stand on the province; fleets on a split-coast province stand on a coast.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from enum import StrEnum
from functools import lru_cache
from typing import Any, ClassVar

from judge.value import Value


class Terrain(StrEnum):
    LAND = "land"
    COAST = "coast"
    SEA = "sea"
    IMPASSABLE = "impassable"


class Province(Value):
    id: str
    name: str
    terrain: Terrain
    supply_centre: bool
    centre_kind: str
    coasts: tuple[str, ...]
    aliases: tuple[str, ...]

    names = ("id", "name", "terrain", "supply_centre", "centre_kind", "coasts", "aliases")
    optional = frozenset(("supply_centre", "centre_kind", "coasts", "aliases"))

    def __init__(
        self,
        id: str,
        name: str,
        terrain: Terrain,
        supply_centre: bool = False,
        centre_kind: str = "city",
        coasts: tuple[str, ...] = (),
        aliases: tuple[str, ...] = (),
    ) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "terrain", terrain)
        object.__setattr__(self, "supply_centre", supply_centre)
        object.__setattr__(self, "centre_kind", centre_kind)
        object.__setattr__(self, "coasts", coasts)
        object.__setattr__(self, "aliases", aliases)

    @property
    def is_sea(self) -> bool:
        return self.terrain is Terrain.SEA

    @property
    def holds_armies(self) -> bool:
        return self.terrain in (Terrain.LAND, Terrain.COAST)

    @property
    def holds_fleets(self) -> bool:
        return self.terrain in (Terrain.SEA, Terrain.COAST)


class StartingUnit(Value):
    kind: str  # "A" or "F"
    location: str

    names = ("kind", "location")

    def __init__(self, kind: str, location: str) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "location", location)


class Power(Value):
    name: str
    adjective: str
    initial: str
    aliases: tuple[str, ...]
    home: tuple[str, ...]
    units: tuple[StartingUnit, ...]
    country: tuple[str, ...]
    """the provinces that make up its home country, where a variant lets it place centres and units anywhere
    (Mad Diplomacy); empty where the map does not say"""
    allocation: int
    """the supply centres it places in a placement opening (Mad Diplomacy: its normal number, 3, Russia 4)"""

    names = ("name", "adjective", "initial", "aliases", "home", "units", "country", "allocation")
    optional = frozenset(("country", "allocation"))

    def __init__(
        self,
        name: str,
        adjective: str,
        initial: str,
        aliases: tuple[str, ...],
        home: tuple[str, ...],
        units: tuple[StartingUnit, ...],
        country: tuple[str, ...] = (),
        allocation: int = 0,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "adjective", adjective)
        object.__setattr__(self, "initial", initial)
        object.__setattr__(self, "aliases", aliases)
        object.__setattr__(self, "home", home)
        object.__setattr__(self, "units", units)
        object.__setattr__(self, "country", country)
        object.__setattr__(self, "allocation", allocation)


_NAME_NOISE = re.compile(r"[^a-z0-9/]+")


@lru_cache(maxsize=1 << 16)
def normalise_name(text: str) -> str:
    """The key under which a typed name is looked up: case, spaces and punctuation do not matter."""
    return _NAME_NOISE.sub("", text.lower())


class _ProvinceOfLocation(dict[str, str]):
    """Memo of location -> province: the engine asks this in every loop, a dict answers fastest."""

    def __missing__(self, location: str) -> str:
        if len(self) > 100_000:  # only map ids ever reach here; the bound is a safety net
            self.clear()
        slash = location.find("/")
        province = self[location] = location if slash < 0 else location[:slash]
        return province


province_of: Callable[[str], str] = _ProvinceOfLocation().__getitem__
"""`stp/nc` -> `stp`; `par` -> `par`."""


class Board:
    """A loaded map. Adjacency never includes impassable provinces.

    Not a `Value` (judge/value.py), and compared by identity, as the frozen dataclass with `eq=False` it
    was: a board is one loaded map, shared by every phase and by the rules built on it (`Rules.build` keys them by
    the board's identity), and comparing two field by field would walk every table of the map. Its `__init__` is
    written out and sets each field once; `changed` makes a board with some fields changed (what
    `dataclasses.replace` did)."""

    id: str
    name: str
    victory_centres: int
    start_season: str
    start_year: int
    provinces: dict[str, Province]
    powers: dict[str, Power]
    army_adjacency: dict[str, frozenset[str]]
    """province -> provinces an army can move to"""
    fleet_adjacency: dict[str, frozenset[str]]
    """location -> locations a fleet can move to (coasts included)"""
    names: dict[str, str]
    """normalised name, id or alias -> province id, or location id for a coast name"""
    power_names: dict[str, str]
    """normalised power name or alias -> power name"""
    borders: dict[str, frozenset[str]]
    """province -> the provinces it borders, impassable ones included (what wanders over the map, such as Mad
    Diplomacy's Atlantis, goes by these)"""
    _fleet_provinces: dict[str, frozenset[str]]
    _distances: dict[str, dict[str, int]]
    """breadth-first distances from a province, worked out when first asked (`distances_from`)"""

    def __init__(
        self,
        id: str,
        name: str,
        victory_centres: int,
        start_season: str,
        start_year: int,
        provinces: dict[str, Province],
        powers: dict[str, Power],
        army_adjacency: dict[str, frozenset[str]],
        fleet_adjacency: dict[str, frozenset[str]],
        names: dict[str, str],
        power_names: dict[str, str],
        borders: dict[str, frozenset[str]] | None = None,
    ) -> None:
        self.id = id
        self.name = name
        self.victory_centres = victory_centres
        self.start_season = start_season
        self.start_year = start_year
        self.provinces = provinces
        self.powers = powers
        self.army_adjacency = army_adjacency
        self.fleet_adjacency = fleet_adjacency
        self.names = names
        self.power_names = power_names
        self.borders = {} if borders is None else borders
        self._fleet_provinces = {
            loc: frozenset(province_of(t) for t in targets) for loc, targets in fleet_adjacency.items()
        }
        self._distances = {}

    FIELDS: ClassVar[tuple[str, ...]] = (
        "id", "name", "victory_centres", "start_season", "start_year", "provinces", "powers", "army_adjacency",
        "fleet_adjacency", "names", "power_names", "borders",
    )  # fmt: skip
    """the fields its `__init__` takes, in order"""

    def changed(self, **changes: Any) -> Board:
        """A new board with some fields changed and the rest as they are (worked-out tables made afresh)."""
        unknown = changes.keys() - set(self.FIELDS)
        if unknown:
            raise TypeError(f"Board has no field {', '.join(sorted(unknown))}")
        return Board(*[changes[name] if name in changes else getattr(self, name) for name in self.FIELDS])

    def __repr__(self) -> str:
        return f"Board(id={self.id!r}, name={self.name!r})"

    # --- look-ups --------------------------------------------------------------------------------------

    def province(self, location: str) -> Province:
        return self.provinces[province_of(location)]

    def lookup(self, text: str) -> str | None:
        """The province id (or coast location) a typed name means, or None."""
        return self.names.get(normalise_name(text))

    def lookup_power(self, text: str) -> str | None:
        return self.power_names.get(normalise_name(text))

    def locations(self, province: str) -> tuple[str, ...]:
        """Where a fleet can stand in a province: the coasts of a split-coast province, else itself."""
        coasts = self.provinces[province].coasts
        return tuple(f"{province}/{c}" for c in coasts) if coasts else (province,)

    def is_location(self, location: str) -> bool:
        prov, _, coast = location.partition("/")
        p = self.provinces.get(prov)
        if p is None:
            return False
        return not coast or coast in p.coasts

    # --- adjacency -------------------------------------------------------------------------------------

    def army_can_move(self, origin: str, destination: str) -> bool:
        return province_of(destination) in self.army_adjacency.get(province_of(origin), frozenset())

    def fleet_can_move(self, origin: str, destination: str) -> bool:
        """Fleet adjacency at location level (`destination` must name the coast where there are coasts)."""
        return destination in self.fleet_adjacency.get(origin, frozenset())

    def fleet_reaches_province(self, origin: str, province: str) -> bool:
        return province in self._fleet_provinces.get(origin, frozenset())

    def fleet_coasts_reachable(self, origin: str, province: str) -> list[str]:
        """The locations of `province` a fleet at `origin` can move to."""
        targets = self.fleet_adjacency.get(origin, frozenset())
        return [loc for loc in self.locations(province) if loc in targets]

    def adjacent_provinces(self, province: str) -> frozenset[str]:
        """Neighbours regardless of unit type (used for civil-disorder distances)."""
        result = set(self.army_adjacency.get(province, ()))
        for loc in self.locations(province) if self.provinces[province].coasts else (province,):
            result.update(province_of(t) for t in self.fleet_adjacency.get(loc, ()))
        result.discard(province)
        return frozenset(result)

    def distances_from(self, province: str) -> dict[str, int]:
        """Breadth-first distance from `province` to every province, counting any adjacency."""
        cached = self._distances.get(province)
        if cached is not None:
            return cached
        dist = {province: 0}
        queue = deque([province])
        while queue:
            here = queue.popleft()
            for nxt in self.adjacent_provinces(here):
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        self._distances[province] = dist
        return dist

    # --- facts -----------------------------------------------------------------------------------------

    @property
    def supply_centres(self) -> list[str]:
        return [p.id for p in self.provinces.values() if p.supply_centre]

    def home_owner(self, province: str) -> str | None:
        for power in self.powers.values():
            if province in power.home:
                return power.name
        return None
