"""Who may take a place in a game, and the places open to volunteers (issue 43 items 5 and 9, issue 44 item 3).

`admit` is the one gate every way into a game goes through -- JOIN and SIGNON ? (judge.game.seating), a
volunteer's TAKEOVER and the GM's APPROVE (here), OBSERVE -- answering "may this account take this place?": an
address the GM refused is declined, saying no more than that; where the GM approves joins (`join.approval`) the
wish waits for his answer. Entry limits on a player's record (a least dedication or on-time ratio) belong in it.

An open place is a side nobody plays any more in a running game: abandoned (its player missed too many
deadlines), left without a player (resigned, ejected) or never filled (civil disorder since a short start). A
registered player takes it whole, every power of the side, with TAKEOVER; njudge and DPjudge let anyone take
such a power, and so does this judge unless its GM turned `join.takeover` off. The openings list names sides, phases
and deadlines, never who played them (a gunboat game's players stay unknown): `Opening` is its only shape.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from judge.game.entry_limits import check_entry
from judge.game.errors import GameError
from judge.game.preferences import read_preferences, shown_preferences
from judge.game.seat_events import JoinAnswered, JoinAsked
from judge.game.settings import is_private, section
from judge.game.timing import timing_from_settings
from judge.game.use_case import UseCase, phase_name, side_named_in, sides_of
from judge.game.views import Opening
from judge.passwords import verify_password
from judge.store import Game, GameStatus, JoinRequest, Player, RefusedAddress, SeatStatus
from judge.variants import Side, get_variant


class Declined(GameError):
    """The GM declined this address in this game: told no more than that (never that the address is refused)."""

    def __init__(self, game: str) -> None:
        super().__init__(f"the GM of {game} has declined you")


class Admission(Enum):
    """What the gate says to an account that may take the place."""

    NOW = "now"
    ASK_GM = "ask the GM"


def admit(s: Session, game: Game, player: Player, *, observing: bool = False, approved: bool = False) -> Admission:
    """The gate: may `player` take a place in `game` (join it, take an open side, or, `observing`, watch it)?
    Raises `Declined` for an address the GM refused; says ASK_GM where the game needs the GM's approval to join
    (`join.approval`) and he has not yet given it (`approved`: his APPROVE passes the gate again, so that a
    refusal made since still holds). Observing needs no approval."""
    refused = s.scalar(
        select(RefusedAddress.id).where(RefusedAddress.game_id == game.id, RefusedAddress.address == player.address)
    )
    if refused is not None:
        raise Declined(game.name)
    if observing or approved:
        return Admission.NOW
    check_entry(s, game, player)  # the game's entry limits on his record (issue 46), unless the GM waived them
    return Admission.ASK_GM if _setting(game, "approval", False) else Admission.NOW


def _setting(game: Game, key: str, default: bool) -> bool:
    return bool(section(game.settings, "join").get(key, default))


def ask_gm(
    uc: UseCase, s: Session, game: Game, player: Player, side: Side | None, wanted: list[str | list[str]]
) -> None:
    """Keep the player's wish for the GM's answer (a second wish replaces the first) and tell the GM."""
    request = s.scalar(select(JoinRequest).where(JoinRequest.game_id == game.id, JoinRequest.player_id == player.id))
    if request is None:
        request = JoinRequest(game_id=game.id, player_id=player.id, asked_at=uc.clock.now())
        s.add(request)
    request.side = side.label if side is not None else None
    request.preferences = list(wanted)
    request.asked_at = uc.clock.now()
    s.flush()
    event = JoinAsked(
        game=game.name,
        player=player.name,
        address=player.address,
        side=request.side,
        preferences=shown_preferences(wanted),
        gm=game.gm.address,
    )
    uc.raise_event(s, game, event)


def open_sides(game: Game) -> list[tuple[Side, str]]:
    """The sides of a running game a volunteer may take, each with why it is open: a side none of whose live
    powers has a player, or one whose player abandoned it (missed `abandon_after` deadlines in a row)."""
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or game.position is None:
        return []
    by_power = {seat.power: seat for seat in game.seats if seat.power}
    found = []
    for side in sides_of(game):
        live = [by_power[p] for p in side.powers if p in by_power and by_power[p].status != SeatStatus.ELIMINATED]
        if not live:
            continue
        if any(seat.status == SeatStatus.ABANDONED for seat in live):
            found.append((side, "abandoned"))
        elif all(seat.player_id is None for seat in live):
            never = all(seat.status == SeatStatus.CIVIL_DISORDER for seat in live)
            found.append((side, "civil disorder" if never else "no player"))
    return found


def advertised(game: Game) -> bool:
    """Whether the game's openings go on the judge-wide list (`LIST OPENINGS`, the site's openings page): not a
    private game's (its state is nobody's business but its players'). A game left out is still reachable by name."""
    return not is_private(game.settings or {})


