"""A whole game as archives keep it (issue 43 item 8): who played each side and every change of player, for SUMMARY,
and the processed phases with the press everybody read, for HISTORY over a range.

Who played what is read from the game's stored events by the walk the players' records use
(`judge.game.records.walk_game`: `game started`, `player replaced`, `player resigned`, `player ejected`, and the
processed phases that made a side abandoned), never worked out a second way. A name is shown as anyone but the GM may
read it (`judge.game.anonymity`): while a gunboat game hides its players, the others read no name (None) and the GM
still reads them all. The press is the game's page's (`Reads.public_history`'s rule): to everybody, delivered (held
press once released), a grey message without its sender; never a message to some powers, never one held."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from judge.clock import as_utc
from judge.engine import Phase
from judge.game.anonymity import ANONYMOUS, names_hidden
from judge.game.names import as_shown
from judge.game.reads import TO_EVERYBODY
from judge.game.record_values import SeatChange
from judge.game.records import player_names, walk_game
from judge.game.use_case import UseCase, phase_name, sides_of
from judge.game.views import PublicPhase
from judge.store import Game, GameStatus, PhaseRecord, Press


@dataclass(frozen=True)
class SideChange:
    """One change of a side's player as SUMMARY lists it."""

    side: str
    how: str
    """started, replaced, took over, resigned, ejected, abandoned (`judge.game.record_values.SeatChange`)"""
    player: str | None
    """his name, as the reader may read it: None for nobody, and for anyone while the game hides its players"""
    phase: str
    """the phase it happened in (S1903M): a processed one, or the phase under way"""
    year: int
    centres: dict[str, list[str]]
    """every power's supply centres then (after the last phase processed before it): the render counts the side's"""
    unknown: bool = False
    """a player was there whose name was never kept (a gunboat game's first player, replaced before the reveal)"""


@dataclass(frozen=True)
class Players:
    """Every side's players and their changes, in the order they happened."""

    changes: tuple[SideChange, ...]
    hidden: bool
    """the names were kept from the reader (a gunboat game not yet revealed, read by anyone but its GM)"""


@dataclass(frozen=True)
class ArchivePress:
    """A message everybody read: the fields its heading is made of (`judge.mail.compose.press_heading`'s)."""

    phase_index: int
    sender: str | None
    grey: bool
    shown_sender: str | None
    shown_recipients: list[str] | None
    observer: bool
    body: str

    def heading_values(self) -> dict[str, Any]:
        """The values `press_heading` words, as any reader but the GM reads them (an observer never named)."""
        return {
            "sender": self.sender,
            "recipients": ["*"],
            "grey": self.grey,
            "shown_sender": self.shown_sender,
            "shown_recipients": self.shown_recipients,
            "observer": "an observer" if self.observer else None,
        }


@dataclass(frozen=True)
class GameArchive:
    """The processed phases in order and the press everybody read, by the phase it was sent in."""

    phases: tuple[PublicPhase, ...]
    """as the pages read them (`judge.game.views.PublicPhase`), each processed time in UTC"""
    press: tuple[ArchivePress, ...]
    current: int | None
    """the phase under way (its press comes after the last results), None once the game is over"""
    current_code: str | None


def _first_players(game: Game, changes: list[SeatChange]) -> dict[str, str]:
    """The player of each side that never changed hands (abandoned or not), by the seats: a gunboat game's start
    mail, stored with the game, names nobody (`judge.game.use_case.seat_lines`), so where the events do not name the
    first player, the seat does while he still holds it. One replaced before the names were known is named nowhere."""
    moved = {change.side for change in changes if change.how not in ("started", "abandoned")}
    by_power = {seat.power: seat for seat in game.seats if seat.power}
    found = {}
    for side in sides_of(game):
        holder = next((by_power[p].player for p in side.powers if p in by_power and by_power[p].player), None)
        if holder is not None and side.label not in moved:
            found[side.label] = as_shown(holder.name)
    return found


def _named(change: SeatChange, kept: dict[str, str]) -> str | None:
    """The change's player by name: as its event named him, else (a gunboat game's first player, stored as
    `ANONYMOUS`) by his seat where he still holds it; None where nobody knows."""
    if change.player not in (None, ANONYMOUS):
        return change.player
    return kept.get(change.side) if change.how in ("started", "abandoned") else None


def _code(phase: dict[str, Any]) -> str:
    return Phase.parse(phase["season"], phase["year"], phase["type"]).code


class Archives(UseCase):
    def players(self, name: str, *, for_gm: bool) -> Players:
        """Who held each side at the start and every change since (`for_gm`: the GM reads the names even while a
        gunboat game hides them)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            walk = walk_game(s, game, player_names(s))
            rows = s.execute(
                select(PhaseRecord.index, PhaseRecord.outcome, PhaseRecord.position_before)
                .where(PhaseRecord.game_id == game.id)
                .order_by(PhaseRecord.index)
            ).all()
            start = (rows[0][2] if rows else game.position) or {}
            hidden = names_hidden(game) and not for_gm
            kept = _first_players(game, walk.changes)
            changes = []
            for change in walk.changes:
                before = [outcome for index, outcome, _ in rows if index < change.phase_index]
                then = before[-1] if before else start
                at = next((outcome for index, outcome, _ in rows if index == change.phase_index), None)
                phase = (at or game.position or then)["phase"]
                changes.append(
                    SideChange(
                        side=change.side,
                        how=change.how,
                        player=None if hidden else _named(change, kept),
                        phase=_code(phase),
                        year=int(phase["year"]),
                        centres={p: list(c) for p, c in (then.get("supply_centers") or {}).items()},
                        unknown=change.player == ANONYMOUS and _named(change, kept) is None,
                    )
                )
            return Players(tuple(changes), hidden)

    def archive(self, name: str) -> GameArchive:
        """The processed phases and the press everybody read (module docstring)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            rows = s.execute(
                select(PhaseRecord.index, PhaseRecord.outcome, PhaseRecord.processed_at)
                .where(PhaseRecord.game_id == game.id)
                .order_by(PhaseRecord.index)
            ).all()
            phases = tuple(
                PublicPhase(index, _code(outcome["phase"]), phase_name(outcome), dict(outcome), as_utc(at))
                for index, outcome, at in rows
            )
            press = tuple(
                ArchivePress(
                    row.phase_index,
                    row.sender,
                    row.grey,
                    row.shown_sender,
                    list(row.shown_recipients) if row.shown_recipients is not None else None,
                    row.observer is not None,
                    row.body,
                )
                for row in s.scalars(select(Press).where(Press.game_id == game.id, TO_EVERYBODY).order_by(Press.id))
            )
            running = game.status != GameStatus.FINISHED and game.position is not None
            current = game.phase_index if running else None
            code = _code(game.position["phase"]) if running and game.position else None
            return GameArchive(phases, press, current, code)
