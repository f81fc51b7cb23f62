"""What happened to a game is kept as typed events (judge/game/events.py): the public part only. Addresses,
press bodies and orders before their phase is processed never reach the stored history, which the web pages
will read."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from judge.game import Games
from judge.game.events import GamePaused, GameStarted, PhaseProcessed, PressPosted
from judge.store import GameEventRecord, open_database
from judge.testing.mail_rig import Judge
from judge.testing.tables import POWERS


def full_games(games: Games, count: int) -> None:
    """Started standard games g0, g1 ...; each player registered under a name, not their address."""
    games.accounts.register("gm@example.org", "The GM", "pw")
    for g in range(count):
        games.seating.create_game(f"g{g}", "standard", "gm@example.org", "pw", seed=g)
        for power in POWERS:
            address = f"{power.lower()}{g}@example.org"
            games.accounts.register(address, f"{power} Player {g}", "pw")
            games.seating.join(f"g{g}", address, "pw", [power])


def _stored(games: Games) -> list[GameEventRecord]:
    with games.db.transaction() as s:
        rows = list(s.scalars(select(GameEventRecord).order_by(GameEventRecord.id)))
        s.expunge_all()
        return rows


def test_a_use_case_says_what_it_caused_and_the_history_keeps_the_public_part(tmp_path: Path) -> None:
    games = Games(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    full_games(games, 1)
    games.orders.submit("g0", "France", ["A par - bur"])
    games.adjudication.process("g0")
    games.controls.pause("g0")
    kinds = [type(event) for event in games.events]
    assert kinds == [GameStarted, PhaseProcessed, GamePaused]
    started = games.events[0]
    assert isinstance(started, GameStarted) and started.audience.players["France"] == "france0@example.org"
    stored = _stored(games)
    assert [row.kind for row in stored] == ["game started", "phase processed", "game paused"]
    assert [row.phase_index for row in stored] == [0, 0, 1]
    kept = {key: value for key, value in stored[1].data.items() if key != "deadline"}
    assert kept == {"index": 0, "phase": "S1901M", "late": sorted(set(POWERS) - {"France"}), "finished": None,
                    "due": sorted(POWERS)}  # fmt: skip
    assert stored[1].data["deadline"] is not None  # the deadline the phase ran to (the players' records read it)
    assert "@" not in json.dumps([row.data for row in stored])  # no address is ever kept


def test_a_rollback_forgets_the_events_of_the_phases_it_forgets(tmp_path: Path) -> None:
    games = Games(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    full_games(games, 1)
    games.adjudication.process("g0")
    games.adjudication.process("g0")
    games.controls.rollback("g0", 1)
    assert [(row.kind, row.phase_index) for row in _stored(games)] == [
        ("game started", 0),
        ("phase processed", 0),
        ("game rolled back", 1),
    ]


def test_press_is_delivered_but_never_kept_in_the_history(tmp_path: Path) -> None:
    games = Games(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    full_games(games, 1)
    games.talk.post_press("g0", "France", ["Germany"], "Let us share Belgium.")
    assert [type(e) for e in games.events][-1] is PressPosted
    assert all("Belgium" not in json.dumps(row.data) for row in _stored(games))


def test_a_command_that_fails_raises_no_event(tmp_path: Path) -> None:
    """A command runs in a savepoint: when it fails, what it did is undone, and so is what it said it did."""
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw")
    reply = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPAUSE")
    assert "only an active game can be paused" in reply
    assert judge.outbound(kind="notice") == []
