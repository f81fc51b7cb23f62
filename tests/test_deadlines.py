"""Deadlines without the GM, on a clock the tests move: reminders, late notices, grace, early processing,
manual games, waiting for replacements, and a judge that was down across a deadline."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, date, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from judge.clock import FakeClock, as_utc
from judge.config import Config
from judge.game import Games
from judge.game.attendance import absence_of, extended_deadline, held_away, stored
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Game, OutboundMail, open_database
from judge.testing.tables import POWERS

CONFIG = Config(address="judge@example.org", name="testjudge", pictures=False)
HOLDS = {
    "Austria": ["A vie H", "A bud H", "F tri H"],
    "England": ["F lon H", "F edi H", "A lvp H"],
    "France": ["A par H", "A mar H", "F bre H"],
    "Germany": ["A ber H", "A mun H", "F kie H"],
    "Italy": ["A rom H", "A ven H", "F nap H"],
    "Russia": ["A mos H", "A war H", "F sev H", "F stp/sc H"],
    "Turkey": ["A con H", "A smy H", "F ank H"],
}


class Table:
    def __init__(self, url: str, settings: dict[str, object]) -> None:
        self.clock = FakeClock()
        self.db = open_database(url)
        self.service = Games(self.db, self.clock)
        self.keeper = DeadlineKeeper(self.db, CONFIG, self.clock)
        self.service.accounts.register("gm@example.org", "GM", "pw")
        for power in POWERS:
            self.service.accounts.register(f"{power.lower()}@example.org", power, "pw")
        self.service.seating.create_game("alpha", "standard", "gm@example.org", "pw", settings=settings, seed=1)
        for power in POWERS:
            self.service.seating.join("alpha", f"{power.lower()}@example.org", "pw", [power])

    def game(self) -> Game:
        with self.db.transaction() as s:
            game = s.scalars(select(Game)).one()
            s.expunge(game)
            return game

    def bodies(self, kind: str, to: str) -> list[str]:
        with self.db.transaction() as s:
            rows = s.scalars(select(OutboundMail).where(OutboundMail.kind == kind).order_by(OutboundMail.id)).all()
            found = [message_from_bytes(r.message, policy=policy.default) for r in rows if to in r.recipients]
            return [m.get_content().replace("\r\n", "\n") for m in found if isinstance(m, EmailMessage)]

    def mails(self, kind: str) -> list[tuple[list[str], str]]:
        with self.db.transaction() as s:
            rows = s.scalars(select(OutboundMail).where(OutboundMail.kind == kind).order_by(OutboundMail.id)).all()
            return [(r.recipients, str(message_from_bytes(r.message, policy=policy.default)["Subject"])) for r in rows]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(f"sqlite:///{tmp_path / 'j.sqlite'}", {"timing": {"reminder_hours": 12}, "grace_hours": 6})
    yield t
    t.db.dispose()


def test_a_started_game_has_its_first_deadline(table: Table) -> None:
    assert as_utc(table.game().deadline) == table.clock.now() + timedelta(hours=48)


def test_reminders_go_to_the_powers_without_orders_before_the_deadline(table: Table) -> None:
    table.service.orders.submit("alpha", "France", HOLDS["France"])
    table.service.orders.submit("alpha", "England", ["F lon - xyz"])
    assert table.keeper.tick() == []
    table.clock.advance(timedelta(hours=37))
    done = table.keeper.tick()
    assert done and "reminded" in done[0]
    reminded = {r[0] for r, _ in table.mails("notice")}
    assert "england@example.org" in reminded and "france@example.org" not in reminded
    assert table.keeper.tick() == []  # once a phase


def test_the_reminder_and_the_late_notice_tell_the_power_what_to_do(
    table: Table, golden: Callable[[str, str], None]
) -> None:
    table.service.orders.submit("alpha", "England", ["F lon - xyz"])
    table.clock.advance(timedelta(hours=37))
    table.keeper.tick()
    golden("reminder_missing", table.bodies("notice", "russia@example.org")[0])
    golden("reminder_errors", table.bodies("notice", "england@example.org")[0])
    table.clock.advance(timedelta(hours=11))
    table.keeper.tick()
    golden("late_notice", table.bodies("notice", "russia@example.org")[1])


def test_at_the_deadline_late_notices_and_at_the_end_of_grace_the_phase_goes_without_them(table: Table) -> None:
    table.clock.advance(timedelta(hours=48))
    assert any("late notices" in line for line in table.keeper.tick())
    assert table.game().phase_index == 0
    table.clock.advance(timedelta(hours=6))
    assert any("processed at the deadline" in line for line in table.keeper.tick())
    assert table.game().phase_index == 1
    assert sorted(to for recipients, _ in table.mails("result") for to in recipients) == sorted(
        [f"{power.lower()}@example.org" for power in POWERS] + ["gm@example.org"]
    )  # one results mail, everyone reading the same sheet


def test_every_order_in_and_nobody_waiting_processes_early(table: Table) -> None:
    for power, lines in HOLDS.items():
        table.service.orders.submit("alpha", power, lines)
    table.service.setup.set_wait("alpha", "Italy", True)
    assert table.keeper.tick() == []
    table.service.setup.set_wait("alpha", "Italy", False)
    assert any("processed early" in line for line in table.keeper.tick())


def test_a_manual_game_waits_for_the_gm(tmp_path: Path) -> None:
    table = Table(f"sqlite:///{tmp_path / 'm.sqlite'}", {"timing": {"manual": True}})
    for power, lines in HOLDS.items():
        table.service.orders.submit("alpha", power, lines)
    table.clock.advance(timedelta(days=3))
    done = table.keeper.tick()
    assert table.game().phase_index == 0
    assert any("GM was told" in line for line in done)


def test_a_vacant_power_makes_a_waiting_game_wait_for_a_replacement(tmp_path: Path) -> None:
    table = Table(f"sqlite:///{tmp_path / 'w.sqlite'}", {"nmr": "wait"})
    table.service.controls.eject("alpha", "Turkey")
    table.clock.advance(timedelta(days=3))
    assert any("waiting for replacements" in line for line in table.keeper.tick())
    assert table.game().phase_index == 0
    table.service.accounts.register("new@example.org", "New", "pw")
    table.service.controls.replace("alpha", "Turkey", "new@example.org")
    assert any("processed" in line for line in table.keeper.tick())


def test_a_judge_that_was_down_across_a_deadline_catches_up_on_start(table: Table) -> None:
    table.clock.advance(timedelta(days=5))  # the judge was down: nothing ticked
    restarted = DeadlineKeeper(table.db, CONFIG, table.clock)
    done = restarted.tick()
    assert table.game().phase_index == 1
    assert [line.split(":")[1].strip() for line in done][-1].startswith("Spring 1901 Movement processed")
    assert as_utc(table.game().deadline) == table.clock.now() + timedelta(hours=48)


def test_the_next_due_instant_is_the_earliest_pending_event(table: Table) -> None:
    deadline = as_utc(table.game().deadline)
    assert deadline is not None
    assert table.keeper.next_due() == deadline - timedelta(hours=12)
    table.clock.advance(timedelta(hours=37))
    table.keeper.tick()
    assert table.keeper.next_due() == deadline


# --- absences (judge.game.attendance) -------------------------------------------------------------------


def _away(*spans: tuple[str, str, str], **absence: object) -> tuple[dict[str, object], dict[str, list[str]]]:
    """A game's `absence.*` settings, and its absences as kept (`Game.absences`)."""
    zone = ZoneInfo("Europe/London")
    found = {
        power: stored(absence_of(power, date.fromisoformat(first), date.fromisoformat(last), zone))
        for power, first, last in spans
    }
    return {"absence": absence}, found


