"""Issue 40, end to end: attendance reckoned per power owed and reported per side, in whole games by mail through a
real Dovecot (every mail in by IMAP), the whole daemon and a real SMTP relay (every mail out), as
`tests/test_sides_whole_games.py` plays them.

The cases are the issue's: a CW Heptadiplomacy phase went early with 35 of 49 board-nations unordered, because
each player had sent orders for some board; a Hoplite Wars Winter went early while a side owed a removal for its
Minor, because its Major had orders. docs/mail.md promises that a player "may send board 5 today and boards 1-4
tomorrow"; docs/deadlines.md ("Several powers to a player") says exactly when such a game goes early: once every
power that owes orders has them on file. A side that ordered part of what it owes is reminded, and at the
deadline late, for the rest, named once with the powers it still owes."""

from __future__ import annotations

import random
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from test_sides_whole_games import (
    GM,
    SEED,
    Delivered,
    Phase,
    Seat,
    Table,
    _phase,
    _play,
    _send_orders,
    _start,
    late_names,
)

from judge.clock import as_utc
from judge.engine import Order, OrderKind, PhaseType, UnitRef
from judge.engine.order_text import render_order
from judge.engine.supply import balances
from judge.game.checking import read_orders, route_lines
from judge.game.timing import reminder_time, timing_from_settings
from judge.store import Game
from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay

pytestmark = pytest.mark.slow  # end to end: real servers, whole games (make test-fast skips them)


def _holding(table: Table, phase: Phase) -> Phase:
    """The phase with every unit holding (a Movement phase): orders that are surely without errors, so that only
    what is owed decides whether the phase goes early (the random orders may name an impossible move)."""
    assert phase.position.phase.type is PhaseType.MOVEMENT
    holds = {
        seat: [
            render_order(Order(OrderKind.HOLD, UnitRef(f.composition, f.at)))
            for f in phase.position.units
            if f.power in seat.powers
        ]
        for seat in table.seats
    }
    return Phase(phase.position, phase.due, {seat: lines for seat, lines in holds.items() if lines})


def _by_power(table: Table, phase: Phase, seat: Seat) -> dict[str, list[str]]:
    """A player's lines of the phase, by the power each orders."""
    lines = phase.lines.get(seat, [])
    found: dict[str, list[str]] = {}
    owners = route_lines(table.rules, phase.position, seat.powers, seat.powers[0], read_orders(table.rules, lines))
    for line, power in zip(lines, owners, strict=True):
        found.setdefault(power, []).append(line)
    return found


def _deadline(table: Table) -> datetime:
    with table.daemon.db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == table.game)).one()
        deadline = as_utc(game.deadline)
    assert deadline is not None
    return deadline


def _tick_at(table: Table, moment: datetime) -> list[Delivered]:
    """The calendar moves to `moment` and the keeper looks; the mail it sent."""
    table.settle()
    table.clock.set(moment)
    table.daemon.tick()
    table.settle()
    return table.new_mail()


def _still_open(table: Table, index: int) -> None:
    """The keeper looks now, before the deadline: the phase is not processed early."""
    table.settle()
    table.daemon.tick()
    table.settle()
    assert table.phase_index() == index, "processed early with orders still owed"
    assert not [m for m in table.new_mail() if "results of" in str(m.message["Subject"]).lower()]


def _subject(mail: Delivered) -> str:
    return str(mail.message["Subject"]).lower()


def _late_line(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("No orders were received from")]


def _send_all_but(table: Table, phase: Phase, partial: Seat) -> dict[Seat, list[str]]:
    """Every other player sends his lines; returns what each sent."""
    sent = {}
    for seat, lines in phase.lines.items():
        if seat is not partial and lines:
            _send_orders(table, seat, seat.name, lines)
            sent[seat] = list(lines)
    return sent


