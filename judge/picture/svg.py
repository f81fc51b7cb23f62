"""Writing SVG text: numbers as short as they can be, text escaped, paths from rings."""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape, quoteattr

from judge.board.planar import Ring

FONT = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif"


def num(value: float) -> str:
    """A coordinate to a tenth, without a trailing `.0` (SVG size and a stable golden file both gain)."""
    text = f"{value:.1f}"
    if text.endswith(".0"):
        text = text[:-2]
    return "0" if text == "-0" else text


def text(value: str) -> str:
    return escape(value)


def attr(value: str) -> str:
    """An attribute value with its quotes."""
    return quoteattr(value)


def path_data(rings: Iterable[Ring]) -> str:
    """`M x y L ... Z` for each ring (filled even-odd by whoever uses it)."""
    parts = []
    for ring in rings:
        first, *rest = ring
        parts.append(f"M{num(first[0])} {num(first[1])}L" + " ".join(f"{num(x)} {num(y)}" for x, y in rest) + "Z")
    return "".join(parts)
