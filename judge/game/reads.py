"""Reading games without changing them: the list, one game, who gets its mail, its history."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import Text, and_, cast, func, or_, select
from sqlalchemy.orm import Session, object_session

from judge.engine import Phase
from judge.game.anonymity import joined_names, known_as
from judge.game.attendance import Absence, absences
from judge.game.errors import GameError
from judge.game.events import Audience
from judge.game.filed_statements import statements_of
from judge.game.house_rules import PressRules
from judge.game.names import as_shown, shown_name
from judge.game.orders_in import order_sets, sides_in
from judge.game.preferences import first_choices
from judge.game.public_events import public_events
from judge.game.setting_table import SETTINGS
from judge.game.settings import given_settings, is_private, results_style, shows_orders_in
from judge.game.timing import timing_from_settings
from judge.game.use_case import UseCase, audience_of, phase_name, registered_names, side_of, sides_of
from judge.game.views import (
    GameView,
    GmView,
    PhaseView,
    PlayerStatus,
    PlayerView,
    PowerStatus,
    PublicGame,
    PublicHistory,
    PublicPhase,
    PublicPress,
    SeatView,
    YearCentres,
)
from judge.store import (
    DrawVote,
    Game,
    GameEventRecord,
    GameStatus,
    PhaseRecord,
    Press,
    Seat,
    SeatStatus,
    Statement,
)


class Reads(UseCase):
    def game(self, name: str) -> GameView:
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            return GameView(
                name=game.name,
                variant=game.variant,
                options=dict(game.options),
                status=game.status,
                phase_index=game.phase_index,
                position=game.position,
                result=game.result,
                winners=list(game.winners) if game.winners else None,
                deadline=game.deadline,
                style=results_style(game.settings),
                gm=as_shown(game.gm.name),
                seats=tuple(
                    SeatView(
                        power=seat.power,
                        player=known_as(game, seat.player),
                        address=seat.player.address if seat.player else None,
                        status=seat.status,
                        missed=seat.missed,
                    )
                    for seat in game.seats
                ),
                players=_players(game),
                settings=given_settings(game.settings),
                open_sides=_open_sides(game) if game.status == GameStatus.FORMING else (),
                places=len(sides_of(game)),
                co_gms=registered_names(s, game.co_gms or ()),
                observers=registered_names(s, game.observers or ()),
                gm_reads_press=PressRules.of(game.settings).gm_reads,
            )

    def gm_view(self, name: str) -> GmView:
        """The GM's view of a game: per player, orders in or missing (per power), draw votes, concessions,
        absences; and the game's settings and rule options."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            due, sets = order_sets(s, game)
            votes = {v.power: v for v in s.scalars(select(DrawVote).where(DrawVote.game_id == game.id))}
            conceded: dict[str, str] = dict(game.concessions)
            away = {a.power: a for a in absences(game.absences)}
            zone = timing_from_settings(game.settings).tz
            by_power = {seat.power: seat for seat in game.seats if seat.power}
            players = []
            for side in sides_of(game):
                seats = [by_power[p] for p in side.powers if p in by_power]
                if not seats:
                    continue
                holder = next((seat.player for seat in seats if seat.player), None)
                powers = tuple(
                    PowerStatus(
                        seat.power or "",
                        "not due"
                        if seat.power not in due
                        else "missing"
                        if seat.power not in sets
                        else "with errors"
                        if sets[seat.power]
                        else "in",
                        seat.status,
                    )
                    for seat in seats
                )
                vote = next((votes[p] for p in side.powers if p in votes and votes[p].accept), None)
                absence = next((away[p] for p in side.powers if p in away), None)
                players.append(
                    PlayerStatus(
                        side=side.label,
                        player=as_shown(holder.name) if holder else None,
                        address=holder.address if holder else None,
                        powers=powers,
                        draw=None
                        if vote is None
                        else "for a draw among " + ", ".join(_labels(game, vote.powers))
                        if vote.powers
                        else "for a draw",
                        conceded_to=next(
                            (side_of(game, conceded[p]).label for p in side.powers if p in conceded), None
                        ),
                        away=None
                        if absence is None
                        else "{:%a %d %b %Y} to {:%a %d %b %Y}".format(*absence.days(zone)),
                        wait=any(seat.wait for seat in seats),
                    )
                )
            return GmView(
                game=name,
                phase=phase_name(game.position) if game.position else "forming",
                deadline=game.deadline,
                players=tuple(players),
                options=dict(game.options),
                settings=given_settings(game.settings),
            )

    def audience(self, name: str) -> Audience:
        """Who gets the game's mail: each power's player, the GM, the observers."""
        with self.store.plain() as s:
            return audience_of(self.store.peek(s, name))

    def brief(self, name: str) -> tuple[str | None, datetime | None, str]:
        """The phase a game is in, its deadline and its zone, read cheaply (for the foot of every reply)."""
        with self.store.plain() as s:
            game = self.store.find_snapshot(s, name)
            if game is None or game.position is None:
                return None, None, "UTC"
            zone = game.zone
            if game.status == GameStatus.FINISHED:
                return "no phase: the game is over", None, zone
            if game.status == GameStatus.PAUSED:  # no deadline runs: RESUME moves it on by the time paused
                return f"{phase_name(game.position)}, paused by the GM (no deadline runs until RESUME)", None, zone
            return phase_name(game.position), game.deadline, zone

    def centre_history(self, name: str) -> list[YearCentres]:
        """The centre counts at the end of each year played (ownership changes only after Fall), with the
        starting counts as the year before the first; the current year's counts when it is under way, marked
        unfinished while the game is still in that year."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            records = s.execute(
                select(PhaseRecord.index, PhaseRecord.year, PhaseRecord.outcome)
                .where(PhaseRecord.game_id == game.id)
                .order_by(PhaseRecord.index)
            ).all()
            return _centre_years(s, game, [(index, year, outcome) for index, year, outcome in records])

    def phase_index_of(self, name: str, code: str) -> int:
        """The number of the processed phase with the njudge code `code` (S1901M); the latest if a rollback
        played it twice."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            records = s.scalars(
                select(PhaseRecord).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.index.desc())
            )
            played = []
            for record in records:
                if _code(record.outcome) == code.upper():
                    return record.index
                played.append(f"{_code(record.outcome)} ({record.index})")
            choices = f"; the processed phases are {', '.join(reversed(played))}" if played else ""
            raise GameError(f"{name} has no processed phase {code}{choices}")

    def outcomes(self, name: str) -> list[dict[str, Any]]:
        """Every processed phase's outcome, in the order played (the whole game, for its animation)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            return [
                dict(outcome)
                for outcome in s.scalars(
                    select(PhaseRecord.outcome).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.index)
                )
            ]

    def phase(self, name: str, index: int) -> PhaseView:
        """A processed phase, by number."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            record = s.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.index == index))
            if record is None:
                raise GameError(f"{name} has no processed phase {index}")
            return PhaseView(index, _code(record.outcome), dict(record.outcome))

    # --- what the web shows: public by construction ------------------------------------------------------------

    def public_games(self) -> list[PublicGame]:
        """Every game as anyone may see it (the web's list of games and the export)."""
        with self.store.plain() as s:
            return [_public(g) for g in s.scalars(select(Game).order_by(Game.name))]

    def public_game(self, name: str) -> PublicGame:
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            return _public(game, sides_in(s, game) if shows_orders_in(game.settings) else None)

    def public_history(self, name: str) -> PublicHistory:
        """The processed phases (each outcome carries the orders, public once processed) and the press everyone
        read: broadcasts that were delivered (held press only once released), a grey one without its sender.
        Orders on file for the phase under way, press to some powers and the GM's note never appear."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            records = s.execute(
                select(PhaseRecord.index, PhaseRecord.year, PhaseRecord.outcome, PhaseRecord.processed_at)
                .where(PhaseRecord.game_id == game.id)
                .order_by(PhaseRecord.index)
            ).all()
            phases = tuple(
                PublicPhase(index, _code(outcome), phase_name(outcome), outcome, at)
                for index, _, outcome, at in records
            )
            centres = _centre_years(s, game, [(index, year, outcome) for index, year, outcome, _ in records])
            rows = s.scalars(select(Press).where(Press.game_id == game.id, TO_EVERYBODY).order_by(Press.id))
            press = tuple(PublicPress(row.phase_index, _public_sender(row), row.body, row.created_at) for row in rows)
            events = public_events(s, game, phases)
            over = game.status == GameStatus.FINISHED  # statements are private until the end
            return PublicHistory(phases, press, tuple(centres), events, statements_of(s, game) if over else ())

    def history_stamp(self, name: str) -> str:
        """A cheap value that changes whenever `public_history` would (a phase processed or rolled back, the game
        ended, press to everybody posted or released): what a cache of the history is kept by. Made of public facts
        only, so nothing private (press to some powers, orders on file, a note) changes it: a stranger timing the
        pages cannot tell when private press was sent (issue 41)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            phases = s.execute(
                select(func.count(PhaseRecord.id), func.max(PhaseRecord.processed_at)).where(
                    PhaseRecord.game_id == game.id
                )
            ).one()
            press = s.execute(
                select(func.count(Press.id), func.max(Press.id)).where(Press.game_id == game.id, TO_EVERYBODY)
            ).one()
            events = s.execute(
                select(func.count(GameEventRecord.id), func.max(GameEventRecord.id)).where(
                    GameEventRecord.game_id == game.id
                )
            ).one()
            said: tuple[object, ...] = ()
            if game.status == GameStatus.FINISHED:  # statements are public once the game is over, never before
                said = tuple(
                    s.execute(
                        select(func.count(Statement.id), func.max(Statement.filed_at)).where(
                            Statement.game_id == game.id
                        )
                    ).one()
                )
            counts = (*phases, *press, *events, *said)
            return ":".join(str(each) for each in (game.status, game.phase_index, *counts))


