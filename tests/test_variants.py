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
