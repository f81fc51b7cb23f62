"""The one place that turns what happened to a game (`judge.game.events`) into the mail the judge sends of its own
accord: the game-start mail, results, announcements, press, reminders and late notices, the end of a game.

Commands and the deadline keeper never compose mail: a use case raises events, and whoever ran it (the mail
processor for a mail, the keeper for a deadline) hands them here and queues what comes back in the same
transaction as the change. An event with no mail (a draw vote) gives none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.engine import PhaseType
from judge.game.events import (
    Audience,
    DeadlineMoved,
    GameEnded,
    GameEvent,
    GamePaused,
    GameResumed,
    GameRolledBack,
    GameStarted,
    HeldPressReleased,
    OrdersFromAnotherAddress,
    OrdersLate,
    PhaseDue,
    PhaseProcessed,
    PlayerEjected,
    PlayerReplaced,
    PlayerResigned,
    PressPosted,
    Reminder,
    WaitingForReplacements,
)
from judge.game.house_rules import press_heading
from judge.mail.admin_events import AdminEvent, GameWorkFailed, MailUndeliverable, MessageShunted
from judge.mail.announce import game_over_mail, readers_mail, results_copies
from judge.mail.compose import notice
from judge.mail.outbox import outbound_row
from judge.render import render
from judge.render.dates import deadline_text, resumed_text, span_text, when_text
from judge.render.position import position_lines
from judge.variants import get_variant

VOTES_AFTER_ROLLBACK = (
    "Draw votes cast before that phase was processed still stand; those cast since are withdrawn "
    "(vote again if you still wish a draw)."
)
"""What becomes of the draw votes, as everyone is told after a ROLLBACK: the rule, never whose votes (they are
secret; the GM's reply names them), and said whether or not anyone had voted, so that saying it tells nothing."""


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
            PressPosted: self._press,
            HeldPressReleased: self._held_press,
            GameEnded: self._ended,
            OrdersFromAnotherAddress: self._from_elsewhere,
            Reminder: self._reminder,
            OrdersLate: self._late,
            PhaseDue: self._due,
            WaitingForReplacements: self._waiting,
        }

    def mails(self, events: Iterable[GameEvent | AdminEvent]) -> list[Outgoing]:
        """Every mail the events call for, in the order they happened."""
        out: list[Outgoing] = []
        for event in events:
            make = self._by_kind.get(type(event))
            if make is not None:
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

    def _announce(self, audience: Audience, game: str, subject: str, text: str) -> list[Outgoing]:
        """Tell everyone in the game (its players, the GM, its observers)."""
        return [self._notice(address, f"{game}: {subject}", text) for address in audience.everyone()]

    # --- the game's life -------------------------------------------------------------------------------------

    def _started(self, event: GameStarted) -> list[Outgoing]:
        """The game-start mail: the players and their powers, the variant and its options, the first phase and
        its deadline, and how to place units where the game opens with a placement."""
        variant = get_variant(event.variant)
        phase = variant.first_phase()
        placing = variant.opening_help
        if phase.type is not PhaseType.MOVEMENT and not placing:
            placing = (
                f"The game opens with {variant.phase_name(phase)}: each power places its units on its home centres, "
                "one order a unit (Build A Par, Build F StP/nc), as the variant's rules allow."
            )
        out = []
        for address in event.audience.everyone():
            side = event.side_of(address)  # each player is told what he plays (his powers: his alone)
            text = render(
                "start.txt.j2",
                event.variant,
                judge=self.config.judge_code,
                game=event.game,
                title=variant.title,
                options=", ".join(f"{k}={v}" for k, v in sorted(event.options.items())),
                players=[(seat.power, seat.player) for seat in event.seats],
                you_play=side.described if side else None,
                sign_on=side.name if side else None,
                first=variant.phase_name(phase),
                deadline=deadline_text(event.deadline) if event.deadline else None,
                due=when_text(event.deadline) if event.deadline else None,
                placing=placing,
                code=phase.code,
                deadline_code=phase.code if event.deadline else None,
                variant=event.variant,
            )
            out.append(self._notice(address, f"{event.game} has started", text))
        return out

    def _results(self, event: PhaseProcessed) -> list[Outgoing]:
        copies = results_copies(self.config, event.audience.with_gm(), event.processed, list(event.audience.observers))
        return [Outgoing(copy.message, "result", copy.raw, copy.recipients) for copy in copies]

    def _ended(self, event: GameEnded) -> list[Outgoing]:
        """One message for everyone in the game (they all read the same text), as a results sheet is."""
        readers = event.audience.everyone()
        if not event.started or event.position is None:
            text = f"{event.game} was terminated by its GM before it started."
            mail = readers_mail(self.config, readers, event.game, f"{event.game}: terminated", text)
            return [Outgoing(mail.message, "notice", mail.raw, mail.recipients)]
        mail = game_over_mail(
            self.config, readers, event.game, event.position, event.how, list(event.winners), event.options
        )
        return [Outgoing(mail.message, "result", mail.raw, mail.recipients)]

    # --- the GM's controls -------------------------------------------------------------------------------------

    def _deadline(self, event: DeadlineMoved) -> list[Outgoing]:
        zone = event.zone
        if event.why == "absence":
            when = when_text(event.deadline, zone) if event.deadline else "no deadline"
            text = f"The deadline is extended to {when} for a player's absence."
            return self._announce(event.audience, event.game, "deadline extended", text)
        if event.deadline is None:
            text = "The GM has removed the deadline: the phase waits for the GM's PROCESS."
            return self._announce(event.audience, event.game, "no deadline", text)
        text = f"The GM has set the deadline to {when_text(event.deadline, zone)}."
        return self._announce(event.audience, event.game, "new deadline", text)

    def _paused(self, event: GamePaused) -> list[Outgoing]:
        deadline = (
            f" The deadline ({when_text(event.deadline, event.zone)}) stops with the clock: when the game is "
            "resumed it is moved on by the time paused, unless the GM sets another."
            if event.deadline
            else ""
        )
        text = f"The GM has paused {event.game}: no phase is processed until it is resumed.{deadline}"
        return self._announce(event.audience, event.game, "paused", text)

    def _resumed(self, event: GameResumed) -> list[Outgoing]:
        return self._announce(
            event.audience,
            event.game,
            "resumed",
            f"The GM has resumed {event.game}. {resumed_text(event.deadline, event.extended_by, event.zone)}",
        )

    def _rolled_back(self, event: GameRolledBack) -> list[Outgoing]:
        when = when_text(event.deadline, event.zone) if event.deadline else "the GM's PROCESS"
        orders = (
            "the orders sent for it are kept"
            if event.orders_kept
            else "the orders sent for it are cleared: send them again"
        )
        text = (
            f"The GM has rolled {event.game} back to {event.phase}; {orders}. "
            f"It will be processed at its deadline, {when}, or when the GM processes it. {VOTES_AFTER_ROLLBACK}"
        )
        return self._announce(event.audience, event.game, f"rolled back to {event.phase}", text)

    def _ejected(self, event: PlayerEjected) -> list[Outgoing]:
        text = f"The GM has removed the player of {event.side}; it waits for a replacement."
        out = self._announce(event.audience, event.game, f"{event.side} ejected", text)
        if event.address is not None:
            told = (
                f"The GM of {event.game} has removed you from the game: you no longer play {event.side}, and the "
                "game's mail will not reach you. Write to the GM if you think this a mistake."
            )
            out.append(self._notice(event.address, f"{event.game}: you no longer play {event.side}", told))
        return out

    def _resigned(self, event: PlayerResigned) -> list[Outgoing]:
        text = (
            f"The player of {event.side} has resigned from {event.game}. "
            f"REPLACE {event.sign_on} address to fill the seat."
        )
        return [self._notice(event.audience.gm, f"{event.game}: {event.side} resigned", text)]

    def _replaced(self, event: PlayerReplaced) -> list[Outgoing]:
        """The new player is told the game, what he plays, its phase, deadline and position, and how to sign on;
        the player he replaces that he no longer plays it, and who does; everyone else in the game once that the
        side has a new player, by name (never an address)."""
        lines = [f"The GM of {event.game} has given you {event.side}: you play {event.plays} from now on.", ""]
        if event.position is not None:
            lines += [*position_lines(event.variant, event.position, event.deadline), ""]
        lines.append(
            f"Sign on with SIGNON {event.game} {event.sign_on} <your password> and send your orders; "
            f"LIST {event.game} shows the game again, HISTORY {event.game} its last results."
        )
        told = self._notice(event.address, f"{event.game}: you play {event.side}", "\n".join(lines))
        out = [told]
        if event.replaced is not None and event.replaced != event.address:
            text = (
                f"The GM of {event.game} has replaced you: {event.player} plays {event.side} from now on. You can "
                "no longer sign on, order or write press in the game, and its mail will not reach you. Write to "
                "the GM if you think this a mistake."
            )
            out.append(self._notice(event.replaced, f"{event.game}: you no longer play {event.side}", text))
        others = [a for a in event.audience.everyone() if a not in (event.address, event.replaced)]
        text = f"{event.side} has a new player, chosen by the GM: {event.player}."
        return [*out, *(self._notice(a, f"{event.game}: {event.side} replaced", text) for a in others)]

    # --- press -------------------------------------------------------------------------------------------------

    def _press(self, event: PressPosted) -> list[Outgoing]:
        sent = event.sent
        sender = sent.press["sender"]
        subject = f"{event.game}: press" + (f" from {sender}" if sender and not sent.press["grey"] else "")
        out = []
        for address, for_gm in [*((a, False) for a in sent.to), (sent.gm, True)]:
            if for_gm and event.by_gm:
                continue  # the GM wrote it
            heading = press_heading(sent.press, for_gm)
            out.append(self._notice(address, subject, f"{heading}\n\n{sent.press['body']}", "press"))
        return out

    def _held_press(self, event: HeldPressReleased) -> list[Outgoing]:
        out = []
        for sent in event.messages:
            for address, for_gm in [*((a, False) for a in sent.to), (sent.gm, True)]:
                heading = press_heading(sent.press, for_gm)
                text = f"{heading}\n(held for the results, released as {event.game} ends)\n\n{sent.press['body']}"
                out.append(self._notice(address, f"{event.game}: press released", text, "press"))
        return out

    # --- orders ------------------------------------------------------------------------------------------------

    def _from_elsewhere(self, event: OrdersFromAnotherAddress) -> list[Outgoing]:
        text = "\n".join(
            [
                f"Orders for {event.power} in {event.game}, {event.phase}, were sent from {event.sender}",
                "with your password, and now replace any you sent before:",
                "",
                *event.report,
                "",
                "If you did not send them, change your password (SET PASSWORD) and tell the GM.",
            ]
        )
        subject = f"{event.game}: orders for {event.power} sent from another address"
        return [self._notice(event.owner, subject, text)]

    # --- deadlines -----------------------------------------------------------------------------------------------

    def _deadline_words(self, event: Reminder | OrdersLate) -> dict[str, Any]:
        """What the deadline templates print of the event's moments, each in the one form of a moment
        (`judge.render.dates`) in the game's zone; the header's `:: Deadline:` line in njudge's form."""
        moments = event.deadline
        grace = moments.grace_end - moments.deadline
        return {
            "judge": self.config.judge_code,
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
        text = render("reminder.txt.j2", event.deadline.variant, **self._deadline_words(event), power=event.power,
                      signon=event.signon or event.power, missing=event.missing, owing=event.owing,
                      with_errors=event.with_errors)  # fmt: skip
        return [self._notice(event.address, f"{event.game}: reminder, {event.phase}", text)]

    def _late(self, event: OrdersLate) -> list[Outgoing]:
        out = []
        words = self._deadline_words(event)
        for side, address in event.addresses.items():
            text = render("late.txt.j2", event.deadline.variant, **words, power=side, owing=event.owing.get(side, ()))
            out.append(self._notice(address, f"{event.game}: late, {event.phase}", text))
        text = render("late_powers.txt.j2", event.deadline.variant, missing=event.missing, faulty=event.faulty)
        out.append(self._notice(event.audience.gm, f"{event.game}: late powers, {event.phase}", text))
        return out

    def _due(self, event: PhaseDue) -> list[Outgoing]:
        text = render("phase_due.txt.j2", None, phase=event.phase)
        return [self._notice(event.audience.gm, f"{event.game}: {event.phase} is due", text)]

    def _waiting(self, event: WaitingForReplacements) -> list[Outgoing]:
        text = render("waiting.txt.j2", None, phase=event.phase, powers=event.powers)
        return [self._notice(event.audience.gm, f"{event.game}: waiting for replacements", text)]

    # --- the admin ----------------------------------------------------------------------------------------------

    def _shunted(self, event: MessageShunted) -> list[Outgoing]:
        text = (
            f"Message {event.message_id} (Message-ID {event.header_id}) could not be processed after "
            f"{event.attempts} attempts and was shunted:\n\n{event.error}\n\n"
            f"judge shunt show {event.message_id}   /   judge shunt retry {event.message_id}"
        )
        return [self._notice(self.config.admin, f"shunted message {event.message_id}", text)]

    def _undeliverable(self, event: MailUndeliverable) -> list[Outgoing]:
        text = (
            f"The judge gave up outbound mail {event.row_id} ({event.kind}) to {', '.join(event.recipients)}: "
            f"{event.error}\n\n`judge outbox show {event.row_id}` shows it; `judge outbox retry {event.row_id}` "
            "queues it again."
        )
        return [self._notice(self.config.admin, f"undeliverable mail {event.row_id}", text, "undeliverable")]

    def _work_failed(self, event: GameWorkFailed) -> list[Outgoing]:
        admin = (
            f"The judge could not do the work due for {event.game} ({event.phase}): {event.error}\n\n"
            "Nothing was changed: the game waits, and the judge tries again every minute (the log has the whole "
            f"trace). Its GM, {event.gm}, was told the game is held up."
        )
        gm = (
            f"The judge could not process {event.game} ({event.phase}): it met an error of its own, and its admin "
            "has been told. Nothing was changed and nothing sent is lost: the orders on file stay on file, and the "
            "phase is processed as soon as the judge is mended (it tries again every minute)."
        )
        return [
            self._notice(self.config.admin, f"{event.game}: the work due failed", admin),
            self._notice(event.gm, f"{event.game}: {event.phase} is held up", gm),
        ]
