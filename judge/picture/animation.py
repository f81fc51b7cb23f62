"""The whole game as one animated picture: a frame for every phase, the position after it with its orders.

Why a GIF, not an APNG: the common mail readers that animate anything animate a GIF (Gmail, Apple Mail,
Thunderbird, Outlook on the web; Outlook for Windows shows its first frame), while Gmail and Outlook show an APNG
as a still picture of its first frame. A GIF has at most 256 colours a frame; a map has a few dozen flat ones, so
one palette, made once from the first and last frames, serves every frame, each mapped to it without dithering.
The GIF is written by Pillow: libvips' own GIF writer searches a palette for every frame, about 150 ms a frame
here, ten times Pillow's time with a palette given, which is what lets a 20-year game be drawn within seconds.

Each frame is the picture a results mail carries (the same `Scene`, painted over the board's cached raster,
raster.py), so `frame_svgs` gives the web view of a game the same frames as SVG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from io import BytesIO
from typing import Any

from judge.picture.command import Drawing, drawing
from judge.picture.draw import Scene, scene

ANIMATION_SCALE = 0.6
"""pixels per map unit of a frame (700 pixels across the standard board; the results mails carry the phases at
full size, this shows the game's flow)"""
DELAY_MS = 1500
"""how long a phase is shown"""
LAST_MS = 5000
"""and the last one"""


def history(variant: str, outcomes: Sequence[dict[str, Any]]) -> list[Drawing]:
    """Each outcome (`judge adjudicate`'s, in the order played) as a drawing of the position after its phase,
    its orders over it."""
    return [drawing(variant, outcome, with_orders=True) for outcome in outcomes]


def _scene(picture: Drawing, sides: Mapping[str, Sequence[str]] | None, only_board: int | None = None) -> Scene:
    return scene(
        picture.board, picture.geometry, picture.position, orders=picture.orders, title=picture.title,
        orders_phase=picture.orders_phase, sides=sides, rules=picture.rules, only_board=only_board,
    )  # fmt: skip


def frame_svgs(pictures: Sequence[Drawing], sides: Mapping[str, Sequence[str]] | None = None,
               only_board: int | None = None, names: bool = False) -> list[str]:  # fmt: skip
    """The frames as SVG documents (a web view shows them one by one); on a board of copies, `only_board` draws
    that copy alone (a Heptadiplomacy page shows one board at a time); `names`: each province's name on hover."""
    return [_scene(p, sides, only_board).svg(names) for p in pictures]


def animate(pictures: Sequence[Drawing], sides: Mapping[str, Sequence[str]] | None = None, *,
            scale: float | None = None, delay_ms: int = DELAY_MS) -> bytes:  # fmt: skip
    """The frames as an animated GIF that plays over and over, the last phase shown longest."""
    from PIL import Image

    from judge.picture.raster import scene_image

    if not pictures:
        raise ValueError("no phase to draw")
    images: list[Any] = []
    for picture in pictures:
        frame = _scene(picture, sides)
        size = scale if scale is not None else min(ANIMATION_SCALE, 1600 / frame.plan.width)
        images.append(scene_image(frame, size))
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    frames = []
    for image in images:
        if (image.width, image.height) != (width, height):
            image = image.gravity("north-west", width, height, extend="white")
        frames.append(Image.frombuffer("RGB", (width, height), image.write_to_memory(), "raw", "RGB", 0, 1))
    sample = Image.new("RGB", (width, height * 2))
    sample.paste(frames[0], (0, 0))
    sample.paste(frames[-1], (0, height))
    palette = sample.quantize(colors=255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    mapped = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out = BytesIO()
    durations = [delay_ms] * (len(mapped) - 1) + [LAST_MS]
    mapped[0].save(out, "GIF", save_all=True, append_images=mapped[1:], duration=durations, loop=0, optimize=False)
    return out.getvalue()


def history_gif(variant: str, outcomes: Sequence[dict[str, Any]], sides: Mapping[str, Sequence[str]] | None = None,
                *, scale: float | None = None) -> bytes:  # fmt: skip
    """`judge map draw VARIANT --history FILE` and `MAP game ALL`: the game's outcomes as one animated GIF, from
    the opening position (the variant's starting one, before the first phase played) to the last phase."""
    return animate([drawing(variant), *history(variant, outcomes)], sides, scale=scale)
