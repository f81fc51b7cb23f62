"""Forming a game and taking a seat in it: CREATE, JOIN, START, OBSERVE, and SIGNON with the names a player goes by."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.contract import position_json
from judge.game import openings
from judge.game.end_rules import check_refused
from judge.game.errors import GameError
from judge.game.events import GameStarted
from judge.game.house_rules import PressRules
from judge.game.names import NameRefused, as_shown, game_name, look_alike_key
from judge.game.preferences import assign, read_preferences
from judge.game.settings import DEFAULT_SETTINGS, apply_setting, given_settings, read_option, results_style
from judge.game.use_case import (
    UseCase,
    audience_of,
    next_deadline,
    seat_lines,
    side_leading,
    side_named_in,
    side_of,
    sides_of,
)
from judge.passwords import hash_password, verify_password
from judge.store import Game, GameStatus, Player, Seat, SeatStatus
from judge.variants import Side, UnknownVariant, get_variant, side_named


@dataclass(frozen=True)
class Created:
    """A new game's name, its rule options and the settings its GM gave, as CREATE's reply and LIST show them."""

    name: str
    options: dict[str, Any]
    settings: dict[str, Any]


@dataclass(frozen=True)
class Joined:
    """What a JOIN (or SIGNON ?) did: the game joined; the side the player holds where his join filled the game and
    it started; or that his wish waits for the GM's answer (`join.approval`)."""

    game: str
    side: Side | None = None
    waiting: bool = False


@dataclass(frozen=True)
class SignedOn:
    """Who a SIGNON made the sender: the power the lines that follow are filed with (each line then goes to the
    power whose unit it names), the side's name, every power the player holds, and the player's address."""

    power: str
    side: str
    holds: tuple[str, ...]
    address: str


