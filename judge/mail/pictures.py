"""Map pictures in mail: the map after a phase on every results mail, and the MAP command's answer.

The text part stays the zine text; the picture is a PNG attachment, which every mail reader shows (inline SVG
in an HTML part is stripped by the common web mail readers). A picture is drawn once per phase and attached to
every copy; players who would rather not have it say `SET PICTURES OFF`.

`map_parts` is what a results mail attaches: one palette PNG for a map of one board, 792 pixels across the
standard board (judge/picture/mailed.py: the size a mail reader shows, about 60 KB), one palette PNG per board for
a variant of several (Heptadiplomacy: seven, about 38 KB each; judge/picture/boards.py); names of 9 pixels.
`animation_part` is what `MAP game ALL` mails: the whole game as an animated GIF (judge/picture/animation.py).
Who holds which power comes in as `sides` (player -> powers), so that every player has one colour on every
board; without it, the position's own sides or the variant's fixed ones (Hoplite Wars' Major and Minor).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from email.message import EmailMessage
from typing import Any

from judge.board.copies import board_of
from judge.board.geometry import GeometryError
from judge.contract import CaseError
from judge.mail.policies import WRITING
from judge.picture.animation import history_gif
from judge.picture.boards import board_pngs
from judge.picture.command import drawing
from judge.picture.mailed import mailed_png

log = logging.getLogger(__name__)

Sides = Mapping[str, Sequence[str]]
CANNOT = (CaseError, GeometryError, KeyError, ValueError, OSError)
"""what leaves a mail without its picture rather than stopping it"""


def map_png(variant: str, data: dict[str, Any], with_orders: bool = True, sides: Sides | None = None) -> bytes | None:
    """The map of a stored position (a case) or of the position after a phase (an outcome, with its orders as
    arrows), or None where it cannot be drawn (a map without geometry): a missing picture never stops a mail."""
    try:
        return mailed_png(drawing(variant, data, with_orders=with_orders), sides)
    except CANNOT:
        log.warning("no map picture for a %s position", variant, exc_info=True)
        return None


def map_files(variant: str, data: dict[str, Any], stem: str, with_orders: bool = True,
              sides: Sides | None = None, at: Sequence[str] | None = None) -> list[tuple[str, bytes]]:  # fmt: skip
    """The pictures of a position or a phase, by file name: `stem.png` for one board; `stem-board1.png` ... for
    several, one per board (`at`: only the board most of these places are on, as a PREVIEW attaches: issue 40,
    seven boards made a 368 KB reply, where one board's picture keeps it under 64 KB). [] where nothing can be
    drawn."""
    try:
        picture = drawing(variant, data, with_orders=with_orders)
        ranked = Counter(n for n in map(board_of, at or ()) if n is not None).most_common(1)
        boards = board_pngs(picture, sides, None if at is None else {n for n, _ in ranked})
        if not boards:
            return [(f"{stem}.png", mailed_png(picture, sides))]
    except CANNOT:
        log.warning("no map picture for a %s position", variant, exc_info=True)
        return []
    return [(f"{stem}-board{number}.png", png) for number, png in boards]


def map_parts(variant: str, data: dict[str, Any], stem: str, with_orders: bool = True,
              sides: Sides | None = None) -> list[EmailMessage]:  # fmt: skip
    """The pictures a results mail attaches (`map_files`), each a part made once for every copy."""
    return [map_part(png, name) for name, png in map_files(variant, data, stem, with_orders, sides)]


def animation_gif(variant: str, outcomes: Sequence[dict[str, Any]], sides: Sides | None = None) -> bytes | None:
    """`MAP game ALL`: every phase played (its outcome, in order) as one animated GIF, or None where it cannot be
    drawn."""
    try:
        return history_gif(variant, outcomes, sides)
    except CANNOT:
        log.warning("no animation for a %s game", variant, exc_info=True)
        return None


def animation_part(variant: str, outcomes: Sequence[dict[str, Any]], filename: str,
                   sides: Sides | None = None) -> EmailMessage | None:  # fmt: skip
    """The animation (`animation_gif`) as an attachment part."""
    gif = animation_gif(variant, outcomes, sides)
    return None if gif is None else map_part(gif, filename, subtype="gif")


def attach_map(message: EmailMessage, picture: bytes, filename: str) -> None:
    """Add a picture to a mail as an attachment after its text (a PNG, or the animation's GIF by its name)."""
    subtype = "gif" if filename.endswith(".gif") else "png"
    message.add_attachment(picture, maintype="image", subtype=subtype, filename=filename)


def map_part(png: bytes, filename: str, subtype: str = "png") -> EmailMessage:
    """The picture as the attachment part `attach_map` adds, made once to go into every copy of a results mail
    (`message.make_mixed()`, then `message.attach(part)`): encoded once, not once a copy."""
    part = EmailMessage(policy=WRITING)
    part.set_content(png, maintype="image", subtype=subtype, filename=filename)
    if "content-disposition" not in part:
        part["Content-Disposition"] = "attachment"
    return part
