"""The game's own end (issue 44 item 5, second half): the GM's UNSTART of a game started by mistake, his TERMINATE
taken back within `end.undo_hours` (UNTERMINATE, TERMINATE OFF), and each player's end-of-game statement -- DPjudge's
"End Of Game Statements" (`pages/Rules`, NO_EOG: without it, what the players say after the end "will be
permanently stored for future reference through the game's Webpage"). njudge has no UNSTART; DPjudge's GM returns
a game to forming by hand (FORM) or by ROLLBACK to its first phase. Through the real mail processor on SQLite
(`judge.testing.mail_rig`)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, select, text

from judge.board import load_map
from judge.clock import as_utc
from judge.game import Games
from judge.game.ratings import all_ratings
from judge.game.records import record_of
from judge.render.dates import when_text
from judge.store import Game, OrderSet, Player, Seat, Statement, open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.testing.mail_rig import Judge, start_game
from judge.testing.tables import POWERS
from judge.web.pages import SiteInfo, game_page

GM = "SIGNON alpha MASTER gmpass\n"
SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    start_game(judge)
    yield judge
    db.dispose()


def _game(judge: Judge) -> Game:
    with judge.db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == "alpha")).one()
        s.expunge(game)
        return game


def _seats(judge: Judge) -> list[tuple[str | None, list[object], str]]:
    with judge.db.transaction() as s:
        rows = s.execute(select(Seat.power, Seat.preferences, Seat.status).order_by(Seat.id)).all()
        return [(power, list(preferences), status) for power, preferences, status in rows]


def _told(judge: Judge, address: str, subject: str, kind: str = "notice") -> list[str]:
    return [m.get_content() for m in judge.outbound(kind=kind, to=address) if subject in str(m["Subject"])]


def _record(judge: Judge, name: str) -> tuple[int, int, list[str]]:
    with judge.db.transaction() as s:
        record = record_of(s, s.scalars(select(Player).where(Player.name == name)).one())
        return record.total.started, record.total.finished, [line.how for line in record.games]


def _page(judge: Judge) -> str:
    games = Games(judge.db, judge.clock)
    return game_page(SITE, games.reads.public_game("alpha"), games.reads.public_history("alpha"))


# --- UNSTART ------------------------------------------------------------------------------------------------------


def test_unstart_before_the_first_phase_forms_the_game_again_with_its_players_and_their_preferences(
    judge: Judge,
) -> None:
    """A game started by mistake forms again: every joined player stays, with the preferences he gave at JOIN; the
    powers, orders and deadline go; everyone is told; START gives the powers out anew."""
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA Par - Bur\nSTATEMENT\nToo soon.")
    with judge.db.transaction() as s:
        assert s.scalars(select(OrderSet)).all() != []
    reply = judge.mail("gm@example.org", GM + "UNSTART")
    assert "alpha is forming again; its 7 player(s) stay joined" in reply, reply
    game = _game(judge)
    assert (game.status, game.position, game.deadline, game.phase_index) == ("forming", None, None, 0)
    seats = _seats(judge)
    assert len(seats) == 7 and all(power is None and status == "waiting" for power, _, status in seats)
    assert sorted(str(preferences[0]) for _, preferences, _ in seats) == sorted(POWERS)
    with judge.db.transaction() as s:
        assert s.scalars(select(OrderSet)).all() == [] and s.scalars(select(Statement)).all() == []
    for power in POWERS:
        (told,) = _told(judge, f"{power.lower()}@example.org", "alpha: forming again")
        assert "7 players stay joined" in told
    assert _told(judge, "gm@example.org", "alpha: forming again")
    assert "forming" in judge.mail("italy@example.org", "LIST alpha")
    assert "has started" in judge.mail("gm@example.org", GM + "START")
    assert sorted(power for power, _, _ in _seats(judge) if power) == sorted(POWERS)
    assert "The GM took back the start (UNSTART)" in _page(judge)


def test_unstart_after_the_first_phase_is_refused_and_says_rollback_or_terminate(judge: Judge) -> None:
    judge.mail("gm@example.org", GM + "PROCESS")
    refused = judge.mail("gm@example.org", GM + "UNSTART")
    assert "has processed a phase already" in refused and "ROLLBACK" in refused and "TERMINATE" in refused
    assert _game(judge).status == "active"
    assert "only a started game" in judge.mail("gm@example.org", GM + "TERMINATE\nUNSTART")
    assert "this is a GM command" in judge.mail("france@example.org", "SIGNON alpha France francepw\nUNSTART")


def test_an_unstarted_start_counts_in_nobodys_record(judge: Judge) -> None:
    """The records are read from the game's events: `game unstarted` takes the start back, so the game is a forming
    one of the player's until it starts again, and then one start, not two."""
    assert _record(judge, "France Player")[0] == 1
    judge.mail("gm@example.org", GM + "UNSTART")
    assert _record(judge, "France Player") == (0, 0, ["forming"])
    judge.mail("gm@example.org", GM + "START")
    assert _record(judge, "France Player") == (1, 0, ["playing"])


