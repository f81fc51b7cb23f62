"""Checking a case transcribed from a rule text or the DATC (`{"case": ..., "expect": ...}`) against what
`judge adjudicate` gives: one checker for the DATC and the variants' worked examples alike."""

from __future__ import annotations

from collections import Counter
from typing import Any

from judge.contract import run_case


def _units(entries: list[dict[str, Any]]) -> Counter[tuple[str, str, str]]:
    return Counter((u["power"], u["unit"], u["at"]) for u in entries)


def _dislodged(entries: list[dict[str, Any]]) -> Counter[tuple[str, str, str, Any]]:
    """A merge's attack comes from several provinces: `attacker_from` is then a list."""

    def origin(value: Any) -> Any:
        return tuple(sorted(value)) if isinstance(value, list) else value

    return Counter((u["power"], u["unit"], u["at"], origin(u.get("attacker_from"))) for u in entries)


def check_case(case: dict[str, Any]) -> None:
    """Each expected order result (an illegal order counts as failed; `null` only claims the line), a phrase its
    reason must contain where one is given, and the units and dislodged units after, where given."""
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
