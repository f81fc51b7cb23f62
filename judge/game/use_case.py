"""What every use case shares: the store, the clock, the events it raises, and the facts of a game that several
use cases need (who gets its mail, when its phase falls due, how it ends)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import Clock
from judge.contract import position_from_json
from judge.engine import Phase
from judge.engine.supply import powers_to_order
from judge.game.anonymity import known_as, names_hidden
from judge.game.attendance import extended_deadline
from judge.game.errors import GameError
from judge.game.events import Audience, GameEnded, GameEvent, PhaseProcessed, SeatLine, StatementsPublished
from judge.game.filed_statements import statements_of
from judge.game.names import shown_name
from judge.game.seat_events import PlayersRevealed
from judge.game.settings import is_gunboat
from judge.game.snapshot import Snapshot
from judge.game.store import GameStore, rules_of
from judge.game.timing import deadline_after, timing_from_settings
from judge.store import Game, GameEventRecord, GameStatus, Player, Seat, SeatStatus
from judge.variants import Side, get_variant, side_named


@dataclass
class UseCase:
    store: GameStore
    clock: Clock
    events: list[GameEvent]
    """every event raised in this unit of work, in order (the caller hands them to the notifier)"""

    def raise_event(self, s: Session, game: Game | Snapshot, event: GameEvent, phase: int | None = None) -> None:
        """Say what happened: for the notifier, and kept with the game where a later reader needs it, under the
        phase it happened in (`phase`: when that is not the phase the game is in now). The event is told its
        game's variant, whose own templates word its notices where it has them. The end of a game makes the
        players' end-of-game statements public (`judge.game.statements`): the game-over mail (`GameEnded`) carries
        them, and a victory's results are followed by them (`StatementsPublished`)."""
        if not event.variant:
            event = replace(event, variant=game.variant)
        if isinstance(event, GameEnded) and isinstance(game, Game) and event.started:
            event = replace(event, statements=statements_of(s, game, before=True))  # kept private until now
        self.events.append(event)
        if event.stored:
            index = game.phase_index if phase is None else phase
            record = GameEventRecord(game_id=game.id, phase_index=index, kind=event.kind, data=event.data(),
                                     at=self.clock.now())  # fmt: skip
            s.add(record)
        if isinstance(game, Game) and _ends_a_gunboat_game(game, event):
            revealed = PlayersRevealed(game=game.name, seats=seat_lines(game), audience=audience_of(game))
            self.raise_event(s, game, revealed)
        if isinstance(game, Game) and isinstance(event, PhaseProcessed) and event.finished:
            filed = statements_of(s, game, before=True)  # a victory's results carry no statement: they follow them
            if filed:
                self.raise_event(s, game, StatementsPublished(game=game.name, statements=filed,
                                                              audience=audience_of(game)))  # fmt: skip


def _ends_a_gunboat_game(game: Game, event: GameEvent) -> bool:
    """The event ended a gunboat game that names its players at the end (`reveal_at_end`): they are told who
    played whom, after the results or the game-over mail."""
    ended = (isinstance(event, PhaseProcessed) and event.finished) or (isinstance(event, GameEnded) and event.started)
    return bool(ended) and is_gunboat(game.settings) and not names_hidden(game)


def seat_lines(game: Game) -> tuple[SeatLine, ...]:
    """Each side and who plays it, as the game-start mail and the reveal name them: the player's name as the others
    may read it (`judge.game.anonymity.known_as`), or nobody, in civil disorder or not -- as values, which the
    notices' templates word."""
    by_power = {seat.power: seat for seat in game.seats if seat.power}
    lines = []
    for side in sorted(sides_of(game), key=lambda side: side.label):
        seats = [by_power[p] for p in side.powers if p in by_power]
        holder = known_as(game, next((seat.player for seat in seats if seat.player), None))
        disorder = holder is None and any(seat.status == SeatStatus.CIVIL_DISORDER for seat in seats)
        lines.append(SeatLine(side.label, holder, disorder))
    return tuple(lines)


def audience_of(game: Game) -> Audience:
    """Who gets the game's mail now."""
    players = {seat.power: seat.player.address for seat in game.seats if seat.power and seat.player}
    return Audience(players, game.gm.address, tuple(game.observers), tuple(game.co_gms or ()))


def seat_of(game: Game, power: str) -> Seat:
    for seat in game.seats:
        if seat.power == power:
            return seat
    raise GameError(f"{power} is not a power in {game.name}")


def sides_of(game: Game | Snapshot) -> list[Side]:
    """What each player of the game takes (`Variant.sides`): worked out once for a variant and its options, as
    attendance, lists and the order path ask for it power by power."""
    key = (game.variant, tuple(sorted((k, repr(v)) for k, v in (game.options or {}).items())))
    found = _SIDES.get(key)
    if found is None:
        found = _SIDES[key] = get_variant(game.variant).sides(game.options)
    return list(found)


