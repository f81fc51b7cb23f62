"""HISTORY over a range and SUMMARY's players (issue 43 item 8), kept out of `judge.commands.info` so that it stays
readable: what the words after the game name ask for, and the answer, cut into parts where long.

HISTORY's forms (njudge's `data/history`, followed where it fits): `HISTORY game ALL` (the whole game), `HISTORY
game F1901M S1903M` (the phases from one to the other, by code or number, both included), `HISTORY game FROM date
[TO date]` (the phases processed in that time, the dates in the game's zone: `2026-12-01`, `2026-12-01 18:00`, or
njudge's `Jan 1, 2026` / `1 Jan 2026` with an optional `hh:mm`), each with an optional `LINES n` (the most lines a
mail of the answer holds; njudge's `LINES`, which cut the answer there: here the rest follows in more mails)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from judge.commands.base import CommandError, MailContext, require
from judge.game.archive import GameArchive
from judge.game.views import GameView, PublicPhase
from judge.render import render, reply_results
from judge.render.archive import FEWEST_LINES, PART_LINES, parts, players_lines
from judge.render.dates import when_text

RANGE_WORDS = ("ALL", "FROM", "LINES")
"""the words after the game that ask HISTORY for more than one phase (besides two phases)"""
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_CLOCK = re.compile(r"^(\d{1,2}):(\d{2})$")


def asks_range(words: Sequence[str]) -> bool:
    """Whether HISTORY's words after the game ask for a range (else one phase, as before)."""
    return len(words) >= 2 or (len(words) == 1 and words[0].upper() in RANGE_WORDS)


def history_range(ctx: MailContext, game: str, words: list[str]) -> list[str]:
    """The answer to `HISTORY game <range>`: its first mail's lines; the later mails are added to `ctx.parts`."""
    words, most = _lines_asked(words)
    archive = ctx.games.archives.archive(game)
    require(bool(archive.phases), f"{game} has no processed phase yet")
    zone = ctx.games.setup.zone(game)
    chosen, what, with_current = _chosen(ctx, game, archive, words, zone)
    require(bool(chosen), f"{game} has no processed phase {what}")
    view = ctx.games.reads.game(game)
    blocks: list[list[str]] = []
    for phase in chosen:
        block = ["", *reply_results(game, phase.outcome, phase.outcome.get("next_phase"), None, PART_LINES,
                                    judge=ctx.config.judge_code, style=view.style, options=view.options)]  # fmt: skip
        block += _press_lines(archive, phase.index)
        blocks.append(block)
    if with_current and archive.current is not None:
        current = _press_lines(archive, archive.current)
        if current:
            blocks.append(["", f"Press in {archive.current_code} (under way):", *current])
    count = f"{len(chosen)} phase{'s' if len(chosen) != 1 else ''}"
    head = [f"The history of {game}, {what} ({count}: each one's results, then the press everybody read in it)."]
    found = parts([head, *blocks], most)
    ctx.parts.extend(found[1:])
    return found[0]


def _lines_asked(words: list[str]) -> tuple[list[str], int]:
    """The words without a last `LINES n`, and the most lines a mail may hold."""
    if len(words) >= 2 and words[-2].upper() == "LINES":
        require(words[-1].isdigit(), f"LINES takes a number of lines, not {words[-1]!r}")
        most = int(words[-1])
        require(
            FEWEST_LINES <= most <= PART_LINES, f"LINES takes a number from {FEWEST_LINES} to {PART_LINES}, not {most}"
        )
        return words[:-2], most
    return words, PART_LINES


def _chosen(
    ctx: MailContext, game: str, archive: GameArchive, words: list[str], zone: ZoneInfo
) -> tuple[list[PublicPhase], str, bool]:
    """The phases asked for, how the answer names them, and whether the press of the phase under way comes too."""
    phases = list(archive.phases)
    if len(words) == 1 and words[0].upper() == "ALL":
        return phases, "the whole game", True
    if words and words[0].upper() == "FROM":
        rest = words[1:]
        upper = [w.upper() for w in rest]
        cut = upper.index("TO") if "TO" in upper else len(rest)
        start = _moment(rest[:cut], zone, end=False)
        end = _moment(rest[cut + 1 :], zone, end=True) if cut < len(rest) else None
        require(end is None or end > start, "the TO date comes before the FROM date")
        shown = f"from {when_text(start, zone)}" + (f" to {when_text(end, zone)}" if end else "")
        return [p for p in phases if p.processed_at >= start and (end is None or p.processed_at <= end)], shown, not end
    if len(words) == 2:
        first, last = (_index(ctx, game, word) for word in words)
        require(first <= last, f"{words[0]} comes after {words[1]}: name the earlier phase first")
        return [p for p in phases if first <= p.index <= last], f"{words[0].upper()} to {words[1].upper()}", False
    raise CommandError(
        "usage: HISTORY game ALL | HISTORY game F1901M S1903M | HISTORY game FROM date [TO date] (then LINES n)"
    )


def _index(ctx: MailContext, game: str, word: str) -> int:
    return int(word) if word.isdigit() else ctx.games.reads.phase_index_of(game, word)


def _moment(words: list[str], zone: ZoneInfo, *, end: bool) -> datetime:
    """A date as njudge's HISTORY took it (a day, with an optional hh:mm, in the game's zone): `2026-12-01`,
    `Dec 1, 2026`, `1 Dec 2026`. A day without a time is its start, or after TO, its end (the day included)."""
    written = " ".join(words)
    clock = _CLOCK.match(words[-1]) if words else None
    day_words = [w.strip(",").lower() for w in (words[:-1] if clock else words)]
    try:
        if len(day_words) == 1:
            day = date.fromisoformat(day_words[0])
        elif len(day_words) == 3:
            month = next(i for i, w in enumerate(day_words) if w[:3] in _MONTHS)
            others = [w for i, w in enumerate(day_words) if i != month]
            on, year = (others if len(others[1]) == 4 else others[::-1]) if len(others) == 2 else ("", "")
            day = datetime(int(year), _MONTHS.index(day_words[month][:3]) + 1, int(on)).date()
        else:
            raise ValueError(written)
        at = time(int(clock[1]), int(clock[2])) if clock else time(0, 0)
    except (ValueError, StopIteration):
        shapes = "2026-12-01, Dec 1, 2026 or 1 Dec 2026 (then hh:mm)"
        raise CommandError(f"{written!r} is not a date: write {shapes}") from None
    moment = datetime.combine(day, at, zone)
    if end and clock is None:
        moment += timedelta(days=1) - timedelta(microseconds=1)
    return moment.astimezone(UTC)


def _press_lines(archive: GameArchive, index: int) -> list[str]:
    """The press everybody read in phase `index`, each under its heading as every reader saw it."""
    lines: list[str] = []
    for press in archive.press:
        if press.phase_index == index:
            heading = render("press_heading.txt.j2", None, for_gm=False, **press.heading_values()).strip()
            lines += ["", heading, *press.body.rstrip().splitlines()]
    return lines


def summary_players(ctx: MailContext, view: GameView) -> list[str]:
    """SUMMARY's players: by name to everyone, but to the GM alone while a gunboat game hides them."""
    for_gm = ctx.is_master and (ctx.game or "").lower() == view.name.lower()
    players = ctx.games.archives.players(view.name, for_gm=for_gm)
    sides = {player.side: tuple(player.powers) for player in view.players}
    return players_lines(view.name, view.variant, view.options, sides, players.changes, players.hidden)
