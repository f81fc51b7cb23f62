"""The game lifecycle, with no mail in it: create, join, start, order, process, roll back, end.

Every method is one transaction. Methods that change a game take the game's row lock first (SELECT ... FOR
UPDATE on PostgreSQL; SQLite serialises writers with BEGIN IMMEDIATE), so two judge processes never process the
same phase twice, and an order submitted while a phase is being processed lands either in that phase or, after
it, in the next one -- never nowhere. A unique key on (game, phase index) is the last line of defence.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any, cast
from zoneinfo import ZoneInfo

from sqlalchemy import BindParameter, CursorResult, Table, bindparam, delete, select
from sqlalchemy.orm import Session, joinedload, selectinload

from judge.clock import SYSTEM_CLOCK, Clock, as_utc
from judge.contract import outcome_json, position_from_json, position_json
from judge.engine import Outcome, Phase, PhaseType, Position, Rules, adjudicate
from judge.engine.supply import powers_to_order, surviving_powers
from judge.game.attendance import AbsenceError, absence_of, absences, extended_deadline, not_awaited, stored
from judge.game.attendance import mode as absence_mode
from judge.game.checking import LineCheck, check_orders, read_lines, route_lines
from judge.game.house_rules import GM_NAMES, DrawRules, HouseRuleError, PressRules
from judge.game.settings import PICTURES_OFF, SettingError, apply_setting, read_option, results_style
from judge.game.views import GameView, game_view
from judge.notation import read_line
from judge.passwords import hash_password, verify_password
from judge.schedule.timing import deadline_after, timing_from_settings
from judge.store import (
    Database,
    DrawVote,
    Game,
    GameStatus,
    OrderSet,
    PhaseRecord,
    Player,
    Press,
    Seat,
    SeatStatus,
)
from judge.variants import UnknownVariant, get_variant

# Order sets are written with plain table statements, built once (a deadline's rush files thousands): they are
# only ever read as columns, never as ORM objects that a statement here could leave stale.
_ORDER_SETS = cast(Table, OrderSet.__table__)
_SET_VALUES: dict[str, BindParameter[Any]] = {
    name: bindparam(name) for name in ("lines", "checked", "has_errors", "submitted_at", "source_message_id")
}
_REPLACE_ORDER_SET = (
    _ORDER_SETS.update()
    .where(
        _ORDER_SETS.c.game_id == bindparam("set_game"),
        _ORDER_SETS.c.phase_index == bindparam("set_phase"),
        _ORDER_SETS.c.power == bindparam("set_power"),
    )
    .values(_SET_VALUES)
)
_ADD_ORDER_SET = _ORDER_SETS.insert().values(
    game_id=bindparam("set_game"), phase_index=bindparam("set_phase"), power=bindparam("set_power"), **_SET_VALUES
)

DEFAULT_SETTINGS: dict[str, Any] = {
    "abandon_after": 3,  # consecutive phases without orders before a power is marked abandoned
    "auto_start": True,  # start (and assign powers) when the last player joins
}


class ServiceError(Exception):
    """A request that cannot be done; the message is what the player or GM is told."""


@dataclass(frozen=True)
class Submission:
    game: str
    power: str
    phase: str
    checks: list[LineCheck]
    replaced: bool
    phase_type: PhaseType = PhaseType.MOVEMENT

    @property
    def fate_of_errors(self) -> str:
        """What becomes of the units an unusable order names, in this kind of phase."""
        if self.phase_type is PhaseType.RETREAT:
            return "a dislodged unit without a usable retreat order is disbanded"
        if self.phase_type is PhaseType.ADJUSTMENT:
            return "builds not ordered are waived, and removals not ordered are made by the civil-disorder rules"
        return "the units they name will hold"

    @property
    def errors(self) -> list[LineCheck]:
        return [c for c in self.checks if c.error]


@dataclass(frozen=True)
class Processed:
    game: str
    index: int
    outcome: dict[str, Any]
    """the contract outcome of the phase"""
    next_phase: dict[str, Any] | None
    """None when the game ended"""
    late: list[str] = field(default_factory=list)
    finished: str | None = None
    deadline: datetime | None = None
    """the next phase's deadline, for the results mail"""
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


@dataclass(frozen=True)
class PressSent:
    """A press message as stored, who reads it (`to`, then the GM, who reads every message), and whether it is
    held for the next results."""

    press: dict[str, Any]
    to: list[str]
    gm: str
    held: bool


def phase_seed(game_seed: int, index: int) -> int:
    """The seed for one phase's die rolls: fixed by the game's seed, so a replay rolls the same."""
    return (game_seed * 1_000_003 + index) % 2**31


def _phase_name(position: dict[str, Any]) -> str:
    """The phase as players read it: its season as the variant names it, years before Christ as "450 BC"."""
    phase = position["phase"]
    parsed = Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"]))
    return get_variant(str(position.get("variant") or "standard")).phase_name(parsed)


