"""The judge's settings: `judge.toml` (or the file named by --config / JUDGE_CONFIG), with embedded defaults.

Secrets (the IMAP and SMTP relay passwords) are never read from this file: the settings name an environment
variable or a file that holds them.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, TypeVar

DEFAULT_DATABASE_URL = "sqlite:///var/judge.sqlite"
_Section = TypeVar("_Section")


def _secret(table: dict[str, Any], name: str) -> str:
    """A password from the environment variable `<name>_env` names, or the file `<name>_file` names."""
    env = table.get(f"{name}_env")
    if env and os.environ.get(str(env)):
        return os.environ[str(env)]
    path = table.get(f"{name}_file")
    if path:
        return Path(str(path)).read_text(encoding="utf-8").strip()
    if name in table:
        raise ValueError(f"{name} must not be written in the settings file: use {name}_env or {name}_file")
    return ""


@dataclass(frozen=True)
class SmtpIntakeConfig:
    enabled: bool = True
    host: str = "127.0.0.1"
    port: int = 2525
    lmtp: bool = False
    max_bytes: int = 10_000_000


@dataclass(frozen=True)
class ImapConfig:
    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 993
    security: str = "tls"  # tls, starttls or plain (plain only on loopback)
    user: str = "judge"
    password: str = ""
    mailbox: str = "INBOX"
    processed_folder: str = "Processed"
    poll_seconds: float = 30.0
    idle: bool = True


@dataclass(frozen=True)
class OutboundConfig:
    relay_host: str = ""
    """an SMTP relay to deliver through; empty: write .eml files to `outbox_dir` instead"""
    relay_port: int = 587
    relay_security: str = "starttls"  # tls, starttls or plain
    relay_user: str = ""
    relay_password: str = ""
    outbox_dir: str = "var/outbox"
    max_attempts: int = 8
    """attempts a message the relay refuses with a temporary (4xx) answer gets before it fails for good"""
    give_up_hours: int = 72
    """how long a message waits for a relay that cannot be reached before it fails for good (the admin is told)"""


@dataclass(frozen=True)
class WebConfig:
    enabled: bool = True
    """`judge serve` serves the read-only site beside the mail (docs/web.md)"""
    host: str = "127.0.0.1"
    port: int = 8080
    base_url: str = ""
    """the site's address as the world reaches it (https://judge.example.org/); set, results mails link to their
    phase's page and their game's, and the Atom feeds carry absolute links"""
    search_engines: bool = True
    """false: the site asks search engines to keep out (`robots.txt` refuses every robot, each page carries a meta
    robots `noindex, nofollow` and each answer an `X-Robots-Tag`), for a judge whose games are its players' business"""

    def game_url(self, game: str) -> str | None:
        """The address of a game's page as mail gives it; None without a `base_url`."""
        from urllib.parse import quote

        return f"{self.base_url.rstrip('/')}/games/{quote(game)}/" if self.base_url else None

    def phase_url(self, game: str, index: int) -> str | None:
        """The address of a processed phase's own page (its map with its orders, its results), which a results mail
        links to (issue 41); None without a `base_url`."""
        page = self.game_url(game)
        return f"{page}phases/{index}.html" if page else None


