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
from judge.board.model import normalise_name
from judge.contract import run_case
from judge.engine.orders import OrderKind
from judge.notation import OrderSyntaxError, parse_order, read_line, render_order
from judge.notation.parse import COAST_WORDS, KEYWORDS, UNIT_WORDS, OrderReader
from judge.variants import get_variant

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


# --- issue 28: more forms from players' mail -------------------------------------------------------------
# Each form is read as meant on several variants and in several spellings, and the lines near it that could be
# misread are refused with the reason.


def read_in(variant: str, line: str) -> list[str]:
    """The canonical orders a line gives on a variant's board, or the refusals ("refused: ...")."""
    rules = get_variant(variant).rules()
    return [
        render_order(r.order) if r.order is not None else f"refused: {r.error}"
        for r in read_line(rules.board, line, rules.verbs)
    ]


def refusal_in(variant: str, line: str) -> str:
    read = read_in(variant, line)
    assert len(read) == 1 and read[0].startswith("refused: "), (line, read)
    return read[0]


@pytest.mark.parametrize(
    ("variant", "line", "expected"),
    [
        ("standard", "A Vie : Bud", "A vie - bud"),
        ("standard", "A Vie: Bud", "A vie - bud"),
        ("standard", "A Vie:Bud", "A vie - bud"),
        ("standard", "a vienna : budapest", "A vie - bud"),
        ("standard", "F Stp/sc : Bot", "F stp/sc - bot"),
        ("standard", "A Gal S A Vie : Bud", "A gal S A vie - bud"),
        ("standard", "A Vie: S A Bud - Gal", "A vie S A bud - gal"),
        ("standard", "A Vie: H", "A vie H"),
        ("standard", "England: F Lon - Nth", "F lon - nth"),
        ("standard", "ENG: F Lon : Nth", "F lon - nth"),
        ("standard", "Eng: Bre", "eng - bre"),  # the unit in the English Channel, its type left out
        ("multiplomacy", "2 A Vie : Bud", "2 A vie - bud"),
        ("mad", "2A Vie: Bud", "2A vie - bud"),
        ("hepta", "A 1:vie : 1:bud", "A 1:vie - 1:bud"),
        ("hepta", "A 1:vie: 1:bud", "A 1:vie - 1:bud"),
    ],
)
def test_a_colon_between_two_places_is_the_move(variant: str, line: str, expected: str) -> None:
    assert read_in(variant, line) == [expected]


@pytest.mark.parametrize("line", ["A Vie :", "A Vie: Xyz", "A Vie: S", "A Vie : Bud : Gal"])
def test_a_colon_that_leads_nowhere_is_refused(line: str) -> None:
    refusal_in("standard", line)


def test_a_colon_after_the_readers_own_words_is_punctuation_as_before() -> None:
    assert read_in("mad", "F(Bre)+A(Par)M: A/F(Pic)") == ["F bre + A par MERGE = A/F pic"]
    assert read_in("multiplicity1", "A/F(Pic)D: F(Pic), A(Bel)") == ["A/F pic SPLIT = F pic, A bel"]
    assert read_in("standard", "Build: A Par") == ["Build A par"]


@pytest.mark.parametrize(
    ("variant", "line", "expected"),
    [
        ("standard", "Fleet Brest moves to the English Channel", "F bre - eng"),
        ("standard", "F Bre moving to the English Channel", "F bre - eng"),
        ("standard", "A Par moving to Bur", "A par - bur"),
        ("standard", "A Tyr supports A Mun moving to Boh", "A tyr S A mun - boh"),
        ("standard", "A Tyr supports A Mun moves to the Bohemia", "A tyr S A mun - boh"),
        ("standard", "F Nth convoys A Lon moving to the Norway", "F nth C A lon - nwy"),
        ("multiplomacy", "2 Fleets Brest moving to the English Channel", "2 F bre - eng"),
        ("mad", "2F Bre moves to the Mid-Atlantic Ocean", "2F bre - mao"),
        ("hepta", "Fleet 3:Brest moves to the 3:English Channel", "F 3:bre - 3:eng"),
    ],
)
def test_moving_to_and_moves_to_with_an_article(variant: str, line: str, expected: str) -> None:
    assert read_in(variant, line) == [expected]


