"""Map pictures: a position drawn from the board's own geometry (maps/geometry/), as SVG text or PNG bytes.

    svg = draw_svg(board, geometry, position, orders=outcome.results, title="Spring 1901 Movement")
    png = draw_png(board, geometry, position)

A board of copies (Heptadiplomacy's seven standard boards, `3:par`) is drawn with its base map's geometry, one
panel per copy (layout.py). `judge map draw` (command.py) draws a variant's starting position or a case's.
Modules: geometry and checks live in judge/board (geometry.py, geometry_check.py, planar.py); here base_layer.py
(the static board, cached), centres.py, units.py, orders.py (the layers a position adds), layout.py, draw.py (the
SVG), png.py and raster.py (the PNG), palette.py, samples.py; mailed.py and boards.py (the pictures a results mail
carries), animation.py (the whole game).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.board.geometry import Geometry, GeometryError
from judge.board.model import Board
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Position
from judge.engine.rules import Rules
from judge.picture.draw import draw_svg, scene
from judge.picture.png import QUALITY, svg_to_png
from judge.picture.raster import scene_to_png

ONE_BOARD_SCALE = 0.8
"""PNG pixels per map unit for one board (the standard board is 1,165 units across: 932 pixels)"""


def draw_png(
    board: Board,
    geometry: Geometry,
    position: Position,
    *,
    orders: Sequence[OrderResult] | None = None,
    title: str | None = None,
    only_board: int | None = None,
    columns: int | None = None,
    orders_phase: PhaseType | None = None,
    scale: float | None = None,
    sides: Mapping[str, Sequence[str]] | None = None,
    rules: Rules | None = None,
    label_size: float = 9.0,
    palette_png: bool = False,
    quality: int = QUALITY,
) -> bytes:
    """`draw_svg`'s picture as PNG, `scale` pixels per map unit (default: `ONE_BOARD_SCALE` for one board, about
    930 pixels across the standard board, `judge map draw`'s size (a results mail's is smaller: mailed.py); for
    several boards what keeps them side by side within 2,400 pixels).
    The board is painted once per layout and scale and reused (raster.py): a fifth less time than painting the
    whole SVG each time, for one board as for seven.
    `palette_png`: at most 256 colours (a third of the bytes, for mail), `quality` the quantiser's (png.py)."""
    picture = scene(
        board, geometry, position, orders=orders, title=title, only_board=only_board, columns=columns,
        orders_phase=orders_phase, sides=sides, rules=rules, label_size=label_size,
    )  # fmt: skip
    if scale is None:
        scale = min(ONE_BOARD_SCALE, 2400 / picture.plan.width)
    return scene_to_png(picture, scale, palette_png, quality)  # the board painted once and reused (raster.py)


__all__ = ["ONE_BOARD_SCALE", "Geometry", "GeometryError", "draw_png", "draw_svg", "svg_to_png"]
