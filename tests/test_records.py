"""Issue 46 and issue 43 item 7: a player's record, his ratings, a game's entry limits and WHOIS, from whole games
played by mail in-process (the real processor and commands on a real SQLite file), each figure worked out by hand
here from what the test played.

The anchors: njudge's `data/dedsystems` (dedication +3 a phase on time, -1 late, -50 abandoned, -100 missed past the
grace; the on-time ratio, on time over due; the civil-disorder ratio, times in CD over games started plus positions
taken over; `SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT`), njudge's `data/form` (REGISTER's fields, WHOIS,
IAMALSO) and docs/ratings.md (the rating: Elo over every pair of a game's players, K = 32, from 1500)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select, text

from judge import cli
from judge.clock import FakeClock, as_utc
from judge.game import Games
from judge.game.ratings import all_ratings
from judge.game.record_values import Figures
from judge.game.records import forget_walks, record_of
from judge.store import Game, GameEventRecord, Player, open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.testing.mail_rig import Judge
from judge.web.export import export_site
from judge.web.pages import SiteInfo, player_page
from judge.web.server import WebServer
from judge.web.site import Site

SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")

COUNTRIES = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
GM = "SIGNON {game} MASTER gmpass\n"

HOLDS = {
    "Austria": "A vie H\nA bud H\nF tri H",
    "England": "F lon H\nF edi H\nA lvp H",
    "France": "F bre H\nA par H\nA mar H",
    "Germany": "F kie H\nA ber H\nA mun H",
    "Italy": "F nap H\nA rom H\nA ven H",
    "Russia": "F stp/sc H\nA mos H\nA war H\nF sev H",
    "Turkey": "F ank H\nA con H\nA smy H",
}


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judge]:
    path: Path = tmp_path_factory.mktemp("records") / "judge.sqlite"
    db = open_database(f"sqlite:///{path}")
    yield Judge(db)
    db.dispose()


def _address(game: str, power: str) -> str:
    return f"{game}-{power.lower()}@example.org"


def _start(judge: Judge, game: str) -> None:
    """A game of the standard board joined by seven new players, one a country, named `<Country> of <game>`."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    assert "created" in judge.mail("gm@example.org", f"CREATE {game} standard joinpw")
    for power in COUNTRIES:
        address = _address(game, power)
        judge.mail(address, f"REGISTER {power} of {game} pw")
        judge.mail(address, f"JOIN {game} joinpw {power}")


def _orders(judge: Judge, game: str, power: str, address: str | None = None) -> None:
    reply = judge.mail(address or _address(game, power), f"SIGNON {game} {power} pw\n{HOLDS[power]}")
    assert "Orders for" in reply, reply


def _deadline(judge: Judge, game: str) -> None:
    """Move the clock an hour past the game's deadline."""
    with judge.db.transaction() as s:
        deadline = as_utc(s.scalars(select(Game.deadline).where(Game.name == game)).one())
    judge.clock.set(deadline + timedelta(hours=1))


def _process(judge: Judge, game: str) -> None:
    assert "Phase processed" in judge.mail("gm@example.org", GM.format(game=game) + "PROCESS")


def _figures(judge: Judge, name: str) -> Figures:
    with judge.db.transaction() as s:
        player = s.scalars(select(Player).where(Player.name == name)).one()
        return record_of(s, player).total


def _ratings(judge: Judge) -> dict[str, float]:
    with judge.db.transaction() as s:
        names = {p.id: p.name for p in s.scalars(select(Player))}
        scale = all_ratings(s).get("standard", {})
        return {names[pid]: round(r.rating, 3) for pid, r in scale.items()}