def _public_sender(row: Press) -> str | None:
    """Who the pages say sent a message everybody read: as its readers were shown it (fake press: never the truth)."""
    return None if row.grey else "Observer" if row.observer else (row.shown_sender or row.sender or "GM")


TO_EVERYBODY = and_(cast(Press.recipients, Text) == json.dumps(["*"]), or_(Press.released, ~Press.with_results))
"""press everybody has read: to everybody, and delivered (held press only once released with the results)"""


_SHOWN_POSITION = ("units", "supply_centers", "sides", "state")
"""what of the position the public view carries: what every results mail shows, and what its counts read"""


def _public(game: Game, orders: dict[str, str] | None = None) -> PublicGame:
    """`orders`: each side's "in" / "not in", where the GM shows it (`judge.game.orders_in`)."""
    finished = game.status == GameStatus.FINISHED
    return PublicGame(
        name=game.name,
        variant=game.variant,
        status=game.status,
        phase=("over" if finished else phase_name(game.position)) if game.position else "forming",
        deadline=None if finished or game.status == GameStatus.PAUSED else game.deadline,
        gm=shown_name(game.gm.name),
        players=_players(game, orders or {}),
        joined=joined_names(game, (seat.player for seat in game.seats if seat.player))
        if game.status == GameStatus.FORMING
        else (),
        places=len(sides_of(game)),
        options=dict(game.options),
        settings={k: v for k, v in given_settings(game.settings).items() if k in SETTINGS},
        result=game.result,
        winners=tuple(str(w if not isinstance(w, dict) else w.get("side", "")) for w in game.winners or ()),
        private=is_private(game.settings),
        position={k: game.position[k] for k in _SHOWN_POSITION if k in game.position} if game.position else None,
        open_sides=_open_sides(game) if game.status == GameStatus.FORMING else (),
        co_gms=registered_names(object_session(game), game.co_gms or ()),
        observers=registered_names(object_session(game), game.observers or ()),
        gm_reads_press=PressRules.of(game.settings).gm_reads,
    )


