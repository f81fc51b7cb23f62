"""Mad Diplomacy (rules in ../shared/rules/mad-diplomacy.txt): the rulings and options of docs/variants/mad.md that
the worked examples (tests/variants/mad.json) do not already settle."""

from __future__ import annotations

import random
from typing import Any

import pytest

from judge.contract.adjudicate import run_case
from judge.engine import Phase, PhaseType
from judge.engine.events import AtlantisMoved
from judge.engine.position import Outcome
from judge.variants import get_variant
from judge.variants.mad_atlantis import candidates, owner, wander

FRANCE_HOMES = {"France": ["bur", "gas", "pic"]}


def _case(units: list[tuple[str, str, str]], orders: dict[str, list[str]], **more: Any) -> dict[str, Any]:
    phase = more.pop("phase", ("Spring", 1901, "Movement"))
    return {
        "variant": "mad",
        "phase": {"season": phase[0], "year": phase[1], "type": phase[2]},
        "units": [{"power": p, "unit": u, "at": a} for p, u, a in units],
        "orders": orders,
        **more,
    }


def _results(outcome: dict[str, Any]) -> dict[str, str]:
    return {f"{r['power']}: {r['input']}": r["result"] for r in outcome["orders"] if r["input"]}


def _units(outcome: dict[str, Any]) -> set[tuple[str, str, str]]:
    return {(u["power"], u["unit"], u["at"]) for u in outcome["units"]}


# --- rule 10: a support is cut by the cutter's strength -------------------------------------------------


@pytest.mark.parametrize(("cut_by", "left"), [("sum", 1), ("strongest", 2)])
def test_two_attacks_on_a_support_cut_it_by_their_sum_or_by_the_strongest(cut_by: str, left: int) -> None:
    """Rule 10: "the piece cutting the support ... cuts it by its own strength"; two pieces: each by its own
    (option `cut_by=sum`, the default) or only the strongest (`strongest`). A 3A supports A Mos - War into a 2A;
    single armies from Rum and Sev attack Ukr."""
    case = _case(
        [
            ("Russia", "3A", "ukr"),
            ("Russia", "A", "mos"),
            ("Austria", "2A", "war"),
            ("Turkey", "A", "rum"),
            ("Turkey", "A", "sev"),
        ],
        {
            "Russia": ["3A Ukr S A Mos - War", "A Mos - War"],
            "Austria": ["2A War H"],
            "Turkey": ["A Rum - Ukr", "A Sev - Ukr"],
        },
        options={"cut_by": cut_by},
    )
    outcome = run_case(case)
    support = next(r for r in outcome["orders"] if r["input"] == "3A Ukr S A Mos - War")
    assert f"{left} A ukr S A mos - war stands" in support["reason"]
    dislodged = {d["at"] for d in outcome["dislodged"]}
    assert ("war" in dislodged) is (1 + left > 2)  # the move wins only with 2 supports against the 2A


# --- rule 8: retreats --------------------------------------------------------------------------------------


def _retreat(option: str) -> dict[str, Any]:
    return run_case(
        _case(
            [("Germany", "A", "kie")],
            {"France": ["2A Ruh - Bel"], "England": ["A Pic - Bel"]},
            phase=("Spring", 1901, "Retreat"),
            dislodged=[
                {"power": "France", "unit": "2A", "at": "ruh", "attacker_from": "mun"},
                {"power": "England", "unit": "A", "at": "pic", "attacker_from": "par"},
            ],
            options={"retreat_clash": option},
        )
    )


def test_a_multiple_may_not_retreat_where_a_smaller_unit_retreats_so_the_smaller_arrives() -> None:
    """Rule 8: "A retreating multiple unit may not retreat into the space of a smaller unit"."""
    outcome = _retreat("smaller")
    assert ("England", "A", "bel") in _units(outcome)
    assert not any(u["power"] == "France" for u in outcome["units"])