def test_a_drawn_game_with_a_late_phase_a_missed_one_a_resignation_and_a_replacement(judge: Judge) -> None:
    _start(judge, "alpha")
    # Spring 1901: six order before the deadline, Austria after it (in the grace: late)
    for power in COUNTRIES[1:]:
        _orders(judge, "alpha", power)
    _deadline(judge, "alpha")
    _orders(judge, "alpha", "Austria")
    _process(judge, "alpha")
    # Fall 1901: Austria sends nothing (missed); the rest on time
    for power in COUNTRIES[1:]:
        _orders(judge, "alpha", power)
    _deadline(judge, "alpha")
    _process(judge, "alpha")
    # Spring 1902: Austria resigns; a newcomer takes his side over and orders; all on time
    assert "You have resigned" in judge.mail(_address("alpha", "Austria"), "SIGNON alpha Austria pw\nRESIGN")
    judge.mail("newbie@example.org", "REGISTER Nemo Newcomer pw")
    assert "now plays Austria" in judge.mail(
        "gm@example.org", GM.format(game="alpha") + "REPLACE Austria newbie@example.org"
    )
    _orders(judge, "alpha", "Austria", "newbie@example.org")
    for power in COUNTRIES[1:]:
        _orders(judge, "alpha", power)
    _process(judge, "alpha")
    # everyone draws
    for power in COUNTRIES:
        address = "newbie@example.org" if power == "Austria" else _address("alpha", power)
        judge.mail(address, f"SIGNON alpha {power} pw\nSET DRAW")
    with judge.db.transaction() as s:
        assert s.scalars(select(Game.result).where(Game.name == "alpha")).one() == "draw"

    austria = _figures(judge, "Austria of alpha")
    assert (austria.started, austria.finished, austria.resigned, austria.replacements) == (1, 0, 1, 0)
    assert (austria.on_time, austria.late, austria.missed, austria.disorder) == (0, 1, 1, 0)
    assert austria.dedication == -1 - 100  # one phase late, one missed past the grace
    assert austria.on_time_ratio == 0.0
    assert austria.resignation_ratio == 1.0  # one time in CD over one game started
    england = _figures(judge, "England of alpha")
    assert (england.started, england.finished, england.on_time, england.late, england.missed) == (1, 1, 3, 0, 0)
    assert england.dedication == 9 and england.on_time_ratio == 1.0
    nemo = _figures(judge, "Nemo Newcomer")
    assert (nemo.started, nemo.finished, nemo.replacements, nemo.on_time) == (0, 1, 1, 1)

    # the draw shares the point among the seven sides; Austria's first player left it and scores nothing: eight
    # players, each pair 1, 1/2 or 0 against Elo's 1/2 (all at 1500): the leaver -32 x 7 x 1/2 / 7 = -16, each
    # holder +32 x 1/2 / 7 (against the leaver only)
    ratings = _ratings(judge)
    assert ratings["Austria of alpha"] == 1500 - 16
    assert ratings["England of alpha"] == round(1500 + 16 / 7, 3)
    assert ratings["Nemo Newcomer"] == round(1500 + 16 / 7, 3)


