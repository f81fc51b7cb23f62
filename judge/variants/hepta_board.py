"""CW Heptadiplomacy's board: seven standard boards, linked as the GM's movement module says (rule 3).

The links are adjacency, so every move, retreat and support reach follows from the board like any other map's:
- module 1: a unit may move to the same province (a fleet: the same coast) on any other board;
- modules 2 and 3: also to any province it could move to on its own board, on any board ("A(1:Tri) can move to
  Ven, Tyr, Vie, Bud or Alb on any board"). They keep module 1's move to the same province on another board:
  rule 6's example orders A(1:Tri)-5:Tri, and under module 3 names a support from 5:Tri into 1:Tri.

Convoys and supports across boards are the rule module's questions (`judge.variants.hepta`), not adjacency's.
"""

from __future__ import annotations

from functools import cache

from judge.board import load_map
from judge.board.copies import board_copies, qualified
from judge.board.model import Board

BOARDS = 7
"""rule 2: seven players and seven playing boards"""
VICTORY = 70
"""rule 7: a winner requires 70 of the 238 centres at the end of an Autumn adjudication"""


def unqualified(location: str) -> str:
    """`3:stp/nc` -> `stp/nc`: the location on the standard board."""
    return location.partition(":")[2] or location


@cache
def hepta_board(module: int) -> Board:
    """The seven boards with the links of movement module 1, 2 or 3 (built once per module)."""
    base = load_map("standard")
    board = board_copies(base, BOARDS, victory_centres=VICTORY, name="CW Heptadiplomacy (seven standard boards)")
    army = _linked(base.army_adjacency, module)
    fleet = _linked(base.fleet_adjacency, module)
    return board.changed(id=f"hepta-module{module}", army_adjacency=army, fleet_adjacency=fleet)


def _linked(adjacency: dict[str, frozenset[str]], module: int) -> dict[str, frozenset[str]]:
    boards = range(1, BOARDS + 1)
    out: dict[str, frozenset[str]] = {}
    for origin, targets in adjacency.items():
        for k in boards:
            reach = {qualified(j, origin) for j in boards if j != k}
            reach.update(qualified(k, t) for t in targets)
            if module >= 2:
                reach.update(qualified(j, t) for j in boards for t in targets)
            out[qualified(k, origin)] = frozenset(reach)
    return out
