"""What a variant's rule module may see of a movement phase while it is being resolved.

The resolver's internals (its guesses, cycles, caches) are its own; a rule module answering "which support does
this attack cut" or "must this move be called off" reads only the facts of the phase listed here: the
detachments and their orders, where each stands and goes, the attack groups, the supports and their shares,
strengths, and the resolution of a decision when it asks for one. `MovementResolver` provides exactly this;
the rule hooks are typed against the view, so mypy refuses a rule module that reaches further.

Indices name detachments throughout, as in the resolver: `dets[i]` is detachment i, `kind[i]` its order's
kind, `origin[i]` the province it stands in, `dest[i]` where it moves or helps to, `target[i]` the province of
the unit it supports or convoys. `power[i]` is its *side* (the powers one player controls count as one for
every "same power" rule); `dets[i].power` is its own power.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

from judge.engine.orders import OrderKind

if TYPE_CHECKING:
    from judge.engine.reasons import Reason
    from judge.engine.resolution import Detachment


class MovementView(Protocol):
    @property
    def dets(self) -> Sequence[Detachment]: ...

    @property
    def kind(self) -> Sequence[OrderKind]: ...

    @property
    def origin(self) -> Sequence[str]: ...

    @property
    def dest(self) -> Sequence[str]: ...

    @property
    def target(self) -> Sequence[str]: ...

    @property
    def power(self) -> Sequence[str]: ...

    @property
    def holders(self) -> Mapping[str, Sequence[int]]:
        """province -> the detachments standing in it"""

    @property
    def leader(self) -> Sequence[int]:
        """detachment -> the first member of its attack group, which takes the group's decision"""

    @property
    def members(self) -> Mapping[int, Sequence[int]]:
        """attack group leader -> its members"""

    @property
    def moves_to(self) -> Mapping[str, Sequence[int]]:
        """province -> the attack groups moving into it"""

    @property
    def move_supports(self) -> Mapping[int, Sequence[int]]:
        """attack group leader -> the supports given to it"""

    @property
    def shares(self) -> Sequence[Sequence[int]]:
        """support -> its shares (decisions), one per unit it weighs"""

    @property
    def own_strength(self) -> Sequence[int]:
        """detachment -> what it counts where it stands"""

    @property
    def attack_weight(self) -> Sequence[int]:
        """detachment -> what it counts moving into its destination"""

    @property
    def resolution(self) -> Sequence[bool]:
        """decision -> its current resolution (read it only after a full resolution, as `called_off` does)"""

    def resolve(self, i: int, optimistic: bool = True) -> bool:
        """The resolution of decision i, resolving it first where needed (inside a cut, pass the caller's
        `high`)."""
        ...

    def shuffled(self, items: list[int], why: Reason) -> list[int]:
        """`items` in the order of a seeded die roll, reported as an event with `why` it was rolled (a value,
        whose words seed the die)."""
        ...
