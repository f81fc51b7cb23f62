"""The engine's refusals and events are values (issue 26, item 6): an illegal order carries a typed refusal
naming what it concerns, rendered once to the sentence the contract and the mails print; events are typed
classes whose JSON is what the contract always wrote; a variant's own verbs are read by the order reader into
values."""

from __future__ import annotations

from typing import Any

from judge.board import load_map
from judge.contract import run_case
from judge.engine import Force, Phase, PhaseType, Position, Rules, Submitted, adjudicate
from judge.engine.events import AtlantisMoved, CivilDisorderRemoval, Eliminated, Roll
from judge.engine.kinds import reason_from_json
from judge.engine.order_text import render_order
from judge.engine.orders import Order, OrderKind, UnitRef
from judge.engine.refusals import (
    AndSo,
    MoveToOwnProvince,
    NotAdjacent,
    NotThisPhase,
    NoUnitAt,
    Then,
    WhichCoast,
)
from judge.engine.units import ARMY, FLEET
from judge.notation import parse_order
from judge.variants import get_variant

SPRING = Phase("Spring", 1901, PhaseType.MOVEMENT)


def _results(units: tuple[Force, ...], lines: list[str]) -> list[Any]:
    rules = Rules.build(load_map("standard"))
    subs = [Submitted("France", line, parse_order(rules.board, line)) for line in lines]
    outcome = adjudicate(rules, Position(SPRING, units, {}), subs, 0)
    return [r for r in outcome.results if r.input]


def test_an_order_for_an_empty_province_is_refused_with_the_province_named() -> None:
    [row] = _results((Force("France", ARMY, "par"),), ["A bur - mun"])
    assert row.reasons == (NoUnitAt("bur"),)
    assert row.reason == "there is no unit in bur"


def test_an_impossible_move_is_refused_with_what_it_concerns_and_what_the_unit_does() -> None:
    [row] = _results((Force("France", FLEET, "bre"),), ["F bre - nth"])
    assert row.reasons == (AndSo(NotAdjacent("nth", "bre"), Then.UNIT),)
    assert row.reason == "nth is not next to bre for a fleet; the unit holds"
    [coast] = _results((Force("France", FLEET, "mao"),), ["F mao - spa"])
    assert coast.reasons == (AndSo(WhichCoast("spa", ("spa/nc", "spa/sc")), Then.UNIT),)


def test_a_refusal_keeps_the_sentence_it_always_had_beside_its_kind() -> None:
    """Issue 42: the contract writes a refusal as its own kind with its fields, and the sentence the note held
    (`words`) beside them; `reason` is the same to the byte."""
    refusal = AndSo(MoveToOwnProvince(), Then.UNIT)
    words = "a unit cannot move to the province it stands in; the unit holds"
    assert refusal.json()["words"] == words == str(refusal)
    assert reason_from_json(refusal.json()) == refusal
    outcome = run_case(
        {
            "variant": "standard",
            "units": [{"power": "France", "unit": "A", "at": "par"}],
            "orders": {"France": ["A par - par"]},
        }
    )
    assert outcome["orders"][0]["reason"] == words
    assert [r["words"] for r in outcome["orders"][0]["reasons"]] == [words]


def test_an_order_of_the_wrong_phase_names_its_kind_and_the_phase() -> None:
    assert (
        NotThisPhase(OrderKind.BUILD, PhaseType.MOVEMENT).text() == "a build order is not possible in a movement phase"
    )
    assert (
        NotThisPhase(OrderKind.MOVE, PhaseType.ADJUSTMENT).text()
        == "a move order is not possible in an adjustment phase"
    )


def test_events_are_typed_and_write_the_json_they_were() -> None:
    moved = AtlantisMoved("swi", "bur", 6, ((Roll("swi", 3), Roll("bur", 6)),))
    assert moved.json() == {
        "kind": "atlantis",
        "from": "swi",
        "to": "bur",
        "roll": 6,
        "rounds": [[{"at": "swi", "roll": 3}, {"at": "bur", "roll": 6}]],
    }
    rules = Rules.build(load_map("standard"))
    winter = Position(Phase("Winter", 1901, PhaseType.ADJUSTMENT), (Force("Germany", ARMY, "ruh"),), {})
    outcome = adjudicate(rules, winter, [], 0)
    assert outcome.events == [CivilDisorderRemoval("Germany", "A", "ruh"), Eliminated("Germany")]
    assert [e.json() for e in outcome.events] == [
        {"kind": "civil_disorder_removal", "power": "Germany", "unit": "A", "at": "ruh"},
        {"kind": "eliminated", "power": "Germany"},
    ]


def test_a_variants_verbs_are_read_into_values() -> None:
    """Hoplite Wars' CAPTURE (rule 5), CONVERT and "transform" (rule 9), SACK with the place named (rule 7)."""
    rules = get_variant("hoplite").rules()
    board, verbs = rules.board, rules.verbs
    capture = parse_order(board, "CAPTURE Megara FOR Anactorium", verbs)
    assert capture == Order(OrderKind.CAPTURE, None, destination="meg", for_power="Anactorium")
    assert render_order(capture) == "CAPTURE meg FOR Anactorium"
    transform = parse_order(board, "Transform A(Cor) to F", verbs)
    assert transform == Order(OrderKind.CONVERT, UnitRef(ARMY, "cor"), target=UnitRef(FLEET, "cor"))
    assert parse_order(board, "CONVERT A meg -> F(nc)", verbs).target == UnitRef(FLEET, "meg/nc")
    sack = parse_order(board, "A(Del) SACK Delphi", verbs)
    assert sack == Order(OrderKind.SACK, UnitRef(ARMY, "del"), destination="del")
