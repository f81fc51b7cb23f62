"""uvicorn serving the site in a thread of `judge serve`, started and stopped with the daemon.

The site is read-only and reads the database the way the mail path does, so it needs nothing from the daemon but
the game layer. A port that cannot be had is logged and the judge carries on: mail and deadlines never wait on
the web.
"""

from __future__ import annotations

import logging
import threading
import time

import uvicorn

from judge.web.site import Site

log = logging.getLogger(__name__)


class WebServer:
    def __init__(self, site: Site, host: str, port: int) -> None:
        self.host = host
        config = uvicorn.Config(
            site.app(), host=host, port=port, log_level="warning", access_log=False, lifespan="off",
            server_header=False, timeout_graceful_shutdown=5,
        )  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, name="judge-web", daemon=True)
        self.port = port

    def _run(self) -> None:
        try:
            self.server.run()
        except SystemExit:  # uvicorn's answer to a port it cannot bind: logged by it already
            log.error("the web site could not start on %s:%d; the judge runs without it", self.host, self.port)

    def start(self, wait: float = 10.0) -> bool:
        """Start serving; True once it listens (the port it got is `port`), False if it could not."""
        self.thread.start()
        give_up = time.monotonic() + wait
        while time.monotonic() < give_up and self.thread.is_alive() and not self.server.started:
            time.sleep(0.01)
        if not self.server.started:
            return False
        for server in self.server.servers:
            for sock in server.sockets:
                self.port = int(sock.getsockname()[1])
        return True

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        if self.thread.is_alive():
            self.thread.join(timeout=10)
