"""A board made of several copies of one map, side by side (CW Heptadiplomacy plays seven standard boards).

Every id of copy k is the base id with the board before a colon: provinces `3:par`, coasts `3:stp/nc`, powers
(board-nations) `3:England`. Names read the same way (`3:Paris`, `3:St. Petersburg (nc)`). The copies are
disjoint: which units may move, support or convoy from one board to another is the variant's rule (its
movement modules), never the map's.
"""

from __future__ import annotations

from judge.board.model import Board, Power, Province, StartingUnit
from judge.value import replace


def qualified(board: int, location: str) -> str:
    """`par` on board 3 -> `3:par`; `stp/nc` -> `3:stp/nc`."""
    return f"{board}:{location}"


def board_of(location: str) -> int | None:
    """The board a location id names (`3:par` -> 3), or None on a single board."""
    head, colon, _ = location.partition(":")
    return int(head) if colon and head.isdigit() else None


def board_copies(base: Board, count: int, *, victory_centres: int | None = None, name: str | None = None) -> Board:
    """`count` copies of `base`, numbered from 1. `victory_centres` defaults to the base's times the count."""
    if count < 1:
        raise ValueError("a board needs at least one copy")
    provinces: dict[str, Province] = {}
    powers: dict[str, Power] = {}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    names: dict[str, str] = {}
    power_names: dict[str, str] = {}
    for k in range(1, count + 1):
        for province in base.provinces.values():
            pid = qualified(k, province.id)
            provinces[pid] = replace(
                province,
                id=pid,
                name=f"{k}:{province.name}",
                aliases=tuple(f"{k}:{alias}" for alias in province.aliases),
            )
        for origin, targets in base.army_adjacency.items():
            army[qualified(k, origin)] = frozenset(qualified(k, t) for t in targets)
        for origin, targets in base.fleet_adjacency.items():
            fleet[qualified(k, origin)] = frozenset(qualified(k, t) for t in targets)
        # a name key is normalised (lower case, no punctuation), so board 3's "paris" is "3paris", which is
        # what "3:Paris" normalises to
        for key, target in base.names.items():
            names[f"{k}{key}"] = qualified(k, target)
        for power in base.powers.values():
            nation = f"{k}:{power.name}"
            powers[nation] = Power(
                name=nation,
                adjective=f"{k}:{power.adjective}",
                initial="",
                aliases=tuple(f"{k}:{alias}" for alias in power.aliases),
                home=tuple(qualified(k, home) for home in power.home),
                units=tuple(StartingUnit(unit.kind, qualified(k, unit.location)) for unit in power.units),
            )
        for key, power_name in base.power_names.items():
            power_names[f"{k}{key}"] = f"{k}:{power_name}"
    return Board(
        id=f"{base.id}x{count}",
        name=name or f"{count} {base.name} boards",
        victory_centres=victory_centres if victory_centres is not None else base.victory_centres * count,
        start_season=base.start_season,
        start_year=base.start_year,
        provinces=provinces,
        powers=powers,
        army_adjacency=army,
        fleet_adjacency=fleet,
        names=names,
        power_names=power_names,
    )
