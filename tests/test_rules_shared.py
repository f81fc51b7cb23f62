"""Rules are values built once per class, board, calendar and options and shared by every game and case that
asks for them (`Rules.build`): what they work out once (a centre's worth, the forces a case lists) is then worked
out once a process."""

from __future__ import annotations

import pytest

from judge.engine import RuleOptionError
from judge.variants import get_variant


def test_the_same_options_give_the_same_rules() -> None:
    hepta = get_variant("hepta")
    assert hepta.rules({"module": 3}) is hepta.rules({"module": 3})
    assert get_variant("standard").rules() is get_variant("standard").rules({})
    assert hepta.rules({"module": "3"}).options == hepta.rules({"module": 3}).options  # written as text, the same


def test_other_options_give_other_rules() -> None:
    hepta = get_variant("hepta")
    one, three = hepta.rules({"module": 1}), hepta.rules({"module": 3})
    assert one is not three
    assert one.options["module"] == 1 and three.options["module"] == 3


def test_options_are_checked_every_time() -> None:
    """A wrong option is refused each time it is asked for, never remembered as if it were a set of rules."""
    for _ in range(2):
        with pytest.raises(RuleOptionError):
            get_variant("standard").rules({"edition": "1066"})
        with pytest.raises(RuleOptionError):
            get_variant("standard").rules({"no such option": 1})


def test_an_option_that_cannot_be_a_key_still_builds() -> None:
    with pytest.raises(RuleOptionError):
        get_variant("standard").rules({"edition": ["2023"]})