def test_an_abandoned_side_a_concession_an_entry_limit_and_a_rollback(judge: Judge) -> None:
    _start(judge, "beta")
    # Austria never orders: three phases missed in a row, the third at `abandon_after` (3): in civil disorder
    for _ in range(3):
        for power in COUNTRIES[1:]:
            _orders(judge, "beta", power)
        _deadline(judge, "beta")
        _process(judge, "beta")
    for power in ("Austria", "France", "Germany", "Italy", "Russia", "Turkey"):
        judge.mail(_address("beta", power), f"SIGNON beta {power} pw\nCONCEDE England")
    with judge.db.transaction() as s:
        assert s.scalars(select(Game.result).where(Game.name == "beta")).one() == "concession"

    austria = _figures(judge, "Austria of beta")
    assert (austria.started, austria.finished, austria.abandoned) == (1, 1, 1)
    assert (austria.on_time, austria.late, austria.missed, austria.disorder) == (0, 0, 3, 1)
    assert austria.dedication == -50 - 3 * 100
    assert austria.resignation_ratio == 3.0  # "a player who is really sloppy ... above 1.0" (dedsystems)

    # the concession gives England the point: he beats six, +32 x 6 x 1/2 / 6 = +16; each other loses to him and
    # ties five, -32 x 1/2 / 6
    ratings = _ratings(judge)
    assert ratings["England of beta"] == 1516.0
    assert ratings["Austria of beta"] == round(1500 - 16 / 6, 3)

    # an entry limit: njudge's ONTIMERAT by its own name; Austria's 0 of 3 is refused, with his figure and the limit
    judge.mail("gm@example.org", "CREATE gamma standard joinpw")
    assert "Set entry.on_time=0.5" in judge.mail("gm@example.org", GM.format(game="gamma") + "SET ontimerat=0.5")
    refused = judge.mail(_address("beta", "Austria"), "JOIN gamma joinpw")
    assert "your on-time ratio is 0.00 (0 of 3 phases); this game asks at least 0.50" in refused
    assert "You have joined" in judge.mail(_address("beta", "England"), "JOIN gamma joinpw")
    assert "may join gamma" in judge.mail("gm@example.org", GM.format(game="gamma") + "WAIVE LIMITS Austria of beta")
    assert "You have joined gamma" in judge.mail(_address("beta", "Austria"), "JOIN gamma joinpw")

    # the GM rolls the finished game back to Fall 1901: it is no longer finished, and its ratings go with it
    judge.mail("gm@example.org", GM.format(game="beta") + "ROLLBACK F1901M")
    ratings = _ratings(judge)
    assert "England of beta" not in ratings and "Austria of beta" not in ratings
    assert ratings["England of alpha"] == round(1500 + 16 / 7, 3)  # the other game's stand
    austria = _figures(judge, "Austria of beta")
    assert (austria.finished, austria.missed, austria.disorder, austria.abandoned) == (0, 1, 0, 0)


def test_whois_shows_the_record_never_the_address_unless_allowed(judge: Judge) -> None:
    """njudge's `data/form`: WHOIS shows the registration; here never the address unless the player says so."""
    _start(judge, "delta")
    form = "REGISTER\nCountry: Norway\nTimezone: Europe/Oslo\nLevel: Intermediate\nEND"
    reply = judge.mail(_address("delta", "France"), form)
    assert "Country: Norway" in reply and "Level: intermediate" in reply
    assert "is not a time zone" in judge.mail(_address("delta", "France"), "Timezone: Mars/Olympus")

    whois = judge.mail(_address("delta", "England"), "WHOIS France of delta")
    assert "Country:    Norway" in whois and "Timezone:   Europe/Oslo" in whois and "Level:      Intermediate" in whois
    assert "games 1 started" in whois and "delta (standard) as France: playing" in whois
    assert "@" not in whois.split("WHOIS", 1)[1]
    # by address, a player who does not show his is nobody's to find
    assert "no registered player" in judge.mail(_address("delta", "England"), f"WHOIS {_address('delta', 'France')}")

    judge.mail(_address("delta", "France"), "Show address: yes")
    assert f"Address:    {_address('delta', 'France')}" in judge.mail(
        _address("delta", "England"), "INFO PLAYER France of delta"
    )


def test_i_am_also_joins_a_second_address_proved_by_the_password(judge: Judge) -> None:
    """njudge's IAMALSO, from the new address; the account's password proves both are one player's."""
    _start(judge, "eps")
    assert "unknown address or wrong password" in judge.mail(
        "home@example.org", f"I AM ALSO {_address('eps', 'Italy')} wrong"
    )
    reply = judge.mail("home@example.org", f"I AM ALSO {_address('eps', 'Italy')} pw")
    assert "home@example.org is now also Italy of eps's" in reply
    assert "****" in reply.split("I AM ALSO", 1)[1].splitlines()[0]  # the password is never echoed
    assert "Orders for Italy" in judge.mail("home@example.org", f"SIGNON eps Italy pw\n{HOLDS['Italy']}")
    mine = judge.mail("home@example.org", "GET DEDICATION")
    assert "Name:       Italy of eps" in mine and f"Address:    {_address('eps', 'Italy')}" in mine
    assert "already registered" in judge.mail("home@example.org", "REGISTER Someone Else pw")
    # orders from his other address are his: no copy to his own address "sent from another address"
    assert not [m for m in judge.outbound(to=_address("eps", "Italy")) if "another address" in str(m["Subject"])]
    judge.mail("stranger@example.org", f"SIGNON eps Italy pw\n{HOLDS['Italy']}")
    assert [m for m in judge.outbound(to=_address("eps", "Italy")) if "another address" in str(m["Subject"])]


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as refused:
        return refused.code, ""