def _centre_years(s: Session, game: Game, records: list[tuple[int, int, dict[str, Any]]]) -> list[YearCentres]:
    """`centre_history` from the processed phases' (index, year, outcome), in order: the position before the first
    is read alone (the counts the game started with)."""
    by_year: dict[int, dict[str, list[str]]] = {}
    if records:
        first = s.scalar(
            select(PhaseRecord.position_before).where(
                PhaseRecord.game_id == game.id, PhaseRecord.index == records[0][0]
            )
        )
        start = (first or {}).get("supply_centers", {})
        by_year[records[0][1] - 1] = {p: list(c) for p, c in start.items()}
    for _, year, outcome in records:
        by_year[year] = {p: list(c) for p, c in outcome.get("supply_centers", {}).items()}
    current = (game.position or {}).get("phase", {}).get("year") if game.status != GameStatus.FINISHED else None
    return [YearCentres(year, year != current, owned) for year, owned in sorted(by_year.items())]


def _open_sides(game: Game) -> tuple[str, ...]:
    """In a forming game, the sides no player who has joined asked for first (the powers are given at the start, by
    the preferences named at JOIN)."""
    asked = {power for seat in game.seats for power in first_choices(seat.preferences)}
    return tuple(side.label for side in sides_of(game) if not asked & set(side.powers))


_SHOWN_FIRST = (SeatStatus.VACANT, SeatStatus.CIVIL_DISORDER, SeatStatus.ABANDONED, SeatStatus.LATE)
"""a side's seats' statuses that LIST shows for the side, the first found in this order"""


def _days_away(absence: Absence, zone: ZoneInfo) -> str:
    """An absence as STATUS writes it: its first and last days, as SET ABSENCE read them."""
    first, last = absence.days(zone)
    return f"{first:%a %d %b %Y} to {last:%a %d %b %Y}"


def side_status(seats: list[Seat]) -> str:
    """How LIST names a side's state: its attendance is counted power by power (a Hepta player late for board 7
    alone is late), and it is eliminated only when every power of it is (a board-nation knocked out leaves the
    player in the game)."""
    live = [seat for seat in seats if seat.status != SeatStatus.ELIMINATED]
    if not live:
        return SeatStatus.ELIMINATED
    return next((status for status in _SHOWN_FIRST if any(seat.status == status for seat in live)), live[0].status)


def _players(game: Game, orders: dict[str, str] | None = None) -> tuple[PlayerView, ...]:
    by_power = {seat.power: seat for seat in game.seats if seat.power}
    if not by_power:
        return ()
    found = []
    for side in sides_of(game):
        seats = [by_power[p] for p in side.powers if p in by_power]
        if seats:
            holder = next((seat.player for seat in seats if seat.player), None)
            name = known_as(game, holder)
            shown = (orders or {}).get(side.label)
            found.append(PlayerView(side.label, name, side_status(seats), side.powers, shown))
    return tuple(sorted(found, key=lambda p: p.side))


def _code(outcome: dict[str, object]) -> str:
    phase = outcome["phase"]
    assert isinstance(phase, dict)
    return Phase.parse(phase["season"], phase["year"], phase["type"]).code


def _labels(game: Game, powers: list[str]) -> list[str]:
    """The players a list of powers makes up, as lists name them (a draw among `Sparta + Elatea, Athens + ...`)."""
    return [side.label for side in sides_of(game) if set(side.powers) & set(powers)]
