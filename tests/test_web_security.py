"""The web site against an attacker and a careless cache (issue 41, "Security"), each item tried on the served site
-- uvicorn and Starlette as `judge serve` runs them -- or on the export, on SQLite and on PostgreSQL where the
database holds what is checked:

- an export into a folder that holds an earlier one leaves exactly the public site of now;
- a private game's pages open with its page password, never with its join password; guesses are limited per client
  and per game with growing waits, checked few at a time (bounded memory), a pass ends when the GM sets the page
  password again and expires;
- unlocked pages carry `Cache-Control: private, no-store` and `Vary: Cookie`;
- nothing private (press to some powers, orders on file, a note) changes what a stranger can measure of a page;
- every malformed path answers the site's own 404 page without a traceback; the lock form of a deep link posts to
  that page and opens it;
- the SQLite file and the outbox are the judge's user's alone;
- two judge processes on one database serve one site: one key, one count of guesses.
"""

from __future__ import annotations

import http.client
import logging
import os
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from web_games import PAGE_PASSWORD

from judge.clock import FakeClock
from judge.config import OutboundConfig
from judge.game import Games
from judge.game.web_access import PER_CLIENT, PER_GAME
from judge.mail.sender import Sender
from judge.store import open_database
from judge.testing.mail_rig import Judge, start_game
from judge.web.export import MANIFEST, ExportRefused, export_site
from judge.web.pages import SiteInfo
from judge.web.server import WebServer
from judge.web.site import HASHES_AT_ONCE, PASS_DAYS, Site

SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")
PRIVATE = {"cache-control": "private, no-store", "vary": "Cookie"}


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: str


@dataclass
class Reader:
    """A browser as the site sees it: a client address (given by the trusted local proxy's X-Forwarded-For, as
    uvicorn reads it), its cookies, no redirect followed unasked."""

    url: str
    address: str = "198.51.100.7"
    cookies: dict[str, str] = field(default_factory=dict)

    def ask(self, path: str, password: str | None = None, method: str | None = None) -> Answer:
        where = urlsplit(self.url)
        conn = http.client.HTTPConnection(where.hostname or "", where.port, timeout=60)
        headers = {"X-Forwarded-For": self.address}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if password is not None:
            body = urlencode({"password": password})
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method or ("POST" if body is not None else "GET"), path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for line in response.headers.get_all("set-cookie") or []:
            for name, morsel in SimpleCookie(line).items():
                self.cookies[name] = morsel.value
        conn.close()
        return Answer(response.status, {k.lower(): v for k, v in response.headers.items()}, text)


@dataclass
class Served:
    games: Games
    clock: FakeClock
    site: Site
    server: WebServer

    def reader(self, address: str = "198.51.100.7") -> Reader:
        return Reader(self.server.url, address)


@pytest.fixture
def served(every_state_url: str) -> Iterator[Served]:
    """The site of a database of the test's own holding `play_every_state`'s games, played by a `FakeClock` at its
    start that the test moves on (conftest's `every_state_url`: a copy, each test free to change it)."""
    clock = FakeClock()
    games = Games(open_database(every_state_url), clock)
    site = Site(games, SITE)
    server = WebServer(site, "127.0.0.1", 0)
    assert server.start()
    yield Served(games, clock, site, server)
    server.stop()
    games.db.dispose()


# --- the export ----------------------------------------------------------------------------------------------------


def test_an_export_over_an_earlier_one_leaves_exactly_the_public_site_of_now(
    every_state_sqlite_url: str, tmp_path: Path
) -> None:
    """Issue 41: a game made private since, a game's phase rolled back, a scratch file left by a crash: gone."""
    games = Games(open_database(every_state_sqlite_url))
    out = tmp_path / "site"
    export_site(games, SITE, out)
    assert (out / "games" / "running" / "phases" / "1.html").is_file()
    (out / "games" / "running" / ".index.html.99.tmp").write_text("half a page")
    games.setup.set_by_mail("paused", [("web.private", "on")])
    games.controls.rollback("running", 1)

    again = export_site(games, SITE, tmp_path / "fresh")
    done = export_site(games, SITE, out)
    fresh = {p.relative_to(tmp_path / "fresh") for p in (tmp_path / "fresh").rglob("*")}
    assert {p.relative_to(out) for p in out.rglob("*")} == fresh
    assert not (out / "games" / "paused").exists() and not (out / "games" / "running" / "phases" / "1.html").exists()
    assert done.files == again.files and done.removed > 0
    assert all((out / p).read_bytes() == (tmp_path / "fresh" / p).read_bytes() for p in fresh if (out / p).is_file())


