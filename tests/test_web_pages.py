"""The web site's pages, read as a visitor reads them (docs/web.md): every page of a game in every state --
forming, running with orders on file, paused, finished, private -- holds no password, no address, no orders before
their phase is processed, no private press, no grey press's sender and no GM's note; the site shows a phase the
moment it is processed; a private game opens only with its join password; the export writes the same pages.

The fast tests read the pages the export writes (the server's own page functions); those marked slow go through
uvicorn, as a browser would."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update
from web_games import GREY, ON_FILE, PAGE_PASSWORD, SECRETS, SITE, STATES, WHITE, play_every_state

from judge.config import Config, WebConfig
from judge.game import Games
from judge.game.names import UNNAMED
from judge.store import Player, open_database
from judge.testing.mail_rig import Judge, start_game
from judge.testing.tables import full_games
from judge.web.export import export_site
from judge.web.server import WebServer
from judge.web.site import Site


def _pages(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): p.read_text(encoding="utf-8")
        for p in sorted(folder.rglob("*"))
        if p.suffix in (".html", ".atom")
    }


def test_no_page_of_a_game_in_any_state_shows_a_secret(web_export: Path) -> None:
    """Passwords, the players' addresses, private press, the GM's note and the orders on file for the phase under
    way: on none of the pages, in none of the states."""
    pages = _pages(web_export)
    assert {f"games/{state}/index.html" for state in STATES[:-1]} <= set(pages)
    for name, text in pages.items():
        for secret in (*SECRETS, ON_FILE, ON_FILE.lower()):
            assert secret not in text, (name, secret)


def test_a_running_games_page_shows_its_phases_players_broadcasts_and_settings(web_export: Path) -> None:
    page = (web_export / "games" / "running" / "index.html").read_text(encoding="utf-8")
    assert "<h1>running</h1>" in page and "Spring 1902 Movement" in page
    assert 'href="phases/0.html"' in page and 'href="phases/1.html"' in page
    assert 'src="frames/1.svg"' in page and 'alt="Map of running after Fall 1901 Movement' in page
    assert "France Player" in page and "The Gamesmaster" in page
    assert f"From Germany, during Fall 1901 Movement</h3>\n<pre>{WHITE}" in page
    assert f"Unsigned (grey press), during Fall 1901 Movement</h3>\n<pre>{GREY}" in page
    assert not re.search(r"From England", page)  # the grey message's sender
    assert "press.type" in page and "Supply centres over the years" in page
    assert 'href="../../variants/standard.html"' in page


def test_a_phases_page_carries_its_results_as_the_mail_gave_them_with_its_orders(web_export: Path) -> None:
    page = (web_export / "games" / "running" / "phases" / "0.html").read_text(encoding="utf-8")
    assert ":: Phase: S1901M" in page and "France:   A Par - Bur" in page
    assert 'rel="next" href="1.html"' in page and 'src="../frames/0.svg"' in page
    assert (web_export / "games" / "running" / "frames" / "0.svg").read_text().startswith("<svg")


def test_the_forming_paused_and_finished_games_say_so(web_export: Path) -> None:
    forming = (web_export / "games" / "forming" / "index.html").read_text(encoding="utf-8")
    assert "2 of 7 players joined: <bdi>Austria Hopeful</bdi>, <bdi>England Hopeful</bdi>." in forming
    assert 'src="frames/start.svg"' in forming
    paused = (web_export / "games" / "paused" / "index.html").read_text(encoding="utf-8")
    assert "paused: Spring 1902 Movement" in paused and "orders are due" not in paused
    finished = (web_export / "games" / "finished" / "index.html").read_text(encoding="utf-8")
    assert "The game is over (terminated)" in finished


def test_the_export_lists_a_private_game_by_name_and_writes_nothing_of_it(web_export: Path) -> None:
    index = (web_export / "index.html").read_text(encoding="utf-8")
    assert "<h2>closed</h2>" in index and "A private game" in index
    assert 'href="games/closed/' not in index
    assert not (web_export / "games" / "closed").exists()


def test_the_feed_is_atom_with_an_entry_a_processed_phase(web_export: Path) -> None:
    root = ET.parse(web_export / "games" / "running" / "feed.atom").getroot()
    atom = "{http://www.w3.org/2005/Atom}"
    assert root.tag == f"{atom}feed"
    for required in ("id", "title", "updated", "author"):
        assert root.find(f"{atom}{required}") is not None
    entries = root.findall(f"{atom}entry")
    assert [e.findtext(f"{atom}title") for e in entries] == [
        "running: Fall 1901 Movement",
        "running: Spring 1901 Movement",
    ]
    for entry in entries:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", entry.findtext(f"{atom}updated") or "")
        assert ":: Judge: TEST" in (entry.findtext(f"{atom}content") or "")


def test_the_variant_pages_and_the_help_ship_with_the_package(web_export: Path) -> None:
    standard = (web_export / "variants" / "standard.html").read_text(encoding="utf-8")
    assert "<h1>" in standard and standard.count("<img") == 1 and 'src="standard.svg"' in standard
    assert (web_export / "variants" / "hepta.svg").read_text(encoding="utf-8").startswith("<svg")
    assert "SIGNON" in (web_export / "help.html").read_text(encoding="utf-8")


def test_results_mail_links_to_its_phase_and_the_games_page_when_the_judge_has_a_base_url(tmp_path: Path) -> None:
    """Issue 41: a results mail links to its own phase's page (the map with the orders drawn), not only the game's."""
    config = Config(address="judge@example.org", name="testjudge", pictures=False,
                    web=WebConfig(base_url="https://judge.example.org/"))  # fmt: skip
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"), config)
    start_game(judge)
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    (results, *_) = judge.outbound(kind="result")
    body = results.get_body(("plain",))
    assert body is not None and "The game on the web: https://judge.example.org/games/alpha/" in body.get_content()
    assert "These results on the web: https://judge.example.org/games/alpha/phases/0.html\n" in body.get_content()


# --- through the server ------------------------------------------------------------------------------------------


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Games, WebServer]]:
    games = Games(open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}"))
    play_every_state(games)
    server = WebServer(Site(games, SITE), "127.0.0.1", 0)
    assert server.start()
    yield games, server
    server.stop()


def _get(url: str, opener: urllib.request.OpenerDirector | None = None) -> tuple[int, str]:
    try:
        with (opener or urllib.request.build_opener()).open(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


@pytest.mark.slow
def test_the_served_pages_are_the_exported_pages_and_hold_no_secret(
    served: tuple[Games, WebServer], tmp_path: Path
) -> None:
    games, server = served
    export_site(games, SITE, tmp_path / "out")
    for name, text in _pages(tmp_path / "out").items():
        status, body = _get(server.url + name)
        if name == "index.html":  # a private game: the export names it, the judge links to its password form
            text = text.replace("(on the judge's own site)", '(<a href="games/closed/index.html">open</a>)')
            body = re.sub(r'<form class="filter".*?</form>\n', "", body, flags=re.S)  # the served list's filter
        assert status == 200 and body == text, name
        for secret in (*SECRETS, ON_FILE):
            assert secret not in body


@pytest.mark.slow
def test_a_page_shows_a_phase_the_moment_it_is_processed(served: tuple[Games, WebServer]) -> None:
    games, server = served
    assert "Spring 1902 Movement" in _get(server.url + "games/running/")[1]
    assert _get(server.url + "games/running/phases/2.html")[0] == 404
    games.adjudication.process("running")
    page = _get(server.url + "games/running/")[1]
    assert "Fall 1902 Movement" in page and 'href="phases/2.html"' in page
    status, phase = _get(server.url + "games/running/phases/2.html")
    assert status == 200 and "Bur - Gas" in phase  # processed now: France's order is public
    games.talk.post_press("running", "Italy", ["*"], "Italy speaks up", grey=False)
    assert "Italy speaks up" in _get(server.url + "games/running/")[1]
    games.controls.rollback("running", 1)
    page = _get(server.url + "games/running/")[1]
    assert 'href="phases/1.html"' not in page and 'href="phases/0.html"' in page


@pytest.mark.slow
def test_a_private_game_shows_nothing_without_its_page_password(served: tuple[Games, WebServer]) -> None:
    """Issue 41: the page password, not the join password (which lets an outsider JOIN a forming game)."""
    _, server = served
    for path in ("", "index.html", "phases/0.html", "frames/0.svg", "feed.atom"):
        status, body = _get(f"{server.url}games/closed/{path}")
        assert status == 403 and "Page password" in body and "Gamesmaster" not in body and "S1901M" not in body
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    for wrong in ("guess", "sekret-join"):  # the join password opens nothing on the web
        with pytest.raises(urllib.error.HTTPError) as refused:
            browser.open(f"{server.url}games/closed/", data=urllib.parse.urlencode({"password": wrong}).encode())
        assert refused.value.code == 403
    right = urllib.parse.urlencode({"password": PAGE_PASSWORD}).encode()
    with browser.open(f"{server.url}games/closed/", data=right, timeout=30) as answer:
        page = answer.read().decode("utf-8")
    assert "<h1>closed</h1>" in page and "The Gamesmaster" in page
    (cookie,) = list(jar)
    assert cookie.path == "/games/closed/" and "sekret" not in cookie.value
    assert _get(f"{server.url}games/closed/phases/0.html", browser)[0] == 200
    assert _get(f"{server.url}games/running/", browser)[0] == 200
    forged = urllib.request.build_opener()
    forged.addheaders = [("Cookie", f"{cookie.name}={'0' * len(cookie.value or '')}")]
    assert _get(f"{server.url}games/closed/", forged)[0] == 403


@pytest.mark.slow
def test_the_daemon_serves_the_site_and_stops_it_with_itself(tmp_path: Path) -> None:
    from judge.config import OutboundConfig, SmtpIntakeConfig
    from judge.serve import Daemon

    config = Config(
        database_url=f"sqlite:///{tmp_path / 'judge.sqlite'}",
        smtp_intake=SmtpIntakeConfig(enabled=False),
        outbound=OutboundConfig(outbox_dir=str(tmp_path / "outbox")),
        web=WebConfig(port=0),
    )
    daemon = Daemon(config)
    daemon.start()
    try:
        assert daemon.web is not None
        status, page = _get(daemon.web.url)
        assert status == 200 and "No game yet" in page
    finally:
        daemon.shutdown()
    assert not daemon.web.thread.is_alive()


def test_the_gm_marks_a_game_private_by_mail_and_opens_it_again(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'j.sqlite'}")
    judge = Judge(db)
    start_game(judge)
    assert "Set web.private=on." in judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET web.private=on")
    assert Games(db).reads.public_game("alpha").private
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET web.private=off")
    assert not Games(db).reads.public_game("alpha").private
    assert "web.private (on or off)" in judge.mail("someone@example.org", "HELP SET")


def test_a_name_that_holds_an_address_is_never_shown(tmp_path: Path) -> None:
    """Players registered with their address as their name (before REGISTER refused it; written here into the
    database as such an old record stands): the pages show "a player" where the name would be, and no address."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    games = Games(db)
    seats = full_games(games, 1)
    with db.transaction() as s:
        s.execute(update(Player).where(Player.address != "gm@example.org").values(name=Player.address))
    out = tmp_path / "site"
    export_site(games, SITE, out)
    page = (out / "games" / seats[0].game / "index.html").read_text(encoding="utf-8")
    assert UNNAMED in page
    for name, text in _pages(out).items():
        assert "@example.org" not in text, name
