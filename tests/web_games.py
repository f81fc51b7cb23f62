"""Games in every state a web page can show, played through the game layer on a real database: the fixtures of
the web site's tests (tests/test_web_*.py). Every secret in them is a word the pages must never hold."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from judge.game import Games
from judge.store import open_database
from judge.testing.tables import POWERS
from judge.web.pages import SiteInfo
from judge.web.server import WebServer
from judge.web.site import Site

SECRETS = ("sekret", "@players.test", "Belgium-whisper", "gm-note-words")
"""passwords, the players' addresses' domain, a private press message's words, the GM's note: none may be shown"""
ON_FILE = "Bur - Gas"
"""the order on file for a phase not yet processed (France's, in the running game)"""
GREY = "An unsigned word to all"
WHITE = "Germany greets everybody"
STATES = ("forming", "running", "paused", "finished", "closed")
SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")
"""the judge the tests' sites belong to"""
PAGE_PASSWORD = "sekret-pages"
"""the private game's page password (its GM's SET WEB PASSWORD): apart from its join password, `sekret-join`"""


def _address(power: str, game: str) -> str:
    return f"{power.lower()}.{game}@players.test"


def _full(games: Games, name: str, seed: int) -> None:
    games.seating.create_game(name, "standard", "gm@players.test", "sekret-join", seed=seed)
    for power in POWERS:
        games.accounts.register(_address(power, name), f"{power} Player of {name}", "sekret-player")
        games.seating.join(name, _address(power, name), "sekret-join", [power])


def play_every_state(games: Games) -> None:
    """forming (two players joined), running (two phases processed, press, orders on file, a note waiting),
    paused, finished (terminated), closed (private: web.private on, its page password `PAGE_PASSWORD`)."""
    games.accounts.register("gm@players.test", "The Gamesmaster", "sekret-gm")
    games.seating.create_game("forming", "standard", "gm@players.test", "sekret-join", seed=1)
    for power in POWERS[:2]:
        games.accounts.register(_address(power, "forming"), f"{power} Hopeful", "sekret-player")
        games.seating.join("forming", _address(power, "forming"), "sekret-join", [power])
    for seed, name in enumerate(STATES[1:], start=2):
        _full(games, name, seed)
        games.setup.set_by_mail(name, [("press.type", "both")])
        games.orders.submit(name, "France", ["A Par - Bur"])
        games.adjudication.process(name)
        games.talk.post_press(name, "France", ["Germany"], "Belgium-whisper: let us share it.")
        games.talk.post_press(name, "Germany", ["*"], WHITE, grey=False)
        games.talk.post_press(name, "England", ["*"], GREY, grey=True)
        games.adjudication.process(name)
        games.orders.submit(name, "France", ["A Bur - Gas"])
        games.setup.set_note(name, "gm-note-words for the next results")
    games.controls.pause("paused")
    games.controls.terminate("finished")
    games.setup.set_by_mail("closed", [("web.private", "on")])
    games.web.set_page_password("closed", PAGE_PASSWORD)


def every_state(folder: Path) -> Games:
    """`play_every_state` on a new SQLite database in `folder`."""
    played = Games(open_database(f"sqlite:///{folder / 'judge.sqlite'}"))
    play_every_state(played)
    return played


@contextmanager
def serving(games: Games, site: SiteInfo) -> Iterator[WebServer]:
    """The site of `games` served by uvicorn on a free port, for as long as the block runs."""
    server = WebServer(Site(games, site), "127.0.0.1", 0)
    assert server.start()
    try:
        yield server
    finally:
        server.stop()
