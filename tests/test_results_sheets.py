"""Results mails as the zines printed them: each template pinned by a golden file (see the `golden` fixture)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from judge.contract.adjudicate import run_case
from judge.engine.reasons import PartlyCut, RetreatClash, UnitName, VoidSupport, WasDislodged, text_of
from judge.render import render_results
from judge.render.annotations import annotate, marks_for


def _units(*triples: tuple[str, str, str]) -> list[dict[str, str]]:
    return [{"power": p, "unit": u, "at": a} for p, u, a in triples]


def _case(
    variant: str, phase: tuple[str, int, str], units: list[dict[str, str]], orders: dict[str, list[str]], **more: Any
) -> dict[str, Any]:
    season, year, kind = phase
    return {
        "variant": variant,
        "phase": {"season": season, "year": year, "type": kind},
        "units": units,
        "orders": orders,
        **more,
    }


STANDARD_FALL = _case(
    "standard",
    ("Fall", 1901, "Movement"),
    _units(
        ("England", "F", "nth"),
        ("England", "A", "yor"),
        ("England", "F", "lon"),
        ("France", "F", "eng"),
        ("France", "A", "bre"),
        ("Germany", "F", "hol"),
        ("Germany", "F", "hel"),
        ("Germany", "A", "ruh"),
    ),
    {
        "England": ["F nth C A yor-nwy", "A yor-nwy", "F lon S F nth"],
        "France": ["F eng-lon", "A bre-pic", "A mun-ber"],
        "Germany": ["F hel-nth", "F hol S F hel-nth", "A ruh-bel"],
    },
)

STANDARD_RETREAT = _case(
    "standard",
    ("Fall", 1901, "Retreat"),
    _units(("England", "F", "edi"), ("Germany", "F", "nth"), ("Germany", "A", "bur"), ("Germany", "A", "kie")),
    {"England": ["F nwg R nwy"], "Germany": ["A ruh R bel"], "France": ["A pic R bel"]},
    dislodged=[
        {"power": "England", "unit": "F", "at": "nwg", "attacker_from": "bar"},
        {"power": "France", "unit": "A", "at": "pic", "attacker_from": "bur"},
        {"power": "Germany", "unit": "A", "at": "ruh", "attacker_from": "mun"},
        {"power": "Russia", "unit": "A", "at": "war", "attacker_from": "gal"},
    ],
    supply_centers={"England": ["edi", "lon", "lvp"], "Germany": ["ber", "kie", "mun", "hol"], "France": ["par"]},
)

STANDARD_WINTER = _case(
    "standard",
    ("Winter", 1901, "Adjustment"),
    _units(
        ("England", "F", "nth"),
        ("England", "F", "nwy"),
        ("Russia", "A", "war"),
        ("Russia", "F", "sev"),
        ("Russia", "A", "ukr"),
    ),
    {"England": ["Build F lon", "Build A edi"]},
    supply_centers={"England": ["edi", "lon", "lvp", "nwy", "bel"], "Russia": ["war", "mos"]},
)

MULTIPLOMACY_PARTIAL_CUT = _case(
    "multiplomacy",
    ("Fall", 1901, "Movement"),
    _units(
        ("England", "F", "nth"),
        ("England", "F", "nth"),
        ("England", "F", "nth"),
        ("England", "F", "lon"),
        ("France", "F", "eng"),
        ("France", "F", "bel"),
        ("Germany", "F", "hel"),
    ),
    {"England": ["3 F Nth S F Lon"], "France": ["F Eng-Lon", "F Bel-Nth"], "Germany": ["F Hel S F Bel-Nth"]},
)

MULTIPLICITY_DIE_ROLL = _case(
    "multiplicity1",
    ("Spring", 1901, "Movement"),
    _units(("France", "2A", "bur"), ("France", "A", "par"), ("France", "A", "mar"), ("Germany", "A", "mun")),
    {"France": ["A Bur S A Par", "A Bur S A Mar"], "Germany": ["A Mun-Bur"]},
    seed=3,
)

SHEETS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "standard_fall_movement": (
        STANDARD_FALL,
        {
            "deadline": datetime(2026, 11, 29, 20, 0, tzinfo=UTC),
            "played_deadline": datetime(2026, 11, 27, 20, 0, tzinfo=UTC),
            "late": ["Italy"],
            "note": "Press is grey from now on.",
        },
    ),
    "standard_fall_retreat": (
        STANDARD_RETREAT,
        {
            "deadline": datetime(2026, 12, 1, 20, 0, tzinfo=UTC),
            "played_deadline": datetime(2026, 11, 29, 20, 0, tzinfo=UTC),
        },
    ),
    "standard_winter_adjustment": (STANDARD_WINTER, {"late": ["Russia"]}),
    "multiplomacy_partial_cut": (MULTIPLOMACY_PARTIAL_CUT, {}),
    "multiplicity1_die_roll": (MULTIPLICITY_DIE_ROLL, {"deadline": datetime(2026, 11, 29, 20, 0, tzinfo=UTC)}),
    "standard_fall_movement_njudge": (
        STANDARD_FALL,
        {"deadline": datetime(2026, 11, 29, 20, 0, tzinfo=UTC), "style": {"orders": "njudge", "names": "full"}},
    ),
    "standard_fall_retreat_njudge": (STANDARD_RETREAT, {"style": {"orders": "njudge", "names": "full"}}),
    "standard_winter_adjustment_njudge": (STANDARD_WINTER, {"style": {"orders": "njudge", "names": "short"}}),
    "multiplicity1_die_roll_njudge": (MULTIPLICITY_DIE_ROLL, {"style": {"orders": "njudge", "names": "full"}}),
}


def _sheet(name: str) -> str:
    case, context = SHEETS[name]
    outcome = run_case(case)
    return render_results("zine", outcome, outcome["next_phase"], judge="EXMP", **context)


@pytest.mark.parametrize("name", sorted(SHEETS))
def test_results_sheet_matches_its_golden_file(name: str, golden: Callable[[str, str], None]) -> None:
    golden(name, _sheet(name))


def test_results_open_with_njudge_header_lines_that_mappers_read() -> None:
    lines = _sheet("standard_fall_movement").splitlines()
    assert lines[0] == ":: Judge: EXMP  Game: Zine  Variant: Standard"
    assert lines[1] == ":: Deadline: F1901M Fri Nov 27 2026 20:00:00 +0000"  # njudge: the phase played (issue 45)
    assert ":: Phase: F1901M" in lines
    assert "Movement results for Fall of 1901.  (zine, F1901M)" in lines


def test_njudge_results_print_orders_as_njudge_mappers_read_them() -> None:
    """Issue 12, item 16: njudge's words and full names (`results.orders=njudge`, `results.names=full`); the zine
    marks stay."""
    text = _sheet("standard_fall_movement_njudge")
    assert "England:  Fleet North Sea CONVOY Army Yorkshire -> Norway.  (*dislodged*)" in text
    assert "England:  Fleet London SUPPORT Fleet North Sea.  (*cut*)" in text
    assert "France:   Fleet English Channel -> London.  (*bounce*)" in text
    assert "Germany:  Fleet Holland SUPPORT Fleet Heligoland Bight -> North Sea." in text
    assert "England:  Fleet North Sea (attacked from Heligoland Bight) can retreat to Denmark" in text


def test_njudge_results_write_builds_and_retreats_as_njudge_does() -> None:
    assert "England:  Builds a fleet in Lon." in _sheet("standard_winter_adjustment_njudge")
    assert "Russia:   Removes the army in Ukr.  (*unordered*)" in _sheet("standard_winter_adjustment_njudge")
    retreats = _sheet("standard_fall_retreat_njudge")
    assert "England:  Fleet Norwegian Sea -> Norway." in retreats
    assert "Russia:   Army Warsaw DISBAND.  (*unordered*)" in retreats


def test_njudge_results_keep_the_multi_unit_forms() -> None:
    """A Multiplicity `2A` stays `2A` in njudge's lines; only a single army or fleet is spelt out."""
    case = _case(
        "multiplicity1",
        ("Spring", 1901, "Movement"),
        _units(("France", "2A", "bur"), ("France", "A/F", "gol"), ("Germany", "A", "mun")),
        {"France": ["2A Bur-Pic", "A/F Gol S 2A Bur-Pic"], "Germany": ["A Mun H"]},
    )
    outcome = run_case(case)
    style = {"orders": "njudge", "names": "full"}
    text = render_results("zine", outcome, outcome["next_phase"], judge="EXMP", style=style)
    assert "France:   2A Burgundy -> Picardy." in text
    assert "France:   A/F Gulf of Lyon SUPPORT 2A Burgundy -> Picardy." in text
    assert "Germany:  Army Munich HOLD." in text