_SIDES: dict[tuple[str, tuple[tuple[str, str], ...]], list[Side]] = {}
"""the sides by variant and rule options (a handful of games' worth of keys: a variant's options are few)"""


def side_of(game: Game | Snapshot, power: str) -> Side:
    """The side a power belongs to."""
    return next((side for side in sides_of(game) if power in side.powers), Side(power, (power,)))


def sides_named(game: Game | Snapshot, texts: list[str] | tuple[str, ...]) -> list[Side]:
    """The one resolver of the names players go by, for every command that names a player (JOIN, PRESS TO, EJECT,
    REPLACE, BECOME, STATUS, SET DRAW, CONCEDE): a side's name or its label as the judge prints it (`England`,
    `Player 2` or `player2`, `Sparta + Elatea`), or any of its powers (`Elatea`, `1:England`, `F`). Several words
    may make one name (`Player 2`, `Sparta + Elatea`). A word that names none is refused with the names there are."""
    found: list[Side] = []
    words = list(texts)
    while words:
        side, width = side_leading(game, words)
        found.append(side)
        del words[:width]
    return found


def side_leading(game: Game | Snapshot, words: list[str] | tuple[str, ...]) -> tuple[Side, int]:
    """The side the first words name, the longest name first (up to three words: `Player 2`, `Sparta + Elatea`),
    and how many words name it (`SET ABSENCE Player 2 2026-12-01 TO 2026-12-05`); a GameError when they name none."""
    board = game.rules.board if isinstance(game, Snapshot) else rules_of(game).board
    sides = sides_of(game)
    for width in (3, 2, 1):
        text = " ".join(words[:width])
        side = side_named(sides, text, board.lookup_power(text)) if len(words) >= width else None
        if side is not None:
            return side, width
    single = all(len(side.powers) == 1 for side in sides)
    what = "is not a power" if single else "names no player"
    raise GameError(f"{words[0]!r} {what} of {game.variant}; {choices(game)}")


def side_named_in(game: Game | Snapshot, texts: list[str] | tuple[str, ...]) -> Side:
    """The one side the words name (`EJECT Player 2`, `REPLACE Sparta + Elatea ...`), or a GameError saying why."""
    if not texts:
        raise GameError(f"name a player of {game.name}: {choices(game)}")
    found = sides_named(game, texts)
    if len(set(found)) != 1:
        raise GameError(f"{' '.join(texts)!r} names {len(set(found))} players; name one ({choices(game)})")
    return found[0]


def press_readers(game: Game | Snapshot, recipients: list[str] | tuple[str, ...]) -> set[str]:
    """The powers press to `recipients` reaches: each a side as stored (its label: `Sparta + Elatea`, `Player 2`)
    or, in press kept from before sides were stored, a power; every power of the side reads it."""
    sides = sides_of(game)
    held = {power for side in sides for power in side.powers}
    found: set[str] = set()
    for name in recipients:
        side = side_named(sides, name, name if name in held else None)
        if side is not None:
            found.update(side.powers)
    return found


def choices(game: Game | Snapshot) -> str:
    """The names a player may go by, for a refusal: compact, the sides' names and one example of a power where a
    side holds many (never the 49 board-nations of CW Heptadiplomacy)."""
    sides = sides_of(game)
    if all(len(side.powers) == 1 for side in sides):
        return f"the powers are {', '.join(side.name for side in sides)}"
    if all(side.name in side.powers for side in sides):
        return "the players are " + ", ".join(side.label for side in sides) + " (name either power)"
    noun = get_variant(game.variant).power_noun
    example = sides[0].powers[0]
    return f"the players are {', '.join(side.name for side in sides)} (or name a {noun}, e.g. {example})"


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
    if not game.absences:
        return deadline
    rules = rules_of(game)
    due = powers_to_order(rules, position_from_json(rules, game.position))
    return extended_deadline(game.settings, game.absences, deadline, due) or deadline


def finish(game: Game, result: str, winners: list[str], now: datetime) -> None:
    """The game is over: `result` is victory, draw, concession, terminated or centres (its end year: the leaders
    win, judge.game.year_end)."""
    game.status = GameStatus.FINISHED
    game.result = result
    game.winners = sorted(winners)
    game.finished_at = now


def registered_names(s: Session | None, addresses: Iterable[str]) -> tuple[str, ...]:
    """The registered names of the players at these addresses (a game's co-GMs, its observers), sorted, as the pages
    and LIST show them: never the addresses (`judge.game.names.shown_name`)."""
    found = s.scalars(select(Player.name).where(Player.address.in_(set(addresses)))) if s and addresses else ()
    return tuple(sorted(shown_name(name) for name in found))
