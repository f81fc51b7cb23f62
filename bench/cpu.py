"""CPU time read from /proc, for the benches that run the judge as processes of its own: what a process spent is
steadier than the wall clock on a machine shared with others (steal time and neighbours move the clock, not the
CPU a process is charged), so a change in the judge's cost shows in it run after run."""

from __future__ import annotations

import os
from pathlib import Path

_TICK = os.sysconf("SC_CLK_TCK")


def process_cpu(pid: int, children: bool = False) -> float:
    """A running process's CPU seconds so far (user and system, every thread), with `children` those of its
    children that ended (cutime and cstime); 0 for a process gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return sum(int(f) for f in fields[11 : 15 if children else 13]) / _TICK


def idle_cpu_seconds() -> float | None:
    """The machine's idle CPU time so far, all cores (idle and iowait in /proc/stat), or None without it."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    except OSError:
        return None
    return (int(fields[4]) + int(fields[5])) / _TICK