def _player_id(judge: Judge, name: str) -> int:
    with judge.db.transaction() as s:
        return s.scalars(select(Player.id).where(Player.name == name)).one()


def _served_page(judge: Judge, name: str) -> str:
    """A player's page as the export writes it (the same function the site serves it by)."""
    card = Games(judge.db, judge.clock).whois.page(_player_id(judge, name))
    assert card is not None
    return player_page(replace(SITE, exported=True), card)


def test_the_players_page_shows_his_record_ratings_and_games_and_no_address(judge: Judge, tmp_path: Path) -> None:
    """Issue 46 item 4, checked on the served site as tests/test_web_players.py does: the record, the ratings and
    the games; never an address the player did not allow; a gunboat game only after its reveal."""
    server = WebServer(Site(Games(judge.db, judge.clock), SITE), "127.0.0.1", 0)
    assert server.start()
    try:
        status, page = _get(f"{server.url}players/{_player_id(judge, 'England of alpha')}.html")
        assert status == 200
        assert "<bdi>England of alpha</bdi>" in page
        assert "<td>all variants</td><td>1</td><td>1</td>" in page  # one game started, one finished
        assert "standard: 1502 (1 rated game)" in page
        assert 'href="../games/alpha/index.html">alpha</a> (standard) as England: finished, draw' in page
        assert "@example.org" not in page

        status, page = _get(f"{server.url}players/{_player_id(judge, 'France of delta')}.html")
        assert _address("delta", "France") in page  # he said `Show address: yes`
        england = _player_id(judge, "England of delta")
        assert "games/delta/index.html" in _get(f"{server.url}players/{england}.html")[1]
        with judge.db.transaction() as s:  # the gunboat setting is another piece's: set here as it will be stored
            game = s.scalars(select(Game).where(Game.name == "delta")).one()
            game.settings = {**game.settings, "gunboat": True}
        assert _get(f"{server.url}players/{england}.html")[0] == 404  # his one game is a gunboat game not revealed
        whois = judge.mail(_address("delta", "France"), "WHOIS England of delta")
        assert "Name:       England of delta" in whois and "delta (standard)" not in whois
        assert "games 0 started" in whois  # nor its phases: his figures would tell he plays in it

        assert _get(f"{server.url}players/999999.html")[0] == 404
        assert _get(f"{server.url}players/x1.html")[0] == 404
    finally:
        server.stop()

    out = tmp_path / "site"
    export_site(Games(judge.db, judge.clock), SITE, out)
    exported = {path.name: path.read_text(encoding="utf-8") for path in (out / "players").iterdir()}
    assert exported[f"{_player_id(judge, 'England of alpha')}.html"] == _served_page(judge, "England of alpha")
    assert f"{england}.html" not in exported  # the gunboat game's player: no page
    assert not [name for name, page in exported.items() if "@example.org" in page]  # France's one game is hidden now


