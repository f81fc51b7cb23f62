"""Issue 43 item 8 by real mail: every mail into a real Dovecot mailbox, the judge running as `judge serve` runs it,
its mail caught by a real SMTP relay. One game: a player resigns and a volunteer takes his place over, SUMMARY names
both with the phase; HISTORY of the whole game comes as "part n of m" mails, all answering the one request. The many
small cases are tests/test_archives.py's, in-process."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest

from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import OPENING_ORDERS, POWERS

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GM = "gm@example.org"
VOLUNTEER = "vera.volunteer@example.org"
WAIT = 30.0


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("archives"), "archives") as judge:
        yield judge


def _answers(judge: MailJudge, sender: str, body: str) -> list[str]:
    """Send a mail; every mail answering it (its In-Reply-To names the mail), once all the parts its first says
    there are have come, in the order of their part numbers."""
    message_id = judge.deliver(sender, body)
    until = time.monotonic() + WAIT
    while time.monotonic() < until:
        found = [mail for mail in judge.mails(to=sender) if mail["In-Reply-To"] == message_id]
        told = [re.search(r"\(part (\d+) of (\d+)\)", str(mail["Subject"])) for mail in found]
        numbers = [(int(each[1]), int(each[2])) for each in told if each]
        if found and len(numbers) == len(found) == numbers[0][1]:
            ordered = sorted(zip(numbers, found, strict=True), key=lambda pair: pair[0][0])
            return [f"{mail['Subject']}\n{mail.get_content()}".replace("\r\n", "\n") for _, mail in ordered]
        time.sleep(0.1)
    raise AssertionError(f"no answer in parts to {body[:60]!r}")


def test_summary_with_a_takeover_and_a_whole_history_in_parts(judge: MailJudge) -> None:
    judge.game("arc")
    for power in POWERS[:-1]:  # Turkey orders nothing: the phase waits for the GM's PROCESS
        judge.send(judge.player("arc", power), f"SIGNON arc {power} {power.lower()}pw\n{OPENING_ORDERS[power]}")
    england = judge.player("arc", "England")
    judge.send(england, "SIGNON arc England englandpw\nBROADCAST\nA fine spring to all.\nENDPRESS")
    assert "Phase processed" in judge.send(GM, "SIGNON arc MASTER gmpass\nPROCESS")
    assert "You have resigned" in judge.send(judge.player("arc", "France"), "SIGNON arc France francepw\nRESIGN")
    judge.send(VOLUNTEER, "REGISTER Vera Volunteer verapw")
    assert "You have taken over France" in judge.send(VOLUNTEER, "TAKEOVER arc France verapw")
    assert "Phase processed" in judge.send(GM, "SIGNON arc MASTER gmpass\nPROCESS")

    summary = judge.send(england, "SUMMARY arc").replace("\r\n", "\n")
    assert "France   France Player of arc" in summary
    assert "in F1901M: France Player of arc resigned; 3 centres then; left open" in summary
    assert "from F1901M: Vera Volunteer, a volunteer (TAKEOVER); 3 centres then" in summary
    assert VOLUNTEER not in summary

    parts = _answers(judge, england, "HISTORY arc ALL LINES 40")
    total = len(parts)
    assert total >= 3  # two phases in full, with their results' long tables, forty lines a mail
    for number, text in enumerate(parts, start=1):
        assert text.startswith("Re: orders") and text.splitlines()[0].endswith(f"(part {number} of {total})")
    assert f"This answer comes in {total} mails (part 1 of {total})" in parts[0]
    assert f": part 2 of {total} of the answer to your mail.\n\n> HISTORY arc ALL LINES 40\n(continued)" in parts[1]
    whole = "\n".join(parts)
    assert whole.index("(arc, S1901M)") < whole.index("A fine spring to all.") < whole.index("(arc, F1901M)")