def test_under_the_standard_option_retreats_to_one_space_are_all_disbanded() -> None:
    outcome = _retreat("standard")
    assert not any(u["at"] == "bel" for u in outcome["units"])


# --- rule 11: presentation only ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "france", "russia"),
    [
        ("sane", "France", "Russia"),
        ("rotated", "Italy", "England"),
        ("rotated_reversed", "Ylati", "Dnalgne"),
        ("reversed", "Ecnarf", "Aissur"),
    ],
)
def test_rule_11_publishes_each_power_under_one_other_name(names: str, france: str, russia: str) -> None:
    rules = get_variant("mad").rules({"names": names})
    phase = Phase("Spring", 1901, PhaseType.MOVEMENT)
    assert rules.power_label("France", phase) == france
    assert rules.power_label("Russia", phase) == russia


def test_rule_11_never_reaches_the_stored_outcome() -> None:
    outcome = run_case(_case([("France", "A", "par")], {"France": ["A Par H"]}, options={"names": "rotated"}))
    assert outcome["units"] == [{"power": "France", "unit": "A", "at": "par"}]


# --- rules 2, 3 and 5: placements and home centres ---------------------------------------------------------


def test_centres_a_power_does_not_place_go_on_its_standard_home_centres() -> None:
    """Ruling on rule 2: every power has its normal number of centres; the judge places the missing ones."""
    outcome = run_case(_case([], {"France": ["Centre Bur"]}, phase=("Spring", 1900, "Placement")))
    assert sorted(outcome["supply_centers"]["France"]) == ["bre", "bur", "mar"]
    assert outcome["state"]["homes"]["France"] == ["bre", "bur", "mar"]
    assert sorted(outcome["supply_centers"]["Russia"]) == ["mos", "sev", "stp", "war"]


def test_units_are_placed_anywhere_in_the_country_up_to_the_centres_held() -> None:
    """Rule 3: "anywhere within the borders of the home country", total strength at most the centres."""
    case = _case(
        [],
        {"France": ["Place 2A Pic", "Place F Bre", "Place A Par"], "Germany": ["Place A Bur"]},
        phase=("Autumn", 1900, "Placement"),
        supply_centers={"France": ["bur", "gas", "pic"], "Germany": ["ber", "kie", "mun"]},
        state={"homes": {**FRANCE_HOMES, "Germany": ["ber", "kie", "mun"]}},
    )
    outcome = run_case(case)
    results = _results(outcome)
    assert results["France: Place 2A Pic"] == results["France: Place F Bre"] == "succeeds"
    assert results["France: Place A Par"] == "illegal"  # a fourth unit of strength on three centres
    assert results["Germany: Place A Bur"] == "illegal"  # Burgundy is France's
    assert outcome["next_phase"] == {"season": "Spring", "year": 1901, "type": "Movement"}


def test_builds_go_only_on_the_centres_the_power_placed() -> None:
    """Rule 5a: builds "in his home bases": those placed in Spring 1900, not the standard home centres."""
    case = _case(
        [("France", "A", "bel")],
        {"France": ["Build A Par", "Build 2A Bur"]},
        phase=("Winter", 1901, "Adjustment"),
        supply_centers={"France": ["bur", "gas", "pic", "bel"]},
        state={"homes": FRANCE_HOMES},
    )
    outcome = run_case(case)
    assert _results(outcome) == {"France: Build A Par": "illegal", "France: Build 2A Bur": "succeeds"}


# --- rule 4b: boarding -----------------------------------------------------------------------------------------


def test_an_army_boards_only_its_own_fleet_in_a_bordering_sea() -> None:
    case = _case(
        [("Italy", "A", "ven"), ("Italy", "F", "tys"), ("Italy", "A", "nap")],
        {"Italy": ["A(Ven) boards F(TYS)", "A(Nap) boards F(TYS)"]},
    )
    outcome = run_case(case)
    assert _results(outcome) == {"Italy: A(Ven) boards F(TYS)": "illegal", "Italy: A(Nap) boards F(TYS)": "succeeds"}
    assert ("Italy", "A/F", "tys") in _units(outcome)


