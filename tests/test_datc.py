"""Every DATC v3 test case (chapter 6), run through the `judge adjudicate` contract."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.contract import run_case

HERE = Path(__file__).parent / "datc"


def _cases() -> list[Any]:
    cases = []
    for path in sorted(HERE.glob("6*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=f"{case['id']} {case['title']}"))
    return cases


def _units(entries: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    return sorted((u["power"], u["unit"], u["at"]) for u in entries)


def _dislodged(entries: list[dict[str, Any]]) -> list[tuple[str, str, str, str | None]]:
    return sorted((u["power"], u["unit"], u["at"], u.get("attacker_from")) for u in entries)


@pytest.mark.parametrize("case", _cases())
def test_datc(case: dict[str, Any]) -> None:
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
    if expect.get("units") is not None:
        assert _units(outcome["units"]) == _units(expect["units"])
    if expect.get("dislodged") is not None:
        assert _dislodged(outcome["dislodged"]) == _dislodged(expect["dislodged"])
