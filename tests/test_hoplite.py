"""Hoplite Wars (Stephen Agar), with the Multiplicity II rules: rule numbers of the Hoplite Wars text (comments in
square brackets are Dylan O'Donnell's); rulings in docs/variants/hoplite.md; worked examples in
tests/variants/hoplite.json."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from judge.contract.adjudicate import CaseError, read_position, run_case
from judge.engine.phase import Phase, PhaseType
from judge.engine.supply import balances
from judge.variants import get_variant

WINTER_451 = {"season": "Winter", "year": -451, "type": "Adjustment"}
SPRING = {"season": "Spring", "year": -449, "type": "Movement"}
AUTUMN = {"season": "Autumn", "year": -449, "type": "Movement"}
WINTER = {"season": "Winter", "year": -449, "type": "Adjustment"}


def _case(phase: dict[str, Any], units: list[tuple[str, str, str]], orders: dict[str, list[str]], **more: Any) -> Any:
    case: dict[str, Any] = {
        "variant": "hoplite",
        "phase": phase,
        "units": [{"power": p, "unit": u, "at": at} for p, u, at in units],
        "orders": orders,
    }
    case.update(more)
    return run_case(case)


def _results(outcome: dict[str, Any]) -> dict[str, str]:
    return {row["input"]: row["result"] for row in outcome["orders"] if row["input"]}


def _units(outcome: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(u["power"], u["unit"], u["at"]) for u in outcome["units"]}


def _balance(units: list[dict[str, Any]], centres: dict[str, list[str]], state: Any = None) -> dict[str, int]:
    """What each power may build (above zero) or must remove, in half centres, with the units as a case lists
    them."""
    rules = get_variant("hoplite").rules()
    case = {"units": units, "supply_centers": centres, "state": state or {}}
    position = read_position(rules, case, Phase("Winter", -449, PhaseType.ADJUSTMENT))
    return balances(rules, position.centres, position.units, position.variant_state)


# --- the calendar and the opening (rules 1 and 12) -------------------------------------------------------


def test_initial_builds_in_winter_451_bc_then_spring_450_bc() -> None:
    """Rule 12: "Initial builds take place in Winter 451BC, the first Spring move being Spring 450BC"."""
    variant = get_variant("hoplite")
    assert variant.first_phase() == Phase("Winter", -451, PhaseType.ADJUSTMENT)
    assert variant.phase_name(Phase("Spring", -450, PhaseType.MOVEMENT)) == "Spring 450 BC Movement"
    assert variant.starting_position().units == ()


def test_the_opening_allows_multiples_garrisons_and_empty_home_centres() -> None:
    """Rule 1's examples: Athens 2F(Athens), A(Marathon), A(Anactorium); Sparta 2A(Sparta), G(Prasiae), G(Zarax),
    A(Elatea). Thoricus stays empty."""
    orders = {
        "Athens": ["Build 2F ath", "Build A mar"],
        "Anactorium": ["Build A ana"],
        "Sparta": ["Build 2A spa", "Build G pra", "Build G zar"],
        "Elatea": ["Build A ela"],
    }
    outcome = _case(WINTER_451, [], orders)
    assert set(_results(outcome).values()) == {"succeeds"}
    assert _units(outcome) == {
        ("Athens", "2F", "ath"),
        ("Athens", "A", "mar"),
        ("Anactorium", "A", "ana"),
        ("Sparta", "2A", "spa"),
        ("Sparta", "G", "pra"),
        ("Sparta", "G", "zar"),
        ("Elatea", "A", "ela"),
    }
    assert outcome["next_phase"] == {"season": "Spring", "year": -450, "type": "Movement"}


def test_a_minor_starts_with_a_single_unit_or_a_double_garrison() -> None:
    """Rule 1: "each Minor State must start the game with a single unit in it. [Or a double Garrison.]"."""
    outcome = _case(WINTER_451, [], {"Elatea": ["Build 2A ela"], "Anactorium": ["Build 2G ana"]})
    assert _results(outcome) == {"Build 2A ela": "illegal", "Build 2G ana": "succeeds"}


# --- centres (rules 2, 8, 9 and 13) ----------------------------------------------------------------------


def test_a_town_is_worth_half_a_city() -> None:
    """Rule 2: "a player would need to control two Towns to have the resources to build a single unit"."""
    board = get_variant("hoplite").rules().board
    cities = [p for p in board.provinces.values() if p.supply_centre and p.centre_kind == "city"]
    towns = [p for p in board.provinces.values() if p.supply_centre and p.centre_kind == "town"]
    assert (len(cities), len(towns)) == (29, 23)
    assert _balance([], {"Sparta": ["spa", "teg", "lep"]})["Sparta"] == 4  # 2 builds, in half centres
    assert _balance([], {"Sparta": ["teg"]})["Sparta"] == 1


def test_towns_change_hands_after_spring_and_cities_only_after_autumn() -> None:
    """Rule 8's example: A(Sparta)-Tegea in Spring, A(Tegea)-Lepreon in Autumn: Sparta holds both Towns."""
    spring = _case(SPRING, [("Sparta", "A", "spa"), ("Athens", "A", "pla")], {"Sparta": ["A spa - teg"]})
    assert "teg" in spring["supply_centers"]["Sparta"]
    autumn = run_case({**spring, "orders": {"Sparta": ["A teg - lep"]}, "phase": spring["next_phase"]})
    assert {"teg", "lep"} <= set(autumn["supply_centers"]["Sparta"])
    city = _case(SPRING, [("Athens", "A", "ath")], {"Athens": ["A ath - meg"]})
    assert "meg" not in city["supply_centers"].get("Athens", [])


