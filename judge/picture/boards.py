"""A variant of several boards in mail: one picture per board, readable and light.

Heptadiplomacy's seven boards side by side in one PNG gave about 590 pixels a board and names of about 6 pixels
(unreadable), and a mail of about 900 KB. Every player holds a power on every board, so no board is anyone's
"own": each board is a picture of its own, 583 pixels across (`BOARD_SCALE`, which a mail reader shows whole),
its names written at 18 map units so that they come out at 9 pixels, each with its legend naming the nation every
player holds there, and each a palette PNG (png.py) of about 38 KB; where seven of them would make the mail
heavier than the 400 KB a results mail may weigh on the wire (base64 adds a third), they are drawn smaller, their
names still 9 pixels high. The SVG of all seven boards (`draw_svg`) stays for a browser, which zooms.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from judge.picture.command import Drawing, render
from judge.picture.layout import copies_of
from judge.picture.png import QUALITY

BOARD_SCALE = 0.5
"""PNG pixels per map unit of one board of several, where the mail allows (`board_pngs`): the largest scale at
which seven boards of a usual position fit the mail, so that one drawing of each board does (at 0.7, 816 pixels,
they never fit and every mail drew its seven boards twice)"""
LABEL_PIXELS = 9.0
"""names on such a board, in pixels, whatever the scale"""
BOARD_LABEL = LABEL_PIXELS / BOARD_SCALE
"""names in map units at `BOARD_SCALE`"""
SMALLEST_SCALE = 0.45


MAIL_BUDGET = 400 * 1024
"""what a results mail may weigh on the wire, its text and headers and its pictures in base64 together"""
PICTURE_BUDGET = (MAIL_BUDGET - 16 * 1024) * 3 // 4
"""what its pictures may weigh as files: base64 writes 4 bytes for 3, and 16 KB are left for the text"""
QUALITIES = (QUALITY, 55, 35)
"""the quantiser's quality, tried in turn at the smallest scale (a crowded position takes more)"""


def board_png(picture: Drawing, number: int, sides: Mapping[str, Sequence[str]] | None = None,
              quality: int = QUALITY, scale: float = BOARD_SCALE) -> bytes:  # fmt: skip
    """One board of several as a results mail carries it, its names `LABEL_PIXELS` high at any scale."""
    return render(picture, "png", only_board=number, scale=scale, sides=sides, label_size=LABEL_PIXELS / scale,
                  palette_png=True, quality=quality)  # fmt: skip


def board_pngs(picture: Drawing, sides: Mapping[str, Sequence[str]] | None = None,
               only: Collection[int] | None = None) -> list[tuple[int, bytes]]:  # fmt: skip
    """(board number, palette PNG) for each board of a variant of several boards, together within
    `PICTURE_BUDGET`, so that the mail stays within `MAIL_BUDGET`; [] for a single board. The boards are drawn at
    `BOARD_SCALE` where they fit (a usual position: one drawing a board), else smaller -- a palette PNG of a map
    weighs about in proportion to its scale, so the next scale is worked out from what the last weighed -- with
    names of `LABEL_PIXELS` at every scale; at the smallest scale the quantiser's quality steps down. The board
    itself is painted once for the seven (raster.py). The boards are drawn on two threads: libvips paints and
    quantises without holding the interpreter, so two cores draw seven boards in a little more than half the
    time. `only`: those boards alone (a PREVIEW's: the boards its orders are on), where some of them are boards.
    """
    numbers = copies_of(picture.board)
    if only is not None and set(only) & set(numbers):
        numbers = [n for n in numbers if n in only]
    if not numbers:
        return []
    pngs: list[bytes] = []
    scale = BOARD_SCALE
    with ThreadPoolExecutor(max_workers=2) as pool:
        while True:
            pngs = list(pool.map(partial(board_png, picture, sides=sides, scale=scale), numbers))
            weight = sum(len(png) for png in pngs)
            if weight <= PICTURE_BUDGET or scale <= SMALLEST_SCALE:
                break
            scale = max(SMALLEST_SCALE, min(scale * 0.92, scale * PICTURE_BUDGET / weight * 0.97))
        for quality in QUALITIES[1:]:
            if sum(len(png) for png in pngs) <= PICTURE_BUDGET:
                break
            pngs = list(pool.map(partial(board_png, picture, sides=sides, scale=scale, quality=quality), numbers))
    return list(zip(numbers, pngs, strict=True))
