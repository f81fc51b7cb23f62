"""The generic decision resolver: Kruijswijk's guess algorithm (DATC v3, chapter 5.F).

Each order is a boolean decision (a move succeeds, a support share stands, a convoy holds). A phase module
subclasses `Resolver` and implements `adjudicate(i, optimistic)` from the rules' equations and
`backup_rule(cycle)` for circular dependencies with zero or two solutions; this class knows nothing about
Diplomacy. When a decision depends on itself, it is tried with both guesses: if both give the same answer,
that answer stands (a cycle with one solution -- found by contradiction where need be, which the multi-unit
variants' partial cuts require); otherwise the backup rule settles the cycle. The retreat to the ancestor of the
whole cycle (`recursion_hits`) keeps knotted cycles such as Pandin's paradox clean.

The `optimistic` argument is kept in the adjudicate signature for equations that read "at least"/"at most";
this algorithm always passes the current guesses, so it is read as plain truth here.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TypeVar

K = TypeVar("K", bound=Hashable)


def file_under(lists: dict[K, list[int]], key: K, item: int) -> None:
    """`lists.setdefault(key, []).append(item)`, without making an empty list for every key already there: the
    resolvers file every detachment and support this way, phase after phase."""
    found = lists.get(key)
    if found is None:
        lists[key] = [item]
    else:
        found.append(item)


class Resolver:
    def __init__(self, size: int) -> None:
        self.resolved = [False] * size
        self.resolution = [False] * size
        self._visited = [False] * size
        self._cycle: list[int] = []
        self._in_cycle: set[int] = set()
        self._recursion_hits = 0
        self._guess_based = False

    # --- to implement -----------------------------------------------------------------------------------

    def adjudicate(self, i: int, optimistic: bool) -> bool:
        raise NotImplementedError

    def backup_rule(self, cycle: list[int]) -> None:
        """Settle (set `resolved`/`resolution` of) at least one decision of an unresolvable cycle."""
        raise NotImplementedError

    # --- the algorithm ----------------------------------------------------------------------------------

    def settle(self, i: int, value: bool) -> None:
        self.resolution[i] = value
        self.resolved[i] = True

    def resolve(self, i: int, optimistic: bool = True) -> bool:
        if self.resolved[i]:
            return self.resolution[i]
        if i in self._in_cycle:
            self._guess_based = True
            return self.resolution[i]
        if self._visited[i]:
            self._add_to_cycle(i)
            self._guess_based = True
            self._recursion_hits += 1
            return self.resolution[i]

        self._visited[i] = True
        old_cycle_len = len(self._cycle)
        old_guess_based = self._guess_based
        old_hits = self._recursion_hits
        self._guess_based = False
        self.resolution[i] = False  # the guess deeper recursion sees first
        first = self.adjudicate(i, True)

        if not self._guess_based:  # no cycle below: the answer is final
            self._guess_based = old_guess_based
            self._visited[i] = False
            self.settle(i, first)
            return first

        if i in self._in_cycle:
            self._recursion_hits -= 1
        if self._recursion_hits == old_hits:
            # this decision is the ancestor of the whole cycle: try the other guess
            self._truncate(old_cycle_len)
            self.resolution[i] = True
            second = self.adjudicate(i, True)
            if first == second:
                self._truncate(old_cycle_len)
                self._guess_based = old_guess_based
                self._visited[i] = False
                self.settle(i, first)
                return first
            members = self._cycle[old_cycle_len:] or [i]
            self._truncate(old_cycle_len)
            self._guess_based = old_guess_based
            self._visited[i] = False
            self.backup_rule(members)
            if not any(self.resolved[m] for m in members):
                self.settle(i, False)  # a backup rule that settles nothing must not loop forever
            return self.resolve(i)

        # a cycle was hit deeper down, but its ancestor is further up: go on retreating
        self._add_to_cycle(i)
        self.resolution[i] = first
        self._visited[i] = False
        return first

    def _add_to_cycle(self, i: int) -> None:
        if i not in self._in_cycle:
            self._cycle.append(i)
            self._in_cycle.add(i)

    def _truncate(self, length: int) -> None:
        for member in self._cycle[length:]:
            self._in_cycle.discard(member)
        del self._cycle[length:]
