"""PNG pictures that reuse the board's cached raster.

Rasterising the whole board costs most of a PNG's time, and the board is the same in every picture. So the board
(water, land, borders, names, board captions) is rasterised once per layout and scale and kept; each picture
then rasterises only what the position adds: the owners' tints, multiplied into the cached board (a multiplier
that turns the plain land colour into the tint leaves borders and names dark, as they are drawn over the tint in
the SVG), then the marks, units and arrows laid over. The result matches `draw_svg`'s picture.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from judge.picture.draw import Scene
from judge.picture.png import QUALITY, encode

_BOARDS: OrderedDict[tuple[object, ...], Any] = OrderedDict()
_LOCK = threading.Lock()
KEPT = 8
"""board rasters kept (a judge draws a handful of boards at a few sizes)"""


def _load(svg: str, scale: float) -> Any:
    import pyvips

    return pyvips.Image.svgload_buffer(svg.encode("utf-8"), scale=scale)


def board_raster(scene: Scene, scale: float) -> Any:
    """The board alone, on white, for this geometry, terrain, layout and scale: from the cache when it is there.
    The boards' captions are not in it (`scene_image` writes them with the position): one board of several drawn
    alone is then the same raster whichever board it is, painted once for all seven of a Heptadiplomacy mail."""
    plan = scene.plan
    key = (
        id(scene.geometry),
        scene.base,
        plan.width,
        plan.height,
        tuple((p.dx, p.dy) for p in plan.panels.values()),
        scale,
    )
    with _LOCK:
        found = _BOARDS.get(key)
        if found is not None:
            _BOARDS.move_to_end(key)
            return found
    svg = "".join([scene.header(), scene.base.defs, scene.under(), scene.over(captions=False), "</svg>"])
    image = _load(svg, scale).flatten(background=[255, 255, 255]).copy_memory()
    with _LOCK:  # a judge may draw from several threads: the cache is shared
        _BOARDS[key] = image
        while len(_BOARDS) > KEPT:
            _BOARDS.popitem(last=False)
    return image


def scene_to_png(scene: Scene, scale: float = 1.0, palette: bool = False, quality: int = QUALITY) -> bytes:
    """The scene as PNG: the cached board, the tints multiplied in, the rest laid over."""
    return encode(scene_image(scene, scale), palette, quality)


def scene_image(scene: Scene, scale: float = 1.0) -> Any:
    """The scene as a libvips image (RGB, on white): the cached board, the tints multiplied in, the rest over.
    Both layers go on in one composite, and the board being opaque, so is the result: its alpha is dropped, not
    flattened (a third less time than two composites and a flatten, the same pixels within one level)."""
    image = board_raster(scene, scale)
    layers, modes = [], []
    tints = scene.tints(inline=True)
    if tints:
        layers.append(_load(scene.layer(tints), scale))
        modes.append("multiply")
    top = scene.captions() + scene.top()
    if top:
        layers.append(_load(scene.layer(top), scale))
        modes.append("over")
    if not layers:
        return image
    return image.composite(layers, modes).extract_band(0, n=3)