def openings_of(game: Game) -> list[Opening]:
    """A game's places open to volunteers: its open sides (running), or its free places where anyone may join it
    (forming with `join.open`: SIGNON ? may place a player in it)."""
    approval = _setting(game, "approval", False)
    if game.status == GameStatus.FORMING:
        places = len(get_variant(game.variant).seat_groups(game.options)) - len(game.seats)
        if places <= 0 or not _setting(game, "open", False):
            return []
        what = f"{places} place{'s' if places > 1 else ''}"
        return [Opening(game.name, game.variant, what, "", "forming", "forming", None, approval)]
    if not _setting(game, "takeover", True):
        return []
    phase = phase_name(game.position) if game.position else ""
    zone = timing_from_settings(game.settings).zone
    deadline = game.deadline if game.status == GameStatus.ACTIVE else None
    return [
        Opening(game.name, game.variant, side.label, side.name, why, phase, deadline, approval, zone)
        for side, why in open_sides(game)
    ]


@dataclass(frozen=True)
class Taken:
    """What a TAKEOVER did: the side taken, or that the wish waits for the GM's answer."""

    game: str
    side: Side
    waiting: bool = False


@dataclass(frozen=True)
class Waiting:
    """A wish waiting for the GM's answer, as his REQUESTS shows it (the GM sees addresses)."""

    player: str
    address: str
    side: str | None
    preferences: str
    asked_at: datetime


def rewish(s: Session, game: Game, player: Player, wanted: list[str | list[str]]) -> bool:
    """A waiting join's powers wished for, changed (SET PREFERENCE); False where the player waits for nothing."""
    request = s.scalar(select(JoinRequest).where(JoinRequest.game_id == game.id, JoinRequest.player_id == player.id))
    if request is None or request.side is not None:
        return False
    request.preferences = list(wanted)
    return True


