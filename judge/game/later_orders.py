"""Orders for a later phase (njudge's `PHASE season year phase`): a player going away sends his retreats, his builds
or his next moves in advance. They are read once, when the mail comes (`judge.game.checking.read_orders`), and held
as those values (`LaterOrderSet`) until the phase they name opens; then they become his side's orders for it, each
checked against the position then -- an order illegal then is refused with its reason, as a mail's would be -- and
the player is told what was filed (`LaterOrdersFiled`, worded by templates/notices/later_orders.txt.j2). Orders for
a phase that never comes (a retreat phase nobody had to play) are dropped when the game passes it, and the player
is told that too. A new PHASE mail for the same phase replaces the power's held orders, as orders for the phase
under way replace the earlier ones.

Conditional on the position then, as njudge's are: nothing is checked against the position now but that the
lines can be read (a line that cannot be read is refused at once: it would be refused then too).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from judge.engine import Position, Rules
from judge.engine.calendar import Calendar
from judge.engine.phase import SEASON_ALIASES, Phase, PhaseType
from judge.engine.refusals.reading import Unreadable
from judge.engine.supply import powers_to_order
from judge.game.checking import (
    LineCheck,
    OrderLine,
    check_orders,
    orders_from_json,
    orders_json,
    read_orders,
    route_lines,
)
from judge.game.deadline_events import LaterOrdersFiled
from judge.game.errors import GameError
from judge.game.order_writes import write_order_sets
from judge.game.orders import Submission, adjustments_due, printed
from judge.game.snapshot import Snapshot
from judge.game.use_case import UseCase, audience_of, side_of
from judge.store import Game, GameStatus, LaterOrderSet
from judge.variants import Side, get_variant

_TYPES = {
    "movement": PhaseType.MOVEMENT,
    "moves": PhaseType.MOVEMENT,
    "move": PhaseType.MOVEMENT,
    "m": PhaseType.MOVEMENT,
    "retreat": PhaseType.RETREAT,
    "retreats": PhaseType.RETREAT,
    "r": PhaseType.RETREAT,
    "adjustment": PhaseType.ADJUSTMENT,
    "adjustments": PhaseType.ADJUSTMENT,
    "adjust": PhaseType.ADJUSTMENT,
    "builds": PhaseType.ADJUSTMENT,
    "build": PhaseType.ADJUSTMENT,
    "a": PhaseType.ADJUSTMENT,
    "b": PhaseType.ADJUSTMENT,
    "placement": PhaseType.PLACEMENT,
    "p": PhaseType.PLACEMENT,
}
"""a phase's type as players write it after PHASE (njudge's help: `PHASE season year phase`; its codes use B for
builds, as `F1901B`)"""


@dataclass(frozen=True)
class HeldOrders:
    """Orders on file for a later phase, as a reply's "orders on file" block shows them: the phase, and each line
    as the player wrote it."""

    phase: str
    """as players read it: `Fall 1901 Retreat`"""
    code: str
    """njudge's code: `F1901R`"""
    power: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Held:
    """What became of a PHASE mail's orders: held for the phase, and the lines that could not be read at all."""

    game: str
    power: str
    phase: str
    lines: tuple[str, ...]
    unreadable: tuple[LineCheck, ...]
    replaced: bool


def _rank(calendar: Calendar, phase: Phase) -> tuple[int, int, int]:
    """Where a phase falls in the game's time: by year, season and type (a movement, its retreats, the year's
    adjustments)."""
    seasons = calendar.movement_seasons
    season = seasons.index(phase.season) if phase.season in seasons else len(seasons)
    kind = {PhaseType.MOVEMENT: 1, PhaseType.RETREAT: 2, PhaseType.ADJUSTMENT: 3}.get(phase.type, 0)
    return phase.year, season, kind


def _is_phase_of(calendar: Calendar, phase: Phase) -> bool:
    """Whether the calendar ever has the phase: a movement or retreat in a movement season, the year's
    adjustments in its adjustment season, or one of its opening phases."""
    if phase in calendar.opening:
        return True
    if phase.type in (PhaseType.MOVEMENT, PhaseType.RETREAT):
        return phase.season in calendar.movement_seasons
    return phase.type is PhaseType.ADJUSTMENT and phase.season == calendar.adjustment_season


