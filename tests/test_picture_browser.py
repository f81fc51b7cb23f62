"""The SVG as players' browsers show it: a real headless Chromium (Debian's `chromium`) opens the picture and takes a
screenshot, and the screenshot has the sea, the owners' colours and the units where the geometry puts them, and for
every variant's sample picture the legend's colours and a unit's. Skipped where Chromium is not installed, except
under CI, which installs it."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import pyvips
from test_picture_png import close, open_spot, pixel, rgb  # the PNG tests' pixel helpers (tests/ is on the path)

from judge.board import load_map
from judge.board.geometry import load_geometry
from judge.engine import ARMY, FLEET, Force, Phase, PhaseType, Position
from judge.picture import draw_svg
from judge.picture.draw import scene
from judge.picture.layout import TITLE, copies_of
from judge.picture.palette import SEA, colours_for
from judge.picture.samples import SAMPLES, sample
from judge.variants import get_variant

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


def _need_chromium() -> None:
    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_browser_shows_each_variants_picture_with_its_legend_and_units(name: str, tmp_path: Path) -> None:
    """Each variant's sample picture (Heptadiplomacy's board 1, as mailed) opened in Chromium: every side's
    swatch in the legend has the side's colour, and the units alone in their places stand in their powers'
    colours."""
    _need_chromium()
    s = sample(name)
    geometry = load_geometry(get_variant(name).map_name)
    only = 1 if copies_of(s.rules.board) else None
    picture = scene(s.rules.board, geometry, s.position, orders=s.outcome.results, title=name, rules=s.rules,
                    only_board=only)  # fmt: skip
    svg_file = tmp_path / f"{name}.svg"
    svg_file.write_text(picture.svg(), encoding="utf-8")
    shot = _screenshot(svg_file, round(picture.plan.width), round(picture.plan.height), tmp_path)
    swatches = re.findall(
        r'<rect class="lgs" x="([\d.]+)" y="([\d.]+)" width="18" height="10" rx="2" fill="(#\w+)"', picture.svg()
    )
    assert len(swatches) >= len(picture.entries)
    for x, y, fill in swatches:
        assert close(pixel(shot, (float(x) + 9, float(y) + 6)), rgb(fill), within=10), (name, fill)
    palette = picture.colours
    alone = [f for f in s.position.units if palette.of(f.power).hatch is None]
    counts = Counter(f.at for f in s.position.units)
    shown = []
    for force in alone:
        at = picture.plan.point(force.at)
        if counts[force.at] == 1 and at is not None:
            shown.append(close(pixel(shot, (at[0] - 4.5, at[1] + 4)), rgb(palette.of(force.power).strong), within=14))
    assert shown and sum(shown) >= len(shown) / 2, shown  # an order's line may cross a chip's spot
