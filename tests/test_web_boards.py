"""Issue 41, "For players": CW Heptadiplomacy's map one board at a time, chosen in the page without a reload (and
each board a link of its own without scripts); the centre chart a line a player's side, its key whole, in the
map's colours (Hoplite Wars' sides as the map draws them); the stepper's phases named as the pages name them
(`Spring 450 BC Movement`); the stepper from the opening position; the board chosen shown through mapview.js
(zoomed, its provinces named on hover); the players' table in the chart's colours; nothing wider than the
screen at 1200 and 360 px. Games played by mail through the real processor (judge/testing/mail_rig.py), served by
the real server, read by headless Chromium (tests/test_web_browser.py) and plain HTTP."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from test_one_count import _hoplite_to_the_sack
from test_players_not_powers import COUNTRIES, MAJORS, _game
from test_web_browser import COLOURS, _contrast, _page, browser  # noqa: F401 (the Chromium fixture)

from judge.game import Games
from judge.store import open_database
from judge.testing.mail_rig import Judge
from judge.variants import get_variant
from judge.web.export import export_site
from judge.web.frames import map_colours, side_colour
from judge.web.pages import SiteInfo
from judge.web.server import WebServer
from judge.web.site import Site

SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")


def _process(judge: Judge, game: str) -> None:
    judge.mail("gm@example.org", f"SIGNON {game} MASTER gmpass\nPROCESS")


THE_OTHER_VARIANTS = (
    ("mpl", "multiplomacy", (["3 A Par - Bur", "F Bre - Eng"], ["A Bur - Mun"])),
    ("mu1", "multiplicity1", (["Build 2A Par", "Build A/F Bre"], ["2A Par - Bur"])),
    ("mu2", "multiplicity2", (["Build A Par", "Build F Bre", "Build A Mar"], ["A Par - Bur"])),
    ("mad", "mad", (["Centre Bur", "Centre Par", "Centre Pic"], ["Place 2A Bur", "Place F Pic"], ["2A Bur - Mun"])),
)
"""a game of each variant the Hepta and Hoplite games leave, a phase or three into it: their pages are held to a
phone's width too (issue 41: "each page ... at 1200 and 360 px for every variant")"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judge]:
    """`hep`: CW Heptadiplomacy option A after its first year (Austria took Serbia on board 2); `hop`: Hoplite
    Wars to the sack of Delphi in Autumn 450 BC (test_one_count); `THE_OTHER_VARIANTS`."""
    folder = tmp_path_factory.mktemp("boards")
    db = open_database(f"sqlite:///{folder / 'judge.sqlite'}")
    judge = Judge(db)
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 1:vie - 1:gal\nA 2:bud - 2:ser")
    _process(judge, "hep")
    judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 2:ser H")
    _process(judge, "hep")
    _hoplite_to_the_sack(judge)
    for game, variant, phases in THE_OTHER_VARIANTS:
        _game(judge, game, variant, COUNTRIES)
        for orders in phases:
            judge.mail("france@example.org", f"SIGNON {game} France pwfrance\n" + "\n".join(orders))
            _process(judge, game)
    yield judge
    db.dispose()


@pytest.fixture(scope="module")
def site(played: Judge) -> Iterator[str]:
    server = WebServer(Site(Games(played.db, played.clock), SITE), "127.0.0.1", 0)
    assert server.start()
    yield server.url
    server.stop()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:
            return answer.status, answer.read().decode("utf-8")
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode("utf-8")


def _chart(page: str) -> tuple[dict[str, str], list[str]]:
    """The chart's lines (side -> colour) and its key's entries, from a game's page."""
    lines = {unescape(m[1]): m[2] for m in re.finditer(r'<polyline data-side="([^"]*)"[^>]* stroke="([^"]*)"', page)}
    key = re.search(r'<ul class="plain chart-key"[^>]*>(.*?)</ul>', page, re.S)
    assert key is not None
    return lines, [unescape(m).strip() for m in re.findall(r"</svg>([^<]*)</li>", key[1])]


# --- without a browser -------------------------------------------------------------------------------------------