def _played_until(table: Table, rng: random.Random, wanted: PhaseType, limit: int = 12) -> Phase:
    """Phases played in full (every order in, `_play`) until one of the kind wanted opens."""
    for _ in range(limit):
        phase = _phase(table, rng)
        assert phase is not None
        if phase.position.phase.type is wanted:
            return phase
        _play(table, phase)
    raise AssertionError(f"no {wanted.value} phase within {limit} phases")


# --- CW Heptadiplomacy ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("assignment", ["a", "b"])
def test_a_hepta_player_sends_board_5_today_and_the_rest_tomorrow(
    mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path, assignment: str
) -> None:
    """Spring 1901: every other player sends all seven boards; one sends board 5 alone. The phase does not go
    early; his reminder names the six boards he still owes, and nobody else is reminded; boards 1-4 the next
    day still leave two; boards 6 and 7 make it go early, nobody late. In the Autumn he leaves board 7 out: at the
    deadline his late notice, the GM's list and the results name him once, with board 7."""
    table = Table(mailbox, smtp_relay, tmp_path, "hep", "hepta")
    table.daemon.start()
    try:
        _start(table, f"assignment={assignment} module=2", joined_by_powers=False)
        partial = table.seats[1]
        rng = random.Random(SEED)
        opening = _phase(table, rng)
        assert opening is not None
        phase = _holding(table, opening)
        index = table.phase_index()
        mine = _by_power(table, phase, partial)
        assert sorted(mine) == sorted(partial.powers)  # seven boards, each with units to order
        boards = list(partial.powers)
        _send_all_but(table, phase, partial)
        _send_orders(table, partial, partial.name, mine[boards[4]])  # board 5 today
        _still_open(table, index)

        deadline = _deadline(table)
        timing = timing_from_settings({})
        reminders = [m for m in _tick_at(table, reminder_time(deadline, timing) + timedelta(minutes=1))
                     if "reminder" in _subject(m)]  # fmt: skip
        assert [m.to for m in reminders] == [partial.address]  # every other player has all in
        owed = [b for b in boards if b != boards[4]]
        assert f"{partial.label}: we have no orders for {', '.join(owed)} for" in reminders[0].text
        assert "The orders on file for your other powers stand" in reminders[0].text

        _send_orders(table, partial, partial.name, [ln for b in boards[:4] for ln in mine[b]])  # boards 1-4
        _still_open(table, index)  # boards 6 and 7 still owed
        _send_orders(table, partial, partial.name, [ln for b in boards[5:] for ln in mine[b]])
        table.settle()
        table.daemon.tick()
        table.settle()
        assert table.phase_index() > index, "every board in: the phase goes early"
        assert table.clock.now() < deadline
        results = [m for m in table.new_mail() if "results of" in _subject(m)]
        assert results and all(_late_line(m.text) == [] for m in results)

        # the Autumn: board 7 left out; at the deadline he is late for board 7 alone, named once
        phase = _holding(table, _played_until(table, rng, PhaseType.MOVEMENT))
        index = table.phase_index()
        mine = _by_power(table, phase, partial)
        left_out = max(power for power in mine if power in phase.due)
        sent = _send_all_but(table, phase, partial)
        sent[partial] = [ln for b, lines in mine.items() if b != left_out for ln in lines]
        _send_orders(table, partial, partial.name, sent[partial])
        _still_open(table, index)
        _late_at_the_deadline(table, phase, sent, partial, left_out)
    finally:
        table.daemon.shutdown()


