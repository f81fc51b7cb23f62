"""Issue 44 item 5 by real mail: every mail into a real Dovecot mailbox, the judge running as `judge serve` runs it,
its mail caught by a real SMTP relay. One standard game created by mail to end with 1901 (`end.year=1901` at
CREATE): France takes Spain and Portugal, the Winter is played out, and the game ends by centres -- the results
say so, and every player gets the game-over mail naming the result and France as the winner. The many small cases
are tests/test_game_end.py's, in-process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import POWERS

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GM = "SIGNON yend MASTER gmpass\n"


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("year-end"), "year-end") as judge:
        yield judge


def _france(judge: MailJudge, lines: str) -> None:
    reply = judge.send(judge.player("yend", "France"), f"SIGNON yend France francepw\n{lines}")
    assert "Orders for" in reply, reply


def test_a_game_set_by_mail_to_end_with_1901_ends_by_centres(judge: MailJudge) -> None:
    judge.game("yend", options="end.year=1901")
    listed = judge.send("gm@example.org", "LIST yend")
    assert "the game ends with 1901 (end.year)" in listed and "18 supply centres win (the map's)" in listed

    _france(judge, "F bre-mao\nA par-bur\nA mar-spa")
    assert "Phase processed" in judge.send("gm@example.org", GM + "PROCESS")
    _france(judge, "F mao-por\nA spa H\nA bur H")
    assert "Phase processed" in judge.send("gm@example.org", GM + "PROCESS")
    last = judge.send("gm@example.org", GM + "PROCESS")  # the Winter: France's builds are waived, the year is over
    assert "The game has ended (centres)." in last

    for power in POWERS:
        address = judge.player("yend", power)
        (results,) = judge.wait_mails(address, "results of Winter 1901")
        sheet = str(results.get_content()).replace("\r\n", "\n")
        assert "1901 was its last year (end.year), and France, holding the most supply\ncentres (5), has won." in sheet
        (over,) = judge.wait_mails(address, "yend: the game is over (centres)")
        text = str(over.get_content()).replace("\r\n", "\n")
        assert "yend reached the end of its last year (1901): France holds the most supply centres and wins." in text
        assert "France:" in text and "Supply centres at the end:" in text
    assert "the game is over: centres France" in judge.send("gm@example.org", "LIST yend")