def test_builds_in_any_controlled_city_or_town_and_army_becomes_fleet() -> None:
    """Rule 9: "A player may build in any City or Town captured by that player", and may "transform any Army
    unit in a supply centre (City or Town) to a Fleet during adjustments (or vice versa)"."""
    outcome = _case(
        WINTER,
        [("Athens", "A", "ath")],
        {"Athens": ["Build A meg", "Convert A ath to F"]},
        supply_centers={"Athens": ["ath", "mar", "meg"]},
    )
    assert _results(outcome) == {"Build A meg": "succeeds", "Convert A ath to F": "succeeds"}
    assert _units(outcome) == {("Athens", "F", "ath"), ("Athens", "A", "meg")}


def test_victory_needs_more_than_twenty_cities_worth() -> None:
    """Rule 13: "The winner is the first player to control more than the equivalent of 20 Cities" (Towns half),
    the Major's and the Minor's centres together."""
    board = get_variant("hoplite").rules().board
    cities = sorted(p.id for p in board.provinces.values() if p.supply_centre and p.centre_kind == "city")
    towns = sorted(p.id for p in board.provinces.values() if p.supply_centre and p.centre_kind == "town")
    exactly_twenty = {"Athens": cities[:19], "Anactorium": cities[19:20]}
    held = _case(AUTUMN, [], {}, supply_centers=exactly_twenty)
    assert held["winner"] is None
    more = {"Athens": cities[:19] + towns[:1], "Anactorium": cities[19:20]}
    assert _case(AUTUMN, [], {}, supply_centers=more)["winner"] == ["Athens"]


# --- garrisons (rule 4) --------------------------------------------------------------------------------


def test_a_garrison_never_moves_and_supports_only_a_unit_merging_with_it() -> None:
    units = [("Sparta", "G", "spa"), ("Sparta", "A", "teg")]
    moved = _case(SPRING, units, {"Sparta": ["G spa - lep", "G spa S A teg - arg"]})
    assert set(_results(moved).values()) == {"illegal"}
    merging = _case(SPRING, units, {"Sparta": ["A(Teg) & G(Spa) MERGE A/G(Spa)"]})
    assert _units(merging) == {("Sparta", "A/G", "spa")}


