"""Issue 44 item 5, first half: the game's own end as its GM sets it -- the victory count, draws (and concessions)
allowed or not, and a game that ends at a set year with the result by centres.

The anchors: njudge's `data/index` (SET CENTERS: "Set the number of centers required to win the game", by the
master at any time; SET [NO]DRAW, SET CONCEDE), `data/draws` and `data/concessions`; the hobby's timed game ("the
game ends at the end of year N; the player with the most centres wins, leaders level sharing it"). The engine's
part through the contract (`judge adjudicate`'s `run_case`), the game's through the real mail processor and
commands on a real SQLite file (`judge.testing.mail_rig`)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from judge.contract.adjudicate import CaseError, run_case
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import Position
from judge.engine.rules import RuleOptionError
from judge.game import Games
from judge.game.ratings import RATED_RESULTS, game_scores
from judge.game.year_end import year_end
from judge.store import DrawVote, Game, open_database
from judge.testing.mail_rig import Judge, start_game
from judge.variants import get_variant
from judge.web.pages import SiteInfo, game_page

GM = "SIGNON alpha MASTER gmpass\n"
SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")

STANDARD_CENTRES = sorted(p.id for p in get_variant("standard").rules().board.provinces.values() if p.supply_centre)


# --- the victory count: a shared engine option, the same in `judge adjudicate` and in a game -----------------------


def _fall_case(owned: int, options: dict[str, Any]) -> dict[str, Any]:
    """A Fall 1901 movement in which France owns `owned` centres and its one army holds in Burgundy (no centre)."""
    return {
        "variant": "standard",
        "options": options,
        "phase": {"season": "Fall", "year": 1901, "type": "Movement"},
        "units": [{"power": "France", "unit": "A", "at": "bur"}],
        "supply_centers": {"France": STANDARD_CENTRES[:owned]},
        "orders": {"France": ["A Bur H"]},
    }


def test_a_victory_count_the_gm_sets_at_17_is_the_engines_count_after_the_fall() -> None:
    """njudge SET CENTERS: the game ends when a player reaches the count set; the map's is 18."""
    assert run_case(_fall_case(17, {"victory_centres": 17}))["winner"] == ["France"]
    assert run_case(_fall_case(17, {}))["winner"] is None  # the map's 18 still needed
    assert run_case(_fall_case(17, {"victory_centres": 0}))["winner"] is None  # 0: the map's count
    assert run_case(_fall_case(18, {}))["winner"] == ["France"]


def test_a_victory_count_is_a_whole_number_up_to_the_boards_centres() -> None:
    with pytest.raises(CaseError, match="victory_centres must be from 1 to the board's 34 centres"):
        run_case(_fall_case(3, {"victory_centres": 35}))
    with pytest.raises(CaseError, match="victory_centres must be a whole number"):
        run_case(_fall_case(3, {"victory_centres": "most"}))
    assert get_variant("standard").rules({"victory_centres": "17"}).victory_centres() == 17  # as a GM writes it


def test_hoplite_counts_a_majors_and_its_minors_centres_together_against_the_gms_count() -> None:
    """Hoplite Wars rule 13 counts a player's Major and Minor together, a Town half a City; a GM's count of 7 is
    seven Cities' worth for the side."""
    rules = get_variant("hoplite").rules({"victory_centres": 7})
    cities = ["ath", "mar", "tho", "aeg", "agr", "arg"]
    towns = ["agn", "cep"]
    centres = {c: "Athens" for c in cities} | {t: "Anactorium" for t in towns}
    assert rules.winners_after_fall(centres) == ["Athens"]  # 6 cities and 2 towns: 7 cities' worth
    centres.pop("cep")
    assert rules.winners_after_fall(centres) is None  # 6½
    assert get_variant("hoplite").rules().winners_after_fall(centres) is None  # rule 13's own: more than 20


def test_multiplomacy_holds_the_gms_count_over_its_winters() -> None:
    """Multiplomacy rule 11: the count at the end of consecutive winters; the GM's count replaces its 29."""
    owned = ["par", "bre", "mar", "pic", "bur", "gas", "spa", "por", "bel", "hol"]

    def case(centres: list[str]) -> dict[str, Any]:
        return {
            "variant": "multiplomacy",
            "options": {"victory_centres": 10, "victory_winters": 1},
            "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
            "units": [{"power": "France", "unit": "A", "at": "par"}],
            "supply_centers": {"France": centres},
            "orders": {},
        }

    assert run_case(case(owned))["winner"] == ["France"]
    assert run_case(case(owned[:9]))["winner"] is None


def test_cw_heptadiplomacy_refuses_a_victory_count_and_says_why() -> None:
    """Hepta's victory is by claims judged after the Fall (rule 7): a count would never be read."""
    with pytest.raises(RuleOptionError, match=r"hepta refuses the option.*won by claims"):
        get_variant("hepta").rules({"victory_centres": 40})
    with pytest.raises(CaseError, match=r"hepta refuses the option"):
        run_case({"variant": "hepta", "options": {"victory_centres": 40}})


