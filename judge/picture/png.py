"""SVG to PNG through libvips (`pyvips`, with the `pyvips-binary` wheel), which reads SVG with librsvg.

Why libvips: the wheel carries libvips with librsvg, cairo and pango built in, so a PNG needs no system library
(cairosvg needs libcairo installed beside it); libvips is a long-kept library (the one behind sharp), and on the
standard board it turns our SVG into a PNG in about a third of the time resvg-py's wheel takes (50 ms against
160 ms for 1200 x 1120 pixels on the judge's two-core machines), which is what the issue's speed targets ask.
Text takes the machine's fonts through fontconfig; without any font the names are missing and all else is drawn.
"""

from __future__ import annotations

from typing import Any

COMPRESSION = 3
"""zlib level: 3 takes a few milliseconds less than the default 6 for a file 4% larger (1 is a third larger)"""


def svg_to_png(svg: str, scale: float = 1.0, palette: bool = False, quality: int = 75) -> bytes:
    """The SVG rasterised, `scale` pixels per map unit, on white."""
    import pyvips  # imported here: a judge that never draws a PNG never loads libvips

    image: Any = pyvips.Image.svgload_buffer(svg.encode("utf-8"), scale=scale)
    if image.bands == 4:
        image = image.flatten(background=[255, 255, 255])
    return encode(image, palette, quality)


QUALITY = 75
"""libimagequant's quality (of 100) for a palette PNG: less loses small flat colours (a chip of 14 pixels turned
grey at 40)"""


def encode(image: Any, palette: bool = False, quality: int = QUALITY) -> bytes:
    """An image as PNG: full colour, or (`palette`) quantised to at most 256 colours by libvips' libimagequant,
    which keeps a map's few flat colours and its text and costs about a third of the bytes: what lets a
    results mail carry seven Heptadiplomacy boards within its 400 KB."""
    if palette:  # no dithering (flat colours stay flat and compress), the quickest search
        small: bytes = image.pngsave_buffer(compression=6, strip=True, palette=True, effort=1, dither=0, Q=quality)
        return small
    png: bytes = image.pngsave_buffer(compression=COMPRESSION, strip=True)
    return png
