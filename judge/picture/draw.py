"""A position as a picture: plain functions from (board, geometry, position[, the phase's orders]) to SVG text.

Layers, bottom to top: the board (water, scenery, provinces by terrain), owners' tints, borders and names (the
board's layers are static: base_layer.py builds them once), supply-centre marks, a wandering centre, units,
dislodged units, the orders' arrows, the title. Every coordinate comes from the geometry, so the same code draws
the standard board, a variant's board, or seven copies of the standard board side by side. `Scene` keeps the
layers apart so that the PNG path (raster.py) can paint the static ones once and reuse them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.board.geometry import Geometry
from judge.board.model import Board
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Position
from judge.picture.base_layer import STYLE, BaseLayer, base_layer
from judge.picture.centres import draw_marks, draw_tints, draw_wandering
from judge.picture.layout import Layout, layout
from judge.picture.orders import draw_orders
from judge.picture.svg import num, text
from judge.picture.units import draw_dislodged, draw_units


def terrains(board: Board, geometry: Geometry) -> tuple[tuple[str, str], ...]:
    """Each drawn province's terrain on this board (a copy's province answers for its base id)."""
    out: dict[str, str] = {}
    for pid, province in board.provinces.items():
        base = pid.partition(":")[2] if ":" in pid else pid
        if base in geometry.outlines and base not in out:
            out[base] = province.terrain.value
    return tuple((pid, out.get(pid, "land")) for pid in geometry.outlines)


@dataclass(frozen=True)
class Scene:
    """One picture, its layers apart."""

    board: Board
    geometry: Geometry
    position: Position
    plan: Layout
    base: BaseLayer
    orders: Sequence[OrderResult] | None
    title: str | None
    orders_phase: PhaseType | None = None
    """the kind of phase the orders were given in (default: the position's)"""

    def header(self) -> str:
        w, h = num(self.plan.width), num(self.plan.height)
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'

    def under(self) -> str:
        return "".join(f'<use href="#under" x="{num(p.dx)}" y="{num(p.dy)}"/>' for p in self.plan.panels.values())

    def over(self) -> str:
        out = []
        for panel in self.plan.panels.values():
            out.append(f'<use href="#over" x="{num(panel.dx)}" y="{num(panel.dy)}"/>')
            if panel.board is not None:
                x, y = num(panel.dx + 4), num(panel.dy - 6)
                out.append(f'<text class="cap" x="{x}" y="{y}">Board {panel.board}</text>')
        return "".join(out)

    def tints(self, inline: bool = False) -> str:
        return draw_tints(self.board, self.plan, self.position, inline=inline)

    def top(self) -> str:
        """Everything the position puts over the board's borders and names."""
        board, plan, position = self.board, self.plan, self.position
        parts = [
            draw_marks(board, plan, position),
            draw_wandering(board, plan, position),
            draw_units(board, plan, position.units),
            draw_dislodged(board, plan, (d.force for d in position.dislodged)),
        ]
        if self.orders:
            parts.append(draw_orders(board, plan, self.orders, self.orders_phase or position.phase.type))
        if self.title is not None:
            parts.append(f'<text class="cap" x="6" y="18">{text(self.title)}</text>')
        return "".join(parts)

    def svg(self) -> str:
        return "".join([self.header(), self.base.defs, self.under(), self.tints(), self.over(), self.top(), "</svg>\n"])

    def layer(self, body: str) -> str:
        """A document of just `body` over nothing (with the style, not the outlines)."""
        return f"{self.header()}<defs><style>{STYLE}</style></defs>{body}</svg>\n"


def scene(
    board: Board,
    geometry: Geometry,
    position: Position,
    *,
    orders: Sequence[OrderResult] | None = None,
    title: str | None = None,
    only_board: int | None = None,
    columns: int | None = None,
    orders_phase: PhaseType | None = None,
) -> Scene:
    plan = layout(board, geometry, only=only_board, columns=columns, title=title is not None)
    base = base_layer(geometry, terrains(board, geometry))
    return Scene(board, geometry, position, plan, base, orders, title, orders_phase)


def draw_svg(
    board: Board,
    geometry: Geometry,
    position: Position,
    *,
    orders: Sequence[OrderResult] | None = None,
    title: str | None = None,
    only_board: int | None = None,
    columns: int | None = None,
    orders_phase: PhaseType | None = None,
) -> str:
    """The position as an SVG document. `orders`: a phase's results, drawn as arrows (failed ones marked), given
    in a phase of kind `orders_phase` (default: the position's; a retreat's arrows start beside the province);
    `title`: a line above the map (the phase, say); on a board of several copies, `only_board` draws one copy
    and `columns` says how many copies stand side by side (default four)."""
    return scene(
        board, geometry, position, orders=orders, title=title, only_board=only_board, columns=columns,
        orders_phase=orders_phase,
    ).svg()  # fmt: skip
