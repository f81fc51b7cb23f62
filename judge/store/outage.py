"""The database away: telling its outages from real errors, and one wait for its return shared by every loop.

A lost connection, a server shutting down or restarting, a SQLite file locked by another program beyond the busy
timeout, a full disk: these are failures of the database, not of the mail or the game at hand. The loops (the
IMAP poller, the processor, the sender, the deadline keeper) keep the work they had in hand, say so once, wait
here for the database to answer, and do that work again the moment it does: no attempt counted, no message
shunted, no claim left to its lease.

`Outage` is the database's one back-off: the first loop to hit it logs one warning; while it lasts one loop at a
time probes the database (every `PROBE_FIRST` seconds, growing to `PROBE_MAX`) and the others wait for that probe;
an outage that lasts `TELL_ADMIN_AFTER` is logged once as an error (what the admin's log watch sees); the first
round of work begun since then that succeeds logs its return, with how long it was away.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from sqlalchemy.exc import DBAPIError, DisconnectionError

log = logging.getLogger(__name__)

PROBE_FIRST = 0.1
PROBE_MAX = 0.5
"""seconds between probes of a database that is away: work resumes within a second of its return"""
TELL_ADMIN_AFTER = 60.0
"""an outage longer than this is logged once as an error"""

_SQLITE_TEMPORARY = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_CANTOPEN")
"""SQLite's own failures that pass: locked by another program, a full disk, the file unreachable for a moment"""
_SQLITE_WORDS = ("database is locked", "database table is locked", "disk is full", "disk i/o error", "unable to open")
_POSTGRES_CLASSES = ("08", "53", "57", "40")
"""SQLSTATE classes of a database away or overloaded: connection exception, insufficient resources (a full disk),
operator intervention (shutdown, restart, "cannot connect now"), transaction rollback (a deadlock, a
serialization failure: the same work done again succeeds)"""


def is_unavailable(error: BaseException) -> bool:
    """Is this (or what caused it) the database away, rather than a fault of the work in hand?"""
    return _in_chain(error, _unavailable)


_POSTGRES_CONFLICTS = ("40001", "40P01")
"""serialization failure, deadlock detected: two transactions met, PostgreSQL undid one; done again, it succeeds"""


def is_conflict(error: BaseException) -> bool:
    """Is this (or what caused it) a deadlock or serialization failure PostgreSQL reports: work undone because it
    met another transaction's, to be done again at once, neither the work's fault nor the database away?"""
    return _in_chain(error, _conflict)


def first_line(error: BaseException) -> str:
    """What a log line says of an error: its message's first line, or its type where it has none."""
    words = str(error).strip()
    return words.splitlines()[0] if words else type(error).__name__


def _conflict(error: BaseException) -> bool:
    original = error.orig if isinstance(error, DBAPIError) else error
    psycopg = type(original).__module__.startswith("psycopg")
    return psycopg and str(getattr(original, "sqlstate", "") or "") in _POSTGRES_CONFLICTS


def _in_chain(error: BaseException, test: Callable[[BaseException], bool]) -> bool:
    """Whether `test` holds for the error or anything that caused it (each looked at once)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if test(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def _unavailable(error: BaseException) -> bool:
    if isinstance(error, DisconnectionError):
        return True
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return True
        original: BaseException = error.orig if isinstance(error.orig, BaseException) else error
    else:
        original = error
    name = getattr(original, "sqlite_errorname", None)
    if isinstance(name, str):
        return name.startswith(_SQLITE_TEMPORARY)
    kind = type(original)
    if kind.__module__.startswith("psycopg"):
        state = getattr(original, "sqlstate", None)
        if state:
            return str(state)[:2] in _POSTGRES_CLASSES
        # no SQLSTATE: the client's own failure (no connection, the connection lost, closed under it)
        return kind.__name__ in ("OperationalError", "InterfaceError")
    if kind.__module__ == "sqlite3":
        return any(word in str(original).lower() for word in _SQLITE_WORDS)
    return False


class Outage:
    """One database's outages, shared by every loop of the process (`Database.outage`)."""

    def __init__(self, probe: Callable[[], None], tell_after: float = TELL_ADMIN_AFTER) -> None:
        self._probe = probe
        """raises while the database is away"""
        self._tell_after = tell_after
        self._lock = threading.Condition()
        self._since: float | None = None
        self._told = False
        self._probing = False
        self._delay = PROBE_FIRST
        self._answered_at = 0.0

    @property
    def away(self) -> bool:
        return self._since is not None

    def lost(self, error: BaseException, who: str) -> None:
        """`who` found the database away: the first to find it says so, once."""
        with self._lock:
            if self._since is not None:
                return
            self._since = time.monotonic()
            self._delay = PROBE_FIRST
        log.warning(
            "the database is unavailable (%s, noticed by the %s): work in hand waits for it", first_line(error), who
        )

    def answered(self, began: float) -> None:
        """A round of work that began at `began` (`time.monotonic()`) went through: if the database was away when
        it began, say it is back, and after how long. (A round that began before the outage was noticed proves
        nothing: it may have finished on a connection the server had not yet closed.)"""
        if self._since is None or began < self._since:
            return
        with self._lock:
            since, self._since = self._since, None
            self._told = False
            self._delay = PROBE_FIRST
        if since is not None:
            log.warning("the database answers again after %.1f s", time.monotonic() - since)

    def wait(self, stop: threading.Event) -> bool:
        """Block until the database answers a probe (True), or `stop` is set (False). One caller probes at a
        time; the others wait for its answer."""
        started = time.monotonic()
        while not stop.is_set():
            with self._lock:
                if self._answered_at > started:
                    return True
                if self._probing:
                    self._lock.wait(0.2)
                    continue
                self._probing = True
                delay = self._delay
                self._delay = min(self._delay * 2, PROBE_MAX)
            answered = False
            try:
                if stop.wait(delay):
                    return False
                self._tell_if_long()
                try:
                    self._probe()
                    answered = True
                except Exception as error:
                    if not is_unavailable(error):
                        raise
            finally:
                with self._lock:
                    self._probing = False
                    if answered:
                        self._answered_at = time.monotonic()
                    self._lock.notify_all()
            if answered:
                return True
        return False

    def _tell_if_long(self) -> None:
        since = self._since
        if since is None or self._told or time.monotonic() - since < self._tell_after:
            return
        self._told = True
        log.error(
            "the database has been unavailable for %.0f s: no mail is lost (the intakes keep it, the work in hand is "
            "done when it answers), but none is answered until then",
            time.monotonic() - since,
        )
