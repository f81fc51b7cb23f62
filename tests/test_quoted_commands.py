"""Issue 40, "Notices that quote commands must quote commands that work": a Hoplite reminder said
`SIGNON hop Athens + Anactorium password`, which signs nobody on, and its subject wrote "Fall -450". Each notice
the judge sends of its own accord that quotes a command is mailed back here as written (with the player's own
password for the word `password`) and must be accepted; every phase a notice names is written as the variant
writes it. Through the mail rig (judge/testing/mail_rig.py) and the real deadline keeper on the rig's clock."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select
from test_players_not_powers import COUNTRIES, MAJORS, _game

from judge.clock import as_utc
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Game, open_database
from judge.testing.mail_rig import CONFIG, Judge

SIGNON_LINE = re.compile(r"SIGNON \S+ .+? (?:<your password>|password)")
"""a notice's quoted sign-on (the game, the name to sign on with, the word `password` or `<your password>`)"""


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'quoted.sqlite'}")
    yield Judge(db)
    db.dispose()


def _reminders(judge: Judge, address: str) -> list[EmailMessage]:
    """The reminders a player has, after the keeper's round 11 hours before the deadline (reminders go 12 hours
    before it)."""
    with judge.db.transaction() as s:
        deadline = as_utc(s.scalars(select(Game.deadline)).one())
    assert deadline is not None
    judge.clock.advance(deadline - timedelta(hours=11) - judge.clock.now())
    DeadlineKeeper(judge.db, CONFIG, judge.clock).tick()
    return [m for m in judge.outbound(kind="notice", to=address) if "reminder" in str(m["Subject"])]


def _mailed_back(judge: Judge, address: str, notice: str, password: str, orders: str = "") -> str:
    """The notice's sign-on line sent back as written, the player's password in place of the word."""
    quoted = SIGNON_LINE.search(notice.replace("\n", " "))
    assert quoted is not None, notice
    line = re.sub(r"(<your password>|password)$", password, quoted[0])
    return judge.mail(address, f"{line}\n{orders}")


@pytest.mark.parametrize(
    ("variant", "names", "options", "player", "password", "orders"),
    [
        ("hoplite", MAJORS, "", "athens@example.org", "pwathens", "Build A ath"),
        ("hepta", COUNTRIES, "assignment=a", "england@example.org", "pwengland", "F 1:lon - 1:nth"),
        ("hepta", tuple(f"Player {n}" for n in range(1, 8)), "assignment=b", "player2@example.org", "pwplayer2", ""),
        ("standard", ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"), "",
         "france@example.org", "pwfrance", "A par - bur"),
    ],
)  # fmt: skip
def test_a_reminders_signon_line_mailed_back_as_written_signs_the_player_on(
    judge: Judge, variant: str, names: tuple[str, ...], options: str, player: str, password: str, orders: str
) -> None:
    _game(judge, "g", variant, names, options)
    reminders = _reminders(judge, player)
    assert len(reminders) == 1
    reply = _mailed_back(judge, player, reminders[0].get_content(), password, orders)
    assert "Signed on to g as" in reply, reply
    assert "signon failed" not in reply
    if orders:
        assert "Orders" in reply and not re.search(r"   \*\* ", reply), reply


def test_a_reminder_for_faulty_orders_quotes_a_signon_that_works(judge: Judge) -> None:
    """The other wording (orders on file with errors) quotes the same line: the Major's orders have errors while
    its Minor owes its own (attendance is reckoned per power owed, issue 40)."""
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail("athens@example.org", "SIGNON hop Athens pwathens\nBuild A xyz")
    reminders = _reminders(judge, "athens@example.org")
    text = reminders[0].get_content()
    assert "we have no orders for Anactorium" in text, text
    assert "The orders on file for Athens have errors." in text, text
    assert "Signed on to hop as" in _mailed_back(judge, "athens@example.org", text, "pwathens")


def test_a_hoplite_reminder_and_late_notice_write_the_year_bc(judge: Judge) -> None:
    """Issue 40: the subject wrote "Fall -450": the years before Christ are written as the variant writes them
    (rule 12: "Winter 451BC"), in subjects and bodies."""
    _game(judge, "hop", "hoplite", MAJORS)
    reminder = _reminders(judge, "athens@example.org")[0]
    assert str(reminder["Subject"]) == "hop: reminder, Winter 451 BC Adjustment"
    assert "for Winter 451 BC Adjustment in hop" in reminder.get_content()
    judge.clock.advance(timedelta(hours=11, minutes=1))
    DeadlineKeeper(judge.db, CONFIG, judge.clock).tick()
    notices = judge.outbound(kind="notice")
    assert notices
    for mail in notices:
        assert not re.search(r"-\d{3}\b", str(mail["Subject"]) + mail.get_content()), mail["Subject"]
    assert any("451 BC" in str(m["Subject"]) for m in notices if "late" in str(m["Subject"]))


def test_the_new_players_signon_and_the_gms_replace_quoted_in_notices_are_accepted(judge: Judge) -> None:
    """The notice to a player the GM gave a side quotes his SIGNON; the GM's notice of a resignation quotes the
    REPLACE that fills the seat: each, mailed back as written, is accepted."""
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail("athens@example.org", "SIGNON hop Athens pwathens\nRESIGN")
    resigned = next(m for m in judge.outbound(kind="notice", to="gm@example.org") if "resigned" in str(m["Subject"]))
    quoted = re.search(r"REPLACE (.+?) address", resigned.get_content())
    assert quoted is not None, resigned.get_content()
    judge.mail("new@example.org", "REGISTER Newcomer pwnew")
    reply = judge.mail("gm@example.org", f"SIGNON hop MASTER gmpass\nREPLACE {quoted[1]} new@example.org")
    assert "new@example.org" in reply or "Newcomer" in reply, reply
    told = next(m for m in judge.outbound(kind="notice", to="new@example.org") if "you play" in str(m["Subject"]))
    signed = _mailed_back(judge, "new@example.org", told.get_content(), "pwnew", "Build A ath")
    assert "Signed on to hop as" in signed, signed
    assert "Build A ath   -> Build A ath" in signed, signed
