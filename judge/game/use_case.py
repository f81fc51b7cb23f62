"""What every use case shares: the store, the clock, the events it raises, and the facts of a game that several
use cases need (who gets its mail, when its phase falls due, how it ends)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from judge.clock import Clock
from judge.contract import position_from_json
from judge.engine import Phase
from judge.engine.supply import powers_to_order
from judge.game.attendance import extended_deadline
from judge.game.errors import GameError
from judge.game.events import Audience, GameEvent
from judge.game.snapshot import Snapshot
from judge.game.store import GameStore, rules_of
from judge.game.timing import deadline_after, timing_from_settings
from judge.store import Game, GameEventRecord, GameStatus, Seat
from judge.variants import get_variant


@dataclass
class UseCase:
    store: GameStore
    clock: Clock
    events: list[GameEvent]
    """every event raised in this unit of work, in order (the caller hands them to the notifier)"""

    def raise_event(self, s: Session, game: Game | Snapshot, event: GameEvent, phase: int | None = None) -> None:
        """Say what happened: for the notifier, and kept with the game where a later reader needs it, under the
        phase it happened in (`phase`: when that is not the phase the game is in now)."""
        self.events.append(event)
        if event.stored:
            index = game.phase_index if phase is None else phase
            record = GameEventRecord(game_id=game.id, phase_index=index, kind=event.kind, data=event.data(),
                                     at=self.clock.now())  # fmt: skip
            s.add(record)


def audience_of(game: Game) -> Audience:
    """Who gets the game's mail now."""
    players = {seat.power: seat.player.address for seat in game.seats if seat.power and seat.player}
    return Audience(players, game.gm.address, tuple(game.settings.get("observers", [])))


def seat_of(game: Game, power: str) -> Seat:
    for seat in game.seats:
        if seat.power == power:
            return seat
    raise GameError(f"{power} is not a power in {game.name}")


def powers_named(game: Game, texts: list[str] | tuple[str, ...]) -> list[str]:
    """The powers a player named (`France`, `F`, `french`), or a GameError naming the word that is none."""
    board = rules_of(game).board
    found = []
    for text in texts:
        power = board.lookup_power(text)
        if power is None:
            raise GameError(f"{text!r} is not a power of {game.variant}")
        found.append(power)
    return found


def phase_name(position: dict[str, Any]) -> str:
    """The phase as players read it: its season as the variant names it, years before Christ as "450 BC"."""
    phase = position["phase"]
    parsed = Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"]))
    return get_variant(str(position.get("variant") or "standard")).phase_name(parsed)


def next_deadline(game: Game, now: datetime) -> datetime | None:
    """The deadline of the phase the game is now in, counted from now, and moved past the absence of a player
    who has to order in it (`judge.game.attendance`)."""
    if not game.position:
        return None
    timing = timing_from_settings(game.settings)
    deadline = deadline_after(now, timing, str(game.position["phase"]["type"]))
    if not game.settings.get("absences"):
        return deadline
    rules = rules_of(game)
    due = powers_to_order(rules, position_from_json(rules, game.position))
    return extended_deadline(game.settings, deadline, due) or deadline


def finish(game: Game, result: str, winners: list[str], now: datetime) -> None:
    """The game is over: `result` is victory, draw, concession or terminated."""
    game.status = GameStatus.FINISHED
    game.result = result
    game.winners = sorted(winners)
    game.finished_at = now
