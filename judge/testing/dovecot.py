"""A private, throw-away Dovecot (IMAP + LMTP) for the tests: the real server users run, never a mock.

Each instance has its own config, users, mail and sockets in a temporary directory under /tmp and listens on
free loopback ports, so it never touches /etc/dovecot or a system Dovecot and several can run at once.
The settings favour speed and determinism over safety (mdbox without fsync, no auth failure delay, no anvil
penalty), which is right for disposable test mail and wrong for anything else.
"""

from __future__ import annotations

import atexit
import contextlib
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from imapclient import IMAPClient  # type: ignore[import-untyped]  # ships no py.typed

from judge.running import StartStop

INSTALL_HINT = "dovecot is not installed (apt-get install dovecot-imapd dovecot-lmtpd)"
AUTO_FOLDERS = ("Processed", "Shunted")
# Debian puts the daemons in /usr/sbin, which an ordinary user's PATH often lacks.
_EXTRA_PATHS = ("/usr/sbin", "/usr/local/sbin", "/sbin")
_LIBEXEC_DIRS = ("/usr/lib/dovecot", "/usr/libexec/dovecot", "/usr/local/libexec/dovecot")
_START_TIMEOUT = 10.0
_STOP_GRACE = 5.0
_PORT_ATTEMPTS = 3
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


def _which(program: str) -> str | None:
    found = shutil.which(program)
    if found:
        return found
    return shutil.which(program, path=os.pathsep.join(_EXTRA_PATHS))


def dovecot_available() -> str | None:
    """None when a private Dovecot can be started here, else the reason it cannot (for a skip message)."""
    if _which("dovecot") is None or _which("doveadm") is None:
        return INSTALL_HINT
    for libexec in _LIBEXEC_DIRS:
        if os.path.isdir(libexec):
            missing = [p for p in ("imap", "lmtp") if not os.path.exists(os.path.join(libexec, p))]
            if missing:
                return f"{INSTALL_HINT}: {', '.join(missing)} missing from {libexec}"
            break
    return None


def free_port() -> int:
    """A loopback port free right now; the caller retries if another process takes it before the bind."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _live_members(pgid: int) -> list[int]:
    """Pids of the group's processes that still run: zombies are left out, as they hold no port or file and
    orphaned ones are reaped by whatever PID 1 is (or never, in some containers)."""
    members = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
        except OSError:
            continue
        # the command name is in parentheses and may hold spaces: the fields follow the last ")"
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            members.append(int(entry.name))
    return members


def _greets(port: int, expected: bytes, timeout: float) -> bool:
    """True once the service on the port sends its greeting: an open port alone may still refuse logins."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
            return sock.recv(512).startswith(expected)
    except OSError:
        return False


