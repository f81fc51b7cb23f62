"""Issue 41, "For players": what DPjudge's and webDiplomacy's pages give a player, on the served site.

- deadlines in the reader's time zone (UTC kept for the page without scripts) and the time left;
- each player's side with its colour on the map, its centres and units, counted as the results count them;
- whether a side's orders are in -- never what they are -- only where the GM sets `web.orders_in`;
- a key to the map's marks, each province's name on hover, zoom and pan in the page (the page still works without
  scripts); nothing on the game page wider than the screen at 1200 and 360 px.
"""

from __future__ import annotations

import os
import re
import shutil
import urllib.request
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from web_games import ON_FILE, play_every_state

from judge.game import Games
from judge.picture.palette import palette_for
from judge.render.tally import holdings
from judge.store import open_database
from judge.variants import get_variant
from judge.web.export import export_site
from judge.web.pages import SiteInfo
from judge.web.server import WebServer
from judge.web.site import Site

SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")
KEY_WORDS = ("a move (or a retreat) that succeeded", "an order that failed", "a support, to the middle", "a convoy",
             "a dislodged unit", "a supply centre nobody owns", "a removal or a disband")  # fmt: skip
CHROMIUM = os.environ.get("JUDGE_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Games, str]]:
    folder = tmp_path_factory.mktemp("players")
    games = Games(open_database(f"sqlite:///{folder / 'judge.sqlite'}"))
    play_every_state(games)
    server = WebServer(Site(games, SITE), "127.0.0.1", 0)
    assert server.start()
    yield games, server.url
    server.stop()


def _get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        text: str = answer.read().decode("utf-8")
        return text


def _rows(page: str) -> dict[str, list[str]]:
    """The players' table: side -> its cells (tags stripped), and the swatch's colour first."""
    table = page[page.index('<table class="players">') :]
    table = table[: table.index("</table>")]
    rows = {}
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]:
        colour = re.search(r'class="swatch" style="background:(#[0-9a-f]{6})"', row)
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, re.S)]
        rows[cells[0]] = [colour.group(1) if colour else "", *cells[1:]]
    return rows


