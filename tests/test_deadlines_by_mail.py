"""Issue 43's tests by real mail through Dovecot, items 2, 3 and 4 in one game: reminders at the intervals the game
sets (njudge's reminders), a game that waits its delay after the last orders (njudge's DELAY), a late list to
every player (njudge's data/deadlines: "a notice will be sent to the other players and observers in the game
indicating who is late"), and orders sent for a later phase (njudge's PHASE) used when it opens, and refused
with the reason where illegal then. The judge runs as `judge serve` runs it, on a clock the test moves; each
step calls its keeper's round after moving the clock, as the scheduler would at that moment.

The game (standard): Germany sends his Fall retreat in Spring and France his Winter builds, one of them into a
home centre his own army will still hold; Spring goes early, half an hour after Italy's orders, the last;
in the Fall France and Austria take Munich, Italy misses the deadline, and everyone hears he is late."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from judge.clock import FakeClock, as_utc
from judge.store import Game
from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import POWERS

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GAME = "dl"
HOLDS = {
    "Austria": "A vie H\nA bud H\nF tri H",
    "England": "F lon H\nF edi H\nA lvp H",
    "France": "A par H\nA mar H\nF bre H",
    "Germany": "A ber H\nA mun H\nF kie H",
    "Italy": "A rom H\nA ven H\nF nap H",
    "Russia": "A mos H\nA war H\nF sev H\nF stp/sc H",
    "Turkey": "A con H\nA smy H\nF ank H",
}
SPRING = {**HOLDS, "France": "A par - bur\nA mar H\nF bre H", "Austria": "A vie - tyr\nA bud H\nF tri H"}
FALL = {**HOLDS, "France": "A bur - mun\nA mar H\nF bre H", "Austria": "A tyr S A bur - mun\nA bud H\nF tri H"}


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("deadlines"), "deadlines", clock=FakeClock()) as judge:
        yield judge


def _sign(power: str) -> str:
    return f"SIGNON {GAME} {power} {power.lower()}pw\n"


def _to(power: str) -> str:
    return MailJudge.player(GAME, power)


def _clock(judge: MailJudge) -> FakeClock:
    assert judge.daemon is not None and isinstance(judge.daemon.clock, FakeClock)
    return judge.daemon.clock


def _at(judge: MailJudge, moment: datetime) -> None:
    """The clock moved to `moment`, and the keeper's round the scheduler runs then."""
    assert judge.daemon is not None
    _clock(judge).set(moment)
    judge.daemon.tick()


def _deadline(judge: MailJudge) -> datetime:
    assert judge.daemon is not None
    with judge.daemon.db.transaction() as s:
        deadline = as_utc(s.scalar(select(Game.deadline).where(Game.name == GAME)))
    assert deadline is not None
    return deadline


def _phase_index(judge: MailJudge) -> int:
    assert judge.daemon is not None
    with judge.daemon.db.transaction() as s:
        index = s.scalar(select(Game.phase_index).where(Game.name == GAME))
    assert index is not None
    return index


def test_reminders_a_delay_a_late_list_to_all_and_orders_for_later_phases(judge: MailJudge) -> None:
    judge.game(GAME, options="timing.delay=30m timing.reminders=24h,6h late.to=all")
    assert "timing.delay=0.5h" in judge.send("gm@example.org", "LIST dl")  # the delay shown in LIST

    # orders for later phases, sent in Spring: held, and said so
    held = judge.send(_to("Germany"), _sign("Germany") + HOLDS["Germany"] + "\nPHASE Fall 1901 Retreat\nA mun - sil")
    assert "held for Fall 1901 Retreat" in held
    builds = judge.send(_to("France"), _sign("France") + SPRING["France"] + "\nPHASE W1901B\nBuild A mar\nBuild A par")
    assert "held for Winter 1901 Adjustment" in builds
    for power in POWERS:
        if power not in ("Germany", "France", "Italy"):
            judge.send(_to(power), _sign(power) + SPRING[power])

    # reminders at 24h and 6h before the deadline, to Italy alone, once each
    spring = _deadline(judge)
    _at(judge, spring - timedelta(hours=24))
    judge.wait_mails(_to("Italy"), f"{GAME}: reminder")
    _at(judge, spring - timedelta(hours=12))
    _at(judge, spring - timedelta(hours=6))
    assert len(judge.wait_mails(_to("Italy"), f"{GAME}: reminder", 2)) == 2
    assert not judge.mails(to=_to("France"), subject=f"{GAME}: reminder")

    # Italy's orders are the last: the phase waits its delay, then goes
    last = spring - timedelta(hours=5)
    _clock(judge).set(last)
    judge.send(_to("Italy"), _sign("Italy") + SPRING["Italy"])
    _at(judge, last + timedelta(minutes=29))
    assert _phase_index(judge) == 0  # every order in, 29 minutes on: still Spring
    _at(judge, last + timedelta(minutes=30))
    assert _phase_index(judge) == 1
    judge.wait_mails(_to("Italy"), f"{GAME} S1901M: results")

    # Fall: Munich taken; Italy misses the deadline, and the whole game hears of it
    for power in POWERS:
        if power != "Italy":
            judge.send(_to(power), _sign(power) + FALL[power])
    _at(judge, _deadline(judge))
    assert "no orders" in judge.wait_mails(_to("Italy"), f"{GAME}: late, Fall 1901")[0].get_content()
    for power in ("England", "Russia"):
        listed = judge.wait_mails(_to(power), f"{GAME}: late, Fall 1901")[0].get_content()
        assert "No orders yet from: Italy." in listed
    assert judge.wait_mails("gm@example.org", f"{GAME}: late powers")

    # the Retreat opens with Germany's retreat on file, and goes (after the delay) on it
    judge.wait_mails(_to("Germany"), f"{GAME} F1901M: results")
    filed = judge.wait_mails(_to("Germany"), "your orders for Fall 1901 Retreat are on file")[0].get_content()
    assert "A mun - sil" in filed and "**" not in filed
    _at(judge, _clock(judge).now() + timedelta(minutes=30))
    retreat = judge.wait_mails(_to("Germany"), f"{GAME} F1901R: results")[0].get_content()
    assert "sil" in retreat.lower()

    # the Winter opens with France's builds checked then: Marseilles is held by his own army, Paris is free
    winter = judge.wait_mails(_to("France"), "your orders for Winter 1901 Adjustment are on file")[0].get_content()
    assert "Build A mar" in winter and "**" in winter and "refused" in winter
    assert "Build A par" in winter