def test_a_hepta_game_refuses_the_count_at_create_and_by_set_centers(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    refused = judge.mail("gm@example.org", "CREATE hep hepta joinpw victory_centres=40")
    assert "refuses the rule option victory_centres: CW Heptadiplomacy is won by claims" in refused
    assert "created" in judge.mail("gm@example.org", "CREATE hep hepta joinpw")
    reply = judge.mail("gm@example.org", "SIGNON hep MASTER gmpass\nSET CENTERS 40")
    assert "refuses the rule option victory_centres: CW Heptadiplomacy is won by claims" in reply
    assert "won by the variant's own rule, not a count of centres; no draws" in judge.mail("gm@example.org", "LIST hep")
    db.dispose()


def test_at_its_end_year_a_hoplite_side_counts_its_major_and_minor_together() -> None:
    """The leader is a player's side (rule 13's count: a Major with its Minor, a Town half a City): Athens with
    Anactorium hold five Cities' worth and lead Sparta's four, though Sparta alone holds more than Athens alone."""
    rules = get_variant("hoplite").rules()
    game = Game(name="h", variant="hoplite", options={}, settings={"end": {"year": -449}})
    centres = {c: "Athens" for c in ("ath", "mar", "tho")} | {c: "Anactorium" for c in ("ana", "agn", "cep")}
    centres |= {c: "Sparta" for c in ("spa", "aeg", "agr", "arg")}
    ended = year_end(game, rules, Position(Phase("Spring", -448, PhaseType.MOVEMENT), (), centres))
    assert ended is not None and ended.winners == ("Anactorium", "Athens") and ended.leaders == 1
    assert ended.centres == 10  # in halves
    assert year_end(game, rules, Position(Phase("Winter", -449, PhaseType.ADJUSTMENT), (), centres)) is None


# --- the game: SET CENTERS, draws, the end year -----------------------------------------------------------------


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    start_game(judge)
    yield judge
    db.dispose()


def _orders(judge: Judge, power: str, lines: str) -> None:
    reply = judge.mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\n{lines}")
    assert "Orders for" in reply, reply


def _process(judge: Judge) -> str:
    reply = judge.mail("gm@example.org", GM + "PROCESS")
    assert "Phase processed" in reply, reply
    return reply


def _game(judge: Judge) -> Game:
    with judge.db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == "alpha")).one()
        s.expunge(game)
        return game


def _play_1901(judge: Judge, germany_too: bool = False) -> None:
    """France takes Spain and Portugal (five centres); with `germany_too`, Germany takes Holland and Denmark (five
    as well); everyone else holds."""
    _orders(judge, "France", "F bre-mao\nA par-bur\nA mar-spa")
    if germany_too:
        _orders(judge, "Germany", "F kie-hol\nA ber-kie\nA mun-ruh")
    _process(judge)
    _orders(judge, "France", "F mao-por\nA spa H\nA bur H")
    if germany_too:
        _orders(judge, "Germany", "F hol H\nA kie-den\nA ruh H")
    _process(judge)


def test_set_centers_in_a_running_game_changes_the_count_and_everyone_is_told(judge: Judge) -> None:
    """njudge: SET CENTERS by the master, any time; five centres end this game after its first Fall."""
    reply = judge.mail("gm@example.org", GM + "SET CENTERS 5")
    assert "Set victory_centres=5" in reply
    told = [m.get_content() for m in judge.outbound(to="england@example.org") if "how the game ends" in m["Subject"]]
    assert told and "A player now needs 5 supply centres to win." in told[0]
    assert "5 supply centres win (set by the GM)" in judge.mail("gm@example.org", "LIST alpha")
    _play_1901(judge)
    game = _game(judge)
    assert (game.result, game.winners) == ("victory", ["France"])
    results = [m.get_content() for m in judge.outbound(kind="result", to="italy@example.org")]
    assert "The game is over: France has won." in results[-1]


def test_a_victory_count_beyond_the_board_is_refused_with_why(judge: Judge) -> None:
    reply = judge.mail("gm@example.org", GM + "SET victory_centres=40")
    assert "victory_centres must be from 1 to the board's 34 centres" in reply
    assert _game(judge).options.get("victory_centres") is None
    other = judge.mail("gm@example.org", GM + "SET edition=1982")
    assert "can only be changed before alpha starts" in other  # every other rule option stays fixed