def phase_named(rules: Rules, words: Sequence[str]) -> Phase:
    """The phase a PHASE line names: `Fall 1901 Retreat`, `Autumn 450 BC Movement`, `Winter 1901 Builds`, or njudge's
    code `F1901R` (`F1901B` for builds). GameError saying how to write it where the words name no phase of the
    game's calendar."""
    calendar = rules.calendar
    how = "write the phase as season, year and phase: PHASE Fall 1901 Retreat (or F1901R)"
    words = [w.strip(",.").lower() for w in words if w.strip(",.")]
    if len(words) == 1 and len(words[0]) >= 3:  # njudge's code: S1902M, F1901R, W1901B
        code = words[0]
        season_letter, middle, kind = code[0], code[1:-1], code[-1]
        bc = middle.endswith("bc")
        year_text = middle[:-2] if bc else middle
        season = next((s for s in _seasons(calendar) if s[0].lower() == season_letter), None)
        if season is None or not year_text.isdigit() or kind not in _TYPES:
            raise GameError(how)
        words = [season.lower(), year_text, *(["bc"] if bc else []), kind]
    if len(words) not in (3, 4) or (len(words) == 4 and words[2] != "bc"):
        raise GameError(how)
    season_word, year_text, kind_word = words[0], words[1], words[-1]
    season = SEASON_ALIASES.get(season_word) or next((s for s in _seasons(calendar) if s.lower() == season_word), None)
    if season is None or not year_text.isdigit() or kind_word not in _TYPES:
        raise GameError(how)
    year = -int(year_text) if len(words) == 4 else int(year_text)
    phase = Phase(season, year, _TYPES[kind_word])
    if phase.type is PhaseType.ADJUSTMENT and phase not in calendar.opening:
        phase = Phase(calendar.adjustment_season, year, PhaseType.ADJUSTMENT)  # "Fall 1901 Builds": the winter's
    if not _is_phase_of(calendar, phase):
        raise GameError(f"{calendar.display(phase)} is not a phase of this game; {how}")
    return phase


def _seasons(calendar: Calendar) -> list[str]:
    """Every season the calendar has, stored names and the names it writes them with."""
    stored = [*calendar.movement_seasons, calendar.adjustment_season, *(p.season for p in calendar.opening)]
    return [*stored, *(calendar.season_name(s) for s in stored)]


def _held_sets(s: Session, game_id: int, powers: Sequence[str]) -> list[tuple[str, str, list[str], list[Any]]]:
    """(phase code, power, lines, orders) of the held sets of these powers."""
    rows = s.execute(
        select(LaterOrderSet.phase, LaterOrderSet.power, LaterOrderSet.lines, LaterOrderSet.orders)
        .where(LaterOrderSet.game_id == game_id, LaterOrderSet.power.in_(list(powers)))
        .order_by(LaterOrderSet.id)
    )
    return [(phase, power, list(lines), list(orders)) for phase, power, lines, orders in rows]


def held_orders(
    s: Session, game: Game | Snapshot, powers: Sequence[str], phase: Phase | None = None
) -> list[HeldOrders]:
    """The orders these powers hold for later phases (`phase`: for that phase alone), the earliest phase first: the
    view a reply's "orders on file" block shows beside the orders for the phase under way (inside the caller's
    transaction, with the game loaded or its snapshot; `LaterOrders.on_file` outside one)."""
    rules = get_variant(game.variant).rules(game.options)
    calendar = rules.calendar
    found = []
    for code, power, lines, _ in _held_sets(s, game.id, powers):
        named = phase_named(rules, [code])
        if phase is None or named == phase:
            found.append(
                (_rank(calendar, named), HeldOrders(calendar.display(named), named.njudge_code, power, tuple(lines)))
            )
    return [held for _, held in sorted(found, key=lambda pair: (pair[0], pair[1].power))]


_ADD = {
    name: insert(LaterOrderSet.__table__)  # type: ignore[arg-type]
    for name, insert in (("postgresql", postgresql.insert), ("sqlite", sqlite.insert))
}