class DovecotServer(StartStop):
    """One private Dovecot: `start()`, use `client()` / `append()` / LMTP on `lmtp_port`, `stop()`.

    `start()` may be called again after `stop()`; each run gets a fresh directory, fresh ports and empty
    mailboxes, with the users added so far.
    """

    host = "127.0.0.1"

    def __init__(self, *, lmtp: bool = True, users: dict[str, str] | None = None) -> None:
        self.lmtp = lmtp
        self.users: dict[str, str] = dict(users) if users is not None else {"judge": "secret"}
        self.directory: Path | None = None
        self._imap_port: int | None = None
        self._lmtp_port: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._dovecot = _which("dovecot") or "dovecot"
        self._doveadm = _which("doveadm") or "doveadm"

    # -- life cycle -------------------------------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._process is not None

    @property
    def imap_port(self) -> int:
        if self._imap_port is None:
            raise RuntimeError("Dovecot is not running")
        return self._imap_port

    @property
    def lmtp_port(self) -> int:
        if self._lmtp_port is None:
            raise RuntimeError("Dovecot is not running with LMTP")
        return self._lmtp_port

    @property
    def config_path(self) -> Path:
        if self.directory is None:
            raise RuntimeError("Dovecot is not running")
        return self.directory / "dovecot.conf"

    @property
    def pgid(self) -> int:
        """The process group of the master and all its children (the master's pid: it leads a new session)."""
        if self._process is None:
            raise RuntimeError("Dovecot is not running")
        return self._process.pid

    def processes(self) -> list[int]:
        """Pids of this instance's live processes (master, login, auth, imap, lmtp...)."""
        return _live_members(self.pgid) if self._process is not None else []

    def start(self) -> None:
        """Start Dovecot; return once IMAP (and LMTP) answer a greeting.

        Ports are picked free before Dovecot binds them, so another process may take one in between: a run
        that dies on an address in use is retried on new ports.
        """
        if self._process is not None:
            raise RuntimeError("Dovecot is already running")
        problem = dovecot_available()
        if problem:
            raise RuntimeError(problem)
        for attempt in range(_PORT_ATTEMPTS):
            try:
                self._start_once()
                atexit.register(self.stop)
                return
            except _PortTaken:
                if attempt == _PORT_ATTEMPTS - 1:
                    raise RuntimeError("Dovecot could not bind a free port") from None

    def stop(self) -> None:
        """Stop every process of the instance and remove its directory; return only when none is left.

        A bare SIGTERM to the group now and then (more often just after start) leaves Dovecot unable to exit,
        while the master alone takes ~1 s: so the master first, the group ~20 ms later, SIGKILL if needed.
        """
        atexit.unregister(self.stop)
        process, self._process = self._process, None
        if process is not None:
            self._terminate(process)
        self._imap_port = self._lmtp_port = None
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None

    @staticmethod
    def _terminate(process: subprocess.Popen[bytes]) -> None:
        pgid = process.pid
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
            time.sleep(0.02)
            os.killpg(pgid, signal.SIGTERM)
        deadline = time.monotonic() + _STOP_GRACE
        while True:
            process.poll()  # reap the master, or it stays a zombie of ours
            if not _live_members(pgid):
                break
            if time.monotonic() > deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pgid, signal.SIGKILL)
                deadline = time.monotonic() + _STOP_GRACE
            time.sleep(0.005)
        process.wait()

    def _start_once(self) -> None:
        directory = Path(tempfile.mkdtemp(prefix="judge-dovecot-", dir="/tmp"))
        # mkdtemp makes it 0700: the unprivileged mail and login users must be able to enter it
        directory.chmod(0o755)
        self.directory = directory
        self._imap_port = free_port()
        self._lmtp_port = free_port() if self.lmtp else None
        mail = directory / "mail"
        mail.mkdir(mode=0o755)
        for name in ("run", "state"):
            (directory / name).mkdir(mode=0o755)
        if os.geteuid() == 0:
            # Dovecot never touches mail as root
            nobody = pwd.getpwnam("nobody")
            os.chown(mail, nobody.pw_uid, nobody.pw_gid)
        (directory / "users").mkdir(mode=0o755)
        for name in self.users:
            self._write_user(name)
        self.config_path.write_text(self._config())
        stderr_path = directory / "stderr.log"
        with stderr_path.open("wb") as stderr:
            self._process = subprocess.Popen(
                [self._dovecot, "-F", "-c", str(self.config_path)],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=stderr,
                start_new_session=True,
            )
        try:
            self._wait_ready()
        except BaseException:
            log = self.log()
            self.stop()
            if "Address already in use" in log:
                raise _PortTaken() from None
            raise

    def _wait_ready(self) -> None:
        assert self._process is not None and self._imap_port is not None
        deadline = time.monotonic() + _START_TIMEOUT
        pending = {self._imap_port: b"* OK"}
        if self._lmtp_port is not None:
            pending[self._lmtp_port] = b"220 "
        while pending:
            if self._process.poll() is not None:
                raise RuntimeError(f"Dovecot exited with {self._process.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Dovecot did not answer within {_START_TIMEOUT} s:\n{self.log()}")
            for port, greeting in list(pending.items()):
                if _greets(port, greeting, timeout=1.0):
                    del pending[port]
            if pending:
                time.sleep(0.01)

    def log(self) -> str:
        """Dovecot's own log and its stderr, for failure messages."""
        if self.directory is None:
            return ""
        parts = []
        for name in ("dovecot.log", "stderr.log"):
            path = self.directory / name
            if path.exists():
                parts.append(path.read_text(errors="replace"))
        return "".join(parts)[-4000:]

    # -- configuration ----------------------------------------------------------------------------------------

    def _config(self) -> str:
        assert self.directory is not None and self._imap_port is not None
        d = self.directory
        if os.geteuid() == 0:
            identity = "mail_uid = nobody\nmail_gid = nogroup\n"
            chroot = ""
        else:
            user = pwd.getpwuid(os.geteuid()).pw_name
            group = grp.getgrgid(os.getegid()).gr_name
            identity = (
                f"default_login_user = {user}\ndefault_internal_user = {user}\ndefault_internal_group = {group}\n"
            )
            chroot = "  chroot =\n"
        protocols = "imap lmtp" if self._lmtp_port is not None else "imap"
        lmtp_service = ""
        if self._lmtp_port is not None:
            lmtp_service = (
                "service lmtp {\n"
                f"  inet_listener lmtp {{\n    address = 127.0.0.1\n    port = {self._lmtp_port}\n  }}\n"
                "}\n"
            )
        folders = "".join(f"  mailbox {name} {{\n    auto = subscribe\n  }}\n" for name in AUTO_FOLDERS)
        return (
            f"base_dir = {d}/run\n"
            f"state_dir = {d}/state\n"
            f"log_path = {d}/dovecot.log\n"
            f"protocols = {protocols}\n"
            "listen = 127.0.0.1\n"
            "ssl = no\n"
            "disable_plaintext_auth = no\n"
            "auth_mechanisms = plain login\n"
            "auth_failure_delay = 0\n"
            "first_valid_uid = 1\n"
            f"{identity}"
            "mail_location = mdbox:~/mdbox\n"
            "mail_fsync = never\n"
            "mail_max_userip_connections = 100\n"
            "passdb {\n"
            "  driver = passwd-file\n"
            f"  args = scheme=PLAIN username_format=%n {d}/users/%n\n"
            "}\n"
            "userdb {\n"
            "  driver = static\n"
            f"  args = home={d}/mail/%n\n"
            "}\n"
            "namespace inbox {\n"
            "  inbox = yes\n"
            f"{folders}"
            "}\n"
            "service imap-login {\n"
            f"  inet_listener imap {{\n    address = 127.0.0.1\n    port = {self._imap_port}\n  }}\n"
            "  inet_listener imaps {\n    port = 0\n  }\n"
            f"{chroot}"
            "}\n"
            f"{lmtp_service}"
            "service anvil {\n"
            "  unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n"
            f"{chroot}"
            "}\n"
        )

    def _write_user(self, name: str) -> None:
        """Write one user's passwd-file.

        One file per user (the passdb path holds %n), because Dovecot stats a passwd-file at most once a second:
        with a single shared file, a user added within a second of another login stays unknown for up to a
        second, whereas a user's own file is opened fresh on its first lookup. The mtime is pushed past the
        previous one so a rewrite of the same size is noticed too.
        """
        if self.directory is None:
            return
        path = self.directory / "users" / name
        before = path.stat().st_mtime if path.exists() else None
        scratch = path.with_name(f".{name}.new")
        scratch.write_text(f"{name}:{{PLAIN}}{self.users[name]}::::::\n")
        scratch.chmod(0o644)
        if before is not None:
            stamp = max(time.time(), int(before) + 1)
            os.utime(scratch, (stamp, stamp))
        scratch.replace(path)

    # -- users and mail ---------------------------------------------------------------------------------------

    def add_user(self, name: str, password: str) -> None:
        """Add (or re-password) a mail user; works before start and while running.

        A new user can log in at once. A changed password of a user who logged in during the last second is
        seen only once the clock reaches the next second (Dovecot's passwd-file check), so this waits for it.
        """
        self.add_users({name: password})

    def add_users(self, users: dict[str, str]) -> None:
        """Add (or re-password) many users at once, as `add_user` one: a file each, so thousands (a benchmark's
        players, who receive mail by LMTP) take about a second, and at most one wait for the clock."""
        for name, password in users.items():
            if not _NAME_RE.match(name):
                raise ValueError(f"unsuitable user name for a passwd-file: {name!r}")
            if any(c in password for c in ":\n\r"):
                raise ValueError("a passwd-file password cannot hold ':' or line breaks")
        known = any(name in self.users for name in users)
        self.users.update(users)
        for name in users:
            self._write_user(name)
        if known and self.running:
            time.sleep(1.05 - time.time() % 1)

    def message_counts(self, users: list[str], folder: str = "INBOX") -> dict[str, int]:
        """How many messages each user's folder holds, read from the mail store by one `doveadm` run for them all
        (`-F`: a file of user names; an address names its local part's user, as LMTP delivers)."""
        if not users:
            return {}
        assert self.directory is not None
        names = self.directory / "count-users"
        names.write_text("".join(f"{user}\n" for user in users))
        command = [self._doveadm, "-c", str(self.config_path), "-f", "tab", "mailbox", "status", "-F", str(names)]
        done = subprocess.run(
            [*command, "messages", folder],
            check=True,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
        )
        counts: dict[str, int] = {}
        for line in done.stdout.splitlines()[1:]:  # a header line, then: user, folder, messages
            user, _, count = line.split("\t")
            counts[user] = int(count)
        return counts

    def expunge_all(self, user: str = "judge") -> None:
        """Empty every folder of the user (the folders themselves stay): the cheap reset between tests."""
        subprocess.run(
            [self._doveadm, "-c", str(self.config_path), "expunge", "-u", user, "mailbox", "*", "all"],
            check=True,
            stdin=subprocess.DEVNULL,
            capture_output=True,
        )

    def client(self, user: str = "judge", password: str = "secret") -> IMAPClient:
        """A logged-in IMAP client; the caller logs out (or uses it as a context manager)."""
        imap = IMAPClient(self.host, port=self.imap_port, ssl=False, timeout=30)
        try:
            imap.login(user, password)
        except BaseException:
            imap.shutdown()
            raise
        return imap

    def append(self, user: str, raw: bytes, folder: str = "INBOX") -> int | None:
        """Store a raw message in the user's folder over IMAP; the new UID when the server reports it."""
        password = self.users[user]
        with self.client(user, password) as imap:
            response = imap.append(folder, raw)
        found = re.search(rb"\[APPENDUID \d+ (\d+)\]", response)
        return int(found.group(1)) if found else None


class _PortTaken(Exception):
    """Another process bound one of the ports between picking it and Dovecot's bind."""