def test_every_failed_order_carries_the_zine_mark_for_why() -> None:
    text = _sheet("standard_fall_movement")
    assert "F Nth C A Yor - Nwy  (*dislodged*)" in text
    assert "A Yor - Nwy  (*no convoy*)" in text
    assert "F Lon S F Nth  (*cut*)" in text
    assert "F Eng - Lon  (*bounce*)" in text
    assert "A Mun - Ber  (*void*)" in text


def test_a_partly_cut_support_is_printed_as_the_part_that_stood_and_the_part_that_was_cut() -> None:
    cut = PartlyCut("F", "nth", "S F lon", 2, 1, (UnitName("France", "F", "bel"),), ("bel",))
    assert cut.text() == "partly cut: 2 F nth S F lon stands; 1 F nth S F lon was cut by France F bel from bel"
    lines = annotate(lambda count: f"{count or 3} F nth S F lon", "succeeds", [cut])
    assert [(line.order, line.marks) for line in lines] == [("2 F nth S F lon", ()), ("1 F nth S F lon", ("cut",))]
    assert lines[1].why == "by France F bel from bel"


def test_the_multiplicity_die_roll_is_shown_in_the_variants_own_words() -> None:
    text = _sheet("multiplicity1_die_roll")
    assert "The GM rolled" in text
    assert "which support in Bur is cut first: A Bur S A Par, then A Bur S A Mar" in text


