"""The one way a server part is used in a `with` block: started on entering, stopped on leaving, whatever happens
inside -- so a failing test or a crashed caller never leaves a listener or a child process behind."""

from __future__ import annotations

from types import TracebackType
from typing import Self


class StartStop:
    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
