"""Orders on file by real mail (issue 43, item 1, "Tests"): through a real Dovecot mailbox and SMTP relay, the judge
running as `judge serve` runs it, a player's reply ends with his orders on file, and CLEAR withdraws them, so that
at the deadline his units hold as unordered. One game for the module; the cases one by one are tests/test_on_file.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.clock import FakeClock
from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    # the clock stands still: nothing is processed but by the GM's PROCESS
    with running_judge(dovecot, tmp_path_factory.mktemp("onfile"), "onfile", clock=FakeClock()) as judge:
        yield judge


def test_a_reply_ends_with_the_orders_on_file_and_clear_withdraws_them(judge: MailJudge) -> None:
    judge.game("onfile")
    france = judge.player("onfile", "France")
    signon = "SIGNON onfile France francepw\n"
    reply = judge.send(france, signon + "A Par - Bur\nA Mar - Spa\n")
    end = reply.rstrip().splitlines()[-4:]
    assert end == ["Orders on file for France in onfile, Spring 1901 Movement:",
                   "  F bre               (no order: holds)", "  A mar - spa", "  A par - bur"]  # fmt: skip
    cleared = judge.send(france, signon + "CLEAR A Par\n")
    assert "France: A par - bur" in cleared
    assert cleared.rstrip().splitlines()[-3:] == ["  F bre               (no order: holds)", "  A mar - spa",
                                                  "  A par               (no order: holds)"]  # fmt: skip
    shown = judge.send(france, signon + "ORDERS\n")
    assert "> ORDERS" in shown and shown.rstrip().splitlines()[-3:] == cleared.rstrip().splitlines()[-3:]
    judge.send("gm@example.org", "SIGNON onfile MASTER gmpass\nPROCESS\n")
    results = judge.wait_mails(france, "results of Spring 1901")[0].get_content()
    assert "A Mar - Spa" in results and "A Par - Bur" not in results