def test_an_army_aboard_counts_its_moves_and_is_lost_after_the_fourth() -> None:
    """Rule 4b: the boarding move is the first; an A/F entering its fourth move with its army still aboard at
    the end loses the army (the `aboard` fact counts the moves completed)."""
    units = [{"power": "Italy", "unit": "A/F", "at": "tys", "aboard": 2}]
    case = {
        "variant": "mad",
        "phase": {"season": "Spring", "year": 1902, "type": "Movement"},
        "units": units,
        "orders": {"Italy": ["A/F Tys H"]},
    }
    third = run_case(case)
    assert third["units"] == [{"power": "Italy", "unit": "A/F", "at": "tys", "aboard": 3}]
    fourth = run_case({**case, "units": third["units"]})
    assert fourth["units"] == [{"power": "Italy", "unit": "F", "at": "tys"}]
    assert any(e["kind"] == "annihilated" for e in fourth["events"])


def test_a_landing_that_fails_leaves_the_army_aboard_where_its_fleet_sailed() -> None:
    """The A/F sails (rule 4b) and the army's landing bounces: the army stays aboard, at the new sea."""
    case = _case(
        [("Italy", "A", "rom"), ("Italy", "F", "tys"), ("France", "2A", "spa")],
        {"Italy": ["A(Rom) boards F(TYS)", "A/F(TYS) - WMS", "A(WMS) disembarks Spa"], "France": ["2A Spa H"]},
    )
    outcome = run_case(case)
    assert ("Italy", "A/F", "wes") in _units(outcome)


def test_rule_4d_with_4b_an_army_landing_from_a_fleet_forced_to_retreat_is_annihilated() -> None:
    """Rule 4b's A/F convoy: "a fleet disembarking an army"; rule 4d: "if a fleet convoying an army is forced to
    retreat, then the army is annihilated". The army boards (the text's `A(Rom) boards F(TYS)`) and lands from
    the sea its fleet stays in, while the fleet is dislodged: the army does not land, and is lost."""
    units = [("Italy", "A", "rom"), ("Italy", "F", "tys"), ("France", "F", "lyo"), ("France", "F", "wes")]
    orders = {
        "Italy": ["A(Rom) boards F(TYS)", "A(TYS) disembarks Nap"],
        "France": ["F(Lyo) - TYS", "F(WMS) S F(Lyo) - TYS"],
    }
    outcome = run_case(_case(units, orders))
    landing = next(r for r in outcome["orders"] if r["input"] == "A(TYS) disembarks Nap")
    assert landing["result"] == "fails"
    assert "rules 4b, 4d" in landing["reason"]
    assert not any(u["power"] == "Italy" for u in outcome["units"])  # not in Naples, not at sea
    assert [(d["power"], d["unit"], d["at"]) for d in outcome["dislodged"]] == [("Italy", "F", "tys")]
    lost = [e for e in outcome["events"] if e["kind"] == "annihilated"]
    assert [(e["power"], e["unit"], e["at"]) for e in lost] == [("Italy", "A", "tys")]
    # the fleet not forced to retreat (one French fleet, 1 against 1): the army lands
    held = run_case(_case(units, {**orders, "France": ["F(Lyo) - TYS"]}))
    assert ("Italy", "A", "nap") in _units(held) and ("Italy", "F", "tys") in _units(held)


# --- rule 9: Atlantis ------------------------------------------------------------------------------------------


def _outcome_at(place: str, units: tuple[Any, ...] = (), centres: dict[str, str] | None = None) -> Outcome:
    return Outcome(
        phase=Phase("Fall", 1901, PhaseType.MOVEMENT),
        results=[],
        units=units,
        dislodged=(),
        standoffs=frozenset(),
        centres=dict(centres or {}),
        next_phase=Phase("Winter", 1901, PhaseType.ADJUSTMENT),
        variant_state={"atlantis": place},
    )