def test_the_before_a_place_is_read_past_only_where_the_map_has_no_place_called_the() -> None:
    """Hoplite Wars' Thebes is also `the`: there "the" is the place."""
    hoplite = get_variant("hoplite").rules().board
    assert hoplite.lookup("the") is not None
    order = parse_order(hoplite, "A Pla - the")
    assert order.destination == hoplite.lookup("the")
    refusal_in("standard", "A Par moves to the")


@pytest.mark.parametrize(
    ("variant", "line", "expected"),
    [
        ("standard", "A Edi via NWG to Nwy", "A edi - nwy via convoy"),
        ("standard", "A Edi via NWG BAR to StP", "A edi - stp via convoy"),
        ("standard", "A Edi via NWG, BAR to StP", "A edi - stp via convoy"),
        ("standard", "A Edi via Nwg and Bar moves to StP", "A edi - stp via convoy"),
        ("standard", "A Edi via the Norwegian Sea to Norway", "A edi - nwy via convoy"),
        ("standard", "A Edi via Nwg - Nwy", "A edi - nwy via convoy"),
        ("standard", "A Edi via Nwg-Bar-StP", "A edi - stp via convoy"),
        ("standard", "A Edi via convoy to Nwy", "A edi - nwy via convoy"),
        ("standard", "A Edi by convoy to Nwy", "A edi - nwy via convoy"),
        ("multiplomacy", "2 A Edi via Nwg to Nwy", "2 A edi - nwy via convoy"),
        ("mad", "2A Edi via NWG to Nwy", "2A edi - nwy via convoy"),
        ("hepta", "A 1:edi via 1:nwg to 1:nwy", "A 1:edi - 1:nwy via convoy"),
    ],
)
def test_a_convoyed_armys_route_with_via_before_the_destination(variant: str, line: str, expected: str) -> None:
    assert read_in(variant, line) == [expected]


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("A Edi via Yor to Lon", "yor is not a sea"),  # a land route is no convoy
        ("A Par - Bur - Mun", "bur is not a sea"),  # nor a chain of moves over land
        ("A Lon - Nwy via Yor", "yor is not a sea"),
        ("A Edi via Nwg", "expected where the army goes"),
        ("A Edi via Nwg Nwy", "expected where the army goes"),
    ],
)
def test_a_route_that_is_no_convoy_route_is_refused(line: str, why: str) -> None:
    assert why in refusal_in("standard", line)


@pytest.mark.parametrize(
    ("variant", "line", "expected"),
    [
        ("standard", "F Nwg C A Edi-Nwg-Nwy", "F nwg C A edi - nwy"),
        ("standard", "F Nwg C A Edi - Nwg - Nwy", "F nwg C A edi - nwy"),
        ("standard", "F Bar C A Edi-Nwg-Bar-StP", "F bar C A edi - stp"),
        ("standard", "F Nwg convoys A Edi -> Nwg -> Nwy", "F nwg C A edi - nwy"),
        ("multiplomacy", "2 F Nwg C 2 A Edi-Nwg-Nwy", "2 F nwg C 2 A edi - nwy"),
        ("hepta", "F 1:nwg C A 1:edi-1:nwg-1:nwy", "F 1:nwg C A 1:edi - 1:nwy"),
    ],
)
def test_the_route_repeated_in_the_convoy_order(variant: str, line: str, expected: str) -> None:
    assert read_in(variant, line) == [expected]


def test_a_convoy_naming_a_route_that_misses_the_fleet_or_crosses_land_is_refused() -> None:
    assert "does not pass nth" in refusal_in("standard", "F Nth C A Edi-Nwg-Nwy")
    assert "yor is not a sea" in refusal_in("standard", "F Nth C A Edi-Yor-Nwy")
    assert "does not pass nth" in refusal_in("standard", "F Nth C A Edi - Nwy via Nwg")


def test_a_route_before_the_destination_is_carried_by_the_convoy_it_names() -> None:
    case = {
        "variant": "standard",
        "units": [{"power": "England", "unit": "A", "at": "edi"}, {"power": "England", "unit": "F", "at": "nwg"}],
        "orders": {"England": ["A Edi via NWG to Nwy", "F Nwg C A Edi-Nwg-Nwy"]},
    }
    outcome = run_case(case)
    assert [(o["order"], o["result"]) for o in outcome["orders"]] == [
        ("A edi - nwy via convoy", "succeeds"),
        ("F nwg C A edi - nwy", "succeeds"),
    ]


