"""Properties of the engine over random positions and orders (hypothesis drives the seeds)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.board import load_map
from judge.board.model import province_of
from judge.engine import OrderResult, Outcome, Result, Rules, adjudicate, check_legality
from judge.engine.events import Annihilated, UnitDisbanded
from judge.engine.units import Composition
from judge.testing.random_games import play, random_position, wild_orders
from judge.variants import get_variant

BOARD = load_map("standard")
RULES = Rules.build(BOARD)
EDITIONS = [Rules.build(BOARD, {"edition": e}) for e in ("2023", "2000", "1982", "1971")]
MULTI_UNIT = ["multiplomacy", "multiplicity1", "multiplicity2", "mad", "hoplite", "hepta"]
"""the variants beyond standard (Heptadiplomacy's seven boards are standard units on a larger board)"""


def _summary(outcome: Outcome) -> tuple[object, ...]:
    return (
        sorted((f.power, str(f.composition), f.at) for f in outcome.units),
        sorted((d.force.power, d.force.at, d.attacker_from, d.retreats) for d in outcome.dislodged),
        sorted(outcome.standoffs),
        Counter((r.power, r.order, r.result, r.reason) for r in outcome.results),
    )


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), units=st.integers(2, 40), edition=st.sampled_from(EDITIONS))
def test_random_order_sets_never_crash_and_keep_every_unit(seed: int, units: int, edition: Rules) -> None:
    rng = random.Random(seed)
    position = random_position(BOARD, rng, units)
    orders = wild_orders(BOARD, position, rng)
    outcome = adjudicate(edition, position, orders)
    assert len(outcome.units) + len(outcome.dislodged) == len(position.units)
    provinces = [f.province for f in outcome.units]
    assert len(provinces) == len(set(provinces)), "two units ended in one province"
    assert all(r.result in Result for r in outcome.results)
    assert len([r for r in outcome.results if not r.added]) == len(orders)
    for d in outcome.dislodged:
        assert d.retreats is not None
        assert all(province_of(r) not in provinces for r in d.retreats)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), units=st.integers(2, 34), shuffle_seed=st.integers(0, 2**16))
def test_outcome_does_not_depend_on_the_order_lines_are_written(seed: int, units: int, shuffle_seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(BOARD, rng, units)
    orders = wild_orders(BOARD, position, rng)
    shuffled = list(orders)
    random.Random(shuffle_seed).shuffle(shuffled)
    assert _summary(adjudicate(RULES, position, orders)) == _summary(adjudicate(RULES, position, shuffled))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_run_to_the_end_with_a_consistent_board(seed: int) -> None:
    for played, outcome in play(RULES, seed, years=6):
        provinces = [f.province for f in outcome.units]
        assert len(provinces) == len(set(provinces))
        assert set(outcome.centres) <= set(BOARD.supply_centres)
        assert played.position.phase != outcome.next_phase


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(MULTI_UNIT))
def test_random_multi_unit_games_keep_a_legal_board(seed: int, variant: str) -> None:
    """Stacks, merges and splits never produce a board the variant forbids, and every unit is accounted for."""
    rules = get_variant(variant).rules()
    for played, outcome in play(rules, seed, years=5):
        assert rules.check_stacking(list(outcome.units)) is None
        for force in outcome.units:
            assert rules.check_force(force) is None, (variant, force)
        before = sum(f.composition.size for f in played.position.units)
        after = sum(f.composition.size for f in outcome.units) + sum(
            d.force.composition.size for d in outcome.dislodged
        )
        # Mad Diplomacy's rule 4: armies lost aboard or with their convoying fleet; Hoplite Wars' rule 4: garrisons
        # forced to retreat
        after += sum(
            Composition.parse(e.unit).size for e in outcome.events if isinstance(e, (Annihilated, UnitDisbanded))
        )
        if played.position.phase.type.value == "Movement":
            assert before == after


def _agree(checked: list[OrderResult], adjudicated: list[OrderResult]) -> None:
    """Each submitted line is illegal in both or in neither, for the same reason (adjudication may add what then
    happened to the unit, "; dislodged from ...")."""
    checked = [r for r in checked if not r.added]
    adjudicated = [r for r in adjudicated if not r.added]
    assert [(r.power, r.input, r.result is Result.ILLEGAL) for r in checked] == [
        (r.power, r.input, r.result is Result.ILLEGAL) for r in adjudicated
    ]
    for check, result in zip(checked, adjudicated, strict=True):
        if check.result is Result.ILLEGAL:
            assert result.reason.startswith(check.reason)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), units=st.integers(2, 40), edition=st.sampled_from(EDITIONS))
def test_the_submission_check_calls_illegal_exactly_what_adjudication_does(
    seed: int, units: int, edition: Rules
) -> None:
    """The check a player gets when orders arrive stops after binding; it must never disagree with the phase."""
    rng = random.Random(seed)
    position = random_position(BOARD, rng, units)
    orders = wild_orders(BOARD, position, rng)
    _agree(check_legality(edition, position, orders), adjudicate(edition, position, orders).results)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), variant=st.sampled_from(MULTI_UNIT))
def test_the_submission_check_agrees_with_adjudication_in_multi_unit_games(seed: int, variant: str) -> None:
    rules = get_variant(variant).rules()
    for played, outcome in play(rules, seed, years=3):
        _agree(check_legality(rules, played.position, played.orders), outcome.results)