def test_atlantis_moves_where_the_highest_die_falls_and_ties_roll_again() -> None:
    rules = get_variant("mad").rules()
    assert candidates(rules, "swi") == ["swi", "bur", "mar", "mun", "pie", "tyr"]  # the text's six
    for seed in range(40):
        outcome = _outcome_at("swi")
        wander(rules, outcome, random.Random(seed))
        event = outcome.events[-1]
        assert isinstance(event, AtlantisMoved)
        last = event.rounds[-1]
        best = max(r.roll for r in last)
        assert [r.at for r in last if r.roll == best] == [event.to]
        assert all(len(later) <= len(earlier) for earlier, later in zip(event.rounds, event.rounds[1:], strict=False))
        assert outcome.variant_state["atlantis"] == event.to


def test_atlantis_is_credited_to_a_unit_standing_with_it_before_the_country_it_is_in() -> None:
    """Rule 9's exceptions: another power's unit in its province takes it; else the owner of a centre there; else
    the country; else nobody."""
    from judge.engine.units import ARMY, Force

    rules = get_variant("mad").rules()
    assert owner(rules, _outcome_at("bur")) == "France"
    assert owner(rules, _outcome_at("bur", (Force("Germany", ARMY, "bur"),))) == "Germany"
    assert owner(rules, _outcome_at("bel", centres={"bel": "England"})) == "England"
    assert owner(rules, _outcome_at("bel")) is None
    assert owner(rules, _outcome_at("nth")) is None


def test_atlantis_credited_at_the_years_end_can_bring_a_winter_the_moves_alone_would_not() -> None:
    """Germany's one unit on its one centre needs no winter; Atlantis, in Berlin and bound to stay in Germany (its
    land neighbours are all German), is credited to Germany at the year's end, and the build it brings (onto the
    army in Kiel, rule 5b) makes the Winter be played."""
    case = _case(
        [("Germany", "A", "kie"), ("France", "A", "par")],
        {"Germany": ["A Kie H"], "France": ["A Par H"]},
        phase=("Fall", 1901, "Movement"),
        supply_centers={"France": ["par"], "Germany": ["kie"]},
        state={"atlantis": "ber", "homes": {"France": ["par"], "Germany": ["kie"]}},
        options={"atlantis_moves": "land"},
        seed=1,
    )
    outcome = run_case(case)
    assert outcome["state"]["atlantis"] in {"ber", "kie", "mun", "pru", "sil"}
    assert sorted(outcome["supply_centers"]["Germany"]) == ["atlantis", "kie"]
    assert outcome["next_phase"] == {"season": "Winter", "year": 1901, "type": "Adjustment"}
    without = run_case({**case, "state": {**case["state"], "atlantis": "nth"}, "options": {"atlantis_moves": "any"}})
    if "atlantis" not in without["supply_centers"].get("Germany", []):
        assert without["next_phase"]["type"] == "Movement"


@pytest.mark.parametrize("orders", [["Remove A Tys"], []])
def test_the_army_of_an_a_f_is_removed_when_centres_fall_short(orders: list[str]) -> None:
    """Rule 4b: "The Game Master may remove the army of an army/fleet if lack of supply centers makes removal
    necessary, and the player fails to submit a removal": by the player's order, or in civil disorder."""
    case = {
        "variant": "mad",
        "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
        "units": [{"power": "Italy", "unit": "A/F", "at": "tys", "aboard": 1}],
        "orders": {"Italy": orders},
        "supply_centers": {"Italy": ["nap"]},
        "state": {"homes": {"Italy": ["nap"]}},
    }
    outcome = run_case(case)
    assert outcome["units"] == [{"power": "Italy", "unit": "F", "at": "tys"}]


