"""Where each board goes in the picture: one board, or a variant's several copies of one map side by side.

A board of copies (judge/board/copies.py: `3:par`) is drawn with its base map's geometry once per copy, each
copy a panel shifted across the picture; nothing new is authored for it. One copy can be drawn alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.board.copies import board_of
from judge.board.geometry import Geometry
from judge.board.model import Board
from judge.board.planar import Point

TITLE = 26.0
"""map units above the map for the picture's title"""
CAPTION = 22.0
"""map units above each panel of several boards for its caption"""
GAP = 16.0


@dataclass(frozen=True, slots=True)
class Panel:
    board: int | None
    """the copy drawn here (None on a single board)"""
    dx: float
    dy: float


@dataclass(frozen=True)
class Layout:
    geometry: Geometry
    panels: dict[int | None, Panel]
    width: float
    height: float
    top: float
    """where the panels start (below the title)"""

    def split(self, location: str) -> tuple[Panel | None, str]:
        """`3:stp/nc` -> (board 3's panel, `stp/nc`); None when that board is not drawn."""
        number = board_of(location)
        base = location.partition(":")[2] if number is not None else location
        return self.panels.get(number), base

    def point(self, location: str) -> Point | None:
        """Where a unit at the location is drawn, in the picture's coordinates (None: not drawn)."""
        panel, base = self.split(location)
        province = base.partition("/")[0]
        if panel is None or province not in self.geometry.outlines:
            return None
        x, y = self.geometry.anchor(base)
        return (x + panel.dx, y + panel.dy)


def copies_of(board: Board) -> list[int]:
    """The copies a board is made of (1..k), or [] for a single board."""
    numbers = {board_of(pid) for pid in board.provinces}
    return sorted(n for n in numbers if n is not None)


def layout(board: Board, geometry: Geometry, *, only: int | None = None, columns: int | None = None,
           title: bool = True, bottom: float = 0.0) -> Layout:  # fmt: skip
    """The panels of the picture: one for a single board; for copies, every copy (`columns` across, default
    four) or the copy `only`; `bottom` map units are left under them (for the legend)."""
    top = TITLE if title else 0.0
    copies = copies_of(board)
    w, h = geometry.width, geometry.height
    if not copies:
        return Layout(geometry, {None: Panel(None, 0.0, top)}, w, h + top + bottom, top)
    if only is not None:
        if only not in copies:
            raise ValueError(f"there is no board {only} (boards 1 to {len(copies)})")
        return Layout(geometry, {only: Panel(only, 0.0, top + CAPTION)}, w, h + top + CAPTION + bottom, top)
    across = max(1, min(columns or 4, len(copies)))
    rows = -(-len(copies) // across)
    panels: dict[int | None, Panel] = {}
    for n, number in enumerate(copies):
        col, row = n % across, n // across
        panels[number] = Panel(number, col * (w + GAP), top + row * (h + CAPTION + GAP) + CAPTION)
    width = across * w + (across - 1) * GAP
    height = top + rows * (h + CAPTION) + (rows - 1) * GAP
    return Layout(geometry, panels, width, height + bottom, top)
