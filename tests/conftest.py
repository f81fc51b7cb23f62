"""Shared fixtures: real SQLite files and a real PostgreSQL database per test, a real Dovecot (IMAP + LMTP)
and a real SMTP relay; the web site's games in every state and their export, made once for the web tests."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import settings
from web_games import SITE, every_state, play_every_state

from judge.clock import FakeClock
from judge.game import Games
from judge.store import open_database
from judge.testing.dovecot import DovecotServer, dovecot_available
from judge.testing.postgres import postgres_problem, scratch_database
from judge.testing.smtp_relay import SmtpRelay
from judge.web.export import export_site

_POSTGRES_PROBLEM = postgres_problem()

# Property tests search at random on a developer's machine, where a new counter-example is news to act on; in CI
# (CI set) they run the same examples every time, so a stop is never refused for a case nobody has seen yet.
# `make fuzz` runs them ten times over at random.
settings.register_profile("ci", derandomize=True, database=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default"))


def _require(problem: str | None) -> None:
    """Skip a test whose real server is missing -- except in CI, which must run every test, never skip one."""
    if problem:
        if os.environ.get("CI"):
            pytest.fail(problem)
        pytest.skip(problem)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database for one test, dropped afterwards."""
    _require(_POSTGRES_PROBLEM)
    with scratch_database() as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'judge.sqlite'}"


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Each test that takes this runs once on a SQLite file and once on PostgreSQL."""
    url: str = request.getfixturevalue("sqlite_url" if request.param == "sqlite" else "postgres_url")
    return url


@pytest.fixture(scope="session")
def dovecot() -> Iterator[DovecotServer]:
    """One private Dovecot for the whole session (starting one takes ~0.1 s, but tests share it anyway);
    user `judge`, password `secret`, folders INBOX, Processed and Shunted."""
    _require(dovecot_available())
    with DovecotServer() as server:
        yield server


@pytest.fixture
def mailbox(dovecot: DovecotServer) -> DovecotServer:
    """The session's Dovecot with every folder of `judge` emptied, so each test starts from no mail."""
    dovecot.expunge_all("judge")
    return dovecot


@pytest.fixture
def smtp_relay() -> Iterator[SmtpRelay]:
    """A fresh SMTP relay per test, recording what the judge sends."""
    with SmtpRelay() as relay:
        yield relay


GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def golden() -> object:
    """Compare a rendered mail with its golden file (reviewed by eye once, then pinned). With JUDGE_UPDATE_GOLDEN=1
    the file is rewritten instead: review the diff before committing it."""

    def check(name: str, text: str) -> None:
        path = GOLDEN / f"{name}.txt"
        if os.environ.get("JUDGE_UPDATE_GOLDEN"):
            path.write_text(text, encoding="utf-8")
        assert path.is_file(), f"no golden file {path.name}; run with JUDGE_UPDATE_GOLDEN=1 and review it"
        assert text == path.read_text(encoding="utf-8")

    return check


@pytest.fixture(scope="session")
def web_games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    """Games in every state a web page shows (tests/web_games.py `play_every_state`), played once for every web
    test that only reads them; a test that changes its games plays its own."""
    return every_state(tmp_path_factory.mktemp("web"))


@pytest.fixture(scope="session")
def web_export(web_games: Games, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`judge web export` of `web_games`, written once for every test that reads the exported pages."""
    out = tmp_path_factory.mktemp("site")
    export_site(web_games, SITE, out)
    return out


@pytest.fixture(scope="session")
def _every_state_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The SQLite file `every_state_url` copies: `play_every_state` played once, by a `FakeClock` at its start."""
    path = tmp_path_factory.mktemp("every_state") / "judge.sqlite"
    games = Games(open_database(f"sqlite:///{path}"), FakeClock())
    play_every_state(games)
    games.db.dispose()
    return path


@pytest.fixture(scope="session")
def _every_state_postgres() -> Iterator[str]:
    """The PostgreSQL database `every_state_url` copies (as a template): played like `_every_state_sqlite`."""
    _require(_POSTGRES_PROBLEM)
    with scratch_database() as url:
        games = Games(open_database(url), FakeClock())
        play_every_state(games)
        games.db.dispose()  # a template takes no connection
        yield url


@pytest.fixture
def every_state_sqlite_url(_every_state_sqlite: Path, tmp_path: Path) -> str:
    """`every_state_url` on SQLite alone: the file tmp_path/judge.sqlite."""
    path = tmp_path / "judge.sqlite"
    with closing(sqlite3.connect(_every_state_sqlite)) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    return f"sqlite:///{path}"


@pytest.fixture(params=["sqlite", "postgresql"])
def every_state_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A database of this test's own, on SQLite and on PostgreSQL, holding the games of `play_every_state` as a
    `FakeClock()` at its start played them -- a copy of one played once a session (playing them takes 8-17 s on
    PostgreSQL; a copy a fraction of a second), so a test may change its games and no other test sees it."""
    if request.param == "sqlite":
        yield request.getfixturevalue("every_state_sqlite_url")
    else:
        with scratch_database(template=request.getfixturevalue("_every_state_postgres")) as url:
            yield url
