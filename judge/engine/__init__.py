"""The adjudication engine. Pure: (rules with their board, position, orders, seed) in, outcome out.

No I/O, no clock, no global random: the same input always gives the same outcome.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Sequence
from functools import partial

from judge.engine.events import Eliminated
from judge.engine.movement import adjudicate_movement
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import Dislodged, OrderResult, Outcome, Position, Result
from judge.engine.retreat import adjudicate_retreat
from judge.engine.rules import EDITIONS, Edition, RuleOptionError, Rules
from judge.engine.supply import adjustment_counts, powers_present
from judge.engine.units import ARMY, FLEET, Composition, Force


def adjudicate(rules: Rules, position: Position, submitted: Sequence[Submitted], seed: int = 0) -> Outcome:
    """Adjudicate one phase. `seed` feeds any die roll a variant's rules call for (standard needs none).

    After the phase itself, the variant's `after_phase` hook applies what changes by rule rather than by order
    (a wandering centre, colonies declaring, towns changing hands after Spring), with a random source seeded by
    the seed and the phase, so the same case always gives the same outcome.

    Python's cycle collector is paused while the phase is worked out (and set back as it was): a phase makes
    thousands of short-lived objects, freed as soon as they are dropped, and each few hundred of them would
    otherwise set the collector walking every object the calling process holds (a judge's games, a tool's
    corpus), which cost a third of the phase in a process holding a thousand phases. It changes no result."""
    if not gc.isenabled():
        return _adjudicate(rules, position, submitted, seed)
    gc.disable()
    try:
        return _adjudicate(rules, position, submitted, seed)
    finally:
        gc.enable()


def _adjudicate(rules: Rules, position: Position, submitted: Sequence[Submitted], seed: int) -> Outcome:
    kind = position.phase.type
    if kind is PhaseType.MOVEMENT:
        outcome = adjudicate_movement(rules, position, submitted, seed)
    elif kind is PhaseType.RETREAT:
        outcome = adjudicate_retreat(rules, position, submitted)
    elif kind is PhaseType.PLACEMENT:
        outcome = rules.adjudicate_placement(position, submitted, seed)
    else:
        outcome = rules.adjudicate_adjustment(position, submitted)
    if "after_phase" in rules.overrides:
        import random  # only for the variants that change something by rule after a phase

        rules.after_phase(position, outcome, random.Random(f"{seed}/{position.phase.code}/after"))
    if position.sides:
        outcome.sides = dict(position.sides)
    _account(rules, position, outcome)
    return outcome


def _account(rules: Rules, position: Position, outcome: Outcome) -> None:
    """What the phase changed besides the units, as values: centres that changed hands, powers eliminated (an
    `eliminated` event each), and the counts for the adjustments that follow."""
    before, after = position.centres, outcome.centres
    changed = before is not after and before != after
    if changed:
        outcome.centres_before = before
    if changed or len(outcome.units) + len(outcome.dislodged) < len(position.units) + len(position.dislodged):
        gone = powers_present(position.units, before, position.dislodged) - powers_present(
            outcome.units, after, outcome.dislodged
        )
        outcome.events.extend(Eliminated(power) for power in sorted(gone))
    if outcome.next_phase.type is PhaseType.ADJUSTMENT:
        outcome.count_adjustments = partial(adjustment_counts, rules, after, outcome.units, outcome.variant_state)


def check_legality(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> list[OrderResult]:
    """The engine's verdict on each line as a submission check needs it: ILLEGAL with its reason, or not.

    In a movement phase every illegal order is decided while the orders are bound to the units, before anything
    is resolved, so the check stops there: the resolution it skips is most of an adjudication's cost, and a
    deadline brings a check for every order mail. Retreats and adjustments are cheap and decided whole."""
    if position.phase.type is PhaseType.MOVEMENT:
        return rules.bind_movement(position, submitted).results
    return adjudicate(rules, position, submitted).results


__all__ = [
    "ARMY",
    "EDITIONS",
    "FLEET",
    "Composition",
    "Dislodged",
    "Edition",
    "Force",
    "Order",
    "OrderKind",
    "OrderResult",
    "Outcome",
    "Phase",
    "PhaseType",
    "Position",
    "Result",
    "RuleOptionError",
    "Rules",
    "Submitted",
    "UnitRef",
    "adjudicate",
    "check_legality",
]

if any(name.endswith(".so") for name in os.listdir(os.path.dirname(__file__))):
    # a compiled module older than its source would run the old code: refuse (judge/speedups.py)
    from judge.speedups import check

    check()
