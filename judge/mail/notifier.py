"""The one place that turns what happened to a game (`judge.game.events`) into the mail the judge sends of its own
accord: the game-start mail, results, announcements, press, reminders and late notices, the end of a game.

Commands and the deadline keeper never compose mail: a use case raises events, and whoever ran it (the mail
processor for a mail, the keeper for a deadline) hands them here and queues what comes back in the same
transaction as the change. An event with no mail (a draw vote) gives none, by a handler that says so.

Every notice's words, subject and text, are a template's (`templates/notices/<name>.txt.j2`, through
`judge.mail.compose.words`), the game's variant's own where it has one (`templates/<variant>/notices/...`): this
module chooses the template, the readers and the values, and writes no words itself.

An event kind with no handler is a mistake in the judge, never a notice to lose: `mails` logs it, counts it
(`Notifier.unhandled`) and raises `UnhandledEvent`, which undoes the transaction that raised it (the mail is tried
again and in the end shunted, the deadline's work is tried again and the admin told), and
`tests/test_notices.py` fails for any event class the game layer defines without a handler.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.engine import PhaseType
from judge.engine.phase import Phase
from judge.game.deadline_events import LaterOrdersFiled, OrdersLate, PhaseDue, Reminder, WaitingForReplacements
from judge.game.events import (
    Audience,
    ConcessionMade,
    DeadlineMoved,
    DrawVoted,
    EndingRulesChanged,
    GameEnded,
    GameEvent,
    GamePaused,
    GameResumed,
    GameRolledBack,
    GameStarted,
    GameUnstarted,
    GameUnterminated,
    HeldPressReleased,
    OrdersFromAnotherAddress,
    PhaseProcessed,
    PressPosted,
    PressRulesChanged,
    StatementFiled,
    StatementsPublished,
)
from judge.game.seat_events import (
    CoGmNamed,
    GmHandedOver,
    JoinAnswered,
    JoinAsked,
    PlayerEjected,
    PlayerReplaced,
    PlayerResigned,
    PlayersRevealed,
)
from judge.game.year_end import CENTRES
from judge.mail.admin_events import AdminEvent, GameWorkFailed, MailUndeliverable, MessageShunted
from judge.mail.announce import game_over_mail, readers_mail, results_copies
from judge.mail.compose import notice, press_heading, words
from judge.mail.outbox import outbound_row
from judge.render.dates import deadline_text, resumed_text, span_text, when_text
from judge.render.njudge import starting_position
from judge.render.njudge_names import capitalised
from judge.render.orders import orders_report
from judge.render.position import position_lines
from judge.variants import get_variant

log = logging.getLogger(__name__)


class UnhandledEvent(LookupError):
    """An event the notifier has no handler for: a mistake in the judge, raised so that no notice is lost."""


@dataclass(frozen=True)
class Outgoing:
    """One mail to send: the message, its kind in the outbound queue, and its bytes where already made."""

    message: EmailMessage
    kind: str
    raw: bytes | None = None
    recipients: tuple[str, ...] | None = None
    """the envelope's recipients where the headers do not name them (a results mail to several people)"""


