"""`judge demo [variant]`: a scripted game played entirely by mail, for a newcomer to watch.

Everything is real except the calendar: the daemon runs on embedded defaults in a temporary directory, every
command goes in as a mail through its SMTP intake, every answer comes out through the outbound queue into the
outbox folder, and a fake clock is moved past each deadline so that the scheduler, not the GM, processes the
phases. The players' orders are drawn (seeded) from the random-game generator the engine benchmark uses, written
in the variant's own notation; one power sends nothing for one phase, to show what a missed deadline looks like.
"""

from __future__ import annotations

import random
import smtplib
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from sqlalchemy import func, select

from judge.clock import FakeClock, as_utc
from judge.config import Config, OutboundConfig, SmtpIntakeConfig, WebConfig
from judge.contract import position_from_json
from judge.engine import PhaseType, Position, Rules
from judge.engine.order_text import render_order
from judge.engine.supply import powers_to_order
from judge.game import Games
from judge.game.timing import grace_end, timing_from_settings
from judge.render.dates import when_text
from judge.serve import Daemon
from judge.store import Game, InboundMail, MailStatus, OutboundMail, OutboundStatus
from judge.testing.random_games import phase_orders
from judge.variants import get_variant

GAME = "demo"
GM = "gm@demo.example"


@dataclass
class Demo:
    """One demo run: a daemon, its intake port, its fake clock and where to print."""

    variant: str
    phases: int
    seed: int
    say: Callable[[str], None]
    site: Path | None = None
    """where the game's web pages are written at the end (None: a new folder, kept)"""
    printed: int = 0
    """the last results mail printed"""

    def run(self) -> int:
        with tempfile.TemporaryDirectory(prefix="judge-demo-") as tmp:
            config = Config(
                address="judge@demo.example",
                name="demojudge",
                database_url=f"sqlite:///{Path(tmp) / 'judge.sqlite'}",
                smtp_intake=SmtpIntakeConfig(host="127.0.0.1", port=0),
                outbound=OutboundConfig(outbox_dir=str(Path(tmp) / "outbox")),
                web=WebConfig(enabled=False),  # the demo ends by exporting its game's pages instead
            )
            self.clock = FakeClock(datetime.now(UTC).replace(microsecond=0))
            self.daemon = Daemon(config, self.clock)
            self.daemon.start()
            try:
                assert self.daemon.intake is not None
                self.port = self.daemon.intake.port
                self.say(f"The judge is running in {tmp}; mail goes in at 127.0.0.1:{self.port} (SMTP).\n")
                return self._play()
            finally:
                self.daemon.shutdown()

    # --- the script ------------------------------------------------------------------------------------

    def _play(self) -> int:
        variant = get_variant(self.variant)
        rules = variant.rules()
        sides = variant.sides()
        groups = [side.powers for side in sides]
        players = [side.name for side in sides]  # a player joins and signs on with the side's name
        self._mail(GM, f"REGISTER The Gamesmaster gmpass\nCREATE {GAME} {self.variant} joinpw", show=True)
        for name in players:
            self._mail(_address(name), f"REGISTER {name} Player {name.lower()}pw\nJOIN {GAME} joinpw {name}")
        self.say(f"{len(players)} players registered and joined; the game started when the last one joined.\n")
        rng = random.Random(self.seed)
        silent = players[-1]
        shown_reply = False
        for played in range(self.phases):
            position = self._position(rules)
            if position is None:
                break
            index = self._phase_index()
            due = set(powers_to_order(rules, position))
            orders = phase_orders(rules, position, rng)
            for name, group in zip(players, groups, strict=True):
                if not due & set(group) or (played == 1 and name == silent):
                    continue  # one player misses one deadline
                lines = [render_order(s.order) for s in orders if s.power in group and s.power in due and s.order]
                body = f"SIGNON {GAME} {name} {name.lower()}pw\n" + "\n".join(lines)
                self._mail(_address(name), body, show=not shown_reply)
                shown_reply = True
            if played == 1:
                self.say(f"({silent} sends no orders for {variant.phase_name(position.phase)}.)\n")
            self._pass_deadline(index)
            self._print_new_results()
        self._export()
        self.say("The demo is over; the temporary directory is removed (the site's folder stays).")
        return 0

    def _export(self) -> None:
        """The game's web pages as static files, as `judge web export` writes them: the map phase by phase."""
        from judge.web.export import ExportRefused, export_site
        from judge.web.site import site_info

        out = self.site or Path(tempfile.mkdtemp(prefix="judge-demo-site-"))
        try:
            export_site(Games(self.daemon.db, self.clock), site_info(self.daemon.config), out, only=GAME)
        except ExportRefused as refused:
            self.say(f"The game's web pages are not written: {refused}.\n")
            return
        page = (out / "games" / GAME / "index.html").resolve()
        self.say(
            f"The game's web pages are written to {out}: open {page.as_uri()} in a browser to follow it phase by"
            " phase.\n"
        )

    def _position(self, rules: Rules) -> Position | None:
        view = Games(self.daemon.db, self.clock).reads.game(GAME)
        if view.status != "active" or view.position is None:
            return None
        return position_from_json(rules, view.position)

    def _pass_deadline(self, index: int) -> None:
        """Move the calendar past the deadline and its grace, unless every order came in and the phase went
        early; the scheduler does the rest."""
        self.daemon.tick()  # what the processor does after each mail; done here too, so the run is repeatable
        self._settle()
        with self.daemon.db.transaction() as s:
            game = s.scalars(select(Game).where(Game.name == GAME)).one()
            deadline = as_utc(game.deadline)
            phase_type = str(game.position["phase"]["type"]) if game.position else PhaseType.MOVEMENT.value
            current = game.phase_index
            timing = timing_from_settings(game.settings)
        if current != index:
            self.say("(Every order was in, so the judge processed the phase early.)\n")
        elif deadline is not None:
            self.clock.set(grace_end(deadline, timing, phase_type) + timedelta(minutes=1))
            self.say(f"(The clock moves on to {when_text(self.clock.now())}, past the deadline.)\n")
            self.daemon.tick()
        self._settle()

    def _phase_index(self) -> int:
        with self.daemon.db.transaction() as s:
            return int(s.scalar(select(Game.phase_index).where(Game.name == GAME)) or 0)

    def _print_new_results(self) -> None:
        """The results mails the GM received since the last call (each player got the same text)."""
        with self.daemon.db.transaction() as s:
            rows = s.scalars(
                select(OutboundMail)
                .where(OutboundMail.kind == "result", OutboundMail.id > self.printed)
                .order_by(OutboundMail.id)
            ).all()
            for row in rows:
                self.printed = row.id
                if GM in row.recipients:
                    self.say("=" * 78 + "\n" + _text(row.message) + "=" * 78 + "\n")

    # --- mail ----------------------------------------------------------------------------------------------

    def _mail(self, sender: str, body: str, show: bool = False) -> None:
        message = EmailMessage()
        message["From"] = sender
        message["To"] = "judge@demo.example"
        message["Subject"] = "demo"
        message["Message-ID"] = make_msgid(domain="demo.example")
        message.set_content(body)
        with smtplib.SMTP("127.0.0.1", self.port) as smtp:
            smtp.send_message(message)
        self._settle()
        if show:
            self.say(f"--- {sender} writes:\n{body}\n")
            with self.daemon.db.transaction() as s:
                reply = s.scalars(
                    select(OutboundMail).where(OutboundMail.kind == "reply").order_by(OutboundMail.id.desc())
                ).first()
                if reply is not None:
                    self.say(f"--- the judge answers {sender}:\n{_text(reply.message)}")

    def _settle(self, limit: float = 60.0) -> None:
        """Wait until every stored mail is processed and every queued mail written to the outbox."""
        give_up = time.monotonic() + limit
        self.daemon.processor.wakeup.set()
        while time.monotonic() < give_up:
            with self.daemon.db.transaction() as s:
                waiting_in = s.scalar(
                    select(func.count()).select_from(InboundMail).where(InboundMail.status == MailStatus.RECEIVED)
                )
                waiting_out = s.scalar(
                    select(func.count()).select_from(OutboundMail).where(OutboundMail.status == OutboundStatus.QUEUED)
                )
            if not waiting_in and not waiting_out:
                return
            self.daemon.sender.wake()
            time.sleep(0.05)
        raise TimeoutError("the judge did not settle within a minute")


def _address(name: str) -> str:
    return f"{name.lower()}@demo.example"


def _text(raw: bytes) -> str:
    """A mail as the demo prints it: its subject, its text, and the names of the pictures it carries."""
    parsed = message_from_bytes(raw, policy=policy.default)
    assert isinstance(parsed, EmailMessage)
    body = parsed.get_body(("plain",))
    content: str = body.get_content() if body is not None else ""
    pictures = [part.get_filename() or "" for part in parsed.iter_attachments()]
    carried = "".join(f"[attached: {name}]\n" for name in pictures)
    return f"Subject: {parsed['Subject']}\n\n" + content.replace("\r\n", "\n") + carried


def run_demo(variant: str = "standard", phases: int = 4, seed: int = 1, say: Callable[[str], None] = print,
             site: Path | None = None) -> int:  # fmt: skip
    return Demo(variant, phases, seed, say, site).run()
