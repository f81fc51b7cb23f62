"""`judge demo`: a scripted game by real mail through the SMTP intake, the clock moved past each deadline."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.cli import main
from judge.demo import run_demo

pytestmark = pytest.mark.slow  # whole games by mail (make test-fast skips them)


def _demo(variant: str, phases: int, site: Path | None = None) -> str:
    said: list[str] = []
    assert run_demo(variant, phases=phases, seed=1, say=said.append, site=site) == 0
    return "\n".join(said)


def test_the_demo_plays_phases_by_mail_and_prints_every_results_mail() -> None:
    text = _demo("standard", 4)
    assert "--- the judge answers gm@demo.example:" in text
    assert "Game demo (standard) created; you are its GM." in text
    assert [line for line in text.splitlines() if line.startswith(":: Phase:")] == [
        ":: Phase: S1901M",
        ":: Phase: F1901M",
        ":: Phase: F1901B",  # njudge: the adjustments are the Fall's B phase (issue 45)
        ":: Phase: S1902M",
    ]


def test_the_demo_ends_by_exporting_its_games_pages_and_says_where_to_open_them(tmp_path: Path) -> None:
    text = _demo("standard", 2, site=tmp_path / "site")
    page = tmp_path / "site" / "games" / "demo" / "index.html"
    assert f"open {page.resolve().as_uri()} in a browser" in text
    html = page.read_text(encoding="utf-8")
    assert 'href="phases/1.html"' in html and (tmp_path / "site" / "games" / "demo" / "frames" / "1.svg").is_file()
    assert "@demo.example" not in html


def test_the_power_that_misses_a_deadline_is_processed_by_the_scheduler_and_named_late() -> None:
    text = _demo("standard", 2)
    assert "(Turkey sends no orders for Fall 1901 Movement.)" in text
    assert "past the deadline" in text
    assert "No orders were received from Turkey." in text
    sheet = text.split(":: Phase: F1901M", 1)[1].split("=" * 78, 1)[0]
    turkey = [line for line in sheet.splitlines() if line.startswith("Turkey:   ") and " H " in line + " "]
    assert turkey and all(line.endswith("(*unordered*)") for line in turkey)


@pytest.mark.parametrize("variant", ["multiplomacy", "multiplicity2"])
def test_the_demo_plays_the_multi_unit_variants_too(variant: str) -> None:
    text = _demo(variant, 2)
    assert f"Variant: {variant.capitalize()}" in text  # capitalised as njudge's strcap() (issue 45)
    assert text.count("results of") == 2


def test_an_unknown_variant_is_refused_with_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "nosuchvariant"]) == 2
    assert "nosuchvariant" in capsys.readouterr().err


def test_the_mad_demo_places_centres_then_units_and_atlantis_wanders() -> None:
    """Mad Diplomacy by mail: Spring 1900 the centres, Autumn 1900 the units of any strength, then Spring 1901,
    whose results tell where Atlantis went and by which rolls (rules 2, 3 and 9)."""
    text = _demo("mad", 3)
    assert [line for line in text.splitlines() if line.startswith(":: Phase:")] == [
        ":: Phase: S1900P",
        ":: Phase: F1900P",
        ":: Phase: S1901M",
    ]
    assert "Placement results for Spring of 1900." in text and "Placement results for Autumn of 1900." in text
    assert "Centre " in text and re.search(r"Build [2-9][AF] ", text)  # units of any strength
    assert "Atlantis: the GM rolled Swi " in text


def test_the_hoplite_demo_opens_with_the_builds_of_winter_451_bc() -> None:
    """Hoplite Wars by mail: the players choose their units in Winter 451 BC (rules 1 and 12), then Spring 450 BC;
    the centre chart adds each player's Major and Minor."""
    text = _demo("hoplite", 2)
    assert [line for line in text.splitlines() if line.startswith(":: Phase:")] == [
        ":: Phase: W451BCA",
        ":: Phase: S450BCM",
    ]
    assert "Adjustment results for Winter of 451 BC." in text
    assert (
        "Signed on to demo as Achea: you play Achea + Chalcis" in text and "Orders for Achea + Chalcis in demo" in text
    )
    assert "By player:" in text


def test_the_hepta_demo_orders_seven_boards_by_player() -> None:
    """CW Heptadiplomacy by mail: seven players, each ordering one country's seven board-nations (option A)."""
    text = _demo("hepta", 1)
    assert "7 players registered and joined" in text
    assert "Signed on to demo as Austria: you play Austria (1:Austria, 2:Austria" in text
    assert "Orders for Austria in demo" in text and "  7:Austria: " in text
    assert "1:England: F 1:Edi" in text  # the names column holds the longest name; places in zine case (issue 28)
