"""Rulings that follow the rule texts clause by clause (issue: "Multi-unit rulings faithful to their texts").
Each test names the clause it checks; the rulings are written on the variants' doc pages."""

from __future__ import annotations

from typing import Any

import pytest

from judge.contract import run_case
from judge.contract.adjudicate import CaseError


def _case(variant: str, units: list[tuple[str, str, str]], orders: dict[str, list[str]], **more: Any) -> dict[str, Any]:
    return {
        "variant": variant,
        "units": [{"power": p, "unit": u, "at": a} for p, u, a in units],
        "orders": orders,
        **more,
    }


def _results(outcome: dict[str, Any]) -> dict[str, str]:
    return {o["input"]: o["result"] for o in outcome["orders"] if o["input"]}


def _units(outcome: dict[str, Any]) -> list[tuple[str, str, str]]:
    return sorted((u["power"], u["unit"], u["at"]) for u in outcome["units"])


# --- cut priority ranks only the supports the attack can cut --------------------------------------------


def test_cut_priority_skips_a_support_into_the_attackers_own_province_multiplomacy_rule_7() -> None:
    units = [("France", "A", "bur"), ("France", "A", "bur"), ("France", "A", "par"), ("France", "A", "ruh")]
    units.append(("Germany", "A", "mun"))
    support_out, support_back = "1 A Bur S A Par - Pic", "1 A Bur S A Ruh - Mun"
    for written in ([support_out, support_back], [support_back, support_out]):
        orders = {"France": [*written, "A Par - Pic", "A Ruh - Mun"], "Germany": ["A Mun - Bur"]}
        results = _results(run_case(_case("multiplomacy", units, orders)))
        # the attack from Munich cannot cut the support into Munich, so its one cut falls on the other support,
        # whichever was written last
        assert results[support_out] == "fails"
        assert results[support_back] == "succeeds"


def test_cut_priority_skips_a_support_into_the_attackers_own_province_multiplicity2_rule_4() -> None:
    units = [("France", "2A", "bur"), ("France", "A", "par"), ("France", "A", "ruh"), ("Germany", "A", "mun")]
    support_out, support_back = "A Bur S A Par - Pic", "A Bur S A Ruh - Mun"  # one army each
    for written in ([support_out, support_back], [support_back, support_out]):
        orders = {"France": [*written, "A Par - Pic", "A Ruh - Mun"], "Germany": ["A Mun - Bur"]}
        results = _results(run_case(_case("multiplicity2", units, orders)))
        assert results[support_out] == "fails"
        assert results[support_back] == "succeeds"


def test_a_merge_passes_over_a_support_one_part_cannot_cut_and_cuts_the_next_multiplicity2_rule_4() -> None:
    # rule 4: a 2A's supports are cut up to the strongest attack (the merge: 2), the last written first; "a merging
    # unit does not cut support for an attack ... against the spaces initially occupied by one of the merging
    # units": the army from Bur cannot cut the support into Bur, but the army from Mun can
    units = [("Germany", "A", "mun"), ("Germany", "A", "bur"), ("France", "2A", "ruh")]
    units += [("France", "A", "pic"), ("France", "A", "hol")]
    into_bur, into_kie = "A Ruh S A Pic - Bur", "A Ruh S A Hol - Kie"
    for written in ([into_bur, into_kie], [into_kie, into_bur]):
        orders = {"Germany": ["A(Mun) & A(Bur) MERGE 2A(Ruh)"], "France": [*written, "A Pic - Bur", "A Hol - Kie"]}
        outcome = run_case(_case("multiplicity2", units, orders))
        # each army of the merge cuts one support: the one from Bur the support into Kie, the one from Mun the
        # support into Bur, whichever was written last
        assert _results(outcome)[into_kie] == "fails"
        assert _results(outcome)[into_bur] == "fails"
        cut = next(o for o in outcome["orders"] if o["input"] == into_bur)
        assert cut["reasons"] == [
            {"kind": "cut", "by": [{"power": "Germany", "unit": "A", "at": "mun"}], "from": ["mun"]}
        ]


# --- Multiplicity I and the A/F rules -------------------------------------------------------------------


