"""The map pictures of a game's pages: the frames of its history (the same drawings as the map animation's,
`judge.picture.animation`), as SVG, each province's name on hover (`Scene.names`).

A processed phase never changes (a rollback replaces it, with a new time of processing), so each frame is kept by
game, phase and time of processing, and drawn once per process however often its page is read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any

from judge.game.views import PublicPhase
from judge.picture.animation import frame_svgs, history
from judge.picture.command import drawing
from judge.picture.draw import side_colours
from judge.picture.palette import Palette

KEPT = 512
"""frames kept (about 130 KB each for the standard map, so some 65 MB at most: a twenty-year game is 60 of them)"""

_frames: OrderedDict[tuple[str, int, datetime, int | None], str] = OrderedDict()
_lock = threading.Lock()


def phase_svg(game: str, variant: str, phase: PublicPhase, board: int | None = None) -> str:
    """The map after `phase`, its orders drawn over it; on a board of copies (Heptadiplomacy's seven), `board`
    alone where given."""
    key = (game, phase.index, phase.processed_at, board)
    with _lock:
        found = _frames.get(key)
        if found is not None:
            _frames.move_to_end(key)
            return found
    svg = frame_svgs(history(variant, [phase.outcome]), only_board=board, names=True)[0]
    with _lock:
        _frames[key] = svg
        while len(_frames) > KEPT:
            _frames.popitem(last=False)
    return svg


@lru_cache(maxsize=64)
def start_svg(variant: str, board: int | None = None) -> str:
    """The variant's starting position (the map of a game before its first phase is processed); `board` alone
    where given."""
    return frame_svgs([drawing(variant)], only_board=board, names=True)[0]


def map_colours(variant: str, outcome: dict[str, Any] | None) -> Palette:
    """The colours of the game's map after the phase of `outcome` (None: the opening position), as its frame
    draws them: the centre chart's lines take them, so a side's line is its colour on the map."""
    picture = drawing(variant) if outcome is None else drawing(variant, outcome)
    return side_colours(picture.board, picture.position, picture.rules)


def side_colour(palette: Palette, powers: Sequence[str]) -> str:
    """The one rule for a side's colour on the pages -- the players' table, the chart's lines and its key read it
    here, with the palette the map was drawn with (`map_colours`), so a side has one colour on the map, in the
    table and in the chart: the colour of the lead power of the map's side that holds the side's first power (the
    power that side is named after, a Hoplite Major, else its first), solid (a Minor's stripes are the map's
    alone)."""
    first = powers[0]
    label = palette.side_of.get(first, first)
    held = dict(palette.sides).get(label, (first,))
    return palette.of(label if label in held else held[0]).strong


@lru_cache(maxsize=64)
def boards_of(variant: str) -> tuple[int, ...]:
    """The boards a variant's map is made of, each drawn on its own page picture (Heptadiplomacy's 1 to 7);
    empty for a single board."""
    from judge.picture.layout import copies_of
    from judge.variants import get_variant

    return tuple(copies_of(get_variant(variant).rules().board))
