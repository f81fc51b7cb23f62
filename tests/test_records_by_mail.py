"""Issue 46 and issue 43 item 7 by real mail: every mail into a real Dovecot mailbox, the judge running as `judge
serve` runs it, its mail caught by a real SMTP relay. One game: a player misses a phase; WHOIS about him answers
his record and never his address; a game with an entry limit refuses his JOIN with his figure and the limit. The
many small cases are tests/test_records.py's, in-process."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import OPENING_ORDERS, POWERS

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("records"), "records") as judge:
        yield judge


def test_whois_by_mail_and_a_join_refused_by_an_entry_limit(judge: MailJudge) -> None:
    judge.game("rec")
    for power in POWERS:
        if power != "France":  # France misses Spring 1901: -100 dedication (njudge's `data/dedsystems`)
            judge.send(judge.player("rec", power), f"SIGNON rec {power} {power.lower()}pw\n{OPENING_ORDERS[power]}")
    assert "Phase processed" in judge.send("gm@example.org", "SIGNON rec MASTER gmpass\nPROCESS")

    whois = judge.send(judge.player("rec", "England"), "WHOIS France Player of rec")
    assert "Name:       France Player of rec" in whois
    assert "phases 0 on time, 0 late, 1 missed" in whois and "dedication -100" in whois
    assert "rec (standard) as France: playing" in whois
    assert judge.player("rec", "France") not in whois  # never his address: he did not allow it

    assert "created" in judge.send("gm@example.org", "CREATE rec2 standard joinpw dedication=0")
    refused = judge.send(judge.player("rec", "France"), "JOIN rec2 joinpw")
    assert "rec2 has entry limits: your dedication is -100; this game asks at least 0" in refused
    assert "You have joined rec2" in judge.send(judge.player("rec", "England"), "JOIN rec2 joinpw")