class LaterOrders(UseCase):
    """Holding a player's orders for a later phase, and showing them."""

    def hold(
        self, name: str, power: str, phase_words: Sequence[str], lines: Sequence[str], *, source_message_id: str | None
    ) -> Held:
        """Hold a mail's orders for the phase its PHASE line names (a later phase than the one under way); they
        replace the power's orders held for that phase."""
        with self.store.plain() as s:
            game = self.store.snapshot(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            rules, calendar = game.rules, game.rules.calendar
            phase = phase_named(rules, phase_words)
            now_phase = game.current.phase
            if _rank(calendar, phase) <= _rank(calendar, now_phase):
                raise GameError(
                    f"{calendar.display(phase)} is not a later phase than {calendar.display(now_phase)}, the phase "
                    "under way: orders for it are sent without PHASE"
                )
            read = read_orders(rules, lines)
            unreadable = tuple(
                LineCheck(r.text, "", True, (Unreadable(r.error),))
                for line in read
                for r in line.orders
                if r.order is None
            )
            kept = [line for line in read if all(r.order is not None for r in line.orders)]
            found = s.scalar(
                select(LaterOrderSet.id).where(
                    LaterOrderSet.game_id == game.id, LaterOrderSet.phase == phase.code, LaterOrderSet.power == power
                )
            )
            lines_kept = [line.line for line in kept]
            values: dict[str, Any] = {
                "game_id": game.id,
                "phase": phase.code,
                "power": power,
                "lines": lines_kept,
                "orders": orders_json(kept),
                "submitted_at": self.clock.now(),
                "source_message_id": source_message_id[:998] if source_message_id else None,
            }
            if kept:
                statement = _ADD[s.get_bind().dialect.name].values(**values)
                s.execute(
                    statement.on_conflict_do_update(
                        index_elements=["game_id", "phase", "power"],
                        set_={k: getattr(statement.excluded, k) for k in ("lines", "orders", "submitted_at",
                                                                           "source_message_id")},
                    )
                )  # fmt: skip
            replaced = found is not None and bool(kept)
            return Held(name, power, calendar.display(phase), tuple(lines_kept), unreadable, replaced)

    def phase_for(self, name: str, words: Sequence[str]) -> tuple[bool, str]:
        """Whether a PHASE line names a later phase than the one under way, and the phase as players read it; the
        phase under way is no error (the orders are for it), an earlier one is refused."""
        with self.store.plain() as s:
            game = self.store.snapshot(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            calendar = game.rules.calendar
            phase, now_phase = phase_named(game.rules, words), game.current.phase
            if _rank(calendar, phase) < _rank(calendar, now_phase):
                raise GameError(f"{calendar.display(phase)} is past: {name} is in {calendar.display(now_phase)}")
            return phase != now_phase, calendar.display(phase)

    def on_file(self, name: str, power: str, phase: Phase | None = None) -> list[HeldOrders]:
        """The orders the power's side holds for later phases (`phase`: for that one alone)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            return held_orders(s, game, side_of(game, power).powers, phase)


def file_held_orders(s: Session, game: Game, rules: Rules, position: Position, now: datetime) -> list[LaterOrdersFiled]:
    """When a phase opens (the game in `position`, its phase index already the new one's): the orders held for it
    become the orders on file for it, each side's lines going to the power whose unit they name then, each order
    checked against the position now; held orders whose phase has passed without coming are dropped. Returns the
    notices, one a side, for the caller to raise."""
    calendar = rules.calendar
    opened = position.phase
    held = _held_sets(s, game.id, [seat.power for seat in game.seats if seat.power])
    if not held:
        return []
    players = audience_of(game).players
    due: dict[str, tuple[Side, list[tuple[str, list[str], list[Any]]]]] = {}
    passed: dict[str, tuple[Side, list[str]]] = {}
    done_with = []
    for code, power, lines, orders in held:
        named = phase_named(rules, [code])
        side = side_of(game, power)
        if named == opened:
            due.setdefault(side.name, (side, []))[1].append((power, lines, orders))
        elif _rank(calendar, named) < _rank(calendar, opened):
            passed.setdefault(side.name, (side, []))[1].append(calendar.display(named))
        else:
            continue
        done_with.append(code)
    events = []
    for side, sets in due.values():
        done = _file_side(s, game, rules, position, side, sets, now)
        address = next((players[p] for p in side.powers if p in players), None)
        if address is not None:
            events.append(LaterOrdersFiled(game=game.name, phase=done.phase, power=done.power, submission=done,
                                           address=address))  # fmt: skip
    for side, phases in passed.values():
        address = next((players[p] for p in side.powers if p in players), None)
        if address is not None:
            events.append(LaterOrdersFiled(game=game.name, phase=", ".join(phases), power=side.label, submission=None,
                                           address=address, came=calendar.display(opened)))  # fmt: skip
    s.execute(delete(LaterOrderSet).where(LaterOrderSet.game_id == game.id, LaterOrderSet.phase.in_(done_with)))
    return events


def _file_side(
    s: Session,
    game: Game,
    rules: Rules,
    position: Position,
    side: Side,
    sets: list[tuple[str, list[str], list[Any]]],
    now: datetime,
) -> Submission:
    """File a side's held orders for the phase that opened, as a mail's orders are filed (`Orders.submit`): each
    line with the power whose unit it names now, each order checked now; what became of them, as a reply says."""
    signed = sets[0][0]
    read = [line for _, lines, orders in sets for line in orders_from_json(lines, orders)]
    many = len(side.powers) > 1
    owners = route_lines(rules, position, side.powers, signed, read) if many else [signed] * len(read)
    by_power: dict[str, list[OrderLine]] = {}
    for line, owner in zip(read, owners, strict=True):
        by_power.setdefault(owner, []).append(line)
    rows, checks, filed = [], [], {}
    for power, own in by_power.items():
        checked = check_orders(rules, position, power, own)
        checks.extend(checked)
        filed[power] = [c for c in checked if printed(c)]
        rows.append({"set_game": game.id, "set_phase": game.phase_index, "set_power": power,
                     "lines": [line.line for line in own], "orders": orders_json(own),
                     "checked": [c.as_json() for c in checked], "has_errors": any(c.refused for c in checked),
                     "submitted_at": now, "source_message_id": None})  # fmt: skip
    write_order_sets(s, rows)
    mine = sorted(side.powers)
    owed = tuple(sorted(set(mine) & powers_to_order(rules, position) - filed.keys())) if many else ()
    return Submission(game.name, side.label if many else signed, rules.calendar.display(position.phase), checks,
                      False, position.phase.type, {p: filed.get(p, []) for p in mine} if many else {},
                      adjustments_due(rules, position, mine if many else [signed]), owed)  # fmt: skip