# --- UNTERMINATE ----------------------------------------------------------------------------------------------------


def test_a_terminate_taken_back_within_the_window_returns_the_game_with_its_deadline_moved_on(judge: Judge) -> None:
    deadline = as_utc(_game(judge).deadline)
    assert deadline is not None
    judge.mail("gm@example.org", GM + "TERMINATE")
    assert _game(judge).status == "finished"
    judge.clock.advance(timedelta(hours=5))
    reply = judge.mail("gm@example.org", GM + "UNTERMINATE")
    assert "alpha is active again" in reply and "moved on by 5 hours" in reply, reply
    game = _game(judge)
    assert (game.status, game.result, game.finished_at, game.ended_from) == ("active", None, None, None)
    assert as_utc(game.deadline) == deadline + timedelta(hours=5)
    (told,) = _told(judge, "england@example.org", "alpha: the end taken back")
    assert "running" in told and "moved on by 5 hours" in told
    assert _record(judge, "France Player") == (1, 0, ["playing"])  # as if never terminated
    with judge.db.transaction() as s:
        assert all_ratings(s) == {}
    assert "The GM took back the termination" in _page(judge)
    for power in POWERS:  # and it ends otherwise: a draw, finished by all and rated
        judge.mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\nSET DRAW")
    assert (_game(judge).status, _game(judge).result) == ("finished", "draw")
    assert _record(judge, "France Player") == (1, 1, ["finished"])
    with judge.db.transaction() as s:
        assert {rating.games for rating in all_ratings(s)["standard"].values()} == {1}


def test_a_paused_game_terminated_and_taken_back_is_paused_again(judge: Judge) -> None:
    deadline = _game(judge).deadline
    judge.mail("gm@example.org", GM + "PAUSE\nTERMINATE")
    judge.clock.advance(timedelta(hours=2))
    assert "alpha is paused again" in judge.mail("gm@example.org", GM + "TERMINATE OFF")
    game = _game(judge)
    assert game.status == "paused" and game.deadline == deadline  # RESUME moves it on by all the time since


def test_a_terminate_is_not_taken_back_after_the_window(judge: Judge) -> None:
    """`end.undo_hours` (48h unless set) from the termination; after it, the refusal says when it was and why."""
    judge.mail("gm@example.org", GM + "TERMINATE")
    judge.clock.advance(timedelta(hours=49))
    refused = judge.mail("gm@example.org", GM + "UNTERMINATE")
    assert "more than 48h ago (end.undo_hours)" in refused and "can no longer be taken back" in refused
    ended = _game(judge).finished_at
    assert ended is not None and f"(it was terminated {when_text(ended)};" in refused
    assert _game(judge).status == "finished"
    assert "Set end.undo_hours=72h" in judge.mail("gm@example.org", GM + "SET end.undo_hours=72h")
    assert "alpha is active again" in judge.mail("gm@example.org", GM + "UNTERMINATE")
    assert "is not terminated (active)" in judge.mail("gm@example.org", GM + "UNTERMINATE")


