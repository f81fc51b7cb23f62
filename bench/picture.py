"""Map pictures: drawing a standard position and a seven-board (Heptadiplomacy) position, as SVG and as PNG.

Issue 13's targets: a standard position under 50 ms, a seven-board position under 300 ms. Each figure is the
median of `rounds` drawings after one that fills the caches (the board's static layer, the fonts), and the best
one beside it, since this two-core machine is shared and single drawings wander.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

from judge.board.geometry import load_geometry
from judge.picture import draw_png, draw_svg
from judge.picture.samples import sample
from judge.variants import get_variant

TARGETS = {"standard": 0.050, "seven boards": 0.300}


def _timed(draw: Callable[[], object], rounds: int) -> tuple[float, float]:
    draw()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        draw()
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def picture_benchmark(rounds: int = 15) -> None:
    standard = sample("standard")
    hepta = get_variant("hepta")
    seven_board, seven_position = hepta.rules().board, hepta.starting_position()
    geometry = load_geometry("standard")
    cases = {
        "standard": (standard.rules.board, standard.position, standard.outcome.results),
        "seven boards": (seven_board, seven_position, None),
    }
    print(f"pictures: median (best) of {rounds} drawings")
    title = "Fall 1901 Movement"
    for name, (board, position, orders) in cases.items():
        svg = _timed(partial(draw_svg, board, geometry, position, orders=orders, title=title), rounds)
        png = _timed(partial(draw_png, board, geometry, position, orders=orders, title=title), rounds)
        what = f"{len(position.units)} units" + (f", {len(orders)} orders" if orders else "")
        verdict = "within" if png[0] < TARGETS[name] else "OVER"
        print(
            f"  {name:13} ({what:19}) SVG {svg[0] * 1000:6.1f} ms ({svg[1] * 1000:5.1f})  "
            f"PNG {png[0] * 1000:6.1f} ms ({png[1] * 1000:5.1f})  {verdict} the {TARGETS[name] * 1000:.0f} ms target"
        )
