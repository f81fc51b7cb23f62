"""The rulebook's editions and the rule options a GM sets: values of the engine's one style (judge/value.py),
apart from `judge.engine.rules` (which the variants subclass, so it stays interpreted, where a class cannot
subclass the compiled `Value`); `judge.engine.rules` names them too."""

from __future__ import annotations

from typing import Any, Literal

from judge.value import Value

ParadoxRule = Literal["szykman", "1971", "1982", "2000"]
AdjacentConvoy = Literal["via_or_own_fleet", "opposite_move"]
CivilDisorder = Literal["owned_centres", "home_centres"]


class Edition(Value):
    name: str
    paradox_rule: ParadoxRule
    """Which support-cut exception applies to convoy paradoxes; the Szykman rule is always the backup."""
    adjacent_convoy: AdjacentConvoy
    """When an army that could go by land is convoyed (DATC 4.A.3)."""
    multi_route_disrupted_by_any: bool
    """1971: a convoy with several routes is disrupted when any route is (DATC 4.A.1)."""
    retreat_to_convoy_origin: bool
    """A unit dislodged by a convoyed attack may retreat to the attacker's origin (DATC 4.A.5)."""
    civil_disorder: CivilDisorder
    """Civil-disorder removals by distance to owned centres (2023) or to home centres (earlier)."""

    names = (
        "name", "paradox_rule", "adjacent_convoy", "multi_route_disrupted_by_any", "retreat_to_convoy_origin",
        "civil_disorder",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        paradox_rule: ParadoxRule,
        adjacent_convoy: AdjacentConvoy,
        multi_route_disrupted_by_any: bool,
        retreat_to_convoy_origin: bool,
        civil_disorder: CivilDisorder,
    ) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "paradox_rule", paradox_rule)
        object.__setattr__(self, "adjacent_convoy", adjacent_convoy)
        object.__setattr__(self, "multi_route_disrupted_by_any", multi_route_disrupted_by_any)
        object.__setattr__(self, "retreat_to_convoy_origin", retreat_to_convoy_origin)
        object.__setattr__(self, "civil_disorder", civil_disorder)


EDITIONS: dict[str, Edition] = {
    "2023": Edition("2023", "szykman", "via_or_own_fleet", False, True, "owned_centres"),
    "2000": Edition("2000", "2000", "via_or_own_fleet", False, False, "home_centres"),
    "1982": Edition("1982", "1982", "via_or_own_fleet", False, False, "home_centres"),
    "1971": Edition("1971", "1971", "opposite_move", True, False, "home_centres"),
}
DEFAULT_EDITION = "2023"


class RuleOption(Value):
    """One rule option a GM may set: what it decides, its choices, and the default."""

    description: str
    choices: tuple[Any, ...]
    default: Any

    names = ("description", "choices", "default")

    def __init__(self, description: str, choices: tuple[Any, ...], default: Any) -> None:
        object.__setattr__(self, "description", description)
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "default", default)


EDITION_OPTION = RuleOption(
    "rulebook for the points where editions differ (default: the DATC v3 preferences)",
    tuple(EDITIONS),
    DEFAULT_EDITION,
)


VICTORY_OPTION = RuleOption(
    "the supply centres a side needs to win, a whole number from 1 to the board's centres (0: the map's own count; "
    "njudge's SET CENTERS)",
    (),
    0,
)
"""Issue 44 item 5: the victory count a GM sets, shared by every variant whose victory is a count of centres, so
that `judge adjudicate` and a game agree on it. No choices: a whole number, bounded by the board
(`judge.engine.rules.Rules._build`)."""