@dataclass(frozen=True)
class Config:
    address: str = "judge@localhost"
    name: str = "judge"
    code: str = ""
    """the judge's code in njudge's header lines (`:: Judge: JUDG  Game: ...`); empty: made from `name`"""
    admin: str = "root@localhost"
    """who hears about shunted mail"""
    creators: tuple[str, ...] = ()
    """addresses allowed to CREATE games (empty: every registered player)"""
    rate_limit: int = 30
    """replies to one address within `rate_window_minutes`; further mail from it waits (it is not lost)"""
    rate_window_minutes: int = 10
    pictures: bool = True
    """results mails carry the map after the phase as a PNG (players may still turn it off for themselves)"""
    picture_workers: int | None = None
    """processes that draw the results' pictures of the next due games while the keeper adjudicates (0: drawn
    where the results are composed; judge/schedule/predraw.py); unset: `drawing_workers` chooses"""
    database_url: str = DEFAULT_DATABASE_URL
    smtp_intake: SmtpIntakeConfig = field(default_factory=SmtpIntakeConfig)
    imap: ImapConfig = field(default_factory=ImapConfig)
    outbound: OutboundConfig = field(default_factory=OutboundConfig)
    web: WebConfig = field(default_factory=WebConfig)

    @property
    def judge_code(self) -> str:
        """The code njudge's header lines name the judge by: the configured one, else the first four letters of
        the judge's name in capitals (njudge's codes are four letters: USEF, USIN)."""
        if self.code:
            return self.code.upper()
        letters = "".join(ch for ch in self.name.upper() if ch.isalnum())
        return letters[:4] or "JUDG"

    @property
    def drawing_workers(self) -> int:
        """The picture workers this judge runs: `picture_workers` when set; else one on SQLite, where the judge is
        one process by design and a worker puts a second core to use (a rush of 1,000 games 0.59 x the time), and
        none on PostgreSQL, where a judge of several processes already keeps every core busy and a worker each only
        adds work (1.0 to 1.3 x the time with two processes on two cores: docs/operations.md); none on one core."""
        if self.picture_workers is not None:
            return self.picture_workers
        if (os.cpu_count() or 1) < 2:
            return 0
        return 1 if self.database_url.startswith("sqlite") else 0


def _table(data: dict[str, Any], *keys: str) -> dict[str, Any]:
    value: Any = data
    for key in keys:
        value = value.get(key, {}) if isinstance(value, dict) else {}
    if not isinstance(value, dict):
        raise ValueError(f"[{'.'.join(keys)}] must be a table")
    return value


def _section(cls: type[_Section], table: dict[str, Any], secrets: tuple[str, ...] = ()) -> _Section:
    """A settings table read into its dataclass, each value converted to the type of the field's default, so the
    defaults live in one place (the dataclass); the secrets only ever through `_secret`."""
    values: dict[str, Any] = {}
    for item in fields(cls):  # type: ignore[arg-type]
        if item.name in secrets:
            values[item.name] = _secret(table, item.name)
        elif item.name in table:
            kind: Any = type(item.default)
            values[item.name] = kind(table[item.name])
    return cls(**values)


def load_config(path: str | os.PathLike[str] | None = None) -> Config:
    chosen = path or os.environ.get("JUDGE_CONFIG")
    file = Path(chosen) if chosen else Path("judge.toml")
    data: dict[str, Any] = {}
    if file.is_file():
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    elif chosen:
        raise FileNotFoundError(f"no configuration file {file}")
    judge = _table(data, "judge")
    database = _table(data, "database")
    smtp = _table(data, "intake", "smtp")
    imap = _table(data, "intake", "imap")
    outbound = _table(data, "outbound")
    config = Config(
        address=str(judge.get("address", Config.address)),
        name=str(judge.get("name", Config.name)),
        code=str(judge.get("code", Config.code)),
        admin=str(judge.get("admin", Config.admin)),
        creators=tuple(str(c).lower() for c in judge.get("creators", ())),
        rate_limit=int(judge.get("rate_limit", Config.rate_limit)),
        rate_window_minutes=int(judge.get("rate_window_minutes", Config.rate_window_minutes)),
        pictures=bool(judge.get("pictures", Config.pictures)),
        picture_workers=int(judge["picture_workers"]) if "picture_workers" in judge else None,
        database_url=os.environ.get("JUDGE_DATABASE_URL") or str(database.get("url", DEFAULT_DATABASE_URL)),
        smtp_intake=_section(SmtpIntakeConfig, smtp),
        imap=_section(ImapConfig, imap, secrets=("password",)),
        outbound=_section(OutboundConfig, outbound, secrets=("relay_password",)),
        web=_section(WebConfig, _table(data, "web")),
    )
    if config.picture_workers is not None and config.picture_workers < 0:
        raise ValueError("[judge] picture_workers must be 0 (none) or more")
    if config.rate_limit < 1 or config.rate_window_minutes < 1:
        raise ValueError("[judge] rate_limit and rate_window_minutes must be at least 1 (0 would hold all mail)")
    return config
