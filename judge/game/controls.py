"""The GM's controls over a running game: the clock (PAUSE, RESUME, SET DEADLINE), ROLLBACK, the seats (EJECT,
REPLACE, a player's RESIGN) and TERMINATE. Each says what it did as an event, and the notifier tells the game."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from zoneinfo import ZoneInfo

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.contract import position_from_json
from judge.engine.supply import powers_to_order, surviving_powers
from judge.game.anonymity import name_for_others, names_hidden
from judge.game.checking import orders_json, read_orders
from judge.game.deadlines import mark
from judge.game.errors import GameError
from judge.game.events import DeadlineMoved, GameEnded, GamePaused, GameResumed, GameRolledBack
from judge.game.seat_events import PlayerEjected, PlayerReplaced, PlayerResigned, PlayersRevealed
from judge.game.store import position_of, rules_of
from judge.game.table_talk import release_held_press
from judge.game.timing import timing_from_settings
from judge.game.use_case import (
    UseCase,
    audience_of,
    finish,
    next_deadline,
    phase_name,
    seat_lines,
    side_named_in,
    side_of,
)
from judge.store import DrawVote, Game, GameEventRecord, GameStatus, OrderSet, PhaseRecord, Player, Seat, SeatStatus
from judge.variants import Side


def _votes_after_rollback(
    s: Session, game_id: int, processed_at: datetime | None
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Keep the draw votes cast before the phase returned to was processed: they were cast on a position that
    is still the game's past, and stand. Withdraw those cast since: they answered a position the rollback undid.
    Returns the powers whose votes stand, and those whose votes were withdrawn."""
    votes = s.scalars(select(DrawVote).where(DrawVote.game_id == game_id, DrawVote.accept.is_(True))).all()
    kept, dropped = [], []
    for vote in votes:
        if processed_at is not None and as_utc(vote.updated_at) < processed_at:
            kept.append(vote.power)
        else:
            dropped.append(vote.power)
            s.delete(vote)
    s.execute(delete(DrawVote).where(DrawVote.game_id == game_id, DrawVote.accept.is_(False)))
    return tuple(sorted(kept)), tuple(sorted(dropped))