def test_each_hepta_board_of_each_phase_is_a_picture_of_its_own(site: str) -> None:
    """Without scripts every board is reachable: the page links each board's picture (and the whole map's), and
    each answers with that board alone; a board the map has not answers 404."""
    status, page = _get(site + "games/hep/")
    assert status == 200
    boards = re.findall(r'<a href="(frames/board(\d)/(\d+)\.svg)" data-board="\2"', page)
    assert [b[1] for b in boards] == [str(n) for n in range(1, 8)]
    assert {b[2] for b in boards} == {"1"}  # the map now: after the second phase (index 1)
    assert '<a href="frames/1.svg" data-board="">All 7 boards</a>' in page
    for path, number, _ in boards:
        status, svg = _get(site + "games/hep/" + path)
        assert status == 200 and svg.startswith("<svg")
        assert re.findall(r">Board (\d)</text>", svg) == [number]
    assert len(re.findall(r">Board \d</text>", _get(site + "games/hep/frames/1.svg")[1])) == 7
    for start in range(1, 8):
        status, svg = _get(site + f"games/hep/frames/board{start}/start.svg")
        assert status == 200 and re.findall(r">Board (\d)</text>", svg) == [str(start)]
    for wrong in ("board8/1.svg", "board0/1.svg", "board01/1.svg", "board1/9.svg", "board-1/1.svg"):
        assert _get(site + "games/hep/frames/" + wrong)[0] == 404, wrong
    assert _get(site + "games/hop/frames/board1/1.svg")[0] == 404  # Hoplite Wars is one board


def test_a_boards_picture_names_its_own_provinces_on_hover(site: str) -> None:
    """A board shown alone names its provinces on hover as the whole map does (`Board 3: Paris`), its own board's
    only, and its opening position too."""
    for path in ("frames/board3/1.svg", "frames/board3/start.svg"):
        names = re.findall(r'<use href="#p-\w+"><title>([^<]+)</title></use>', _get(site + "games/hep/" + path)[1])
        assert "Board 3: Paris" in names and "Board 3: Serbia" in names, path
        assert all(n.startswith("Board 3: ") for n in names), path
    whole = re.findall(r"<title>(Board \d): [^<]+</title></use>", _get(site + "games/hep/frames/1.svg")[1])
    assert sorted(set(whole)) == [f"Board {n}" for n in range(1, 8)]


def test_the_export_holds_each_board_of_each_phase_as_served(played: Judge, site: str, tmp_path: Path) -> None:
    export_site(Games(played.db, played.clock), SITE, tmp_path / "out")
    frames = tmp_path / "out" / "games" / "hep" / "frames"
    assert sorted(p.name for p in frames.iterdir() if p.is_dir()) == [f"board{n}" for n in range(1, 8)]
    assert sorted(p.name for p in (frames / "board4").iterdir()) == ["0.svg", "1.svg", "start.svg"]
    for name in ("0.svg", "1.svg", "start.svg"):
        assert (frames / "board4" / name).read_text(encoding="utf-8") == _get(f"{site}games/hep/frames/board4/{name}")[
            1
        ]
    one_board = [p.name for p in (tmp_path / "out" / "games" / "hop" / "frames").iterdir()]
    assert "start.svg" in one_board and not [name for name in one_board if name.startswith("board")]


def test_the_hepta_chart_has_a_line_a_player_and_its_key_whole(site: str) -> None:
    """Today (before issue 41) the chart had 49 lines, one a board-nation, and its key was cut at the SVG's edge:
    a line a player (rule 2: a player holds his country on every board), each named in a key outside the
    picture."""
    lines, key = _chart(_get(site + "games/hep/")[1])
    assert sorted(lines) == sorted(COUNTRIES) == sorted(key)
    assert len(set(lines.values())) == 7


@pytest.mark.parametrize("game", ["hop", "hep"])
def test_the_players_table_gives_each_side_the_charts_colour(site: str, game: str) -> None:
    """The players' table and the chart name a side by one colour, the map's (a Hoplite Wars side its Major's)."""
    page = _get(site + f"games/{game}/")[1]
    lines, _ = _chart(page)
    rows = re.findall(
        r'<tr><td><span class="swatch" style="background:([^"]+)" aria-hidden="true"></span> ([^<]+)</td>', page
    )
    assert sorted(unescape(side) for _, side in rows) == sorted(lines)
    for colour, side in rows:
        assert lines[unescape(side)] == colour, side


