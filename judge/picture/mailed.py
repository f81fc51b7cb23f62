"""A map of one board as a results mail carries it: the size a mail reader shows, names of 9 pixels, a palette PNG.

A mail reader shows an attached picture at its own size, shrunk to the reading pane when wider (Thunderbird,
Apple Mail, Outlook; Gmail opens it at its size): about 600 to 800 pixels. At `judge map draw`'s 0.8 pixels a map
unit the standard board is 932 pixels across, which a pane of 800 shrinks to 0.69 a unit, its names from 7.2 to
6.2 pixels and blurred by the resampling. Drawn at `MAIL_SCALE` (0.68: 792 pixels) the picture fits an 800-pixel
pane as drawn, its names written at `LABEL_PIXELS` (9 pixels, as Heptadiplomacy's boards, judge/picture/boards.py)
are larger than before, and it has a third fewer pixels to paint and to mail.

A palette PNG (at most 256 colours, png.py) weighs a third of the full-colour one (the standard sample: 165 KiB
in full colour, 62 KiB as a palette PNG at 0.68), for the cost of about 2% of the pixels changing visibly (CIEDE2000
over 2.3), nearly all on the edges of lines and letters; at `MAIL_QUALITY` (90) the failed orders' red crosses
stay red, where at libimagequant's 75 they turn orange. Figures in docs/map-format.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from judge.picture.boards import LABEL_PIXELS
from judge.picture.command import Drawing, render

MAIL_SCALE = 0.68
"""PNG pixels per map unit of a one-board picture in mail: 792 pixels across the standard board"""
MAIL_QUALITY = 90
"""the quantiser's quality for it (png.py): the smallest at which every mark keeps its colour"""


def mailed_png(picture: Drawing, sides: Mapping[str, Sequence[str]] | None = None, palette: bool = True) -> bytes:
    """The picture at `MAIL_SCALE`, its names `LABEL_PIXELS` high, as a palette PNG (`palette`) or in full
    colour."""
    return render(picture, "png", scale=MAIL_SCALE, sides=sides, label_size=LABEL_PIXELS / MAIL_SCALE,
                  palette_png=palette, quality=MAIL_QUALITY)  # fmt: skip