class Controls(UseCase):
    def pause(self, name: str) -> GamePaused:
        """Stop the clock. The deadline stops with it: RESUME extends it by the time paused (njudge's habit),
        unless the GM gives another."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.ACTIVE:
                raise GameError(f"{name} is {game.status}; only an active game can be paused")
            game.status = GameStatus.PAUSED
            mark(game, paused_at=self.clock.now())  # RESUME moves the deadline on from it
            zone = timing_from_settings(game.settings).zone
            event = GamePaused(game=name, deadline=game.deadline, zone=zone, audience=audience_of(game))
            self.raise_event(s, game, event)
            return event

    def resume(self, name: str, *, deadline: datetime | None = None, set_deadline: bool = False) -> GameResumed:
        """Start the clock again. With `set_deadline`, the phase runs to `deadline` (None: none, it waits for
        PROCESS); else the deadline it had is moved on by the time the game was paused."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.PAUSED:
                raise GameError(f"{name} is not paused")
            game.status = GameStatus.ACTIVE
            paused_at = as_utc(game.marks.paused_at)
            mark(game, paused_at=None)
            extended = None
            if set_deadline:
                game.deadline = deadline
            elif game.deadline is not None and paused_at is not None:
                extended = self.clock.now() - paused_at
                game.deadline = as_utc(game.deadline) + extended
            zone = timing_from_settings(game.settings).tz
            event = GameResumed(
                game=name, deadline=game.deadline, extended_by=extended, zone=zone.key, audience=audience_of(game)
            )
            self.raise_event(s, game, event)
            return event

    def set_deadline(self, name: str, when: datetime | None) -> ZoneInfo:
        """The current phase's deadline (None: none, the phase waits for PROCESS). Returns the game's zone."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            game.deadline = when
            zone = timing_from_settings(game.settings).tz
            event = DeadlineMoved(game=name, deadline=when, zone=zone.key, audience=audience_of(game))
            self.raise_event(s, game, event)
            return zone

    def rollback(self, name: str, to_index: int, *, keep_orders: bool = True) -> GameRolledBack:
        """Return to the start of phase `to_index`; the phases after it are forgotten, and its orders restored
        (`keep_orders`) or cleared. Either way the phase then waits for its new deadline or the GM's PROCESS:
        the restored sets look complete, and processing them at once would only repeat what was rolled back."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            record = s.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.index == to_index))
            if record is None:
                raise GameError(f"{name} has no processed phase {to_index}")
            s.execute(delete(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.index >= to_index))
            s.execute(delete(OrderSet).where(OrderSet.game_id == game.id, OrderSet.phase_index >= to_index))
            kept, dropped = _votes_after_rollback(s, game.id, as_utc(record.processed_at))
            s.execute(
                delete(GameEventRecord).where(
                    GameEventRecord.game_id == game.id, GameEventRecord.phase_index >= to_index
                )
            )
            now = self.clock.now()
            for power, text in sorted(record.orders.items() if keep_orders else ()):
                # the phase's record keeps the lines: restored, they are read once more, as a mail's would be
                read = read_orders(rules_of(game), list(text))
                s.add(
                    OrderSet(
                        game_id=game.id,
                        phase_index=to_index,
                        power=power,
                        lines=[line.line for line in read],
                        orders=orders_json(read),
                        checked=[],
                        has_errors=False,
                        submitted_at=now,
                    )
                )
            game.position = record.position_before
            game.phase_index = to_index
            game.deadline = next_deadline(game, now)
            mark(game, no_early=to_index)
            if game.status == GameStatus.FINISHED:
                game.status = GameStatus.ACTIVE
                game.result = None
                game.winners = None
                game.finished_at = None
            alive = surviving_powers(position_from_json(rules_of(game), record.position_before))
            for seat in game.seats:
                if seat.status == SeatStatus.ELIMINATED and seat.power in alive:
                    seat.status = SeatStatus.PLAYING
            event = GameRolledBack(
                game=name,
                index=to_index,
                phase=phase_name({"variant": game.variant, **record.position_before}),
                orders_kept=keep_orders,
                deadline=game.deadline,
                zone=timing_from_settings(game.settings).zone,
                votes_kept=kept,
                votes_dropped=dropped,
                audience=audience_of(game),
            )
            self.raise_event(s, game, event)
            return event

    def eject(self, name: str, who: str) -> Side:
        """Remove the player of the side `who` names (any name the judge prints: `France`, `Sparta + Elatea` or
        `Elatea`, `England` or `1:England`, `Player 2`): every power of it waits for a replacement (its units
        hold meanwhile), and the player is out of the game: no sign-on, no orders, no press, no mail."""
        return self._vacate(name, who, PlayerEjected)

    def resign(self, name: str, power: str) -> Side:
        """The player of `power` leaves with his whole side; it waits for a replacement, and the GM is told."""
        return self._vacate(name, power, PlayerResigned)

    def _vacate(self, name: str, who: str, why: type[PlayerEjected | PlayerResigned]) -> Side:
        with self.store.write() as s:
            game = self.store.lock(s, name)
            side = side_named_in(game, who.split())
            seats = _seats_of(game, side)
            leaving = next((seat.player for seat in seats if seat.player), None)
            if leaving is None:
                raise GameError(f"nobody plays {side.label} in {name}")
            for seat in seats:
                seat.player = None
                if seat.status != SeatStatus.ELIMINATED:
                    seat.status = SeatStatus.VACANT
            if why is PlayerEjected:  # the ejected player is told, and is no longer among those the game tells
                event: PlayerEjected | PlayerResigned = PlayerEjected(
                    game=name, side=side.label, sign_on=side.name, address=leaving.address, audience=audience_of(game)
                )
            else:
                event = why(game=name, side=side.label, sign_on=side.name, audience=audience_of(game))
            self.raise_event(s, game, event)
            return side

    def replace(self, name: str, who: str, address: str) -> Side:
        """Give the side `who` names, every power of it, to a registered player. He is told the game, what he
        plays, its phase, deadline and position; the player he replaces is told he no longer plays it and who
        does; the rest of the game is told once, with the new player's name (never an address)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            side = side_named_in(game, who.split())
            hand_over(self, s, game, side, self.store.player(s, address))
            return side

    def reveal(self, name: str) -> bool:
        """The GM's REVEAL: a gunboat game names its players from now on (its `gunboat` setting turned off), and
        everyone in it is told who plays whom; False for a forming game, whose joined players LIST names from now
        on (nobody plays a power yet, so nobody is told)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if not names_hidden(game):
                raise GameError(f"{name} does not hide its players: everyone can already read who plays whom")
            game.settings = {**game.settings, "gunboat": False}
            if game.position is None:
                return False
            event = PlayersRevealed(game=name, seats=seat_lines(game), by_gm=True, audience=audience_of(game))
            self.raise_event(s, game, event)
            return True

    def terminate(self, name: str) -> None:
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status == GameStatus.FINISHED:
                raise GameError(f"{name} is already over ({game.result})")
            game.ended_from = game.status  # UNTERMINATE returns it there (judge.game.undoing)
            finish(game, "terminated", [], self.clock.now())
            release_held_press(self, s, game)
            joined = {
                seat.power or f"(seat {n})": seat.player.address for n, seat in enumerate(game.seats) if seat.player
            }
            audience = audience_of(game)
            if game.position is None:  # the players who joined a game that never started are told too
                audience = replace(audience, players=joined)
            event = GameEnded(
                game=name,
                how="terminated",
                started=game.position is not None,
                position=game.position,
                audience=audience,
                options=dict(game.options or {}),
            )
            self.raise_event(s, game, event)


