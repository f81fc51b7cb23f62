"""What the players say to each other and agree on: press, draw votes and concessions, as the game's house rules
(`judge.game.house_rules`) allow them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.engine.phase import PhaseType
from judge.engine.supply import surviving_powers
from judge.game.adjudication import release_press
from judge.game.errors import GameError
from judge.game.events import ConcessionMade, DrawVoted, GameEnded, HeldPressReleased, PressPosted
from judge.game.house_rules import GM_NAMES, DrawRules, HouseRuleError, PressMoment, PressRules
from judge.game.names import as_shown
from judge.game.orders_in import order_sets
from judge.game.settings import concessions_allowed, draws_allowed
from judge.game.store import position_of
from judge.game.use_case import (
    UseCase,
    audience_of,
    finish,
    press_readers,
    seat_of,
    side_named_in,
    side_of,
    sides_named,
)
from judge.store import DrawVote, Game, GameStatus, Press, SeatStatus
from judge.variants import get_variant


@dataclass(frozen=True)
class PressSent:
    """A press message as stored, who reads it (`to`), the GM's and co-GMs' addresses where they are sent a copy (none
    where not: private press between players in a game without `press.gm_reads`), and whether it is held for the next
    results. `press` carries the truth (`sender`, `recipients`) and what its readers are shown where it is fake
    (`shown_sender`, `shown_recipients`), and the sending observer's name (`observer`), for the GM's heading."""

    press: dict[str, Any]
    to: list[str]
    gms: tuple[str, ...]
    """the GM and his co-GMs where they are sent a copy; empty where not"""
    held: bool


class TableTalk(UseCase):
    def post_press(
        self,
        name: str,
        sender: str | None,
        recipients: list[str],
        body: str,
        grey: bool | None = None,
        *,
        observer: str | None = None,
        shown_as: str | None = None,
        shown_to: list[str] | None = None,
    ) -> PressSent:
        """Store a press message, as the game's house rules allow it: to powers, to everybody (`["*"]`) or to the
        GM alone (`["GM"]`); grey as the game's press type and the sender's `grey` (GREY or WHITE written, or
        None) say. `sender` is the power of the player who sends it, None for the GM or for the observer whose
        address is `observer`. Fake press (`press.fake`) is shown to its readers as from the side `shown_as`
        names and as to `shown_to` (`["*"]`: everybody); the GM is told the truth. Held for the next results
        under `press_with_results`; otherwise delivered now."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            held = bool(game.settings.get("press_with_results", False))
            everybody = recipients == ["*"]
            only_gm = bool(recipients) and all(text.lower() in GM_NAMES for text in recipients)
            rules = PressRules.of(game.settings)
            faked = shown_as is not None or shown_to is not None
            observer_name = None
            if observer is not None:
                observer = observer.strip().lower()
                if observer not in game.observers:
                    raise GameError(f"you do not observe {name}: OBSERVE {name} <password> first")
                observer_name = as_shown(self.store.player(s, observer).name)
            try:
                if faked:
                    rules.check_fake(only_gm)
                if sender is not None or observer is not None:
                    rules.check_moment(_moment(s, game, sender, self.clock.now()), only_gm, observer=sender is None)
                if observer is not None:
                    is_grey = rules.observer_grey(everybody, only_gm, grey)
                elif sender is not None:
                    rules.check(everybody, only_gm)
                    is_grey = not only_gm and rules.grey(grey)
                else:
                    is_grey = False
            except HouseRuleError as exc:
                raise GameError(str(exc)) from None
            if is_grey and shown_as is not None:
                raise GameError(
                    "grey press names no sender, so AS has none to show: send it without AS, or WHITE where the "
                    "game allows white press (press.type=both)"
                )
            named = sides_named(game, () if everybody or only_gm else tuple(recipients))
            wanted = {power for side in named for power in side.powers}  # a player reads press to any of his
            if everybody:
                wanted = {seat.power for seat in game.seats if seat.power}
            # kept and shown by the sides' names (`Press from Player 1 to Player 3`), never 7 board-nations each
            stored = ["*"] if everybody else ["MASTER"] if only_gm else sorted({side.label for side in named})
            if sender is not None:
                sender = side_of(game, sender).label
            shown_sender = side_named_in(game, shown_as.split()).label if shown_as is not None else None
            shown_recipients = None
            if shown_to is not None:
                shown_named = [] if shown_to == ["*"] else sides_named(game, shown_to)
                shown_recipients = sorted({side.label for side in shown_named}) or ["*"]
            s.add(
                Press(
                    game_id=game.id,
                    phase_index=game.phase_index,
                    sender=sender,
                    recipients=stored,
                    body=body,
                    with_results=held,
                    grey=is_grey,
                    shown_sender=shown_sender,
                    shown_recipients=shown_recipients,
                    observer=observer,
                    created_at=self.clock.now(),
                )
            )
            addresses = {seat.player.address for seat in game.seats if seat.power in wanted and seat.player}
            if everybody:
                addresses.update(game.observers)
            masters = (game.gm.address, *(game.co_gms or ()))
            addresses.difference_update(masters)
            gm_copy = everybody or only_gm or rules.gm_reads or (sender is None and observer is None)
            press = {
                "sender": sender,
                "recipients": stored,
                "body": body,
                "grey": is_grey,
                "shown_sender": shown_sender,
                "shown_recipients": shown_recipients,
                "observer": observer_name,
                "gm_copy": gm_copy,
            }
            sent = PressSent(press, sorted(addresses), masters if gm_copy else (), held)
            if not held:
                by_gm = sender is None and observer is None
                self.raise_event(s, game, PressPosted(game=name, sent=sent, by_gm=by_gm))
            return sent

    def vote_draw(self, name: str, power: str, accept: bool, among: Sequence[str] = ()) -> list[str] | None:
        """Record a draw vote, the player's for his whole side, for every power the game's draws include or
        (`among`, where `draw.dias` is off) for a draw among the players named by any name the judge prints.
        Returns the powers of the draw when every surviving power has voted for the same one and the game is
        drawn, else None."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            seat_of(game, power)
            variant = get_variant(game.variant)
            if accept and not variant.draws:
                raise GameError(f"{variant.title} has no draws: {variant.draws_instead}")
            if accept and not draws_allowed(game.settings):
                raise GameError(f"{name} allows no draws (draw.allowed=off): it ends by a victory or by its GM")
            alive = surviving_powers(position_of(game))
            side = side_of(game, power)
            if not alive & set(side.powers):
                raise GameError(f"{side.label} is eliminated: only surviving powers vote on a draw")
            named = [p for named_side in sides_named(game, tuple(among)) for p in named_side.powers]
            if named:  # a side's eliminated powers are not in its draw
                named = [p for p in named if p in alive] or named
            everyone = {seat.power for seat in game.seats if seat.power}
            try:
                draw = DrawRules.of(game.settings).among(named, set(alive), everyone) if accept else None
            except HouseRuleError as exc:
                raise GameError(str(exc)) from None
            for voter in side.powers:  # one player, one vote: cast for every power of his side
                vote = s.scalar(select(DrawVote).where(DrawVote.game_id == game.id, DrawVote.power == voter))
                if vote is None:
                    vote = DrawVote(game_id=game.id, power=voter, accept=accept, updated_at=self.clock.now())
                    s.add(vote)
                vote.accept = accept
                vote.powers = sorted(draw) if draw is not None and named else None  # None: whoever it includes
                vote.updated_at = self.clock.now()
            s.flush()
            self.raise_event(s, game, DrawVoted(game=name, power=power, accept=accept, among=tuple(named)))
            rules = DrawRules.of(game.settings)
            share = rules.among(None, set(alive), everyone)  # a vote without names is for this, counted now
            votes = {
                v.power: frozenset(v.powers) if v.powers else share
                for v in s.scalars(select(DrawVote).where(DrawVote.game_id == game.id, DrawVote.accept.is_(True)))
            }
            agreed = DrawRules.agreed(votes, alive - _unplayed(game))
            if agreed:
                self._end(s, game, "draw", sorted(agreed))
                return sorted(agreed)
            return None

    def concede(self, name: str, power: str, to_power: str | None) -> bool:
        """The player of `power` concedes the game to the player of `to_power`, for his whole side (None withdraws
        his concession); when every other surviving power has conceded to that side, it wins."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            seat_of(game, power)
            alive = surviving_powers(position_of(game))
            side = side_of(game, power)
            if not alive & set(side.powers):
                raise GameError(f"{side.label} is eliminated: only surviving powers concede")
            if to_power is not None and not concessions_allowed(game.settings):
                raise GameError(f"{name} allows no concessions (concede.allowed=off): it ends by a victory or a draw")
            concessions = dict(game.concessions)
            winner = side_of(game, to_power) if to_power is not None else None
            if winner is not None:
                if not alive & set(winner.powers):
                    raise GameError(f"{winner.label} is not a surviving power of {name}")
                if winner == side:
                    raise GameError(f"{side.label} concedes to another player, not to itself")
            if winner is not None:  # kept as the side's first power, whichever of its powers was named
                to_power = winner.powers[0]
            for own in side.powers:  # one player, one concession: for every power of his side
                if to_power is None:
                    concessions.pop(own, None)
                else:
                    concessions[own] = to_power
            game.concessions = concessions
            self.raise_event(s, game, ConcessionMade(game=name, power=power, to=to_power))
            if to_power is None:
                return False
            assert winner is not None
            others = alive - set(winner.powers) - _unplayed(game)
            if all(concessions.get(p) == to_power for p in others):
                self._end(s, game, "concession", list(winner.powers), how="conceded")
                return True
            return False

    def _end(self, s: Session, game: Game, result: str, winners: list[str], how: str | None = None) -> None:
        """The players ended the game: held press delivered, everyone told."""
        finish(game, result, winners, self.clock.now())
        release_held_press(self, s, game)
        event = GameEnded(
            game=game.name,
            how=how or result,
            winners=tuple(winners),
            position=game.position,
            audience=audience_of(game),
            options=dict(game.options or {}),
        )
        self.raise_event(s, game, event)