class Notifier:
    def __init__(self, config: Config) -> None:
        self.config = config
        self.unhandled: Counter[str] = Counter()
        """the events met without a handler, by class name (each also logged and raised: `UnhandledEvent`)"""
        self._by_kind: dict[type[GameEvent | AdminEvent], Callable[[Any], list[Outgoing]]] = {
            MessageShunted: self._shunted,
            MailUndeliverable: self._undeliverable,
            GameWorkFailed: self._work_failed,
            GameStarted: self._started,
            PhaseProcessed: self._results,
            DeadlineMoved: self._deadline,
            GamePaused: self._paused,
            GameResumed: self._resumed,
            GameRolledBack: self._rolled_back,
            PlayerEjected: self._ejected,
            PlayerResigned: self._resigned,
            PlayerReplaced: self._replaced,
            PlayersRevealed: self._revealed,
            PressPosted: self._press,
            HeldPressReleased: self._held_press,
            DrawVoted: self._no_mail,
            ConcessionMade: self._no_mail,
            GameEnded: self._ended,
            OrdersFromAnotherAddress: self._from_elsewhere,
            LaterOrdersFiled: self._later_orders,
            Reminder: self._reminder,
            OrdersLate: self._late,
            PhaseDue: self._due,
            WaitingForReplacements: self._waiting,
            JoinAsked: self._join_asked,
            JoinAnswered: self._join_answered,
            CoGmNamed: self._co_gm,
            GmHandedOver: self._handed_over,
            PressRulesChanged: self._press_rules,
            EndingRulesChanged: self._ending_rules,
            GameUnstarted: self._unstarted,
            GameUnterminated: self._unterminated,
            StatementFiled: self._statement,
            StatementsPublished: self._statements,
        }

    def handles(self, kind: type) -> bool:
        """Whether events of this class are turned into mail (or, by a handler that says so, into none)."""
        return kind in self._by_kind

    def mails(self, events: Iterable[GameEvent | AdminEvent]) -> list[Outgoing]:
        """Every mail the events call for, in the order they happened. An event with no handler is logged, counted
        and raised (`UnhandledEvent`): the caller's transaction is undone rather than a notice lost."""
        out: list[Outgoing] = []
        for event in events:
            make = self._by_kind.get(type(event))
            if make is None:
                name = type(event).__name__
                self.unhandled[name] += 1
                log.error("the notifier has no handler for %s events (%d met): %r", name, self.unhandled[name], event)
                raise UnhandledEvent(f"the notifier has no handler for {name} events")
            out.extend(make(event))
        return out

    def rows(
        self, events: Iterable[GameEvent | AdminEvent], *, now: datetime, game_id: int | None = None
    ) -> list[dict[str, Any]]:
        """The mails as rows of the outbound queue."""
        return [
            outbound_row(
                mail.message,
                kind=mail.kind,
                now=now,
                game_id=game_id,
                raw=mail.raw,
                recipients=None if mail.recipients is None else list(mail.recipients),
            )
            for mail in self.mails(events)
        ]

    # --- helpers -------------------------------------------------------------------------------------------

    def _notice(self, to: str, subject: str, text: str, kind: str = "notice") -> Outgoing:
        return Outgoing(notice(self.config, to, subject, text), kind)

    def _told(self, to: str, name: str, variant: str | None, queue: str = "notice", /, **values: Any) -> Outgoing:
        """One notice to one reader, in the words of its template (the variant's own where it has one); `queue`:
        its kind in the outbound queue."""
        said = words(name, variant, judge=self.config.judge_code, **values)
        return self._notice(to, said.subject, said.text, queue)

    def _announce(self, event: GameEvent, audience: Audience, name: str, **values: Any) -> list[Outgoing]:
        """Tell everyone in the game (its players, the GM, its observers) the same notice."""
        said = words(name, event.variant, judge=self.config.judge_code, game=event.game, **values)
        return [self._notice(address, said.subject, said.text) for address in audience.everyone()]

    def _no_mail(self, event: GameEvent) -> list[Outgoing]:
        """An event nobody is mailed about when it happens (a draw vote, a concession: secret until the game ends,
        which `GameEnded` tells)."""
        return []

    # --- the game's life -------------------------------------------------------------------------------------

    def _started(self, event: GameStarted) -> list[Outgoing]:
        """The game-start mail: the players and their powers, the variant and its options, the first phase and
        its deadline, and how to place units where the game opens with a placement."""
        variant = get_variant(event.variant)
        phase = Phase.parse(*event.opening) if event.opening else variant.first_phase()
        out = []
        for address in event.audience.everyone():
            side = event.side_of(address)  # each player is told what he plays (his powers: his alone)
            if event.layout == "njudge":
                out.append(self._started_njudge(event, address, side.powers if side else ()))
                continue
            out.append(
                self._told(
                    address,
                    "game_started",
                    event.variant,
                    game=event.game,
                    title=variant.title,
                    options=", ".join(f"{k}={v}" for k, v in sorted(event.options.items())),
                    players=event.seats,
                    you_play=side.described if side else None,
                    sign_on=side.name if side else None,
                    first=variant.phase_name(phase),
                    deadline=deadline_text(event.deadline) if event.deadline else None,
                    due=when_text(event.deadline) if event.deadline else None,
                    placing=variant.opening_help,
                    opens_with_movement=phase.type is PhaseType.MOVEMENT,
                    code=phase.njudge_code,
                    deadline_code=phase.njudge_code if event.deadline else None,
                    variant=event.variant,
                    gm_reads_press=event.gm_reads_press,
                )
            )
        return out

    def _started_njudge(self, event: GameStarted, address: str, powers: tuple[str, ...]) -> Outgoing:
        """The game-start mail in njudge's layout (`results.layout=njudge`; `ml_signon.c`): `You have been
        selected as ...`, the players, the starting position as njudge's `data/report` gives it, the first
        deadline. The players are named as the judge's own start mail names them, never by address."""
        phase = Phase.parse(*event.opening) if event.opening else get_variant(event.variant).first_phase()
        master = address in event.audience.masters()
        return self._told(
            address,
            "game_started",
            "njudge",
            game=event.game,
            game_title=capitalised(event.game),
            variant_title=capitalised(event.variant),
            code=phase.njudge_code,
            deadline=deadline_text(event.deadline) if event.deadline else "Thu Jan 01 1970 00:00:00 +0000",
            selected=list(powers) or (["Master"] if master else ["Observer"]),
            players=[(seat.power, seat.player) for seat in event.seats],
            start=starting_position(event.variant, phase, event.units),
        )

    def _results(self, event: PhaseProcessed) -> list[Outgoing]:
        copies = results_copies(
            self.config,
            event.audience.with_gm(),
            event.processed,
            list(event.audience.observers),
            co_gms=event.audience.co_gms,
        )
        sent = [Outgoing(copy.message, "result", copy.raw, copy.recipients) for copy in copies]
        processed = event.processed
        if processed.finished == CENTRES:  # the end year ended it: the game-over mail too, with the last centres
            mail = game_over_mail(
                self.config,
                event.audience.everyone(),
                processed.game,
                processed.outcome,
                CENTRES,
                processed.winners,
                processed.options,
                end_year=processed.end_year,
            )
            sent.append(Outgoing(mail.message, "result", mail.raw, mail.recipients))
        return sent

    def _ended(self, event: GameEnded) -> list[Outgoing]:
        """One message for everyone in the game (they all read the same text), as a results sheet is."""
        readers = event.audience.everyone()
        if not event.started or event.position is None:
            return [self._one_for_all(event, readers, "game_terminated", "notice")]
        mail = game_over_mail(self.config, readers, event.game, event.position, event.how, list(event.winners),
                              event.options, statements=event.statements)  # fmt: skip
        return [Outgoing(mail.message, "result", mail.raw, mail.recipients)]

    # --- the end taken back, the players' statements (issue 44 item 5) ------------------------------------------

    def _unstarted(self, event: GameUnstarted) -> list[Outgoing]:
        return self._announce(event, event.audience, "game_unstarted", players=event.players)

    def _unterminated(self, event: GameUnterminated) -> list[Outgoing]:
        when = when_text(event.deadline, event.zone) if event.deadline else None
        extended = span_text(event.extended_by) if event.extended_by else None
        return self._announce(event, event.audience, "game_unterminated", status=event.status, when=when,
                              extended_by=extended, revealed=event.revealed)  # fmt: skip

    def _statement(self, event: StatementFiled) -> list[Outgoing]:
        """A statement filed after the end: one message for everyone in the game, as the game-over mail was."""
        return [self._one_for_all(event, event.audience.everyone(), "statement_filed", "notice",
                                  statements=[event.statement], changed=event.changed)]  # fmt: skip

    def _statements(self, event: StatementsPublished) -> list[Outgoing]:
        """The statements filed before a victory, after its results: one message for everyone in the game."""
        return [self._one_for_all(event, event.audience.everyone(), "statements_published", "result",
                                  statements=list(event.statements))]  # fmt: skip

    def _one_for_all(self, event: GameEvent, readers: list[str], name: str, kind: str, **values: Any) -> Outgoing:
        """One message, addressed to the game, for every reader of the same words (`readers_mail`): a results
        sheet's way, where `_announce` writes one a reader."""
        said = words(name, event.variant, judge=self.config.judge_code, game=event.game, **values)
        mail = readers_mail(self.config, readers, event.game, said.subject, said.text)
        return Outgoing(mail.message, kind, mail.raw, mail.recipients)

    # --- the GM's controls -------------------------------------------------------------------------------------

    def _deadline(self, event: DeadlineMoved) -> list[Outgoing]:
        when = when_text(event.deadline, event.zone) if event.deadline else None
        return self._announce(event, event.audience, "deadline_moved", why=event.why, when=when)

    def _paused(self, event: GamePaused) -> list[Outgoing]:
        when = when_text(event.deadline, event.zone) if event.deadline else None
        return self._announce(event, event.audience, "game_paused", when=when)

    def _resumed(self, event: GameResumed) -> list[Outgoing]:
        deadline = resumed_text(event.deadline, event.extended_by, event.zone)
        return self._announce(event, event.audience, "game_resumed", deadline=deadline)

    def _rolled_back(self, event: GameRolledBack) -> list[Outgoing]:
        when = when_text(event.deadline, event.zone) if event.deadline else None
        return self._announce(
            event, event.audience, "game_rolled_back", phase=event.phase, orders_kept=event.orders_kept, when=when
        )

    def _ejected(self, event: PlayerEjected) -> list[Outgoing]:
        out = self._announce(event, event.audience, "player_ejected", side=event.side)
        if event.address is not None:
            out.append(self._told(event.address, "player_ejected_you", event.variant, game=event.game, side=event.side))
        return out

    def _resigned(self, event: PlayerResigned) -> list[Outgoing]:
        values = {"game": event.game, "side": event.side, "sign_on": event.sign_on}
        return [self._told(gm, "player_resigned", event.variant, **values) for gm in event.audience.masters()]

    def _replaced(self, event: PlayerReplaced) -> list[Outgoing]:
        """The new player is told the game, what he plays, its phase, deadline and position, and how to sign on;
        the player he replaces that he no longer plays it, and who does; everyone else in the game once that the
        side has a new player, by name (never an address)."""
        values: dict[str, Any] = {"game": event.game, "side": event.side, "player": event.told_as}
        values["volunteered"] = event.volunteered
        position = None if event.position is None else position_lines(event.variant, event.position, event.deadline)
        out = [
            self._told(
                event.address,
                "player_replaced_you",
                event.variant,
                plays=event.plays,
                sign_on=event.sign_on,
                position=position,
                owes=event.owes,
                **values,
            )
        ]
        if event.replaced is not None and event.replaced != event.address:
            out.append(self._told(event.replaced, "player_replaced_old", event.variant, **values))
        others = [a for a in event.audience.everyone() if a not in (event.address, event.replaced)]
        said = words("player_replaced", event.variant, judge=self.config.judge_code, **values)
        return [*out, *(self._notice(a, said.subject, said.text) for a in others)]

    # --- joining (judge.game.openings) ---------------------------------------------------------------------------

    def _join_asked(self, event: JoinAsked) -> list[Outgoing]:
        """The GM is asked to let a player in (`join.approval`): who, his address, and for what."""
        values = {"game": event.game, "player": event.player, "address": event.address, "side": event.side}
        return [self._told(event.gm, "join_asked", event.variant, preferences=event.preferences, **values)]

    def _join_answered(self, event: JoinAnswered) -> list[Outgoing]:
        """The player is told the GM's answer, no more."""
        values = {"game": event.game, "approved": event.approved, "side": event.side}
        return [self._told(event.address, "join_answered", event.variant, **values)]

    # --- who runs the game -------------------------------------------------------------------------------------

    def _co_gm(self, event: CoGmNamed) -> list[Outgoing]:
        """The co-GM named (or no longer) and the GM, each told in words for him."""
        values = {"game": event.game, "co_gm": event.co_gm, "gm": event.gm, "named": event.named}
        return [
            self._told(event.address, "co_gm_named", event.variant, you=True, **values),
            self._told(event.gm_address, "co_gm_named", event.variant, you=False, **values),
        ]

    def _handed_over(self, event: GmHandedOver) -> list[Outgoing]:
        """The new GM told how to sign on, the old GM that the game is no longer his, everyone else who the GM is
        now (by name)."""
        values = {"game": event.game, "new": event.new, "old": event.old}
        out = [
            self._told(event.new_address, "gm_handed_over", event.variant, reader="new", **values),
            self._told(event.old_address, "gm_handed_over", event.variant, reader="old", **values),
        ]
        others = [a for a in event.audience.everyone() if a not in (event.new_address, event.old_address)]
        return out + [self._told(a, "gm_handed_over", event.variant, reader="player", **values) for a in others]

    def _revealed(self, event: PlayersRevealed) -> list[Outgoing]:
        """A gunboat game's players named to everyone in it: by the GM's REVEAL, or at its end."""
        return self._announce(event, event.audience, "players_revealed", players=event.seats, by_gm=event.by_gm)

    # --- press -------------------------------------------------------------------------------------------------

    def _press_rules(self, event: PressRulesChanged) -> list[Outgoing]:
        return self._announce(event, event.audience, "press_rules_changed", changed=list(event.changed))

    def _ending_rules(self, event: EndingRulesChanged) -> list[Outgoing]:
        return self._announce(
            event,
            event.audience,
            "ending_rules_changed",
            changed=list(event.changed),
            victory=event.victory,
            draws_dropped=event.draws_dropped,
            concessions_dropped=event.concessions_dropped,
        )

    def _press(self, event: PressPosted) -> list[Outgoing]:
        sent = event.sent
        out = []
        gm = [] if event.by_gm else [(a, True) for a in sent.gms]  # no copy to the GMs when one of them wrote it
        for address, for_gm in [*((a, False) for a in sent.to), *gm]:
            heading = press_heading(sent.press, for_gm, event.variant)
            out.append(
                self._told(
                    address,
                    "press_posted",
                    event.variant,
                    "press",
                    game=event.game,
                    sender=_sender_shown(sent.press, for_gm),
                    grey=bool(sent.press.get("grey")),
                    heading=heading,
                    body=sent.press["body"],
                )
            )
        return out

    def _held_press(self, event: HeldPressReleased) -> list[Outgoing]:
        out = []
        for sent in event.messages:
            gm = [(a, True) for a in sent.gms]
            for address, for_gm in [*((a, False) for a in sent.to), *gm]:
                heading = press_heading(sent.press, for_gm, event.variant)
                out.append(
                    self._told(
                        address,
                        "held_press_released",
                        event.variant,
                        "press",
                        game=event.game,
                        heading=heading,
                        body=sent.press["body"],
                    )
                )
        return out

    # --- orders ------------------------------------------------------------------------------------------------

    def _from_elsewhere(self, event: OrdersFromAnotherAddress) -> list[Outgoing]:
        return [
            self._told(
                event.owner,
                "orders_from_another_address",
                event.variant,
                game=event.game,
                power=event.power,
                phase=event.phase,
                sender=event.sender if event.sender_named else None,
                report=orders_report(event.submission),
            )
        ]

    def _later_orders(self, event: LaterOrdersFiled) -> list[Outgoing]:
        """The orders a player sent in advance (`PHASE`), now on file for the phase that opened, each as checked
        then; or dropped, their phase passed without coming."""
        report = orders_report(event.submission) if event.submission is not None else []
        errors = bool(event.submission is not None and event.submission.errors)
        return [self._told(event.address, "later_orders", event.variant, game=event.game, power=event.power,
                           phase=event.phase, report=report, errors=errors, came=event.came)]  # fmt: skip

    # --- deadlines -----------------------------------------------------------------------------------------------

    def _deadline_words(self, event: Reminder | OrdersLate) -> dict[str, Any]:
        """What the deadline templates print of the event's moments, each in the one form of a moment
        (`judge.render.dates`) in the game's zone; the header's `:: Deadline:` line in njudge's form."""
        moments = event.deadline
        grace = moments.grace_end - moments.deadline
        return {
            "game": event.game,
            "variant": moments.variant,
            "code": moments.code,
            "deadline_code": moments.code,
            "deadline": deadline_text(moments.deadline),
            "due": when_text(moments.deadline, moments.zone),
            "phase": event.phase,
            "grace": span_text(grace) if grace else None,
            "grace_end": when_text(moments.grace_end, moments.zone) if grace else None,
        }

    def _reminder(self, event: Reminder) -> list[Outgoing]:
        return [self._told(event.address, "reminder", event.deadline.variant, **self._deadline_words(event),
                           power=event.power, signon=event.signon or event.power, missing=event.missing,
                           owing=event.owing, with_errors=event.with_errors)]  # fmt: skip

    def _late(self, event: OrdersLate) -> list[Outgoing]:
        said = self._deadline_words(event)
        variant = event.deadline.variant
        out = [
            self._told(address, "late", variant, **said, power=side, owing=event.owing.get(side, ()))
            for side, address in event.addresses.items()
        ]
        out.extend(
            self._told(gm, "late_powers", variant, game=event.game, phase=event.phase, missing=event.missing,
                       faulty=event.faulty)
            for gm in event.audience.masters()
        )  # fmt: skip
        if event.to_all:  # `late.to=all`: the others hear who is late, as on njudge (the late have their notice)
            told = {*event.audience.masters(), *event.addresses.values()}
            out.extend(
                # one list: whether a late power's orders are missing or faulty is his and the GM's to know
                self._told(address, "late_list", variant, **said, late=sorted({*event.missing, *event.faulty}))
                for address in event.audience.everyone()
                if address not in told
            )
        return out

    def _due(self, event: PhaseDue) -> list[Outgoing]:
        return [
            self._told(gm, "phase_due", event.variant, game=event.game, phase=event.phase)
            for gm in event.audience.masters()
        ]

    def _waiting(self, event: WaitingForReplacements) -> list[Outgoing]:
        return [self._told(gm, "waiting", event.variant, game=event.game, phase=event.phase,
                           powers=event.powers) for gm in event.audience.masters()]  # fmt: skip

    # --- the admin ----------------------------------------------------------------------------------------------

    def _shunted(self, event: MessageShunted) -> list[Outgoing]:
        return [
            self._told(
                self.config.admin,
                "message_shunted",
                None,
                message_id=event.message_id,
                header_id=event.header_id,
                attempts=event.attempts,
                error=event.error,
            )
        ]

    def _undeliverable(self, event: MailUndeliverable) -> list[Outgoing]:
        return [
            self._told(
                self.config.admin,
                "mail_undeliverable",
                None,
                "undeliverable",
                row_id=event.row_id,
                kind=event.kind,
                recipients=event.recipients,
                error=event.error,
            )
        ]

    def _work_failed(self, event: GameWorkFailed) -> list[Outgoing]:
        values = {"game": event.game, "phase": event.phase, "gm": event.gm}
        return [
            self._told(self.config.admin, "game_work_failed", None, error=event.error, **values),
            self._told(event.gm, "game_work_failed_gm", None, **values),
        ]


def _sender_shown(press: dict[str, Any], for_gm: bool) -> str | None:
    """The power a press mail's subject names as its sender: the truth for the GM, what fake press shows to the
    others; none for an observer's (the heading says an observer sent it) or a grey message's (the template
    leaves a grey sender out)."""
    if press.get("observer"):
        return None
    shown = press["sender"] if for_gm else press.get("shown_sender") or press["sender"]
    return None if shown is None else str(shown)
