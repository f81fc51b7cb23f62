"""A TCP forwarder on a fixed loopback port in front of a real server (the SMTP relay, Dovecot), which a test can
take down and bring back on the same port: a server outage as the judge sees it (connections refused, open ones
cut), while the server behind it keeps its mail."""

from __future__ import annotations

import contextlib
import socket
import threading

from judge.running import StartStop
from judge.testing.dovecot import free_port


class TcpOutage(StartStop):
    host = "127.0.0.1"

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._listener: socket.socket | None = None
        self._open: set[socket.socket] = set()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Listen (again) on the same port and forward every connection to the server."""
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((self.host, self.port))
        listener.listen(16)
        self._listener = listener
        self._thread = threading.Thread(target=self._accept, args=(listener,), daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """The outage: no one listens, and every open connection is cut."""
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(OSError):
                listener.shutdown(socket.SHUT_RDWR)
            listener.close()
        with self._lock:
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._open.clear()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection((self.host, self.target_port), timeout=10)
            except OSError:
                client.close()
                continue
            server.settimeout(None)  # an IDLE connection is quiet for minutes
            with self._lock:
                self._open.update((client, server))
            for a, b in ((client, server), (server, client)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
