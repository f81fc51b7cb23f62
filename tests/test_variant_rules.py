"""Variant rules that the texts state without a worked example, and the options that select other rulings."""

from __future__ import annotations

from typing import Any

from judge.contract import run_case


def _case(
    variant: str, units: list[tuple[str, str, str]], orders: dict[str, list[str]], **extra: Any
) -> dict[str, Any]:
    return {
        "variant": variant,
        "phase": extra.pop("phase", {"season": "Spring", "year": 1901, "type": "Movement"}),
        "units": [{"power": p, "unit": u, "at": a} for p, u, a in units],
        "orders": orders,
        **extra,
    }


def _result(outcome: dict[str, Any], line: str) -> dict[str, Any]:
    return next(o for o in outcome["orders"] if o["input"] == line)


def _units(outcome: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(u["power"], u["unit"], u["at"]) for u in outcome["units"]}


# --- Multiplomacy -------------------------------------------------------------------------------------------


def test_multiplomacy_victory_needs_29_centres_at_two_consecutive_winters() -> None:
    centres = ["lon", "edi", "lvp", "yor", "wal", "cly", "nwy", "swe", "den", "hol", "bel", "pic", "bre", "par",
               "bur", "gas", "mar", "spa", "por", "kie", "ber", "mun", "ruh", "pru", "sil", "boh", "tyr", "vie",
               "bud"]  # fmt: skip
    winter = {"season": "Winter", "year": 1910, "type": "Adjustment"}
    first = run_case(
        _case("multiplomacy", [("England", "A", "lon")], {}, phase=winter, supply_centers={"England": centres})
    )
    assert first["winner"] is None
    assert first["state"]["winters_at_victory_count"] == {"England": 1}
    again = {**first, "phase": {"season": "Winter", "year": 1911, "type": "Adjustment"}, "orders": {}}
    assert run_case(again)["winner"] == ["England"]
    one_winter = {**first, "options": {"victory_winters": 1}}
    one_winter.pop("state")
    assert run_case(one_winter)["winner"] == ["England"]


def test_multiplomacy_a_number_larger_than_the_stack_is_illegal() -> None:
    out = run_case(_case("multiplomacy", [("France", "A", "par"), ("France", "A", "par")], {"France": ["3 A Par-Bur"]}))
    assert _result(out, "3 A Par-Bur")["result"] == "illegal"
    assert "only 2" in _result(out, "3 A Par-Bur")["reason"]


def test_multiplomacy_units_of_two_powers_may_not_share_a_province() -> None:
    try:
        run_case(_case("multiplomacy", [("France", "A", "par"), ("Germany", "A", "par")], {}))
    except ValueError as error:
        assert "already holds" in str(error)
    else:
        raise AssertionError("two powers in one province were accepted")


# --- Multiplicity I --------------------------------------------------------------------------------------------


GM5 = [("France", "2A", "bur"), ("France", "A", "par"), ("France", "A", "mar"), ("Germany", "A", "mun")]
GM5_ORDERS = {"France": ["A Bur S A Par", "A Bur S A Mar"], "Germany": ["A Mun-Bur"]}


def test_multiplicity1_the_die_that_picks_the_cut_support_is_seeded_and_shown() -> None:
    outcomes = [run_case(_case("multiplicity1", GM5, GM5_ORDERS, seed=seed)) for seed in range(12)]
    assert all(o["events"][0]["kind"] == "die_roll" for o in outcomes)
    cut = {next(r["input"] for r in o["orders"] if r["result"] == "fails" and "S" in r["input"]) for o in outcomes}
    assert cut == {"A Bur S A Par", "A Bur S A Mar"}, "the die never chose one of the supports"
    assert run_case(_case("multiplicity1", GM5, GM5_ORDERS, seed=3)) == outcomes[3]


def test_multiplicity1_option_cuts_the_last_written_support_instead_of_rolling() -> None:
    out = run_case(_case("multiplicity1", GM5, GM5_ORDERS, options={"cut_choice": "last_written"}))
    assert _result(out, "A Bur S A Mar")["result"] == "fails"
    assert _result(out, "A Bur S A Par")["result"] == "succeeds"
    assert out["events"] == []


