"""The SVG as players' browsers show it: a real headless Chromium (Debian's `chromium`) opens the picture and
takes a screenshot, and the screenshot has the sea, the owners' colours and the units where the geometry puts
them. Skipped where Chromium is not installed, except under CI, which installs it."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import pyvips
from test_picture_png import close, open_spot, pixel, rgb  # the PNG tests' pixel helpers (tests/ is on the path)

from judge.board import load_map
from judge.board.geometry import load_geometry
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.picture import draw_svg
from judge.picture.layout import TITLE
from judge.picture.palette import SEA, colours_for

CHROMIUM = os.environ.get("JUDGE_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


def _screenshot(svg_file: Path, width: int, height: int, tmp_path: Path) -> Any:
    shot = tmp_path / "screenshot.png"
    subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--user-data-dir={tmp_path / 'profile'}",
            f"--window-size={width},{height}",
            f"--screenshot={shot}",
            svg_file.as_uri(),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return pyvips.Image.new_from_file(str(shot))


@pytest.mark.slow
def test_a_browser_shows_the_sea_the_owners_colours_and_the_units(tmp_path: Path) -> None:
    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    board, geometry = load_map("standard"), load_geometry("standard")
    units = (Force("France", ARMY, "par"), Force("England", FLEET, "nth"), Force("Turkey", FLEET, "bla"))
    position = Position(Phase("Fall", 1901, PhaseType.MOVEMENT), units, {"par": "France", "mos": "Russia"})
    svg_file = tmp_path / "map.svg"
    svg_file.write_text(draw_svg(board, geometry, position, title="Fall 1901 Movement"), encoding="utf-8")
    shot = _screenshot(svg_file, round(geometry.width), round(geometry.height + TITLE), tmp_path)
    assert close(pixel(shot, open_spot(geometry.outlines["nao"]), dy=TITLE), rgb(SEA))
    for province, owner in position.centres.items():
        spot = open_spot(geometry.outlines[province])
        assert close(pixel(shot, spot, dy=TITLE), rgb(colours_for(board, owner).tint)), province
    for force in units:
        x, y = geometry.anchor(force.at)
        chip = pixel(shot, (x - 4.5, y), dy=TITLE)
        assert close(chip, rgb(colours_for(board, force.power).strong), within=12), force.at