@pytest.mark.parametrize(
    ("variant", "line", "expected"),
    [
        ("standard", "+ a mun", "Build A mun"),
        ("standard", "+A Mun", "Build A mun"),
        ("standard", "+ fleet stp nc", "Build F stp/nc"),
        ("standard", "- f tri", "Remove F tri"),
        ("standard", "-F Tri", "Remove F tri"),
        ("standard", "- the fleet in Trieste", "Remove F tri"),
        ("multiplomacy", "+ 2 A Mun", "Build 2 A mun"),
        ("multiplomacy", "- 2 F Tri", "Remove 2 F tri"),
        ("mad", "+ 2A Gas", "Build 2A gas"),
        ("hepta", "+ A 3:mun", "Build A 3:mun"),
    ],
)
def test_plus_builds_and_minus_removes(variant: str, line: str, expected: str) -> None:
    assert read_in(variant, line) == [expected]


def test_a_sign_before_a_unit_with_an_order_after_it_names_both_readings() -> None:
    """ "- A Par - Bur": a removal with words after it, or a list mark before a move; the judge asks."""
    why = refusal_in("standard", "- A Par - Bur")
    assert "removes it" in why and "marks an item of a list" in why
    assert "builds it" in refusal_in("standard", "+ A Mun H")
    refusal_in("standard", "+ Mun")  # a build names its unit
    refusal_in("standard", "- Tri")


def test_plus_and_minus_build_and_remove_in_a_winter() -> None:
    builds = {
        "variant": "standard",
        "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
        "units": [],
        "supply_centers": {"Germany": ["mun", "ber", "kie"]},
        "orders": {"Germany": ["+ a mun", "+ F Kie"]},
    }
    assert [(o["order"], o["result"]) for o in run_case(builds)["orders"]] == [
        ("Build A mun", "succeeds"),
        ("Build F kie", "succeeds"),
    ]
    removal = {
        "variant": "standard",
        "phase": {"season": "Winter", "year": 1901, "type": "Adjustment"},
        "units": [{"power": "Austria", "unit": "F", "at": "tri"}, {"power": "Austria", "unit": "A", "at": "vie"}],
        "supply_centers": {"Austria": ["vie"]},
        "orders": {"Austria": ["- f tri"]},
    }
    assert [(o["order"], o["result"]) for o in run_case(removal)["orders"]] == [("Remove F tri", "succeeds")]


def _coasted(board: Board) -> list[tuple[str, str]]:
    return [(p.id, coast) for p in board.provinces.values() for coast in p.coasts]


@pytest.mark.parametrize("variant", ["standard", "multiplomacy", "mad", "hepta"])
def test_every_coast_fused_to_its_province_reads_as_that_coast(variant: str) -> None:
    board = get_variant(variant).rules().board
    assert _coasted(board)
    for province, coast in _coasted(board):
        for written in (f"{province}{coast}", f"{province}{coast}".upper(), f"{province.capitalize()}{coast.upper()}"):
            assert parse_order(board, f"F {written} H").unit.location == f"{province}/{coast}", written  # type: ignore[union-attr]
            assert parse_order(board, f"F {written} - {written}").destination == f"{province}/{coast}", written


@pytest.mark.parametrize("line", ["F parnc - bre", "F stpec - bar", "F spawc H", "F bulnc - bla"])
def test_a_fused_coast_the_province_does_not_have_is_refused(line: str) -> None:
    assert "not a place" in refusal_in("standard", line)


def _sea_spellings(board: Board) -> list[tuple[str, str]]:
    """(written, sea): every id, name and alias of every sea of the board."""
    return [(written, p.id) for p in board.provinces.values() if p.is_sea for written in (p.id, p.name, *p.aliases)]


@pytest.mark.parametrize(
    ("written", "sea"), [("BLK", "bla"), ("blt", "bal"), ("HGB", "hel"), ("irs", "iri"), ("SKG", "ska")]
)
def test_the_other_common_abbreviations_of_the_seas(written: str, sea: str) -> None:
    for variant in ("standard", "multiplomacy", "mad", "multiplicity1"):
        board = get_variant(variant).rules().board
        assert parse_order(board, f"F {written} H").unit.location == sea  # type: ignore[union-attr]
    hepta = get_variant("hepta").rules().board
    assert parse_order(hepta, f"F 4:{written} H").unit.location == f"4:{sea}"  # type: ignore[union-attr]


