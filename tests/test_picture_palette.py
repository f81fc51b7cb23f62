"""Colours by side (judge/picture/palette.py): every side of every variant its own hue, told apart with normal
sight and under a simulation of the three common colour deficiencies (protanopia, deuteranopia, tritanopia:
the Viénot/Brettel simulation of the `coloraide` library), distances in CIEDE2000; a Hoplite Wars Minor striped
in its Major's hue; a Heptadiplomacy player one colour on all seven boards, under option A and option B."""

from __future__ import annotations

from itertools import combinations

import pytest
from coloraide import Color

from judge.picture.palette import IMPASSABLE, LAND, Palette, colours_of, palette_for
from judge.variants import VARIANTS, get_variant

DEFICIENCIES = (None, "protan", "deutan", "tritan")
UNITS_APART = 15.0
"""CIEDE2000: about what tells two flat colours apart at a glance on a chip of 14 pixels"""
TINTS_APART = 8.0
"""owned land is large: a smaller difference reads"""


def seen(colour: str, deficiency: str | None) -> Color:
    c = Color(colour)
    return c.filter(deficiency) if deficiency else c


def side_palette(name: str, options: dict[str, str] | None = None) -> Palette:
    rules = get_variant(name).rules(options)
    return palette_for(rules.board, tuple(rules.fixed_sides().items()) or None)


def lead_colours(palette: Palette) -> list[tuple[str, str, str]]:
    """(side, strong, tint) of each side's solid colour."""
    out = []
    for label, powers in palette.sides:
        colours = palette.of(powers[0])
        out.append((label, colours.strong, colours.tint))
    return out


CASES = [(name, None) for name in VARIANTS] + [("hepta", {"assignment": "b"})]


@pytest.mark.parametrize(("name", "options"), CASES)
@pytest.mark.parametrize("deficiency", DEFICIENCIES)
def test_every_side_is_told_apart_with_each_colour_deficiency(
    name: str, options: dict[str, str] | None, deficiency: str | None
) -> None:
    sides = lead_colours(side_palette(name, options))
    assert len({strong for _, strong, _ in sides}) == len(sides)
    for (a, strong_a, tint_a), (b, strong_b, tint_b) in combinations(sides, 2):
        units = seen(strong_a, deficiency).delta_e(seen(strong_b, deficiency), method="2000")
        tints = seen(tint_a, deficiency).delta_e(seen(tint_b, deficiency), method="2000")
        assert units >= UNITS_APART, (a, b, units)
        assert tints >= TINTS_APART, (a, b, tints)
    for label, _, tint in sides:  # owned land beside unowned and impassable land (the sea is across a coastline)
        for ground in (LAND, IMPASSABLE):
            apart = seen(tint, deficiency).delta_e(seen(ground, deficiency), method="2000")
            assert apart >= TINTS_APART - 2, (label, ground, apart)


def test_a_hoplite_minor_is_striped_in_its_majors_hue() -> None:
    """Rule 1: each Major controls one Minor; the Minor reads as the Major's family, never as another player
    (the issue's Mantinea drawn as Achea)."""
    palette = side_palette("hoplite")
    mantinea, aetolia, achea = palette.of("Mantinea"), palette.of("Aetolia"), palette.of("Achea")
    assert aetolia.hatch is None and mantinea.hatch is not None
    assert mantinea.strong == aetolia.strong != achea.strong
    assert mantinea.fill.startswith("url(#hs-")
    strong = {palette.of(p).strong for label, powers in palette.sides for p in powers[:1]}
    assert len(strong) == 7


@pytest.mark.parametrize("assignment", ["a", "b"])
def test_a_hepta_player_has_one_colour_on_all_seven_boards(assignment: str) -> None:
    palette = side_palette("hepta", {"assignment": assignment})
    assert len(palette.sides) == 7
    for _, powers in palette.sides:
        assert len(powers) == 7
        assert len({palette.of(p).strong for p in powers}) == 1
        assert all(palette.of(p).hatch is None for p in powers)  # on seven boards: nothing to tell apart


def test_option_b_colours_players_not_nations() -> None:
    """Each option-B player holds a different nation on every board: one nation is seven colours."""
    palette = side_palette("hepta", {"assignment": "b"})
    englands = {palette.of(f"{k}:England").strong for k in range(1, 8)}
    assert len(englands) == 7


def test_given_sides_override_the_default_and_a_stray_power_is_grey() -> None:
    board = get_variant("standard").rules().board
    allied = palette_for(board, (("Anna", ("England", "France")),))
    assert allied.of("England").strong == allied.of("France").strong
    assert allied.of("France").hatch is not None  # two powers of one side on one board: the second striped
    assert allied.of("Nowhere") == colours_of("#777777")
