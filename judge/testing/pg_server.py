"""A PostgreSQL server of a test's own, which the test may restart or stop: initdb in a temporary folder, listening
on a free loopback port only (never the system cluster on 5432 that other tests share).

PostgreSQL refuses to run as root: as root (CI) the server runs as the `postgres` user of the distribution's
package, through `runuser`; as anyone else, as that user. `restart()` and `stop()` are `pg_ctl -m fast`: every
session is ended and the server goes down, as in an upgrade, a failover or a moved container.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from judge.running import StartStop
from judge.testing.dovecot import free_port

_RUN_AS = "postgres"
_TIMEOUT = 60


def postgres_binaries() -> Path | None:
    """The newest installed PostgreSQL's bin folder (Debian's layout), or the one on PATH; None if there is none."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parts[-3]))
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def private_server_problem() -> str | None:
    """None when a private server can be made here, else why not."""
    if postgres_binaries() is None:
        return "no PostgreSQL binaries (initdb, pg_ctl) are installed"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root, and no runuser to run PostgreSQL as another user"
    return None


class PostgresServer(StartStop):
    """`start()` makes the cluster on first use and starts it; `restart()`, `stop()` as an operator would; `close()`
    stops it and removes its folder. `url`: the `postgres` database, as the superuser, over TCP."""

    host = "127.0.0.1"

    def __init__(self) -> None:
        binaries = postgres_binaries()
        if binaries is None:
            raise RuntimeError("no PostgreSQL binaries are installed")
        self.binaries = binaries
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="judge-pg-"))
        self.data = self.folder / "data"
        self.log = self.folder / "server.log"
        self._made = False
        if os.geteuid() == 0:
            shutil.chown(self.folder, _RUN_AS)

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@{self.host}:{self.port}/postgres"

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", _RUN_AS, "--", *command]
        done = subprocess.run(command, capture_output=True, text=True, timeout=_TIMEOUT, check=False)
        if done.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise RuntimeError(f"{program} {' '.join(args)} failed: {done.stderr.strip()}\n{log}")

    def _ctl(self, action: str) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", str(_TIMEOUT), "-m", "fast", action)

    def start(self) -> None:
        if not self._made:
            self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
            with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
                conf.write(
                    f"port = {self.port}\nlisten_addresses = '{self.host}'\nunix_socket_directories = '{self.folder}'\n"
                    "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                )
            self._made = True
        self._ctl("start")

    def stop(self) -> None:
        self._ctl("stop")

    def restart(self) -> None:
        self._ctl("restart")

    def close(self) -> None:
        """Stop the server if it runs, and remove everything it had."""
        if (self.data / "postmaster.pid").exists():
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
