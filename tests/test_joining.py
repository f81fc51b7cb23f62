"""Who may take a place (issue 43 items 5 and 9, issue 44 item 3), in process: the real processor, commands and
SQLite. Open places taken by volunteers (njudge `data/index`: "SIGNON pxxxx password ... to take over an abandoned
power"; DPjudge's TAKEOVER), the GM's approval and refused addresses, njudge's `SIGNON ?` and its preference lists
(njudge `data/index`: "SET PREFERENCE list"), all through the one gate `judge.game.openings.admit`.
The whole flow by real mail through Dovecot is tests/test_joining_by_mail.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from judge.game.errors import GameError
from judge.game.preferences import assign, read_preferences, shown_preferences
from judge.store import Game, open_database
from judge.testing.mail_rig import Judge, start_game

NEWCOMER = "anna@example.org"


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


def _register(judge: Judge, address: str = NEWCOMER, name: str = "Anna Volunteer", password: str = "annapw") -> None:
    assert "registered" in judge.mail(address, f"REGISTER {name} {password}").lower()


def _gm(judge: Judge, *lines: str, game: str = "alpha") -> str:
    return judge.mail("gm@example.org", "\n".join([f"SIGNON {game} MASTER gmpass", *lines]))


def _notices(judge: Judge, to: str) -> list[str]:
    return [m.get_content() for m in judge.outbound(kind="notice", to=to)]


def _subjects(judge: Judge, to: str) -> list[str]:
    return [str(m["Subject"]) for m in judge.outbound(kind="notice", to=to)]


def test_a_resigned_power_is_listed_open_and_a_volunteer_takes_it_with_one_command(judge: Judge) -> None:
    """Issue 43 item 5: open places are listed in LIST, in the judge-wide list; a registered player takes one with
    one command; the newcomer gets the position and what the side owes; the others are told."""
    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    listed = judge.mail("someone@example.org", "LIST alpha")
    assert "Open to a volunteer:" in listed and "France (no player)" in listed
    assert "TAKEOVER alpha France yourpassword" in listed
    openings = judge.mail("someone@example.org", "LIST OPENINGS")
    assert "alpha" in openings and "France (no player), Spring 1901 Movement" in openings
    _register(judge)
    reply = judge.mail(NEWCOMER, "TAKEOVER alpha France annapw")
    assert "You have taken over France in alpha" in reply
    assert "annapw" not in reply  # the password is never echoed
    told = _notices(judge, NEWCOMER)[-1]
    assert "You have taken over France in alpha" in told
    assert "Orders are due from you this phase for France." in told
    assert "A Par" in told or "A Paris" in told  # the position
    others = _notices(judge, "england@example.org")[-1]
    assert "France has a new player, who took the open place: Anna Volunteer." in others
    assert NEWCOMER not in others  # a name, never an address
    assert "Signed on to alpha as France" in judge.mail(NEWCOMER, "SIGNON alpha France annapw")
    assert "France (no player)" not in judge.mail("someone@example.org", "LIST OPENINGS")


def test_an_abandoned_power_keeps_its_player_until_a_volunteer_takes_it_and_he_is_told(judge: Judge) -> None:
    """A power whose player missed `abandon_after` deadlines is abandoned (njudge: "civil disorder"); a volunteer
    takes it over and the one who abandoned it is told he no longer plays it."""
    start_game(judge)
    _gm(judge, "SET abandon_after=1", "PROCESS")
    assert "France (abandoned)" in judge.mail("someone@example.org", "LIST OPENINGS")
    _register(judge)
    judge.mail(NEWCOMER, "TAKEOVER alpha France annapw")
    old = _notices(judge, "france@example.org")[-1]
    assert "You had abandoned France in alpha, and Anna Volunteer has taken it over" in old
    assert "signon failed" in judge.mail("france@example.org", "SIGNON alpha France francepw").lower()


def test_a_volunteer_takes_the_whole_side_a_hoplite_major_with_its_minor(judge: Judge) -> None:
    """A place is a side (Hoplite Wars rule 1: a player holds a Major and its Minor): TAKEOVER by either name takes
    both, and the newcomer signs on by either."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE hop hoplite joinpw")
    majors = ("Achea", "Aetolia", "Argolis", "Athens", "Boeotia", "Sparta", "Thessaly")
    for name in majors:
        address = f"{name.lower()}@example.org"
        judge.mail(address, f"REGISTER {name} Player pw{name.lower()}")
        judge.mail(address, f"JOIN hop joinpw {name}")
    judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta\nRESIGN")
    assert "Sparta + Elatea (no player)" in judge.mail("someone@example.org", "LIST OPENINGS")
    _register(judge)
    assert "You have taken over Sparta + Elatea in hop" in judge.mail(NEWCOMER, "TAKEOVER hop Elatea annapw")
    assert "you play Sparta + Elatea" in judge.mail(NEWCOMER, "SIGNON hop Elatea annapw")
    assert re.search(r"Sparta \+ Elatea +Anna Volunteer", judge.mail("someone@example.org", "LIST hop"))


