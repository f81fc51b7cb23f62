"""Orders read the way players write them (issue: "Orders as players write them"): by mail and in
`judge adjudicate` alike, through the same reader. A line read as something the player did not mean is worse than
a refusal, so each form is checked for what it must mean."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.board import Board, load_map, map_names
from judge.contract import run_case
from judge.engine.orders import OrderKind
from judge.notation import OrderSyntaxError, parse_order, read_line, render_order

STANDARD = load_map("standard")


def canon(line: str, board: Board = STANDARD) -> str:
    return render_order(parse_order(board, line))


# --- abbreviations never fuse across a hyphen or an arrow -----------------------------------------------


@pytest.mark.parametrize(
    "line", ["F Swe-Den", "F swe - den", "A Swe -> Den", "F SWE-DEN", "F swe->den", "F Swe to Den"]
)
def test_an_abbreviation_never_fuses_with_the_next_across_a_hyphen_or_arrow(line: str) -> None:
    assert canon(line).lower() == line[0].lower() + " swe - den"


def test_a_name_written_with_a_hyphen_still_reads_as_one_place() -> None:
    assert canon("F Mid-Atlantic - Bre") == "F mao - bre"
    assert canon("F nth - Mid-Atlantic Ocean") == "F nth - mao"


def _spellings(board: Board, province: str) -> list[str]:
    p = board.provinces[province]
    return [p.id, p.id.upper(), p.id.capitalize(), p.name]


def _pairs(board: Board) -> list[tuple[str, str, str]]:
    """Every move the board allows a unit that can make it: (unit letter, from, to)."""
    pairs = []
    for origin, targets in board.army_adjacency.items():
        pairs.extend(("A", origin, t) for t in sorted(targets))
    for origin, targets in board.fleet_adjacency.items():
        if "/" in origin:
            continue  # coasts are covered by the coast spellings below
        pairs.extend(("F", origin, t.split("/")[0]) for t in sorted(targets) if "/" not in t)
    return pairs


@pytest.mark.parametrize("name", map_names())
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_every_adjacent_pair_in_every_common_spelling_reads_as_that_move(name: str, data: Any) -> None:
    board = load_map(name)
    unit, origin, destination = data.draw(st.sampled_from(_pairs(board)))
    here = data.draw(st.sampled_from(_spellings(board, origin)))
    there = data.draw(st.sampled_from(_spellings(board, destination)))
    arrow = data.draw(st.sampled_from(["-", " - ", "->", " -> ", " to ", " moves to ", " attacks "]))
    line = f"{unit} {here}{arrow}{there}"
    order = parse_order(board, line)
    assert (order.kind, order.unit and order.unit.location, order.destination) == (
        OrderKind.MOVE,
        origin,
        destination,
    ), line
    helper = data.draw(st.sampled_from(_pairs(board)))
    support = parse_order(board, f"{helper[0]} {helper[1]} S {line}")
    assert (support.kind, support.target and support.target.location, support.destination) == (
        OrderKind.SUPPORT,
        origin,
        destination,
    ), line


@pytest.mark.parametrize("name", map_names())
def test_every_convoy_and_coast_reads_in_every_common_spelling(name: str) -> None:
    board = load_map(name)
    for province in board.provinces.values():
        for coast in province.coasts:
            word = {"nc": "north", "sc": "south", "ec": "east", "wc": "west"}[coast]
            for written in (f"/{coast}", f"({coast})", f"-{coast}", f" {coast}", f" {word} coast", f" {word}ern"):
                line = f"F {province.id}{written} H"
                assert parse_order(board, line).unit.location == f"{province.id}/{coast}", line  # type: ignore[union-attr]
    seas = [p.id for p in board.provinces.values() if p.is_sea]
    coasts = [p.id for p in board.provinces.values() if p.terrain.value == "coast"]
    for sea in seas[:5]:
        for origin, destination in pairwise(coasts):
            for verb in ("C", "convoys", "transports"):
                order = parse_order(board, f"F {sea} {verb} A {origin} - {destination}")
                assert (order.kind, order.target and order.target.location, order.destination) == (
                    OrderKind.CONVOY,
                    origin,
                    destination,
                )


# --- several orders on one line ------------------------------------------------------------------------


def test_several_orders_on_one_line_separated_by_semicolons_or_commas() -> None:
    for line in ("A Par - Bur; A Mar S A Par - Bur", "A Par - Bur, A Mar S A Par - Bur"):
        read = read_line(STANDARD, line)
        assert [r.text for r in read] == ["A Par - Bur", "A Mar S A Par - Bur"]
        assert [render_order(r.order) for r in read if r.order] == ["A par - bur", "A mar S A par - bur"]


def test_a_line_split_at_semicolons_answers_each_order_on_its_own() -> None:
    read = read_line(STANDARD, "A Par - Bur; A Mar - Xyz")
    assert [(r.text, r.order is not None) for r in read] == [("A Par - Bur", True), ("A Mar - Xyz", False)]
    assert "'xyz' is not a place" in read[1].error


def test_a_split_order_with_commas_is_never_cut_into_pieces() -> None:
    board = load_map("standard")
    read = read_line(board, "3A Bur SPLIT = A Par, A Bur, A Mun")
    assert len(read) == 1
    assert read[0].order is not None and read[0].order.kind is OrderKind.SPLIT


def test_the_contract_reports_each_order_of_a_line_with_its_own_text() -> None:
    case = {
        "variant": "standard",
        "units": [{"power": "France", "unit": "A", "at": "par"}, {"power": "France", "unit": "A", "at": "mar"}],
        "orders": {"France": ["A Par - Bur; A Mar S A Par - Bur"]},
    }
    orders = run_case(case)["orders"]
    assert [(o["input"], o["result"]) for o in orders] == [
        ("A Par - Bur", "succeeds"),
        ("A Mar S A Par - Bur", "succeeds"),
    ]


# --- the seed texts' Multiplomacy forms ----------------------------------------------------------------


def test_a_move_and_its_support_in_one_line_multiplomacy() -> None:
    read = read_line(STANDARD, "F Ank-Bla sup by F Con")
    assert [render_order(r.order) for r in read if r.order] == ["F ank - bla", "F con S F ank - bla"]
    assert {r.text for r in read} == {"F Ank-Bla sup by F Con"}
    mp = load_map("multiplomacy")
    both = read_line(mp, "2 A Swi-Mun sup by 1 A Swi")
    assert [render_order(r.order) for r in both if r.order] == ["2 A swi - mun", "1 A swi S 2 A swi - mun"]


def test_a_support_for_both_units_of_a_stack_is_one_support_from_each_fleet_multiplomacy() -> None:
    """Rule 7's "2 F Wes sup 1 A & 1 F Naf": a unit supports one unit, so the two fleets give a support each, one to
    the army and one to the fleet; never one support of a fused A/F. Both stand."""
    case = {
        "variant": "multiplomacy",
        "units": [
            {"power": "France", "unit": "F", "at": "wes"},
            {"power": "France", "unit": "F", "at": "wes"},
            {"power": "France", "unit": "A", "at": "naf"},
            {"power": "France", "unit": "F", "at": "naf"},
        ],
        "orders": {"France": ["2 F Wes sup 1 A & 1 F Naf"]},
    }
    orders = run_case(case)["orders"]
    supports = [o for o in orders if o["input"]]
    assert [(o["order"], o["result"]) for o in supports] == [
        ("1 F wes S A naf", "succeeds"),
        ("1 F wes S F naf", "succeeds"),
    ]
    assert "A/F" not in " ".join(o["order"] for o in orders)


def test_a_nationality_letter_names_whose_unit_is_meant() -> None:
    order = parse_order(STANDARD, "F Aeg convoys 1 I A Tun-Smy")
    assert order.kind is OrderKind.CONVOY
    assert order.target is not None and (order.target.power, order.target.location) == ("Italy", "tun")


# --- convoy wording -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line", ["A Lon - Nwy VIA", "A Lon - Nwy via Nth", "A Lon - Nwy via Nth, Nwg", "A Lon-Nwy by convoy"]
)
def test_a_trailing_via_or_the_route_named_means_by_convoy(line: str) -> None:
    order = parse_order(STANDARD, line)
    assert (order.kind, order.destination, order.via_convoy) == (OrderKind.MOVE, "nwy", True)


def test_a_fleets_convoy_may_name_the_route_and_transports_is_a_convoy() -> None:
    assert canon("F Nth C A Lon - Nwy via Nth") == "F nth C A lon - nwy"
    assert canon("F Nth transports A Lon - Nwy") == "F nth C A lon - nwy"


# --- njudge and DPjudge habits --------------------------------------------------------------------------


def test_r_before_a_unit_is_a_removal_and_in_a_retreat_phase_a_disband() -> None:
    assert canon("R A Par") == "Remove A par"
    winter = {
        "variant": "standard",
        "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
        "units": [{"power": "France", "unit": "A", "at": "par"}, {"power": "France", "unit": "A", "at": "bur"}],
        "supply_centers": {"France": ["par"]},
        "orders": {"France": ["R A Bur"]},
    }
    assert run_case(winter)["orders"][0]["result"] == "succeeds"
    retreat = {
        "variant": "standard",
        "phase": {"season": "Spring", "year": 1901, "type": "Retreat"},
        "units": [],
        "dislodged": [{"power": "France", "unit": "A", "at": "par", "attacker_from": "bur"}],
        "orders": {"France": ["R A Par"]},
    }
    done = run_case(retreat)["orders"][0]
    assert (done["order"], done["result"]) == ("A par disband", "succeeds")


def test_a_bare_unit_in_a_build_phase_is_a_build() -> None:
    winter = {
        "variant": "standard",
        "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
        "units": [],
        "supply_centers": {"France": ["par", "bre", "mar"]},
        "orders": {"France": ["A Par", "F Bre"]},
    }
    orders = run_case(winter)["orders"]
    assert [(o["order"], o["result"]) for o in orders] == [("Build A par", "succeeds"), ("Build F bre", "succeeds")]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("A Par - Burgandy", "A par - bur"),
        ("A Vie - Galacia", "A vie - gal"),
        ("F Lon - Norsea", "F lon - nth"),
        ("F Nwy - Norwegian", "F nwy - nwg"),
        ("A Bur - Holand", "A bur - hol"),
    ],
)
def test_the_misspellings_other_judges_accept(line: str, expected: str) -> None:
    assert canon(line) == expected


@pytest.mark.parametrize(
    "line",
    ["F Spa nc - Mao", "F Spa(nc) - Mao", "F Spa/nc - Mao", "F Spa-nc - Mao", "F Spa north coast - Mao",
     "F Spa northern - Mao", "F Spain (north coast) - Mao"],
)  # fmt: skip
def test_every_way_of_writing_a_coast(line: str) -> None:
    assert canon(line) == "F spa/nc - mao"


@pytest.mark.parametrize("line", ["A Par attacks Bur", "A Par moves to Bur", "A Par -> Bur", "A Par to Bur"])
def test_move_words(line: str) -> None:
    assert canon(line) == "A par - bur"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("A Mar supports A Par into Bur", "A mar S A par - bur"),
        ("A Mar support hold A Par", "A mar S A par"),
        ("A Mar supports A Par to hold", "A mar S A par"),
        ("A Mar supports French A Par - Bur", "A mar S A par - bur"),
        ("A Mun S Austrian A Vie - Boh", "A mun S A vie - boh"),
        ("F Bla S Turkish F Con", "F bla S F con"),
    ],
)
def test_support_words_and_nationality_adjectives(line: str, expected: str) -> None:
    assert canon(line) == expected


def test_every_powers_adjective_names_it() -> None:
    for power in STANDARD.powers.values():
        order = parse_order(STANDARD, f"A Par S {power.adjective} A Bur - Pic")
        assert order.target is not None and order.target.power == power.name


# --- what cannot be read --------------------------------------------------------------------------------


def test_what_cannot_be_read_is_answered_with_what_was_expected() -> None:
    with pytest.raises(OrderSyntaxError) as refused:
        parse_order(STANDARD, "A Par jumps Bur")
    assert "expected an order like" in refused.value.why
