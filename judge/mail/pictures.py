"""Map pictures in mail: the map after a phase on every results mail, and the MAP command's answer.

The text part stays the zine text; the picture is a PNG attachment, which every mail reader shows (inline SVG
in an HTML part is stripped by the common web mail readers). A picture is drawn once per phase and attached to
every copy; players who would rather not have it say `SET PICTURES OFF`.
"""

from __future__ import annotations

import logging
from email.message import EmailMessage
from typing import Any

from judge.board.geometry import GeometryError
from judge.contract import CaseError
from judge.mail.policies import WRITING
from judge.picture.command import drawing, render

log = logging.getLogger(__name__)


def map_png(variant: str, data: dict[str, Any], with_orders: bool = True) -> bytes | None:
    """The map of a stored position (a case) or of the position after a phase (an outcome, with its orders as
    arrows), or None where it cannot be drawn (a map without geometry): a missing picture never stops a mail."""
    try:
        return render(drawing(variant, data, with_orders=with_orders), "png")
    except (CaseError, GeometryError, KeyError, ValueError, OSError):
        log.warning("no map picture for a %s position", variant, exc_info=True)
        return None


def attach_map(message: EmailMessage, png: bytes, filename: str) -> None:
    """Add the picture to a mail as a PNG attachment, after its text."""
    message.add_attachment(png, maintype="image", subtype="png", filename=filename)


def map_part(png: bytes, filename: str) -> EmailMessage:
    """The picture as the attachment part `attach_map` adds, made once to go into every copy of a results mail
    (`message.make_mixed()`, then `message.attach(part)`): encoded once, not once a copy."""
    part = EmailMessage(policy=WRITING)
    part.set_content(png, maintype="image", subtype="png", filename=filename)
    if "content-disposition" not in part:
        part["Content-Disposition"] = "attachment"
    return part
