"""Adjudicating a game's phase and storing what came of it: PROCESS, the deadline, PREDICT.

The engine is asked with the orders on file; the phase's record keeps the position before, the orders, the outcome
and the position after, so the phase can be read again (HISTORY, MAP) and rolled back to. Attendance is counted
here (who was late), and the press held for the results is released with them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.contract import outcome_json, position_from_json, position_json
from judge.engine import Outcome, Position, Rules, adjudicate
from judge.engine.supply import powers_to_order, surviving_powers
from judge.game.attendance import not_awaited, owed_texts
from judge.game.checking import (
    LineCheck,
    OrderLine,
    check_orders,
    orders_from_json,
    read_orders,
    route_lines,
    submitted,
)
from judge.game.errors import GameError
from judge.game.events import PhaseProcessed
from judge.game.house_rules import PressRules
from judge.game.later_orders import file_held_orders
from judge.game.names import as_shown
from judge.game.settings import results_style
from judge.game.store import rules_of
from judge.game.use_case import UseCase, audience_of, finish, next_deadline, press_readers, side_of, sides_of
from judge.game.year_end import CENTRES, year_end
from judge.store import Game, GameStatus, OrderSet, PhaseRecord, Player, Press, SeatStatus


@dataclass(frozen=True, kw_only=True)
class Processed:
    """What processing a phase gave: everything its results mail prints."""

    game: str
    index: int
    outcome: dict[str, Any]
    """the contract outcome of the phase"""
    next_phase: dict[str, Any] | None
    """None when the game ended"""
    late: list[str] = field(default_factory=list)
    """the players who owed orders and sent none, as lists name their sides (`Side.label`)"""
    finished: str | None = None
    deadline: datetime | None = None
    """the next phase's deadline, for the results mail"""
    played_deadline: datetime | None = None
    """the deadline of the phase processed (the moment it was processed where it had none): njudge's `:: Deadline:`
    line of a results mail names that phase and its deadline"""
    note: str | None = None
    """the GM's note (`NOTE text`), printed with the results"""
    press: list[dict[str, Any]] = field(default_factory=list)
    """press held for the results (`press_with_results`), released by this phase: sender, recipients, body"""
    options: dict[str, Any] = field(default_factory=dict)
    """the game's rule options (for how the variant names things in the results)"""
    style: dict[str, str] = field(default_factory=dict)
    """how the results print orders and places (`results_style`)"""
    pictures_off: list[str] = field(default_factory=list)
    """powers whose players turned the map picture off (`SET PICTURES OFF`)"""
    njudge_layout: list[str] = field(default_factory=list)
    """powers whose players read the results in njudge's layout (`SET LAYOUT NJUDGE`), whatever the game's"""
    winners: list[str] = field(default_factory=list)
    """the powers that won where the judge's own rule ended the game and not the engine's: the leaders in centres of a
    game at its end year (`finished` is then `judge.game.year_end.CENTRES`)"""
    end_year: int | None = None
    """the end year that ended the game (`end.year`), as the calendar stores it"""


@dataclass(frozen=True)
class Preview:
    """A player's what-if (PREVIEW): the orders he gave, read and checked for each power they order, and what
    they would give against the position now. Nothing of it is stored, and no order on file is used."""

    game: str
    variant: str
    checks: dict[str, list[LineCheck]]
    """power -> each of its lines as read (or why not), in the order written"""
    outcome: dict[str, Any]
    """the contract outcome, as the results and the map picture read it"""
    style: dict[str, str] = field(default_factory=dict)
    side: tuple[str, ...] = ()
    """the powers of the player's side, which his reply shows first and in full with those he ordered"""


PREVIEW_SEED = 0
"""the seed of a preview's die rolls (variants that roll): never the phase's own, which a preview would reveal"""


def phase_seed(game_seed: int, index: int) -> int:
    """The seed for one phase's die rolls: fixed by the game's seed, so a replay rolls the same."""
    return (game_seed * 1_000_003 + index) % 2**31


def outcome_of(rules: Rules, position: Position, orders: Mapping[str, Sequence[OrderLine]], seed: int) -> Outcome:
    """The engine's outcome of the orders on file (power -> its lines as they were read when they came, by
    power): a pure function, which the keeper's picture workers run too (judge/schedule/predraw.py) on what they
    read without a lock, to draw the results' picture while the phase waits its turn."""
    return adjudicate(
        rules, position, [sub for power, lines in orders.items() for sub in submitted(power, lines)], seed
    )


def stored_orders(rows: Sequence[tuple[str, Sequence[str], Sequence[Any]]]) -> dict[str, list[OrderLine]]:
    """The order sets on file as `outcome_of` takes them, from their stored columns (power, lines, orders)."""
    return {power: orders_from_json(lines, stored) for power, lines, stored in rows}


