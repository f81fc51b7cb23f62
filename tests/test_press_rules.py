"""The press rules a GM sets (issue 44 item 2, issue 43 item 6), each both ways, through the real mail processor and
a real SQLite database (`judge.testing.mail_rig`). The anchors: njudge's `data/press` (fake press, "Observer any |
white | none", partial) and `data/index` (SET [NO] MINOR PRESS, LATE PRESS, GRACE PRESS, MUST ORDER, SET ALL
PRESS), DPjudge's Rules page (FAKE_PRESS, MUST_ORDER, MUTE_OBSERVERS, BACKSEAT_PRESS, EAVESDROP). Press to the GM
alone goes whatever the rules say (njudge: "Press to the Master only is always allowed")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select, text

from judge.game import Games
from judge.store import Game, Press, open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.testing.mail_rig import Judge, start_game

GM = "SIGNON alpha MASTER gmpass\n"
FRANCE = "SIGNON alpha France francepw\n"
ITALY = "SIGNON alpha Italy italypw\n"


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    start_game(judge)
    yield judge
    db.dispose()


def _set(judge: Judge, *pairs: str) -> None:
    reply = judge.mail("gm@example.org", GM + "SET " + " ".join(pairs))
    assert all(f"Set {pair}." in reply for pair in pairs), reply


def _press(judge: Judge, who: str, line: str, body: str = "A word.") -> str:
    address = "watcher@example.org" if who == "OBSERVER" else f"{who.lower()}@example.org"
    signon = "SIGNON alpha OBSERVER watchpw\n" if who == "OBSERVER" else f"SIGNON alpha {who} {who.lower()}pw\n"
    return judge.mail(address, f"{signon}{line}\n{body}\nENDPRESS")


def _read(judge: Judge, address: str, body: str) -> list[str]:
    """The press mails `address` got that carry `body`."""
    return [m.get_content() for m in judge.outbound(kind="press", to=address) if body in m.get_content()]


def _observer(judge: Judge) -> None:
    judge.mail("watcher@example.org", "REGISTER Wendy Watcher watchpw")
    assert "You observe alpha" in judge.mail("watcher@example.org", "OBSERVE alpha joinpw")


# --- fake press (njudge "No Fake" by default; DPjudge FAKE_PRESS) ----------------------------------------------------


def test_fake_press_is_refused_where_the_game_has_none(judge: Judge) -> None:
    refused = _press(judge, "France", "PRESS TO England AS Germany")
    assert "this game has no fake press (press.fake=off): send it without AS or FAKE" in refused
    assert "this game has no fake press" in _press(judge, "France", "BROADCAST FAKE TO England")
    assert not judge.outbound(kind="press", to="england@example.org")


def test_fake_press_shows_its_readers_another_sender_and_tells_the_gm_the_truth(judge: Judge) -> None:
    _set(judge, "press.fake=on", "press.gm_reads=on")
    sent = _press(judge, "France", "PRESS TO England AS Germany", "Signed, the Kaiser.")
    assert "as fake press" in sent
    (england,) = _read(judge, "england@example.org", "Signed, the Kaiser.")
    assert "Press from Germany to England:" in england and "France" not in england
    (gm,) = _read(judge, "gm@example.org", "Signed, the Kaiser.")
    assert "Press from France to England (fake press: its readers see it as from Germany to England):" in gm
    subjects = [str(m["Subject"]) for m in judge.outbound(kind="press", to="england@example.org")]
    assert subjects == ["alpha: press from Germany"]  # the subject tells what the heading tells, never the truth


def test_fake_press_may_pretend_another_set_of_readers(judge: Judge) -> None:
    """njudge: "PRESS TO R FAKE BROADCAST" reaches Russia alone, headed as a broadcast."""
    _set(judge, "press.fake=on")
    _press(judge, "France", "PRESS TO Russia FAKE BROADCAST", "To all, truly.")
    (russia,) = _read(judge, "russia@example.org", "To all, truly.")
    assert "Press from France to everybody:" in russia
    assert not _read(judge, "england@example.org", "To all, truly.")
    _press(judge, "France", "BROADCAST FAKE TO England", "Just you.")
    assert "Press from France to England:" in _read(judge, "italy@example.org", "Just you.")[0]


def test_press_to_the_gm_is_never_faked_and_grey_press_shows_no_sender(judge: Judge) -> None:
    _set(judge, "press.fake=on")
    assert "press to the GM alone is never faked" in _press(judge, "France", "PRESS TO GM AS Germany")
    _set(judge, "press.type=both")
    assert "grey press names no sender, so AS has none to show" in _press(judge, "France", "BROADCAST GREY AS Italy")


def test_the_pages_show_the_fake_sender_never_the_true_one(judge: Judge) -> None:
    _set(judge, "press.fake=on")
    _press(judge, "France", "BROADCAST AS Austria", "Vienna speaks.")
    history = Games(judge.db, judge.clock).reads.public_history("alpha")
    assert [(p.sender, p.body) for p in history.press] == [("Austria", "Vienna speaks.")]


# --- press in retreat and adjustment phases (njudge SET [NO] MINOR PRESS) --------------------------------------------


def _to_the_winter(judge: Judge) -> None:
    """France takes Spain in 1901: the game stands in the Winter 1901 adjustments."""
    judge.mail("france@example.org", FRANCE + "A mar - spa")
    judge.mail("gm@example.org", GM + "PROCESS")
    judge.mail("gm@example.org", GM + "PROCESS")
    assert "Winter" in judge.mail("italy@example.org", "LIST alpha")


def test_press_in_the_adjustments_goes_by_default_and_not_under_no_minor_press(judge: Judge) -> None:
    _to_the_winter(judge)
    assert "Press sent" in _press(judge, "Italy", "PRESS TO France", "Winter talk.")
    _set(judge, "press.minor=off")
    refused = _press(judge, "Italy", "PRESS TO France", "More winter talk.")
    assert "this game has no press in retreat and adjustment phases (press.minor=off)" in refused
    assert "PRESS TO GM still goes" in refused
    assert "Press sent" in _press(judge, "Italy", "PRESS TO GM", "May I?")
    assert "(press.minor=off)" in _press(judge, "Italy", "BROADCAST", "Spring soon?")
    judge.mail("gm@example.org", GM + "PROCESS")  # into Spring 1902: press opens again
    assert "Press sent" in _press(judge, "Italy", "PRESS TO France", "Spring talk.")


# --- after the deadline (njudge LATE PRESS and GRACE PRESS; DPjudge LATE_SEND) ----------------------------------------


def _past_the_deadline(judge: Judge) -> None:
    judge.clock.advance(timedelta(days=2, hours=1))  # the first deadline is two days on; no grace is set


def test_a_late_player_presses_after_the_deadline_unless_the_game_forbids_late_press(judge: Judge) -> None:
    _set(judge, "timing.manual=on")  # the phase stays open past its deadline, for the GM to process
    _past_the_deadline(judge)
    assert "Press sent" in _press(judge, "France", "PRESS TO England", "Still here.")
    _set(judge, "press.late=off")
    refused = _press(judge, "France", "PRESS TO England", "Late words.")
    assert "the deadline has passed and your orders are not in" in refused and "(press.late=off)" in refused
    assert "send your orders first" in refused
    assert "Press sent" in _press(judge, "France", "PRESS TO GM", "Sorry, late.")
    judge.mail("france@example.org", FRANCE + "A par H\nA mar H\nF bre H")
    assert "Press sent" in _press(judge, "France", "PRESS TO England", "Orders in now.")


def test_no_grace_press_stops_everyone_while_anyone_is_late(judge: Judge) -> None:
    _set(judge, "timing.manual=on")
    judge.mail("italy@example.org", ITALY + "A ven H\nA rom H\nF nap H")
    _past_the_deadline(judge)
    assert "Press sent" in _press(judge, "Italy", "PRESS TO France", "In on time.")
    _set(judge, "press.grace=off")
    refused = _press(judge, "Italy", "PRESS TO France", "And again.")
    assert "some orders are not in: this game has no press until the phase is processed (press.grace=off)" in refused
    assert "Press sent" in _press(judge, "Italy", "PRESS TO GM", "Who is late?")


# --- press only once the orders are in (njudge SET MUST ORDER, DPjudge MUST_ORDER) --------------------------------


def test_must_order_holds_press_until_the_players_orders_are_in(judge: Judge) -> None:
    assert "Press sent" in _press(judge, "France", "PRESS TO England", "Before orders.")
    _set(judge, "press.must_order=on")
    refused = _press(judge, "France", "PRESS TO England", "Before orders again.")
    assert "only from players whose orders are in (press.must_order=on): send your orders first" in refused
    assert "Press sent" in _press(judge, "France", "PRESS TO GM", "To the GM always.")
    judge.mail("france@example.org", FRANCE + "A par - bur\nA mar H\nF bre - mao")
    assert "Press sent" in _press(judge, "France", "PRESS TO England", "After orders.")


# --- observers' press (njudge "Observer any|white|none"; DPjudge MUTE_OBSERVERS, BACKSEAT_PRESS) ----------------------


def test_an_observer_signs_on_and_sends_press_as_the_players_do_by_default(judge: Judge) -> None:
    _observer(judge)
    unsigned = judge.mail("watcher@example.org", "BROADCAST\nHello?\nENDPRESS")
    assert "sign on first (SIGNON game power password; an observer: SIGNON game OBSERVER password)" in unsigned
    assert "signon failed" in judge.mail("watcher@example.org", "SIGNON alpha OBSERVER wrong")
    assert "signon failed" in judge.mail("england@example.org", "SIGNON alpha OBSERVER englandpw")  # not observing
    sent = _press(judge, "OBSERVER", "PRESS TO England", "From the gallery.")
    assert "Press sent to 1 address(es)." in sent  # England; the GM reads no private press by default
    (england,) = _read(judge, "england@example.org", "From the gallery.")
    assert "Press from an observer to England:" in england and "Wendy" not in england
    _press(judge, "OBSERVER", "BROADCAST", "Hello all, from the gallery.")
    (gm,) = _read(judge, "gm@example.org", "Hello all, from the gallery.")
    assert "Press from an observer (Wendy Watcher) to everybody:" in gm  # the GM is told who
    assert "not a command" in judge.mail("watcher@example.org", "SIGNON alpha OBSERVER watchpw\nA par - bur")
    assert "Signed off." in judge.mail("watcher@example.org", "SIGNON alpha OBSERVER watchpw\nSIGNOFF")


def test_observers_press_as_the_game_allows(judge: Judge) -> None:
    _observer(judge)
    _set(judge, "press.observers=none")
    refused = _press(judge, "OBSERVER", "BROADCAST")
    assert "this game's observers send press to the GM only (press.observers=none): PRESS TO GM" in refused
    assert "Press sent to 1 address(es)" in _press(judge, "OBSERVER", "PRESS TO GM", "A question.")
    _set(judge, "press.observers=broadcast")
    assert "(press.observers=broadcast): BROADCAST" in _press(judge, "OBSERVER", "PRESS TO France")
    assert "Press sent" in _press(judge, "OBSERVER", "BROADCAST", "To all.")
    _set(judge, "press.observers=white", "press.type=both")
    assert "(press.observers=white): no GREY" in _press(judge, "OBSERVER", "BROADCAST GREY")
    _set(judge, "press.observers=any")
    assert "as grey press" in _press(judge, "OBSERVER", "BROADCAST GREY", "Who am I?")
    assert "Grey press (its sender is not named) to everybody:" in _read(judge, "italy@example.org", "Who am I?")[0]


def test_list_names_the_observers_as_such_and_says_whether_the_gm_reads_press(judge: Judge) -> None:
    _observer(judge)
    listed = judge.mail("italy@example.org", "LIST alpha")
    assert "Observers: Wendy Watcher" in listed and "watcher@example.org" not in listed
    assert "Private press: the GM does not read press between players (press.gm_reads=off)." in listed
    started = judge.outbound(kind="notice", to="italy@example.org")[0].get_content()
    assert "The GM does not read press between players (press.gm_reads=off)" in started


# --- the GM reads all private press or not (njudge SET ALL PRESS, DPjudge EAVESDROP!) ---------------------------------


def test_the_gm_reads_private_press_only_where_the_game_says_so(judge: Judge) -> None:
    assert "Press sent to 1 address(es)" in _press(judge, "France", "PRESS TO England", "Between us.")
    assert not _read(judge, "gm@example.org", "Between us.")
    _press(judge, "France", "BROADCAST", "To all.")
    assert _read(judge, "gm@example.org", "To all.")  # broadcasts reach him, as every observer
    _set(judge, "press.gm_reads=on")  # never behind the players' backs: everyone is told
    told = [m.get_content() for m in judge.outbound(kind="notice", to="italy@example.org")
            if str(m["Subject"]) == "alpha: the press rules changed"]  # fmt: skip
    assert len(told) == 1 and "The GM is sent a copy of all press between players from now on." in told[0]
    assert "Press sent to 2 address(es)" in _press(judge, "France", "PRESS TO England", "Now he reads.")
    assert _read(judge, "gm@example.org", "Now he reads.")
    assert "the GM is sent a copy of all press between players (press.gm_reads=on)" in judge.mail(
        "italy@example.org", "LIST alpha"
    )


def test_held_press_reaches_the_gms_sheet_only_where_he_reads_private_press(judge: Judge) -> None:
    _set(judge, "press_with_results=on", "press.fake=on")
    _press(judge, "France", "PRESS TO England AS Italy", "Held and faked.")
    judge.mail("gm@example.org", GM + "PROCESS")
    england = judge.outbound(kind="result", to="england@example.org")[0].get_content()
    assert "Press from Italy to England:" in england and "Held and faked." in england
    assert "Held and faked." not in judge.outbound(kind="result", to="gm@example.org")[0].get_content()


def test_help_set_lists_every_press_rule_with_its_default(judge: Judge) -> None:
    helped = judge.mail("italy@example.org", "HELP SET")
    for rule, default in [("press.fake", "off"), ("press.minor", "on"), ("press.late", "on"),
                          ("press.grace", "on"), ("press.must_order", "off"), ("press.observers", "any"),
                          ("press.gm_reads", "off")]:  # fmt: skip
        line = next(line for line in helped.splitlines() if line.strip().startswith(rule + " "))
        assert f"(default {default})" in line, line


# --- the migration (0015_press) ---------------------------------------------------------------------------------------


def test_press_and_games_stored_before_read_as_they_always_did(sqlite_url: str) -> None:
    """A database at 0012 with a game and a press message: upgraded, the message has no fake heading and no
    observer, the game no co-GM, and the press reads as it did."""
    engine = make_engine(sqlite_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0012")
        conn.execute(text("INSERT INTO players (address, name, password_hash, created_at) "
                          "VALUES ('gm@example.org', 'GM', 'x', CURRENT_TIMESTAMP)"))  # fmt: skip
        conn.execute(text("INSERT INTO games (name, variant, options, settings, status, gm_id, password_hash, seed, "
                          "phase_index, created_at, version, observers, absences, concessions, pictures_off) "
                          "VALUES ('old', 'standard', '{}', '{}', 'forming', (SELECT id FROM players), 'x', 1, 0, "
                          "CURRENT_TIMESTAMP, 1, '[]', '{}', '{}', '[]')"))  # fmt: skip
        conn.execute(text("INSERT INTO press (game_id, phase_index, sender, recipients, body, with_results, grey, "
                          "released, created_at) VALUES ((SELECT id FROM games), 0, 'France', '[\"*\"]', 'Hi', 0, 0, "
                          "0, CURRENT_TIMESTAMP)"))  # fmt: skip
    engine.dispose()
    db = open_database(sqlite_url)  # upgrades to the head on start
    with db.transaction() as s:
        press = s.scalars(select(Press)).one()
        assert (press.sender, press.shown_sender, press.shown_recipients) == ("France", None, None)
        assert press.observer is None
        assert not s.scalars(select(Game)).one().co_gms
    history = Games(db).reads.public_history("old")
    assert [(p.sender, p.body) for p in history.press] == [("France", "Hi")]
    db.dispose()
