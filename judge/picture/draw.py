"""A position as a picture: plain functions from (board, geometry, position[, the phase's orders]) to SVG text.

Layers, bottom to top: the board (water, scenery, provinces by terrain), owners' tints, borders and names (the
board's layers are static: base_layer.py builds them once), supply-centre marks, a wandering centre, units,
dislodged units, the variant's own facts (facts.py), the orders' arrows, the names these would hide written again
(labels.py), the title and the legend (legend.py). Colours go by side (palette.py). Every coordinate comes from the
geometry, so the same code draws the standard board, a variant's board, or seven copies of the standard board side
by side. `Scene` keeps the layers apart so that the PNG path (raster.py) can paint the static ones once and reuse
them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from judge.board.geometry import Geometry
from judge.board.model import Board
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Position
from judge.engine.rules import Rules
from judge.picture import legend
from judge.picture.base_layer import BaseLayer, base_layer, style
from judge.picture.centres import draw_marks, draw_tints, draw_wandering
from judge.picture.facts import FACTS
from judge.picture.labels import uncovered
from judge.picture.layout import Layout, Panel, layout
from judge.picture.orders import Segment, draw_orders
from judge.picture.palette import Palette, frozen_sides, palette_for
from judge.picture.svg import num, text
from judge.picture.units import Box, Split, draw_dislodged, draw_units, whole

LABEL_SIZE = 9.0
_HOVER = ".hv use{fill:#000;fill-opacity:0;stroke:none}.hv use:hover{fill-opacity:.12}"
"""the names' layer: painted nowhere, a province under the pointer shaded a little"""


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
    palette: Palette | None = None
    rules: Rules | None = None
    """the variant's rules, where known: mixed forces' shares, the variant's own facts (facts.py)"""
    entries: list[legend.Entry] = field(default_factory=list)
    label_size: float = LABEL_SIZE

    @property
    def colours(self) -> Palette:
        return self.palette if self.palette is not None else palette_for(self.board)

    @property
    def split(self) -> Split:
        return self.rules.written_as if self.rules is not None else whole

    def header(self) -> str:
        w, h = num(self.plan.width), num(self.plan.height)
        return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">'

    def under(self) -> str:
        return "".join(f'<use href="#under" x="{num(p.dx)}" y="{num(p.dy)}"/>' for p in self.plan.panels.values())

    def over(self, captions: bool = True) -> str:
        """The borders and names of every panel, each board's caption above it (`captions`)."""
        out = []
        for panel in self.plan.panels.values():
            out.append(f'<use href="#over" x="{num(panel.dx)}" y="{num(panel.dy)}"/>')
            if captions:
                out.append(self.caption(panel))
        return "".join(out)

    def caption(self, panel: Panel) -> str:
        """`Board 3` above a copy's panel ("" on a single board)."""
        if panel.board is None:
            return ""
        return f'<text class="cap" x="{num(panel.dx + 4)}" y="{num(panel.dy - 6)}">Board {panel.board}</text>'

    def captions(self) -> str:
        return "".join(self.caption(panel) for panel in self.plan.panels.values())

    def tints(self, inline: bool = False) -> str:
        return draw_tints(self.board, self.plan, self.position, self.colours, inline=inline)

    def top(self) -> str:
        """Everything the position puts over the board's borders and names: marks, units, the variant's own
        facts, orders, the names these would hide (written again), the title and the legend."""
        board, plan, position, colours = self.board, self.plan, self.position, self.colours
        boxes: list[Box] = []
        lines: list[Segment] = []
        parts = [
            draw_marks(board, plan, position, colours),
            draw_wandering(board, plan, position, colours),
            draw_units(colours, plan, position.units, boxes, self.split),
            draw_dislodged(colours, plan, (d.force for d in position.dislodged), boxes, self.split),
        ]
        facts = FACTS.get(self.rules.variant) if self.rules is not None else None
        if facts is not None and self.rules is not None:
            parts.append(facts(self.rules, position, plan, colours, boxes))
        if self.orders:
            phase = self.orders_phase or position.phase.type
            parts.append(draw_orders(colours, plan, self.orders, phase, lines))
        seas = frozenset(pid for pid, terrain in terrains(board, self.geometry) if terrain == "sea")
        parts.append(uncovered(plan, boxes, lines, seas, self.label_size))
        if self.title is not None:
            parts.append(f'<text class="cap" x="6" y="18">{text(self.title)}</text>')
        if self.entries:
            top = self.plan.height - legend.height(self.entries, self.plan.width)
            parts.append(legend.draw(self.entries, top, self.plan.width))
        return "".join(parts)

    def names(self) -> str:
        """Each province's full name as the tooltip of its outline (an SVG `<title>`), in an invisible layer over
        everything: a reader pointing at a province in a browser reads its name (`Gulf of Bothnia`, `Board 3:
        Paris`) where the map writes only its abbreviation. Nothing of it is painted."""
        out = [f'<g class="hv"><style>{_HOVER}</style>']
        for panel in self.plan.panels.values():
            out.append(f'<g transform="translate({num(panel.dx)} {num(panel.dy)})">')
            for pid in self.geometry.outlines:
                province = self.board.provinces.get(pid if panel.board is None else f"{panel.board}:{pid}")
                if province is None:
                    continue
                name = province.name
                if panel.board is not None:  # a copy's province, named `3:Paris` on the board
                    name = f"Board {panel.board}: {name.removeprefix(f'{panel.board}:')}"
                out.append(f'<use href="#p-{pid}"><title>{text(name)}</title></use>')
            out.append("</g>")
        out.append("</g>")
        return "".join(out)

    def svg(self, names: bool = False) -> str:
        """The picture as an SVG document; `names`: with the provinces' names on hover (`names`), for a page."""
        defs = self.colours.defs()
        patterns = f"<defs>{defs}</defs>" if defs else ""
        body = [self.header(), self.base.defs, patterns, self.under(), self.tints(), self.over(), self.top()]
        return "".join([*body, self.names() if names else "", "</svg>\n"])

    def layer(self, body: str) -> str:
        """A document of just `body` over nothing (with the style and the stripes, not the outlines)."""
        return f"{self.header()}<defs><style>{style(self.label_size)}</style>{self.colours.defs()}</defs>{body}</svg>\n"