def test_a_garrison_forced_to_retreat_disbands() -> None:
    outcome = _case(SPRING, [("Sparta", "G", "teg"), ("Argolis", "2A", "arg")], {"Argolis": ["2A arg - teg"]})
    assert outcome["dislodged"] == []
    assert ("Argolis", "2A", "teg") in _units(outcome)
    assert any(e["kind"] == "disbanded" and e["unit"] == "G" for e in outcome["events"])


def test_a_garrison_costs_half_and_may_be_disbanded_in_winter_to_free_builds() -> None:
    """Rule 4: "A player may decide to voluntarily disband any number of garrison units during winter
    adjustments which will enable him to use the builds released for new builds"."""
    units = [("Sparta", "G", "pra"), ("Sparta", "G", "zar"), ("Sparta", "A", "spa")]
    outcome = _case(
        WINTER,
        units,
        {"Sparta": ["Disband G pra", "Disband G zar", "Build A pra"]},
        supply_centers={"Sparta": ["spa", "pra"]},
    )
    assert set(_results(outcome).values()) == {"succeeds"}
    assert _units(outcome) == {("Sparta", "A", "spa"), ("Sparta", "A", "pra")}


# --- Majors and Minors (rules 3 and 5) -------------------------------------------------------------------


def test_a_major_and_its_minor_merge_and_the_mixed_force_is_written_as_both() -> None:
    """Rule 3: "Players are permitted to form multiple units comprising a mix of units from the Major and Minor
    States under their control"; a centre it captures is the Major's (rule 5's comment)."""
    outcome = _case(
        AUTUMN, [("Athens", "A", "ath"), ("Anactorium", "A", "pla")], {"Athens": ["A(Ath) & A(Pla) MERGE 2A(Meg)"]}
    )
    assert _units(outcome) == {("Athens", "A", "meg"), ("Anactorium", "A", "meg")}
    assert "meg" in outcome["supply_centers"]["Athens"]


def test_a_mixed_force_captures_for_the_minor_when_the_player_says_so() -> None:
    units = [("Athens", "A", "ath"), ("Anactorium", "A", "ath")]
    orders = {"Anactorium": ["2A ath - meg"], "Athens": ["CAPTURE meg FOR Anactorium"]}
    outcome = _case(AUTUMN, units, orders)
    assert "meg" in outcome["supply_centers"]["Anactorium"]


def test_a_major_does_not_dislodge_its_own_minor() -> None:
    """Rule 5: "All units controlled by one player ... count as one power for the purposes of the rule
    prohibiting self-dislodgment"."""
    units = [("Athens", "2A", "ath"), ("Anactorium", "A", "meg")]
    outcome = _case(SPRING, units, {"Athens": ["2A ath - meg"]})
    assert _results(outcome)["2A ath - meg"] == "fails"
    assert outcome["dislodged"] == []


def test_a_minors_home_city_retaken_by_its_major_is_liberated() -> None:
    """Rule 5: the City "is deemed to be returned to the control of the Minor State"."""
    outcome = _case(AUTUMN, [("Athens", "A", "oen")], {"Athens": ["A oen - ana"]}, supply_centers={"Sparta": ["ana"]})
    assert outcome["supply_centers"]["Anactorium"] == ["ana"]


def test_the_minors_upkeep_is_its_own() -> None:
    """Rule 5: "Minor States are treated as independent powers" for adjustments: a mixed force's Minor unit is
    paid by the Minor."""
    units = [{"power": "Athens", "unit": "A", "at": "ath"}, {"power": "Anactorium", "unit": "A", "at": "ath"}]
    owed = _balance(units, {"Athens": ["ath", "mar"], "Anactorium": []})
    assert (owed["Athens"], owed["Anactorium"]) == (2, -2)


# --- colonies (rule 6) and Delphi (rule 7) ---------------------------------------------------------------


