"""The GM handed on (issue 44 item 4): the GM names a co-GM, who may do all the GM does (njudge's PROMOTE,
`data/master`: "a game can have two or more Masters"), or hands the game to another GM (DPjudge's TAKEOVER of the
master, without its shared password: each GM signs on with his own registered password); the judge's admin does
either for a GM who vanished (njudge: "contact the administrator"). Both are told; a password is never echoed.
Through the real mail processor and a real SQLite database (`judge.testing.mail_rig`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from judge.game import Games
from judge.store import open_database
from judge.testing.mail_rig import Judge, start_game
from judge.web.pages import SiteInfo, game_page

GM = "SIGNON alpha MASTER gmpass\n"
SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    start_game(judge)
    judge.mail("carol@example.org", "REGISTER Carol Cogm carolpw")
    yield judge
    db.dispose()


def _notices(judge: Judge, address: str, subject: str) -> list[str]:
    return [m.get_content() for m in judge.outbound(kind="notice", to=address) if subject in str(m["Subject"])]


def test_a_co_gm_signs_on_with_his_own_password_and_does_what_the_gm_does(judge: Judge) -> None:
    assert "signon failed" in judge.mail("carol@example.org", "SIGNON alpha MASTER carolpw")
    reply = judge.mail("gm@example.org", GM + "PROMOTE carol@example.org")
    assert "Carol Cogm is a co-GM of alpha" in reply
    (told,) = _notices(judge, "carol@example.org", "alpha: you are a co-GM")
    assert "SIGNON alpha MASTER <your own password>" in told and "gmpass" not in told
    assert _notices(judge, "gm@example.org", "alpha: Carol Cogm is a co-GM")
    done = judge.mail("carol@example.org", "SIGNON alpha MASTER carolpw\nSET DEADLINE +3d\nPROCESS")
    assert "Signed on to alpha as MASTER" in done and "Phase processed" in done
    assert "carolpw" not in done
    assert "Co-GMs: Carol Cogm" in judge.mail("italy@example.org", "LIST alpha")


def test_demote_takes_the_co_gm_back_and_both_are_told(judge: Judge) -> None:
    judge.mail("gm@example.org", GM + "PROMOTE carol@example.org")
    assert "no longer a co-GM" in judge.mail("gm@example.org", GM + "DEMOTE carol@example.org")
    assert _notices(judge, "carol@example.org", "alpha: you are no longer a co-GM")
    assert _notices(judge, "gm@example.org", "alpha: Carol Cogm is no longer a co-GM")
    assert "signon failed" in judge.mail("carol@example.org", "SIGNON alpha MASTER carolpw")


def test_a_player_of_the_game_is_never_its_gm_too(judge: Judge) -> None:
    refused = judge.mail("gm@example.org", GM + "PROMOTE italy@example.org")
    assert "plays in alpha: a player is never its GM too" in refused
    assert "is not registered" in judge.mail("gm@example.org", GM + "HANDOVER nobody@example.org")
    assert "this is a GM command" in judge.mail("italy@example.org", "PROMOTE carol@example.org")


def test_handover_gives_the_game_to_another_gm_and_tells_them_both_and_the_game(judge: Judge) -> None:
    reply = judge.mail("gm@example.org", GM + "HANDOVER carol@example.org\nPROCESS")
    assert "Carol Cogm is the GM of alpha from now on" in reply and "You are signed off." in reply
    assert "this is a GM command" in reply  # the rest of the old GM's mail is no longer a GM's
    (new,) = _notices(judge, "carol@example.org", "alpha: you are its GM")
    assert "after Game Master" in new and "SIGNON alpha MASTER <your own password>" in new
    assert _notices(judge, "gm@example.org", "alpha: a new GM")
    (player,) = _notices(judge, "italy@example.org", "alpha: a new GM")
    assert "Carol Cogm" in player and "carol@example.org" not in player
    assert "signon failed" in judge.mail("gm@example.org", GM.strip())
    assert "Phase processed" in judge.mail("carol@example.org", "SIGNON alpha MASTER carolpw\nPROCESS")
    assert "GM Carol Cogm" in judge.mail("italy@example.org", "LIST alpha")


def test_the_judges_admin_hands_on_the_game_of_a_gm_who_vanished(judge: Judge) -> None:
    """The admin (`[judge] admin`, admin@example.org here) signs on as MASTER of any game with his own registered
    password, from his own address."""
    assert "signon failed" in judge.mail("admin@example.org", "SIGNON alpha MASTER adminpw")  # not registered
    judge.mail("admin@example.org", "REGISTER Judge Keeper adminpw")
    assert "signon failed" in judge.mail("carol@example.org", "SIGNON alpha MASTER adminpw")  # from his address only
    reply = judge.mail("admin@example.org", "SIGNON alpha MASTER adminpw\nHANDOVER carol@example.org")
    assert "Carol Cogm is the GM of alpha from now on" in reply and "adminpw" not in reply
    assert _notices(judge, "carol@example.org", "alpha: you are its GM")
    assert _notices(judge, "gm@example.org", "alpha: a new GM")


def test_the_games_page_names_its_co_gms_and_observers_never_their_addresses(judge: Judge) -> None:
    judge.mail("gm@example.org", GM + "PROMOTE carol@example.org")
    judge.mail("wendy@example.org", "REGISTER Wendy Watcher watchpw")
    judge.mail("wendy@example.org", "OBSERVE alpha joinpw")
    games = Games(judge.db, judge.clock)
    page = game_page(SITE, games.reads.public_game("alpha"), games.reads.public_history("alpha"))
    assert "co-GMs: <bdi>Carol Cogm</bdi>" in page and "Observers: <bdi>Wendy Watcher</bdi>" in page
    assert "The GM does not read private press." in page
    assert "carol@example.org" not in page and "wendy@example.org" not in page


def test_a_co_gm_gets_what_the_gm_gets(judge: Judge) -> None:
    """njudge's masters are all masters: each gets the GM's sheet of the results (grey press named), the copies
    of press the GM reads, and the GM's notices (a resignation). A co-GM demoted gets nothing more."""
    judge.mail("gm@example.org", GM + "SET press.gm_reads=on press.type=both\nPROMOTE carol@example.org")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nPRESS TO England GREY\nOur secret.\nENDPRESS")
    (copy,) = [m.get_content() for m in judge.outbound(to="carol@example.org") if "Our secret." in m.get_content()]
    assert "France" in copy  # the GMs' copy names the grey sender
    judge.mail("italy@example.org", "SIGNON alpha Italy italypw\nRESIGN")
    assert _notices(judge, "carol@example.org", "alpha: Italy resigned")
    assert _notices(judge, "gm@example.org", "alpha: Italy resigned")
    judge.mail("gm@example.org", GM + "PROCESS")
    results = judge.outbound(kind="result", to="carol@example.org")
    gm_sheet = judge.outbound(kind="result", to="gm@example.org")
    assert len(results) == 1 and [bytes(m) for m in results] == [
        bytes(m) for m in gm_sheet
    ]  # one sheet, the GM's, to both: addressed to the game
    assert "carol@example.org" not in str(results[0]["To"])
    judge.mail("gm@example.org", GM + "DEMOTE carol@example.org")
    before = len(judge.outbound(to="carol@example.org"))
    judge.mail("england@example.org", "SIGNON alpha England englandpw\nPRESS TO France\nAnd ours.\nENDPRESS")
    assert len(judge.outbound(to="carol@example.org")) == before
