"""Issue 28: "A move beaten by a stronger one is reported as 'bounced with'; say it was beaten, and by what
strength." A move that fails against another attack on its destination, the unit holding it or a unit coming the
other way says which it was: a standoff of equal strengths (naming the units, with the strength of each) or beaten
by a stronger one (naming it, with both strengths, the stronger first); as values (`judge/engine/reasons.py`), in
the contract's `reasons` and `reason`, and in the results mail. In the multi-unit variants the strengths are the
variant's (a stack, a multiple unit, units moving in unison)."""

from __future__ import annotations

from typing import Any

from judge.contract import run_case
from judge.engine.kinds import reason_from_json
from judge.engine.reasons import Beaten, Bounced, HeadToHead, HeldBy, UnitName
from judge.render import render_results


def _outcome(variant: str, units: list[tuple[str, str, str]], orders: dict[str, list[str]]) -> dict[str, Any]:
    return run_case(
        {"variant": variant, "units": [{"power": p, "unit": u, "at": a} for p, u, a in units], "orders": orders}
    )


def _line(outcome: dict[str, Any], given: str) -> dict[str, Any]:
    return next(line for line in outcome["orders"] if line["input"] == given)


def _unit(power: str, unit: str, at: str) -> dict[str, str]:
    return {"power": power, "unit": unit, "at": at}


# --- standard ---------------------------------------------------------------------------------------------


def test_a_move_beaten_by_a_stronger_one_says_by_what_strength() -> None:
    units = [("France", "A", "bur"), ("France", "A", "ruh"), ("Italy", "A", "tyr")]
    orders = {"France": ["A Bur - Mun", "A Ruh S A Bur - Mun"], "Italy": ["A Tyr - Mun"]}
    outcome = _outcome("standard", units, orders)
    beaten = _line(outcome, "A Tyr - Mun")
    assert beaten["result"] == "fails"
    assert beaten["reasons"] == [{"kind": "beaten", "by": [_unit("France", "A", "bur")], "attack": 1, "prevent": 2}]
    assert beaten["reason"] == "beaten by France A bur (strength 2 against 1)"
    assert "bounced" not in beaten["reason"]


def test_a_standoff_of_equal_strengths_names_the_units_and_the_strength_of_each() -> None:
    units = [("France", "A", "bur"), ("Italy", "A", "tyr"), ("Austria", "A", "boh")]
    orders = {"France": ["A Bur - Mun"], "Italy": ["A Tyr - Mun"], "Austria": ["A Boh - Mun"]}
    outcome = _outcome("standard", units, orders)
    line = _line(outcome, "A Tyr - Mun")
    assert line["reasons"] == [
        {"kind": "bounced", "with": [_unit("France", "A", "bur"), _unit("Austria", "A", "boh")], "strength": 1}
    ]
    assert line["reason"] == "bounced with France A bur, Austria A boh (strength 1 each)"
    assert outcome["standoffs"] == ["mun"]


def test_a_move_beaten_by_one_attack_and_stood_off_by_another_says_both() -> None:
    units = [("France", "A", "bur"), ("France", "A", "ruh"), ("Italy", "A", "tyr"), ("Austria", "A", "boh")]
    orders = {"France": ["A Bur - Mun", "A Ruh S A Bur - Mun"], "Italy": ["A Tyr - Mun"], "Austria": ["A Boh - Mun"]}
    line = _line(_outcome("standard", units, orders), "A Tyr - Mun")
    assert line["reason"] == (
        "beaten by France A bur (strength 2 against 1); bounced with Austria A boh (strength 1 each)"
    )


def test_a_move_against_a_stronger_hold_says_it_was_held_off_and_by_what_strength() -> None:
    units = [("Germany", "A", "mun"), ("Germany", "A", "ber"), ("France", "A", "bur")]
    orders = {"Germany": ["A Mun H", "A Ber S A Mun"], "France": ["A Bur - Mun"]}
    line = _line(_outcome("standard", units, orders), "A Bur - Mun")
    assert line["reasons"] == [
        {"kind": "held_by", "by": _unit("Germany", "A", "mun"), "attack": 1, "hold": 2, "stayed": False}
    ]
    assert line["reason"] == "held off by Germany A mun (strength 2 against 1)"
    assert HeldBy(UnitName("Germany", "A", "mun"), 1, 2).beaten


def test_a_move_against_an_equal_hold_bounced_off_it() -> None:
    units = [("Germany", "A", "mun"), ("France", "A", "bur")]
    line = _line(_outcome("standard", units, {"France": ["A Bur - Mun"]}), "A Bur - Mun")
    assert line["reason"] == "bounced off Germany A mun (strength 1 each)"
    assert not HeldBy(UnitName("Germany", "A", "mun"), 1, 1).beaten


def test_a_unit_that_failed_to_move_away_still_says_the_strengths_it_held_with() -> None:
    units = [("Germany", "A", "mun"), ("Germany", "A", "kie"), ("France", "A", "bur")]
    orders = {"Germany": ["A Mun - Kie", "A Kie H"], "France": ["A Bur - Mun"]}
    line = _line(_outcome("standard", units, orders), "A Bur - Mun")
    assert line["reason"] == "bounced off Germany A mun, which did not move away (strength 1 each)"


