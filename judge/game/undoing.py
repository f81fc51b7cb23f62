"""The GM's mistakes about a game's life taken back (issue 44 item 5): UNSTART, a game started by mistake forming
again, and UNTERMINATE, a TERMINATE taken back within `end.undo_hours`. Neither judge had either: njudge has no
UNSTART; DPjudge's GM sets a game's state by hand (FORM, ACTIVATE) and its ROLLBACK to phase 1 returns a game to
forming. Here each is one command with its own limits, said in its refusal.

UNSTART is taken only before the game's first phase is processed: after it, a phase's results were mailed and
orders adjudicated, which ROLLBACK (to the first phase) or TERMINATE undo honestly. The joined players stay joined
with the preferences they gave; what the start made is gone: the powers they were given (a player of several powers
keeps one place), the places nobody took (civil disorder), the position, the orders, draw votes and wishes to take
an open place, the deadline, the judge's marks, the end-of-game statements filed on it. Its `game unstarted` event
tells the players' records that the start does not count (`judge.game.records`).

UNTERMINATE returns a terminated game to the status it had (`Game.ended_from`), with its deadline moved on by the
time it lay terminated (a paused game keeps its deadline: RESUME moves it on by the time since the pause, which
covers it). A terminated game was never rated nor anyone's finish; taken back, it is as if never terminated."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.contract import position_json
from judge.game.errors import GameError
from judge.game.events import GameUnstarted, GameUnterminated
from judge.game.settings import is_gunboat, reveals_at_end, section
from judge.game.table_talk import release_held_press
from judge.game.timing import timing_from_settings
from judge.game.use_case import UseCase, audience_of
from judge.store import (
    DrawVote,
    Game,
    GameStatus,
    JoinRequest,
    LaterOrderSet,
    Marks,
    OrderSet,
    PhaseRecord,
    SeatStatus,
    Statement,
)
from judge.variants import get_variant

UNDO_HOURS = 48.0
"""`end.undo_hours`' default: two days, for a GM who hears of his mistake from a player who reads his mail once a
day and answers it the next"""


def undo_hours(settings: dict[str, Any]) -> float:
    """How long after a TERMINATE the GM may take it back (`end.undo_hours`)."""
    return float(section(settings, "end").get("undo_hours", UNDO_HOURS))


class TooLate(GameError):
    """UNTERMINATE after `end.undo_hours`: when the game was terminated and the window, for the refusal to word."""

    def __init__(self, name: str, ended: datetime, window: timedelta, zone: str) -> None:
        self.ended, self.window, self.zone = ended, window, zone
        hours = f"{window.total_seconds() / 3600:g}h"
        said = f"{name} was terminated more than {hours} ago (end.undo_hours): it can no longer be taken back"
        super().__init__(said)


class Undoing(UseCase):
    def unstart(self, name: str) -> GameUnstarted:
        """Return a game started by mistake to forming (module docstring); refused once a phase was processed."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is {game.status}: only a started game that is not over can be unstarted")
            processed = s.scalar(select(PhaseRecord.id).where(PhaseRecord.game_id == game.id).limit(1))
            if processed is not None or game.phase_index > 0:
                raise GameError(
                    f"{name} has processed a phase already: its results went out, so it cannot form again; "
                    "ROLLBACK returns it to a phase, TERMINATE ends it"
                )
            audience = audience_of(game)
            release_held_press(self, s, game)  # the results they waited for will never come
            for table in (OrderSet, LaterOrderSet, DrawVote, Statement):  # a statement too: on a start undone
                s.execute(delete(table).where(table.game_id == game.id))
            # a wish to take an open place (TAKEOVER) names a side the start made; a wish to join stands
            s.execute(delete(JoinRequest).where(JoinRequest.game_id == game.id, JoinRequest.side.is_not(None)))
            _unseat(s, game)
            variant = get_variant(game.variant)
            if game.position == position_json(variant.name, variant.starting_position()):
                game.position = None  # else the position a GM imported (`judge import`), from which it starts again
            game.status = GameStatus.FORMING
            game.phase_index = 0
            game.deadline = None
            game.marks = Marks()
            game.concessions = {}
            game.absences = {}  # kept by power, and nobody has one now
            game.pictures_off = []
            game.njudge_layout = []
            joined = {f"(seat {n})": seat.player.address for n, seat in enumerate(game.seats) if seat.player}
            told = replace(audience, players={**audience.players, **joined})
            event = GameUnstarted(game=name, players=len(joined), audience=told)
            self.raise_event(s, game, event)
            return event

    def unterminate(self, name: str) -> GameUnterminated:
        """Take back the GM's TERMINATE within `end.undo_hours` of it (module docstring)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.FINISHED or game.result != "terminated":
                what = f"ended by {game.result}" if game.status == GameStatus.FINISHED else str(game.status)
                raise GameError(f"{name} is not terminated ({what}): only a TERMINATE can be taken back")
            now = self.clock.now()
            ended = as_utc(game.finished_at) or now
            window = timedelta(hours=undo_hours(game.settings))
            if now - ended > window:
                raise TooLate(name, ended, window, timing_from_settings(game.settings).zone)
            revealed = is_gunboat(game.settings) and reveals_at_end(game.settings) and game.position is not None
            status = game.ended_from or (GameStatus.FORMING if game.position is None else GameStatus.ACTIVE)
            game.status = status
            game.result = None
            game.winners = None
            game.finished_at = None
            game.ended_from = None
            if revealed:  # its end named the players to everyone: that cannot be taken back, so they stay named
                game.settings = {**game.settings, "gunboat": False}
            extended = None
            if status == GameStatus.ACTIVE and game.deadline is not None:
                extended = now - ended
                game.deadline = as_utc(game.deadline) + extended
            audience = audience_of(game)
            if game.position is None:  # the players who joined a forming game are told, as TERMINATE told them
                joined = {f"(seat {n})": seat.player.address for n, seat in enumerate(game.seats) if seat.player}
                audience = replace(audience, players=joined)
            event = GameUnterminated(
                game=name,
                status=str(status),
                deadline=game.deadline if status != GameStatus.FORMING else None,
                extended_by=extended,
                zone=timing_from_settings(game.settings).zone,
                revealed=revealed,
                audience=audience,
            )
            self.raise_event(s, game, event)
            return event


def _unseat(s: Session, game: Game) -> None:
    """Each joined player keeps one place, with his preferences and no power; the places the start made (a
    player's further powers, those nobody took) go."""
    kept: set[int] = set()
    for seat in list(game.seats):
        if seat.player_id is None or seat.player_id in kept:
            game.seats.remove(seat)
            s.delete(seat)
            continue
        kept.add(seat.player_id)
        seat.power = None
        seat.status = SeatStatus.WAITING
        seat.missed = 0
        seat.wait = False
    s.flush()