def test_a_deadline_in_an_absence_moves_to_a_day_after_it_ends() -> None:
    settings, away = _away(("France", "2026-12-01", "2026-12-03"))
    deadline = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
    assert extended_deadline(settings, away, deadline, {"France"}) == datetime(2026, 12, 5, 0, 0, tzinfo=UTC)
    assert extended_deadline(settings, away, deadline, {"Germany"}) is None  # France has nothing to order
    assert extended_deadline(settings, away, datetime(2026, 12, 4, 0, 0, tzinfo=UTC), {"France"}) is None


def test_absences_that_follow_each_other_move_a_deadline_on_but_never_past_the_limit() -> None:
    settings, away = _away(("France", "2026-12-01", "2026-12-03"), ("Italy", "2026-12-04", "2026-12-30"), max_days=7)
    deadline = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
    assert extended_deadline(settings, away, deadline, {"France", "Italy"}) == deadline + timedelta(days=7)


def test_under_hold_an_absence_moves_no_deadline_and_the_power_is_not_waited_for() -> None:
    settings, away = _away(("France", "2026-12-01", "2026-12-03"), mode="hold")
    deadline = datetime(2026, 12, 2, 18, 0, tzinfo=UTC)
    assert extended_deadline(settings, away, deadline, {"France"}) is None
    assert held_away(settings, away, deadline) == {"France"}
    assert held_away(settings, away, datetime(2026, 12, 4, 0, 0, tzinfo=UTC)) == set()