def test_a_merge_reached_by_convoy_is_not_allowed_multiplicity1_rule_6() -> None:
    units = [("England", "A", "lon"), ("England", "F", "nth"), ("England", "A", "hol")]
    orders = {"England": ["F Nth C A Lon - Bel", "A Lon + A Hol MERGE = 2A Bel"]}
    outcome = run_case(_case("multiplicity1", units, orders))
    merge = next(o for o in outcome["orders"] if "MERGE" in o["input"])
    assert merge["result"] == "illegal"
    assert "adjacent to, or already on" in merge["reason"]


def test_an_a_f_on_a_coast_supports_inland_with_its_army_multiplicity1_rule_4() -> None:
    units = [("France", "A/F", "pic"), ("France", "A", "bur"), ("Germany", "A", "par")]
    outcome = run_case(_case("multiplicity1", units, {"France": ["A/F Pic S A Bur - Par", "A Bur - Par"]}))
    assert _results(outcome) == {"A/F Pic S A Bur - Par": "succeeds", "A Bur - Par": "succeeds"}
    assert ("France", "A", "par") in _units(outcome)


def test_supports_for_the_component_that_stays_are_void_when_the_other_fails_to_leave_af_rule_7() -> None:
    units = [
        ("France", "A/F", "pic"),
        ("France", "A", "par"),
        ("Germany", "F", "bel"),
        ("England", "F", "eng"),
        ("England", "A", "bre"),
        ("England", "A", "bur"),
    ]
    orders = {
        "France": ["A/F(Pic)D: F(Pic), A(Bel)", "A Par S F Pic"],
        "England": ["F Eng - Pic", "A Bre S F Eng - Pic", "A Bur S F Eng - Pic"],
    }
    outcome = run_case(_case("multiplicity1", units, orders))
    support = next(o for o in outcome["orders"] if o["input"] == "A Par S F Pic")
    assert support["result"] == "fails"
    assert "A/F rule 7" in support["reason"]
    assert outcome["dislodged"][0]["at"] == "pic"  # 3 against the A/F's 2, the support gone


_DIVIDING = [("France", "A/F", "pic"), ("France", "A", "par"), ("Germany", "F", "bel"), ("Germany", "F", "hol")]
"""A/F rule 7's example turned round: the army divides off for Belgium, where a supported German fleet stands"""


_HELD_BY_THE_WHOLE_A_F = {
    "kind": "held_by",
    "by": {"power": "France", "unit": "A/F", "at": "pic"},
    "attack": 2,
    "hold": 2,
    "stayed": False,
}
"""the contract's reason for a move into Pic held by the A/F's two, its army having failed to leave"""


def test_af_rule_7_whole_af_dislodged_when_army_fails_to_leave() -> None:
    units = [*_DIVIDING, ("England", "F", "eng"), ("England", "A", "bre"), ("England", "A", "bur")]
    orders = {
        "France": ["A/F(Pic)D: F(Pic), A(Bel)", "A Par S F Pic"],
        "Germany": ["F(Bel)st.", "F Hol S F Bel"],
        "England": ["F Eng - Pic", "A Bre S F Eng - Pic", "A Bur S F Eng - Pic"],
    }
    outcome = run_case(_case("multiplicity1", units, orders))
    # the army failed to leave: the force never divided, the support for the fleet is void, and three beat the
    # A/F's two: the whole A/F is dislodged, one unit with one retreat (not a fleet and an army apart)
    assert _results(outcome)["A Par S F Pic"] == "fails"
    assert [(d["power"], d["unit"], d["at"], d["attacker_from"]) for d in outcome["dislodged"]] == [
        ("France", "A/F", "pic", "eng")
    ]
    assert outcome["dislodged"][0]["retreats"] == []  # Bel, Bre held; Eng the attacker's; no A/F goes inland