@pytest.mark.parametrize("game", ["hop", "hep"])
def test_the_chart_draws_each_side_in_its_colour_on_the_map(site: str, game: str) -> None:
    """Issue 41: "the chart's colours as the map's". Each side's line is the colour the map's own key gives the
    side (a Hoplite Wars side's Major, the power it is named after; a CW Heptadiplomacy player), in the picture of
    the whole map now."""
    page = _get(site + f"games/{game}/")[1]
    lines, key = _chart(page)
    variant = "hoplite" if game == "hop" else "hepta"
    sides = {s.label: s.name for s in get_variant(variant).sides()}
    assert set(lines) == set(sides) == set(key)
    now = re.search(r'<a href="(frames/\d+\.svg)" data-board="">|<img id="map" src="(frames/\d+\.svg)"', page)
    assert now is not None
    svg = _get(site + f"games/{game}/" + (now[1] or now[2]))[1]
    pattern = r'<rect class="lgs"[^>]* fill="(#[0-9a-f]{6})"/><text[^>]*>([^:<]+):'
    on_map = {m[2]: m[1] for m in re.finditer(pattern, svg)}
    for side, name in sides.items():
        assert lines[side] == on_map[name], side
    assert len(set(lines.values())) == len(lines)


def test_the_stepper_names_each_phase_as_the_pages_do_from_the_opening_position(site: str) -> None:
    """Issue 41: "the stepper's phase names as the pages write them": `Winter 451 BC Adjustments`, not a code;
    and the stepper starts from the opening position."""
    page = _get(site + "games/hop/")[1]
    steps = re.search(r'<ul class="plain steps">(.*?)</ul>', page, re.S)
    assert steps is not None
    names = [unescape(n) for n in re.findall(r">([^<]+)</a></li>", steps[1])]
    assert names[0] == "The opening position"
    assert names[1:4] == ["Winter 451 BC Adjustment", "Spring 450 BC Movement", "Autumn 450 BC Movement"]
    assert not re.search(r"-4\d\d\b", page)  # no year as the engine counts it, below zero
    for index, name in enumerate(names[1:]):  # each as its own page's heading writes it
        phase = _get(site + f"games/hop/phases/{index}.html")[1]
        heading = re.search(r"<h1><bdi>hop</bdi>: ([^<]+)</h1>", phase)
        assert heading is not None and unescape(heading[1]) == name
        assert not re.search(r"-4\d\d\b", phase)
    assert re.search(r'<a href="index.html">The opening position</a>', steps[1])


# --- in Chromium -------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_hepta_board_chooser_shows_one_board_at_a_time_without_a_reload(browser: Any, site: str) -> None:  # noqa: F811
    page = _page(browser, width=1200)
    page.goto(site + "games/hep/")
    assert page.get_attribute("#map", "src") == "frames/board1/1.svg"
    page.evaluate("window.unreloaded = true")
    page.click("nav.boards >> text=Board 3")
    assert page.get_attribute("#map", "src") == "frames/board3/1.svg"
    assert page.get_attribute("a[data-board='3']", "aria-current") == "true"
    assert page.get_attribute("a[data-board='1']", "aria-current") is None
    assert "board 3" in page.inner_text("#map-caption")
    page.wait_for_function("document.getElementById('map').complete")
    assert page.evaluate("document.getElementById('map').naturalWidth") > 300
    page.click("#step-prev")  # the board chosen stays chosen from phase to phase
    assert page.get_attribute("#map", "src") == "frames/board3/0.svg"
    assert page.get_attribute("a[data-board='5']", "href") == "frames/board5/0.svg"
    page.click("nav.boards >> text=All 7 boards")
    assert page.get_attribute("#map", "src") == "frames/0.svg"
    assert page.evaluate("window.unreloaded") is True  # the same page throughout


@pytest.mark.slow
@pytest.mark.parametrize("path", ["games/hep/", "games/hep/phases/1.html"])
def test_the_chosen_board_is_the_map_in_the_page_zoomed_and_named(browser: Any, site: str, path: str) -> None:  # noqa: F811
    """The chooser and mapview.js together: the board chosen is the SVG put in the page (its provinces named on
    hover, `open the picture` opening that board), and the zoom buttons zoom it."""
    page = _page(browser, width=1200)
    page.goto(site + path)
    root = "" if path.endswith("/") else "../"
    page.click("nav.boards >> text=Board 4")
    page.wait_for_function(
        "document.querySelector('.mapview svg.map-svg use > title') && "
        "document.querySelector('.mapview svg.map-svg use > title').textContent.startsWith('Board 4: ')"
    )
    names = page.evaluate(
        "[...document.querySelectorAll('.mapview svg.map-svg use > title')].map((t) => t.textContent)"
    )
    assert "Board 4: Vienna" in names and all(n.startswith("Board 4: ") for n in names)
    assert page.get_attribute(".mapbar a", "href") == root + "frames/board4/1.svg"
    assert page.get_attribute(".mapview svg.map-svg", "aria-label", timeout=5000).startswith("Board 4: ")
    before = page.evaluate("document.querySelector('.mapview svg.map-svg').getBoundingClientRect().width")
    page.click(".mapbar >> text=Zoom in")
    assert page.evaluate("document.querySelector('.mapview svg.map-svg').getBoundingClientRect().width") > before
    assert page.locator(".mapview svg.map-svg").count() == 1  # one map in the page, not a board beside another