def test_head_to_head_a_move_beaten_by_a_stronger_one_says_so_and_an_equal_one_is_a_standoff() -> None:
    units = [("France", "A", "pic"), ("France", "A", "bur"), ("Germany", "A", "bel")]
    orders = {"France": ["A Pic - Bel", "A Bur S A Pic - Bel"], "Germany": ["A Bel - Pic"]}
    beaten = _line(_outcome("standard", units, orders), "A Bel - Pic")
    assert beaten["reason"].startswith("beaten head to head by France A pic (strength 2 against 1)")
    orders = {"France": ["A Pic - Bel"], "Germany": ["A Bel - Pic"]}
    equal = _outcome("standard", [("France", "A", "pic"), ("Germany", "A", "bel")], orders)
    assert _line(equal, "A Bel - Pic")["reason"] == "bounced head to head with France A pic (strength 1 each)"
    assert HeadToHead(UnitName("France", "A", "pic"), 1, 2).beaten
    assert not HeadToHead(UnitName("France", "A", "pic"), 1, 1).beaten


def test_the_results_mail_says_a_move_was_beaten_and_by_what_strength() -> None:
    units = [("France", "A", "bur"), ("France", "A", "ruh"), ("Italy", "A", "tyr")]
    orders = {"France": ["A Bur - Mun", "A Ruh S A Bur - Mun"], "Italy": ["A Tyr - Mun"]}
    outcome = _outcome("standard", units, orders)
    sheet = render_results("zine", outcome, outcome["next_phase"])
    assert "Italy:    A Tyr - Mun  (*bounce*)\n            -- beaten by France A Bur (strength 2 against 1)" in sheet


# --- the multi-unit variants: strengths are the variant's -------------------------------------------------


def test_a_move_beaten_by_a_stronger_multiple_unit_says_by_what_strength_multiplicity1() -> None:
    units = [("France", "2A", "bur"), ("Germany", "A", "ruh")]
    outcome = _outcome("multiplicity1", units, {"France": ["2A Bur - Mun"], "Germany": ["A Ruh - Mun"]})
    assert _line(outcome, "A Ruh - Mun")["reason"] == "beaten by France 2A bur (strength 2 against 1)"


def test_a_move_against_a_stronger_multiple_unit_holding_is_held_off_multiplicity1() -> None:
    units = [("France", "2A", "mun"), ("Germany", "A", "ruh")]
    outcome = _outcome("multiplicity1", units, {"Germany": ["A Ruh - Mun"]})
    assert _line(outcome, "A Ruh - Mun")["reason"] == "held off by France 2A mun (strength 2 against 1)"


def test_a_move_beaten_by_a_stack_says_by_what_strength_multiplomacy() -> None:
    units = [("France", "A", "bur"), ("France", "A", "bur"), ("Germany", "A", "ruh")]
    outcome = _outcome("multiplomacy", units, {"France": ["2 A Bur - Mun"], "Germany": ["A Ruh - Mun"]})
    line = _line(outcome, "A Ruh - Mun")
    assert line["reasons"] == [{"kind": "beaten", "by": [_unit("France", "2A", "bur")], "attack": 1, "prevent": 2}]
    assert line["reason"] == "beaten by France 2A bur (strength 2 against 1)"


def test_a_move_beaten_by_units_moving_in_unison_names_each_multiplomacy() -> None:
    units = [("France", "A", "bur"), ("France", "A", "tyr"), ("Germany", "A", "ruh")]
    orders = {"France": ["A Bur - Mun", "A Tyr - Mun"], "Germany": ["A Ruh - Mun"]}
    line = _line(_outcome("multiplomacy", units, orders), "A Ruh - Mun")
    assert line["reason"] == "beaten by France A bur, France A tyr (strength 2 against 1)"


def test_equal_stacks_stand_off_at_the_strength_of_each_multiplomacy() -> None:
    units = [("France", "A", "bur"), ("France", "A", "bur"), ("Germany", "A", "ruh"), ("Germany", "A", "ruh")]
    outcome = _outcome("multiplomacy", units, {"France": ["2 A Bur - Mun"], "Germany": ["2 A Ruh - Mun"]})
    assert _line(outcome, "2 A Ruh - Mun")["reason"] == "bounced with France 2A bur (strength 2 each)"


def test_a_move_beaten_by_a_stronger_unit_says_by_what_strength_mad() -> None:
    units = [("France", "3A", "bur"), ("Germany", "2A", "ruh")]
    outcome = _outcome("mad", units, {"France": ["3A Bur - Mun"], "Germany": ["2A Ruh - Mun"]})
    assert _line(outcome, "2A Ruh - Mun")["reason"] == "beaten by France 3A bur (strength 3 against 2)"


# --- stored outcomes --------------------------------------------------------------------------------------


def test_a_beaten_move_reads_back_as_the_same_value() -> None:
    beaten = Beaten((UnitName("France", "A", "bur"),), 1, 2)
    assert reason_from_json(beaten.json()) == beaten
    bounced = Bounced((UnitName("France", "A", "bur"),), 1)
    assert reason_from_json(bounced.json()) == bounced


def test_a_bounce_stored_before_strengths_were_kept_reads_back_without_them() -> None:
    """Outcomes stored before issue 28 have `bounced` without `strength`: read back, they say what they said."""
    stored = {"kind": "bounced", "with": [_unit("France", "A", "bur")]}
    value = reason_from_json(stored)
    assert value == Bounced((UnitName("France", "A", "bur"),))
    assert value.text() == "bounced with France A bur"
