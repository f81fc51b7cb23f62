"""A game's rule options and settings as CREATE's reply and LIST show them."""

from __future__ import annotations

from typing import Any


def options_lines(options: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    """Two lines: the rule options chosen (or the variant's defaults) and the settings given (or the judge's)."""
    chosen = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "the variant's defaults"
    given = ", ".join(f"{k}={v}" for k, v in settings.items()) or "the judge's defaults"
    return [f"Rule options: {chosen}", f"Settings: {given}"]
