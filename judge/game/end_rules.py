"""The GM's rules on how a game may end (issue 44 item 5), changed by `SET`: the victory count (the rule option
`victory_centres`, njudge's SET CENTERS), whether the players may draw (`draw.allowed`) or concede
(`concede.allowed`), and the year the game ends at (`end.year`, judge.game.year_end).

Rulings:
- the victory count may change while the game runs, as njudge's SET CENTERS may at any time; every other rule option
  is fixed at the start (judge.game.setup);
- a draw vote or a concession made while they were allowed is dropped when the GM forbids them (a vote that could
  never pass is not kept to surprise anyone when they are allowed again); everyone is told the rule, never whose
  votes there were (a vote is secret until the game ends, as a rollback's withdrawn votes are), and the GM's reply
  names them;
- an end year already past is refused: the game would end at once, at whatever phase it is in;
- every change to these rules in a running game is told to everyone in it, as a change of the press rules is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.game.errors import GameError
from judge.game.events import EndingRulesChanged
from judge.game.settings import concessions_allowed, draws_allowed, end_year, shown, shown_option
from judge.game.use_case import audience_of, side_of
from judge.store import DrawVote, Game, GameStatus
from judge.variants import get_variant

RUNNING_OPTIONS = frozenset({"victory_centres"})
"""the rule options a GM may change after the start (njudge's SET CENTERS: any time)"""

_SETTINGS = ("draw.allowed", "concede.allowed", "end.year")


def check_refused(variant: str, name: str) -> None:
    """Refuse, with the variant's reason, a rule option other variants take and this one does not (CW
    Heptadiplomacy's `victory_centres`): SET and CREATE would otherwise call it an unknown setting."""
    chosen = get_variant(variant)
    why = chosen.rules_class.refused_options.get(name.strip().lower())
    if why is not None:
        raise GameError(f"{chosen.title} refuses the rule option {name.strip().lower()}: {why}")


def check_end_year(game: Game, settings: dict[str, Any]) -> None:
    """Refuse an end year before the year the game is in (or, before the start, its first year)."""
    year = end_year(settings)
    if year is None or year == end_year(game.settings):
        return
    phase = (game.position or {}).get("phase")
    now = int(phase["year"]) if phase else get_variant(game.variant).first_phase().year
    if year < now:
        raise GameError(
            f"end.year={shown('end.year', year)} is before {shown('end.year', now)}, the year {game.name} "
            f"{'is in' if phase else 'starts in'}: the game would end at once"
        )


def ending_changed(
    s: Session, game: Game, options: dict[str, Any], settings: dict[str, Any]
) -> EndingRulesChanged | None:
    """What changing a running game's options and settings to these does to how it ends: draw votes and concessions
    dropped where they are no longer allowed, and the event telling everyone; None where nothing of it changed or
    the game is not running. Called before the game takes the new values."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        return None
    changed: list[tuple[str, str]] = []
    if options.get("victory_centres") != game.options.get("victory_centres"):
        changed.append(("victory_centres", shown_option(options.get("victory_centres", 0))))
    before = {"draw.allowed": draws_allowed, "concede.allowed": concessions_allowed}
    for name in _SETTINGS:
        read = before.get(name)
        old, new = (read(game.settings), read(settings)) if read else (end_year(game.settings), end_year(settings))
        if old != new:
            changed.append((name, shown(name, new) if new is not None else "none"))
    if not changed:
        return None
    draws: list[str] = []
    if not draws_allowed(settings):
        voters = s.scalars(select(DrawVote.power).where(DrawVote.game_id == game.id, DrawVote.accept.is_(True)))
        draws = sorted({side_of(game, power).label for power in voters})
        s.execute(delete(DrawVote).where(DrawVote.game_id == game.id))
    conceded: list[str] = []
    if not concessions_allowed(settings) and game.concessions:
        conceded = sorted({side_of(game, power).label for power in game.concessions})
        game.concessions = {}
    victory = get_variant(game.variant).rules(options).victory_centres() if changed[0][0] == "victory_centres" else None
    return EndingRulesChanged(
        game=game.name,
        changed=tuple(changed),
        victory=victory,
        draws_dropped=draws_allowed(game.settings) and not draws_allowed(settings),
        concessions_dropped=concessions_allowed(game.settings) and not concessions_allowed(settings),
        dropped_draws=tuple(draws),
        dropped_concessions=tuple(conceded),
        audience=audience_of(game),
    )


@dataclass(frozen=True)
class EndingTerms:
    """How a game may end, as LIST and the game's page show it: a value their words are made from (a frozen dataclass,
    as the game layer's values are)."""

    victory: int | None
    """the supply centres a side needs to win; None where the variant is won otherwise (CW Heptadiplomacy's claims)"""
    by_gm: bool
    """the GM set the count (`victory_centres`); else it is the map's"""
    draws: bool
    """the players may draw: the variant has draws (CW Heptadiplomacy has none) and the GM allows them"""
    variant_draws: bool
    """the variant has draws at all"""
    concessions: bool
    end_year: str | None
    """the year the game ends at, as the GM writes it ("1905", "440 BC"), or None"""


def ending_terms(variant: str, options: dict[str, Any], given: dict[str, Any]) -> EndingTerms:
    """The terms from a game's variant, rule options and the settings its GM gave, flat as the views keep them
    (`judge.game.settings.given_settings`)."""
    chosen = get_variant(variant)
    rules = chosen.rules(options)
    counted = "victory_centres" in rules.OPTIONS
    year = given.get("end.year")
    return EndingTerms(
        victory=rules.victory_centres() if counted else None,
        by_gm=bool(options.get("victory_centres")),
        draws=chosen.draws and bool(given.get("draw.allowed", True)),
        variant_draws=chosen.draws,
        concessions=bool(given.get("concede.allowed", True)),
        end_year=shown("end.year", year) if isinstance(year, int) else None,
    )