def test_af_rule_7_the_whole_af_defends_when_the_army_fails_to_leave() -> None:
    units = [*_DIVIDING, ("England", "F", "eng"), ("England", "A", "bre")]
    orders = {
        "France": ["A/F(Pic)D: F(Pic), A(Bel)"],
        "Germany": ["F(Bel)st.", "F Hol S F Bel"],
        "England": ["F Eng - Pic", "A Bre S F Eng - Pic"],
    }
    outcome = run_case(_case("multiplicity1", units, orders))
    attack = next(o for o in outcome["orders"] if o["input"] == "F Eng - Pic")
    assert attack["result"] == "fails"
    assert attack["reasons"] == [_HELD_BY_THE_WHOLE_A_F]
    assert ("France", "A/F", "pic") in _units(outcome) and not outcome["dislodged"]


def test_af_rule_7_the_whole_af_defends_against_the_unit_its_army_meets_head_to_head() -> None:
    # the army divides off for Belgium as a German 2A comes the other way: beaten head to head, the army stays,
    # and the 2A must beat the whole A/F (2), not the army alone (1)
    units = [("France", "A/F", "pic"), ("Germany", "2A", "bel")]
    orders = {"France": ["A/F(Pic)D: F(Pic), A(Bel)"], "Germany": ["2A Bel - Pic"]}
    outcome = run_case(_case("multiplicity1", units, orders))
    attack = next(o for o in outcome["orders"] if o["power"] == "Germany")
    assert attack["result"] == "fails"
    assert attack["reasons"] == [_HELD_BY_THE_WHOLE_A_F]
    assert _units(outcome) == [("France", "A/F", "pic"), ("Germany", "2A", "bel")]
    stronger = run_case(
        _case("multiplicity1", [units[0], ("Germany", "3A", "bel")], {**orders, "Germany": ["3A Bel - Pic"]})
    )
    # the whole A/F retreats, as an A/F moves (A/F rule 5: to seas and coasts, not inland to Par or Bur)
    assert [(d["unit"], d["at"], d["retreats"]) for d in stronger["dislodged"]] == [("A/F", "pic", ["bre", "eng"])]


def test_separate_supports_of_an_a_f_are_cut_second_written_first_af_rule_11() -> None:
    units = [
        ("France", "A/F", "pic"),
        ("France", "A", "bur"),
        ("France", "F", "eng"),
        ("Germany", "A", "bel"),
        ("England", "A", "par"),
        ("England", "F", "bre"),
    ]
    fleet, army = "F Pic S F Eng - Bre", "A Pic S A Bur - Par"
    for written in ([fleet, army], [army, fleet]):
        for seed in range(4):  # no die: the written order decides, whatever the seed
            orders = {"France": [*written, "F Eng - Bre", "A Bur - Par"], "Germany": ["A Bel - Pic"]}
            outcome = run_case(_case("multiplicity1", units, orders, seed=seed))
            assert not [e for e in outcome["events"] if e["kind"] == "die_roll"]
            assert _results(outcome)[written[1]] == "fails"  # the second written is cut
            assert _results(outcome)[written[0]] == "succeeds"


def test_numbered_supports_are_cut_by_their_numbers_not_their_order_af_rule_11() -> None:
    units = [
        ("France", "A/F", "pic"),
        ("France", "A", "bur"),
        ("France", "F", "eng"),
        ("Germany", "A", "bel"),
        ("England", "A", "par"),
        ("England", "F", "bre"),
    ]
    numbered = ["2. F Pic S F Eng - Bre", "1. A Pic S A Bur - Par"]  # the fleet's support written first, ranked 2nd
    orders = {"France": [*numbered, "F Eng - Bre", "A Bur - Par"], "Germany": ["A Bel - Pic"]}
    results = _results(run_case(_case("multiplicity1", units, orders)))
    assert results["2. F Pic S F Eng - Bre"] == "fails"
    assert results["1. A Pic S A Bur - Par"] == "succeeds"


def test_building_onto_an_occupied_centre_follows_rule_5_or_af_rule_12_by_option() -> None:
    base = {
        "variant": "multiplicity1",
        "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
        "units": [{"power": "France", "unit": "A", "at": "par"}, {"power": "France", "unit": "F", "at": "bre"}],
        "supply_centers": {"France": ["par", "bre", "mar", "spa"]},
        "orders": {"France": ["Build A Par", "Build A Bre"]},
    }
    rule5 = run_case(base)
    assert _results(rule5) == {"Build A Par": "succeeds", "Build A Bre": "succeeds"}
    af12 = run_case({**base, "options": {"build_onto": "af12"}})
    assert _results(af12) == {"Build A Par": "illegal", "Build A Bre": "succeeds"}
    assert ("France", "A/F", "bre") in _units(af12)


