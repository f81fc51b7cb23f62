"""Every worked example of the variant rule texts (tests/variants/*.json), run through `judge adjudicate`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.contract.adjudicate import run_case
from judge.testing.cases import check_case

HERE = Path(__file__).parent / "variants"


def _cases(variant: str) -> list[Any]:
    cases = json.loads((HERE / f"{variant}.json").read_text(encoding="utf-8"))
    return [pytest.param(case, id=case["id"]) for case in cases]


@pytest.mark.parametrize("case", _cases("multiplomacy"))
def test_multiplomacy_worked_example(case: dict[str, Any]) -> None:
    check_case(case)


@pytest.mark.parametrize("case", _cases("multiplicity1"))
def test_multiplicity1_worked_example(case: dict[str, Any]) -> None:
    check_case(case)


@pytest.mark.parametrize("case", _cases("multiplicity2"))
def test_multiplicity2_worked_example(case: dict[str, Any]) -> None:
    check_case(case)


@pytest.mark.parametrize("case", _cases("mad"))
def test_mad_worked_example(case: dict[str, Any]) -> None:
    """Also the centres after a placement and who is credited with Atlantis, where the case says."""
    check_case(case)
    expect = case["expect"]
    if expect.get("supply_centers") is None and expect.get("atlantis_owner") is None:
        return
    outcome = run_case(case["case"])
    if expect.get("supply_centers") is not None:
        got = {power: sorted(centres) for power, centres in outcome["supply_centers"].items() if centres}
        assert got == {power: sorted(centres) for power, centres in expect["supply_centers"].items() if centres}
    if expect.get("atlantis_owner") is not None:
        assert "atlantis" in outcome["supply_centers"].get(expect["atlantis_owner"], [])


@pytest.mark.parametrize("case", _cases("hepta"))
def test_hepta_worked_example(case: dict[str, Any]) -> None:
    """Also the winners with their kind of win, and the centres after the phase, where the case says."""
    check_case(case)
    expect = case["expect"]
    if "winner" not in expect and expect.get("supply_centers") is None:
        return
    outcome = run_case(case["case"])
    if "winner" in expect:
        key = lambda w: w["side"] if isinstance(w, dict) else str(w)  # noqa: E731 - a sort key
        assert sorted(outcome["winner"] or [], key=key) == sorted(expect["winner"] or [], key=key)
    if expect.get("supply_centers") is not None:
        got = {power: sorted(centres) for power, centres in outcome["supply_centers"].items() if centres}
        assert got == {power: sorted(centres) for power, centres in expect["supply_centers"].items() if centres}


@pytest.mark.parametrize("case", _cases("hoplite"))
def test_hoplite_worked_example(case: dict[str, Any]) -> None:
    """Also the winner, the centres, the state's sack, the colonies and the events, where the case says."""
    check_case(case)
    expect = case["expect"]
    outcome = run_case(case["case"])
    if "winner" in expect:
        assert (outcome["winner"] or None) == (expect["winner"] or None)
    if expect.get("supply_centers") is not None:
        got = {power: sorted(centres) for power, centres in outcome["supply_centers"].items() if centres}
        assert got == {power: sorted(centres) for power, centres in expect["supply_centers"].items() if centres}
    for power, centres in (expect.get("supply_centers_include") or {}).items():
        assert set(centres) <= set(outcome["supply_centers"].get(power, [])), power
    if "sacked_by" in expect:
        assert (outcome.get("state") or {}).get("sacked_by") == expect["sacked_by"]
    for wanted in expect.get("events_include") or []:
        assert any(all(e.get(k) == v for k, v in wanted.items()) for e in outcome["events"]), wanted
    if expect.get("colonies_one_each"):
        declared = {e["colony"]: e["major"] for e in outcome["events"] if e["kind"] == "colony"}
        assert len(declared) == 7 and len(set(declared.values())) == 7
        assert all(colony in outcome["supply_centers"][major] for colony, major in declared.items())