def test_multiplicity1_option_lets_a_standing_component_shield_nothing() -> None:
    units = [("France", "3A", "bur"), ("France", "A", "par"), ("Germany", "A", "mun"), ("England", "2A", "pic")]
    orders = {"France": ["A Bur stands", "2A Bur S A Par-Pic", "A Par-Pic"], "Germany": ["A Mun-Bur"]}
    shielded = run_case(_case("multiplicity1", units, orders))
    assert _result(shielded, "A Par-Pic")["result"] == "succeeds"
    bare = run_case(_case("multiplicity1", units, orders, options={"standing_absorbs": False}))
    assert _result(bare, "A Par-Pic")["result"] == "fails"
    assert "partly cut" in _result(bare, "2A Bur S A Par-Pic")["reason"]


def test_multiplicity1_an_a_f_at_sea_counts_only_its_fleets() -> None:
    units = [("England", "A/F", "nth"), ("Germany", "F", "hel")]
    out = run_case(_case("multiplicity1", units, {"Germany": ["F hel - nth"]}))
    assert _result(out, "F hel - nth")["result"] == "fails"  # 1 against the A/F's 1 at sea
    out = run_case(
        _case("multiplicity1", [*units, ("Germany", "F", "den")], {"Germany": ["F hel - nth", "F den S F hel - nth"]})
    )
    assert ("Germany", "F", "nth") in _units(out)


def test_multiplicity1_a_power_may_hold_both_coasts_of_a_split_coast_province() -> None:
    out = run_case(_case("multiplicity1", [("Russia", "F", "stp/nc"), ("Russia", "F", "stp/sc")], {}))
    assert {("Russia", "F", "stp/nc"), ("Russia", "F", "stp/sc")} <= _units(out)


# --- Multiplicity II --------------------------------------------------------------------------------------------


def test_multiplicity2_split_parts_ordered_to_one_space_merge_again() -> None:
    out = run_case(_case("multiplicity2", [("France", "3A", "par"), ("Germany", "A", "bur")],
                         {"France": ["3A Par SPLIT = A Bur, A Bur, A Par"]}))  # fmt: skip
    assert ("France", "2A", "bur") in _units(out)
    assert out["dislodged"][0]["at"] == "bur"


def test_multiplicity2_a_merge_whose_part_is_not_carried_leaves_the_other_moving() -> None:
    """Rule 3: a part that fails to reach the merge leaves the others' moves standing as plain moves."""
    units = [("England", "A", "lon"), ("England", "A", "wal"), ("England", "F", "eng")]
    orders = {"England": ["A lon + A wal MERGE = 2A bel", "F eng C A lon - bel"]}  # nobody convoys Wales
    out = run_case(_case("multiplicity2", units, orders))
    assert {("England", "A", "bel"), ("England", "A", "wal")} <= _units(out)
    assert _result(out, "A lon + A wal MERGE = 2A bel")["result"] == "succeeds"


def test_multiplicity2_an_unseaworthy_force_may_not_convoy_its_cargo() -> None:
    units = [("England", "A/2F", "eng"), ("England", "A", "lon")]
    out = run_case(_case("multiplicity2", units, {"England": ["A/2F eng C A lon - bre", "A lon - bre"]}))
    assert ("England", "A", "bre") in _units(out)  # A/2F + A is 2A/2F: seaworthy


def test_a_fleet_built_onto_a_multiplicity_2_unit_joins_it_on_its_coast() -> None:
    """Multiplicity II rule 3: a multiple is formed "by a player building on a home supply centre which is already
    occupied"; one force a province, so a fleet built onto F stp/sc is built on the south coast, and a build on the
    north coast is refused with why (found by the random-game property test)."""

    def build(order: str) -> dict[str, Any]:
        return run_case(
            {
                "variant": "multiplicity2",
                "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
                "units": [{"power": "Russia", "unit": "F", "at": "stp/sc"}],
                "supply_centers": {"Russia": ["stp", "mos", "war"]},
                "orders": {"Russia": [order]},
            }
        )

    refused = build("Build F stp/nc")
    assert refused["orders"][0]["result"] == "illegal"
    assert refused["units"] == [{"power": "Russia", "unit": "F", "at": "stp/sc"}]
    assert build("Build F stp/sc")["units"] == [{"power": "Russia", "unit": "2F", "at": "stp/sc"}]
    assert build("Build A stp")["units"] == [{"power": "Russia", "unit": "A/F", "at": "stp/sc"}]
    onto_army = run_case(
        {
            "variant": "multiplicity2",
            "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
            "units": [{"power": "Russia", "unit": "A", "at": "stp"}],
            "supply_centers": {"Russia": ["stp", "mos", "war"]},
            "orders": {"Russia": ["Build F stp/sc"]},
        }
    )
    assert onto_army["units"] == [{"power": "Russia", "unit": "A/F", "at": "stp/sc"}]  # the fleet names the coast