# --- Multiplicity II ------------------------------------------------------------------------------------


def test_a_multiple_fights_with_the_number_of_its_units_at_sea_too_multiplicity2_rules_4_and_5() -> None:
    units = [("England", "A/2F", "eng"), ("France", "F", "mao"), ("France", "F", "bre")]
    orders = {"England": ["A/2F Eng - Mao"], "France": ["F Bre S F Mao"]}
    assert _results(run_case(_case("multiplicity2", units, orders)))["A/2F Eng - Mao"] == "succeeds"  # 3 against 2
    assert _results(run_case(_case("multiplicity1", units, orders)))["A/2F Eng - Mao"] == "fails"  # 2: its fleets


def test_an_unseaworthy_force_does_not_retreat_to_sea_multiplicity2_rule_5() -> None:
    case = {
        "variant": "multiplicity2",
        "phase": {"season": "Spring", "year": 1901, "type": "Retreat"},
        "units": [],
        "dislodged": [{"power": "England", "unit": "2A/F", "at": "bre", "attacker_from": "gas"}],
        "orders": {"England": ["2A/F Bre - Mao"]},
    }
    order = run_case(case)["orders"][0]
    assert order["result"] == "illegal"
    seaworthy = {**case, "dislodged": [{"power": "England", "unit": "A/F", "at": "bre", "attacker_from": "gas"}]}
    seaworthy["orders"] = {"England": ["A/F Bre - Mao"]}
    assert run_case(seaworthy)["orders"][0]["result"] == "succeeds"


def test_an_unseaworthy_force_cannot_stand_at_sea_multiplicity2_rule_5() -> None:
    """Rule 5: "an A/F may move into a sea space ... provided it is seaworthy"; rule 7: "There is no exception to
    the rule that an A/F at sea must be seaworthy": a case that puts one there is refused, as a unit on land
    would be."""
    with pytest.raises(CaseError, match=r"units\[0\]: 2A/F is not seaworthy"):
        run_case(_case("multiplicity2", [("England", "2A/F", "mao")], {}))
    assert _units(run_case(_case("multiplicity2", [("England", "A/2F", "mao")], {}))) == [("England", "A/2F", "mao")]


def test_the_initial_placement_is_one_army_or_fleet_on_each_home_centre_multiplicity2_rule_1() -> None:
    case = {
        "variant": "multiplicity2",
        "phase": {"season": "Winter", "year": 1900, "type": "Adjustment"},
        "units": [],
        "supply_centers": {"England": ["lon", "edi", "lvp"]},
        "orders": {"England": ["Build 2A Lon", "Build F Edi"]},
    }
    outcome = run_case(case)
    assert _results(outcome) == {"Build 2A Lon": "illegal", "Build F Edi": "succeeds"}
    # no home centre stays empty: London and Liverpool get the standard game's units
    assert _units(outcome) == [("England", "A", "lvp"), ("England", "F", "edi"), ("England", "F", "lon")]
    assert {(e["unit"], e["at"]) for e in outcome["events"] if e["kind"] == "placed"} == {("F", "lon"), ("A", "lvp")}


def test_multiplicity1_placement_still_allows_multiples_rule_9() -> None:
    case = {
        "variant": "multiplicity1",
        "phase": {"season": "Winter", "year": 1900, "type": "Adjustment"},
        "units": [],
        "supply_centers": {"Russia": ["stp", "mos", "war", "sev"]},
        "orders": {"Russia": ["Build 2A StP", "Build A/F Sev"]},
    }
    assert _results(run_case(case)) == {"Build 2A StP": "succeeds", "Build A/F Sev": "succeeds"}