def test_draws_not_allowed_refuse_a_vote_and_drop_those_cast(judge: Judge) -> None:
    france = "SIGNON alpha France francepw\n"
    assert "draw" in judge.mail("france@example.org", france + "SET DRAW").lower()
    with judge.db.transaction() as s:
        assert s.scalars(select(DrawVote.power).where(DrawVote.accept.is_(True))).all() == ["France"]
    set_off = judge.mail("gm@example.org", GM + "SET draw.allowed=off")
    assert "Set draw.allowed=off." in set_off and "Draw votes dropped: France." in set_off  # the GM's to know
    with judge.db.transaction() as s:
        assert s.scalars(select(DrawVote)).all() == []
    for address in ("germany@example.org", "france@example.org"):
        (told,) = [m.get_content() for m in judge.outbound(to=address) if "how the game ends" in m["Subject"]]
        assert "Draws are no longer allowed: SET DRAW is refused, and any draw votes cast before are dropped." in told
        assert "France" not in told  # a vote is secret until the game ends: the players learn the rule, not whose
    refused = judge.mail("england@example.org", "SIGNON alpha England englandpw\nSET DRAW")
    assert "alpha allows no draws (draw.allowed=off)" in refused
    assert "no draws (draw.allowed=off)" in judge.mail("gm@example.org", "LIST alpha")


def test_concessions_not_allowed_are_refused_and_those_made_dropped(judge: Judge) -> None:
    judge.mail("italy@example.org", "SIGNON alpha Italy italypw\nCONCEDE France")
    assert _game(judge).concessions == {"Italy": "France"}
    set_off = judge.mail("gm@example.org", GM + "SET concede.allowed=off")
    assert "Set concede.allowed=off." in set_off and "Concessions dropped: Italy." in set_off
    assert _game(judge).concessions == {}
    (told,) = [m.get_content() for m in judge.outbound(to="russia@example.org") if "how the game ends" in m["Subject"]]
    assert "Concessions are no longer allowed: CONCEDE is refused" in told and "Italy" not in told
    refused = judge.mail("england@example.org", "SIGNON alpha England englandpw\nCONCEDE France")
    assert "alpha allows no concessions (concede.allowed=off)" in refused


def test_a_game_at_its_end_year_is_won_by_the_leader_in_centres(judge: Judge) -> None:
    """The end of 1901 ends the game: France's five centres lead Russia's four; the Winter is played out first."""
    assert "Set end.year=1901." in judge.mail("gm@example.org", GM + "SET end.year=1901")
    _play_1901(judge)
    assert _game(judge).status == "active"  # the Fall is not the year's last phase: France builds in the Winter
    assert "The game has ended (centres)." in _process(judge)
    game = _game(judge)
    assert (game.result, game.winners) == ("centres", ["France"])
    results = [m.get_content() for m in judge.outbound(kind="result", to="turkey@example.org")]
    assert any(
        "1901 was its last year (end.year), and France, holding the most supply\ncentres (5), has won." in r
        for r in results
    )
    over = [m.get_content() for m in judge.outbound(to="turkey@example.org") if "game is over" in m["Subject"]]
    assert any("reached the end of its last year (1901): France holds the most supply centres and wins." in m
               for m in over)  # fmt: skip
    assert game_scores(game, {p: (p,) for p in ("France", "Russia", "Italy")}) == {
        "France": 1.0, "Russia": 0.0, "Italy": 0.0,
    }  # fmt: skip
    games = Games(judge.db, judge.clock)
    page = game_page(SITE, games.reads.public_game("alpha"), games.reads.public_history("alpha"))
    assert "The game is over: it reached its last year, and France held the most supply centres." in page
    assert "The game ends with the last phase of 1901" in page and "18 supply centres win." in page
    assert "The game is over: 1901 was its last year (end.year), and France" in page  # its latest results too
    assert "The next phase of alpha" not in page
    summary = judge.mail("turkey@example.org", "SUMMARY alpha")
    assert "Victory: 18 supply centres (the map's)." in summary


def test_leaders_level_at_the_end_year_share_the_game_as_a_draw(judge: Judge) -> None:
    judge.mail("gm@example.org", GM + "SET end.year=1901")
    _play_1901(judge, germany_too=True)
    _process(judge)
    game = _game(judge)
    assert (game.result, game.winners) == ("centres", ["France", "Germany"])
    assert "centres" in RATED_RESULTS
    assert game_scores(game, {p: (p,) for p in ("France", "Germany", "Russia")}) == {
        "France": 0.5, "Germany": 0.5, "Russia": 0.0,
    }  # fmt: skip
    results = [m.get_content() for m in judge.outbound(kind="result", to="austria@example.org")]
    assert any("France, Germany hold the most\nsupply centres (5 each): they share the game" in r for r in results)


def test_an_end_year_already_past_is_refused(judge: Judge) -> None:
    reply = judge.mail("gm@example.org", GM + "SET end.year=1900")
    assert "end.year=1900 is before 1901, the year alpha is in: the game would end at once" in reply
    assert "end" not in _game(judge).settings