def test_a_side_not_open_cannot_be_taken_and_the_reply_says_which_are(judge: Judge) -> None:
    start_game(judge)
    _register(judge)
    reply = judge.mail(NEWCOMER, "TAKEOVER alpha England annapw")
    assert "England is not open to a volunteer in alpha (open: none)" in reply
    assert "wrong password" in judge.mail(NEWCOMER, "TAKEOVER alpha England nothispw")


def test_a_player_of_the_game_may_not_take_a_second_side(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    assert "you already play in alpha" in judge.mail("england@example.org", "TAKEOVER alpha France englandpw")


def test_the_gm_may_keep_the_places_his_to_give(judge: Judge) -> None:
    """`join.takeover=off`: the openings are not listed and TAKEOVER is refused; REPLACE still fills them."""
    start_game(judge)
    _gm(judge, "SET join.takeover=off")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    assert "France" not in judge.mail("someone@example.org", "LIST OPENINGS")
    _register(judge)
    assert "join.takeover is off" in judge.mail(NEWCOMER, "TAKEOVER alpha France annapw")


def test_a_private_games_openings_stay_off_the_judge_wide_list(judge: Judge) -> None:
    start_game(judge)
    _gm(judge, "SET web.private=on")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    assert "alpha" not in judge.mail("someone@example.org", "LIST OPENINGS")
    assert "France (no player)" in judge.mail("someone@example.org", "LIST alpha")  # reachable by name


def test_with_the_gms_approval_a_takeover_waits_and_he_approves_or_declines_by_mail(judge: Judge) -> None:
    """Issue 43 item 5: a GM setting says whether the GM must approve; the GM gets a request and answers by mail."""
    start_game(judge)
    _gm(judge, "SET join.approval=on")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    assert "(the GM approves who takes it)" in judge.mail("someone@example.org", "LIST OPENINGS")
    _register(judge)
    reply = judge.mail(NEWCOMER, "TAKEOVER alpha France annapw")
    assert "your wish to take France is sent to him" in reply
    asked = _notices(judge, "gm@example.org")[-1]
    assert f"Anna Volunteer <{NEWCOMER}> asks to take over France" in asked
    assert f"APPROVE {NEWCOMER}" in asked
    assert "France (no player)" in judge.mail("someone@example.org", "LIST alpha")  # still open while he waits
    assert NEWCOMER in _gm(judge, "APPROVE")  # who waits, for the GM
    assert f"{NEWCOMER} is let in (France)" in _gm(judge, f"APPROVE {NEWCOMER}")
    assert "You have taken over France in alpha" in _notices(judge, NEWCOMER)[-1]
    assert "Nobody waits" in _gm(judge, "APPROVE")


def test_a_declined_player_is_told_no_more_than_that(judge: Judge) -> None:
    start_game(judge)
    _gm(judge, "SET join.approval=on")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    _register(judge)
    judge.mail(NEWCOMER, "TAKEOVER alpha France annapw")
    assert "is declined" in _gm(judge, f"DECLINE {NEWCOMER}")
    told = _notices(judge, NEWCOMER)[-1]
    assert "The GM of alpha has declined your request to take over France." in told
    assert "France (no player)" in judge.mail("someone@example.org", "LIST alpha")
    assert "nobody at" in _gm(judge, f"APPROVE {NEWCOMER}")


def test_a_join_that_needs_approval_waits_and_the_approval_seats_the_player(judge: Judge) -> None:
    """Issue 44 item 3: a game that needs the GM's approval to join; the player is told."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw join.approval=on")
    _register(judge)
    assert "your wish is sent to him" in judge.mail(NEWCOMER, "JOIN alpha joinpw France [England Germany]")
    assert "powers wished for: France [England Germany]" in _notices(judge, "gm@example.org")[-1]
    assert "0 of 7" not in judge.mail("someone@example.org", "LIST alpha")  # nobody seated yet
    _gm(judge, f"APPROVE {NEWCOMER}")
    assert "you have joined alpha" in _notices(judge, NEWCOMER)[-1].lower()
    assert "Anna Volunteer" in judge.mail("someone@example.org", "LIST alpha")


def test_a_refused_address_is_declined_at_join_takeover_and_observe_without_saying_more(judge: Judge) -> None:
    """Issue 44 item 3: a list of addresses refused by the GM; a join, takeover or observe from one is refused
    without saying more than that the GM declined."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE beta standard joinpw")
    _register(judge, "troll@example.org", "Troll Person", "trollpw")
    assert "is refused in beta" in _gm(judge, "REFUSE troll@example.org", game="beta")
    for line in ("JOIN beta joinpw", "OBSERVE beta joinpw"):
        reply = judge.mail("troll@example.org", line)
        assert "the GM of beta has declined you" in reply
        assert "refuse" not in reply.lower()
    assert "troll@example.org" in _gm(judge, "REFUSE", game="beta")
    assert "troll" not in judge.mail("someone@example.org", "LIST beta")  # the list is the GM's alone
    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    _gm(judge, "REFUSE troll@example.org")
    assert "the GM of alpha has declined you" in judge.mail("troll@example.org", "TAKEOVER alpha France trollpw")
    _gm(judge, "REFUSE troll@example.org OFF")
    assert "You have taken over France" in judge.mail("troll@example.org", "TAKEOVER alpha France trollpw")