def test_an_order_for_the_fleet_of_an_a_f_sails_the_army_aboard_with_it() -> None:
    """Rule 4b: "the A/F may then move"; `F(TYS) - WMS` for an A/F whose army has no order of its own moves the
    A/F (the army cannot be left alone at sea)."""
    units = [{"power": "Italy", "unit": "A/F", "at": "tys", "aboard": 1}]
    case = {
        "variant": "mad",
        "phase": {"season": "Spring", "year": 1902, "type": "Movement"},
        "units": units,
        "orders": {"Italy": ["F(TYS) - WMS"]},
    }
    outcome = run_case(case)
    assert outcome["units"] == [{"power": "Italy", "unit": "A/F", "at": "wes", "aboard": 2}]


def test_a_case_without_homes_builds_on_the_centres_within_the_country() -> None:
    """The centres inside a country are the ones its power placed (rule 2), so a case may leave `homes` out."""
    case = _case(
        [("France", "A", "bel")],
        {"France": ["Build A Par", "Build 2A Bur"]},
        phase=("Winter", 1901, "Adjustment"),
        supply_centers={"France": ["bur", "gas", "pic", "bel"]},
    )
    assert _results(run_case(case)) == {"France: Build A Par": "illegal", "France: Build 2A Bur": "succeeds"}


def test_supply_centres_and_boarding_read_as_players_write_them() -> None:
    spring = run_case(
        _case(
            [],
            {"France": ["Supply centre Burgundy", "Place SC in Gascony", "Centre: Pic"]},
            phase=("Spring", 1900, "Placement"),
        )
    )
    assert sorted(spring["supply_centers"]["France"]) == ["bur", "gas", "pic"]
    boarded = run_case(_case([("Italy", "A", "rom"), ("Italy", "F", "tys")], {"Italy": ["A(Rom) embarks on F(TYS)"]}))
    assert ("Italy", "A/F", "tys") in _units(boarded)


def test_atlantis_may_be_named_as_players_name_provinces() -> None:
    case = _case([("France", "A", "par")], {"France": ["A Par H"]}, state={"atlantis": "Switzerland"}, seed=2)
    outcome = run_case(case)
    [moved] = [e for e in outcome["events"] if e["kind"] == "atlantis"]
    assert moved["from"] == "swi" and outcome["state"]["atlantis"] in {"swi", "bur", "mar", "mun", "pie", "tyr"}


def test_an_army_is_not_built_onto_a_fleet_on_land() -> None:
    """Rule 6: "A's and F's may not merge except by the A/F move" (an A/F exists only at sea, rule 4b): a build of
    an army onto the power's fleet in a coastal home centre is refused; onto an army there it adds strength."""
    case = _case(
        [("France", "F", "gas"), ("France", "A", "bur")],
        {"France": ["Build A Gas", "Build A Bur"]},
        phase=("Winter", 1901, "Adjustment"),
        supply_centers={"France": ["bur", "gas", "pic", "bel"]},
    )
    outcome = run_case(case)
    assert _results(outcome) == {"France: Build A Gas": "illegal", "France: Build A Bur": "succeeds"}
    assert ("France", "2A", "bur") in _units(outcome)


def test_a_convoy_that_carried_nothing_annihilates_no_army() -> None:
    """Rule 4d is about an army being convoyed: a convoy order naming an army that did not move by it (here a
    German army holding) kills nothing when the fleet is dislodged."""
    case = _case(
        [("England", "F", "nth"), ("Germany", "A", "hol"), ("Germany", "F", "hel"), ("Germany", "F", "ska")],
        {"England": ["F Nth C A Hol - Yor"], "Germany": ["A Hol H", "F Hel - Nth", "F Ska S F Hel - Nth"]},
    )
    outcome = run_case(case)
    assert ("Germany", "A", "hol") in _units(outcome)
    assert not any(e["kind"] == "annihilated" for e in outcome["events"])