def test_an_export_of_one_game_keeps_the_others_and_drops_a_private_one(
    every_state_sqlite_url: str, tmp_path: Path
) -> None:
    games = Games(open_database(every_state_sqlite_url))
    out = tmp_path / "site"
    export_site(games, SITE, out)
    games.setup.set_by_mail("paused", [("web.private", "on")])
    export_site(games, SITE, out, only="running")
    assert (out / "games" / "finished" / "index.html").is_file()  # another public game's pages stay
    assert not (out / "games" / "paused").exists()  # private now: not public, whichever game was exported


def test_an_export_refuses_a_folder_that_holds_other_files(tmp_path: Path) -> None:
    """The export removes what is not the site: so it never writes into a folder that is not an export already."""
    games = Games(open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}"))
    out = tmp_path / "home"
    out.mkdir()
    (out / "letters.txt").write_text("mine")
    with pytest.raises(ExportRefused, match="not a judge's web export"):
        export_site(games, SITE, out)
    assert (out / "letters.txt").read_text() == "mine" and not (out / MANIFEST).exists()


# --- the page password and its guesses -----------------------------------------------------------------------------


@pytest.mark.slow
def test_a_private_game_opens_with_its_page_password_and_never_with_its_join_password(served: Served) -> None:
    reader = served.reader()
    assert reader.ask("/games/closed/", "sekret-join").status == 403
    opened = reader.ask("/games/closed/", PAGE_PASSWORD)
    assert opened.status == 303 and opened.headers["location"] == "/games/closed/"
    assert reader.ask("/games/closed/").status == 200
    joiner = Judge(served.games.db)
    joiner.mail("newcomer@players.test", "REGISTER New Comer pw-of-mine")
    assert "wrong password" in joiner.mail("newcomer@players.test", f"JOIN forming {PAGE_PASSWORD} France")


@pytest.mark.slow
def test_guesses_from_one_client_meet_a_wait_that_doubles(served: Served) -> None:
    """Five guesses go unhindered; then 2 s, 4 s, ... before the next is even checked -- the right one too."""
    reader = served.reader()
    for _ in range(PER_CLIENT.free + 1):
        assert reader.ask("/games/closed/", "guess").status == 403
    for wait in (2, 4, 8):
        turned = reader.ask("/games/closed/", PAGE_PASSWORD)
        assert turned.status == 429 and turned.headers["retry-after"] == str(wait)
        assert f"the next is looked at in {wait} seconds" in turned.body and "The Gamesmaster" not in turned.body
        served.clock.advance(timedelta(seconds=wait))
        assert reader.ask("/games/closed/", "guess").status == 403
    assert served.reader("203.0.113.9").ask("/games/closed/", PAGE_PASSWORD).status == 303  # another client
    served.clock.advance(timedelta(seconds=16))
    assert reader.ask("/games/closed/", PAGE_PASSWORD).status == 303
    assert reader.ask("/games/closed/", "guess").status == 403  # a right guess forgave the client's count


@pytest.mark.slow
def test_guesses_at_one_game_from_many_clients_meet_a_wait_and_a_day_forgets_them(served: Served) -> None:
    for n in range(PER_GAME.free + 1):
        assert served.reader(f"192.0.2.{n + 1}").ask("/games/closed/", "guess").status == 403
    turned = served.reader("192.0.2.200").ask("/games/closed/", PAGE_PASSWORD)
    assert turned.status == 429 and turned.headers["retry-after"] == "2"
    assert served.reader("192.0.2.200").ask("/games/running/").status == 200  # another game is not held up
    served.clock.advance(timedelta(days=1, seconds=1))
    assert served.reader("192.0.2.200").ask("/games/closed/", PAGE_PASSWORD).status == 303


