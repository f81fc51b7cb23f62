"""`judge serve`: the whole judge in one process -- intake (SMTP/LMTP listener, IMAP poller), the processor,
the sender and the deadline keeper -- with a clean shutdown on SIGTERM.

Each part runs in its own thread and talks to the others only through the database (stored mail, the outbound
queue, the games table) and a few wake-up events, so stopping at any moment loses nothing: what was stored is
processed on the next start, what was queued is sent. When the database goes away (a restart, a failover, SQLite
locked) every part keeps the work it had in hand and waits for it with the others (`judge.store.outage`): one log
line when it goes, one when it is back, and the work done again the moment it answers.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from datetime import UTC, datetime, timedelta
from types import FrameType
from typing import TYPE_CHECKING

from apscheduler.schedulers.background import BackgroundScheduler

from judge.clock import SYSTEM_CLOCK, Clock
from judge.commands import answer_mail
from judge.config import Config
from judge.mail.admin_events import MailUndeliverable
from judge.mail.imap_poller import ImapPoller
from judge.mail.outbox import queue_rows
from judge.mail.processor import Processor
from judge.mail.sender import Sender
from judge.mail.smtp_intake import SmtpIntake
from judge.schedule.keeper import DRAW_AHEAD, DeadlineKeeper
from judge.store import Database, OutboundMail, open_database
from judge.store.outage import is_unavailable

if TYPE_CHECKING:
    from judge.web.server import WebServer

log = logging.getLogger(__name__)


RECHECK = timedelta(seconds=10)
"""how often a judge looks whether another judge process on the database changed a game's deadline or phase (one
small query); a change is acted on within this"""
HELD_RETRY = timedelta(seconds=1)
"""how soon a judge looks again at a game that had work due while another process held it: that process may die
before it is done (its lock goes with it), and nothing else would bring this judge back before its next deadline"""
FAILED_RETRY = timedelta(minutes=1)
"""how soon the work of a game that failed is tried again"""


class Daemon:
    def __init__(self, config: Config, clock: Clock = SYSTEM_CLOCK, db: Database | None = None) -> None:
        self.config = config
        self.clock = clock
        self.db = db or open_database(config.database_url)  # creates or upgrades the schema, under a lock
        self.stop = threading.Event()
        self.processor = Processor(self.db, config, clock, handler=answer_mail)
        self.sender = Sender(self.db, config.outbound, clock, self._undeliverable)
        self.keeper = DeadlineKeeper(self.db, config, clock)
        self.keeper.on_queued = self.sender.wake
        self.keeper.share = self.processor.place
        self.intake = (
            SmtpIntake(self.db, config.smtp_intake, clock, self._stored) if config.smtp_intake.enabled else None
        )
        self.poller = ImapPoller(self.db, config.imap, clock, self._stored) if config.imap.enabled else None
        self.scheduler = BackgroundScheduler(timezone=UTC)
        self._early = threading.Event()
        """set when mail was processed: orders just filed may let a phase go early (`_early_ticks`)"""
        self._draw = threading.Event()
        """set by a tick when games are to be processed soon: their pictures are drawn ahead (`_drawing_ahead`)"""
        self._ticking = threading.Lock()
        """held through a round of the keeper: one round at a time in a process (`tick`)"""
        self._seen: int | None = None
        """the games' deadlines and phases as of the last tick (`DeadlineKeeper.fingerprint`)"""
        self.threads: list[threading.Thread] = []
        self.web: WebServer | None = None
        """the read-only site, when `[web] enabled` (started with the rest, stopped first)"""

    def _undeliverable(self, row: OutboundMail, error: str) -> None:
        """A message that failed for good: the admin is told by mail (not about such a notice itself)."""
        if row.kind == "undeliverable":
            return
        event = MailUndeliverable(row_id=row.id, kind=row.kind, recipients=tuple(map(str, row.recipients)), error=error)
        with self.db.transaction() as session:
            queue_rows(session, self.processor.notifier.rows([event], now=self.clock.now()))

    def _stored(self, _inbound_id: int) -> None:
        self.processor.wakeup.set()

    # --- the parts' loops ------------------------------------------------------------------------------

    def _processed(self, _finished: int) -> None:
        self.sender.wake()
        self._early.set()  # orders just filed may let a phase go early

    def _early_ticks(self) -> None:
        """A tick whenever mail was processed, in a thread of its own: the processor goes straight on to the next
        mail. (It ran the tick itself, and in a deadline rush that tick adjudicated games for a minute while the
        players' mail waited: issue 31.) Ticks asked for while one runs make one more."""
        while not self.stop.is_set():
            self._early.wait()
            self._early.clear()
            if not self.stop.is_set():
                self.tick()

    def _drawing_ahead(self) -> None:
        """Whenever a tick finds games to be processed within `DRAW_AHEAD`, their results pictures are drawn now,
        from the orders on file (`DeadlineKeeper.draw_ahead`), in a thread of its own: the quiet minutes before a
        deadline do what the keeper would otherwise do while every player waits for it (issue 31)."""
        while not self.stop.is_set():
            self._draw.wait()
            self._draw.clear()
            if self.stop.is_set():
                return
            try:
                drawn = self.keeper.draw_ahead(self.stop)
            except Exception as error:
                if is_unavailable(error):
                    self.db.outage.lost(error, "pictures drawn ahead")
                else:
                    log.exception("drawing results pictures ahead of their deadline failed")
                continue
            if drawn:
                log.info("%d results picture(s) drawn ahead of their deadline", drawn)

    def _recheck(self) -> None:
        """Every `RECHECK`: if the games' deadlines or phases changed since the last tick (through another judge
        process on the database), tick now. One small query; every process already wakes for every game's
        deadline, so work left by a process that died is done at its time."""
        try:
            seen = self.keeper.fingerprint()
        except Exception as error:
            if is_unavailable(error):
                self.db.outage.lost(error, "deadline keeper")  # the next tick waits for it
            else:
                log.exception("looking at the games' deadlines failed")
            return
        if seen != self._seen:
            self.tick()

    def tick(self) -> None:
        """Do whatever deadlines have brought, then sleep (in the scheduler) until the next one -- or only a moment,
        when a game with work due was held by another process, or a minute, when a game's work failed. The database
        away is waited for, and the round done again the moment it answers.

        Three things ask for a tick (the scheduler at a deadline, the recheck when another process changed a game,
        the early ticks after mail): one round runs at a time in a process, and a tick asked for meanwhile makes
        its round after it. Rounds beside each other divided the games fairly (`SKIP LOCKED`) but in a deadline
        rush three of them drew three pictures at once on two cores and fought for the interpreter (issue 31)."""
        with self._ticking:
            self._tick()

    def _tick(self) -> None:
        soon: list[datetime] = []
        upcoming: datetime | None = None
        while not self.stop.is_set():
            began = time.monotonic()
            try:
                self._seen = self.keeper.fingerprint()
            except Exception:
                self._seen = None
            try:
                done = self.keeper.work()
                for line in done.done:
                    log.info("%s", line)
                if done.done:
                    self.sender.wake()
                if done.held:
                    log.debug("held by another process, looked at again shortly: %s", ", ".join(done.held))
                    soon.append(datetime.now(UTC) + HELD_RETRY)
                if done.failed:
                    soon.append(datetime.now(UTC) + FAILED_RETRY)
                upcoming = self.keeper.next_due()
                if self.config.pictures and upcoming is not None and upcoming - datetime.now(UTC) <= DRAW_AHEAD:
                    self._draw.set()
                self.db.outage.answered(began)
            except Exception as error:
                if is_unavailable(error):  # the work in hand is done again the moment the database answers
                    self.db.outage.lost(error, "deadline keeper")
                    self.db.outage.wait(self.stop)
                    continue
                log.exception("the deadline keeper failed; trying again in a minute")
            break
        # nothing due: look again in a minute (a game may have started meanwhile)
        when = min([*soon, upcoming or datetime.now(UTC) + timedelta(minutes=1)])
        if self.config.pictures and upcoming is not None and upcoming - DRAW_AHEAD > datetime.now(UTC):
            when = min(when, upcoming - DRAW_AHEAD)  # a tick when the pictures can begin to be drawn ahead
        if self.scheduler.running:
            self.scheduler.add_job(self.tick, "date", run_date=when, id="deadlines", replace_existing=True)

    # --- start and stop --------------------------------------------------------------------------------

    def start(self) -> None:
        if self.intake is not None:
            self.intake.start()
        self.scheduler.start()
        self.scheduler.add_job(self._recheck, "interval", seconds=RECHECK.total_seconds(), id="recheck")
        loops = [
            ("processor", lambda: self.processor.run(self.stop, after=self._processed)),
            ("sender", lambda: self.sender.run(self.stop)),
            ("early-ticks", self._early_ticks),
            ("draw-ahead", self._drawing_ahead),
        ]
        if self.poller is not None:
            poller = self.poller
            loops.append(("imap", lambda: poller.run(self.stop)))
        for name, target in loops:
            thread = threading.Thread(target=target, name=f"judge-{name}", daemon=True)
            thread.start()
            self.threads.append(thread)
        self.tick()  # anything overdue while the judge was down is handled now
        if self.config.web.enabled:
            self._start_web()
        log.info("the judge is running")

    def _start_web(self) -> None:
        from judge.game import Games
        from judge.web.server import WebServer
        from judge.web.site import Site, site_info

        web = self.config.web
        site = Site(Games(self.db, self.clock), site_info(self.config), web.base_url)
        server = WebServer(site, web.host, web.port)
        if server.start():
            self.web = server

    def shutdown(self) -> None:
        if self.web is not None:
            self.web.stop()
        self.stop.set()
        self._early.set()
        self._draw.set()
        self.processor.wakeup.set()
        self.sender.wake()
        if self.intake is not None:
            self.intake.stop()
        if self.scheduler.running:
            self.scheduler.shutdown(wait=False)
        for thread in self.threads:
            thread.join(timeout=30)
        self.keeper.close()
        if self.poller is not None:
            self.poller.close()
        self.db.dispose()
        log.info("the judge has stopped")


def serve(config: Config) -> int:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for chatty in ("mail.log", "apscheduler"):
        logging.getLogger(chatty).setLevel(logging.WARNING)
    daemon = Daemon(config)

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: stopping", signum)
        daemon.stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    daemon.start()
    if daemon.intake is not None:
        log.info("mail in: %s:%d; mail out: %s", config.smtp_intake.host, daemon.intake.port,
                 config.outbound.relay_host or config.outbound.outbox_dir)  # fmt: skip
    if daemon.web is not None:
        log.info("the web site: %s", daemon.web.url)
    daemon.stop.wait()
    daemon.shutdown()
    return 0
