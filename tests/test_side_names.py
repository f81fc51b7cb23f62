"""Issue 40, "REPLACE and EJECT by side" and "every command that names a player takes the names the judge itself
prints": one resolver (`judge.game.use_case.sides_named`) for JOIN, PRESS TO, EJECT, REPLACE, BECOME, STATUS,
SET DRAW and CONCEDE, whose refusal names the players compactly; EJECT, REPLACE and RESIGN act on the whole side, and
the player who leaves can do nothing more in the game (docs/mail.md, "Names"). Through the real processor and
commands on a real SQLite database; tests/test_side_names_by_mail.py plays the same through Dovecot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from test_players_not_powers import COUNTRIES, MAJORS, _game  # issue 27's game set-up: a player a side

from judge.config import Config
from judge.contract.adjudicate import position_json
from judge.game.errors import GameError
from judge.game.use_case import sides_named
from judge.mail.announce import game_over_mail
from judge.store import Game, Press, open_database
from judge.testing.mail_rig import Judge
from judge.variants import get_variant
from judge.variants.hepta_claims import ClaimError, read_claim

PLAYERS = tuple(f"Player {n}" for n in range(1, 8))


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


def _address(name: str) -> str:
    """The address `_game` registers a player with (`Player 2`: player2@example.org); his password is pw<that>."""
    return f"{name.lower().replace(' ', '')}@example.org"


def _password(name: str) -> str:
    return f"pw{name.lower().replace(' ', '')}"


def _named(judge: Judge, game: str, *words: str) -> list[tuple[str, ...]]:
    with judge.db.transaction() as s:
        found = s.scalars(select(Game).where(Game.name == game)).one()
        return [side.powers for side in sides_named(found, words)]


def _notices(judge: Judge, to: str, subject: str = "") -> list[str]:
    """The texts of the notices mailed to `to` whose subject holds `subject`."""
    return [m.get_content() for m in judge.outbound(kind="notice", to=to) if subject in str(m["Subject"])]


def _gm(judge: Judge, game: str, lines: str) -> str:
    return judge.mail("gm@example.org", f"SIGNON {game} MASTER gmpass\n{lines}")


# --- the resolver ------------------------------------------------------------------------------------------------


def test_the_resolver_takes_every_name_a_hoplite_side_goes_by(judge: Judge) -> None:
    """A Major, its Minor, and the label LIST and STATUS print (`Sparta + Elatea`), in any case."""
    _game(judge, "hop", "hoplite", MAJORS)
    sparta = ("Elatea", "Sparta")
    for words in (("Sparta",), ("elatea",), ("Sparta", "+", "Elatea"), ("sparta+elatea",)):
        assert _named(judge, "hop", *words) == [sparta], words
    assert _named(judge, "hop", "Sparta", "+", "Elatea", "Athens") == [sparta, ("Anactorium", "Athens")]


def test_the_resolver_takes_a_country_or_a_board_nation_under_option_a(judge: Judge) -> None:
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    england = tuple(f"{k}:England" for k in range(1, 8))
    for words in (("England",), ("england",), ("4:England",), ("4:eng",)):
        assert _named(judge, "hep", *words) == [england], words


def test_the_resolver_takes_player_n_or_a_board_nation_under_option_b(judge: Judge) -> None:
    _game(judge, "hepb", "hepta", PLAYERS, "assignment=b")
    (two,) = _named(judge, "hepb", "Player", "2")
    assert len(two) == 7
    assert _named(judge, "hepb", "player2") == [two]
    assert _named(judge, "hepb", two[3]) == [two]  # one of his board-nations names him


@pytest.mark.parametrize(
    ("variant", "names", "options", "expected"),
    [
        (
            "hepta",
            COUNTRIES,
            "assignment=a",
            "'Spain' names no player of hepta; the players are Austria, England, France, Germany, Italy, Russia, "
            "Turkey (or name a board-nation, e.g. 1:Austria)",
        ),
        (
            "hepta",
            PLAYERS,
            "assignment=b",
            "'Spain' names no player of hepta; the players are Player 1, Player 2, Player 3, Player 4, Player 5, "
            "Player 6, Player 7 (or name a board-nation, e.g. ",
        ),
        ("hoplite", MAJORS, "", "'Spain' names no player of hoplite; the players are Achea + "),
        ("standard", COUNTRIES, "", "'Spain' is not a power of standard; the powers are Austria, England, France"),
    ],
)
def test_a_refusal_lists_the_names_compactly(
    judge: Judge, variant: str, names: tuple[str, ...], options: str, expected: str
) -> None:
    """Issue 40: "a refusal lists the valid names, compactly (never 49 of them)"."""
    _game(judge, "g", variant, names, *([options] if options else []))
    with pytest.raises(GameError) as refused:
        _named(judge, "g", "Spain")
    assert str(refused.value).startswith(expected)
    assert str(refused.value).count(":") <= 2  # one example of a board-nation at most, never the 49


# --- REPLACE, EJECT and RESIGN act on the whole side --------------------------------------------------------------


def test_replacing_a_hoplite_side_by_its_minor_gives_the_new_player_the_major_and_the_minor(judge: Judge) -> None:
    """Issue 40's repro: REPLACE gave the new player the Major only; the old player could still sign on as the
    Minor, order it and receive its results."""
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail("new@example.org", "REGISTER Nina Newcomer pwnew")
    reply = _gm(judge, "hop", "REPLACE Elatea new@example.org")
    assert "new@example.org now plays Sparta + Elatea" in reply
    for name in ("Sparta", "Elatea"):
        refused = judge.mail("sparta@example.org", f"SIGNON hop {name} pwsparta\nBuild A ela")
        assert "signon failed" in refused, name
    assert "you play Sparta + Elatea" in judge.mail("new@example.org", "SIGNON hop Elatea pwnew")
    listed = judge.mail("x@example.org", "LIST hop")
    assert "Nina Newcomer" in listed and "Sparta Player" not in listed
    status = _gm(judge, "hop", "STATUS Elatea")
    assert "Nina Newcomer" in status and "Athens" not in status


def test_the_replaced_player_is_told_who_plays_his_side_and_the_others_by_name_only(judge: Judge) -> None:
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail("new@example.org", "REGISTER Nina Newcomer pwnew")
    _gm(judge, "hop", "REPLACE Sparta + Elatea new@example.org")
    (old,) = _notices(judge, "sparta@example.org", "no longer")
    assert "Nina Newcomer plays Sparta + Elatea from now on" in old and "new@example.org" not in old
    (new,) = _notices(judge, "new@example.org")
    assert "you play Sparta + Elatea from now on" in new and "SIGNON hop Sparta <your password>" in new
    (other,) = _notices(judge, "athens@example.org", "replaced")
    assert "Sparta + Elatea has a new player, chosen by the GM: Nina Newcomer." in other
    assert "new@example.org" not in other and "sparta@example.org" not in other  # addresses stay private


def test_ejecting_a_hepta_player_by_a_board_nation_vacates_all_seven(judge: Judge) -> None:
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    assert "England has no player now" in _gm(judge, "hep", "EJECT 3:England")
    assert "signon failed" in judge.mail("england@example.org", "SIGNON hep 5:England pwengland")
    (told,) = _notices(judge, "england@example.org", "no longer")
    assert "you no longer play England" in told
    assert "nobody plays England" in _gm(judge, "hep", "EJECT England")


def test_option_b_takes_player_n_in_eject_replace_become_and_status(judge: Judge) -> None:
    _game(judge, "hepb", "hepta", PLAYERS, "assignment=b")
    judge.mail("new@example.org", "REGISTER Nina Newcomer pwnew")
    assert "Player 2 has no player now" in _gm(judge, "hepb", "EJECT Player 2")
    assert "new@example.org now plays Player 2" in _gm(judge, "hepb", "REPLACE player2 new@example.org")
    (new,) = _notices(judge, "new@example.org")
    assert "you play Player 2 (1:" in new  # his board-nations
    assert "signon failed" in judge.mail("player2@example.org", "SIGNON hepb Player 2 pwplayer2")
    assert "orders for Player 2" in _gm(judge, "hepb", "BECOME Player 2")
    status = _gm(judge, "hepb", "STATUS Player 2")
    assert "Nina Newcomer" in status and "Player 3" not in status


def test_a_resigning_player_leaves_with_his_whole_side(judge: Judge) -> None:
    _game(judge, "hop", "hoplite", MAJORS)
    assert "You have resigned Sparta + Elatea" in judge.mail("sparta@example.org", "SIGNON hop Elatea pwsparta\nRESIGN")
    assert "signon failed" in judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta")
    (gm,) = _notices(judge, "gm@example.org", "resigned")
    assert "REPLACE Sparta address" in gm


def test_a_replaced_player_receives_no_more_press(judge: Judge) -> None:
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail("new@example.org", "REGISTER Nina Newcomer pwnew")
    _gm(judge, "hop", "REPLACE Sparta new@example.org")
    judge.mail("athens@example.org", "SIGNON hop Athens pwathens\nBROADCAST\nHello all.\nENDPRESS")
    press = [m for m in judge.outbound(kind="press") if "Hello all." in m.get_content()]
    readers = {str(m["To"]) for m in press}
    assert "new@example.org" in readers and "sparta@example.org" not in readers


# --- PRESS TO, votes and concessions by any name ------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Sparta", "Elatea", "Sparta + Elatea", "sparta+elatea"])
def test_press_to_a_hoplite_side_by_any_of_its_names(judge: Judge, name: str) -> None:
    _game(judge, "hop", "hoplite", MAJORS)
    reply = judge.mail("athens@example.org", f"SIGNON hop Anactorium pwathens\nPRESS TO {name}\nA word.\nENDPRESS")
    assert "Press sent" in reply
    (press,) = [m for m in judge.outbound(kind="press") if "A word." in m.get_content() and m["To"] != "gm@example.org"]
    assert str(press["To"]) == "sparta@example.org"
    assert "Press from Athens + Anactorium to Sparta + Elatea:" in press.get_content()


@pytest.mark.parametrize("name", ["Player 3", "player3", "BOARD"])
def test_press_to_an_option_b_player_by_any_of_his_names(judge: Judge, name: str) -> None:
    _game(judge, "hepb", "hepta", PLAYERS, "assignment=b")
    (three,) = _named(judge, "hepb", "Player", "3")
    name = three[4] if name == "BOARD" else name
    reply = judge.mail("player1@example.org", f"SIGNON hepb Player 1 pwplayer1\nPRESS TO {name}\nA word.\nENDPRESS")
    assert "Press sent" in reply
    (press,) = [m for m in judge.outbound(kind="press") if "A word." in m.get_content() and m["To"] != "gm@example.org"]
    assert str(press["To"]) == "player3@example.org"
    with judge.db.transaction() as s:
        assert s.scalars(select(Press.recipients)).one() == ["Player 3"]  # kept by the player's name
    assert "Press from Player 1 to Player 3:" in press.get_content()  # never seven board-nations each


def test_a_hoplite_draw_is_voted_by_sides_whatever_power_each_signs_on_as(judge: Judge) -> None:
    """One player, one vote: a vote sent from the Minor's sign-on is the side's, and the draw named by the sides'
    labels is the draw of every survivor (before, a Minor's vote left its Major unvoted and no draw could pass)."""
    _game(judge, "hop", "hoplite", MAJORS)
    minors = {}
    for major in MAJORS:
        ((first, second),) = _named(judge, "hop", major)
        minors[major] = second if first == major else first
    everyone = ", ".join(f"{major} + {minor}" for major, minor in minors.items())
    for n, (major, minor) in enumerate(minors.items()):
        reply = judge.mail(_address(major), f"SIGNON hop {minor} {_password(major)}\nSET DRAW {everyone}")
        assert ("is recorded" in reply) if n < len(MAJORS) - 1 else ("the game is drawn" in reply), reply


def test_a_concession_to_a_minor_is_to_its_side(judge: Judge) -> None:
    _game(judge, "hop", "hoplite", MAJORS)
    reply = judge.mail("athens@example.org", "SIGNON hop Anactorium pwathens\nCONCEDE Elatea")
    assert "Your concession to Sparta + Elatea is recorded" in reply
    refused = judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta\nCONCEDE Sparta + Elatea")
    assert "Sparta + Elatea concedes to another player, not to itself" in refused


def test_a_claim_naming_no_player_lists_the_players() -> None:
    """CW Heptadiplomacy rule 7's claims name players too: a partner who is none is refused with the names."""
    refusal = (
        r"'spain' is not a player of this game; the players are Austria, England, .*Turkey \(or name a board-nation\)"
    )
    with pytest.raises(ClaimError, match=refusal):
        read_claim("2-way win with Spain", "England", "1:England", lambda _: None, COUNTRIES)


def test_the_gm_sets_an_absence_for_a_player_of_two_words(judge: Judge) -> None:
    """The name runs into the dates: the longest name that names a player is read first."""
    _game(judge, "hepb", "hepta", PLAYERS, "assignment=b")
    reply = _gm(judge, "hepb", "SET ABSENCE Player 2 2026-02-02 TO 2026-02-04")
    assert "Player 2 is away from Mon 02 Feb 2026 to Wed 04 Feb 2026" in reply, reply
    # the same days in STATUS: the absence ends with the Wednesday, not on the Thursday's midnight
    assert "away Mon 02 Feb 2026 to Wed 04 Feb 2026" in _gm(judge, "hepb", "STATUS player2")


def test_start_cd_names_the_sides_left_in_civil_disorder(judge: Judge) -> None:
    """Never the board-nations: two players of option B missing are two names."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE hepb hepta joinpw assignment=b auto_start=false")
    for name in PLAYERS[:5]:
        judge.mail(_address(name), f"REGISTER {name} Player {_password(name)}")
        judge.mail(_address(name), f"JOIN hepb joinpw {name}")
    reply = _gm(judge, "hepb", "START CD")
    (left,) = [line for line in reply.splitlines() if "In civil disorder" in line]
    assert left.split(": ", 1)[1].startswith("Player 6, Player 7. REPLACE player address"), left


def test_replace_refuses_a_player_who_plays_another_side(judge: Judge) -> None:
    """A ruling: one player, one side; REPLACE would otherwise seat him twice."""
    _game(judge, "hop", "hoplite", MAJORS)
    refused = _gm(judge, "hop", "REPLACE Sparta athens@example.org")
    assert "Athens Player already plays Athens + Anactorium in hop" in refused


def test_the_game_over_mail_names_the_winner_by_his_side() -> None:
    """Issue 40, "one count everywhere": the game-over mail names a Hoplite winner as every list names him, once
    (`Sparta + Elatea`), never as two powers ("Elatea and Sparta, who win")."""
    data = position_json("hoplite", get_variant("hoplite").starting_position())
    mail = game_over_mail(Config(), ["a@example.org"], "hop", data, "conceded", ["Elatea", "Sparta"])
    text = mail.message.get_content()
    assert "hop is conceded to Sparta + Elatea, who wins." in text, text