def hand_over(uc: UseCase, s: Session, game: Game, side: Side, player: Player, *, volunteered: bool = False) -> None:
    """Give every power of `side` to `player`, and say so (`PlayerReplaced`): the GM's REPLACE, and a volunteer's
    TAKEOVER of an open place (`volunteered`, judge.game.openings). The newcomer is told what the side owes now
    (the powers of it with orders due in this phase) with the position and the deadline."""
    elsewhere = [seat.power for seat in game.seats if seat.player_id == player.id and seat.power]
    if elsewhere and not set(elsewhere) <= set(side.powers):
        raise GameError(f"{player.name} already plays {side_of(game, elsewhere[0]).label} in {game.name}")
    seats = _seats_of(game, side)
    before = next((seat.player for seat in seats if seat.player and seat.player_id != player.id), None)
    for seat in seats:
        seat.player = player
        if seat.status != SeatStatus.ELIMINATED:
            seat.status = SeatStatus.PLAYING
        seat.missed = 0
    s.flush()
    due = powers_to_order(rules_of(game), position_of(game)) if game.position else set()
    event = PlayerReplaced(
        game=game.name,
        side=side.label,
        sign_on=side.name,
        plays=side.described,
        player=player.name,
        told_as=name_for_others(game, player.name),
        address=player.address,
        replaced=before.address if before is not None else None,
        variant=game.variant,
        position=game.position,
        deadline=game.deadline,
        volunteered=volunteered,
        owes=tuple(power for power in side.powers if power in due),
        audience=audience_of(game),
    )
    uc.raise_event(s, game, event)


def _seats_of(game: Game, side: Side) -> list[Seat]:
    """The seats of a side's powers: one for each power it holds."""
    seats = [seat for seat in game.seats if seat.power in side.powers]
    if not seats:
        raise GameError(f"{side.label} has no seat in {game.name}")
    return seats
