"""The judge's own marks and the players' state kept apart from the GM's settings (issue 42, item 4): migration
0011_marks moves what an older database holds in `games.settings` into their columns, and leaves there only what
SET takes, as it was."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

from alembic import command
from sqlalchemy import select, text

from judge.clock import as_utc
from judge.store import Game, Marks, open_database
from judge.store.db import alembic_config, make_engine, migrating

OLD_SETTINGS = {
    "timing": {"zone": "Europe/Paris", "manual": False},
    "nmr": "wait",
    "absences": {"France": ["2026-12-01T00:00:00+00:00", "2026-12-03T00:00:00+00:00"]},
    "_reminded": 7,
    "_late": 6,
    "_gm_told": 5,
    "_processed": 6,
    "_no_early": 4,
    "_failed": 3,
    "_paused_at": "2026-12-02T10:30:00+00:00",
    "observers": ["watcher@example.org"],
    "concessions": {"Italy": "France"},
    "pictures.off": ["England"],
    "note": "Press is grey from now on.",
}
GM_SETTINGS = {"timing": {"zone": "Europe/Paris", "manual": False}, "nmr": "wait"}
"""what SET takes, of the settings above: all that is left in the settings"""


def _old_database(url: str) -> None:
    """A database at 0009 (before the marks had columns) holding one game with every mark in its settings."""
    engine = make_engine(url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0009")
        conn.execute(text("INSERT INTO players (address, name, password_hash, created_at) "
                          "VALUES ('gm@example.org', 'GM', 'x', CURRENT_TIMESTAMP)"))  # fmt: skip
        conn.execute(
            text("INSERT INTO games (name, variant, options, settings, status, gm_id, password_hash, seed, "
                 "phase_index, created_at, version) VALUES ('old', 'standard', '{}', :settings, 'paused', "
                 "(SELECT id FROM players), 'x', 1, 7, CURRENT_TIMESTAMP, 1)"),
            {"settings": json.dumps(OLD_SETTINGS)},
        )  # fmt: skip
        conn.execute(
            text('INSERT INTO phases (game_id, "index", season, year, type, position_before, orders, outcome, '
                 "position_after, seed, processed_at) VALUES ((SELECT id FROM games), 0, 'Spring', 1901, "
                 "'Movement', '{}', '{}', '{}', '{}', 7, CURRENT_TIMESTAMP)"),
        )  # fmt: skip
    engine.dispose()


def test_the_upgrade_moves_every_mark_and_the_players_state_out_of_the_settings(database_url: str) -> None:
    _old_database(database_url)
    db = open_database(database_url)  # upgrades to the head on start
    with db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == "old")).one()
        marks, settings = game.marks, game.settings
        absences, observers, concessions = game.absences, game.observers, game.concessions
        pictures_off, note = game.pictures_off, game.note
    db.dispose()
    paused = datetime(2026, 12, 2, 10, 30, tzinfo=UTC)
    assert as_utc(marks.paused_at) == paused  # SQLite keeps no zone: read back as UTC, as every moment is
    assert replace(marks, paused_at=None) == Marks(reminded=7, late=6, gm_told=5, processed=6, no_early=4, failed=3)
    assert settings == GM_SETTINGS
    assert (absences, observers, concessions, pictures_off, note) == (
        OLD_SETTINGS["absences"], ["watcher@example.org"], {"Italy": "France"}, ["England"],
        "Press is grey from now on.",
    )  # fmt: skip


def test_the_downgrade_puts_everything_back_where_the_older_judge_reads_it(sqlite_url: str) -> None:
    _old_database(sqlite_url)
    engine = make_engine(sqlite_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "head")
        command.downgrade(alembic_config(conn), "0009")
        stored = conn.execute(text("SELECT settings FROM games WHERE name = 'old'")).scalar_one()
    engine.dispose()
    assert json.loads(stored) == OLD_SETTINGS


def test_a_game_without_marks_reads_as_no_mark_at_all(sqlite_url: str) -> None:
    """A new game has no mark: the composite reads as `Marks()`, every phase still to do."""
    _old_database(sqlite_url)
    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        conn.execute(text("UPDATE games SET settings = '{}'"))
    engine.dispose()
    db = open_database(sqlite_url)
    with db.transaction() as s:
        assert s.scalars(select(Game.marks)).one() == Marks()
    db.dispose()


def test_the_game_keeps_its_phases_through_the_rebuilt_table(database_url: str) -> None:
    """SQLite's batch migration rebuilds `games` (copy, drop, rename): with the foreign keys enforced the drop
    deleted every phase of every game by its ON DELETE CASCADE. The migrations run with the keys off and checked
    after (`judge.store.db.migrating`): the old game's phase is still there after the upgrade, and after a
    downgrade and an upgrade again."""
    _old_database(database_url)
    db = open_database(database_url)
    with db.transaction() as s:
        assert s.execute(text("SELECT count(*) FROM phases")).scalar_one() == 1
    db.dispose()
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), "0009")
        command.upgrade(alembic_config(conn), "head")
        assert conn.execute(text("SELECT count(*) FROM phases")).scalar_one() == 1
    engine.dispose()
