"""The site made for players (issue 41, "For players"): a forming game's open places and how to join, the game's
events, a feed for the whole site, the games list filtered and paged, and a judge that keeps search engines out --
read from the export (the server's own page functions) and, marked slow, through uvicorn as a browser reads them.
The private-game rule holds throughout: a private game is in no feed and no list beyond its name."""

from __future__ import annotations

import urllib.error
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from web_games import SECRETS, play_every_state

from judge.game import Games
from judge.store import open_database
from judge.web.export import export_site
from judge.web.pages import SiteInfo
from judge.web.server import WebServer
from judge.web.site import Site

SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    path = tmp_path_factory.mktemp("web") / "judge.sqlite"
    played = Games(open_database(f"sqlite:///{path}"))
    play_every_state(played)
    return played


@pytest.fixture(scope="module")
def exported(games: Games, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    export_site(games, SITE, out)
    return out


def _get(url: str) -> tuple[int, str, dict[str, str]]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8"), dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8"), dict(error.headers)


@pytest.fixture(scope="module")
def server(games: Games) -> Iterator[WebServer]:
    served = WebServer(Site(games, SITE), "127.0.0.1", 0)
    assert served.start()
    yield served
    served.stop()


# --- search engines kept out, where the judge wants it ---------------------------------------------------------


def test_a_judge_welcomes_search_engines_by_default(exported: Path) -> None:
    assert (exported / "robots.txt").read_text() == "User-agent: *\nDisallow:\n"
    assert 'name="robots"' not in (exported / "index.html").read_text(encoding="utf-8")


def test_a_judge_that_keeps_search_engines_out_says_so_in_robots_txt_and_every_page(
    games: Games, tmp_path: Path
) -> None:
    """`[web] search_engines = false`: robots.txt refuses every robot and every page says noindex, nofollow."""
    export_site(games, replace(SITE, noindex=True), tmp_path)
    assert (tmp_path / "robots.txt").read_text() == "User-agent: *\nDisallow: /\n"
    pages = [p for p in tmp_path.rglob("*.html")]
    assert len(pages) > 10
    for page in pages:
        assert '<meta name="robots" content="noindex, nofollow">' in page.read_text(encoding="utf-8"), page


@pytest.mark.slow
def test_the_served_site_keeps_search_engines_out_where_the_judge_wants_it(games: Games) -> None:
    served = WebServer(Site(games, replace(SITE, noindex=True)), "127.0.0.1", 0)
    assert served.start()
    try:
        status, body, _ = _get(served.url + "robots.txt")
        assert status == 200 and body == "User-agent: *\nDisallow: /\n"
        for path in ("", "games/running/", "games/running/frames/0.svg", "games/running/feed.atom", "nowhere"):
            _, body, headers = _get(served.url + path)
            assert headers.get("x-robots-tag") == "noindex, nofollow", path
        assert '<meta name="robots" content="noindex, nofollow">' in _get(served.url)[1]
    finally:
        served.stop()


@pytest.mark.slow
def test_the_served_site_welcomes_robots_by_default(server: WebServer) -> None:
    status, body, headers = _get(server.url + "robots.txt")
    assert status == 200 and body == "User-agent: *\nDisallow:\n" and "x-robots-tag" not in headers
