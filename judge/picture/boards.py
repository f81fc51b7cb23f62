"""A variant of several boards in mail: one picture per board, readable and light.

Heptadiplomacy's seven boards side by side in one PNG gave about 590 pixels a board and names of about 6 pixels
(unreadable), and a mail of about 900 KB. Every player holds a power on every board, so no board is anyone's
"own": each board is a picture of its own, 816 pixels across (`BOARD_SCALE`), its names written at 13 map units
so that they come out at 9 pixels, each with its legend naming the nation every player holds there, and each a
palette PNG (png.py) of about 53 KB: seven within the 400 KB a results mail may weigh. The SVG of all seven
boards (`draw_svg`) stays for a browser, which zooms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from judge.picture.command import Drawing, render
from judge.picture.layout import copies_of
from judge.picture.png import QUALITY

BOARD_SCALE = 0.7
"""PNG pixels per map unit of one board of several"""
BOARD_LABEL = 13.0
"""names in map units on such a board: 9 pixels at `BOARD_SCALE`"""


MAIL_BUDGET = 400 * 1024
"""what the pictures of one results mail may weigh together"""
QUALITIES = (QUALITY, 55, 35)
"""the quantiser's quality, tried in turn until the boards fit `MAIL_BUDGET` (a crowded position takes more)"""


def board_png(picture: Drawing, number: int, sides: Mapping[str, Sequence[str]] | None = None,
              quality: int = QUALITY) -> bytes:  # fmt: skip
    """One board of several as a results mail carries it."""
    return render(picture, "png", only_board=number, scale=BOARD_SCALE, sides=sides, label_size=BOARD_LABEL,
                  palette_png=True, quality=quality)  # fmt: skip


def board_pngs(picture: Drawing, sides: Mapping[str, Sequence[str]] | None = None) -> list[tuple[int, bytes]]:
    """(board number, palette PNG) for each board of a variant of several boards, together within
    `MAIL_BUDGET` where the lowest quality allows; [] for a single board. The boards are drawn on two threads:
    libvips paints and quantises without holding the interpreter, so two cores draw seven boards in a little
    more than half the time."""
    numbers = copies_of(picture.board)
    pngs: list[bytes] = []
    with ThreadPoolExecutor(max_workers=2) as pool:
        for quality in QUALITIES:
            pngs = list(pool.map(partial(board_png, picture, sides=sides, quality=quality), numbers))
            if sum(len(png) for png in pngs) <= MAIL_BUDGET:
                break
    return list(zip(numbers, pngs, strict=True))
