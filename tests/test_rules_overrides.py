"""Whether a variant's module overrides a hook is worked out once, when its class is made, by one mechanism
(`Rules.overrides`): nothing is set by hand, so an override is never skipped for a forgotten flag."""

from __future__ import annotations

import ast
import random
from pathlib import Path

from judge.board.loader import load_map
from judge.engine import adjudicate
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import Outcome, Position
from judge.engine.rules import HOOKS, Rules
from judge.engine.units import Composition, Force
from judge.variants import VARIANTS, get_variant

ENGINE = Path(__file__).resolve().parent.parent / "judge"


def test_standard_rules_override_nothing() -> None:
    assert Rules.overrides == frozenset()


def test_a_hook_defined_by_a_subclass_is_an_override_and_inherited_by_its_own_subclasses() -> None:
    class First(Rules):
        def may_enter(self, composition: Composition, province: str) -> None:
            return None

    class Second(First):
        @classmethod
        def written_as(cls, force: Force) -> tuple[Force, ...]:
            return (force,)

    assert First.overrides == {"may_enter"}
    assert Second.overrides == {"may_enter", "written_as"}


def test_every_variant_declares_no_flag_and_overrides_what_its_module_defines() -> None:
    for name in VARIANTS:
        rules_class = get_variant(name).rules_class
        defined = {n for c in rules_class.__mro__ if c is not Rules and issubclass(c, Rules) for n in vars(c)}
        assert rules_class.overrides == defined & HOOKS, name


def test_an_after_phase_hook_runs_without_a_flag() -> None:
    """The hand-set `has_after_phase` is gone: defining the hook is enough."""

    class Marking(Rules):
        def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
            outcome.variant_state = {"ran": True}

    rules = Marking.build(load_map("standard"))
    position = Position(Phase("Spring", 1901, PhaseType.MOVEMENT), (Force("France", Composition.of(1, 0), "par"),), {})
    assert adjudicate(rules, position, [], 0).variant_state == {"ran": True}


def test_every_hook_the_code_asks_about_is_a_hook_of_rules() -> None:
    """`"name" in rules.overrides` with a misspelt name would be silently false: every name asked is a hook."""
    asked = set()
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Compare)
                and isinstance(node.left, ast.Constant)
                and isinstance(node.ops[0], (ast.In, ast.NotIn))
                and isinstance(node.comparators[0], ast.Attribute)
                and node.comparators[0].attr == "overrides"
            ):
                asked.add(node.left.value)
    assert asked and asked <= HOOKS, asked - HOOKS