@pytest.mark.parametrize("name", map_names())
def test_every_seas_every_spelling_reads_as_that_sea_and_as_nothing_else(name: str) -> None:
    """Property over the maps: a sea's id, name or alias (the map's data, `aliases`) is that sea wherever a place
    is read, and is no other word the reader knows (a power, an order word, a unit, a coast)."""
    board = load_map(name)
    reader = OrderReader(board)
    others = {normalise_name(w) for w in (*KEYWORDS, *UNIT_WORDS, *COAST_WORDS)}
    spellings = _sea_spellings(board)
    assert spellings
    # "ENG" is both the English Channel and England's alias: read as the power only when a unit follows
    # (test_eng_is_england_only_when_a_unit_follows); no other sea's spelling is a power's
    assert {w for w, _ in spellings if normalise_name(w) in reader.power_words} <= {"eng"}
    for written, sea in spellings:
        key = normalise_name(written)
        assert key not in others, (written, sea)
        assert parse_order(board, f"F {written} H").unit.location == sea, written  # type: ignore[union-attr]
        assert parse_order(board, f"F {written.upper()} - {written}").destination == sea, written
        helper = parse_order(board, f"F {written} S F {written}")
        assert (helper.unit.location, helper.target.location) == (sea, sea), written  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("variant", "line", "power"),
    [
        ("standard", "F Kie SUPPORT German A Ber HOLD", "Germany"),
        ("standard", "F Kie supports the German army in Berlin to hold", "Germany"),
        ("multiplomacy", "2 F Kie SUPPORT German A Ber HOLD", "Germany"),
        ("multiplicity1", "F Kie SUPPORT German A Ber HOLD", "Germany"),
        ("mad", "F Kie SUPPORT GERMAN 2A Ber HOLD", "Germany"),
        ("hoplite", "A Ath SUPPORT Spartan A Spa HOLD", "Sparta"),
        ("hepta", "F 3:Kie SUPPORT 3:German A 3:Ber HOLD", "3:Germany"),
    ],
)
def test_a_nationality_adjective_from_the_boards_powers(variant: str, line: str, power: str) -> None:
    board = get_variant(variant).rules().board
    order = parse_order(board, line)
    assert order.kind is OrderKind.SUPPORT and order.destination is None
    assert order.target is not None and order.target.power == power


@pytest.mark.parametrize("variant", ["standard", "multiplomacy", "mad", "hoplite", "hepta"])
def test_every_powers_adjective_names_it_on_every_board(variant: str) -> None:
    board = get_variant(variant).rules().board
    for power in board.powers.values():
        if not power.units:
            continue
        kind, at = power.units[0].kind, power.units[0].location
        order = parse_order(board, f"{kind} {at} S {power.adjective} {kind} {at} hold")
        assert order.target is not None and order.target.power == power.name, power.adjective


@pytest.mark.parametrize(
    ("variant", "line", "hold"),
    [
        ("standard", "A Gal SA Vie-Vie", "'A gal S A vie'"),
        ("standard", "A Gal S A Vie-Vie", "'A gal S A vie'"),
        ("standard", "A Gal supports A Vie - Vienna", "'A gal S A vie'"),
        ("standard", "A Gal supports A Vie moving to Vie", "'A gal S A vie'"),
        ("standard", "F Mao S F Spa/nc - Spa", "'F mao S F spa/nc'"),
        ("multiplomacy", "2 A Gal S 3 A Vie - Vie", "'A gal S A vie'"),
        ("hepta", "A 1:gal S A 1:vie - 1:vie", "'A 1:gal S A 1:vie'"),
    ],
)
def test_a_support_of_a_move_to_the_units_own_province_asks_whether_it_is_a_hold_support(
    variant: str, line: str, hold: str
) -> None:
    """Players write a support to hold so ("A Gal SA Vie-Vie"), but DATC 6.A.5 rules a support of a move to the unit's
    own province illegal: two readings, so the judge asks, naming both and how to write the hold support."""
    why = refusal_in(variant, line)
    assert "a support to hold, or a support of that move" in why and "DATC 6.A.5" in why
    assert hold in why


@pytest.mark.parametrize(
    ("variant", "line", "expected"),
    [
        ("standard", "A Gal S A Vie - Bud", "A gal S A vie - bud"),
        ("standard", "A Gal S A Vie", "A gal S A vie"),
        ("hepta", "A 1:gal S A 1:vie - 2:vie", "A 1:gal S A 1:vie - 2:vie"),  # another board's Vienna is elsewhere
    ],
)
def test_a_support_of_a_move_elsewhere_or_to_hold_reads_as_before(variant: str, line: str, expected: str) -> None:
    assert read_in(variant, line) == [expected]