def test_each_player_has_the_maps_colour_and_the_results_count_of_centres_and_units(
    served: tuple[Games, str],
) -> None:
    """Issue 41: each power's colour, centres and units beside its player, one line a side, counted by
    `judge.render.tally` as the results count them."""
    games, url = served
    rows = _rows(_get(url + "games/running/"))
    game = games.reads.public_game("running")
    assert game.position is not None
    held = holdings("standard", game.position)
    palette = palette_for(get_variant("standard").rules(None).board)
    assert set(rows) == {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}
    for side, (colour, player, centres, units, *_) in rows.items():
        assert colour == palette.of(side).strong
        assert player == f"{side} Player of running"
        assert centres == str(held[side].centres // 2) and units == str(held[side].units // 2)
    assert rows["Russia"][2:4] == ["4", "4"] and rows["France"][2:4] == ["3", "3"]


def test_orders_in_are_shown_only_where_the_gm_allows_and_never_what_they_are(served: tuple[Games, str]) -> None:
    """Issue 41: whether a power's orders are in, where the GM allows it (`web.orders_in`, off by default)."""
    games, url = served
    page = _get(url + "games/running/")
    assert "Orders</th>" not in page and "not in" not in page  # off: nothing of it, France's orders are on file
    games.setup.set_by_mail("running", [("web.orders_in", "on")])
    page = _get(url + "games/running/")
    rows = _rows(page)
    assert rows["France"][4] == "in"
    assert {side for side, cells in rows.items() if cells[4] == "not in"} == set(rows) - {"France"}
    assert ON_FILE not in page and "Gas" not in page.split('id="players-heading"')[1]  # never what they are
    games.orders.submit("running", "Germany", ["A Mun - Nowhere"])  # orders with an error are not in
    games.orders.submit("running", "Italy", ["A Ven H"])
    rows = _rows(_get(url + "games/running/"))
    assert rows["Germany"][4] == "not in" and rows["Italy"][4] == "in"
    assert "Orders</th>" not in _get(url + "games/paused/")  # no orders are due in a paused game
    games.setup.set_by_mail("running", [("web.orders_in", "off")])
    assert "Orders</th>" not in _get(url + "games/running/")


def test_a_deadline_is_written_in_utc_for_the_page_without_scripts(served: tuple[Games, str]) -> None:
    _, url = served
    page = _get(url + "games/running/")
    found = re.search(r'<time class="deadline" datetime="(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)">([^<]+ UTC)</time>', page)
    assert found is not None
    assert 'src="../../times.js"' in page and "text/javascript" in _content_type(url + "times.js")


def _content_type(url: str) -> str:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return str(answer.headers["Content-Type"])


def test_the_game_and_phase_pages_carry_a_key_to_the_maps_marks(served: tuple[Games, str]) -> None:
    """Issue 41: a key to the map's marks, drawn by the picture's own functions."""
    _, url = served
    for path in ("games/running/", "games/running/phases/1.html"):
        page = _get(url + path)
        key = page[page.index('<details class="key">') :]
        for words in KEY_WORDS:
            assert words in key, (path, words)
        assert 'class="x"' in key and 'class="os"' in key and 'class="oc"' in key and 'class="oh"' in key


def test_the_key_shows_a_towns_mark_only_where_the_board_has_towns(served: tuple[Games, str]) -> None:
    games, url = served
    games.seating.create_game("towns", "hoplite", "gm@players.test", "sekret-join", seed=10)
    assert "a town: half a supply centre" in _get(url + "games/towns/")
    assert "a town:" not in _get(url + "games/running/")


def test_every_province_of_a_frame_names_itself_on_hover(served: tuple[Games, str]) -> None:
    _, url = served
    svg = _get(url + "games/running/frames/1.svg")
    names = re.findall(r'<use href="#p-(\w+)"><title>([^<]+)</title></use>', svg)
    board = get_variant("standard").rules(None).board
    assert sorted(names) == sorted((p.id, p.name) for p in board.provinces.values())
    assert ("nth", "North Sea") in names
    assert re.findall(r'<use href="#p-\w+"><title>', _get(url + "games/forming/frames/start.svg"))


def test_on_seven_boards_each_province_is_named_with_its_board(served: tuple[Games, str]) -> None:
    games, url = served
    games.seating.create_game("seven", "hepta", "gm@players.test", "sekret-join", seed=9)
    names = re.findall(r"<title>([^<]+)</title></use>", _get(url + "games/seven/frames/start.svg"))
    assert "Board 1: Paris" in names and "Board 7: North Sea" in names and len(names) == 7 * 76


# --- in Chromium --------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


def _page(browser: Any, width: int = 1200, script: bool = True, zone: str = "UTC") -> Any:
    context = browser.new_context(viewport={"width": width, "height": 800}, java_script_enabled=script,
                                  timezone_id=zone, locale="en-GB")  # fmt: skip
    return context.new_page()


@pytest.mark.slow
def test_the_deadline_reads_in_the_readers_zone_with_the_time_left(browser: Any, served: tuple[Games, str]) -> None:
    games, url = served
    deadline = games.reads.public_game("running").deadline
    assert deadline is not None
    page = _page(browser, zone="Asia/Tokyo")
    page.goto(url + "games/running/")
    shown = page.inner_text("time.deadline")
    assert "GMT+9" in shown or "JST" in shown, shown
    assert page.get_attribute("time.deadline", "title") == re.sub(r"<[^>]+>", "", _utc(url))
    minutes = int((deadline.replace(tzinfo=UTC) - datetime.now(UTC)).total_seconds() // 60)  # stored in UTC
    days, hours = minutes // 1440, minutes // 60 % 24
    left = page.inner_text(".left")
    if minutes <= 0:
        assert left == " (passed)"
    else:
        assert left.endswith(" left)") and (f"{days} day" in left if days else f"{hours} hour" in left), left
    plain = _page(browser, script=False, zone="Asia/Tokyo")
    plain.goto(url + "games/running/")
    assert plain.inner_text("time.deadline").endswith(" UTC")


def _utc(url: str) -> str:
    found = re.search(r'<time class="deadline" datetime="[^"]+">([^<]+)</time>', _get(url + "games/running/"))
    assert found is not None
    return found.group(1)


@pytest.mark.slow
def test_the_map_names_provinces_on_hover_and_zooms_and_pans(browser: Any, served: tuple[Games, str]) -> None:
    _, url = served
    page = _page(browser)
    page.goto(url + "games/running/")
    page.wait_for_selector(".mapview svg.map-svg")
    assert page.evaluate("document.querySelector('.mapview svg.map-svg title') !== null")
    # the province under the pointer is the one whose name shows: the element hit at Paris's label is its outline
    hit = page.evaluate(
        """() => { const svg = document.querySelector('.mapview svg.map-svg');
        const use = svg.querySelector('.hv use[href="#p-par"]');
        use.scrollIntoView({block: 'center'}); const box = use.getBoundingClientRect();
        const el = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return el.closest('use') ? el.closest('use').querySelector('title').textContent : el.tagName; }"""
    )
    assert hit == "Paris"
    before = page.evaluate("document.querySelector('.mapview svg.map-svg').getBoundingClientRect().width")
    page.click("text=Zoom in")
    after = page.evaluate("document.querySelector('.mapview svg.map-svg').getBoundingClientRect().width")
    assert after == pytest.approx(before * 1.5, rel=0.01)
    moved = page.evaluate("document.querySelector('.mapview svg.map-svg').style.transform")
    box = page.locator(".mapview").bounding_box()
    page.mouse.move(box["x"] + 100, box["y"] + 100)
    page.mouse.down()
    page.mouse.move(box["x"] + 160, box["y"] + 130)
    page.mouse.up()
    assert page.evaluate("document.querySelector('.mapview svg.map-svg').style.transform") != moved
    page.click("text=Whole map")
    assert page.evaluate("document.querySelector('.mapview svg.map-svg').getBoundingClientRect().width") == (
        pytest.approx(before, rel=0.01)
    )
    page.click("#step-prev")  # the stepper swaps the map in the page, names and all
    page.wait_for_function("document.querySelector('.mapview svg.map-svg') && "
                           "document.getElementById('map').getAttribute('src') === 'frames/0.svg'")  # fmt: skip
    assert page.inner_text("#map-caption").startswith("After Spring 1901 Movement")


@pytest.mark.slow
def test_without_scripts_the_map_is_a_picture_that_opens_at_full_size(browser: Any, served: tuple[Games, str]) -> None:
    _, url = served
    page = _page(browser, script=False)
    page.goto(url + "games/running/")
    assert page.get_attribute("#map-link", "href") == "frames/1.svg"
    assert page.locator(".mapview").count() == 0 and page.is_visible("#map")
    page.click("summary:text('Key to the map')")
    assert page.is_visible("text=a support to hold, round the unit")


@pytest.mark.slow
def test_an_exported_folder_opened_from_the_disk_zooms_its_map_as_a_picture(
    browser: Any, served: tuple[Games, str], tmp_path: Path
) -> None:
    """Where the picture cannot be fetched (file://), the map stays an image and zooms all the same."""
    games, _ = served
    export_site(games, SITE, tmp_path)
    page = _page(browser)
    page.goto((tmp_path / "games" / "running" / "index.html").as_uri())
    page.wait_for_selector(".mapview img")
    page.click("text=Zoom in")
    assert "scale(1.5)" in page.evaluate("document.getElementById('map').style.transform")
    assert page.is_visible("#map") and page.locator(".mapview svg").count() == 0


@pytest.mark.slow
@pytest.mark.parametrize("width", [1200, 360])
@pytest.mark.parametrize("path", ["games/running/", "games/running/phases/1.html", "games/forming/"])
def test_nothing_on_the_game_page_is_wider_than_the_screen(
    browser: Any, served: tuple[Games, str], width: int, path: str
) -> None:
    games, url = served
    games.setup.set_by_mail("running", [("web.orders_in", "on")])
    page = _page(browser, width=width)
    page.goto(url + path)
    page.wait_for_selector(".mapview svg.map-svg")
    page.click("summary:text('Key to the map')")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wide = page.evaluate(
        """(width) => Array.from(document.querySelectorAll('main *'))
        .filter(e => !e.closest('.mapview') && !e.closest('.wide') && e.getBoundingClientRect().right > width + 1)
        .map(e => e.tagName + '.' + e.className)""",
        width,
    )
    assert wide == []