def test_a_game_terminated_before_it_started_forms_again(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    start_game(judge, players=POWERS[:3])
    judge.mail("gm@example.org", GM + "TERMINATE")
    assert "alpha is forming again" in judge.mail("gm@example.org", GM + "UNTERMINATE")
    assert _game(judge).status == "forming"
    assert _told(judge, f"{POWERS[0].lower()}@example.org", "alpha: the end taken back")
    db.dispose()


# --- statements -------------------------------------------------------------------------------------------------


def test_a_statement_before_the_end_is_private_and_the_game_over_mail_carries_it(judge: Judge) -> None:
    """Filed before the end, a statement is nobody's news (its writer's reply alone) until the game-over mail; one
    filed after the end is sent to everyone at once; the game's page shows them all once the game is over."""
    reply = judge.mail("france@example.org", "SIGNON alpha France francepw\nSTATEMENT\nVive la France.\nENDPRESS")
    assert "Your statement (France) is filed; nobody else reads it until alpha ends" in reply, reply
    sent = len(judge.outbound())
    changed = judge.mail("france@example.org", "SIGNON alpha France francepw\nSTATEMENT\nVive la France!\nSIGNOFF")
    assert "Your statement (France) is changed" in changed and "> SIGNOFF" in changed  # SIGNOFF ends it, and is read
    assert [m for m in judge.outbound()[sent:] if m["Subject"] and "statement" in str(m["Subject"])] == []
    assert "Vive la France" not in _page(judge)
    judge.mail("gm@example.org", GM + "STATEMENT\nThanks, all.\nENDPRESS\nTERMINATE")
    (over,) = _told(judge, "england@example.org", "alpha: the game is over", kind="result")
    assert "End-of-game statements:" in over
    assert "From France (France Player):\n  Vive la France!\n\n" in over and "Vive la France." not in over
    assert "From the GM (Game Master):\n  Thanks, all." in over
    after = judge.mail("england@example.org", "SIGNON alpha England englandpw\nSTATEMENT\nGG.")
    assert "sent to everyone in alpha" in after
    (posted,) = _told(judge, "italy@example.org", "alpha: an end-of-game statement")
    assert "From England (England Player):\n  GG." in posted
    page = _page(judge)
    assert "End-of-game statements" in page and "Vive la France!" in page and "GG." in page
    assert "Your statement on alpha is withdrawn" in judge.mail(
        "england@example.org", "SIGNON alpha England englandpw\nSTATEMENT WITHDRAW"
    )
    assert "GG." not in _page(judge)


def test_a_statement_needs_words_and_a_side(judge: Judge) -> None:
    assert "the statement is empty" in judge.mail("france@example.org", "SIGNON alpha France francepw\nSTATEMENT")
    assert "sign on first" in judge.mail("france@example.org", "STATEMENT\nhello")
    long = "SIGNON alpha France francepw\nSTATEMENT\n" + "\n".join(f"line {n}" for n in range(101))
    assert "a statement is at most 100 lines; this one has 101" in judge.mail("france@example.org", long)
    assert "You have filed no statement" in judge.mail(
        "france@example.org", "SIGNON alpha France francepw\nSTATEMENT WITHDRAW"
    )


def test_a_gunboat_statement_is_signed_by_its_side_not_its_player(tmp_path: Path) -> None:
    """In a gunboat game that keeps its players' names after the end (DPjudge's NO_REVEAL: `reveal_at_end=off`), a
    statement is signed by the side alone, in the mail and on the page."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw")
    judge.mail("gm@example.org", GM + "SET gunboat=on reveal_at_end=off")
    for power in POWERS:
        judge.mail(f"{power.lower()}@example.org", f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(f"{power.lower()}@example.org", f"JOIN alpha joinpw {power}")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nSTATEMENT\nWho was I?\nENDPRESS")
    judge.mail("gm@example.org", GM + "TERMINATE")
    (over,) = _told(judge, "england@example.org", "alpha: the game is over", kind="result")
    assert "From France:\n  Who was I?" in over and "France Player" not in over
    page = _page(judge)
    assert "Who was I?" in page and "France Player" not in page
    db.dispose()


# --- the migration ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0018_keeps_every_game_and_goes_back_down(backend: str, request: pytest.FixtureRequest) -> None:
    """0018_endings up from 0017 with a terminated game stored: its status before is not known (None: UNTERMINATE
    then goes by whether it had started), nobody has a statement; and back down to 0017."""
    url: str = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    engine = make_engine(url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0017_njudge")
        conn.execute(
            text("INSERT INTO players (id, address, name, password_hash, created_at) "
                 "VALUES (1, 'anna@example.org', 'Anna', 'x', CURRENT_TIMESTAMP)")
        )  # fmt: skip
        conn.execute(
            text("INSERT INTO games (name, variant, options, settings, status, result, gm_id, password_hash, seed, "
                 "phase_index, created_at, version, absences, observers, concessions, pictures_off, njudge_layout) "
                 "VALUES ('old', 'standard', '{}', '{}', 'finished', 'terminated', 1, 'x', 1, 0, CURRENT_TIMESTAMP, "
                 "1, '{}', '[]', '{}', '[]', '[]')")
        )  # fmt: skip
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name, ended_from FROM games")).one() == ("old", None)
        assert conn.execute(text("SELECT count(*) FROM statements")).scalar_one() == 0
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), "0017_njudge")
    assert "statements" not in inspect(engine).get_table_names()
    assert "ended_from" not in {c["name"] for c in inspect(engine).get_columns("games")}
    with engine.connect() as conn:
        assert conn.execute(text("SELECT name, status FROM games")).one() == ("old", "finished")
    engine.dispose()


def test_a_victory_is_followed_by_the_statements_filed_before_it(judge: Judge) -> None:
    """A victory ends with its phase's results, which carry no statement: one mail to everyone follows them with
    every statement filed before the end (the game-over mail of the other ends carries them)."""
    judge.mail("england@example.org", "SIGNON alpha England englandpw\nSTATEMENT\nI saw it coming.\nENDPRESS")
    board = load_map("standard")
    with judge.db.transaction() as s:  # France one centre short of 18, in the Fall (tests/test_lifecycle.py)
        game = s.scalars(select(Game).where(Game.name == "alpha")).one()
        centres = [c for c in board.supply_centres if c not in ("ven", "rom", "nap", "tun", "mun")]
        game.position = {
            **dict(game.position or {}),
            "phase": {"season": "Fall", "year": 1910, "type": "Movement"},
            "units": [{"power": "France", "unit": "A", "at": "bur"}],
            "supply_centers": {"France": centres[:17]},
        }
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA bur - mun")
    assert "The game has ended (victory)" in judge.mail("gm@example.org", GM + "PROCESS")
    (said,) = _told(judge, "italy@example.org", "alpha: end-of-game statements", kind="result")
    assert "From England (England Player):\n  I saw it coming." in said


def test_a_gunboat_game_whose_end_named_its_players_stays_named_when_taken_back(tmp_path: Path) -> None:
    """The end of a gunboat game (`reveal_at_end`, on by default) mailed everyone who played whom: that cannot be
    taken back, so the game goes on with `gunboat` off, and the GM and the players are told so."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw")
    judge.mail("gm@example.org", GM + "SET gunboat=on")
    for power in POWERS:
        judge.mail(f"{power.lower()}@example.org", f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(f"{power.lower()}@example.org", f"JOIN alpha joinpw {power}")
    judge.mail("gm@example.org", GM + "TERMINATE")
    assert _told(judge, "italy@example.org", "alpha: who played whom")
    reply = judge.mail("gm@example.org", GM + "UNTERMINATE")
    assert "stay named (gunboat is off)" in reply
    (told,) = _told(judge, "italy@example.org", "alpha: the end taken back")
    assert "Who plays whom was made known at the termination, and stays known." in told
    assert _game(judge).settings.get("gunboat") is False
    db.dispose()