class GameService:
    def __init__(self, db: Database, clock: Clock = SYSTEM_CLOCK, session: Session | None = None) -> None:
        self.db = db
        self.clock = clock
        self._session = session

    def bound(self, session: Session) -> GameService:
        """The same service working inside the caller's transaction (the mail processor handles a whole mail
        in one transaction; each command in a savepoint of it)."""
        return GameService(self.db, self.clock, session)

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        if self._session is not None:
            with self._session.begin_nested():
                yield self._session
            return
        with self.db.transaction() as session:
            yield session

    @contextmanager
    def _plain(self) -> Iterator[Session]:
        """The caller's transaction as it stands, or one of its own, without a savepoint: for methods that only
        read, or whose one write is their last statement, so that a failure leaves nothing to undo."""
        if self._session is not None:
            yield self._session
            return
        with self.db.transaction() as session:
            yield session

    def _view(self, s: Session, name: str) -> GameView:
        game = game_view(s, name)
        if game is None:
            raise ServiceError(f"there is no game called {name}")
        return game

    # --- players -------------------------------------------------------------------------------------

    def register(self, address: str, name: str, password: str) -> None:
        address = address.strip().lower()
        with self._tx() as s:
            if s.scalar(select(Player).where(Player.address == address)) is not None:
                raise ServiceError(f"{address} is already registered")
            s.add(
                Player(address=address, name=name, password_hash=hash_password(password), created_at=self.clock.now())
            )

    def authenticate(self, s: Session, address: str, password: str) -> Player:
        player = s.scalar(select(Player).where(Player.address == address.strip().lower()))
        if player is None or not verify_password(password, player.password_hash):
            raise ServiceError("unknown address or wrong password")
        return player

    def _player(self, s: Session, address: str) -> Player:
        player = s.scalar(select(Player).where(Player.address == address.strip().lower()))
        if player is None:
            raise ServiceError(f"{address} is not registered")
        return player

    # --- games ---------------------------------------------------------------------------------------

    def _lock(self, s: Session, name: str) -> Game:
        """The game, locked for this transaction, with its seats and players loaded in one more query."""
        game = s.scalar(
            select(Game)
            .where(Game.name == name)
            .options(selectinload(Game.seats).joinedload(Seat.player), joinedload(Game.gm))
            .with_for_update(of=Game)
        )
        if game is None:
            raise ServiceError(f"there is no game called {name}")
        return game

    def _rules(self, game: Game) -> Rules:
        return get_variant(game.variant).rules(game.options)

    def _position(self, game: Game) -> Position:
        if game.position is None:
            raise ServiceError(f"{game.name} has not started")
        return position_from_json(self._rules(game), game.position)

    def create_game(
        self,
        name: str,
        variant: str,
        gm_address: str,
        password: str,
        *,
        options: dict[str, Any] | None = None,
        settings: dict[str, Any] | None = None,
        seed: int | None = None,
    ) -> None:
        settings = {**DEFAULT_SETTINGS, **(settings or {})}
        try:
            chosen = get_variant(variant)
            rule_options: dict[str, Any] = {}
            for key, value in (options or {}).items():
                if key in chosen.options:
                    written = isinstance(value, str)
                    rule_options[key] = read_option(key, chosen.options[key], value) if written else value
                elif isinstance(value, str):  # a setting written at CREATE (`results.orders=njudge`)
                    apply_setting(settings, key, value)
                else:
                    rule_options[key] = value
            options = rule_options
            chosen.rules(options)  # rejects unknown options now, not at the first deadline
        except (UnknownVariant, ValueError) as exc:
            raise ServiceError(str(exc).strip("'\"")) from None
        with self._tx() as s:
            gm = self._player(s, gm_address)
            if s.scalar(select(Game.id).where(Game.name == name)) is not None:
                raise ServiceError(f"a game called {name} already exists")
            s.add(
                Game(
                    name=name,
                    variant=chosen.name,
                    options=dict(options or {}),
                    settings=settings,
                    status=GameStatus.FORMING,
                    gm=gm,
                    password_hash=hash_password(password),
                    seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                    created_at=self.clock.now(),
                )
            )

    def join(self, name: str, address: str, password: str, preferences: Sequence[str] = ()) -> str | None:
        """Join a forming game; returns the game's new status when the join filled it and it started."""
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status != GameStatus.FORMING:
                raise ServiceError(f"{name} is not taking new players")
            if not verify_password(password, game.password_hash):
                raise ServiceError(f"wrong password for {name}")
            player = self._player(s, address)
            if any(seat.player_id == player.id for seat in game.seats):
                raise ServiceError(f"you have already joined {name}")
            wanted = self._powers_named(game, preferences)
            players = len(get_variant(game.variant).seat_groups(game.options))
            if len(game.seats) >= players:
                raise ServiceError(f"{name} is full")
            game.seats.append(Seat(player=player, preferences=wanted, joined_at=self.clock.now()))
            s.flush()
            if len(game.seats) == players and game.settings.get("auto_start", True):
                self._start(s, game)
                return str(game.status)
            return None

    def start(self, name: str, *, short: bool = False) -> list[str]:
        """Start a forming game now; `short`: with fewer players than powers, the powers nobody plays in civil
        disorder (their units hold, their removals made by the civil-disorder rules) until the GM REPLACEs them.
        Returns the powers left in civil disorder."""
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status != GameStatus.FORMING:
                raise ServiceError(f"{name} has already started")
            return self._start(s, game, short=short)

    def _start(self, s: Session, game: Game, *, short: bool = False) -> list[str]:
        variant = get_variant(game.variant)
        groups = variant.seat_groups(game.options)
        if len(game.seats) > len(groups) or (len(game.seats) < len(groups) and not short):
            raise ServiceError(
                f"{game.name} needs {len(groups)} players and has {len(game.seats)}"
                + ("; START CD starts it now with the other powers in civil disorder" if not short else "")
            )
        unplayed = self._assign_powers(game, groups)
        for group in unplayed:
            for power in group:
                game.seats.append(Seat(power=power, status=SeatStatus.CIVIL_DISORDER, joined_at=self.clock.now()))
        position = variant.starting_position()
        game.position = position_json(variant.name, position)
        game.phase_index = 0
        game.status = GameStatus.ACTIVE
        game.deadline = self._next_deadline(game)
        return sorted(power for group in unplayed for power in group)

    @staticmethod
    def _assign_powers(game: Game, groups: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
        """Each player takes a group of powers (one power, or a side the variant fixes): by preference in order of
        joining, the rest at random from the game's seed. A player with several powers holds a seat for each.
        Returns the groups nobody joined for (a game started short)."""
        free = list(groups)
        rng = random.Random(game.seed)
        unplaced = []
        chosen: dict[int, tuple[str, ...]] = {}
        for n, seat in enumerate(game.seats):
            choice = next((g for p in seat.preferences for g in free if p in g), None)
            if choice is None:
                unplaced.append(n)
                continue
            free.remove(choice)
            chosen[n] = choice
        rng.shuffle(free)
        chosen.update(zip(unplaced, free, strict=False))
        left = free[len(unplaced) :]
        for n, seat in list(enumerate(game.seats)):
            first, *more = chosen[n]
            seat.power = first
            seat.status = SeatStatus.PLAYING
            for power in more:
                game.seats.append(
                    Seat(
                        player=seat.player,
                        power=power,
                        preferences=seat.preferences,
                        status=SeatStatus.PLAYING,
                        joined_at=seat.joined_at,
                    )
                )
        return left

    # --- orders --------------------------------------------------------------------------------------

    def submit_orders(
        self,
        name: str,
        power: str,
        lines: Sequence[str],
        *,
        source_message_id: str | None = None,
    ) -> Submission:
        """File a power's orders for the current phase, replacing any earlier set, and say what is wrong."""
        with self._plain() as s:  # its one write is its last statement
            game = self._view(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise ServiceError(f"{name} is not running")
            seat = game.seat(power)
            if seat is None:
                raise ServiceError(f"{power} is not a power in {name}")
            side = [o.power for o in game.seats if o.power and seat.address and o.address == seat.address]
            # a player with several powers: each line goes to the power whose unit it names
            owners = (
                route_lines(game.rules, game.current, side, power, lines) if len(side) > 1 else [power] * len(lines)
            )
            by_power: dict[str, list[str]] = {power: []}
            for line, owner in zip(lines, owners, strict=True):
                by_power.setdefault(owner, []).append(line)
            replaced = False
            checked: dict[str, Iterator[LineCheck]] = {}
            for each, own in by_power.items():
                checks = check_orders(game.rules, game.current, each, own)
                checked[each] = iter(checks)
                values = {
                    "set_game": game.id,
                    "set_phase": game.phase_index,
                    "set_power": each,
                    "lines": own,
                    "checked": [c.as_json() for c in checks],
                    "has_errors": any(c.error for c in checks),
                    "submitted_at": self.clock.now(),
                    "source_message_id": source_message_id[:998] if source_message_id else None,  # column size
                }
                if cast(CursorResult[Any], s.execute(_REPLACE_ORDER_SET, values)).rowcount > 0:
                    replaced = True
                else:
                    s.execute(_ADD_ORDER_SET, values)
            # back in the order the player wrote them (a line may hold several orders, each with its check)
            pieces = (
                [len(read_line(game.rules.board, line, game.rules.verbs)) for line in lines] if len(side) > 1 else []
            )
            in_order = (
                [next(checked[owner]) for owner, n in zip(owners, pieces, strict=True) for _ in range(n)]
                if pieces
                else list(checked[power])
            )
            return Submission(
                name,
                " and ".join(by_power),
                _phase_name(game.position or {}),
                in_order,
                replaced,
                game.current.phase.type,
            )

    def orders_on_file(self, name: str, power: str) -> list[str]:
        with self._tx() as s:
            game = self._lock(s, name)
            found = s.scalar(
                select(OrderSet.lines).where(
                    OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index, OrderSet.power == power
                )
            )
            return list(found) if found else []

    def _powers_named(self, game: Game, texts: Sequence[str]) -> list[str]:
        """The powers a player named (`France`, `F`, `french`), or a ServiceError naming the word that is none."""
        board = self._rules(game).board
        found = []
        for text in texts:
            power = board.lookup_power(text)
            if power is None:
                raise ServiceError(f"{text!r} is not a power of {game.variant}")
            found.append(power)
        return found

    @staticmethod
    def _seat(game: Game, power: str) -> Seat:
        for seat in game.seats:
            if seat.power == power:
                return seat
        raise ServiceError(f"{power} is not a power in {game.name}")

    # --- processing ----------------------------------------------------------------------------------

    def process(
        self, name: str, *, expected_index: int | None = None, asked_at: datetime | None = None
    ) -> Processed | None:
        """Adjudicate the current phase. With `expected_index`, do nothing if that phase is already done
        (a deadline fired twice, or another judge process got there first). With `asked_at` (when the GM's
        PROCESS mail arrived), refuse if a phase was processed since: the deadline keeper, perhaps of another
        judge process, did what the GM asked, and the GM is not to process the next phase unawares."""
        with self._tx() as s:
            game = self._lock(s, name)
            if expected_index is not None and game.phase_index != expected_index:
                return None
            if game.status != GameStatus.ACTIVE:
                raise ServiceError(f"{name} is {game.status}, not active")
            if asked_at is not None and game.phase_index > 0:
                last = s.scalar(
                    select(PhaseRecord.processed_at).where(
                        PhaseRecord.game_id == game.id, PhaseRecord.index == game.phase_index - 1
                    )
                )
                if last is not None and as_utc(last) > as_utc(asked_at):
                    current = game.position["phase"] if game.position else {}
                    raise ServiceError(
                        f"a phase of {name} was processed at {as_utc(last):%Y-%m-%d %H:%M:%S} UTC, after your mail "
                        f"arrived; it is now in {current.get('season')} {current.get('year')} {current.get('type')}: "
                        "send PROCESS again to process that"
                    )
            return self._process(s, game)

    def process_held(self, game: Game) -> Processed:
        """Adjudicate the current phase of an active game that this service's transaction already holds under its
        row lock (the deadline keeper locks a game to decide what is due, then processes it): no second lock and no
        savepoint, as the caller's transaction for the game is all or nothing."""
        if self._session is None or game not in self._session:
            raise ValueError("process_held needs the game locked in the service's own transaction (bound)")
        return self._process(self._session, game)

    def predict(self, name: str) -> dict[str, Any]:
        """What the current orders would give, without committing anything (the GM's PREDICT)."""
        with self._tx() as s:
            game = self._lock(s, name)
            outcome, _ = self._adjudicate(s, game)  # reads only: nothing to undo
            return outcome_json(game.variant, outcome)

    def _adjudicate(
        self, s: Session, game: Game, position: Position | None = None
    ) -> tuple[Outcome, dict[str, list[str]]]:
        """The outcome of the orders on file; `position`: the game's position, when the caller has parsed it."""
        rules = self._rules(game)
        if position is None:
            position = position_from_json(rules, game.position or {})
        sets = s.execute(
            select(OrderSet.power, OrderSet.lines)
            .where(OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index)
            .order_by(OrderSet.power)
        ).all()
        lines = {o.power: list(o.lines) for o in sets}
        submitted = [sub for power, text in lines.items() for sub in read_lines(rules, power, text)]
        return adjudicate(rules, position, submitted, phase_seed(game.seed, game.phase_index)), lines

    def _process(self, s: Session, game: Game) -> Processed:
        rules = self._rules(game)
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
        excused = not_awaited(game.seats, game.settings, self.clock.now())
        late = self._mark_attendance(game, powers_to_order(rules, position) - excused, set(lines))
        alive = surviving_powers(after)
        for seat in game.seats:
            if seat.power and seat.power not in alive:
                seat.status = SeatStatus.ELIMINATED
        game.position = after_json
        game.phase_index += 1
        finished = None
        if outcome.winner:
            self._finish(game, "victory", outcome.winner)
            finished = "victory"
        game.deadline = None if finished else self._next_deadline(game)
        s.flush()  # the unique (game, index) key stops a second process here
        note = game.settings.get("note")
        press = self._release_press(s, game)
        return Processed(
            game.name,
            game.phase_index - 1,
            out,
            None if finished else after_json["phase"],
            late,
            finished,
            game.deadline,
            str(note) if note else None,
            press,
            dict(game.options),
            results_style(game.settings),
            list(game.settings.get(PICTURES_OFF) or ()),
        )

    @staticmethod
    def _release_press(s: Session, game: Game) -> list[dict[str, Any]]:
        held = s.scalars(
            select(Press)
            .where(Press.game_id == game.id, Press.with_results.is_(True), Press.released.is_(False))
            .order_by(Press.id)
        ).all()
        for press in held:
            press.released = True
        return [{"sender": p.sender, "recipients": list(p.recipients), "body": p.body, "grey": p.grey} for p in held]

    @staticmethod
    def _mark_attendance(game: Game, due: set[str], ordered: set[str]) -> list[str]:
        late = []
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
        return sorted(late)

    def _next_deadline(self, game: Game) -> datetime | None:
        """The deadline of the phase the game is now in, counted from now, and moved past the absence of a
        player who has to order in it (`judge.game.attendance`)."""
        if not game.position:
            return None
        timing = timing_from_settings(game.settings)
        deadline = deadline_after(self.clock.now(), timing, str(game.position["phase"]["type"]))
        if not game.settings.get("absences"):
            return deadline
        rules = self._rules(game)
        due = powers_to_order(rules, position_from_json(rules, game.position))
        return extended_deadline(game.settings, deadline, due) or deadline

    def set_absence(self, name: str, power: str, first: date | None, last: date | None) -> datetime | None:
        """Record that the player of `power` is away from `first` to `last` (whole days in the game's zone), or
        (None) is not. Returns the current phase's deadline when the absence moved it."""
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status == GameStatus.FINISHED:
                raise ServiceError(f"{name} is over")
            self._seat(game, power)
            now = self.clock.now()
            kept = {a.power: stored(a) for a in absences(game.settings) if a.power != power and as_utc(a.end) > now}
            if first is not None and last is not None:
                try:
                    absence = absence_of(power, first, last, timing_from_settings(game.settings).tz)
                except AbsenceError as exc:
                    raise ServiceError(str(exc)) from None
                if absence.end <= now:
                    raise ServiceError("that absence is over already")
                kept[power] = stored(absence)
            game.settings = {**game.settings, "absences": kept}
            if game.status != GameStatus.ACTIVE or game.deadline is None or first is None:
                return None
            rules = self._rules(game)
            due = powers_to_order(rules, self._position(game))
            moved = extended_deadline(game.settings, as_utc(game.deadline), due & {power})
            if moved is not None:
                game.deadline = moved
            return moved

    def _finish(self, game: Game, result: str, winners: list[str]) -> None:
        game.status = GameStatus.FINISHED
        game.result = result
        game.winners = sorted(winners)
        game.finished_at = self.clock.now()

    # --- the GM's tools -------------------------------------------------------------------------------

    def rollback(self, name: str, to_index: int, *, keep_orders: bool = True) -> None:
        """Return to the start of phase `to_index`; the phases after it are forgotten, and its orders restored
        (`keep_orders`) or cleared. Either way the phase then waits for its new deadline or the GM's PROCESS:
        the restored sets look complete, and processing them at once would only repeat what was rolled back."""
        with self._tx() as s:
            game = self._lock(s, name)
            record = s.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.index == to_index))
            if record is None:
                raise ServiceError(f"{name} has no processed phase {to_index}")
            s.execute(delete(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.index >= to_index))
            s.execute(delete(OrderSet).where(OrderSet.game_id == game.id, OrderSet.phase_index >= to_index))
            s.execute(delete(DrawVote).where(DrawVote.game_id == game.id))
            now = self.clock.now()
            for power, text in sorted(record.orders.items() if keep_orders else ()):
                s.add(
                    OrderSet(
                        game_id=game.id,
                        phase_index=to_index,
                        power=power,
                        lines=list(text),
                        checked=[],
                        has_errors=False,
                        submitted_at=now,
                    )
                )
            game.position = record.position_before
            game.phase_index = to_index
            game.deadline = self._next_deadline(game)
            game.settings = {**game.settings, "_no_early": to_index}
            if game.status == GameStatus.FINISHED:
                game.status = GameStatus.ACTIVE
                game.result = None
                game.winners = None
                game.finished_at = None
            alive = surviving_powers(position_from_json(self._rules(game), record.position_before))
            for seat in game.seats:
                if seat.status == SeatStatus.ELIMINATED and seat.power in alive:
                    seat.status = SeatStatus.PLAYING

    def pause(self, name: str) -> None:
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status != GameStatus.ACTIVE:
                raise ServiceError(f"{name} is {game.status}; only an active game can be paused")
            game.status = GameStatus.PAUSED

    def resume(self, name: str) -> None:
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status != GameStatus.PAUSED:
                raise ServiceError(f"{name} is not paused")
            game.status = GameStatus.ACTIVE

    def eject(self, name: str, power: str) -> None:
        """Remove the player of `power`; the power waits for a replacement (its units hold meanwhile)."""
        with self._tx() as s:
            game = self._lock(s, name)
            seat = self._seat(game, power)
            seat.player = None
            seat.status = SeatStatus.VACANT

    def replace(self, name: str, power: str, address: str) -> None:
        with self._tx() as s:
            game = self._lock(s, name)
            seat = self._seat(game, power)
            seat.player = self._player(s, address)
            seat.status = SeatStatus.PLAYING
            seat.missed = 0

    def vote_draw(self, name: str, power: str, accept: bool, among: Sequence[str] = ()) -> list[str] | None:
        """Record a draw vote, for every power the game's draws include or (`among`, where `draw.dias` is off)
        for a draw among named powers. Returns the powers of the draw when every surviving power has voted for
        the same one and the game is drawn, else None."""
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise ServiceError(f"{name} is not running")
            self._seat(game, power)
            variant = get_variant(game.variant)
            if accept and not variant.draws:
                raise ServiceError(f"{variant.title} has no draws: {variant.draws_instead}")
            position = self._position(game)
            alive = surviving_powers(position)
            if power not in alive:
                raise ServiceError(f"{power} is eliminated: only surviving powers vote on a draw")
            named = self._powers_named(game, among)
            everyone = {seat.power for seat in game.seats if seat.power}
            try:
                draw = DrawRules.of(game.settings).among(named, set(alive), everyone) if accept else None
            except HouseRuleError as exc:
                raise ServiceError(str(exc)) from None
            vote = s.scalar(select(DrawVote).where(DrawVote.game_id == game.id, DrawVote.power == power))
            if vote is None:
                vote = DrawVote(game_id=game.id, power=power, accept=accept, updated_at=self.clock.now())
                s.add(vote)
            vote.accept = accept
            vote.powers = sorted(draw) if draw is not None and named else None  # None: whoever the draw includes
            vote.updated_at = self.clock.now()
            s.flush()
            rules = DrawRules.of(game.settings)
            share = rules.among(None, set(alive), everyone)  # a vote without names is for this, counted now
            votes = {
                v.power: frozenset(v.powers) if v.powers else share
                for v in s.scalars(select(DrawVote).where(DrawVote.game_id == game.id, DrawVote.accept.is_(True)))
            }
            agreed = DrawRules.agreed(votes, alive - self._unplayed(game))
            if agreed:
                self._finish(game, "draw", sorted(agreed))
                return sorted(agreed)
            return None

    @staticmethod
    def _unplayed(game: Game) -> set[str]:
        """Powers in civil disorder (START CD): nobody plays them, so they neither vote on draws nor concede."""
        return {seat.power for seat in game.seats if seat.power and seat.status == SeatStatus.CIVIL_DISORDER}

    def concede(self, name: str, power: str, to_power: str | None) -> bool:
        """`power` concedes the game to `to_power` (None withdraws its concession); when every other surviving
        power has conceded to it, `to_power` wins."""
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise ServiceError(f"{name} is not running")
            self._seat(game, power)
            alive = surviving_powers(self._position(game))
            if power not in alive:
                raise ServiceError(f"{power} is eliminated: only surviving powers concede")
            concessions = dict(game.settings.get("concessions", {}))
            if to_power is None:
                concessions.pop(power, None)
            else:
                if to_power not in alive:
                    raise ServiceError(f"{to_power} is not a surviving power of {name}")
                if to_power == power:
                    raise ServiceError("a power concedes to another power, not to itself")
                concessions[power] = to_power
            game.settings = {**game.settings, "concessions": concessions}
            if to_power is None:
                return False
            others = alive - {to_power} - self._unplayed(game)
            if all(concessions.get(p) == to_power for p in others):
                self._finish(game, "concession", [to_power])
                return True
            return False

    def terminate(self, name: str) -> None:
        with self._tx() as s:
            game = self._lock(s, name)
            if game.status == GameStatus.FINISHED:
                raise ServiceError(f"{name} is already over ({game.result})")
            self._finish(game, "terminated", [])

    # --- signing on ------------------------------------------------------------------------------------

    def signon(self, name: str, power: str, password: str) -> tuple[str, str]:
        """Check a SIGNON: the password of the player holding `power` (or of the GM for MASTER). Returns the
        power (canonical, or "MASTER") and that player's address. Every failure says the same, so that a wrong
        guess learns nothing about the game."""
        failed = ServiceError("signon failed: wrong game, power or password")
        with self._plain() as s:
            game = game_view(s, name)
            if game is None:
                raise failed
            if power.upper() in ("MASTER", "GM"):
                if verify_password(password, game.gm_password_hash):
                    return "MASTER", game.gm_address
                raise failed
            canonical = game.rules.board.lookup_power(power) if game.position else None
            canonical = canonical or next(
                (seat.power for seat in game.seats if seat.power and seat.power.lower() == power.lower()), None
            )
            for seat in game.seats:
                if (
                    canonical is not None
                    and seat.power == canonical
                    and seat.address is not None
                    and seat.password_hash is not None
                    and verify_password(password, seat.password_hash)
                ):
                    return canonical, seat.address
            raise failed

    def power_named(self, name: str, text: str) -> str:
        """The power of the game `text` names (`France`, `F`, `french`), or a ServiceError saying it is none."""
        with self._plain() as s:
            game = game_view(s, name)
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            power = game.rules.board.lookup_power(text)
            if power is None:
                raise ServiceError(f"{text!r} is not a power of {game.variant}")
            return power

    def power_by_initial(self, name: str, initial: str) -> str | None:
        """njudge's SIGNON Fgame: the power whose initial is given."""
        with self._plain() as s:
            game = game_view(s, name)
            if game is None:
                return None
            for power in game.rules.board.powers.values():
                if power.initial.lower() == initial.lower():
                    return power.name
            return None

    # --- settings the players and the GM change by mail ------------------------------------------------

    def set_wait(self, name: str, power: str, wait: bool) -> None:
        with self._tx() as s:
            self._seat(self._lock(s, name), power).wait = wait

    def side_of(self, name: str, power: str) -> list[str]:
        """The powers the player of `power` holds in the game (Hoplite Wars: a Major and its Minor)."""
        with self._plain() as s:
            game = s.scalars(select(Game).where(Game.name == name)).one_or_none()
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            seat = next((o for o in game.seats if o.power == power), None)
            if seat is None or seat.player_id is None:
                return [power]
            return sorted(o.power for o in game.seats if o.power and o.player_id == seat.player_id)

    def set_pictures(self, name: str, powers: Sequence[str], wanted: bool) -> None:
        """A player's choice of map pictures on the results mails of these powers (`SET PICTURES ON|OFF`)."""
        with self._tx() as s:
            game = self._lock(s, name)
            settings = dict(game.settings)
            off = set(settings.get(PICTURES_OFF) or ()) - set(powers)
            if not wanted:
                off |= set(powers)
            settings[PICTURES_OFF] = sorted(off)
            game.settings = settings

    def set_deadline(self, name: str, when: datetime | None) -> None:
        with self._tx() as s:
            self._lock(s, name).deadline = when

    def change_settings(self, name: str, **changes: Any) -> None:
        """Timing, press and house rules: any time. Rule options: only before the game starts."""
        with self._tx() as s:
            game = self._lock(s, name)
            options = dict(game.options)
            settings = dict(game.settings)
            variant = get_variant(game.variant)
            for key, value in changes.items():
                if key in variant.options:
                    if game.status != GameStatus.FORMING:
                        raise ServiceError(f"the rule option {key} can only be changed before {name} starts")
                    options[key] = value
                else:
                    settings[key] = value
            try:
                variant.rules(options)
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
            game.options = options
            game.settings = settings

    def _settings(self, name: str) -> dict[str, Any]:
        with self._plain() as s:
            settings = s.scalar(select(Game.settings).where(Game.name == name))
            if settings is None:
                raise ServiceError(f"there is no game called {name}")
            return dict(settings)

    def absence_mode(self, name: str) -> str:
        """What an absence does in a game (`absence.mode`): extend deadlines or hold the power's units."""
        return absence_mode(self._settings(name))

    def zone(self, name: str) -> ZoneInfo:
        """The game's time zone (its `timing.zone` setting), for deadlines written without one."""
        return timing_from_settings(self._settings(name)).tz

    def set_by_mail(self, name: str, pairs: Sequence[tuple[str, str]]) -> list[str]:
        """`SET name=value ...` as written: each name a setting (`judge.game.settings`) or a rule option (before
        the start), each value read as its kind. All or nothing: a wrong name or value refuses the lot."""
        with self._tx() as s:
            game = self._lock(s, name)
            options = dict(game.options)
            settings = dict(game.settings)
            variant = get_variant(game.variant)
            told: list[str] = []
            try:
                for key, text in pairs:
                    option = variant.options.get(key.strip().lower())
                    if option is not None:
                        if game.status != GameStatus.FORMING:
                            raise ServiceError(f"the rule option {key} can only be changed before {name} starts")
                        options[key.strip().lower()] = read_option(key, option, text)
                        told.append(f"{key.strip().lower()} = {options[key.strip().lower()]} (rule option)")
                        continue
                    setting, value = apply_setting(settings, key, text)
                    told.append(f"{setting} = {value}")
                variant.rules(options)
            except (SettingError, ValueError) as exc:
                raise ServiceError(str(exc)) from None
            game.options = options
            game.settings = settings
            return told

    def release_held_press(self, name: str) -> list[PressSent]:
        """Press still held for results when the game ends without one (a draw, a TERMINATE): each message with
        the addresses it goes to, as it would have with the next results."""
        with self._tx() as s:
            game = self._lock(s, name)
            released = []
            for press in self._release_press(s, game):
                everyone = press["recipients"] == ["*"]
                powers = set(press["recipients"])
                addresses = {
                    seat.player.address for seat in game.seats if seat.player and (everyone or seat.power in powers)
                }
                if everyone:
                    addresses.update(game.settings.get("observers", []))
                addresses.discard(game.gm.address)
                released.append(PressSent(press, sorted(addresses), game.gm.address, True))
            return released

    def add_press(
        self, name: str, sender: str | None, recipients: list[str], body: str, grey: bool | None = None
    ) -> PressSent:
        """Store a press message, as the game's house rules allow it (`judge.game.house_rules`): to powers, to
        everybody (`["*"]`) or to the GM alone (`["GM"]`); grey as the game's press type and the sender's `grey`
        (GREY or WHITE written, or None) say. Held for the next results under `press_with_results`."""
        with self._tx() as s:
            game = self._lock(s, name)
            held = bool(game.settings.get("press_with_results", False))
            everybody = recipients == ["*"]
            only_gm = bool(recipients) and all(text.lower() in GM_NAMES for text in recipients)
            rules = PressRules.of(game.settings)
            try:
                if sender is not None:
                    rules.check(everybody, only_gm)
                is_grey = sender is not None and not only_gm and rules.grey(grey)
            except HouseRuleError as exc:
                raise ServiceError(str(exc)) from None
            wanted = set(self._powers_named(game, () if everybody or only_gm else recipients))
            if everybody:
                wanted = {seat.power for seat in game.seats if seat.power}
            stored = ["*"] if everybody else ["MASTER"] if only_gm else sorted(wanted)
            s.add(
                Press(
                    game_id=game.id,
                    phase_index=game.phase_index,
                    sender=sender,
                    recipients=stored,
                    body=body,
                    with_results=held,
                    grey=is_grey,
                    created_at=self.clock.now(),
                )
            )
            addresses = {seat.player.address for seat in game.seats if seat.power in wanted and seat.player}
            if everybody:
                addresses.update(game.settings.get("observers", []))
            addresses.discard(game.gm.address)
            press = {"sender": sender, "recipients": stored, "body": body, "grey": is_grey}
            return PressSent(press, sorted(addresses), game.gm.address, held)

    def observe(self, name: str, address: str, password: str | None) -> bool:
        """Start observing a game (with its password: observers get every results mail and broadcast press), or,
        with no password, stop. Returns whether the address now observes."""
        with self._tx() as s:
            game = self._lock(s, name)
            player = self._player(s, address)
            if password is not None and not verify_password(password, game.password_hash):
                raise ServiceError(f"wrong password for {name}")
            observers = [a for a in game.settings.get("observers", []) if a != player.address]
            if password is not None:
                observers.append(player.address)
            game.settings = {**game.settings, "observers": sorted(observers)}
            return password is not None

    def observers(self, name: str) -> list[str]:
        with self._tx() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            return list(game.settings.get("observers", []))

    def addresses(self, name: str) -> dict[str, str]:
        """Who gets a game's mail: power -> player address, and "MASTER" -> the GM."""
        with self._tx() as s:
            game = self._lock(s, name)
            found = {seat.power: seat.player.address for seat in game.seats if seat.power and seat.player}
            found["MASTER"] = game.gm.address
            return found

    def games(self) -> list[dict[str, Any]]:
        with self._tx() as s:
            rows = s.scalars(select(Game).order_by(Game.name)).all()
            return [
                {
                    "name": g.name,
                    "variant": g.variant,
                    "status": g.status,
                    "phase": _phase_name(g.position) if g.position else "forming",
                    "players": sum(1 for seat in g.seats if seat.player_id),
                }
                for g in rows
            ]

    def centre_history(self, name: str) -> list[tuple[int, dict[str, int], bool]]:
        """The centre counts at the end of each year played (ownership changes only after Fall), with the
        starting counts as the year before the first; the current year's counts when it is under way, marked
        unfinished (False) while the game is still in that year."""
        with self._tx() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            records = s.scalars(
                select(PhaseRecord).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.index)
            ).all()
            by_year: dict[int, dict[str, int]] = {}
            for record in records:
                if not by_year:
                    start = record.position_before.get("supply_centers", {})
                    by_year[record.year - 1] = {p: len(c) for p, c in start.items()}
                by_year[record.year] = {p: len(c) for p, c in record.outcome.get("supply_centers", {}).items()}
            current = (game.position or {}).get("phase", {}).get("year") if game.status != GameStatus.FINISHED else None
            return [(year, counts, year != current) for year, counts in sorted(by_year.items())]

    # --- reading -------------------------------------------------------------------------------------

    def brief(self, name: str) -> tuple[str | None, datetime | None]:
        """The phase a game is in and its deadline, read cheaply (for the foot of every reply)."""
        with self._plain() as s:
            game = game_view(s, name)
            if game is None or game.position is None:
                return None, None
            if game.status == GameStatus.FINISHED:
                return "no phase: the game is over", None
            return _phase_name(game.position), game.deadline

    def view(self, name: str) -> dict[str, Any]:
        with self._tx() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            return {
                "name": game.name,
                "variant": game.variant,
                "options": dict(game.options),
                "status": game.status,
                "phase_index": game.phase_index,
                "position": game.position,
                "result": game.result,
                "winners": game.winners,
                "deadline": game.deadline.isoformat() if game.deadline else None,
                "style": results_style(game.settings),
                "gm": game.gm.address,
                "seats": [
                    {
                        "power": seat.power,
                        "player": seat.player.address if seat.player else None,
                        "name": seat.player.name if seat.player else None,
                        "status": seat.status,
                        "missed": seat.missed,
                    }
                    for seat in game.seats
                ],
            }

    def phase_index_of(self, name: str, code: str) -> int:
        """The number of the processed phase with the njudge code `code` (S1901M); the latest if a rollback
        played it twice."""
        with self._tx() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            records = s.scalars(
                select(PhaseRecord).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.index.desc())
            )
            for record in records:
                phase = record.outcome["phase"]
                if Phase.parse(phase["season"], phase["year"], phase["type"]).code == code.upper():
                    return record.index
            raise ServiceError(f"{name} has no processed phase {code}")

    def history(self, name: str, index: int) -> dict[str, Any]:
        with self._tx() as s:
            game = s.scalar(select(Game).where(Game.name == name))
            if game is None:
                raise ServiceError(f"there is no game called {name}")
            record = s.scalar(select(PhaseRecord).where(PhaseRecord.game_id == game.id, PhaseRecord.index == index))
            if record is None:
                raise ServiceError(f"{name} has no processed phase {index}")
            return dict(record.outcome)


class Accounts:
    """Players' own records: who they are, how they sign in, where their mail goes. No game in it."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def change_password(self, address: str, old: str, new: str) -> None:
        with self.service._tx() as s:
            player = self.service.authenticate(s, address, old)
            player.password_hash = hash_password(new)

    def change_address(self, address: str, password: str, new_address: str) -> None:
        new_address = new_address.strip().lower()
        with self.service._tx() as s:
            player = self.service.authenticate(s, address, password)
            if s.scalar(select(Player).where(Player.address == new_address)) is not None:
                raise ServiceError(f"{new_address} is already registered")
            player.address = new_address

    def check(self, address: str, password: str) -> bool:
        with self.service._tx() as s:
            try:
                self.service.authenticate(s, address, password)
            except ServiceError:
                return False
            return True