class Seating(UseCase):
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
    ) -> Created:
        """A forming game with its GM; returns its name as stored, its rule options and the settings given (for the
        reply). The name is judge.game.names' (ASCII letters and digits, bounded) and like no other game's."""
        name = game_name(name)
        settings = {**DEFAULT_SETTINGS, **(settings or {})}
        try:
            chosen = get_variant(variant)
            rule_options: dict[str, Any] = {}
            for key, value in (options or {}).items():
                if key in chosen.options:
                    written = isinstance(value, str)
                    rule_options[key] = read_option(key, chosen.options[key], value) if written else value
                elif isinstance(value, str):  # a setting written at CREATE (`results.orders=njudge`)
                    check_refused(chosen.name, key)
                    apply_setting(settings, key, value)
                else:
                    rule_options[key] = value
            options = rule_options
            chosen.rules(options)  # rejects unknown options now, not at the first deadline
        except (UnknownVariant, ValueError) as exc:
            raise GameError(str(exc).strip("'\"")) from None
        with self.store.write() as s:
            gm = self.store.player(s, gm_address)
            if s.scalar(select(Game.id).where(Game.name == name)) is not None:
                raise GameError(f"a game called {name} already exists")
            key = look_alike_key(name)
            taken = s.scalar(select(Game.name).where(Game.name_key == key).limit(1))
            if taken is not None:
                raise NameRefused(f"{name} looks like {as_shown(taken)}, another game's name: choose another")
            s.add(
                Game(
                    name=name,
                    name_key=key,
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
        return Created(name, dict(options or {}), given_settings(settings))

    def join(self, name: str, address: str, password: str, preferences: Sequence[str] = ()) -> Joined:
        """Join a forming game with its password, naming the players or powers one would like to be, best first
        (ties and ANY as `judge.game.preferences` reads them). Through the one gate (`judge.game.openings.admit`):
        a refused address is declined, and where the GM approves joins the wish waits for his answer."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.FORMING:
                raise GameError(f"{name} is not taking new players")
            if not verify_password(password, game.password_hash):
                raise GameError(f"wrong password for {name}")
            return self.seat_or_ask(s, game, self.store.player(s, address), preferences)

    def join_next(self, address: str, password: str, variant: str | None, preferences: Sequence[str] = ()) -> Joined:
        """njudge's SIGNON ?: join the forming game, of `variant` where one is named, that has waited longest for
        players among those anyone may join (`join.open`, advertised, with a place left, not declining this
        address), with the player's own password; the gate and the GM's approval as for JOIN."""
        with self.store.write() as s:
            player = self.store.player(s, address)
            if not verify_password(password, player.password_hash):
                raise GameError("SIGNON ? failed: wrong password (your own, as you registered it)")
            query = select(Game.name).where(Game.status == GameStatus.FORMING).order_by(Game.created_at, Game.id)
            if variant is not None:
                try:
                    variant = get_variant(variant).name
                except UnknownVariant as exc:
                    raise GameError(str(exc).strip("'\"")) from None
                query = query.where(Game.variant == variant)
            for name in s.scalars(query).all():
                game = self.store.lock(s, name)
                if not openings.openings_of(game) or not openings.advertised(game):
                    continue
                if any(seat.player_id == player.id for seat in game.seats):
                    continue
                try:
                    openings.admit(s, game, player)
                except openings.Declined:
                    continue
                return self.seat_or_ask(s, game, player, preferences)
            kind = f"{variant} " if variant is not None else ""
            raise GameError(f"no forming {kind}game is open to anyone now (LIST OPENINGS shows the places open)")

    def seat_or_ask(self, s: Session, game: Game, player: Player, preferences: Sequence[str]) -> Joined:
        """JOIN's and SIGNON ?'s work once the game is chosen and the password right: the gate, then a seat (the
        game started if it is full) or a request to the GM."""
        if any(seat.player_id == player.id for seat in game.seats):
            raise GameError(f"you have already joined {game.name}")
        wanted = read_preferences(game, tuple(preferences))
        if len(game.seats) >= len(get_variant(game.variant).seat_groups(game.options)):
            raise GameError(f"{game.name} is full")
        if openings.admit(s, game, player) is openings.Admission.ASK_GM:
            openings.ask_gm(self, s, game, player, None, wanted)
            return Joined(game.name, None, waiting=True)
        return Joined(game.name, self.seat(s, game, player, wanted))

    def seat(self, s: Session, game: Game, player: Player, wanted: list[str | list[str]]) -> Side | None:
        """Give a player who passed the gate a place in the forming game; when that fills it (and it starts by
        itself), the side he holds."""
        players = len(get_variant(game.variant).seat_groups(game.options))
        if len(game.seats) >= players:
            raise GameError(f"{game.name} is full")
        game.seats.append(Seat(player=player, preferences=wanted, joined_at=self.clock.now()))
        s.flush()
        if len(game.seats) == players and game.settings.get("auto_start", True):
            self._start(s, game)
            mine = next(seat.power for seat in game.seats if seat.power and seat.player_id == player.id)
            return side_of(game, mine)
        return None

    def start(self, name: str, *, short: bool = False) -> list[str]:
        """Start a forming game now; `short`: with fewer players than sides, the sides nobody plays in civil
        disorder (their units hold, their removals made by the civil-disorder rules) until the GM REPLACEs them.
        Returns the sides left in civil disorder, as lists name them."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.FORMING:
                raise GameError(f"{name} has already started")
            return self._start(s, game, short=short)

    def _start(self, s: Session, game: Game, *, short: bool = False) -> list[str]:
        variant = get_variant(game.variant)
        groups = variant.seat_groups(game.options)
        if len(game.seats) > len(groups) or (len(game.seats) < len(groups) and not short):
            raise GameError(
                f"{game.name} needs {len(groups)} players and has {len(game.seats)}"
                + ("; START CD starts it now with the other powers in civil disorder" if not short else "")
            )
        unplayed = _assign_powers(game, groups)
        for group in unplayed:
            for power in group:
                game.seats.append(Seat(power=power, status=SeatStatus.CIVIL_DISORDER, joined_at=self.clock.now()))
        if game.position is None:  # else the position a GM imported (`place_imported`): the game goes on from it
            game.position = position_json(variant.name, variant.starting_position())
        game.phase_index = 0
        game.status = GameStatus.ACTIVE
        game.deadline = next_deadline(game, self.clock.now())
        left = sorted(side_of(game, group[0]).label for group in unplayed)  # by side: `Player 3`, never 7 boards
        lines = seat_lines(game)
        opening = game.position["phase"]
        event = GameStarted(
            game=game.name,
            variant=game.variant,
            options=dict(game.options),
            seats=lines,
            deadline=game.deadline,
            unplayed=tuple(left),
            gm_reads_press=PressRules.of(game.settings).gm_reads,
            layout=results_style(game.settings)["layout"],
            units=tuple((str(u["power"]), str(u["unit"]), str(u["at"])) for u in game.position.get("units", [])),
            opening=(str(opening["season"]), int(opening["year"]), str(opening["type"])),
            sides=tuple(sides_of(game)),
            audience=audience_of(game),
        )
        self.raise_event(s, game, event)
        return left

    def observe(self, name: str, address: str, password: str | None) -> bool:
        """Start observing a game (with its password: observers get every results mail and broadcast press), or,
        with no password, stop. Returns whether the address now observes."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player = self.store.player(s, address)
            if password is not None and not verify_password(password, game.password_hash):
                raise GameError(f"wrong password for {name}")
            if password is not None:
                openings.admit(s, game, player, observing=True)
            observers = [a for a in game.observers if a != player.address]
            if password is not None:
                observers.append(player.address)
            game.observers = sorted(observers)
            return password is not None

    def signon(self, name: str, power: str, password: str, admin: str | None = None) -> SignedOn:
        """Check a SIGNON: the password of the player holding `power` -- a side's name (`England`, `Player 2`) or
        any of its powers -- or, for MASTER, the registered password of the GM, of a co-GM (`PROMOTE`) or of the
        judge's admin (`admin`, his address: he stands in for a GM who vanished). Every failure says the same, so
        that a wrong guess learns nothing about the game."""
        failed = GameError("signon failed: wrong game, power or password")
        with self.store.plain() as s:
            game = self.store.find_snapshot(s, name)
            if game is None:
                raise failed
            if power.upper() in ("MASTER", "GM"):
                if verify_password(password, game.gm_password_hash):
                    return SignedOn("MASTER", "MASTER", (), game.gm_address)
                others = [*(s.scalar(select(Game.co_gms).where(Game.id == game.id)) or []), *([admin] if admin else [])]
                for address, hashed in s.execute(
                    select(Player.address, Player.password_hash).where(Player.address.in_(others))
                ).all():
                    if verify_password(password, hashed):
                        return SignedOn("MASTER", "MASTER", (), address)
                raise failed
            named = game.rules.board.lookup_power(power) if game.position else None
            named = named or next(
                (seat.power for seat in game.seats if seat.power and seat.power.lower() == power.lower()), None
            )
            side = side_named(sides_of(game), power, named) if game.position else None
            if side is None and named is not None:
                side = side_of(game, named)
            if side is None:
                raise failed
            canonical = named if named in side.powers else side.powers[0]
            for seat in game.seats:
                if (
                    seat.power in side.powers
                    and seat.address is not None
                    and seat.password_hash is not None
                    and verify_password(password, seat.password_hash)
                ):
                    held = tuple(o.power for o in game.seats if o.power and o.address == seat.address)
                    return SignedOn(canonical, side.label if len(side.powers) > 1 else canonical, held, seat.address)
            raise failed

    def signon_observer(self, name: str, address: str, password: str) -> str:
        """Check an observer's SIGNON (`SIGNON game OBSERVER password`, njudge's observer signon): the sending
        address observes the game and the password is its registered one. Returns the address. Every failure says
        what a failed SIGNON always says."""
        failed = GameError("signon failed: wrong game, power or password")
        with self.store.plain() as s:
            observers = s.scalar(select(Game.observers).where(Game.name == name))
            address = address.strip().lower()
            if address not in (observers or []):
                raise failed
            player = s.scalar(select(Player).where(Player.address == address))
            if player is None or not verify_password(password, player.password_hash):
                raise failed
            return address

    def power_named(self, name: str, text: str) -> str:
        """The power of the game `text` names (`France`, `F`, `french`, `1:England`; a side's name, `Player 2`,
        gives its first power), or a GameError saying it is none and naming the choices."""
        with self.store.plain() as s:
            game = self.store.snapshot(s, name)
            side = side_named_in(game, text.split())
            power = game.rules.board.lookup_power(text.strip())
            return power if power is not None and power in side.powers else side.powers[0]

    def power_leading(self, name: str, words: list[str]) -> tuple[str, int]:
        """The power the first words name (a side's name gives its first power) and how many words name it: the GM's
        `SET ABSENCE Player 2 2026-12-01 TO 2026-12-05`."""
        with self.store.plain() as s:
            game = self.store.snapshot(s, name)
            side, width = side_leading(game, words)
            power = game.rules.board.lookup_power(" ".join(words[:width]))
            return (power if power is not None and power in side.powers else side.powers[0]), width

    def side_named(self, name: str, text: str) -> Side:
        """The side `text` names, by any name the judge prints (use_case.sides_named)."""
        with self.store.plain() as s:
            return side_named_in(self.store.snapshot(s, name), text.split())

    def power_by_initial(self, name: str, initial: str) -> str | None:
        """njudge's SIGNON Fgame: the power whose initial is given."""
        with self.store.plain() as s:
            game = self.store.find_snapshot(s, name)
            if game is None:
                return None
            for power in game.rules.board.powers.values():
                if power.initial.lower() == initial.lower():
                    return power.name
            return None

    def side_of(self, name: str, power: str) -> list[str]:
        """The powers the player of `power` holds in the game (Hoplite Wars: a Major and its Minor)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            seat = next((o for o in game.seats if o.power == power), None)
            if seat is None or seat.player_id is None:
                return [power]
            return sorted(o.power for o in game.seats if o.power and o.player_id == seat.player_id)


def _assign_powers(game: Game, groups: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    """Each player takes a group of powers (one power, or a side the variant fixes), by his preferences as
    `judge.game.preferences.assign` settles them from the game's seed. A player with several powers holds a seat
    for each. Returns the groups nobody joined for (a game started short)."""
    joined = list(game.seats)
    chosen, left = assign(groups, [seat.preferences for seat in joined], game.seed)
    for seat, group in zip(joined, chosen, strict=True):
        first, *more = group
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