@pytest.mark.slow
def test_without_scripts_each_hepta_board_is_a_link_to_its_picture(browser: Any, site: str) -> None:  # noqa: F811
    page = _page(browser, script=False)
    page.goto(site + "games/hep/")
    assert page.get_attribute("#map", "src") == "frames/board1/1.svg"
    page.click("nav.boards >> text=Board 6")
    assert page.url.endswith("games/hep/frames/board6/1.svg")


@pytest.mark.slow
@pytest.mark.parametrize("width", [1200, 360])
@pytest.mark.parametrize(
    "path",
    ["games/hep/", "games/hop/", "games/hep/phases/1.html", "games/hop/phases/2.html"]
    + [f"games/{game}/{page}" for game, *_ in THE_OTHER_VARIANTS for page in ("", "phases/1.html")],
)
def test_nothing_is_wider_than_the_screen_and_the_charts_key_is_whole(browser: Any, site: str, path: str,  # noqa: F811
                                                                     width: int) -> None:  # fmt: skip
    page = _page(browser, width=width)
    page.goto(site + path)
    page.wait_for_function("document.getElementById('map').complete")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wider = page.evaluate(
        """() => [...document.querySelectorAll("main *")].filter((el) => {
             const box = el.getBoundingClientRect();
             return box.width > 0 && (box.right > document.documentElement.clientWidth + 0.5 || box.left < -0.5)
               && !el.closest("details:not([open])");
           }).map((el) => el.tagName + "." + el.className)"""
    )
    assert wider == []
    if path in ("games/hep/", "games/hop/"):
        key = page.evaluate(
            """() => [...document.querySelectorAll(".chart-key li")].map((li) => [li.scrollWidth <= li.clientWidth,
                 li.getBoundingClientRect().right <= document.documentElement.clientWidth])"""
        )
        assert len(key) == 7 and all(a and b for a, b in key), key


@pytest.mark.slow
@pytest.mark.parametrize("path", ["games/hep/", "games/hop/", "games/hep/phases/1.html"])
def test_the_pages_pass_basic_accessibility(browser: Any, site: str, path: str) -> None:  # noqa: F811
    """As every other page (tests/test_web_browser.py): each picture its alternative text, each text's colour
    contrasting with its background (WCAG AA, 4.5:1), the chooser and the chart's key included."""
    page = _page(browser)
    page.goto(site + path)
    assert page.evaluate("[...document.images].every((i) => i.alt.trim().length > 0)")
    texts = page.evaluate(COLOURS)
    assert any(tag == "A" for tag, _, _ in texts)
    for tag, colour, back in texts:
        assert _contrast(tuple(colour), tuple(back)) >= 4.5, (tag, colour, back)


def test_a_side_has_one_colour_whichever_of_its_powers_names_it() -> None:
    """One rule for a side's colour (`side_colour`), read by the players' table and the chart: the map's colour of
    the side's lead power, solid. A Hoplite Wars side named by its Minor first is still its Major's colour (the map
    stripes the Minor; the table and the chart never do); a Hepta player's board-nations are one colour."""
    hoplite = map_colours("hoplite", None)
    sparta = side_colour(hoplite, ("Sparta", "Elatea"))
    assert side_colour(hoplite, ("Elatea", "Sparta")) == side_colour(hoplite, ("Elatea",)) == sparta
    assert sparta == hoplite.of("Sparta").strong and hoplite.of("Elatea").hatch is not None
    assert len({side_colour(hoplite, (major,)) for major in MAJORS}) == 7
    hepta = map_colours("hepta", None)
    assert {side_colour(hepta, (f"{board}:England",)) for board in range(1, 8)} == {hepta.of("1:England").strong}
