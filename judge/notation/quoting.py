"""Quoting a player's input back: whole when short, else its start and how much was left out. Only input is ever
shortened; the judge's own words are said whole."""

from __future__ import annotations

QUOTE_LIMIT = 200
"""characters of a line quoted back"""


def shorten(text: str, limit: int = QUOTE_LIMIT) -> str:
    """A line as quoted in a reply: whole when short, else its start and how much was left out."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text) - limit} more characters)"