def release_held_press(use_case: UseCase, s: Session, game: Game) -> None:
    """Press still held for results when the game ends without one (a draw, a concession, TERMINATE): each
    message to the addresses it would have gone to with the next results."""
    released = []
    for press in release_press(s, game):
        everyone = press["recipients"] == ["*"]
        powers = press_readers(game, press["recipients"])
        addresses = {seat.player.address for seat in game.seats if seat.player and (everyone or seat.power in powers)}
        if everyone:
            addresses.update(game.observers)
        masters = (game.gm.address, *(game.co_gms or ()))
        addresses.difference_update(masters)
        released.append(PressSent(press, sorted(addresses), masters if press["gm_copy"] else (), True))
    if released:
        use_case.raise_event(s, game, HeldPressReleased(game=game.name, messages=tuple(released)))


def _moment(s: Session, game: Game, sender: str | None, now: datetime) -> PressMoment:
    """Where the game stands for the press rules: the phase's kind, the deadline passed or not, the sender's
    orders in (all his side owes, without errors: njudge's complete orders) and anyone's still missing."""
    if game.status != GameStatus.ACTIVE or game.position is None:
        return PressMoment()
    due, sets = order_sets(s, game)
    played = {seat.power for seat in game.seats if seat.power and seat.player_id is not None}
    missing = {power for power in due if power in played and (power not in sets or sets[power])}
    owed = set(side_of(game, sender).powers) & due if sender is not None else set()
    return PressMoment(
        minor_phase=str(game.position["phase"]["type"]) in (PhaseType.RETREAT.value, PhaseType.ADJUSTMENT.value),
        past_deadline=game.deadline is not None and as_utc(now) > as_utc(game.deadline),
        sender_ordered=not owed & missing and all(power in sets and not sets[power] for power in owed),
        anyone_late=bool(missing),
    )


def _unplayed(game: Game) -> set[str]:
    """Powers in civil disorder (START CD): nobody plays them, so they neither vote on draws nor concede."""
    return {seat.power for seat in game.seats if seat.power and seat.status == SeatStatus.CIVIL_DISORDER}
