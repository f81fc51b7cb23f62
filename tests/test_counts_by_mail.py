"""Issue 40, end to end: games of Hoplite Wars and CW Heptadiplomacy (options A and B) by mail through a real
Dovecot (every mail in by IMAP), the whole daemon on a fake clock and a real SMTP relay (every mail out). In every
phase the counts each player reads agree: the results mail, LIST and SUMMARY (asked by mail), the legend of the
picture of the position and the web site's chart, each side's centres and units counted in the variant's terms
(issue 40: "One count everywhere"). The first phase's reminder (sent by the deadline keeper) is answered with
its own sign-on line, as written, and its subject writes the year as the variant does ("451 BC")."""

from __future__ import annotations

import random
import re
import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select
from test_one_count import Count, _agree, _legend, _list_by_player, _results_by_player, _summary_last_year, _web_chart
from test_sides_whole_games import SEED, Delivered, Seat, Table, _phase, _play, _start

from judge.clock import as_utc
from judge.engine import PhaseType
from judge.store import Game
from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay

pytestmark = pytest.mark.slow  # end to end: real servers, whole games (make test-fast skips them)


def _asked(table: Table, seat: Seat, command: str, marker: str) -> str:
    """A command mailed by the player, its reply as the relay delivered it."""
    table.send(seat.address, f"{command} {table.game}")
    table.settle()
    replies = [m.text.replace("\r\n", "\n") for m in table.new_mail() if m.to == seat.address and marker in m.text]
    assert replies, f"no reply to {command}"
    return replies[-1]


def _answer_the_reminder(table: Table, lines: dict[Seat, list[str]]) -> Seat:
    """Eleven hours before the first deadline the keeper reminds every player; one of them mails the reminder's
    sign-on line back as written (his password for the word), with his orders."""
    with table.daemon.db.transaction() as s:
        deadline = as_utc(s.scalars(select(Game.deadline).where(Game.name == table.game)).one())
    assert deadline is not None
    table.clock.set(deadline - timedelta(hours=11))
    reminders: list[Delivered] = []
    for _ in range(50):  # a game another transaction holds is looked at again shortly, as the daemon does
        table.daemon.tick()
        table.settle()
        reminders += [m for m in table.new_mail() if "reminder" in str(m.message["Subject"])]
        if reminders:
            break
        time.sleep(0.1)
    assert {m.to for m in reminders} == {s.address for s in table.seats if s in lines}
    for mail in reminders:
        assert not re.search(r"-\d{3}\b", mail.text), mail.text  # never "Winter -451"
    ordering = [s for s in table.seats if lines.get(s)]
    seat = next((s for s in ordering if s.label != s.name), ordering[0])  # a Hoplite side's label is no name
    text = next(m.text for m in reminders if m.to == seat.address).replace("\n", " ")
    quoted = re.search(r"SIGNON \S+ .+? password", text)
    assert quoted is not None, text
    table.send(seat.address, quoted[0].removesuffix("password") + seat.password + "\n" + "\n".join(lines[seat]))
    table.settle()
    reply = next(m.text for m in table.new_mail() if m.to == seat.address)
    assert f"Signed on to {table.game} as" in reply, reply
    return seat


def _counts_agree(table: Table, results: dict[str, str], labels: dict[str, str]) -> Count:
    """The same phase's counts, by side, in every surface a player reads."""
    reader = table.seats[0]
    surfaces: dict[str, Count] = {
        "LIST": _list_by_player(_asked(table, reader, "LIST", "By player (centres, units):")),
        "SUMMARY": _summary_last_year(_asked(table, reader, "SUMMARY", "Supply centres held"), labels),
        "legend": _legend(table.daemon.db, table.game, labels),
        "web": _web_chart(table.daemon.db, table.clock, table.game)[0],
    }
    sheet = results[reader.address].replace("\r\n", "\n")
    if "By player:" in sheet:
        surfaces["results"] = _results_by_player(sheet)
    return _agree(surfaces)


@pytest.mark.parametrize(
    ("variant", "game", "options", "last_year"),
    [("hoplite", "hop", "", -449), ("hepta", "hep", "assignment=a module=2", 1901),
     ("hepta", "hepb", "assignment=b module=2", 1901)],
)  # fmt: skip
def test_every_phase_counts_the_same_in_every_mail_picture_and_page(
    mailbox: DovecotServer,
    smtp_relay: SmtpRelay,
    tmp_path: Path,
    variant: str,
    game: str,
    options: str,
    last_year: int,
) -> None:
    table = Table(mailbox, smtp_relay, tmp_path, game, variant)
    table.daemon.start()
    try:
        _start(table, options, joined_by_powers=variant == "hoplite")
        labels = {seat.name: seat.label for seat in table.seats}
        rng = random.Random(SEED)
        played = 0
        adjusted = False
        while True:
            phase = _phase(table, rng)
            if phase is None or phase.position.phase.year > last_year:
                break
            if played == 0:
                _answer_the_reminder(table, phase.lines)
            results = _play(table, phase)
            counted = _counts_agree(table, results, labels)
            assert set(counted) == set(labels.values())
            adjusted = adjusted or phase.position.phase.type is PhaseType.ADJUSTMENT
            played += 1
        assert played >= 3 and adjusted
    finally:
        table.daemon.shutdown()
