"""Which process holds a claim on an outgoing message, and whether that process still lives.

A sender claims a row before delivering it, so that two judge processes never send it twice. A claim names its
process as `host:pid-namespace:pid:start`: the start is the kernel's count of when the process began, so a reused
pid is not mistaken for the old process, and the pid namespace keeps apart two containers with one host name.
Every sender round takes back at once the claims of processes of its host and namespace that no longer run: a
reply in flight when a judge was killed goes out as soon as a judge runs again, not when the claim's lease ends.
A claim by a process elsewhere is left to its lease.
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


@cache
def _pid_namespace() -> str:
    """This process's pid namespace (two containers may share a host name, never a pid namespace)."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "0"


def process_name(pid: int) -> str:
    """How a claim names the process `pid` of this host and pid namespace."""
    return f"{socket.gethostname()}:{_pid_namespace()}:{pid}:{_start_ticks(pid) or '0'}"


@cache
def this_process() -> str:
    """This process's name for its claims."""
    return process_name(os.getpid())


def alive(owner: str) -> bool | None:
    """Does the process that made a claim still run? None when it cannot be told (another host or pid
    namespace)."""
    parts = owner.rsplit(":", 3)
    if len(parts) != 4 or not parts[2].isdigit():
        return None
    host, namespace, pid, ticks = parts
    if host != socket.gethostname() or namespace != _pid_namespace():
        return None  # another machine, or another container: only its lease tells
    return _start_ticks(int(pid)) == ticks
