"""Issue 43, items 3 and 4: a delay before early processing (njudge's DELAY: "the number of hours after the last
required orders have been received before the orders will be processed ... This gives people a little time to
change their mind", njudge's data/deadlines), reminders at the intervals the game sets, and the list of late
players to every player or to the GM alone (njudge's data/deadlines: "a notice will be sent to the other players and
observers in the game indicating who is late"). docs/deadlines.md, "What happens". The rules (`plan`,
`next_moment`) on their own, then a game on a moving clock with the real keeper and SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from sqlalchemy import select, text
from test_deadlines import Table as GameOnAClock

from judge.clock import as_utc
from judge.config import Config
from judge.engine.phase import PhaseType
from judge.game import Games
from judge.game.deadlines import Look, next_moment, plan, reminders_sent
from judge.game.settings import SettingError, apply_setting, shown
from judge.store import Game, LaterOrderSet, Marks, OutboundMail, open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.testing.mail_rig import Judge, start_game
from judge.testing.tables import POWERS

CONFIG = Config(address="judge@example.org", name="testjudge", pictures=False)
DEADLINE = datetime(2026, 12, 5, 17, 0, tzinfo=UTC)
HOLDS = {
    "Austria": ["A vie H", "A bud H", "F tri H"],
    "England": ["F lon H", "F edi H", "A lvp H"],
    "France": ["A par H", "A mar H", "F bre H"],
    "Germany": ["A ber H", "A mun H", "F kie H"],
    "Italy": ["A rom H", "A ven H", "F nap H"],
    "Russia": ["A mos H", "A war H", "F sev H", "F stp/sc H"],
    "Turkey": ["A con H", "A smy H", "F ank H"],
}


def _look(settings: dict[str, Any], marks: Marks, last_in: datetime | None, sets: dict[str, bool]) -> Look:
    seats = tuple((power, "active", False) for power in ("England", "France"))
    return Look(3, settings, marks, {}, DEADLINE, PhaseType.MOVEMENT, frozenset({"England", "France"}), seats, sets,
                last_in)  # fmt: skip


# --- the rules ---------------------------------------------------------------------------------------------------


def test_with_a_delay_a_phase_whose_orders_are_all_in_goes_the_delay_after_the_last_came_in() -> None:
    settings = {"timing": {"delay": 0.5}}
    last = DEADLINE - timedelta(days=1)
    all_in = {"England": False, "France": False}
    assert not plan(_look(settings, Marks(), last, all_in), last + timedelta(minutes=29)).early
    assert plan(_look(settings, Marks(), last, all_in), last + timedelta(minutes=29)).early_at == last + timedelta(
        minutes=30
    )
    assert plan(_look(settings, Marks(), last, all_in), last + timedelta(minutes=30)).early == "every order is in"
    # the judge wakes for it: the end of the delay is the next moment
    assert next_moment(settings, Marks(), DEADLINE, "Movement", 3, last, last) == last + timedelta(minutes=30)
    # without a delay (the judge's default), at once, as before
    assert plan(_look({}, Marks(), last, all_in), last).early == "every order is in"
    # a delay waits for nothing while an order is missing: the deadline's rules go on
    missing = plan(_look(settings, Marks(), last, {"France": False}), last + timedelta(hours=1))
    assert not missing.early and missing.early_at is None and missing.missing == ["England"]


def test_reminders_go_at_each_interval_the_game_sets_once_each() -> None:
    """`timing.reminders=24h,6h,1h`: a reminder 24, 6 and 1 hours before the deadline; the marks count those sent, so
    each goes once, and a judge that was down sends the latest due once, not each it missed."""
    settings = {"timing": {"reminders": [24, 6, 1]}}
    before = DEADLINE - timedelta(days=2)
    assert next_moment(settings, Marks(), DEADLINE, "Movement", 3, before) == DEADLINE - timedelta(hours=24)
    one = Marks(reminded=3, reminders=1)
    assert next_moment(settings, one, DEADLINE, "Movement", 3, before) == DEADLINE - timedelta(hours=6)
    two = Marks(reminded=3, reminders=2)
    assert next_moment(settings, two, DEADLINE, "Movement", 3, before) == DEADLINE - timedelta(hours=1)
    three = Marks(reminded=3, reminders=3)
    assert next_moment(settings, three, DEADLINE, "Movement", 3, before) == DEADLINE  # the late notices next
    missing = {"France": False}
    assert plan(_look(settings, Marks(), None, missing), DEADLINE - timedelta(hours=24)).remind
    assert not plan(_look(settings, one, None, missing), DEADLINE - timedelta(hours=7)).remind
    assert plan(_look(settings, one, None, missing), DEADLINE - timedelta(hours=6)).remind
    assert plan(_look(settings, Marks(), None, missing), DEADLINE - timedelta(minutes=30)).remind  # down: one, now
    assert not plan(_look(settings, three, None, missing), DEADLINE - timedelta(minutes=30)).remind
    # a reminder mark from before (no count): one reminder went, the default one, 12 hours before
    assert not plan(_look({}, Marks(reminded=3), None, missing), DEADLINE - timedelta(hours=1)).remind


def test_the_settings_read_and_show_as_a_gm_writes_them() -> None:
    settings: dict[str, Any] = {}
    assert apply_setting(settings, "DELAY", "30m") == ("timing.delay", 0.5)
    assert apply_setting(settings, "timing.reminders", "1h, 24h,6h") == ("timing.reminders", [24, 6, 1])
    assert shown("timing.reminders", settings["timing"]["reminders"]) == "24h,6h,1h"
    assert shown("timing.delay", settings["timing"]["delay"]) == "0.5h"  # as SET reads it back
    assert apply_setting(settings, "late.to", "all") == ("late.to", "all")
    with pytest.raises(SettingError, match="24h,6h,1h"):
        apply_setting(settings, "timing.reminders", "soon")
    with pytest.raises(SettingError, match="all, gm"):
        apply_setting(settings, "late.to", "everyone")


# --- a game on a moving clock ------------------------------------------------------------------------------------


class Table(GameOnAClock):
    """tests/test_deadlines.py's game on a moving clock, its use cases as `games`, its notices by subject."""

    @property
    def games(self) -> Games:
        return self.service

    def notices(self) -> list[tuple[list[str], str]]:
        with self.db.transaction() as s:
            rows = s.scalars(select(OutboundMail).where(OutboundMail.kind == "notice").order_by(OutboundMail.id))
            return [(r.recipients, str(message_from_bytes(r.message, policy=policy.default)["Subject"])) for r in rows]

    def at(self, moment: datetime) -> list[str]:
        self.clock.set(moment)
        return self.keeper.tick()


