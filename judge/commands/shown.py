"""A game's rule options and settings as CREATE's reply, LIST and STATUS show them: in a GM's words, as SET
takes them (`judge.game.settings.shown_pairs`)."""

from __future__ import annotations

from typing import Any

from judge.game.end_rules import EndingTerms
from judge.game.settings import shown_pairs

DEFAULT_OPTIONS = "the variant's defaults"
DEFAULT_SETTINGS = "the judge's defaults"


def options_lines(options: dict[str, Any], settings: dict[str, Any]) -> list[str]:
    """Two lines: the rule options chosen (or the variant's defaults) and the settings given (or the judge's); a
    third with the GM's comment (`SET COMMENT`) where he wrote one, in his words rather than as `comment=...`."""
    comment = settings.get("comment")
    chosen, given = shown_pairs(options, {k: v for k, v in settings.items() if k != "comment"})
    lines = [f"Rule options: {chosen or DEFAULT_OPTIONS}", f"Settings: {given or DEFAULT_SETTINGS}"]
    return lines + ([f"The GM's comment: {comment}"] if comment else [])


def press_lines(co_gms: tuple[str, ...], observers: tuple[str, ...], gm_reads: bool) -> list[str]:
    """LIST's lines on who runs and watches a game and who reads its private press (issues 43 and 44): the co-GMs
    and the observers by name, listed as such, and whether the GM is sent the players' private press."""
    lines = []
    if co_gms:
        lines.append(f"  Co-GMs: {', '.join(co_gms)}")
    if observers:
        lines.append(f"  Observers: {', '.join(observers)}")
    if gm_reads:
        lines.append("  Private press: the GM is sent a copy of all press between players (press.gm_reads=on).")
    else:
        lines.append("  Private press: the GM does not read press between players (press.gm_reads=off).")
    return lines


def ending_line(terms: EndingTerms) -> str:
    """LIST's line on how the game may end (issue 44 item 5): the victory count and whose it is, draws and
    concessions allowed or not, the end year."""
    if terms.victory is None:
        victory = "won by the variant's own rule, not a count of centres"
    else:
        victory = (
            f"{terms.victory} supply centres win ({'set by the GM' if terms.by_gm else 'the map' + chr(39) + 's'})"
        )
    parts = [
        victory,
        "draws allowed" if terms.draws else "no draws" + (" (draw.allowed=off)" if terms.variant_draws else ""),
        "concessions allowed" if terms.concessions else "no concessions (concede.allowed=off)",
        f"the game ends with {terms.end_year} (end.year)" if terms.end_year else "no end year",
    ]
    return "How it ends: " + "; ".join(parts) + "."
