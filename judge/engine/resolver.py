"""The generic decision resolver: Kruijswijk's partial-information algorithm (DATC v3, chapter 5.E).

Each order is a boolean decision (a move succeeds, a support stands, a convoy holds). A phase module
subclasses `Resolver` and implements `adjudicate(i, optimistic)` from the rules' equations and
`backup_rule(cycle)` for circular dependencies with zero or two solutions; this class knows nothing about
Diplomacy. `optimistic` means: resolve every still-unknown decision in the way that favours decision `i`;
when the optimistic and pessimistic readings agree, the decision is settled on partial information.
"""

from __future__ import annotations


class Resolver:
    def __init__(self, size: int) -> None:
        self.resolved = [False] * size
        self.resolution = [False] * size
        self._visited = [False] * size
        self._cycle: list[int] = []
        self._in_cycle: set[int] = set()
        self._recursion_hits = 0
        self._uncertain = False

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

    def resolve(self, i: int, optimistic: bool) -> bool:
        if self.resolved[i]:
            return self.resolution[i]
        if i in self._in_cycle:
            self._uncertain = True
            return optimistic
        if self._visited[i]:
            self._cycle.append(i)
            self._in_cycle.add(i)
            self._recursion_hits += 1
            self._uncertain = True
            return optimistic

        self._visited[i] = True
        old_cycle_len = len(self._cycle)
        old_hits = self._recursion_hits
        old_uncertain = self._uncertain
        self._uncertain = False
        first = self.adjudicate(i, True)
        second = self.adjudicate(i, False) if (self._uncertain and first) else first
        self._visited[i] = False

        if first == second:
            self._truncate(old_cycle_len)
            self._recursion_hits = old_hits
            self._uncertain = old_uncertain
            self.settle(i, first)
            return first

        if i in self._in_cycle:
            self._recursion_hits -= 1
        if self._recursion_hits == old_hits:
            # this decision is the ancestor of the whole cycle: apply the backup rule to it
            members = self._cycle[old_cycle_len:] or [i]
            self._truncate(old_cycle_len)
            self.backup_rule(members)
            self._uncertain = old_uncertain
            if not any(self.resolved[m] for m in members):
                self.settle(i, False)  # a backup rule that settles nothing must not loop forever
            return self.resolve(i, optimistic)

        if i not in self._in_cycle:
            self._cycle.append(i)
            self._in_cycle.add(i)
        return optimistic

    def _truncate(self, length: int) -> None:
        for member in self._cycle[length:]:
            self._in_cycle.discard(member)
        del self._cycle[length:]