@pytest.fixture
def delayed(tmp_path: Path) -> Iterator[Table]:
    t = Table(f"sqlite:///{tmp_path / 'j.sqlite'}", {"timing": {"delay": 0.5}})
    yield t
    t.db.dispose()


def test_a_game_waits_its_delay_after_the_last_orders_and_a_change_within_it_starts_it_again(delayed: Table) -> None:
    start = delayed.clock.now()
    for power in POWERS:
        delayed.games.orders.submit("alpha", power, HOLDS[power])
    assert delayed.keeper.tick() == []  # every order is in, but the delay runs
    assert delayed.keeper.next_due() == start + timedelta(minutes=30)
    delayed.clock.set(start + timedelta(minutes=20))
    delayed.games.orders.submit("alpha", "France", ["A par - bur", "A mar H", "F bre H"])  # a typo corrected
    assert delayed.at(start + timedelta(minutes=31)) == []  # 11 minutes after the change: it waits on
    assert delayed.keeper.next_due() == start + timedelta(minutes=50)
    done = delayed.at(start + timedelta(minutes=50))
    assert done == ["alpha: every order is in, Spring 1901 Movement processed early"]
    assert delayed.game().phase_index == 1


def test_reminders_at_the_set_intervals_and_the_late_list_to_all(tmp_path: Path) -> None:
    table = Table(f"sqlite:///{tmp_path / 'j.sqlite'}", {"timing": {"reminders": [24, 6]}, "late": {"to": "all"}})
    deadline = as_utc(table.game().deadline)
    assert deadline is not None
    for power in POWERS:
        if power != "Italy":
            table.games.orders.submit("alpha", power, HOLDS[power])
    table.games.accounts.register("watcher@example.org", "Watcher", "pw")
    table.games.seating.observe("alpha", "watcher@example.org", "pw")
    assert table.at(deadline - timedelta(hours=25)) == []
    assert table.at(deadline - timedelta(hours=24)) == ["alpha: reminded Italy"]
    assert table.at(deadline - timedelta(hours=23)) == []  # once
    assert table.at(deadline - timedelta(hours=6)) == ["alpha: reminded Italy"]
    assert table.at(deadline - timedelta(hours=1)) == []
    reminders = [to for to, subject in table.notices() if "reminder" in subject]
    assert reminders == [["italy@example.org"], ["italy@example.org"]]
    assert table.at(deadline)[0] == "alpha: late notices to Italy"  # then processed: no grace
    late = {to[0]: subject for to, subject in table.notices() if "late" in subject}
    others = {f"{p.lower()}@example.org" for p in POWERS if p != "Italy"}
    assert others | {"watcher@example.org"} <= late.keys()  # every other player and observer hears who is late
    assert late["gm@example.org"] == "alpha: late powers, Spring 1901 Movement"
    assert late["italy@example.org"] == "alpha: late, Spring 1901 Movement"  # his own notice, not the list