def test_the_colonies_declare_for_seven_different_majors_after_the_first_autumn() -> None:
    first = {"season": "Autumn", "year": -450, "type": "Movement"}
    outcome = _case(first, [("Athens", "A", "ath")], {}, seed=3)
    declared = {e["colony"]: e["major"] for e in outcome["events"] if e["kind"] == "colony"}
    assert sorted(declared) == sorted(["chi", "pho", "cos", "rho", "les", "sam", "mil"])
    assert len(set(declared.values())) == 7
    assert all(c in outcome["supply_centers"][m] for c, m in declared.items())
    assert _case(first, [("Athens", "A", "ath")], {}, seed=3)["events"] == outcome["events"]
    later = _case(AUTUMN, [("Athens", "A", "ath")], {}, seed=3)
    assert not [e for e in later["events"] if e["kind"] == "colony"]


def test_rule_7_sack_delphi_is_read_as_the_text_writes_it() -> None:
    """Rule 7: "The specific order 'SACK Delphi' must be written": `A(Del) SACK Delphi`, and `SACK Delphi` from
    the player whose unit stands there (his Minor's too: he orders both), are read besides `SACK A del`."""
    for line in ("A(Del) SACK Delphi", "SACK Delphi", "A del SACK"):
        sacked = _case(AUTUMN, [("Boeotia", "A", "del")], {"Boeotia": [line]})
        assert _results(sacked)[line] == "succeeds", line
        assert sacked["state"]["sacked_by"] == "Boeotia"
    minor = _case(AUTUMN, [("Anactorium", "A", "del")], {"Athens": ["SACK Delphi"]})
    assert _results(minor)["SACK Delphi"] == "succeeds"
    assert minor["state"]["sacked_by"] == "Athens"


def test_rule_7_a_unit_sacks_only_the_place_it_stands_in() -> None:
    """Rule 7: "Any occupying unit may sack Delphi": a unit elsewhere naming Delphi is refused, and holds."""
    outcome = _case(SPRING, [("Boeotia", "A", "the")], {"Boeotia": ["A(The) SACK Delphi"]})
    [row] = [r for r in outcome["orders"] if r["input"]]
    assert row["result"] == "illegal"
    assert row["reason"] == "A the is not in del: a unit sacks the place it stands in (rule 7); the unit holds"
    assert "state" not in outcome or "sacked_by" not in outcome["state"]


def test_rule_9_transform_is_read_as_the_text_writes_it() -> None:
    """Rule 9: "Players may also elect to transform any Army unit in a supply centre (City or Town) to a Fleet
    during adjustments (or vice versa)": `Transform A(Cor) to F`, besides `CONVERT A cor TO F`."""
    centres = {"Argolis": ["arg", "cor", "her"]}
    outcome = _case(WINTER, [("Argolis", "A", "cor")], {"Argolis": ["Transform A(Cor) to F"]}, supply_centers=centres)
    assert _results(outcome) == {"Transform A(Cor) to F": "succeeds"}
    assert _units(outcome) == {("Argolis", "F", "cor")}
    back = _case(WINTER, [("Argolis", "F", "cor")], {"Argolis": ["transform F(Cor) into A"]}, supply_centers=centres)
    assert _units(back) == {("Argolis", "A", "cor")}


def test_rule_9_a_fleet_made_on_a_split_coast_names_its_coast() -> None:
    """Rule 11's comment ("Megara ... two coasts ... exactly as St Petersburg") with rule 9: an army becoming a
    fleet in Megara says which coast, as the reader reads it ("TO F sc", "TO F(sc)")."""
    centres = {"Athens": ["meg"]}
    for line in ("CONVERT A meg TO F sc", "Transform A(Meg) to F(sc)"):
        outcome = _case(WINTER, [("Athens", "A", "meg")], {"Athens": [line]}, supply_centers=centres)
        assert _units(outcome) == {("Athens", "F", "meg/sc")}, line
    unsaid = _case(WINTER, [("Athens", "A", "meg")], {"Athens": ["CONVERT A meg TO F"]}, supply_centers=centres)
    assert unsaid["orders"][0]["result"] == "illegal"
    assert unsaid["orders"][0]["reason"] == "say on which coast of meg the fleet stands: nc, sc"


