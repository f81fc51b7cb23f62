"""A phase stored before issue 42 (refusals as notes, orders without `read`, die rolls in words) reads back to the
values its results are printed from: its stored input is adjudicated again and the values taken where the two
outcomes tell the same (judge/contract/stored.py, migration 0012); an outcome that cannot be brought up still
reads, its words as stored."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

from alembic import command
from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.contract.adjudicate import run_case
from judge.contract.stored import needs_values, with_values
from judge.engine.kinds import reasons_from_json
from judge.engine.reasons import Note
from judge.render import render_results
from judge.store import open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.store.models import Game, PhaseRecord, Player

SPRING = {"season": "Spring", "year": 1901, "type": "Movement"}
UNITS = [
    {"power": "France", "unit": "A", "at": "par"},
    {"power": "France", "unit": "A", "at": "mar"},
    {"power": "Germany", "unit": "A", "at": "mun"},
]
LINES = {"France": ["A par - bur", "A mar - mun"], "Germany": ["A mun - bur", "A kie - ber"]}
"""a standoff in Burgundy, a move that is not adjacent (illegal, printed void) and an order for no unit"""


def _position() -> dict[str, Any]:
    return {"variant": "standard", "phase": SPRING, "units": UNITS, "supply_centers": {}}


def _fresh() -> dict[str, Any]:
    return run_case({**_position(), "orders": LINES, "seed": 7})


def _as_stored_before_issue_42(outcome: dict[str, Any]) -> dict[str, Any]:
    """The outcome as the judge stored it then: each refusal a note of its words, no `read`."""
    old = copy.deepcopy(outcome)
    for line in old["orders"]:
        line.pop("read", None)
        line["reasons"] = [
            {"kind": "note", "words": r["words"]} if "words" in r and r["kind"] != "note" else r
            for r in line["reasons"]
        ]
    return old


def test_an_old_outcome_is_brought_up_to_the_values_of_the_same_phase_adjudicated_again() -> None:
    fresh = _fresh()
    old = _as_stored_before_issue_42(fresh)
    assert needs_values(old) and not needs_values(fresh)
    assert any(isinstance(r, Note) for line in old["orders"] for r in reasons_from_json(line["reasons"]))
    upgraded = with_values(old, fresh)
    assert upgraded == fresh
    assert render_results("g", upgraded, fresh["next_phase"]) == render_results("g", fresh, fresh["next_phase"])


def test_an_old_outcome_that_the_engine_would_now_tell_otherwise_is_left_as_it_was_sent() -> None:
    fresh = _fresh()
    old = _as_stored_before_issue_42(fresh)
    old["orders"][0]["result"] = "succeeds"  # what an earlier engine told the players
    assert with_values(old, fresh) is old
    sheet = render_results("g", old, fresh["next_phase"])  # it still reads, its words as stored
    assert "A par - bur" in sheet


def test_migration_0012_brings_every_stored_phase_up_to_its_values(sqlite_url: str) -> None:
    db = open_database(sqlite_url)
    fresh = _fresh()
    old = _as_stored_before_issue_42(fresh)
    now = datetime(2026, 12, 4, tzinfo=UTC)
    with Session(db.engine) as s, s.begin():
        gm = Player(address="gm@example.org", name="GM", password_hash="x", created_at=now)
        game = Game(name="old", variant="standard", gm=gm, password_hash="x", seed=1, created_at=now)
        s.add(game)
        s.flush()
        s.add(PhaseRecord(game_id=game.id, index=0, season="Spring", year=1901, type="Movement",
                          position_before=_position(), orders=LINES, outcome=old, position_after={}, seed=7,
                          processed_at=now))  # fmt: skip
    db.dispose()
    engine = make_engine(sqlite_url)
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), "0009")
        command.upgrade(alembic_config(conn), "head")
    with Session(engine) as s:
        stored = s.scalars(select(PhaseRecord.outcome)).one()
    engine.dispose()
    assert stored == fresh
