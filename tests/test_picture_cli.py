"""`judge map draw VARIANT [--case FILE] [--orders] [-o FILE.svg|FILE.png]`: a variant's starting position, or a
contract case's or outcome's position, as a picture."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.cli import main
from judge.contract import run_case
from judge.picture.samples import SAMPLES

SVG = "{http://www.w3.org/2000/svg}"


def _texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_draws_a_variants_starting_position_as_svg_on_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["map", "draw", "standard"]) == 0
    svg = capsys.readouterr().out
    assert "Spring 1901 Movement" in _texts(svg)
    assert svg.count("<title>") >= 22 + 34  # 22 units and 34 centre marks


def test_writes_a_png_when_the_file_says_so(tmp_path: Path) -> None:
    out = tmp_path / "start.png"
    assert main(["map", "draw", "multiplomacy", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_draws_a_case_with_its_orders_adjudicated(tmp_path: Path) -> None:
    case = tmp_path / "case.json"
    case.write_text(json.dumps({"variant": "standard", **SAMPLES["standard"]}), encoding="utf-8")
    out = tmp_path / "case.svg"
    assert main(["map", "draw", "standard", "--case", str(case), "--orders", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "Fall 1901 Movement" in _texts(svg)
    assert '<g class="a of">' in svg and '<g class="a">' in svg  # failed and successful moves
    assert main(["map", "draw", "standard", "--case", str(case), "-o", str(out)]) == 0
    assert 'class="a' not in out.read_text(encoding="utf-8")  # without --orders, the position alone


def test_draws_an_outcome_as_the_position_after_its_phase(tmp_path: Path) -> None:
    outcome = run_case({"variant": "standard", **SAMPLES["standard"]})
    path = tmp_path / "outcome.json"
    path.write_text(json.dumps(outcome), encoding="utf-8")
    out = tmp_path / "after.svg"
    assert main(["map", "draw", "standard", "--case", str(path), "--orders", "-o", str(out)]) == 0
    svg = out.read_text(encoding="utf-8")
    assert "after Fall 1901 Movement" in _texts(svg)
    assert "France A" in svg and 'class="u dis"' in svg  # the army dislodged from Burgundy, beside it
    assert '<g class="a' in svg  # the phase's orders over the position they made


def test_draws_one_of_seven_boards(tmp_path: Path) -> None:
    out = tmp_path / "board5.svg"
    assert main(["map", "draw", "hepta", "--board", "5", "-o", str(out)]) == 0
    assert [t for t in _texts(out.read_text(encoding="utf-8")) if t.startswith("Board")] == ["Board 5"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["map", "draw", "nosuch"], "unknown variant"),
        (["map", "draw", "standard", "-o", "map.gif"], "must end in .svg or .png"),
        (["map", "draw", "hepta", "--board", "9"], "there is no board 9"),
    ],
)
def test_mistakes_are_explained_with_exit_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_a_malformed_case_is_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = tmp_path / "bad.json"
    case.write_text(json.dumps({"units": [{"power": "England", "unit": "F", "at": "paris-texas"}]}), encoding="utf-8")
    assert main(["map", "draw", "standard", "--case", str(case)]) == 2
    assert "unknown location" in capsys.readouterr().err
