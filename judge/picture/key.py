"""The key to the map's marks: each kind of mark the pictures draw (a unit's chip, a dislodged unit, a centre's
mark, each order's arrow or line, a failure's cross), drawn small by the very functions that draw it on the map
(`units`, `centres`, `orders`), beside the words that say what it means. A page shows it under the map, so a
newcomer can read an arrow without asking.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.board.model import Board
from judge.engine.units import Composition
from judge.picture.base_layer import style
from judge.picture.centres import mark
from judge.picture.orders import arrow, cross, line, ring
from judge.picture.palette import palette_for
from judge.picture.units import Chip, draw_chips

WIDTH, HEIGHT = 64.0, 28.0


@dataclass(frozen=True)
class Mark:
    svg: str
    """the sample, a small SVG document of the picture's own classes"""
    words: str
    """what it means"""


def _sample(body: str) -> str:
    return (
        f'<svg class="mark" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
        f'width="{WIDTH:g}" height="{HEIGHT:g}" aria-hidden="true">{body}</svg>'
    )


def key_style() -> str:
    """The picture's style sheet, which the samples' classes need (once on a page)."""
    return style()


def marks(board: Board) -> list[Mark]:
    """The key for a map of `board`, in the colours of its first power (a town's mark only where the board has
    towns)."""
    palette = palette_for(board)
    power = next(iter(board.powers), "")
    colour = palette.of(power).strong
    mid = HEIGHT / 2
    left, right = (6.0, mid), (WIDTH - 4, mid)

    def chip(composition: str, dislodged: bool = False) -> str:
        return draw_chips(palette, [Chip(((power, Composition.parse(composition)),), 1)], (WIDTH / 2, mid), [],
                          dislodged)  # fmt: skip

    found = [
        Mark(chip("A"), "an army, in its player's colour"),
        Mark(chip("F"), "a fleet (square corners)"),
        Mark(chip("A", dislodged=True), "a dislodged unit, outlined in red beside its province (it must retreat)"),
        Mark(mark((WIDTH / 2, mid), colour, False, "an owned centre"), "a supply centre its owner holds"),
        Mark(mark((WIDTH / 2, mid), "#ffffff", False, "a centre nobody owns"), "a supply centre nobody owns"),
    ]
    if any(p.supply_centre and p.centre_kind == "town" for p in board.provinces.values()):
        found.append(Mark(mark((WIDTH / 2, mid), colour, True, "a town"), "a town: half a supply centre"))
    found += [
        Mark(arrow(left, right, colour, False), "a move (or a retreat) that succeeded"),
        Mark(arrow(left, right, colour, True), "an order that failed: faded, with a red cross"),
        Mark(line(left, right, colour, False, "os"), "a support, to the middle of the move it supports"),
        Mark(line(left, (WIDTH - 14, mid), colour, False, "os", ring=True), "a support to hold, round the unit"),
        Mark(line(left, right, colour, False, "oc"), "a convoy, to the middle of the army's crossing"),
        Mark(ring((WIDTH / 2, mid), colour, False), "a build"),
        Mark(cross((WIDTH / 2, mid), 6.0, colour), "a removal or a disband"),
    ]
    return [Mark(_sample(m.svg), m.words) for m in found]
