"""The map pictures of a game's pages: the frames of its history (the same drawings as the map animation's,
`judge.picture.animation`), as SVG, each province's name on hover (`Scene.names`).

A processed phase never changes (a rollback replaces it, with a new time of processing), so each frame is kept by
game, phase and time of processing, and drawn once per process however often its page is read.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from functools import lru_cache

from judge.game.views import PublicPhase
from judge.picture.animation import frame_svgs, history
from judge.picture.command import drawing

KEPT = 512
"""frames kept (about 130 KB each for the standard map, so some 65 MB at most: a twenty-year game is 60 of them)"""

_frames: OrderedDict[tuple[str, int, datetime], str] = OrderedDict()
_lock = threading.Lock()


def phase_svg(game: str, variant: str, phase: PublicPhase) -> str:
    """The map after `phase`, its orders drawn over it."""
    key = (game, phase.index, phase.processed_at)
    with _lock:
        found = _frames.get(key)
        if found is not None:
            _frames.move_to_end(key)
            return found
    svg = frame_svgs(history(variant, [phase.outcome]), names=True)[0]
    with _lock:
        _frames[key] = svg
        while len(_frames) > KEPT:
            _frames.popitem(last=False)
    return svg


@lru_cache(maxsize=64)
def start_svg(variant: str) -> str:
    """The variant's starting position (the map of a game before its first phase is processed)."""
    return frame_svgs([drawing(variant)], names=True)[0]