def side_colours(board: Board, position: Position, rules: Rules | None = None,
                 sides: Mapping[str, Sequence[str]] | None = None) -> Palette:  # fmt: skip
    """The colours a picture of `position` gives each power: by `sides` (who holds which powers, label -> powers),
    default the position's own, else the variant's fixed sides where `rules` are given, else each power alone.
    The web site's centre chart takes its lines' colours from here, so that they are the map's."""
    given = sides if sides is not None else position.sides or (rules.fixed_sides() if rules is not None else None)
    return palette_for(board, frozen_sides(given))


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
    sides: Mapping[str, Sequence[str]] | None = None,
    rules: Rules | None = None,
    label_size: float = LABEL_SIZE,
    with_legend: bool = True,
) -> Scene:
    """`sides`: who holds which powers (label -> powers); default the position's own, else the variant's fixed
    sides where `rules` are given, else each power alone."""
    colours = side_colours(board, position, rules, sides)
    entries = legend.entries(board, position, colours, rules, only_board) if with_legend else []
    plan = layout(board, geometry, only=only_board, columns=columns, title=title is not None)
    if entries:
        bottom = legend.height(entries, plan.width)
        plan = layout(board, geometry, only=only_board, columns=columns, title=title is not None, bottom=bottom)
    base = base_layer(geometry, terrains(board, geometry), label_size)
    return Scene(board, geometry, position, plan, base, orders, title, orders_phase, colours, rules, entries,
                 label_size)  # fmt: skip


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
    sides: Mapping[str, Sequence[str]] | None = None,
    rules: Rules | None = None,
    label_size: float = LABEL_SIZE,
    with_legend: bool = True,
) -> str:
    """The position as an SVG document. `orders`: a phase's results, drawn as arrows (failed ones marked), given
    in a phase of kind `orders_phase` (default: the position's; a retreat's arrows start beside the province);
    `title`: a line above the map (the phase, say); on a board of several copies, `only_board` draws one copy
    and `columns` says how many copies stand side by side (default four); `sides`, `rules`: see `scene`;
    `with_legend`: the legend under the map (legend.py)."""
    return scene(
        board, geometry, position, orders=orders, title=title, only_board=only_board, columns=columns,
        orders_phase=orders_phase, sides=sides, rules=rules, label_size=label_size, with_legend=with_legend,
    ).svg()  # fmt: skip
