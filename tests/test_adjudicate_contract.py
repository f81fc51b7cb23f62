"""`judge adjudicate`: the JSON contract GMs and other tools rely on (docs/adjudicate.md)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
from typing import Any

import pytest

from judge.contract import CaseError, run_case


def _judge(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "judge", *args], input=stdin, capture_output=True, text=True, check=False
    )


def _case(**extra: Any) -> dict[str, Any]:
    case: dict[str, Any] = {
        "variant": "standard",
        "phase": {"season": "Spring", "year": 1901, "type": "Movement"},
        "units": [
            {"power": "England", "unit": "F", "at": "nth"},
            {"power": "Germany", "unit": "A", "at": "mun"},
            {"power": "Austria", "unit": "A", "at": "boh"},
            {"power": "Austria", "unit": "A", "at": "tyr"},
            {"power": "Russia", "unit": "F", "at": "stp/sc"},
        ],
        "orders": {
            "England": ["F North Sea - Picardy"],
            "Austria": ["A boh - mun", "A tyr S A boh - mun"],
        },
    }
    case.update(extra)
    return case


def test_a_case_gives_one_outcome_with_every_order_explained() -> None:
    out = run_case(_case())
    orders = {o["input"]: o for o in out["orders"]}
    assert orders["F North Sea - Picardy"]["result"] == "illegal"
    assert orders["F North Sea - Picardy"]["order"] == "F nth - pic"
    assert "pic" in orders["F North Sea - Picardy"]["reason"]
    assert orders["A boh - mun"]["result"] == "succeeds"
    assert out["dislodged"] == [
        {
            "power": "Germany",
            "unit": "A",
            "at": "mun",
            "attacker_from": "boh",
            "retreats": ["ber", "bur", "kie", "ruh", "sil"],
        }
    ]
    assert out["next_phase"] == {"season": "Spring", "year": 1901, "type": "Retreat"}


def test_units_without_orders_hold_and_are_listed_as_added_holds() -> None:
    out = run_case(_case())
    added = [o for o in out["orders"] if o["input"] == ""]
    assert {o["order"] for o in added} == {"A mun H", "F stp/sc H"}


def test_an_outcome_fed_back_is_the_next_phase() -> None:
    first = run_case(_case())
    following = {**first, "phase": first["next_phase"], "orders": {"Germany": ["A mun - ruh"]}}
    second = run_case(following)
    assert {"power": "Germany", "unit": "A", "at": "ruh"} in second["units"]
    assert second["orders"][0]["result"] == "succeeds"
    assert second["next_phase"] == {"season": "Fall", "year": 1901, "type": "Movement"}


def test_unreadable_order_is_reported_inside_the_outcome() -> None:
    out = run_case(_case(orders={"England": ["F nth jumps to the moon"]}))
    entry = out["orders"][0]
    assert entry["result"] == "illegal"
    assert entry["reason"]


def test_ordering_another_powers_unit_is_illegal() -> None:
    out = run_case(_case(orders={"Germany": ["F nth - nwy"]}))
    assert out["orders"][0]["result"] == "illegal"
    assert "belongs to England" in out["orders"][0]["reason"]


def test_fall_ownership_changes_and_a_winner_is_named() -> None:
    centres = {"France": ["bre", "mar", "par", "spa", "por", "bel", "hol", "lon", "edi", "lvp", "nwy", "swe",
                          "den", "kie", "ber", "mun", "tun"]}  # fmt: skip
    case = {
        "variant": "standard",
        "phase": {"season": "Fall", "year": 1910, "type": "Movement"},
        "units": [{"power": "France", "unit": "A", "at": "bur"}],
        "supply_centers": centres,
        "orders": {"France": ["A bur - mun"]},
    }
    case["supply_centers"]["France"].remove("mun")
    out = run_case(case)
    assert "mun" in out["supply_centers"]["France"]
    assert len(out["supply_centers"]["France"]) == 17
    case["supply_centers"]["France"].append("ven")
    out = run_case(case)
    assert out["winner"] == ["France"]


def test_unknown_keys_are_ignored() -> None:
    out = run_case(_case(comment="from a GM's tool", extra={"x": 1}))
    assert out["variant"] == "standard"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"variant": "chess"}, "unknown variant"),
        ({"units": [{"power": "England", "unit": "F", "at": "atlantis"}]}, "unknown location"),
        ({"units": [{"power": "England", "unit": "F", "at": "mun"}]}, "fleet cannot stand in mun"),
        ({"units": [{"power": "England", "unit": "A", "at": "nth"}]}, "army cannot stand in nth"),
        ({"units": [{"power": "Russia", "unit": "F", "at": "stp"}]}, "must name its coast"),
        ({"units": [{"power": "England", "unit": "2A", "at": "lon"}]}, "is not a unit of standard"),
        ({"units": [{"power": "Prussia", "unit": "A", "at": "ber"}]}, "unknown power"),
        ({"options": {"paradox": "none"}}, "unknown option"),
        ({"options": {"edition": "1066"}}, "edition must be one of"),
    ],
)
def test_malformed_cases_are_rejected(change: dict[str, Any], message: str) -> None:
    with pytest.raises(CaseError, match=message):
        run_case(_case(**change))


def test_spelled_coasts_and_full_names_are_accepted_in_units() -> None:
    out = run_case(_case(units=[{"power": "Russia", "unit": "F", "at": "St. Petersburg (nc)"}], orders={}))
    assert out["units"] == [{"power": "Russia", "unit": "F", "at": "stp/nc"}]


def test_the_command_reads_one_case_and_writes_one_outcome() -> None:
    done = _judge("adjudicate", stdin=json.dumps(_case()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["phase"]["type"] == "Movement"


def test_the_command_exits_2_with_one_line_on_a_malformed_case() -> None:
    done = _judge("adjudicate", stdin="{not json")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    done = _judge("adjudicate", stdin=json.dumps(_case(variant="chess")))
    assert done.returncode == 2 and "unknown variant" in done.stderr


def test_jsonl_batch_keeps_order_and_survives_a_bad_line() -> None:
    lines = [json.dumps(_case()), "{oops", json.dumps(_case(variant="chess")), json.dumps(_case(orders={}))]
    done = _judge("adjudicate", "--jsonl", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(outs) == 4
    assert "orders" in outs[0] and "error" in outs[1] and "unknown variant" in outs[2]["error"]
    assert all(o["result"] == "succeeds" for o in outs[3]["orders"])


def test_variant_override_on_the_command_line() -> None:
    done = _judge("adjudicate", "--variant", "standard", stdin=json.dumps(_case(variant="nonsense")))
    assert done.returncode == 0, done.stderr


def test_variants_and_their_options_are_listed() -> None:
    done = _judge("variants", "--options", "standard", stdin="")
    assert "edition" in done.stdout


def test_jsonl_answers_each_case_before_the_next_is_sent() -> None:
    """A program may send one case and wait for its outcome before it sends the next (docs/adjudicate.md): each
    outcome is written as soon as no further input is waiting, never held back for a block of them."""
    buffered = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    process = subprocess.Popen(
        [sys.executable, "-m", "judge", "adjudicate", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=buffered,  # as most programs start it: its output to a pipe is buffered unless it flushes
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for year in (1901, 1902, 1903):
            case = _case(phase={"season": "Spring", "year": year, "type": "Movement"})
            process.stdin.write((json.dumps(case) + "\n").encode())
            process.stdin.flush()
            ready, _, _ = select.select([process.stdout], [], [], 60)
            assert ready, f"no outcome for the {year} case while the judge waited for the next one"
            outcome = json.loads(process.stdout.readline())
            assert outcome["phase"]["year"] == year
    finally:
        process.stdin.close()
        process.wait(timeout=60)
    assert process.returncode == 0