class Adjudication(UseCase):
    def process(
        self, name: str, *, expected_index: int | None = None, asked_at: datetime | None = None
    ) -> Processed | None:
        """Adjudicate the current phase. With `expected_index`, do nothing if that phase is already done
        (a deadline fired twice, or another judge process got there first). With `asked_at` (when the GM's
        PROCESS mail arrived), refuse if a phase was processed since: the deadline keeper, perhaps of another
        judge process, did what the GM asked, and the GM is not to process the next phase unawares."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if expected_index is not None and game.phase_index != expected_index:
                return None
            if game.status != GameStatus.ACTIVE:
                raise GameError(f"{name} is {game.status}, not active")
            if asked_at is not None and game.phase_index > 0:
                last = s.scalar(
                    select(PhaseRecord.processed_at).where(
                        PhaseRecord.game_id == game.id, PhaseRecord.index == game.phase_index - 1
                    )
                )
                if last is not None and as_utc(last) > as_utc(asked_at):
                    current = game.position["phase"] if game.position else {}
                    raise GameError(
                        f"a phase of {name} was processed after your mail arrived; it is now in "
                        f"{current.get('season')} {current.get('year')} {current.get('type')}: "
                        "send PROCESS again to process that"
                    )
            return self._process(s, game)

    def process_held(self, game: Game) -> Processed:
        """Adjudicate the current phase of an active game that the store's transaction already holds under its row
        lock (the deadline keeper locks a game to decide what is due, then processes it): no second lock and no
        savepoint, as the caller's transaction for the game is all or nothing."""
        session = self.store.session
        if session is None or game not in session:
            raise ValueError("process_held needs the game locked in the store's own transaction (bound)")
        return self._process(session, game)

    def predict(self, name: str) -> dict[str, Any]:
        """What the current orders would give, without committing anything (the GM's PREDICT)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            outcome, _ = self._adjudicate(s, game)  # reads only: nothing to undo
            return outcome_json(game.variant, outcome)

    def preview(self, name: str, power: str, lines: Sequence[str]) -> Preview:
        """Adjudicate `lines` alone against the position now (a player's PREVIEW): each line is for the power
        whose unit it names (a build: whose home centre; else `power`); units nobody orders hold, as unordered
        units do. The orders on file, the player's own and everyone else's, are neither used nor shown, and
        nothing is stored."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or game.position is None:
                raise GameError(f"{name} is {game.status}: only a running game can be previewed")
            rules = rules_of(game)
            position = position_from_json(rules, game.position)
            style = results_style(game.settings)
            side = side_of(game, power).powers
        read = read_orders(rules, lines)
        owners = route_lines(rules, position, sorted(rules.board.powers), power, read)
        by_power: dict[str, list[OrderLine]] = {}
        for line, owner in zip(read, owners, strict=True):
            by_power.setdefault(owner, []).append(line)
        checks = {each: check_orders(rules, position, each, own) for each, own in sorted(by_power.items())}
        outcome = outcome_of(rules, position, dict(sorted(by_power.items())), PREVIEW_SEED)
        return Preview(name, game.variant, checks, outcome_json(game.variant, outcome), style, tuple(side))

    @staticmethod
    def _adjudicate(s: Session, game: Game, position: Position | None = None) -> tuple[Outcome, dict[str, list[str]]]:
        """The outcome of the orders on file, as they were read when they came (never read again here), and their
        lines by power (the phase's record keeps them); `position`: the game's position, when the caller has
        parsed it."""
        rules = rules_of(game)
        if position is None:
            position = position_from_json(rules, game.position or {})
        sets = s.execute(
            select(OrderSet.power, OrderSet.lines, OrderSet.orders)
            .where(OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index)
            .order_by(OrderSet.power)
        ).all()
        orders = stored_orders([tuple(row) for row in sets])
        outcome = outcome_of(rules, position, orders, phase_seed(game.seed, game.phase_index))
        return outcome, {power: [line.line for line in own] for power, own in orders.items()}

    def _process(self, s: Session, game: Game) -> Processed:
        rules = rules_of(game)
        before = game.position or {}
        position = position_from_json(rules, before)
        outcome, lines = self._adjudicate(s, game, position)
        out = outcome_json(game.variant, outcome)
        after = Position(
            outcome.next_phase,
            outcome.units,
            outcome.centres,
            outcome.dislodged,
            outcome.standoffs,
            outcome.variant_state,
        )
        after_json = position_json(game.variant, after)
        now = self.clock.now()
        s.add(
            PhaseRecord(
                game_id=game.id,
                index=game.phase_index,
                season=position.phase.season,
                year=position.phase.year,
                type=position.phase.type.value,
                position_before=before,
                orders=lines,
                outcome=out,
                position_after=after_json,
                seed=phase_seed(game.seed, game.phase_index),
                processed_at=now,
            )
        )
        excused = not_awaited(game.seats, game.settings, game.absences, now)
        due = powers_to_order(rules, position) - excused
        ran_to = game.deadline
        late = _mark_attendance(game, due, set(lines))
        alive = surviving_powers(after)
        for seat in game.seats:
            if seat.power and seat.power not in alive:
                seat.status = SeatStatus.ELIMINATED
        index = game.phase_index
        game.position = after_json
        game.phase_index += 1
        finished = None
        ended = year_end(game, rules, after)
        if outcome.winner:
            finish(game, "victory", outcome.winner, now)
            finished = "victory"
        elif ended is not None:  # the end year's last phase, nobody having won: the leaders in centres win
            finish(game, CENTRES, list(ended.winners), now)
            finished = CENTRES
        played_deadline = game.deadline or now
        game.deadline = None if finished else next_deadline(game, now)
        s.flush()  # the unique (game, index) key stops a second process here
        processed = Processed(
            game=game.name,
            index=index,
            outcome=out,
            next_phase=None if finished else after_json["phase"],
            late=late,
            finished=finished,
            deadline=game.deadline,
            played_deadline=played_deadline,
            note=game.note,
            press=release_press(s, game),
            options=dict(game.options),
            style=results_style(game.settings),
            pictures_off=list(game.pictures_off),
            njudge_layout=list(game.njudge_layout),
            winners=list(ended.winners) if finished == CENTRES and ended is not None else [],
            end_year=ended.year if finished == CENTRES and ended is not None else None,
        )
        event = PhaseProcessed(
            game=game.name,
            index=index,
            phase=position.phase.code,
            late=tuple(late),
            finished=finished,
            deadline=ran_to,
            due=tuple(sorted(due)),
            processed=processed,
            audience=audience_of(game),
        )
        self.raise_event(s, game, event, phase=index)
        if not finished:  # orders sent in advance for the phase now open become its orders (`PHASE`)
            for held in file_held_orders(s, game, rules, after, now):
                self.raise_event(s, game, held)
        return processed


def release_press(s: Session, game: Game) -> list[dict[str, Any]]:
    """The press held for the results (`press_with_results`), marked released: sender, recipients (the sides'
    names, as the heading prints them), readers (their powers, whose players' sheets carry it), body, grey."""
    held = s.scalars(
        select(Press)
        .where(Press.game_id == game.id, Press.with_results.is_(True), Press.released.is_(False))
        .order_by(Press.id)
    ).all()
    for press in held:
        press.released = True
    gm_reads = PressRules.of(game.settings).gm_reads
    observers = {p.observer for p in held if p.observer}
    names = dict(s.execute(select(Player.address, Player.name).where(Player.address.in_(observers))).all())
    return [
        {
            "sender": p.sender,
            "recipients": list(p.recipients),
            "readers": sorted(press_readers(game, p.recipients)),
            "body": p.body,
            "grey": p.grey,
            "shown_sender": p.shown_sender,
            "shown_recipients": list(p.shown_recipients) if p.shown_recipients is not None else None,
            "observer": as_shown(names.get(p.observer, p.observer)) if p.observer else None,
            # the GM's copy, as when it was sent (judge.game.table_talk): press to everybody or to him, his own, or
            # every message where he reads all private press (`press.gm_reads`)
            "gm_copy": gm_reads or list(p.recipients) in (["*"], ["MASTER"]) or (p.sender is None and not p.observer),
        }
        for p in held
    ]


def _mark_attendance(game: Game, due: set[str], ordered: set[str]) -> list[str]:
    """Count who was late, per power owed: a power that owed orders and has none on file was late, whoever holds
    it (a Hepta player who sent six boards of seven was late for the seventh; a Hoplite side whose Major ordered
    was late for a Minor that owed a removal). Each power's seat keeps its own count of phases missed in a row.
    Returns the late players as lists name them, a side once with the powers it missed when they are not all it
    has (`judge.game.attendance.owed_text`)."""
    late: list[str] = []
    limit = int(game.settings.get("abandon_after", 3))
    for seat in game.seats:
        if seat.power is None or seat.power not in due:
            continue
        if seat.power in ordered:
            seat.missed = 0
            if seat.status in (SeatStatus.LATE, SeatStatus.ABANDONED):
                seat.status = SeatStatus.PLAYING
            continue
        seat.missed += 1
        late.append(seat.power)
        if seat.status != SeatStatus.VACANT:
            seat.status = SeatStatus.ABANDONED if seat.missed >= limit else SeatStatus.LATE
    return owed_texts(sides_of(game), late)
