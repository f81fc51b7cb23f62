"""Every worked example of the variant rule texts (tests/variants/*.json), run through `judge adjudicate`."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from judge.contract import run_case

HERE = Path(__file__).parent / "variants"


def _cases(variant: str) -> list[Any]:
    cases = json.loads((HERE / f"{variant}.json").read_text(encoding="utf-8"))
    return [pytest.param(case, id=case["id"]) for case in cases]


def _units(entries: list[dict[str, Any]]) -> Counter[tuple[str, str, str]]:
    return Counter((u["power"], u["unit"], u["at"]) for u in entries)


def _dislodged(entries: list[dict[str, Any]]) -> Counter[tuple[str, str, str]]:
    return Counter((u["power"], u["unit"], u["at"]) for u in entries)


def check_case(case: dict[str, Any]) -> None:
    outcome = run_case(case["case"])
    expect = case["expect"]
    remaining = list(outcome["orders"])
    for want in expect["results"]:
        result = next(o for o in remaining if (o["power"], o["input"]) == (want["power"], want["input"]))
        remaining.remove(result)
        if want["result"] is None:
            continue
        actual = "fails" if result["result"] == "illegal" else result["result"]
        assert actual == want["result"], f"{want['power']}: {want['input']} -> {result}"
        if "reason_contains" in want:
            wanted = want["reason_contains"].lower()
            assert wanted in result["reason"].lower() or wanted in result["order"].lower()
    if expect.get("units") is not None:
        assert _units(outcome["units"]) == _units(expect["units"])
    if expect.get("dislodged") is not None:
        assert _dislodged(outcome["dislodged"]) == _dislodged(expect["dislodged"])


@pytest.mark.parametrize("case", _cases("multiplomacy"))
def test_multiplomacy_worked_example(case: dict[str, Any]) -> None:
    check_case(case)


@pytest.mark.parametrize("case", _cases("multiplicity1"))
def test_multiplicity1_worked_example(case: dict[str, Any]) -> None:
    check_case(case)


@pytest.mark.parametrize("case", _cases("multiplicity2"))
def test_multiplicity2_worked_example(case: dict[str, Any]) -> None:
    check_case(case)
