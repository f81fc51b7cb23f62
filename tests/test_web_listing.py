"""The site made for players (issue 41, "For players"): a forming game's open places and how to join, the game's
events, a feed for the whole site, the games list filtered and paged, and a judge that keeps search engines out --
read from the export (the server's own page functions) and, marked slow, through uvicorn as a browser reads them.
The private-game rule holds throughout: a private game is in no feed and no list beyond its name."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from sqlalchemy import select
from web_games import SECRETS, SITE, every_state, play_every_state, serving

from judge.game import Games
from judge.store import Game, open_database
from judge.testing.tables import POWERS
from judge.web.export import export_site
from judge.web.server import WebServer

ATOM = "{http://www.w3.org/2005/Atom}"


def _get(url: str) -> tuple[int, str, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8"), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8"), dict(error.headers)


@pytest.fixture(scope="module")
def server(web_games: Games) -> Iterator[WebServer]:
    with serving(web_games, SITE) as served:
        yield served


# --- search engines kept out, where the judge wants it ---------------------------------------------------------


def test_a_judge_welcomes_search_engines_by_default(web_export: Path) -> None:
    assert (web_export / "robots.txt").read_text() == "User-agent: *\nDisallow:\n"
    assert 'name="robots"' not in (web_export / "index.html").read_text(encoding="utf-8")


def test_a_judge_that_keeps_search_engines_out_says_so_in_robots_txt_and_every_page(
    web_games: Games, tmp_path: Path
) -> None:
    """`[web] search_engines = false`: robots.txt refuses every robot and every page says noindex, nofollow."""
    export_site(web_games, replace(SITE, noindex=True), tmp_path)
    assert (tmp_path / "robots.txt").read_text() == "User-agent: *\nDisallow: /\n"
    pages = [p for p in tmp_path.rglob("*.html")]
    assert len(pages) > 10
    for page in pages:
        assert '<meta name="robots" content="noindex, nofollow">' in page.read_text(encoding="utf-8"), page


@pytest.mark.slow
def test_the_served_site_keeps_search_engines_out_where_the_judge_wants_it(web_games: Games) -> None:
    with serving(web_games, replace(SITE, noindex=True)) as served:
        status, body, _ = _get(served.url + "robots.txt")
        assert status == 200 and body == "User-agent: *\nDisallow: /\n"
        for path in ("", "games/running/", "games/running/frames/0.svg", "games/running/feed.atom", "nowhere"):
            _, body, headers = _get(served.url + path)
            assert headers.get("x-robots-tag") == "noindex, nofollow", path
        assert '<meta name="robots" content="noindex, nofollow">' in _get(served.url)[1]


@pytest.mark.slow
def test_the_served_site_welcomes_robots_by_default(server: WebServer) -> None:
    status, body, headers = _get(server.url + "robots.txt")
    assert status == 200 and body == "User-agent: *\nDisallow:\n" and "x-robots-tag" not in headers


# --- a forming game's open places and how to join --------------------------------------------------------------


def test_a_forming_games_page_says_which_places_are_open_and_the_join_line_to_mail(web_export: Path) -> None:
    """Two of seven joined, asking for Austria and England: five places open, the other five sides nobody asked
    for, and the line to mail the judge (its address, never the join password: the GM gives it)."""
    page = (web_export / "games" / "forming" / "index.html").read_text(encoding="utf-8")
    join = page[page.index('<section id="join"') :]
    join = join[: join.index("</section>")]
    assert "5 of 7 places are open; nobody has asked for France, Germany, Italy, Russia, Turkey." in join
    assert '<a href="mailto:judge@judge.test">judge@judge.test</a>' in join
    assert "<pre>JOIN forming password France</pre>" in join and "join password, which its GM gives" in join
    assert "sekret-join" not in page
    running = (web_export / "games" / "running" / "index.html").read_text(encoding="utf-8")
    assert 'id="join"' not in running  # a started game takes no JOIN


def test_the_list_gives_a_forming_games_open_places_and_links_to_how_to_join(web_export: Path) -> None:
    index = (web_export / "index.html").read_text(encoding="utf-8")
    assert (
        "<dt>Open places</dt><dd>5 of 7; nobody has asked for France, Germany, Italy, Russia, Turkey "
        '(<a href="games/forming/index.html#join">how to join</a>)</dd>'
    ) in index
    assert index.count("<dt>Open places</dt>") == 1  # the forming game's alone


# --- the game's events -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def eventful(tmp_path_factory: pytest.TempPathFactory) -> Games:
    """A game that saw what players are told of beside the results: a player ejected and another taking over,
    a pause, Turkey wiped out by the Winter removals, a rollback -- on a database of its own."""
    games = Games(open_database(f"sqlite:///{tmp_path_factory.mktemp('events') / 'judge.sqlite'}"))
    games.accounts.register("gm@players.test", "The Gamesmaster", "sekret-gm")
    games.seating.create_game("eventful", "standard", "gm@players.test", "sekret-join", seed=3)
    for power in POWERS:
        games.accounts.register(f"{power.lower()}@players.test", f"{power} Player", "sekret-player")
        games.seating.join("eventful", f"{power.lower()}@players.test", "sekret-join", [power])
    games.adjudication.process("eventful")  # Spring 1901
    games.controls.eject("eventful", "Italy")
    games.accounts.register("newcomer@players.test", "Nina Newcomer", "sekret-player")
    games.controls.replace("eventful", "Italy", "newcomer@players.test")
    games.controls.pause("eventful")
    games.controls.resume("eventful")
    with games.db.transaction() as s:  # Turkey keeps one army, outside any centre, and no centre: removed in Winter
        game = s.scalars(select(Game).where(Game.name == "eventful")).one()
        position = dict(game.position or {})
        kept = {"power": "Turkey", "unit": "A", "at": "arm"}
        position["units"] = [u for u in position["units"] if u["power"] != "Turkey"] + [kept]
        centres = dict(position["supply_centers"])
        centres["Russia"] = [*centres["Russia"], *centres.pop("Turkey")]
        position["supply_centers"] = centres
        game.position = position
    games.adjudication.process("eventful")  # Fall 1901
    games.adjudication.process("eventful")  # Winter 1901: Turkey's army removed, Turkey eliminated
    games.adjudication.process("eventful")  # Spring 1902
    games.controls.rollback("eventful", 3)  # back to Spring 1902
    return games


def test_a_games_page_lists_its_events_as_its_players_were_told_them(eventful: Games, tmp_path: Path) -> None:
    """Issue 41: replacements, pauses, rollbacks, eliminations, each with its time and phase; from the stored
    events' public fields alone (the newcomer's address, the password never shown)."""
    export_site(eventful, SITE, tmp_path)
    page = (tmp_path / "games" / "eventful" / "index.html").read_text(encoding="utf-8")
    events = re.findall(r"<li>(?:<time [^>]*>)?[^<]*UTC(?:</time>)?(?:, during ([^:]+))?: (.*?)</li>", page)
    assert events == [
        ("Spring 1901 Movement", "The game started."),
        ("Fall 1901 Movement", "The GM ejected the player of Italy."),
        ("Fall 1901 Movement", "<bdi>Nina Newcomer</bdi> took over Italy."),
        ("Fall 1901 Movement", "The GM paused the game."),
        ("Fall 1901 Movement", "The GM resumed the game."),
        ("Winter 1901 Adjustment", "Turkey was eliminated."),
        ("Spring 1902 Movement", "The GM rolled the game back to Spring 1902 Movement."),
    ]
    for secret in (*SECRETS, "newcomer@"):
        assert secret not in page


def test_a_rollback_forgets_the_events_of_the_phases_it_undid(eventful: Games, tmp_path: Path) -> None:
    """Rolled back to Fall 1901: the ejection, the replacement and the pause happened in it and are undone with
    it (the store forgets them), as is Turkey's elimination in the Winter after."""
    eventful.controls.rollback("eventful", 1)
    export_site(eventful, SITE, tmp_path)
    page = (tmp_path / "games" / "eventful" / "index.html").read_text(encoding="utf-8")
    assert "The game started." in page and "rolled the game back to Fall 1901 Movement" in page
    assert "Nina Newcomer</bdi> took over" not in page and "Turkey was eliminated" not in page


