"""Map pictures as PNG, checked pixel by pixel: the owner's colour inside its provinces, a unit's chip at its
anchor, the sea where the sea is; several boards painted from the cached board come out the same as one."""

from __future__ import annotations

from typing import Any

import pytest
import pyvips

from judge.board import board_copies, load_map
from judge.board.geometry import Outline, load_geometry
from judge.board.planar import Point, distance_to_outline, inside
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.picture import ONE_BOARD_SCALE, draw_png
from judge.picture.draw import scene
from judge.picture.layout import CAPTION, GAP, TITLE
from judge.picture.palette import LAND, SEA, colours_for
from judge.picture.samples import sample
from judge.variants import get_variant

SPRING = Phase("Spring", 1901, PhaseType.MOVEMENT)


def image(png: bytes) -> Any:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return pyvips.Image.new_from_buffer(png, "")


def rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def pixel(img: Any, point: Point, scale: float = 1.0, dy: float = 0.0) -> tuple[int, int, int]:
    values = img.getpoint(round(point[0] * scale), round((point[1] + dy) * scale))
    return int(values[0]), int(values[1]), int(values[2])


def close(a: tuple[int, int, int], b: tuple[int, int, int], within: int = 6) -> bool:
    return all(abs(x - y) <= within for x, y in zip(a, b, strict=True))


def open_spot(outline: Outline) -> Point:
    """A point well inside the province, away from its unit, label and mark: where only its fill shows."""
    x0, y0, x1, y1 = outline.box
    busy = [outline.unit, outline.label, *([outline.centre] if outline.centre else [])]
    best: tuple[float, Point] | None = None
    for i in range(1, 40):
        for j in range(1, 40):
            p = (x0 + (x1 - x0) * i / 40, y0 + (y1 - y0) * j / 40)
            if not inside(p, outline.rings) or min(abs(p[0] - b[0]) + abs(p[1] - b[1]) for b in busy) < 25:
                continue
            room = distance_to_outline(p, outline.rings)
            if best is None or room > best[0]:
                best = (room, p)
    assert best is not None and best[0] > 4
    return best[1]


def test_the_owners_colour_fills_its_provinces_and_the_sea_stays_sea() -> None:
    board, geometry = load_map("standard"), load_geometry("standard")
    position = Position(SPRING, (), {"par": "France", "mos": "Russia", "bel": "Germany"})
    img = image(draw_png(board, geometry, position, title="Spring 1901", scale=1.0))
    for province, owner in position.centres.items():
        spot = open_spot(geometry.outlines[province])
        assert close(pixel(img, spot, dy=TITLE), rgb(colours_for(board, owner).tint)), province
    assert close(pixel(img, open_spot(geometry.outlines["nao"]), dy=TITLE), rgb(SEA))
    unowned = pixel(img, open_spot(geometry.outlines["bur"]), dy=TITLE)
    assert not close(unowned, rgb(colours_for(board, "France").tint), within=20)


def test_a_units_chip_stands_at_its_anchor_in_its_powers_colour() -> None:
    board, geometry = load_map("standard"), load_geometry("standard")
    units = (Force("England", FLEET, "nth"), Force("Turkey", ARMY, "ank"), Force("Russia", FLEET, "stp/sc"))
    img = image(draw_png(board, geometry, Position(SPRING, units, {}), scale=1.0))
    for force in units:
        x, y = geometry.anchor(force.at)
        # a little left of the middle, where the letter is not
        assert close(pixel(img, (x - 4.5, y)), rgb(colours_for(board, force.power).strong), within=10), force.at


def test_the_png_scale_sets_its_size() -> None:
    board, geometry = load_map("standard"), load_geometry("standard")
    position = Position(SPRING, (), {})
    img = image(draw_png(board, geometry, position, scale=0.5))
    plan = scene(board, geometry, position).plan  # the map and the legend under it
    assert plan.height > geometry.height
    assert abs(img.width - geometry.width * 0.5) <= 1 and abs(img.height - plan.height * 0.5) <= 1


@pytest.mark.parametrize("name", ["standard", "multiplomacy", "multiplicity1", "multiplicity2", "mad"])
def test_every_sample_draws_as_a_png(name: str) -> None:
    s = sample(name)
    png = draw_png(s.rules.board, load_geometry(get_variant(name).map_name), s.position, orders=s.outcome.results)
    assert image(png).width == round(load_geometry("standard").width * ONE_BOARD_SCALE)  # the default size


def test_seven_boards_paint_each_board_with_its_own_position() -> None:
    """The PNG of several boards is painted from the board's cached raster, the tints multiplied in: each
    board's owner colours and units land in that board's panel."""
    base = load_map("standard")
    board = board_copies(base, 7)
    geometry = load_geometry("standard")
    position = Position(SPRING, (Force("5:Russia", ARMY, "5:war"),), {"2:par": "2:France", "6:mos": "6:Russia"})
    png = draw_png(board, geometry, position, columns=7, scale=0.5)
    img = image(png)
    step = geometry.width + GAP  # each board's panel to the right of the one before
    top = CAPTION  # no title: the caption above each board
    spot = open_spot(geometry.outlines["par"])
    assert close(pixel(img, (spot[0] + step, spot[1] + top), 0.5), rgb(colours_for(base, "France").tint), within=8)
    assert not close(pixel(img, (spot[0], spot[1] + top), 0.5), rgb(colours_for(base, "France").tint), within=20)
    spot = open_spot(geometry.outlines["mos"])
    assert close(pixel(img, (spot[0] + 5 * step, spot[1] + top), 0.5), rgb(colours_for(base, "Russia").tint), within=8)
    x, y = geometry.anchor("war")
    chip = pixel(img, (x + 4 * step, y + 5.5 + top), 0.5)  # below the letter: at half size it fills the chip
    russia, land = rgb(colours_for(base, "Russia").strong), rgb(LAND)
    assert sum(abs(a - b) for a, b in zip(chip, russia, strict=True)) < sum(
        abs(a - b) for a, b in zip(chip, land, strict=True)
    )
