"""Who may read a private game's web pages: its page password (set by its GM, apart from the join password), the
key its passes are signed with, and the count of wrong guesses at it.

All three live in the database, so every judge process on it -- on one machine or several -- signs and checks a
pass alike and counts the same guesses (docs/web.md, "Private games").

Guesses are counted per client and per game. A guess is counted as wrong before its password is checked (a
reservation), so a burst of guesses sent at once meets the wait as surely as guesses sent one by one; a right one
is then taken off the count again. After a few free guesses each further wrong one doubles the wait before the
next is even checked; a count untouched for a day is forgotten.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.game.errors import GameError
from judge.game.use_case import UseCase
from judge.passwords import hash_password, verify_password
from judge.store import PageGuesses, SiteKey

PASS_KEY = "web-pass"
"""the name of the key a private game's pass is signed with (`site_keys`)"""
PAGE_PASSWORD_LIMIT = 200
"""the longest page password a GM may set (a password form holds no more)"""


@dataclass(frozen=True)
class GuessLimit:
    """How many wrong guesses go unhindered, and the most one waits after that."""

    free: int
    longest: timedelta

    def wait(self, failures: int) -> timedelta:
        """The wait before the next guess, after `failures` wrong ones: none for the free ones, then 2 s, 4 s,
        8 s, ... up to `longest`."""
        beyond = failures - self.free
        if beyond <= 0:
            return timedelta(0)
        return min(self.longest, timedelta(seconds=2 ** min(beyond, 30)))


PER_CLIENT = GuessLimit(free=5, longest=timedelta(hours=1))
"""one client (an address; an IPv6 one by its /64): five guesses, then 2 s, 4 s, ..., an hour between guesses"""
PER_GAME = GuessLimit(free=20, longest=timedelta(minutes=15))
"""one game, whoever guesses: twenty, then up to a quarter of an hour between guesses -- about a hundred guesses a
day however many addresses an attacker has, while a reader with a pass never meets it"""
FORGET_AFTER = timedelta(days=1)
"""a count with no guess for this long starts again from nothing"""


@dataclass(frozen=True)
class Guess:
    """A guess let through (`wait` zero: check its password, then say how it went) or turned away (`wait`: how long
    the client must wait before the next one is looked at); either way, until when the client's next guess and any
    guess at the game will be turned away, as the database now says (what a process may remember, to turn them
    away without asking it again)."""

    client: str
    game: str
    wait: timedelta
    client_until: datetime | None = None
    game_until: datetime | None = None


def page_password_stamp(name: str, stored: str) -> str:
    """A value that changes whenever the page password is set again (each hash has its own salt, so setting the same
    word again changes it too); it tells nothing of the password."""
    return hashlib.sha256(f"{name}:{stored}".encode()).hexdigest()[:32]


class WebAccess(UseCase):
    # --- the page password, the GM's --------------------------------------------------------------------------

    def set_page_password(self, name: str, password: str | None) -> None:
        """Set the private game's page password (None: none, so its pages open to nobody). Every pass given before
        stops opening its pages, whether the word changed or not."""
        if password is not None and not 0 < len(password) <= PAGE_PASSWORD_LIMIT:
            raise GameError(f"a page password is 1 to {PAGE_PASSWORD_LIMIT} characters")
        with self.store.write() as s:
            game = self.store.lock(s, name)
            game.page_password_hash = None if password is None else hash_password(password)

    def has_page_password(self, name: str) -> bool:
        with self.store.plain() as s:
            return self.store.peek(s, name).page_password_hash is not None

    def page_password_ok(self, name: str, password: str) -> bool:
        """Whether `password` is the game's page password (False where it has none)."""
        with self.store.plain() as s:
            stored = self.store.peek(s, name).page_password_hash
        return stored is not None and verify_password(password, stored)

    def pass_stamp(self, name: str) -> str | None:
        """What a pass to the game's pages is signed over (`page_password_stamp`); None: no pass opens them."""
        with self.store.plain() as s:
            stored = self.store.peek(s, name).page_password_hash
        return None if stored is None else page_password_stamp(name, stored)

    # --- the signing key --------------------------------------------------------------------------------------

    def signing_key(self) -> bytes:
        """The key passes are signed with: made by the first process that asks, read by every other."""
        with self.store.write() as s:
            found = s.get(SiteKey, PASS_KEY)
            if found is not None:
                return found.value
            made_here = {"name": PASS_KEY, "value": secrets.token_bytes(32), "created_at": self.clock.now()}
            _insert_absent(s, SiteKey, made_here)
            made = s.scalar(select(SiteKey.value).where(SiteKey.name == PASS_KEY))
            assert made is not None
            return made

    # --- guesses ----------------------------------------------------------------------------------------------

    def reserve_guess(self, client: str, game: str) -> Guess:
        """Count a guess at `game`'s page password from `client` as wrong before it is checked, unless the client
        or the game must still wait (then nothing is counted, and the guess is not to be checked)."""
        now = self.clock.now()
        keys = ((f"client {client}", PER_CLIENT), (f"game {game}", PER_GAME))
        with self.store.write() as s:
            rows = [_guesses(s, key, now) for key, _ in keys]
            waits = [as_utc(row.wait_until) - now for row in rows if row.wait_until is not None]
            wait = max([timedelta(0), *waits])
            if wait <= timedelta(0):
                for row, (_, limit) in zip(rows, keys, strict=True):
                    row.failures += 1
                    row.last_at = now
                    pause = limit.wait(row.failures)
                    row.wait_until = now + pause if pause else None
                s.execute(delete(PageGuesses).where(PageGuesses.last_at < now - FORGET_AFTER))
            return Guess(client, game, wait, as_utc(rows[0].wait_until), as_utc(rows[1].wait_until))

    def guess_was_right(self, guess: Guess) -> None:
        """The reserved guess was right: the client's count is forgotten, the game's loses the one it was given."""
        with self.store.write() as s:
            s.execute(delete(PageGuesses).where(PageGuesses.key == f"client {guess.client}"))
            row = s.scalar(select(PageGuesses).where(PageGuesses.key == f"game {guess.game}").with_for_update())
            if row is not None:
                row.failures = max(0, row.failures - 1)
                if not PER_GAME.wait(row.failures):
                    row.wait_until = None


def _guesses(s: Session, key: str, now: datetime) -> PageGuesses:
    """The count under `key`, locked for this transaction (made if there is none; forgotten if it is stale)."""
    _insert_absent(s, PageGuesses, {"key": key, "failures": 0, "last_at": now, "wait_until": None})
    row = s.scalar(select(PageGuesses).where(PageGuesses.key == key).with_for_update().execution_options(
        populate_existing=True))  # fmt: skip
    assert row is not None
    if as_utc(row.last_at) < now - FORGET_AFTER:
        row.failures, row.wait_until = 0, None
    return row


def _insert_absent(s: Session, table: type[SiteKey] | type[PageGuesses], values: dict[str, object]) -> None:
    """Insert a row unless one with its key exists (another process may be making it at the same moment)."""
    dialect = s.get_bind().dialect.name
    insert = postgresql_insert if dialect == "postgresql" else sqlite_insert
    s.execute(insert(table).values(**values).on_conflict_do_nothing())
