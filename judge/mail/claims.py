"""Which process holds a claim on an outgoing message, and whether that process still lives.

A sender claims a row before delivering it, so that two judge processes never send it twice. A claim names its
process (`host:pid:start`, the start being the kernel's count of when the process began, so a reused pid is not
mistaken for the old process). A judge that starts, and every sender round, takes back at once the claims of
processes on this host that no longer run: a reply in flight when a judge was killed goes out as soon as a judge
runs again, not when the claim's lease ends. A claim by a process on another host is left to its lease.
"""

from __future__ import annotations

import os
import socket
from functools import cache


def _start_ticks(pid: int) -> str | None:
    """When the process began, in clock ticks since boot (field 22 of /proc/<pid>/stat), or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            text = stat.read()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return fields[19] if len(fields) > 19 else None


def process_name(pid: int) -> str:
    """How a claim names the process `pid` of this host."""
    return f"{socket.gethostname()}:{pid}:{_start_ticks(pid) or '0'}"


@cache
def this_process() -> str:
    """This process's name for its claims."""
    return process_name(os.getpid())


def alive(owner: str) -> bool | None:
    """Does the process that made a claim still run? None when it cannot be told (another host)."""
    parts = owner.rsplit(":", 2)
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    host, pid, ticks = parts
    if host != socket.gethostname():
        return None
    return _start_ticks(int(pid)) == ticks
