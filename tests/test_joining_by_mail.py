"""Issue 43's checks for joining, by real mail through Dovecot with the judge running as `judge serve` runs it: a
volunteer taking an abandoned power without and with the GM's approval (item 5), and `SIGNON ?` (item 9). One
game is played for the takeovers; SIGNON ? needs a forming game of its own. The many small cases are in process,
in tests/test_joining.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import OPENING_ORDERS, POWERS

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GM = "SIGNON vols MASTER gmpass\n"


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("joining"), "joining") as judge:
        yield judge


def test_volunteers_take_abandoned_powers_without_and_then_with_the_gms_approval(judge: MailJudge) -> None:
    """njudge `data/index`: "SIGNON pxxxx password ... to take over an abandoned power"; here TAKEOVER, and the
    GM's `join.approval` makes a takeover wait for his APPROVE."""
    judge.game("vols")
    assert "Set abandon_after=1" in judge.send("gm@example.org", GM + "SET abandon_after=1")
    for power in POWERS:
        if power not in ("France", "Germany"):  # their players vanish: both powers are abandoned after one phase
            judge.send(judge.player("vols", power), f"SIGNON vols {power} {power.lower()}pw\n{OPENING_ORDERS[power]}")
    judge.send("gm@example.org", GM + "PROCESS")
    judge.wait_mails(judge.player("vols", "Italy"), "results of Spring 1901")
    openings = judge.send("anyone@example.org", "LIST OPENINGS")
    assert "France (abandoned), Fall 1901 Movement" in openings and "Germany (abandoned)" in openings
    assert "France Player of vols" not in openings  # never who played it

    # without approval: at once
    anna = "anna@example.org"
    reply = judge.send(anna, "REGISTER Anna Volunteer annapw\nTAKEOVER vols France annapw")
    assert "You have taken over France in vols" in reply and "annapw" not in reply
    mine = judge.wait_mails(anna, "vols: you play France")[0].get_content()
    assert "Orders are due from you this phase for France." in mine
    assert "Fall 1901" in mine  # the position and phase
    assert (
        "Anna Volunteer has taken it over"
        in judge.wait_mails(judge.player("vols", "France"), "no longer play")[0].get_content()
    )
    told = judge.wait_mails(judge.player("vols", "England"), "vols: France replaced")[0].get_content()
    assert "who took the open place: Anna Volunteer" in told and anna not in told
    assert "Signed on to vols as France" in judge.send(anna, "SIGNON vols France annapw\nA Bur - Par")

    # with approval: the GM is asked, answers by mail, the volunteer is told
    assert "Set join.approval=on" in judge.send("gm@example.org", GM + "SET join.approval=on")
    bob = "bob@example.org"
    waiting = judge.send(bob, "REGISTER Bob Volunteer bobpw\nTAKEOVER vols Germany bobpw")
    assert "your wish to take Germany is sent to him" in waiting
    asked = judge.wait_mails("gm@example.org", "Bob Volunteer asks to take Germany")[0].get_content()
    assert f"APPROVE {bob}" in asked
    assert "Germany (abandoned)" in judge.send("anyone@example.org", "LIST vols")  # still open while he waits
    assert f"{bob} is let in (Germany)" in judge.send("gm@example.org", GM + f"APPROVE {bob}")
    assert "You have taken over Germany in vols" in judge.wait_mails(bob, "vols: you play Germany")[0].get_content()
    assert judge.wait_mails(judge.player("vols", "Italy"), "vols: Germany replaced")
    assert "Open to a volunteer" not in judge.send("anyone@example.org", "LIST vols")


def test_signon_question_mark_joins_the_forming_game_open_to_anyone(judge: MailJudge) -> None:
    """njudge `data/index`: "SIGNON ? password: to enter the next available game that is forming"."""
    judge.send("gm@example.org", "REGISTER The GM gmpass")
    assert "created" in judge.send("gm@example.org", "CREATE open1 standard joinpw join.open=on")
    carl = "carl@example.org"
    reply = judge.send(carl, "REGISTER Carl Newcomer carlpw\nSIGNON ? carlpw standard [France England]")
    assert "You have joined open1." in reply and "carlpw" not in reply
    assert "Carl Newcomer" in judge.send("anyone@example.org", "LIST open1")
    assert "open1" in judge.send("anyone@example.org", "LIST OPENINGS")  # six places still open