def test_capture_and_convert_reach_the_variant_as_values_not_words() -> None:
    """The reader reads the variant's own verbs (issue 26): the variant never parses their words again."""
    import ast
    from pathlib import Path

    import judge.variants.hoplite as hoplite

    tree = ast.parse(Path(hoplite.__file__).read_text())
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names} | {
        n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert "re" not in imported and not any(name.startswith("judge.notation") for name in imported)
    outcome = _case(SPRING, [("Athens", "A", "ath")], {"Athens": ["CAPTURE meg FOR Anactorium"]})
    assert outcome["orders"][0]["read"] == {"kind": "capture", "to": "meg", "for": "Anactorium"}


def test_delphi_is_sacked_once_raising_two_units_and_its_sacker_is_shunned() -> None:
    """Rule 7: "SACK Delphi" by an occupying unit, supported to hold by any power; two extra units in the next
    adjustments; "his units ... may not receive support from any other player"."""
    units = [("Boeotia", "A", "del"), ("Athens", "A", "pla"), ("Boeotia", "A", "the")]
    sacked = _case(AUTUMN, units, {"Boeotia": ["SACK A del"]})
    assert _results(sacked)["SACK A del"] == "succeeds"
    assert sacked["state"]["sacked_by"] == "Boeotia"
    assert sacked["next_phase"]["type"] == "Adjustment"
    again = _case(SPRING, units, {"Boeotia": ["SACK A del"]}, state={"sacked_by": "Boeotia"})
    assert _results(again)["SACK A del"] == "illegal"
    shunned = _case(SPRING, units, {"Athens": ["A pla S A the - orc"]}, state={"sacked_by": "Boeotia"})
    assert _results(shunned)["A pla S A the - orc"] == "illegal"
    winter = _case(
        WINTER,
        [("Boeotia", "A", "aul")],
        {"Boeotia": ["Build A the", "Build A orc"]},
        supply_centers={"Boeotia": ["aul", "orc", "the"]},
        state={"sacked_by": "Boeotia", "delphi_builds": {"Boeotia": 2}},
    )
    assert set(_results(winter).values()) == {"succeeds"}
    raised = [u for u in winter["units"] if u.get("delphi")]
    assert len(raised) == 2
    assert _balance(winter["units"], {"Boeotia": ["aul"]})["Boeotia"] == 0  # the two Delphi units cost nothing


# --- found by review: each once a bug ---------------------------------------------------------------------


def test_a_bare_line_verb_is_refused_not_a_crash() -> None:
    outcome = _case(SPRING, [("Athens", "A", "ath")], {"Athens": ["CAPTURE"]})
    assert outcome["orders"][0]["result"] == "illegal" and "CAPTURE" in outcome["orders"][0]["reason"]


def test_delphis_units_are_raised_beyond_the_centres_and_never_removed_for_them() -> None:
    """Rule 7: the extra units "are not dependent on supply centres": a sacker who owes a removal still raises
    both, and civil disorder takes a unit the centres pay for."""
    units = [("Sparta", "A", "teg"), ("Sparta", "A", "lep"), ("Sparta", "F", "gla"), ("Sparta", "A", "hra")]
    outcome = _case(
        WINTER,
        units,
        {"Sparta": ["Build A spa", "Build A pra"]},
        supply_centers={"Sparta": ["pra", "spa", "zar"]},
        state={"sacked_by": "Sparta", "delphi_builds": {"Sparta": 2}},
    )
    raised = sorted(u["at"] for u in outcome["units"] if u.get("delphi"))
    assert raised == ["pra", "spa"]
    assert len(outcome["units"]) == 5  # 4 paid, one removed in civil disorder, and the 2 raised


def test_a_fleet_on_a_split_coast_converts_to_an_army() -> None:
    """Rule 9: "or vice versa"; an army names no coast."""
    outcome = _case(
        WINTER, [("Athens", "F", "meg/sc")], {"Athens": ["CONVERT F meg/sc TO A"]}, supply_centers={"Athens": ["meg"]}
    )
    assert _units(outcome) == {("Athens", "A", "meg")}


def test_a_mixed_force_keeps_its_coast_when_read_back() -> None:
    units = [("Athens", "A", "ath"), ("Anactorium", "F", "ath")]
    moved = _case(SPRING, units, {"Athens": ["A/F ath - meg/sc"]})
    again = run_case({**moved, "phase": moved["next_phase"], "orders": {"Athens": ["A/F meg/sc - sar"]}})
    assert again["orders"][0]["result"] == "succeeds"


def test_a_mixed_af_at_sea_is_read_back_as_one_seaworthy_force() -> None:
    """Multiplicity II rule 5: an A/F "may move into a sea space ... provided it is seaworthy". A mixed one (rule
    3) is written as its Major's fleet and its Minor's army, and an army cannot stand at sea alone: the two entries
    are read back as the one force they are (a game by mail once stopped here, its position unreadable)."""
    moved = _case(SPRING, [("Athens", "F", "ath"), ("Anactorium", "A", "ath")], {"Athens": ["A/F ath - sar"]})
    assert _results(moved) == {"A/F ath - sar": "succeeds"}
    assert _units(moved) == {("Athens", "F", "sar"), ("Anactorium", "A", "sar")}
    again = run_case({**moved, "phase": moved["next_phase"], "orders": {"Anactorium": ["A/F sar H"]}})
    assert _results(again) == {"A/F sar H": "succeeds"}
    assert _units(again) == _units(moved)


def test_an_unseaworthy_mixed_force_at_sea_is_refused_as_a_case() -> None:
    """Rule 7 of Multiplicity II: "There is no exception to the rule that an A/F at sea must be seaworthy": the
    Major's fleet and the Minor's two armies together are more armies than fleets, and the entry says so."""
    with pytest.raises(CaseError, match=r"units\[1\]: 2A/F is not seaworthy"):
        _case(SPRING, [("Athens", "F", "sar"), ("Anactorium", "2A", "sar")], {})
    with pytest.raises(CaseError, match=r"units\[0\]: an army cannot stand in sar"):
        _case(SPRING, [("Anactorium", "A", "sar")], {})


def test_a_colony_that_gives_a_build_brings_the_winter() -> None:
    """Rule 6 with rule 9: a declared colony is half a build for its Major, so the Winter is played."""
    first = {"season": "Autumn", "year": -450, "type": "Movement"}
    units = [("Athens", "A", "ath"), ("Athens", "A", "mar"), ("Athens", "F", "tho")]
    outcome = _case(first, units, {})
    assert outcome["next_phase"]["type"] == "Adjustment"


def test_a_players_lines_go_to_the_power_that_owns_the_centre_or_the_unit() -> None:
    """A player signed on as his Major may write his Minor's builds (in any centre it owns, rule 9) and
    conversions; each line is filed for the power it concerns."""
    from judge.game.checking import read_orders, route_lines

    rules = get_variant("hoplite").rules()
    case = {
        "units": [{"power": "Anactorium", "unit": "A", "at": "ana"}],
        "supply_centers": {"Anactorium": ["ana", "pla"]},
    }
    position = read_position(rules, case, Phase("Winter", -449, PhaseType.ADJUSTMENT))
    lines = ["Build A pla", "CONVERT A ana TO F"]
    assert route_lines(rules, position, ["Anactorium", "Athens"], "Athens", read_orders(rules, lines)) == [
        "Anactorium",
        "Anactorium",
    ]


def test_a_garrisons_refused_support_says_what_docs_variants_hoplite_md_says() -> None:
    """Rule 4: garrisons "may only support other units which combine with them to form a multiple unit"; the
    refusal and the variant's page say it in the same words (issue 28)."""
    units = [("Sparta", "G", "spa"), ("Sparta", "A", "teg")]
    moved = _case(SPRING, units, {"Sparta": ["G spa S A teg - arg"]})
    reason = " ".join(str(r) for row in moved["orders"] for r in row.get("reasons", []) or [row.get("reason", "")])
    wording = "a garrison supports only units that combine with it to form a multiple unit (rule 4)"
    assert wording in reason
    page = (Path(__file__).resolve().parent.parent / "docs" / "variants" / "hoplite.md").read_text(encoding="utf-8")
    assert wording in " ".join(page.split())