class Openings(UseCase):
    """The places open to volunteers, their taking, and the GM's answers and refusals."""

    def set_preferences(self, name: str, address: str, wishes: Sequence[str]) -> str:
        """njudge's SET PREFERENCE: a player who joined a forming game (or waits for the GM's answer to his join)
        changes the powers he would like, until they are given at the start. Returns them as read."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.FORMING:
                raise GameError(f"{name} has started: its powers are given")
            player = self.store.player(s, address)
            wanted = read_preferences(game, tuple(wishes))
            seat = next((seat for seat in game.seats if seat.player_id == player.id), None)
            if seat is not None:
                seat.preferences = list(wanted)
            elif not rewish(s, game, player, wanted):
                raise GameError(f"you have not joined {name}")
            return shown_preferences(wanted)

    def all(self) -> list[Opening]:
        """Every advertised game's openings, by game name: the judge-wide list (LIST OPENINGS, the site's page)."""
        with self.store.plain() as s:
            ids = s.scalars(
                select(Game.id).where(Game.status.in_((GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)))
            ).all()
            games = sorted(self.store.peek_ids(s, ids).values(), key=lambda game: game.name)
            return [opening for game in games if advertised(game) for opening in openings_of(game)]

    def of(self, name: str) -> list[Opening]:
        """One game's openings (LIST game, its page), advertised or not: whoever knows its name may see them."""
        with self.store.plain() as s:
            return openings_of(self.store.peek(s, name))

    def take(self, name: str, who: str, address: str, password: str) -> Taken:
        """A registered player takes the open side `who` names (any name the judge prints), every power of it,
        with his own password: at once, or, where the GM approves joins, once he does."""
        from judge.game.controls import hand_over  # controls tells the game; it needs nothing of this module

        with self.store.write() as s:
            game = self.store.lock(s, name)
            player = self.store.player(s, address)
            if not verify_password(password, player.password_hash):
                raise GameError("TAKEOVER failed: wrong password (your own, as you registered it)")
            side = self._open_side(game, who)
            if any(seat.player_id == player.id for seat in game.seats if seat.power):
                raise GameError(f"you already play in {name}")
            if admit(s, game, player) is Admission.ASK_GM:
                ask_gm(self, s, game, player, side, [])
                return Taken(name, side, waiting=True)
            hand_over(self, s, game, side, player, volunteered=True)
            return Taken(name, side)

    def _open_side(self, game: Game, who: str) -> Side:
        if game.status == GameStatus.FORMING:
            raise GameError(f"{game.name} has not started: JOIN it")
        if game.status == GameStatus.FINISHED:
            raise GameError(f"{game.name} is over")
        if not _setting(game, "takeover", True):
            raise GameError(f"the GM of {game.name} gives its places himself (join.takeover is off)")
        side = side_named_in(game, who.split())
        open_now = {s.label: why for s, why in open_sides(game)}
        if side.label not in open_now:
            shown = ", ".join(open_now) or "none"
            raise GameError(f"{side.label} is not open to a volunteer in {game.name} (open: {shown})")
        return side

    def approve(self, name: str, address: str) -> str:
        """The GM lets a waiting player in: his join is done (the game starts if it is full), or he takes the side
        he asked for if it is still open. Returns what he was let into, as the GM's reply names it."""
        from judge.game.controls import hand_over
        from judge.game.seating import Seating

        with self.store.write() as s:
            game = self.store.lock(s, name)
            request = self._request(s, game, address)
            player = request.player
            admit(s, game, player, approved=True)
            side_label, wanted = request.side, list(request.preferences or [])
            s.delete(request)
            s.flush()
            if side_label is not None:
                side = self._open_side(game, side_label)
                hand_over(self, s, game, side, player, volunteered=True)
                return side.label
            if game.status != GameStatus.FORMING:
                raise GameError(f"{name} has started since: {player.name} can no longer join it")
            if any(seat.player_id == player.id for seat in game.seats):
                raise GameError(f"{player.name} has already joined {name}")
            Seating(self.store, self.clock, self.events).seat(s, game, player, wanted)
            self.raise_event(s, game, JoinAnswered(game=name, address=player.address, approved=True))
            return "a place"

    def decline(self, name: str, address: str) -> None:
        """The GM turns a waiting player away; he is told the GM declined, no more."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            request = self._request(s, game, address)
            event = JoinAnswered(game=name, address=request.player.address, approved=False, side=request.side)
            s.delete(request)
            self.raise_event(s, game, event)

    def _request(self, s: Session, game: Game, address: str) -> JoinRequest:
        found = s.scalar(
            select(JoinRequest)
            .join(Player, Player.id == JoinRequest.player_id)
            .where(JoinRequest.game_id == game.id, Player.address == address.strip().lower())
        )
        if found is None:
            raise GameError(f"nobody at {address.strip().lower()} is waiting to join {game.name}")
        return found

    def waiting(self, name: str) -> list[Waiting]:
        """The wishes waiting for the GM's answer, oldest first."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            rows = s.scalars(
                select(JoinRequest).where(JoinRequest.game_id == game.id).order_by(JoinRequest.asked_at)
            ).all()
            return [
                Waiting(r.player.name, r.player.address, r.side, shown_preferences(r.preferences or []), r.asked_at)
                for r in rows
            ]

    def refuse(self, name: str, address: str, refused: bool = True) -> bool:
        """Refuse an address in the game (`refused`), or take the refusal back. A refused address's joins,
        takeovers and observing are declined from now on, its waiting wish is declined, and it no longer
        observes; a player it already is stays one (EJECT removes him). Returns whether anything changed."""
        address = address.strip().lower()
        with self.store.write() as s:
            game = self.store.lock(s, name)
            there = s.scalar(
                select(RefusedAddress).where(RefusedAddress.game_id == game.id, RefusedAddress.address == address)
            )
            if not refused:
                if there is None:
                    return False
                s.delete(there)
                return True
            if there is not None:
                return False
            s.add(RefusedAddress(game_id=game.id, address=address, refused_at=self.clock.now()))
            game.observers = [a for a in game.observers if a != address]
            wish = s.scalar(
                select(JoinRequest)
                .join(Player, Player.id == JoinRequest.player_id)
                .where(JoinRequest.game_id == game.id, Player.address == address)
            )
            if wish is not None:
                self.raise_event(s, game, JoinAnswered(game=name, address=address, approved=False, side=wish.side))
                s.execute(delete(JoinRequest).where(JoinRequest.id == wish.id))
            return True

    def refused(self, name: str) -> list[str]:
        """The addresses the GM refuses in the game, sorted (for the GM alone)."""
        with self.store.plain() as s:
            game = self.store.peek(s, name)
            return sorted(s.scalars(select(RefusedAddress.address).where(RefusedAddress.game_id == game.id)).all())
