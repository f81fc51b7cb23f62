"""Issue 44's test of gunboat games: one game of several phases played by mail through a real Dovecot (the judge
as `judge serve` runs it, on a fake clock, its mail caught by a real SMTP relay), with press, a late player (his
reminder and late notice), a replacement, SUMMARY, HISTORY, LIST and LIST FULL -- and every mail any player or
observer receives, and every page of the served and the exported site, searched for every player's name and
address: none appears until the GM's REVEAL; after it, the names do (addresses never).

njudge's info.gunboat: "In gunboat Diplomacy no one knows who the other players are"."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from gunboat_leaks import crawl, exported, leaks
from web_games import SITE, serving

from judge.clock import FakeClock, as_utc
from judge.game import Games
from judge.game.anonymity import ANONYMOUS
from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import OPENING_ORDERS, POWERS
from judge.web.export import export_site

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)

GM = "gm@example.org"
OBSERVER = "onlooker@elsewhere.example"
NAMES = {
    "Austria": "Ada Quillfeather",
    "England": "Bram Stoutwhistle",
    "France": "Cora Vantablack",
    "Germany": "Dmitri Oakhollow",
    "Italy": "Elsa Thornquist",
    "Russia": "Fenwick Mallory",
    "Turkey": "Greta Ironwood",
}
NEWCOMER = ("Hugo Brightwater", "hugo.brightwater@mail.example")
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def address(power: str) -> str:
    return f"{NAMES[power].lower().replace(' ', '.')}@mail.example"


PLAYERS = {**{NAMES[p]: address(p) for p in POWERS}, NEWCOMER[0]: NEWCOMER[1]}
"""every player's name and address: none may reach anyone but the GM and the player himself"""


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    with running_judge(dovecot, tmp_path_factory.mktemp("gunboat"), "gunboat", clock=FakeClock(START)) as judge:
        yield judge


def _gm(body: str) -> str:
    return "SIGNON boat MASTER gmpass\n" + body


def _read_by_others(judge: MailJudge) -> list[tuple[str, str, str]]:
    """Each mail the judge sent, once for each reader but the GM: (reader, subject, text)."""
    found = []
    for item in judge.relay.messages:
        message = message_from_bytes(item.data, policy=policy.default)
        parts = [str(message.get(h, "")) for h in ("Subject", "To", "Cc", "Reply-To", "From")]
        parts += [p.get_content() for p in message.walk() if p.get_content_type() == "text/plain"]
        for reader in set(item.rcpt_tos) - {GM}:
            found.append((reader, str(message["Subject"]), "\n".join(parts)))
    return found


def _leaks_in_mail(judge: MailJudge) -> list[tuple[str, str, str]]:
    """Each (reader, subject, secret): a mail naming a player, or giving his address, to anyone but him (and the
    GM)."""
    return [
        (reader, subject, secret)
        for reader, subject, text in _read_by_others(judge)
        for name, mail in PLAYERS.items()
        if reader != mail
        for secret in (name, mail)
        if secret.lower() in text.lower()
    ]


def test_a_gunboat_game_by_mail_names_nobody_until_the_gm_reveals_it(judge: MailJudge, tmp_path: Path) -> None:
    clock = judge.daemon.clock if judge.daemon else None
    assert isinstance(clock, FakeClock) and judge.daemon is not None
    judge.send(GM, "REGISTER Game Master gmpass")
    assert "created" in judge.send(GM, "CREATE boat standard joinpw")
    setup = judge.send(GM, _gm("SET gunboat=on press.type=both grace_hours=12\nSET COMMENT Gunboat: who is who?"))
    assert "Set gunboat=on" in setup and "Comment: Gunboat" in setup
    judge.send(OBSERVER, "REGISTER Olive Onlooker obspw\nOBSERVE boat joinpw")
    for power in POWERS:
        judge.send(address(power), f"REGISTER {NAMES[power]} {power.lower()}pw\nJOIN boat joinpw {power}")
    start = judge.wait_mails(address("Italy"), "boat has started")[0].get_content()
    assert "Italy:" in start and ANONYMOUS in start and "You play Italy" in start

    # Spring 1901: press white and private; France late (reminded, told he is late), then processed at grace's end
    for power in POWERS:
        if power != "France":
            judge.send(address(power), f"SIGNON boat {power} {power.lower()}pw\n{OPENING_ORDERS[power]}")
    judge.send(address("England"), "SIGNON boat England englandpw\nBROADCAST\nThe North Sea is mine.\nENDPRESS")
    judge.send(address("Germany"), "SIGNON boat Germany germanypw\nPRESS TO Russia\nShall we?\nENDPRESS")
    press = judge.wait_mails(address("Austria"), "boat")
    assert any("North Sea is mine" in m.get_content() and "England" in m.get_content() for m in press)
    deadline = as_utc(Games(judge.daemon.db, clock).reads.game("boat").deadline)
    assert deadline is not None
    for moment, to, subject in (
        (deadline - timedelta(hours=11), address("France"), "reminder"),
        (deadline + timedelta(hours=1), address("France"), "late"),
        (deadline + timedelta(hours=13), address("Italy"), "results of Spring 1901"),
    ):
        clock.set(moment)
        for _ in range(100):  # the keeper's scheduler runs on the wall clock: the test ticks it, as the daemon would
            judge.daemon.tick()  # again, shortly, for a game another transaction held
            if judge.mails(to=to, subject=subject):
                break
            time.sleep(0.1)
        judge.wait_mails(to, subject)

    # the GM puts a new player in for France; Fall 1901 is processed by the GM
    judge.send(NEWCOMER[1], f"REGISTER {NEWCOMER[0]} hugopw")
    assert "France" in judge.send(GM, _gm(f"REPLACE France {NEWCOMER[1]}"))
    judge.wait_mails(address("Turkey"), "France replaced")
    judge.send(GM, _gm("PROCESS"))
    judge.wait_mails(OBSERVER, "results of Fall 1901")
    status = judge.send(GM, _gm("STATUS"))
    assert NEWCOMER[0] in status and NAMES["Italy"] in status  # the GM still sees everything

    asked = {what: judge.send(OBSERVER, what) for what in ("LIST boat", "LIST", "LIST FULL", "SUMMARY boat")}
    asked["HISTORY boat"] = judge.send(address("Turkey"), "HISTORY boat")
    assert "Gunboat: who is who?" in asked["LIST FULL"] and "gunboat=on" in asked["LIST FULL"]
    assert ANONYMOUS in asked["LIST boat"]
    secrets = (*PLAYERS, *PLAYERS.values())
    assert _leaks_in_mail(judge) == []
    assert leaks(asked, secrets) == []
    games = Games(judge.daemon.db, clock)
    with serving(games, SITE) as server:
        site = crawl(server.url)
        assert any("games/boat" in url for url in site)
        assert leaks(site, secrets) == []
    export_site(games, SITE, tmp_path / "site")
    assert leaks(exported(tmp_path / "site"), secrets) == []

    # the GM reveals: everyone is told who plays whom, and the lists and pages name them (never an address)
    assert "names its players from now on" in judge.send(GM, _gm("REVEAL"))
    told = judge.wait_mails(OBSERVER, "who played whom")[0].get_content()
    assert NAMES["Turkey"] in told and NEWCOMER[0] in told
    assert NAMES["Turkey"] in judge.send(address("Austria"), "LIST boat")
    with serving(games, SITE) as server:
        page = crawl(server.url)
        assert any(NAMES["Turkey"] in text for text in page.values())
        assert leaks(page, tuple(PLAYERS.values())) == []
