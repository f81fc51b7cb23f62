"""Draw the pictures of docs/images/: each variant's sample position with its orders (judge/picture/samples.py),
as a results mail carries them (palette PNGs at the mail's size, judge/picture/mailed.py and boards.py), board 1
of Heptadiplomacy under option B, and Hoplite Wars' starting position.

    .venv/bin/python tools/docs_pictures.py
"""

from __future__ import annotations

from pathlib import Path

from judge.board.geometry import load_geometry
from judge.picture import draw_png
from judge.picture.boards import BOARD_LABEL, BOARD_SCALE, LABEL_PIXELS
from judge.picture.command import drawing
from judge.picture.mailed import MAIL_QUALITY, MAIL_SCALE, mailed_png
from judge.picture.png import QUALITY
from judge.picture.samples import SAMPLES, sample
from judge.variants import get_variant

IMAGES = Path(__file__).resolve().parents[1] / "docs" / "images"
NAMES = {"hoplite": "hoplite-mid", "hepta": "hepta-board1"}
"""hoplite.png stays the starting position docs/variants/hoplite-map.md shows"""
OPTIONS = {"hepta": {"assignment": "b"}}
"""drawn with a player's colour on every board although he holds a different nation on each"""
MAILED = {"scale": MAIL_SCALE, "label_size": LABEL_PIXELS / MAIL_SCALE, "quality": MAIL_QUALITY}
"""a one-board map as a results mail carries it (judge/picture/mailed.py)"""
ONE_BOARD = {"hepta": {"only_board": 1, "scale": BOARD_SCALE, "label_size": BOARD_LABEL, "quality": QUALITY}}
"""one board of several as a results mail carries it (judge/picture/boards.py)"""


def main() -> None:
    for name in SAMPLES:
        described = get_variant(name)
        s = sample(name)
        rules = described.rules({**(SAMPLES[name].get("options") or {}), **OPTIONS.get(name, {})})
        more = ONE_BOARD.get(name, MAILED)
        png = draw_png(
            rules.board, load_geometry(described.map_name), s.position, orders=s.outcome.results,
            title=f"{described.title}: {described.phase_name(s.position.phase)}", rules=rules, palette_png=True,
            **more,  # type: ignore[arg-type]
        )  # fmt: skip
        _write(IMAGES / f"{NAMES.get(name, name)}.png", png)
    hoplite = drawing("hoplite")  # the starting position docs/variants/hoplite-map.md shows
    _write(IMAGES / "hoplite.png", mailed_png(hoplite))


def _write(path: Path, png: bytes) -> None:
    path.write_bytes(png)
    print(f"{path.relative_to(IMAGES.parents[1])}: {len(png) // 1024} KB")


if __name__ == "__main__":
    main()