@pytest.mark.slow
def test_a_served_page_shows_an_event_the_moment_it_happens(tmp_path: Path) -> None:
    """The history a page is made from is kept by its stamp, which counts the events: an ejection changes
    nothing else the stamp sees, and still shows at the next request."""
    games = every_state(tmp_path)
    with serving(games, SITE) as served:
        assert "ejected" not in _get(served.url + "games/running/")[1]
        games.controls.eject("running", "Italy")
        page = _get(served.url + "games/running/")[1]
        assert "during Spring 1902 Movement: The GM ejected the player of Italy." in page


def test_a_game_ended_by_its_gm_says_how(web_export: Path) -> None:
    page = (web_export / "games" / "finished" / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<li>(?:<time [^>]*>)?[^<]*UTC(?:</time>)?: The game ended \(terminated\)\.</li>", page)


# --- a feed for the whole site ---------------------------------------------------------------------------------


def test_the_sites_feed_carries_the_latest_phases_of_every_public_game_and_none_of_a_private_one(
    web_export: Path,
) -> None:
    root = ET.parse(web_export / "feed.atom").getroot()
    assert root.tag == f"{ATOM}feed"
    for required in ("id", "title", "updated", "author"):
        assert root.find(f"{ATOM}{required}") is not None
    titles = [e.findtext(f"{ATOM}title") or "" for e in root.findall(f"{ATOM}entry")]
    assert sorted(titles) == sorted(
        f"{game}: {phase}" for game in ("running", "paused", "finished") for phase in ("Spring 1901 Movement",
                                                                                       "Fall 1901 Movement")
    )  # fmt: skip
    assert not any(title.startswith("closed") for title in titles)
    stamps = [e.findtext(f"{ATOM}updated") or "" for e in root.findall(f"{ATOM}entry")]
    assert stamps == sorted(stamps, reverse=True)
    links = {e.find(f"{ATOM}link").get("href") for e in root.findall(f"{ATOM}entry")}  # type: ignore[union-attr]
    assert "games/running/phases/1.html" in links
    text = (web_export / "feed.atom").read_text(encoding="utf-8")
    for secret in SECRETS:
        assert secret not in text
    assert '<link rel="alternate" type="application/atom+xml"' in (web_export / "index.html").read_text()


@pytest.mark.slow
def test_the_served_sites_feed_is_the_exported_one(server: WebServer, web_export: Path) -> None:
    status, body, headers = _get(server.url + "feed.atom")
    assert status == 200 and headers["content-type"].startswith("application/atom+xml")
    assert body == (web_export / "feed.atom").read_text(encoding="utf-8")


# --- the list filtered and paged -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Games:
    """The games of every state and 50 forming games more: 55 games, two pages of the list."""
    games = Games(open_database(f"sqlite:///{tmp_path_factory.mktemp('crowd') / 'judge.sqlite'}"))
    play_every_state(games)
    for n in range(50):
        games.seating.create_game(f"g{n:02}", "standard", "gm@players.test", "sekret-join", seed=n)
    return games


def _listed(page: str) -> list[str]:
    return re.findall(r"<h2>(?:<a [^>]*>)?([a-z0-9]+)(?:</a>)?</h2>", page)


def test_the_exported_list_is_paged_fifty_games_a_page(crowded: Games, tmp_path: Path) -> None:
    export_site(crowded, SITE, tmp_path)
    first = (tmp_path / "index.html").read_text(encoding="utf-8")
    second = (tmp_path / "page-2.html").read_text(encoding="utf-8")
    assert len(_listed(first)) == 50 and len(_listed(second)) == 5
    assert sorted(_listed(first) + _listed(second)) == _listed(first) + _listed(second)  # by name, each once
    assert "Page 1 of 2 (55 games)." in first and '<a rel="next" href="page-2.html">' in first
    assert '<a rel="prev" href="index.html">' in second and not (tmp_path / "page-3.html").exists()
    assert '<form class="filter"' not in first  # a folder of files answers no query


@pytest.fixture(scope="module")
def crowd_server(crowded: Games) -> Iterator[WebServer]:
    with serving(crowded, SITE) as served:
        yield served


@pytest.mark.slow
def test_the_served_list_is_filtered_by_state_and_variant_and_paged(crowd_server: WebServer) -> None:
    """Query-string parameters, a form without scripts; a filtered list leaves a private game out (its name is
    public, its state and variant are not)."""
    url = crowd_server.url
    status, first, _ = _get(url)
    assert status == 200 and len(_listed(first)) == 50 and "closed" in _listed(first)
    assert '<form class="filter" method="get" action="./">' in first and '<a rel="next" href="?page=2">' in first
    assert len(_listed(_get(url + "?page=2")[1])) == 5
    assert _listed(_get(url + "?state=active")[1]) == ["running"]  # `closed` is active too, and private
    paused = _get(url + "?state=paused&variant=standard")[1]
    assert _listed(paused) == ["paused"] and "1 game of standard, paused" in paused
    forming = _get(url + "?state=forming")[1]
    assert len(_listed(forming)) == 50 and '<a rel="next" href="?state=forming&amp;page=2">' in forming
    assert _listed(_get(url + "?state=forming&page=2")[1]) == ["g49"]
    assert "<option selected>forming</option>" in forming
    assert len(_listed(_get(url + "?variant=standard&state=")[1])) == 50  # an empty choice is any
    hepta = _get(url + "index.html?variant=hepta")
    assert hepta[0] == 200 and _listed(hepta[1]) == [] and "No game of hepta yet." in hepta[1]
    assert _listed(_get(url + "?utm_source=forum")[1]) == _listed(first)  # a parameter it does not read: ignored


@pytest.mark.slow
def test_a_malformed_list_query_answers_the_sites_own_page_never_a_traceback(
    crowd_server: WebServer, capfd: pytest.CaptureFixture[str]
) -> None:
    """Bounded input (issue 41): an unknown state or variant, a page that is no number or a huge one, a parameter
    given twice answer 400; a page past the last answers 404; each with the site's own page."""
    url = crowd_server.url
    for query in ("state=bogus", "variant=..%2Fetc", "page=0", "page=-1", "page=abc", "page=" + "9" * 4301,
                  "page=1e3", "state=active&state=paused", "variant=" + "x" * 300, "state=%00"):  # fmt: skip
        status, body, _ = _get(f"{url}?{query}")
        assert status == 400 and "<h1>Not understood</h1>" in body and 'href="style.css"' in body, query
    for query in ("page=3", "state=finished&page=2", "page=999999"):
        status, body, _ = _get(f"{url}?{query}")
        assert status == 404 and "<h1>Not found</h1>" in body and "The list has" in body, query
    assert "Traceback" not in capfd.readouterr().err


def test_the_sites_feed_links_absolutely_where_the_judge_has_a_base_url(web_games: Games, tmp_path: Path) -> None:
    export_site(web_games, SITE, tmp_path, "https://judge.example.org/")
    root = ET.parse(tmp_path / "feed.atom").getroot()
    links = [link.get("href") for link in root.iter(f"{ATOM}link")]
    assert links[:2] == ["https://judge.example.org/index.html", "https://judge.example.org/feed.atom"]
    assert "https://judge.example.org/games/running/phases/1.html" in links