def test_datc_6_a_5_a_support_of_a_move_to_its_own_sector_is_still_no_support() -> None:
    """DATC 6.A.5: England's support of A Yor - Yor gives nothing, and London takes Yorkshire."""
    case = {
        "variant": "standard",
        "units": [
            {"power": "England", "unit": "F", "at": "nth"},
            {"power": "England", "unit": "A", "at": "yor"},
            {"power": "England", "unit": "A", "at": "lvp"},
            {"power": "Germany", "unit": "F", "at": "lon"},
            {"power": "Germany", "unit": "A", "at": "wal"},
        ],
        "orders": {
            "England": ["F nth convoys yor -> yor", "A yor -> yor", "A lvp supports A yor -> yor"],
            "Germany": ["F lon -> yor", "A wal supports F lon -> yor"],
        },
    }
    outcome = run_case(case)
    assert {"power": "Germany", "unit": "F", "at": "yor"} in outcome["units"]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("The fleet in Naples supports the army in Rome to hold.", "F nap S A rom"),
        ("A Tyr supports A Mun moving to Boh", "A tyr S A mun - boh"),
        ("The army in Paris moves to Burgundy.", "A par - bur"),
        ("The fleet in the North Sea convoys the army in London to Norway.", "F nth C A lon - nwy"),
        ("The army in London moves to Norway via the North Sea.", "A lon - nwy via convoy"),
        ("The army in Edinburgh goes via the Norwegian Sea to Norway.", None),
        ("The German army in Munich supports the French army in Burgundy to move to Paris.", "A mun S A bur - par"),
        ("The Russian fleet in St Petersburg north coast moves to the Barents Sea.", "F stp/nc - bar"),
        ("The army in Tyrolia supports the army in Munich moving into Bohemia.", "A tyr S A mun - boh"),
        ("The army in Munich holds.", "A mun H"),
        ("The army in Paris retreats to Picardy.", "A par R pic"),
        ("Build an army in Paris.", "Build A par"),
        ("Remove the fleet in Trieste.", "Remove F tri"),
        ("My army in Paris moves to Burgundy.", None),
        ("The army in Paris attacks Burgundy with support.", None),
    ],
)
def test_whole_sentences(line: str, expected: str | None) -> None:
    if expected is None:
        refusal_in("standard", line)
    else:
        assert read_in("standard", line) == [expected]


def test_a_support_naming_two_units_of_a_stack_by_one_unit_is_a_question_multiplomacy() -> None:
    """ "F Ion sup 1 A & 1 F Tun": one fleet, two units named. One support from each of two fleets, or a support of
    one of them: the judge asks, naming both, and never reads one support of a fused A/F."""
    why = refusal_in("multiplomacy", "F Ion sup 1 A & 1 F Tun")
    assert "'2 F ion S 1 A & 1 F tun'" in why and "'1 F ion S A tun', '1 F ion S F tun'" in why
    assert "support one of them" in why
    assert "A/F" not in why
    assert "refused" in read_in("multiplomacy", "2 F Wes sup 2 A & 1 F Naf")[0]  # three named, two supporting


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("2 F Wes sup 1 A & 1 F Naf", ["1 F wes S A naf", "1 F wes S F naf"]),
        ("2 F Wes supports 1 A and 1 F Naf", ["1 F wes S A naf", "1 F wes S F naf"]),
        ("2 F Wes S 1 A + 1 F Naf - Tun", ["1 F wes S A naf - tun", "1 F wes S F naf - tun"]),
        ("3 F Wes sup 2 A & 1 F Naf", ["2 F wes S 2 A naf", "1 F wes S F naf"]),
        ("England: 2 F Wes sup 1 A & 1 F Naf", ["1 F wes S A naf", "1 F wes S F naf"]),
    ],
)
def test_a_support_naming_units_of_a_stack_is_one_support_from_each_multiplomacy(
    line: str, expected: list[str]
) -> None:
    assert read_in("multiplomacy", line) == expected


@pytest.mark.parametrize("variant", ["standard", "multiplicity1", "mad"])
def test_a_stack_named_by_parts_is_never_one_fused_unit_elsewhere_either(variant: str) -> None:
    """Where an A/F is a unit (Multiplicity I, Mad Diplomacy) "1 A & 1 F Naf" might still mean it, or two units:
    the same question, never a guess."""
    assert "one unit (F wes) supports 1 A & 1 F naf" in refusal_in(variant, "F Wes S 1 A & 1 F Naf")