def test_records_rebuild_prints_what_the_events_give(
    judge: Judge, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`judge records rebuild` works every record and rating out again from the events (issue 46 item 5)."""
    monkeypatch.setenv("JUDGE_DATABASE_URL", str(judge.db.engine.url))
    assert cli.main(["records", "rebuild", "--json"]) == 0
    lines = {row["player"]: row for row in map(json.loads, capsys.readouterr().out.splitlines())}
    assert lines["Austria of alpha"]["record"]["dedication"] == -101
    assert lines["Austria of alpha"]["ratings"] == {"standard": 1484.0}
    assert lines["Nemo Newcomer"]["record"]["replacements"] == 1
    assert "@" not in json.dumps(lines)
    assert cli.main(["records", "rebuild"]) == 0
    assert "Austria of alpha: 1 started, 0 finished, dedication -101" in capsys.readouterr().out


def test_phases_processed_before_their_events_kept_the_deadline_count_from_their_position(judge: Judge) -> None:
    """Games already played count (issue 46 item 1): a phase whose event kept neither its deadline nor the powers it
    awaited (processed before they were kept) counts every power that had to order in its position as awaited, and
    orders on file as on time (the deadline they answered is not known)."""
    with judge.db.transaction() as s:
        game_id = s.scalars(select(Game.id).where(Game.name == "alpha")).one()
        for row in s.scalars(
            select(GameEventRecord).where(GameEventRecord.game_id == game_id, GameEventRecord.kind == "phase processed")
        ):
            row.data = {key: value for key, value in row.data.items() if key not in ("deadline", "due")}
    forget_walks()  # an edit in place, as no use case makes: the process's kept walks would not see it
    austria = _figures(judge, "Austria of alpha")
    assert (austria.on_time, austria.late, austria.missed) == (1, 0, 1)  # Spring 1901's late orders: on time now
    assert _figures(judge, "England of alpha").on_time == 3


def test_a_side_of_seven_board_nations_is_one_phase_of_its_players(tmp_path: Path) -> None:
    """Issue 46, "by the side": a CW Heptadiplomacy player (option A: a country's seven board-nations) who ordered
    one board of seven missed the phase once, not six times; the player who ordered all seven was on time once."""
    db = open_database(f"sqlite:///{tmp_path / 'hepta.sqlite'}")
    games = Games(db, FakeClock())
    games.accounts.register("gm@example.org", "The GM", "pw")
    games.seating.create_game("hep", "hepta", "gm@example.org", "pw", options={"assignment": "a"})
    for country in COUNTRIES:
        games.accounts.register(f"{country}@example.org", f"{country} Player", "pw")
        games.seating.join("hep", f"{country}@example.org", "pw", [country])
    for country in COUNTRIES:
        for board in range(1, 2 if country == "France" else 8):
            games.orders.submit("hep", f"{board}:{country}", ["Hold"])  # a set on file for that board-nation
    games.adjudication.process("hep")
    with db.transaction() as s:
        france = record_of(s, s.scalars(select(Player).where(Player.name == "France Player")).one()).total
        england = record_of(s, s.scalars(select(Player).where(Player.name == "England Player")).one()).total
    assert (france.due, france.missed, france.dedication) == (1, 1, -100)
    assert (england.due, england.on_time) == (1, 1)
    db.dispose()


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_migration_0013_keeps_every_player_and_game_and_shows_no_address(
    backend: str, request: pytest.FixtureRequest
) -> None:
    """Migration 0013 up from 0012 with players and a game stored: every profile field empty, every address kept
    private, no game waives anyone, nobody has another address."""
    url: str = request.getfixturevalue("sqlite_url" if backend == "sqlite" else "postgres_url")
    engine = make_engine(url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0012")
        conn.execute(
            text("INSERT INTO players (id, address, name, password_hash, created_at) "
                 "VALUES (1, 'anna@example.org', 'Anna', 'x', CURRENT_TIMESTAMP)")
        )  # fmt: skip
        conn.execute(
            text("INSERT INTO games (name, variant, options, settings, status, gm_id, password_hash, seed, "
                 "phase_index, created_at, version, absences, observers, concessions, pictures_off) VALUES "
                 "('old', 'standard', '{}', '{}', 'forming', 1, 'x', 1, 0, CURRENT_TIMESTAMP, 1, '{}', '[]', '{}', "
                 "'[]')")
        )  # fmt: skip
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        player = conn.execute(text("SELECT country, zone, level, show_address FROM players")).one()
        waived = conn.execute(text("SELECT waived FROM games")).scalar_one()
        also = conn.execute(text("SELECT count(*) FROM player_addresses")).scalar_one()
    engine.dispose()
    assert tuple(player) == (None, None, None, False)
    assert (json.loads(waived) if isinstance(waived, str) else waived) == [] and also == 0