def test_the_late_list_to_all_never_tells_who_sent_orders_with_errors(tmp_path: Path) -> None:
    """Private stays private: a power whose orders have errors is late like one without orders in the list the
    others get (its player and the GM are told which); the list never says that it sent orders."""
    table = Table(f"sqlite:///{tmp_path / 'j.sqlite'}", {"late": {"to": "all"}})
    deadline = as_utc(table.game().deadline)
    assert deadline is not None
    for power in POWERS:
        if power not in ("Italy", "France"):
            table.games.orders.submit("alpha", power, HOLDS[power])
    table.games.orders.submit("alpha", "France", ["A par - xyz", "A mar H", "F bre H"])
    table.at(deadline)
    (listed,) = [text for text in table.bodies("notice", "england@example.org") if "No orders yet from" in text]
    assert "No orders yet from: France, Italy." in listed
    assert "error" not in listed.lower()


def test_the_late_list_goes_to_the_gm_alone_where_the_game_says_so(tmp_path: Path) -> None:
    table = Table(f"sqlite:///{tmp_path / 'j.sqlite'}", {"late": {"to": "gm"}})
    deadline = as_utc(table.game().deadline)
    assert deadline is not None
    table.games.orders.submit("alpha", "France", HOLDS["France"])
    table.at(deadline)
    late = [to[0] for to, subject in table.notices() if "late" in subject]
    assert sorted(late) == sorted(["gm@example.org", *(f"{p.lower()}@example.org" for p in POWERS if p != "France")])


# --- the migration ----------------------------------------------------------------------------------------------


def test_the_upgrade_from_0012_keeps_a_reminder_sent_as_sent_and_adds_the_later_orders(database_url: str) -> None:
    """Migration 0013_deadlines: a game reminded for its phase before it (`reminded_phase`, no count) reads as one
    reminder sent, so it is not reminded again; the table of orders for later phases is there; down and up again
    keep the game's phases (`judge.store.db.migrating`: SQLite's rebuilt `games` with the foreign keys off)."""
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0012")
        conn.execute(text("INSERT INTO players (address, name, password_hash, created_at) "
                          "VALUES ('gm@example.org', 'GM', 'x', CURRENT_TIMESTAMP)"))  # fmt: skip
        conn.execute(
            text("INSERT INTO games (name, variant, options, settings, status, gm_id, password_hash, seed, "
                 "phase_index, created_at, version, reminded_phase, absences, observers, concessions, pictures_off) "
                 "VALUES ('old', 'standard', '{}', '{}', 'paused', (SELECT id FROM players), 'x', 1, 3, "
                 "CURRENT_TIMESTAMP, 1, 3, '{}', '[]', '{}', '[]')"),
        )  # fmt: skip
        conn.execute(
            text('INSERT INTO phases (game_id, "index", season, year, type, position_before, orders, outcome, '
                 "position_after, seed, processed_at) VALUES ((SELECT id FROM games), 0, 'Spring', 1901, "
                 "'Movement', '{}', '{}', '{}', '{}', 7, CURRENT_TIMESTAMP)"),
        )  # fmt: skip
        command.upgrade(alembic_config(conn), "head")
    engine.dispose()
    db = open_database(database_url)
    with db.transaction() as s:
        marks = s.scalars(select(Game.marks)).one()
        assert marks == Marks(reminded=3) and reminders_sent(marks, 3) == 1
        assert s.scalars(select(LaterOrderSet)).all() == []
    db.dispose()
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), "0012")
        command.upgrade(alembic_config(conn), "head")
        assert conn.execute(text("SELECT count(*) FROM phases")).scalar_one() == 1
    engine.dispose()


def test_the_gm_sets_the_delay_by_mail_and_list_shows_it(tmp_path: Path) -> None:
    """`SET DELAY 30m`, njudge's way of writing it, is `timing.delay`; LIST shows it among the settings."""
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    try:
        start_game(judge)
        reply = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET DELAY 30m")
        assert "Set timing.delay=0.5h: when every order is in before the deadline" in reply
        assert "timing.delay=0.5h" in judge.mail("gm@example.org", "LIST alpha")
        refused = judge.mail("france@example.org", "SIGNON alpha France francepw\nSET DELAY 0")
        assert "this is a GM command" in refused
    finally:
        judge.db.dispose()
