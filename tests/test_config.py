"""The judge's settings: embedded defaults, judge.toml over them, and secrets only from the environment or a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.config import Config, ImapConfig, OutboundConfig, SmtpIntakeConfig, load_config


def _settings(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "judge.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_without_a_settings_file_the_embedded_defaults_apply(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JUDGE_CONFIG", raising=False)
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)
    assert load_config() == Config()


def test_settings_override_the_defaults_and_keep_their_types(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)
    config = load_config(
        _settings(
            tmp_path,
            '[judge]\naddress = "j@example.org"\ncreators = ["GM@Example.org"]\nrate_limit = 5\n'
            "[intake.smtp]\nport = 2626\nlmtp = true\n"
            '[intake.imap]\nenabled = true\nport = 143\nsecurity = "starttls"\npoll_seconds = 5\n'
            '[outbound]\nrelay_host = "relay.example.org"\nmax_attempts = 3\n',
        )
    )
    assert config.address == "j@example.org" and config.creators == ("gm@example.org",)
    assert (config.rate_limit, config.rate_window_minutes) == (5, 10)
    assert config.smtp_intake == SmtpIntakeConfig(port=2626, lmtp=True)
    assert config.imap == ImapConfig(enabled=True, port=143, security="starttls", poll_seconds=5.0)
    assert isinstance(config.imap.poll_seconds, float)
    assert config.outbound == OutboundConfig(relay_host="relay.example.org", max_attempts=3)


def test_a_password_comes_from_the_environment_or_a_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_TEST_IMAP_SECRET", "from-env")
    secret = tmp_path / "relay.secret"
    secret.write_text("from-file\n", encoding="utf-8")
    config = load_config(
        _settings(
            tmp_path,
            f'[intake.imap]\npassword_env = "JUDGE_TEST_IMAP_SECRET"\n[outbound]\nrelay_password_file = "{secret}"\n',
        )
    )
    assert config.imap.password == "from-env"
    assert config.outbound.relay_password == "from-file"


def test_a_password_written_in_the_settings_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="must not be written in the settings file"):
        load_config(_settings(tmp_path, '[intake.imap]\npassword = "plain"\n'))


def test_the_environment_names_the_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_DATABASE_URL", "postgresql+psycopg://judge@127.0.0.1/judge")
    config = load_config(_settings(tmp_path, '[database]\nurl = "sqlite:///other.sqlite"\n'))
    assert config.database_url == "postgresql+psycopg://judge@127.0.0.1/judge"


@pytest.mark.parametrize("setting", ["rate_limit = 0", "rate_window_minutes = 0"])
def test_a_rate_limit_that_would_hold_all_mail_is_refused(tmp_path: Path, setting: str) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        load_config(_settings(tmp_path, f"[judge]\n{setting}\n"))


def test_picture_workers_may_be_none_but_not_fewer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)
    assert load_config(_settings(tmp_path, "[judge]\npicture_workers = 0\n")).picture_workers == 0
    with pytest.raises(ValueError, match="picture_workers"):
        load_config(_settings(tmp_path, "[judge]\npicture_workers = -1\n"))


def test_picture_workers_unset_are_one_on_sqlite_and_none_on_postgresql(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judge on SQLite is one process, which a worker gives a second core; a judge on PostgreSQL may be several
    processes that keep every core busy already (docs/operations.md, the pictures drawn ahead)."""
    monkeypatch.delenv("JUDGE_DATABASE_URL", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    lone = load_config(_settings(tmp_path, "[judge]\n"))
    assert lone.picture_workers is None and lone.drawing_workers == 1
    shared = load_config(_settings(tmp_path, '[database]\nurl = "postgresql+psycopg://judge@127.0.0.1/judge"\n'))
    assert shared.drawing_workers == 0
    said = load_config(
        _settings(tmp_path, '[judge]\npicture_workers = 2\n[database]\nurl = "postgresql+psycopg://j@h/j"\n')
    )
    assert said.drawing_workers == 2
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    assert load_config(_settings(tmp_path, "[judge]\n")).drawing_workers == 0