def test_a_void_support_that_was_also_dislodged_carries_both_marks() -> None:
    reasons = [VoidSupport("bel", None, no_unit=True), WasDislodged("ruh", ("hol",))]
    assert text_of(reasons) == "void: no unit in bel; dislodged by the attack from hol"
    assert marks_for("fails", reasons) == ("void", "dislodged")


def test_a_bounced_retreat_is_marked_destroyed() -> None:
    clash = RetreatClash((UnitName("Germany", "A", "bur"),), "bel", 1, 1)
    assert clash.text() == "bounced with A bur; the unit is disbanded"
    assert marks_for("fails", [clash]) == ("bounce", "destroyed")
    text = _sheet("standard_fall_retreat")
    assert "A Pic R Bel  (*bounce*) (*destroyed*)" in text
    assert "A Ruh R Bel  (*bounce*) (*destroyed*)" in text


def test_an_unordered_unit_is_marked_as_such() -> None:
    assert marks_for("succeeds", [], ordered=False) == ("unordered",)


def test_a_multiplomacy_winner_is_announced_with_the_variants_victory_condition() -> None:
    outcome = {**run_case(MULTIPLOMACY_PARTIAL_CUT), "winner": ["France"]}
    text = render_results("zine", outcome, None)
    assert "France met Multiplomacy's victory condition (29 centres" in text
    gm_count = render_results("zine", outcome, None, options={"victory_centres": 20})
    assert "France met Multiplomacy's victory condition (20 centres" in gm_count  # the GM's count (issue 44 item 5)
    standard = {**run_case(STANDARD_FALL), "winner": ["Germany"]}
    assert "The game is over: Germany has won." in render_results("zine", standard, None)