def test_refusing_a_waiting_player_declines_his_wish_and_ends_his_observing(judge: Judge) -> None:
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE beta standard joinpw join.approval=on")
    _register(judge)
    judge.mail(NEWCOMER, "OBSERVE beta joinpw")
    judge.mail(NEWCOMER, "JOIN beta joinpw")
    _gm(judge, f"REFUSE {NEWCOMER}", game="beta")
    assert "declined your request" in _notices(judge, NEWCOMER)[-1]
    assert "Nobody waits" in _gm(judge, "APPROVE", game="beta")


def test_signon_question_mark_joins_the_open_forming_game_that_waited_longest(judge: Judge) -> None:
    """Issue 43 item 9, njudge `data/index`: "SIGNON ? password: to enter the next available game that is forming";
    "SIGNON ?xxxx password: to enter a particular game that is forming"."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE closed standard joinpw")  # by invitation: never chosen by SIGNON ?
    judge.mail("gm@example.org", "CREATE older standard joinpw join.open=on")
    judge.clock.advance(timedelta(minutes=1))
    judge.mail("gm@example.org", "CREATE newer standard joinpw join.open=on")
    assert "older" in judge.mail("someone@example.org", "LIST OPENINGS")
    assert "closed" not in judge.mail("someone@example.org", "LIST OPENINGS")
    _register(judge)
    reply = judge.mail(NEWCOMER, "SIGNON ? annapw standard France")
    assert "You have joined older." in reply and "annapw" not in reply
    _register(judge, "bob@example.org", "Bob Builder", "bobpw")
    assert "You have joined older." in judge.mail("bob@example.org", "SIGNON ? bobpw")
    assert "You have joined newer." in judge.mail("bob@example.org", "SIGNON ?newer joinpw")
    assert "wrong password" in judge.mail("bob@example.org", "SIGNON ? notbobs")
    assert "no forming mad game is open to anyone now" in judge.mail("bob@example.org", "SIGNON ? bobpw mad")


def test_signon_question_mark_fills_the_game_and_starts_it(judge: Judge) -> None:
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE gamma standard joinpw join.open=on")
    for n in range(7):
        address = f"p{n}@example.org"
        _register(judge, address, f"Player{n} Smith", f"p{n}pw")
        reply = judge.mail(address, f"SIGNON ? p{n}pw standard")
    assert "The game is full and has started; you play" in reply
    assert "gamma" not in judge.mail("someone@example.org", "LIST OPENINGS")


def test_the_site_lists_the_openings_and_the_games_page_shows_how_to_take_one(judge: Judge, tmp_path: Path) -> None:
    """Issue 43 item 5: open places in the game's page and a judge-wide list of openings (a web page); never who
    played the place (issue 44 item 1: the name a gunboat game hides is in no opening)."""
    from judge.game import Games
    from judge.web.export import export_site
    from judge.web.pages import SiteInfo

    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    out = tmp_path / "site"
    export_site(Games(judge.db), SiteInfo(judge="testjudge", address="judge@example.org", code="TEST"), out)
    listed = (out / "openings.html").read_text(encoding="utf-8")
    assert "TAKEOVER alpha France yourpassword" in listed and "no player" in listed
    assert "France Player" not in listed and "france@example.org" not in listed
    page = (out / "games" / "alpha" / "index.html").read_text(encoding="utf-8")
    assert "Places open to volunteers" in page and "TAKEOVER alpha France yourpassword" in page
    judge.mail("gm@example.org", "CREATE forming standard joinpw join.open=on join.approval=on")
    export_site(Games(judge.db), SiteInfo(judge="testjudge", address="judge@example.org", code="TEST"), out)
    forming = (out / "games" / "forming" / "index.html").read_text(encoding="utf-8")
    assert "SIGNON ? yourpassword standard" in forming and "Its GM approves who joins" in forming
    assert "SIGNON ? yourpassword standard" in (out / "openings.html").read_text(encoding="utf-8")


@pytest.mark.slow  # a real server (uvicorn)
def test_the_served_site_has_the_openings_page(judge: Judge) -> None:
    import urllib.request

    from web_games import serving

    from judge.game import Games
    from judge.web.pages import SiteInfo

    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nRESIGN")
    with serving(Games(judge.db), SiteInfo(judge="testjudge", address="judge@example.org", code="TEST")) as served:
        with urllib.request.urlopen(served.url + "openings.html", timeout=30) as answer:
            assert "TAKEOVER alpha France yourpassword" in answer.read().decode("utf-8")
        with urllib.request.urlopen(served.url + "index.html", timeout=30) as answer:
            assert 'href="openings.html"' in answer.read().decode("utf-8")


# --- preferences --------------------------------------------------------------------------------------------


def _game(judge: Judge) -> Game:
    from judge.game import Games

    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw")
    games = Games(judge.db)
    with games.store.plain() as s:
        return games.store.peek(s, "alpha")


def test_preferences_are_read_as_njudge_players_write_them(judge: Judge) -> None:
    game = _game(judge)
    tied = ["France", ["England", "Germany"], "Italy"]
    assert read_preferences(game, ["France", "[England", "Germany]", "Italy"]) == tied
    assert read_preferences(game, ["France=England", "Germany"]) == [["France", "England"], "Germany"]
    assert read_preferences(game, ["ANY"]) == []
    assert read_preferences(game, ["France", "*", "Italy"]) == ["France"]
    with pytest.raises(GameError, match="left open"):
        read_preferences(game, ["[France", "Germany"])
    with pytest.raises(GameError, match="is not a power"):
        read_preferences(game, ["Atlantis"])
    assert shown_preferences(["France", ["England", "Germany"]]) == "France [England Germany]"
    assert shown_preferences([]) == "any"


def test_a_joined_player_changes_his_wishes_until_the_start(judge: Judge) -> None:
    """njudge `data/index`: "SET PREFERENCE list ... Can be modified up until the powers are actually assigned"."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw")
    _register(judge)
    judge.mail(NEWCOMER, "JOIN alpha joinpw France")
    reply = judge.mail(NEWCOMER, "SET PREFERENCE alpha Italy [Austria Turkey]")
    assert "Your wishes in alpha, best first: Italy [Austria Turkey]." in reply
    assert "Not yet asked for by anyone who joined" in judge.mail("x@example.org", "LIST alpha")
    assert "France" in judge.mail("x@example.org", "LIST alpha").split("Not yet asked for")[1]
    assert "you have not joined alpha" in judge.mail("gm@example.org", "SET PREFERENCE alpha Italy")


def test_the_assignment_is_fair_seeded_and_honours_ranks_and_ties() -> None:
    """A fair, documented assignment seeded by the game's seed: the same seed gives the same powers; the order the
    players joined in gives no advantage; a tie is settled by the seed; nobody gets a power he ranked below a
    free one."""
    groups = [(p,) for p in ("A", "B", "C")]
    wishes: list[list[object]] = [["A"], ["A"], [["B", "C"]]]
    first, left = assign(groups, wishes, seed=7)
    assert assign(groups, wishes, seed=7) == (first, left)
    assert left == [] and sorted(g[0] for g in first) == ["A", "B", "C"]
    assert first[2] in (("B",), ("C",))  # his tie honoured
    winners = {assign(groups, wishes, seed=seed)[0].index(("A",)) for seed in range(40)}
    assert winners == {0, 1}  # either of the two who asked for A may win it: joining first is no advantage
    assert {assign(groups, [[], [], [["B", "C"]]], seed)[0][2] for seed in range(40)} == {("B",), ("C",)}
    short, unplayed = assign(groups, [["C"]], seed=1)
    assert short == [("C",)] and sorted(unplayed) == [("A",), ("B",)]
