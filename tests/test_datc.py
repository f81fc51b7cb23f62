"""Every DATC v3 test case (chapter 6), run through the `judge adjudicate` contract."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from judge.testing.cases import check_case

HERE = Path(__file__).parent / "datc"


def _cases() -> list[Any]:
    cases = []
    for path in sorted(HERE.glob("6*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            cases.append(pytest.param(case, id=f"{case['id']} {case['title']}"))
    return cases


@pytest.mark.parametrize("case", _cases())
def test_datc(case: dict[str, Any]) -> None:
    check_case(case)
