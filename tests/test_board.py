"""The map format: the standard board's facts, and `judge map check` finding every kind of problem."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from judge.board import Terrain, load_map
from judge.board.loader import build_board, check_map_file, maps_dir
from judge.cli import main

STANDARD = maps_dir() / "standard.toml"


def _standard_data() -> dict[str, Any]:
    return tomllib.loads(STANDARD.read_text(encoding="utf-8"))


def test_standard_board_has_75_provinces_and_34_centres() -> None:
    board = load_map("standard")
    passable = [p for p in board.provinces.values() if p.terrain is not Terrain.IMPASSABLE]
    assert len(passable) == 75
    assert sum(1 for p in passable if p.is_sea) == 19
    assert len(board.supply_centres) == 34
    assert sum(len(p.home) for p in board.powers.values()) == 22


def test_switzerland_is_on_the_map_but_cannot_be_entered() -> None:
    board = load_map("standard")
    assert board.provinces["swi"].terrain is Terrain.IMPASSABLE
    assert "swi" not in board.army_adjacency["mun"]
    assert "swi" not in board.army_adjacency


def test_split_coasts_have_their_own_fleet_adjacency() -> None:
    board = load_map("standard")
    assert board.fleet_can_move("stp/nc", "bar")
    assert not board.fleet_can_move("stp/sc", "bar")
    assert board.fleet_coasts_reachable("mao", "spa") == ["spa/nc", "spa/sc"]
    assert board.fleet_coasts_reachable("gas", "spa") == ["spa/nc"]
    assert board.fleet_coasts_reachable("con", "bul") == ["bul/ec", "bul/sc"]


def test_armies_and_fleets_have_different_neighbours() -> None:
    board = load_map("standard")
    assert board.army_can_move("rom", "ven") and not board.fleet_can_move("rom", "ven")
    assert board.army_can_move("lvp", "yor") and not board.fleet_can_move("lvp", "yor")
    assert board.fleet_can_move("lvp", "nao")
    assert not board.fleet_can_move("cly", "iri")


def test_names_aliases_and_abbreviations_are_looked_up_without_regard_to_case() -> None:
    board = load_map("standard")
    assert board.lookup("North Sea") == "nth"
    assert board.lookup("MID") == "mao"
    assert board.lookup("nat") == "nao"
    assert board.lookup("st. petersburg") == "stp"
    assert board.lookup("stp/nc") == "stp/nc"
    assert board.lookup("Atlantis") is None
    assert board.lookup_power("eng") == "England"
    assert board.lookup_power("Austria-Hungary") == "Austria"


def test_the_standard_map_checks_clean() -> None:
    assert check_map_file(STANDARD) == []


def _problems_after(change: Any) -> list[str]:
    data = _standard_data()
    change(data)
    return build_board(data)[1]


def test_one_sided_adjacency_is_reported() -> None:
    problems = _problems_after(lambda d: d["provinces"]["mun"]["army"].append("par"))
    assert any("mun" in p and "par" in p and "not listed back" in p for p in problems)


def test_an_unknown_province_is_reported() -> None:
    problems = _problems_after(lambda d: d["provinces"]["mun"]["army"].append("atl"))
    assert any("unknown province 'atl'" in p for p in problems)


def test_a_fleet_route_to_a_split_coast_province_must_name_the_coast() -> None:
    def change(d: dict[str, Any]) -> None:
        d["provinces"]["bar"]["fleet"] = [t if t != "stp/nc" else "stp" for t in d["provinces"]["bar"]["fleet"]]

    assert any("must name a coast" in p for p in _problems_after(change))


def test_duplicate_aliases_are_reported() -> None:
    problems = _problems_after(lambda d: d["provinces"]["mun"].setdefault("aliases", []).append("London"))
    assert any("already used by lon" in p for p in problems)


def test_an_army_adjacency_into_the_sea_is_reported() -> None:
    def change(d: dict[str, Any]) -> None:
        d["provinces"]["lon"]["army"].append("nth")

    assert any("army adjacency names sea nth" in p for p in _problems_after(change))


def test_a_home_centre_that_is_not_a_centre_is_reported() -> None:
    problems = _problems_after(lambda d: d["powers"]["France"]["home"].append("pic"))
    assert any("pic is not a supply centre" in p for p in problems)


def test_victory_beyond_the_centre_count_is_reported() -> None:
    problems = _problems_after(lambda d: d["map"].update(victory_centres=40))
    assert any("victory_centres" in p for p in problems)


def test_map_check_command_prints_every_problem(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = STANDARD.read_text(encoding="utf-8").replace('terrain = "sea"', 'terrain = "ocean"', 1)
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    assert main(["map", "check", str(path)]) == 1
    assert "terrain must be one of" in capsys.readouterr().out
    assert main(["map", "check", str(STANDARD)]) == 0