def test_a_merge_part_that_cannot_reach_leaves_the_others_to_move_multiplicity2_rule_3() -> None:
    units = [("France", "A", "pic"), ("France", "A", "par")]
    outcome = run_case(_case("multiplicity2", units, {"France": ["A(Pic) & A(Par) MERGE 2A(Bel)"]}))
    assert _units(outcome) == [("France", "A", "bel"), ("France", "A", "par")]
    assert "rule 3" in outcome["orders"][0]["reason"]
    strict = run_case(_case("multiplicity1", units, {"France": ["A(Pic) & A(Par) MERGE 2A(Bel)"]}))
    assert _units(strict) == [("France", "A", "par"), ("France", "A", "pic")]


def test_a_merge_part_dislodged_head_to_head_leaves_the_other_to_move_multiplicity2_rule_3() -> None:
    # rule 3's A(Mar) & A(Pic) MERGE 2A(Bur), as a German 3A leaves Bur for Pic: it beats A(Pic) head to head, so
    # A(Pic) fails to reach the space; A(Mar) "will follow [its] movement order unaffected (even if this results
    # in a normal move as opposed to a merge)": it moves into the Bur the 3A left
    units = [("France", "A", "mar"), ("France", "A", "pic"), ("Germany", "3A", "bur")]
    orders = {"France": ["A(Mar) & A(Pic) MERGE 2A(Bur)"], "Germany": ["3A(Bur) - Pic"]}
    outcome = run_case(_case("multiplicity2", units, orders))
    assert _units(outcome) == [("France", "A", "bur"), ("Germany", "3A", "pic")]
    assert [(d["unit"], d["at"], d["attacker_from"]) for d in outcome["dislodged"]] == [("A", "pic", "bur")]
    merge = outcome["orders"][0]
    assert merge["result"] == "succeeds"  # a part moved
    assert [r["kind"] for r in merge["reasons"]] == ["merge_part_stopped"]
    assert "rule 3" in merge["reason"]
    # three merging, one stopped: the other two still merge
    three = [("France", "A", "mar"), ("France", "A", "pic"), ("France", "A", "par"), ("Germany", "4A", "bur")]
    orders = {"France": ["A(Mar) & A(Pic) & A(Par) MERGE 3A(Bur)"], "Germany": ["4A(Bur) - Pic"]}
    assert _units(run_case(_case("multiplicity2", three, orders))) == [
        ("France", "2A", "bur"),
        ("Germany", "4A", "pic"),
    ]


def test_a_merge_part_dislodged_where_it_stands_leaves_the_other_to_its_own_fate_multiplicity2_rule_3() -> None:
    # the merge fails against the German 2A; A(Pic) is dislodged from Belgium; A(Mar) follows its order alone and
    # fails too, and the merge's line tells both parts' fates
    units = [("France", "A", "mar"), ("France", "A", "pic"), ("Germany", "2A", "bur"), ("England", "2A", "bel")]
    orders = {"France": ["A(Mar) & A(Pic) MERGE 2A(Bur)"], "Germany": ["2A Bur H"], "England": ["2A Bel - Pic"]}
    outcome = run_case(_case("multiplicity2", units, orders))
    assert ("France", "A", "mar") in _units(outcome)
    merge = outcome["orders"][0]
    assert merge["result"] == "fails"
    assert [(r["unit"], r["at"], [k["kind"] for k in r["reasons"]]) for r in merge["reasons"]] == [
        ("A", "bur", ["held_by"]),
        ("A", "pic", ["merge_part_stopped"]),
    ]


def test_a_merge_that_only_bounces_whole_releases_no_part_multiplicity2_rule_3() -> None:
    # a German 2A leaving Bur for Pic and the merge (2) stand each other off head to head: the merge failed as
    # one, no part was stopped on its own, and nobody moves
    units = [("France", "A", "mar"), ("France", "A", "pic"), ("Germany", "2A", "bur")]
    orders = {"France": ["A(Mar) & A(Pic) MERGE 2A(Bur)"], "Germany": ["2A(Bur) - Pic"]}
    outcome = run_case(_case("multiplicity2", units, orders))
    assert _units(outcome) == sorted(units) and not outcome["dislodged"]
    # GMs who count a part bounced head to head as stopped choose merge_part_stopped = bounced: A(Pic) stays out of
    # the merge, the 2A then beats it alone, and A(Mar) moves into the Bur the 2A left
    bounced = run_case(_case("multiplicity2", units, orders, options={"merge_part_stopped": "bounced"}))
    assert _units(bounced) == [("France", "A", "bur"), ("Germany", "2A", "pic")]
    assert [(d["unit"], d["at"]) for d in bounced["dislodged"]] == [("A", "pic")]
    assert "merge_part_stopped = bounced" in bounced["orders"][0]["reason"]


