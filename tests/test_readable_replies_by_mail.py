"""Issue 40, end to end: a CW Heptadiplomacy game (option A, 49 board-nations) played by mail through a real
Dovecot (every mail in by IMAP), the whole daemon and a real SMTP relay (every mail out), from Spring 1901 through
the Winter. Each phase, with most orders on file, a player PREVIEWs his side's orders and the GM sends PREDICT,
STATUS and SET DEADLINE; every reply as delivered stays under 120 lines and 64 KB and says how to ask for the rest
(docs/mail.md, "Long replies": the bound is each command's, so the GM's commands go in mails of their own here),
and every moment in them is in the one form (docs/results.md, "Dates")."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from test_readable_replies import _LEFT, _MOMENT
from test_sides_whole_games import GM, SEED, Delivered, Table, _phase, _send_orders, _start

from judge.engine import PhaseType
from judge.render.bounds import REPLY_BYTES, REPLY_LINES
from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay

pytestmark = pytest.mark.slow  # end to end: real servers, a game of several phases


def _reply(mails: list[Delivered], to: str, command: str) -> Delivered:
    found = [m for m in mails if m.to == to and f"> {command}" in m.text]
    assert len(found) == 1, [m.text[:200] for m in mails if m.to == to]
    found[0].text = found[0].text.replace("\r\n", "\n")  # as the mail reader shows it
    return found[0]


def _bounded(mail: Delivered) -> None:
    """A reply as the player's mailbox gets it: its text under 120 lines, the whole message under 64 KB."""
    assert len(mail.text.splitlines()) < REPLY_LINES, mail.text
    assert len(bytes(mail.message)) < REPLY_BYTES


def test_previews_predictions_and_the_gms_replies_of_a_heptadiplomacy_game_stay_readable(
    mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path
) -> None:
    table = Table(mailbox, smtp_relay, tmp_path, "hep", "hepta")
    table.daemon.start()
    try:
        _start(table, "assignment=a module=2", joined_by_powers=False)
        table.new_mail()
        rng = random.Random(SEED)
        england = next(seat for seat in table.seats if seat.name == "England")
        last = table.seats[-1]
        kinds: set[PhaseType] = set()
        while True:
            phase = _phase(table, rng)
            if phase is None or (phase.position.phase.year > 1901 and PhaseType.ADJUSTMENT in kinds):
                break
            kinds.add(phase.position.phase.type)
            index = table.phase_index()
            for seat, lines in phase.lines.items():  # all but one player's orders on file
                if seat is not last and lines:
                    _send_orders(table, seat, seat.name, lines)
            table.settle()
            table.new_mail()
            mine = phase.lines.get(england, [])
            if mine:
                preview = "\n".join(["PREVIEW", *mine])
                table.send(england.address, f"SIGNON hep {england.name} {england.password}\n{preview}")
            table.gm("PREDICT")
            table.gm("STATUS\nSET DEADLINE +2d")
            table.settle()
            mails = table.new_mail()
            if mine:
                shown = _reply(mails, england.address, "PREVIEW")
                _bounded(shown)
                sheet = shown.text[shown.text.find(" preview for ") :].split("Centres  Units")[0]  # its orders
                named = re.findall(r"^   (\d:\w+):", sheet, re.MULTILINE)
                mine = [n.endswith(":England") for n in named]
                assert mine and mine[0] and sorted(mine, reverse=True) == mine, sheet  # his side first
            predicted = _reply(mails, GM, "PREDICT")
            _bounded(predicted)
            assert "PREDICT FULL" in predicted.text
            gm = _reply(mails, GM, "STATUS")
            _bounded(gm)
            status = re.search(r"> STATUS\n   hep: .*; deadline (.*)\n", gm.text)
            assert status and re.fullmatch(rf"{_MOMENT.pattern} {_LEFT.pattern}", status[1]), gm.text
            assert re.search(rf"Read '\+2d' as {_MOMENT.pattern} \(in 2 days\); everyone in the game is told", gm.text)
            assert not re.search(r"\d{4}-\d\d-\d\dT|0\.0 hours|hours from now", gm.text)
            if phase.lines.get(last):
                _send_orders(table, last, last.name, phase.lines[last])
            table.settle()
            if table.phase_index() == index:
                table.pass_deadline()
            assert table.phase_index() > index, "the phase was not processed"
            table.new_mail()
        assert {PhaseType.MOVEMENT, PhaseType.ADJUSTMENT} <= kinds
    finally:
        table.daemon.shutdown()