@pytest.mark.slow
def test_a_burst_of_guesses_is_checked_no_more_than_the_limit_allows(served: Served) -> None:
    """Sixty guesses sent at once from one client: no more are checked than sent one by one would be."""
    reader = served.reader()
    with ThreadPoolExecutor(60) as pool:
        statuses = list(pool.map(lambda _: reader.ask("/games/closed/", "guess").status, range(60)))
    assert statuses.count(403) <= PER_CLIENT.free + 1
    assert set(statuses) <= {403, 429, 503}


def _resident_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


@pytest.mark.slow
def test_sixty_guesses_at_once_from_sixty_clients_bound_memory_and_leave_pages_fast(served: Served) -> None:
    """Each check is an scrypt of 16 MB: at most `HASHES_AT_ONCE` at a time, the rest wait a little or are told
    the judge is busy (503), and a stranger's page is served meanwhile (the issue: 140 MB more, pages in seconds)."""
    stranger = served.reader("198.51.100.99")
    with ThreadPoolExecutor(61) as pool:  # the threads, connections and pages a busy site has anyway
        list(pool.map(lambda _: stranger.ask("/games/running/phases/1.html"), range(200)))
    baseline, peak, stop = _resident_kb(), [0], threading.Event()

    def watch() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], _resident_kb())
            time.sleep(0.002)

    watcher = threading.Thread(target=watch)
    watcher.start()
    page_times: list[float] = []
    with ThreadPoolExecutor(61) as pool:
        guesses = [pool.submit(served.reader(f"10.0.{n}.1").ask, "/games/closed/", f"guess {n}") for n in range(60)]
        while not all(g.done() for g in guesses):
            began = time.monotonic()
            assert stranger.ask("/games/running/").status == 200
            page_times.append(time.monotonic() - began)
        statuses = [g.result().status for g in guesses]
    stop.set()
    watcher.join()
    assert set(statuses) <= {403, 429, 503} and 503 in statuses
    grown_mb = (peak[0] - baseline) / 1024
    print(f"resident memory grew {grown_mb:.1f} MB; pages in {sorted(page_times)}")
    assert grown_mb < 16 * (HASHES_AT_ONCE + 2), grown_mb
    assert sorted(page_times)[len(page_times) // 2] < 1.0, page_times


@pytest.mark.slow
def test_setting_the_page_password_again_ends_every_pass_and_a_pass_expires(served: Served) -> None:
    """The GM sets it by mail (SET WEB PASSWORD): the same word again still ends the passes given before."""
    reader = served.reader()
    assert reader.ask("/games/closed/", PAGE_PASSWORD).status == 303
    assert reader.ask("/games/closed/phases/0.html").status == 200
    judge = Judge(served.games.db)
    reply = judge.mail("gm@players.test", f"SIGNON closed MASTER sekret-gm\nSET WEB PASSWORD {PAGE_PASSWORD}")
    assert "Every pass given before no longer opens" in reply and PAGE_PASSWORD not in reply
    assert reader.ask("/games/closed/phases/0.html").status == 403
    assert reader.ask("/games/closed/phases/0.html", PAGE_PASSWORD).status == 303
    served.clock.advance(timedelta(days=PASS_DAYS - 1))
    assert reader.ask("/games/closed/").status == 200
    served.clock.advance(timedelta(days=1, seconds=1))
    assert reader.ask("/games/closed/").status == 403
    judge.mail("gm@players.test", "SIGNON closed MASTER sekret-gm\nSET WEB PASSWORD none")
    locked = reader.ask("/games/closed/", PAGE_PASSWORD)
    assert locked.status == 403 and "open to nobody" in locked.body and "<form" not in locked.body


# --- caches --------------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_unlocked_private_pages_are_for_no_shared_cache(served: Served) -> None:
    reader = served.reader()
    locked = reader.ask("/games/closed/")
    assert {k: locked.headers.get(k) for k in PRIVATE} == PRIVATE
    reader.ask("/games/closed/", PAGE_PASSWORD)
    for path in ("", "index.html", "phases/0.html", "frames/0.svg", "frames/start.svg", "feed.atom"):
        page = reader.ask(f"/games/closed/{path}")
        assert page.status == 200 and {k: page.headers.get(k) for k in PRIVATE} == PRIVATE, path


@pytest.mark.slow
def test_nothing_private_changes_what_a_stranger_can_measure_of_a_game(served: Served) -> None:
    """Private press, orders on file, a GM's note: the page is the same bytes, served from the same kept history
    (no slower read for a watcher to time); press to everybody changes it."""
    stranger = served.reader("198.51.100.99")
    before = stranger.ask("/games/running/").body
    kept = served.site.history("running")
    stamp = served.games.reads.history_stamp("running")
    served.games.talk.post_press("running", "France", ["Germany"], "Belgium-whisper again")
    served.games.talk.post_press("running", "France", ["GM"], "to the GM alone")
    served.games.orders.submit("running", "Germany", ["A Mun - Bur"])
    served.games.setup.set_note("running", "another gm-note-words")
    assert served.games.reads.history_stamp("running") == stamp
    assert stranger.ask("/games/running/").body == before
    assert served.site.history("running") is kept
    served.games.talk.post_press("running", "Italy", ["*"], "Italy to all", grey=False)
    assert served.games.reads.history_stamp("running") != stamp
    assert "Italy to all" in stranger.ask("/games/running/").body


# --- addresses the site does not make ------------------------------------------------------------------------------

MALFORMED = (
    "/games/running/phases/" + "9" * 4301 + ".html",
    "/games/closed/phases/" + "9" * 4301 + ".html",
    "/games/running/phases/-1.html",
    "/games/running/phases/01.html",
    "/games/running/phases/1e3.html",
    "/games/running/phases/99.html",
    "/games/running/frames/-1.svg",
    "/games/running/frames/" + "9" * 4301 + ".svg",
    "/games/running/frames/99.svg",
    "/games/%00/",
    "/games/%00/phases/0.html",
    "/games/" + "x" * 65 + "/",
    "/games/%E2%80%AE/",
    "/games/nosuch/",
    "/games/nosuch",
    "/games/",
    "/variants/nosuch.html",
    "/variants/nosuch.svg",
    "/nothing/here",
    "/games/running/phases/",
    "/games/running/unlock",
)


@pytest.mark.slow
def test_every_malformed_path_answers_the_sites_own_404_without_a_traceback(
    served: Served, caplog: pytest.LogCaptureFixture
) -> None:
    reader = served.reader()
    with caplog.at_level(logging.ERROR):
        for path in MALFORMED:
            for method in ("GET", "POST"):
                answer = reader.ask(path, "guess" if method == "POST" else None, method)
                if method == "POST" and answer.status == 405:  # a post where the site has no form
                    assert "only read" in answer.body and "testjudge: the games" in answer.body, path[:60]
                    continue
                assert answer.status == 404, (method, path[:60], answer.status)
                assert "<h1>Not found</h1>" in answer.body and "testjudge: the games" in answer.body, path[:60]
    assert [r.getMessage() for r in caplog.records] == []
    now = int(served.clock.now().timestamp())
    for forged in (f"{now}.\u00e9t\u00e9", "9" * 4301, f"{now}." + "0" * 64, "-1.x", ""):
        reader.cookies = {served.site.cookie_name("closed"): forged}
        assert reader.ask("/games/closed/phases/0.html").status == 403, forged[:20]
    refused = reader.ask("/index.html", "guess")
    assert refused.status == 405 and "only read" in refused.body and "testjudge: the games" in refused.body
    assert reader.ask("/games/closed/", "guess").status == 403  # none of those was counted as a guess...
    assert served.reader("192.0.2.1").ask("/games/closed/", PAGE_PASSWORD).status == 303  # ...nor held the game


@pytest.mark.slow
def test_the_lock_form_of_a_deep_link_posts_to_that_page_and_opens_it(served: Served) -> None:
    reader = served.reader()
    locked = reader.ask("/games/closed/phases/1.html")
    assert locked.status == 403 and 'action="/games/closed/phases/1.html"' in locked.body
    assert 'href="../../../style.css"' in locked.body
    opened = reader.ask("/games/closed/phases/1.html", PAGE_PASSWORD)
    assert opened.status == 303 and opened.headers["location"] == "/games/closed/phases/1.html"
    page = reader.ask("/games/closed/phases/1.html")
    assert page.status == 200 and ":: Phase: F1901M" in page.body


# --- files ---------------------------------------------------------------------------------------------------------


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_sqlite_file_is_the_judges_users_alone_and_an_old_one_is_tightened(tmp_path: Path) -> None:
    """It holds password hashes and addresses: 0600 (its -wal and -shm files too), in a folder made 0700."""
    path = tmp_path / "var" / "judge.sqlite"
    db = open_database(f"sqlite:///{path}")
    Judge(db).mail("gm@example.org", "REGISTER Game Master gmpass")
    assert _mode(path.parent) == 0o700
    for name in ("judge.sqlite", "judge.sqlite-wal", "judge.sqlite-shm", "judge.sqlite.lock"):
        assert _mode(path.parent / name) == 0o600, name
    db.dispose()
    for name in ("judge.sqlite", "judge.sqlite-wal", "judge.sqlite-shm"):
        if (path.parent / name).exists():
            os.chmod(path.parent / name, 0o644)
    open_database(f"sqlite:///{path}").dispose()
    assert _mode(path) == 0o600


def test_the_outbox_is_the_judges_users_alone_and_an_old_one_is_tightened(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    start_game(judge)
    outbox = tmp_path / "outbox"
    clock = FakeClock()
    assert Sender(db, OutboundConfig(outbox_dir=str(outbox)), clock).send_due() > 0
    assert _mode(outbox) == 0o700 and {_mode(p) for p in outbox.iterdir()} == {0o600}
    outbox.chmod(0o755)
    for mail in outbox.iterdir():
        mail.chmod(0o644)
    Sender(db, OutboundConfig(outbox_dir=str(outbox)), clock)
    assert _mode(outbox) == 0o700 and {_mode(p) for p in outbox.iterdir()} == {0o600}


# --- several processes ---------------------------------------------------------------------------------------------

_SERVE = """
import sys, time
from judge.game import Games
from judge.store import open_database
from judge.web.pages import SiteInfo
from judge.web.server import WebServer
from judge.web.site import Site

server = WebServer(Site(Games(open_database(sys.argv[1])), SiteInfo("testjudge", "judge@judge.test", "TEST")),
                   "127.0.0.1", 0)
assert server.start()
print(server.url, flush=True)
sys.stdin.read()
server.stop()
"""


@pytest.mark.slow
def test_two_judge_processes_on_one_database_serve_one_site(every_state_url: str) -> None:
    """A pass given by one process opens the pages at the other; guesses at one count at the other."""
    command = [sys.executable, "-c", _SERVE, every_state_url]
    processes = [subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in "ab"]
    try:
        first, second = (Reader((p.stdout.readline() if p.stdout else "").strip()) for p in processes)
        assert first.ask("/games/closed/", PAGE_PASSWORD).status == 303
        second.cookies = dict(first.cookies)
        assert second.ask("/games/closed/").status == 200
        guesser_a, guesser_b = Reader(first.url, "192.0.2.77"), Reader(second.url, "192.0.2.77")
        for n in range(PER_CLIENT.free + 1):
            assert (guesser_a if n % 2 else guesser_b).ask("/games/closed/", "guess").status == 403
        assert guesser_a.ask("/games/closed/", PAGE_PASSWORD).status == 429
        assert guesser_b.ask("/games/closed/", PAGE_PASSWORD).status == 429
    finally:
        for process in processes:
            process.communicate("", timeout=30)
