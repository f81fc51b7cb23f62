"""The deadline keeper: looks at every running game and does what has fallen due -- early processing when every
order is in, reminders before the deadline, late notices after it, processing at the end of grace.

The games table is the source of truth: the keeper keeps no state of its own, so a judge that was down catches up
on its first tick, and two judges on one database do each thing once (each game is handled under its row lock,
and processing names the phase it expects). What was done for a phase is remembered in the game's settings
(`_reminded`, `_late`, `_gm_told`: the phase index).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from judge.clock import SYSTEM_CLOCK, Clock, as_utc
from judge.config import Config
from judge.contract import position_from_json
from judge.engine.phase import Phase, PhaseType
from judge.engine.supply import powers_to_order
from judge.game import GameService
from judge.game.attendance import not_awaited
from judge.mail.announce import results_mails
from judge.mail.compose import notice
from judge.mail.outbox import outbound_row, queue_mail, queue_rows
from judge.render import render
from judge.render.results import deadline_text
from judge.schedule.timing import grace_end, reminder_time, timing_from_settings
from judge.store import Database, Game, GameStatus, OrderSet, Seat, SeatStatus
from judge.variants import get_variant

_CHAIN = 4
"""phases of one game processed in one tick at most (a retreat phase with only destroyed units, then an
adjustment with nothing due)"""


class DeadlineKeeper:
    def __init__(self, db: Database, config: Config, clock: Clock = SYSTEM_CLOCK) -> None:
        self.db = db
        self.config = config
        self.clock = clock

    def tick(self) -> list[str]:
        """Do everything due now; returns what was done, one line each (for the log and the tests)."""
        with self.db.transaction() as s:
            names = list(s.scalars(select(Game.name).where(Game.status == GameStatus.ACTIVE).order_by(Game.name)))
        done: list[str] = []
        for name in names:
            for _ in range(_CHAIN):  # a phase nobody has to play is processed right after the one before it
                with self.db.transaction() as s:
                    before = s.scalar(select(Game.phase_index).where(Game.name == name))
                    done.extend(self._game(s, name))
                    after = s.scalar(select(Game.phase_index).where(Game.name == name))
                if after == before:
                    break
        return done

    def fingerprint(self) -> int:
        """The active games' deadlines and phases, as one number: it changes when any of them is changed, by this
        process or another on the database."""
        with self.db.transaction() as s:
            rows = s.execute(
                select(Game.name, Game.deadline, Game.phase_index, Game.status)
                .where(Game.status == GameStatus.ACTIVE)
                .order_by(Game.name)
            ).all()
        return hash(tuple((name, as_utc(deadline), index, status) for name, deadline, index, status in rows))

    def next_due(self) -> datetime | None:
        """The next instant something will fall due (the scheduler sleeps until then)."""
        now = self.clock.now()
        found: list[datetime] = []
        with self.db.transaction() as s:
            for game in s.scalars(select(Game).where(Game.status == GameStatus.ACTIVE)):
                deadline = as_utc(game.deadline)
                if deadline is None or game.position is None:
                    continue
                timing = timing_from_settings(game.settings)
                kind = str(game.position["phase"]["type"])
                index = game.phase_index
                for moment, key in (
                    (reminder_time(deadline, timing), "_reminded"),
                    (deadline, "_late"),
                    (grace_end(deadline, timing, kind), "_gm_told" if timing.manual else "_processed"),
                ):
                    if moment > now and game.settings.get(key) != index:
                        found.append(moment)
        return min(found) if found else None

    # --- one game ----------------------------------------------------------------------------------------

    def _game(self, s: Session, name: str) -> list[str]:
        game = s.scalar(
            select(Game)
            .where(Game.name == name)
            .options(selectinload(Game.seats).selectinload(Seat.player))  # two queries, not one per seat
            .with_for_update(of=Game, skip_locked=True)  # another process has it: go on to the next game
        )
        if game is None or game.status != GameStatus.ACTIVE or game.position is None:
            return []
        now = self.clock.now()
        timing = timing_from_settings(game.settings)
        rules = get_variant(game.variant).rules(game.options)
        position = position_from_json(rules, game.position)
        due = powers_to_order(rules, position)
        sets = {
            o.power: o
            for o in s.execute(
                select(OrderSet.power, OrderSet.has_errors).where(
                    OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index
                )
            )
        }
        awaited = due - not_awaited(game.seats, game.settings, now)  # not powers in civil disorder or held away
        missing = sorted(p for p in awaited if p not in sets)
        faulty = sorted(p for p in awaited if p in sets and sets[p].has_errors)
        waiting = any(seat.wait for seat in game.seats if seat.power in awaited)
        phase = f"{position.phase.season} {position.phase.year} {position.phase.type.value}"
        index = game.phase_index
        addresses = {seat.power: seat.player.address for seat in game.seats if seat.power and seat.player}
        done: list[str] = []

        nothing_to_decide = not due and position.phase.type is not PhaseType.MOVEMENT
        early = (due or nothing_to_decide) and game.settings.get("_no_early") != index  # not after a rollback
        if not timing.manual and early and not missing and not faulty and not waiting:
            why = "nobody has anything to decide" if nothing_to_decide else "every order is in"
            return self._process(s, game, f"{name}: {why}, {phase} processed early")
        deadline = as_utc(game.deadline)
        if deadline is None:
            return done
        if reminder_time(deadline, timing) <= now < deadline and game.settings.get("_reminded") != index:
            for power in [*missing, *faulty]:
                if power in addresses:
                    text = self._notice("reminder.txt.j2", game, position.phase, power, missing=power in missing)
                    self._mail(s, addresses[power], f"{name}: reminder, {phase}", text, game.id)
            self._mark(game, "_reminded", index)
            done.append(f"{name}: reminded {', '.join([*missing, *faulty]) or 'nobody'}")
        if now >= deadline and game.settings.get("_late") != index and (missing or faulty):
            for power in missing:
                if power in addresses:
                    text = self._notice("late.txt.j2", game, position.phase, power)
                    self._mail(s, addresses[power], f"{name}: late, {phase}", text, game.id)
            self._mail(
                s,
                game.gm.address,
                f"{name}: late powers, {phase}",
                " ".join(
                    part
                    for part in (
                        f"No orders yet from: {', '.join(missing)}." if missing else "",
                        f"Orders with errors from: {', '.join(faulty)}." if faulty else "",
                    )
                    if part
                ),
                game.id,
            )
            self._mark(game, "_late", index)
            done.append(f"{name}: late notices to {', '.join(missing) or 'nobody'}")
        if now >= grace_end(deadline, timing, position.phase.type.value):
            if timing.manual:
                if game.settings.get("_gm_told") != index:
                    self._mail(
                        s,
                        game.gm.address,
                        f"{name}: {phase} is due",
                        "The deadline and grace are over: PROCESS when ready.",
                        game.id,
                    )
                    self._mark(game, "_gm_told", index)
                    done.append(f"{name}: the GM was told the phase is due")
                return done
            unfilled = [seat.power for seat in game.seats if seat.power in due and seat.status in (SeatStatus.VACANT,)]
            if unfilled and game.settings.get("nmr") == "wait":
                if game.settings.get("_gm_told") != index:
                    text = f"Waiting for a replacement for {', '.join(unfilled)} before {phase} is processed."
                    self._mail(s, game.gm.address, f"{name}: waiting for replacements", text, game.id)
                    self._mark(game, "_gm_told", index)
                    done.append(f"{name}: waiting for replacements")
                return done
            done.extend(self._process(s, game, f"{name}: {phase} processed at the deadline"))
        return done

    def _process(self, s: Session, game: Game, what: str) -> list[str]:
        service = GameService(self.db, self.clock).bound(s)
        index = game.phase_index
        processed = service.process(game.name, expected_index=index)
        if processed is None:
            return []
        self._mark(game, "_processed", index)
        now = self.clock.now()
        seats, observers = service.addresses(game.name), service.observers(game.name)
        mails = results_mails(self.config, seats, processed, observers)
        queue_rows(s, [outbound_row(mail, kind="result", now=now, game_id=game.id) for mail in mails])  # one insert
        return [what + (f"; late: {', '.join(processed.late)}" if processed.late else "")]

    def _notice(self, template: str, game: Game, phase: Phase, power: str, **values: Any) -> str:
        """A reminder or late notice: the njudge header, then what the power should do."""
        deadline = as_utc(game.deadline)
        assert deadline is not None
        timing = timing_from_settings(game.settings)
        grace = timing.for_phase(phase.type.value).grace_hours
        end = grace_end(deadline, timing, phase.type.value)
        return render(
            template,
            game.variant,
            judge=self.config.judge_code,
            game=game.name,
            variant=game.variant,
            code=phase.code,
            deadline_code=phase.code,
            deadline=deadline_text(deadline),
            phase=str(phase),
            power=power,
            grace_hours=f"{grace:g}" if grace else None,
            grace_end=deadline_text(end) if end > deadline else None,
            **values,
        )

    def _mail(self, s: Session, to: str, subject: str, text: str, game_id: int) -> None:
        queue_mail(s, notice(self.config, to, subject, text), kind="notice", now=self.clock.now(), game_id=game_id)

    @staticmethod
    def _mark(game: Game, key: str, index: int) -> None:
        game.settings = {**game.settings, key: index}
