"""Atlantis, Mad Diplomacy's wandering supply centre (rule 9).

It starts in Switzerland. After each movement season it stays or moves to a bordering province, by dice the
judge rolls from the case's seed, as the text's example does ("Swi 3, Mun 2, Tyr 6, Pie 5, Mar 2, Bur 1. S.C.
Atlantis - Tyrolia."): one die for where it stands and one for each bordering province; the highest goes, and
places tied on the highest roll again among themselves. Every round of rolls is in the `atlantis` event, printed
with the results. Its place is the state's `atlantis`.

At the end of the year (when centres change hands) Atlantis is credited, even to an eliminated power, in this
order (a ruling on rule 9's "only exception" clause, docs/variants/mad.md):
1. the power with a unit in its province (one that entered with it, or was there before: "another power");
2. else the owner of the supply centre in its province (home or neutral), if that centre is owned;
3. else the power whose country the province is in;
4. else nobody (at sea, in Switzerland, in an unowned neutral province).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from judge.board.model import Terrain
from judge.engine.events import AtlantisMoved, Roll
from judge.engine.position import Outcome

if TYPE_CHECKING:
    from judge.variants.mad import MadRules

ATLANTIS = "atlantis"
START = "swi"


def where(rules: MadRules, outcome: Outcome) -> str:
    """Where Atlantis stands (a case may name the province as players do: "Swi", "Switzerland")."""
    written = str(outcome.variant_state.get("atlantis", START))
    return rules.board.lookup(written) or written.lower()


def candidates(rules: MadRules, at: str) -> list[str]:
    """Where Atlantis may go from `at`: it stays, or goes to a bordering province (only land ones under
    `atlantis_moves=land`)."""
    board = rules.board
    near = sorted(p for p in board.borders.get(at, ()) if p != ATLANTIS)
    if rules.options.get("atlantis_moves") == "land":
        near = [p for p in near if board.provinces[p].terrain is not Terrain.SEA]
    return [at, *near]


def wander(rules: MadRules, outcome: Outcome, rng: random.Random) -> None:
    """Move Atlantis after a movement season (rule 9): a die for each place, the highest wins, ties roll again."""
    at = where(rules, outcome)
    rolling = candidates(rules, at)
    rounds: list[tuple[Roll, ...]] = []
    while True:
        rolls = {place: rng.randint(1, 6) for place in rolling}
        rounds.append(tuple(Roll(place, roll) for place, roll in rolls.items()))
        best = max(rolls.values())
        rolling = [place for place, roll in rolls.items() if roll == best]
        if len(rolling) == 1:
            break
    to = rolling[0]
    outcome.variant_state = {**outcome.variant_state, "atlantis": to}
    outcome.events.append(AtlantisMoved(at, to, best, tuple(rounds)))


def owner(rules: MadRules, outcome: Outcome) -> str | None:
    """Who is credited with Atlantis where it stands now (the order in the module's docstring)."""
    at = where(rules, outcome)
    for force in outcome.units:
        if force.province == at:
            return force.power
    if at in outcome.centres:
        return outcome.centres[at]
    for power in rules.board.powers.values():
        if at in power.country:
            return power.name
    return None


def credit_atlantis(rules: MadRules, outcome: Outcome) -> None:
    """At the year's end: Atlantis' centre to the power credited with it, or to nobody."""
    credited = owner(rules, outcome)
    centres = dict(outcome.centres)
    if credited is None:
        centres.pop(ATLANTIS, None)
    else:
        centres[ATLANTIS] = credited
    if centres != outcome.centres:
        outcome.centres = centres
