"""The judge's settings: `judge.toml` (or the file named by --config / JUDGE_CONFIG), with embedded defaults.

Secrets are never read from this file; they come from the environment or from files it names.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DEFAULT_DATABASE_URL = "sqlite:///var/judge.sqlite"


@dataclass(frozen=True)
class Config:
    address: str = "judge@localhost"
    name: str = "judge"
    database_url: str = DEFAULT_DATABASE_URL


def _table(data: dict[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise ValueError(f"[{key}] must be a table")
    return value


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
    return Config(
        address=str(judge.get("address", Config.address)),
        name=str(judge.get("name", Config.name)),
        database_url=os.environ.get("JUDGE_DATABASE_URL") or str(database.get("url", DEFAULT_DATABASE_URL)),
    )