def _late_at_the_deadline(table: Table, phase: Phase, sent: dict[Seat, list[str]], seat: Seat, owed: str) -> None:
    """The deadline passes: `seat`'s player is told he is late for `owed` alone; the GM's list and the results
    name him once, with it (and whoever else is late, each once)."""
    index = table.phase_index()
    mails = _tick_at(table, _deadline(table) + timedelta(minutes=1))
    assert table.phase_index() > index
    named = f"{seat.label} ({owed})"
    expected = late_names(table, phase, sent)
    assert named in expected and len(expected) <= len(table.seats)  # a player once: never 49 board-nations
    late = [m for m in mails if m.to == seat.address and ": late, " in _subject(m)]
    assert len(late) == 1 and f"we have no orders for {owed}." in late[0].text
    to_gm = [m for m in mails if m.to == GM and "late powers" in _subject(m)]
    assert len(to_gm) == 1 and f"No orders yet from: {', '.join(expected)}." in to_gm[0].text
    results = [m for m in mails if "results of" in _subject(m)]
    assert results and all(_late_line(m.text) == [f"No orders were received from {', '.join(expected)}."]
                           for m in results)  # fmt: skip


# --- Hoplite Wars ----------------------------------------------------------------------------------------------------


def test_a_hoplite_side_owes_its_minor_as_well_as_its_major(
    mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path
) -> None:
    """The opening Winter: Sparta's builds in, Elatea's not: no early processing, the reminder names Elatea; with
    Elatea's build the phase goes early. Then the first Winter in which a side's Minor owes a removal while its
    Major's orders are in: not early, and at the deadline the side is late for its Minor alone."""
    table = Table(mailbox, smtp_relay, tmp_path, "hop", "hoplite")
    table.daemon.start()
    try:
        _start(table, "", joined_by_powers=True)
        sparta = next(s for s in table.seats if s.name == "Sparta")
        rng = random.Random(SEED)
        phase = _phase(table, rng)
        assert phase is not None and phase.position.phase.type is PhaseType.ADJUSTMENT
        assert {"Sparta", "Elatea"} <= phase.due
        index = table.phase_index()
        mine = _by_power(table, phase, sparta)
        mine["Elatea"] = ["Build A ela"]  # the Minor's army at home (rule 7)
        _send_all_but(table, phase, sparta)
        _send_orders(table, sparta, "Sparta", mine["Sparta"])
        _still_open(table, index)
        timing = timing_from_settings({})
        mails = _tick_at(table, reminder_time(_deadline(table), timing) + timedelta(minutes=1))
        reminders = [m for m in mails if "reminder" in _subject(m)]
        assert [m.to for m in reminders] == [sparta.address]
        assert "Sparta + Elatea: we have no orders for Elatea for" in reminders[0].text
        _send_orders(table, sparta, "Sparta", mine["Elatea"])
        table.settle()
        table.daemon.tick()
        table.settle()
        assert table.phase_index() > index, "both powers in: the phase goes early"
        table.new_mail()

        # a Winter in which a Minor owes a removal while its Major has orders to give and gives them
        for _ in range(40):
            phase = _phase(table, rng)
            assert phase is not None, "the game ended before such a Winter"
            side = _minor_owing_a_removal(table, phase) if phase.position.phase.type is PhaseType.ADJUSTMENT else None
            if side is not None:
                break
            _play(table, phase)
        else:
            raise AssertionError("no Winter with a Minor owing a removal")
        major, minor = side.name, next(p for p in side.powers if p != side.name)
        index = table.phase_index()
        sent = _send_all_but(table, phase, side)
        sent[side] = _by_power(table, phase, side)[major]
        _send_orders(table, side, side.name, sent[side])
        _still_open(table, index)
        _late_at_the_deadline(table, phase, sent, side, minor)
    finally:
        table.daemon.shutdown()


def _minor_owing_a_removal(table: Table, phase: Phase) -> Seat | None:
    """A player whose Minor owes a removal this Winter while his Major has orders of its own to give."""
    position = phase.position
    owed = balances(table.rules, position.centres, position.units, position.variant_state)
    for seat in table.seats:
        major = seat.name
        minor = next(p for p in seat.powers if p != major)
        lines = _by_power(table, phase, seat)
        if owed.get(minor, 0) < 0 and minor in phase.due and major in phase.due and lines.get(major):
            return seat
    return None
