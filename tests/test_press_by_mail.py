"""Press rules, observers' press and the GM handed on, by real mail (issue 44 items 2 and 4, issue 43 item 6): every
mail goes into a real Dovecot mailbox, the judge runs as `judge serve` runs it, and what it sends is caught by a
real SMTP relay. One game is played for the whole module, on a clock the test moves past the deadline. The many
small cases, each setting both ways, are tests/test_press_rules.py and tests/test_gm_handed_on.py (in-process)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from judge.clock import FakeClock
from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GAME = "talk"


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("press"), "press", clock=FakeClock()) as judge:
        judge.game(GAME, options="press.fake=on press.late=off timing.manual=on")
        yield judge


def _signon(judge: MailJudge, power: str) -> str:
    return f"SIGNON {GAME} {power} {power.lower()}pw\n"


def test_1_an_observer_signs_on_and_his_broadcast_reaches_everyone_headed_as_an_observers(judge: MailJudge) -> None:
    judge.send("wendy@example.org", "REGISTER Wendy Watcher watchpw")
    assert "You observe talk" in judge.send("wendy@example.org", f"OBSERVE {GAME} joinpw")
    sent = judge.send("wendy@example.org", f"SIGNON {GAME} OBSERVER watchpw\nBROADCAST\nGood luck, all.\nENDPRESS")
    assert "Press sent" in sent and "watchpw" not in sent
    italy = judge.wait_mails(judge.player(GAME, "Italy"), "talk: press")[0].get_content()
    assert "Press from an observer to everybody:" in italy and "Good luck, all." in italy
    assert "Wendy" not in italy and "wendy@example.org" not in italy
    gm = judge.wait_mails("gm@example.org", "talk: press")[0].get_content()
    assert "Press from an observer (Wendy Watcher) to everybody:" in gm
    listed = judge.send(judge.player(GAME, "Italy"), f"LIST {GAME}")
    assert "Observers: Wendy Watcher" in listed
    assert "Private press: the GM does not read press between players (press.gm_reads=off)." in listed


def test_2_fake_press_reaches_its_reader_as_from_another_power(judge: MailJudge) -> None:
    sent = judge.send(
        judge.player(GAME, "France"), _signon(judge, "France") + "PRESS TO England AS Germany\nThe Kaiser.\nENDPRESS"
    )
    assert "as fake press" in sent
    (england,) = judge.wait_mails(judge.player(GAME, "England"), "talk: press from Germany")
    assert "Press from Germany to England:" in england.get_content() and "France" not in england.get_content()
    assert not judge.mails(to="gm@example.org", subject="press from")  # private press: the GM reads none here


def test_3_press_from_a_late_player_is_refused_after_the_deadline(judge: MailJudge) -> None:
    assert isinstance(judge.daemon.clock, FakeClock)
    judge.daemon.clock.advance(timedelta(days=3))  # past the first deadline (two days on); the GM processes
    refused = judge.send(judge.player(GAME, "France"), _signon(judge, "France") + "PRESS TO England\nLate.\nENDPRESS")
    assert "the deadline has passed and your orders are not in" in refused and "(press.late=off)" in refused
    to_gm = judge.send(judge.player(GAME, "France"), _signon(judge, "France") + "PRESS TO GM\nSorry.\nENDPRESS")
    assert "Press sent to 1 address(es)" in to_gm
    assert "Sorry." in judge.wait_mails("gm@example.org", "talk: press from France")[0].get_content()


def test_4_a_co_gm_named_by_promote_runs_the_game_and_a_handover_passes_it_on(judge: MailJudge) -> None:
    judge.send("carol@example.org", "REGISTER Carol Cogm carolpw")
    promoted = judge.send("gm@example.org", f"SIGNON {GAME} MASTER gmpass\nPROMOTE carol@example.org")
    assert "Carol Cogm is a co-GM of talk" in promoted
    told = judge.wait_mails("carol@example.org", "talk: you are a co-GM")[0].get_content()
    assert "SIGNON talk MASTER <your own password>" in told
    assert judge.wait_mails("gm@example.org", "talk: Carol Cogm is a co-GM")
    processed = judge.send("carol@example.org", f"SIGNON {GAME} MASTER carolpw\nPROCESS")
    assert "Phase processed" in processed and "carolpw" not in processed
    judge.send("dave@example.org", "REGISTER Dave Next davepw")
    handed = judge.send("carol@example.org", f"SIGNON {GAME} MASTER carolpw\nHANDOVER dave@example.org")
    assert "Dave Next is the GM of talk from now on" in handed
    assert judge.wait_mails("dave@example.org", "talk: you are its GM")
    assert judge.wait_mails("gm@example.org", "talk: a new GM")
    assert "Dave Next" in judge.wait_mails(judge.player(GAME, "Italy"), "talk: a new GM")[0].get_content()
    assert "signon failed" in judge.send("gm@example.org", f"SIGNON {GAME} MASTER gmpass")
    assert "Signed on to talk as MASTER" in judge.send("dave@example.org", f"SIGNON {GAME} MASTER davepw")