def test_a_part_that_fails_to_split_defends_and_is_dislodged_with_the_multiple_multiplicity2_rule_7() -> None:
    # "if a component of a multiple unit fails to split it will remain part of the multiple unit and is considered
    # never to have split for the purpose of adjudicating any attacks on that multiple unit"
    split = {"France": ["2A(Bur) SPLIT A(Pic), A(Bur)"]}
    units = [("France", "2A", "bur"), ("Germany", "A", "pic"), ("Germany", "A", "bel"), ("Germany", "3A", "mun")]
    orders = {**split, "Germany": ["A Pic H", "A Bel S A Pic", "3A Mun - Bur"]}
    outcome = run_case(_case("multiplicity2", units, orders))
    assert [(d["unit"], d["at"]) for d in outcome["dislodged"]] == [("2A", "bur")]  # one 2A, not two armies
    # beaten head to head by a 2A leaving Pic, the army stays: the 2A defends whole, 2 against 2
    head_on = run_case(
        _case(
            "multiplicity2", [("France", "2A", "bur"), ("Germany", "2A", "pic")], {**split, "Germany": ["2A Pic - Bur"]}
        )
    )
    assert _units(head_on) == [("France", "2A", "bur"), ("Germany", "2A", "pic")]


def test_a_convoy_without_room_for_the_army_is_refused_when_checked_multiplicity2_rule_6() -> None:
    units = [("England", "F", "nth"), ("England", "2A", "yor")]
    outcome = run_case(_case("multiplicity2", units, {"England": ["F Nth C 2A Yor - Nwy", "2A Yor - Nwy"]}))
    convoy = outcome["orders"][0]
    assert convoy["result"] == "illegal"
    assert "can carry only 1 army, not 2A" in convoy["reason"]


def test_a_split_means_the_same_on_one_line_or_several_multiplicity_rule_7() -> None:
    units = [("France", "3A", "bur"), ("France", "A", "gas"), ("Germany", "A", "mun"), ("Germany", "2A", "par")]
    one_line = ["3A Bur SPLIT = A Par A Bur A Mun", "A Gas S A Bur - Par"]
    by_lines = ["A Bur - Par", "A Bur - Mun", "A Bur H", "A Gas S A Bur - Par"]
    for variant in ("multiplicity1", "multiplicity2"):
        a = run_case(_case(variant, units, {"France": one_line}))
        b = run_case(_case(variant, units, {"France": by_lines}))
        assert (_units(a), a["dislodged"]) == (_units(b), b["dislodged"])
    moved = [("France", "2A", "bur"), ("Germany", "A", "kie")]
    orders = {"France": ["A Bur - Mun", "A Bur S A Bur - Mun"], "Germany": ["A Kie H"]}
    split = run_case(_case("multiplicity1", [*moved, ("Germany", "A", "mun")], orders))
    assert ("France", "A", "mun") in _units(split)  # the part that stays supports the part moving out (rule 7)


# --- Multiplomacy and standard --------------------------------------------------------------------------


def test_every_unit_of_a_stack_appears_in_the_results_multiplomacy() -> None:
    units = [("Germany", "A", "mun")] * 3
    outcome = run_case(_case("multiplomacy", units, {"Germany": ["2 A Mun - Boh"]}))
    assert [(o["order"], o["result"]) for o in outcome["orders"]] == [
        ("2 A mun - boh", "succeeds"),
        ("A mun H", "succeeds"),
    ]


def test_unit_counts_are_refused_where_every_unit_is_single_standard() -> None:
    outcome = run_case(_case("standard", [("Germany", "A", "mun")], {"Germany": ["2 A Mun - Boh"]}))
    order = outcome["orders"][0]
    assert order["result"] == "illegal"
    assert "no multiple units" in order["reason"]
