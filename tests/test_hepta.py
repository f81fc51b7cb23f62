"""CW Heptadiplomacy (Mark Nelson, 1990): seven linked boards, movement modules, options A and B, win claims.

Rule numbers are the text's (docs/variants/hepta.md); the worked examples are cases in tests/variants/hepta.json.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from judge.board.copies import board_of
from judge.contract.adjudicate import run_case
from judge.engine import adjudicate
from judge.testing.random_games import variant_movement_orders
from judge.variants import get_variant
from judge.variants.hepta import ASSIGNMENT_B, COUNTRIES, country
from judge.variants.hepta_claims import Claim, ClaimError, judge_claims, read_claim

SPRING = {"season": "Spring", "year": 1901, "type": "Movement"}
AUTUMN = {"season": "Fall", "year": 1901, "type": "Movement"}


def _case(units: list[tuple[str, str, str]], orders: dict[str, list[str]], **extra: Any) -> dict[str, Any]:
    case: dict[str, Any] = {
        "variant": "hepta",
        "phase": SPRING,
        "units": [{"power": p, "unit": u, "at": at} for p, u, at in units],
        "orders": orders,
    }
    case.update(extra)
    return case


def _results(outcome: dict[str, Any]) -> dict[str, str]:
    return {row["input"]: row["result"] for row in outcome["orders"]}


# --- the board (rules 2, 3, 5, 7) -----------------------------------------------------------------------


def test_seven_boards_hold_238_centres_and_49_board_nations() -> None:
    """Rule 7: "There are 238 SCs"; rule 2: seven boards, so seven nations of each country."""
    board = get_variant("hepta").rules().board
    assert len(board.supply_centres) == 238
    assert len(board.powers) == 49
    assert board.victory_centres == 70
    position = get_variant("hepta").starting_position()
    assert len(position.units) == 7 * 22
    assert {board_of(f.at) for f in position.units if f.power == "4:England"} == {4}


@pytest.mark.parametrize("module", [1, 2, 3])
def test_a_unit_may_move_to_the_same_province_on_any_other_board(module: int) -> None:
    """Rule 3, module 1 (and modules 2 and 3, whose moves include it: rule 6's example A(1:Tri)-5:Tri)."""
    board = get_variant("hepta").rules({"module": module}).board
    assert all(board.army_can_move("1:par", f"{k}:par") for k in range(2, 8))
    assert board.fleet_can_move("1:stp/nc", "5:stp/nc")
    assert not board.fleet_can_move("1:stp/nc", "5:stp/sc")


def test_module_1_goes_nowhere_else_across_the_boards() -> None:
    board = get_variant("hepta").rules({"module": 1}).board
    assert not board.army_can_move("1:par", "3:bur")
    assert board.army_can_move("1:par", "1:bur")


@pytest.mark.parametrize("module", [2, 3])
def test_modules_2_and_3_reach_every_neighbour_on_every_board(module: int) -> None:
    """Rule 3, module 2: "A(1:Tri) can move to Ven, Tyr, Vie, Bud or Alb on any board"."""
    board = get_variant("hepta").rules({"module": module}).board
    for k in range(1, 8):
        for province in ("ven", "tyr", "vie", "bud", "alb"):
            assert board.army_can_move("1:tri", f"{k}:{province}")
    assert not board.army_can_move("1:tri", "4:mun")


def test_the_modules_are_an_option_module_2_by_default() -> None:
    """Rule 3: "the GM should state which one he is using"; the designer recommends module 2."""
    options = get_variant("hepta").options
    assert options["module"].choices == (1, 2, 3) and options["module"].default == 2
    assert options["assignment"].default == "a"


# --- supports across the boards (rule 3) ---------------------------------------------------------------


def test_module_1_only_units_on_the_target_board_support() -> None:
    """Rule 3, module 1: "only units on the board to which the unit is moving may support this move"."""
    units = [("1:France", "A", "1:par"), ("1:France", "A", "1:bur"), ("3:Germany", "A", "3:par")]
    orders = {"1:France": ["A 1:par - 3:par", "A 1:bur S A 1:par - 3:par"]}
    outcome = run_case(_case(units, orders, options={"module": 1}))
    rows = _results(outcome)
    assert rows["A 1:bur S A 1:par - 3:par"] == "illegal"
    assert rows["A 1:par - 3:par"] == "fails"


def test_module_3_takes_support_from_any_board() -> None:
    """Rule 3, module 3: "support may be given by the correct units on any given board"."""
    units = [("1:France", "A", "1:par"), ("2:France", "A", "2:bur"), ("3:Germany", "A", "3:par")]
    orders = {"1:France": ["A 1:par - 3:par"], "2:France": ["A 2:bur S A 1:par - 3:par"]}
    rows = _results(run_case(_case(units, orders, options={"module": 3})))
    assert rows["A 1:par - 3:par"] == rows["A 2:bur S A 1:par - 3:par"] == "succeeds"
    rows = _results(run_case(_case(units, orders, options={"module": 2})))
    assert rows["A 2:bur S A 1:par - 3:par"] == "illegal"


# --- convoys across the boards (rule 3) ---------------------------------------------------------------

_CONVOY_UNITS = [("1:England", "A", "1:lon"), ("2:England", "F", "2:nth"), ("3:England", "F", "3:hel")]
_CONVOY_ORDERS = {
    "1:England": ["A 1:lon - 4:kie"],
    "2:England": ["F 2:nth C A 1:lon - 4:kie"],
    "3:England": ["F 3:hel C A 1:lon - 4:kie"],
}


def test_module_2_convoys_with_fleets_of_one_board_only() -> None:
    """Rule 3, module 2: "multi-fleet convoys must be on the same board"."""
    rows = _results(run_case(_case(_CONVOY_UNITS, _CONVOY_ORDERS, options={"module": 2})))
    assert rows["A 1:lon - 4:kie"] == "illegal"  # no chain of fleets of one board could carry it


def test_module_3_convoys_with_fleets_of_any_boards() -> None:
    """Rule 3, module 3: "fleets may be used from any board in any combination for convoys"."""
    rows = _results(run_case(_case(_CONVOY_UNITS, _CONVOY_ORDERS, options={"module": 3})))
    assert rows["A 1:lon - 4:kie"] == "succeeds"


def test_module_2_convoys_an_army_of_one_board_to_another_by_one_boards_fleets() -> None:
    """Rule 3, module 2: moves reach any board, and "this also applies to convoys"."""
    units = [("1:England", "A", "1:lon"), ("2:England", "F", "2:nth"), ("2:England", "F", "2:hel")]
    orders = {"1:England": ["A 1:lon - 5:kie"], "2:England": ["F 2:nth C A 1:lon - 5:kie", "F 2:hel C A 1:lon - 5:kie"]}
    rows = _results(run_case(_case(units, orders)))
    assert rows["A 1:lon - 5:kie"] == "succeeds"


# --- cutting support (rules 4 and 6) ------------------------------------------------------------------


def test_option_b_a_unit_of_another_nationality_cuts_its_own_players_support() -> None:
    """Rule 6: "AUSTRIA A(1:Tri)-5:Tri will cut the support of ITALY A(5:Tri)S..." (the same player)."""
    units = [
        ("1:Austria", "A", "1:tri"),
        ("5:Italy", "A", "5:tri"),
        ("5:Italy", "A", "5:ven"),
        ("5:Austria", "A", "5:tyr"),
    ]
    orders = {"1:Austria": ["A(1:Tri)-5:Tri"], "5:Italy": ["A(5:Tri)SA(5:Ven)-5:Tyr", "A 5:ven - 5:tyr"]}
    sides = {"Alice": ["1:Austria", "5:Italy"], "Bob": ["5:Austria"]}
    rows = _results(run_case(_case(units, orders, options={"assignment": "b"}, sides=sides)))
    assert rows["A(5:Tri)SA(5:Ven)-5:Tyr"] == "fails"
    assert rows["A 5:ven - 5:tyr"] == "fails"


def test_option_a_a_players_own_unit_of_another_board_does_not_cut_his_support() -> None:
    """Rule 6 frees only another nationality; under option A every board's England is the same player's."""
    units = [("1:Austria", "A", "1:tri"), ("5:Austria", "A", "5:tri"), ("5:Austria", "A", "5:ven")]
    units.append(("5:Italy", "A", "5:tyr"))
    orders = {"1:Austria": ["A 1:tri - 5:tri"], "5:Austria": ["A 5:tri S A 5:ven - 5:tyr", "A 5:ven - 5:tyr"]}
    rows = _results(run_case(_case(units, orders)))
    assert rows["A 5:tri S A 5:ven - 5:tyr"] == "succeeds"
    assert rows["A 5:ven - 5:tyr"] == "succeeds"


def test_option_b_default_assignment_spreads_the_players() -> None:
    """Rule 2, option B: each player a different country on each board, spread so that "the same players do not
    neighbor each other in all seven games"."""
    board = get_variant("hepta").rules().board
    for player, powers in ASSIGNMENT_B.items():
        assert sorted(country(p) for p in powers) == sorted(COUNTRIES), player
        assert sorted(board_of(p) for p in powers) == list(range(1, 8))

    def neighbours(a: str, b: str) -> bool:
        home_a, home_b = board.powers[a].home, board.powers[b].home
        return any(h in board.army_adjacency.get(g, ()) for h in home_a for g in home_b)

    players = sorted(ASSIGNMENT_B)
    for i, one in enumerate(players):
        for other in players[i + 1 :]:
            boards = [
                neighbours(a, b) for a in ASSIGNMENT_B[one] for b in ASSIGNMENT_B[other] if board_of(a) == board_of(b)
            ]
            assert not all(boards), (one, other)


# --- claims (rule 7) ------------------------------------------------------------------------------------

PLAYERS = {"england": "England", "france": "France", "turkey": "Turkey", "russia": "Russia"}


def _claim(words: str, player: str = "England") -> Claim | None:
    return read_claim(words, player, f"1:{player}", lambda token: PLAYERS.get(token.lower()))


def test_a_claim_names_its_partners_and_its_conditions() -> None:
    claim = _claim("2-way win with France if France holds at least 63 and A 4:par - 4:bur succeeds")
    assert claim is not None
    assert claim.players == ("England", "France") and claim.win == "two-way"
    assert claim.holds == [("France", ">=", 63)]
    assert claim.orders == [("A 4:par - 4:bur", "succeeds")]
    three = _claim("three way win with France and Turkey if Turkey builds nothing")
    assert three is not None and three.win == "three-way" and three.builds == [("Turkey", "==", 0)]


@pytest.mark.parametrize(
    "words",
    ["2-way win with Prussia", "2-way win with England", "3-way win with France", "win", "4-way with a, b and c"],
)
def test_a_claim_that_cannot_be_judged_is_discounted_with_why(words: str) -> None:
    """Rule 7: "If any problems arise with any particular claims they will be discounted"."""
    with pytest.raises(ClaimError):
        _claim(words)


def test_a_joint_win_needs_the_totals_and_every_partners_claim() -> None:
    """Rule 7: a two-way win for 130 or more together with 63 or more each."""
    both = [_claim("2-way with France"), _claim("2-way with England", "France")]
    claims = [c for c in both if c]
    assert judge_claims(claims, {"England": 66, "France": 64}).wins == {"England": "two-way", "France": "two-way"}
    assert judge_claims(claims, {"England": 68, "France": 62}).wins == {}
    assert judge_claims(claims[:1], {"England": 66, "France": 64}).wins == {}


def test_claims_count_in_order_of_preference() -> None:
    """Rule 7's example: a two-way win with four, "if this isn't possible then a three-way win with players four
    and seven"."""
    claims = [
        _claim("2-way with France"),
        _claim("3-way with France and Turkey"),
        _claim("3-way with England and Turkey", "France"),
        _claim("3-way with England and France", "Turkey"),
    ]
    counts = {"England": 70 - 5, "France": 60, "Turkey": 61}
    verdicts = judge_claims([c for c in claims if c], counts)
    assert verdicts.wins == {"England": "three-way", "France": "three-way", "Turkey": "three-way"}
    assert [granted for _, granted, _ in verdicts.claims] == [False, True, True, True]


def test_every_player_with_70_centres_wins_first_equal() -> None:
    """Rule 7: "In the case of multiple wins occurring, all winners are declared first equal"."""
    assert judge_claims([], {"England": 70, "France": 71, "Turkey": 50}).wins == {"England": "solo", "France": "solo"}


def _autumn_win_case(claims: dict[str, list[str]]) -> dict[str, Any]:
    """England owns 66 centres and France 64 at the end of an Autumn with no unit moving."""
    board = get_variant("hepta").rules().board
    centres = sorted(board.supply_centres)
    return {
        "variant": "hepta",
        "phase": AUTUMN,
        "units": [
            {"power": "1:England", "unit": "F", "at": "1:nth"},
            {"power": "1:France", "unit": "F", "at": "1:eng"},
        ],
        "supply_centers": {"1:England": centres[:66], "1:France": centres[66:130]},
        "orders": claims,
    }


def test_a_two_way_win_claimed_by_both_ends_the_game() -> None:
    case = _autumn_win_case({"1:England": ["CLAIM 2-way win with France"], "1:France": ["CLAIM 2-way with England"]})
    outcome = run_case(case)
    assert outcome["winner"] == [{"side": "England", "win": "two-way"}, {"side": "France", "win": "two-way"}]
    assert _results(outcome)["CLAIM 2-way win with France"] == "succeeds"
    assert [e["granted"] for e in outcome["events"] if e["kind"] == "claim"] == [True, True]


def test_a_claim_only_one_partner_made_fails_and_says_who_did_not_claim() -> None:
    outcome = run_case(_autumn_win_case({"1:England": ["CLAIM 2-way win with France"]}))
    assert outcome["winner"] is None
    row = next(r for r in outcome["orders"] if r["input"].startswith("CLAIM"))
    assert row["result"] == "fails" and "France did not claim" in row["reason"]


def test_a_claim_in_spring_is_discounted() -> None:
    """Rule 7: claims are made "each Autumn adjudication"."""
    case = _autumn_win_case({"1:England": ["CLAIM 2-way win with France"]})
    case["phase"] = SPRING
    row = run_case(case)["orders"][0]
    assert row["result"] == "illegal" and "Autumn" in row["reason"]


def test_a_claim_conditional_on_builds_is_judged_after_the_winter() -> None:
    """Rule 7: a claim "provisional on another player's builds": holdings are the Autumn's, builds the Winter's."""
    case = _autumn_win_case(
        {
            "1:England": ["CLAIM 2-way win with France if France builds nothing"],
            "1:France": ["CLAIM 2-way with England"],
        }
    )
    autumn = run_case(case)
    assert autumn["winner"] is None and autumn["next_phase"]["type"] == "Adjustment"
    assert autumn["state"]["claims"]
    winter = dict(autumn, orders={"1:France": ["WAIVE"]}, phase=autumn["next_phase"], variant="hepta")
    after = run_case(winter)
    assert after["winner"] == [{"side": "England", "win": "two-way"}, {"side": "France", "win": "two-way"}]


# --- size (rule 2; issue: a seven-board phase) ------------------------------------------------------------


@pytest.mark.parametrize("module", [1, 2, 3])
def test_a_full_seven_board_phase_adjudicates_with_every_unit_ordered(module: int) -> None:
    rules = get_variant("hepta").rules({"module": module})
    position = get_variant("hepta").starting_position()
    orders = variant_movement_orders(rules, position, random.Random(module))
    outcome = adjudicate(rules, position, orders)
    assert len(outcome.results) >= 154
    assert len(outcome.units) + len(outcome.dislodged) == 154


def test_option_b_players_are_named_whole_in_claims() -> None:
    """Option B's default players are "Player 1" ... "Player 7": a claim names one whole."""
    claim = read_claim(
        "2-way win with Player 2 if Player 2 holds at least 63",
        "Player 1",
        "1:Austria",
        lambda token: {"player2": "Player 2"}.get(token.lower()),
        ["Player 1", "Player 2"],
    )
    assert claim is not None and claim.partners == ("Player 2",) and claim.holds == [("Player 2", ">=", 63)]


def test_a_bare_claim_is_discounted_not_a_crash() -> None:
    row = run_case(_autumn_win_case({"1:England": ["CLAIM"]}))["orders"][0]
    assert row["result"] == "illegal"
