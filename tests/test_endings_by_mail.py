"""Issue 44 item 5 (the game's own end, second half) by real mail: every mail into a real Dovecot mailbox, the judge
running as `judge serve` runs it, its mail caught by a real SMTP relay, its site served. One game: a player files
an end-of-game statement before the end, kept private; the GM terminates the game and takes the termination back
(UNTERMINATE), everyone told; terminated again, the game-over mail carries the statement; a statement filed after
the end is sent to everyone; the game's page shows them. The many small cases are tests/test_undo_end.py's."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage

import pytest
from gunboat_leaks import crawl
from web_games import SITE, serving

from judge.game import Games
from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GM = "gm@example.org"
MASTER = "SIGNON endx MASTER gmpass\n"


def _text(mail: EmailMessage) -> str:
    """A mail's text as written, its line ends as read from the wire (CRLF) made plain."""
    return str(mail.get_content()).replace("\r\n", "\n")


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("endings"), "endings") as judge:
        yield judge


def test_a_terminate_taken_back_and_statements_in_the_game_over_mail_and_on_the_page(judge: MailJudge) -> None:
    judge.game("endx")
    france, england, italy = (judge.player("endx", power) for power in ("France", "England", "Italy"))
    filed = judge.send(france, "SIGNON endx France francepw\nSTATEMENT\nI never trusted Paris.\nENDPRESS")
    assert "nobody else reads it until endx ends" in filed

    assert "endx is terminated" in judge.send(GM, MASTER + "TERMINATE")
    judge.wait_mails(italy, "endx: the game is over")
    taken_back = judge.send(GM, MASTER + "UNTERMINATE")
    assert "endx is active again" in taken_back, taken_back
    (told,) = judge.wait_mails(italy, "endx: the end taken back")
    assert "goes on as before it, running" in _text(told)
    assert "is not terminated" in judge.send(GM, MASTER + "TERMINATE OFF")

    judge.send(GM, MASTER + "TERMINATE")
    over = _text(judge.wait_mails(italy, "endx: the game is over", count=2)[-1])
    assert "From France (France Player of endx):\n  I never trusted Paris." in over
    posted = judge.send(england, "SIGNON endx England englandpw\nSTATEMENT\nWell played, all.")
    assert "sent to everyone in endx" in posted
    (statement,) = judge.wait_mails(italy, "endx: an end-of-game statement")
    assert "From England (England Player of endx):\n  Well played, all." in _text(statement)

    assert judge.daemon is not None
    with serving(Games(judge.daemon.db), SITE) as server:
        pages = crawl(server.url)
    (page,) = [text for url, text in pages.items() if url.endswith("games/endx/index.html")]
    assert "End-of-game statements" in page
    assert "I never trusted Paris." in page and "Well played, all." in page
    assert "The GM took back the termination" in page
