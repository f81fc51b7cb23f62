"""The variant descriptor's parts the engine reads: calendar, sides, per-unit facts, half centres, the after-phase
hook, and what the `judge adjudicate` contract carries for them (its last section)."""

from __future__ import annotations

import random
from typing import ClassVar

import pytest

from judge.board import board_copies, board_of, load_map
from judge.contract import run_case
from judge.contract.adjudicate import CaseError, read_orders, read_position
from judge.engine import Force, Outcome, Phase, PhaseType, Position, Rules, Submitted, adjudicate
from judge.engine.calendar import STANDARD_CALENDAR, Calendar
from judge.engine.events import Event
from judge.engine.order_text import render_order
from judge.engine.orders import OrderKind, Verb
from judge.engine.supply import balances, halves
from judge.engine.units import ARMY, FLEET, Composition, facts_of
from judge.notation import OrderSyntaxError, parse_order
from judge.render import render_results
from judge.variants import VARIANTS, Variant, get_variant

M, R, A, P = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT, PhaseType.PLACEMENT
MAD_LIKE = Calendar(season_names={"Fall": "Autumn"}, opening=(Phase("Spring", 1900, P), Phase("Fall", 1900, P)))
"""The opening Mad Diplomacy's text describes: centres placed in Spring 1900, units in Autumn 1900."""
HOPLITE_LIKE = Calendar(season_names={"Fall": "Autumn"}, opening=(Phase("Winter", -451, A),))
"""Hoplite Wars' opening: initial builds in Winter 451 BC, then Spring 450 BC."""


def _after(calendar: Calendar, phase: Phase, retreats: bool = False, adjustments: bool = True) -> Phase:
    return calendar.next_phase(phase, retreats_needed=retreats, adjustments_needed=adjustments)


# --- the calendar ---------------------------------------------------------------------------------------


def test_standard_year_is_spring_fall_and_a_winter_only_when_someone_adjusts() -> None:
    cal = STANDARD_CALENDAR
    assert _after(cal, Phase("Spring", 1901, M)) == Phase("Fall", 1901, M)
    assert _after(cal, Phase("Spring", 1901, M), retreats=True) == Phase("Spring", 1901, R)
    assert _after(cal, Phase("Spring", 1901, R)) == Phase("Fall", 1901, M)
    assert _after(cal, Phase("Fall", 1901, R)) == Phase("Winter", 1901, A)
    assert _after(cal, Phase("Fall", 1901, M), adjustments=False) == Phase("Spring", 1902, M)
    assert _after(cal, Phase("Winter", 1901, A)) == Phase("Spring", 1902, M)


def test_multiplicity_opens_with_a_winter_1900_placement_rule_9() -> None:
    variant = get_variant("multiplicity1")
    start = variant.starting_position()
    assert start.phase == Phase("Winter", 1900, A)
    assert start.units == ()
    assert _after(variant.calendar, start.phase) == Phase("Spring", 1901, M)


def test_standard_and_multiplomacy_open_with_spring_1901_and_their_units() -> None:
    for name in ("standard", "multiplomacy"):
        start = get_variant(name).starting_position()
        assert start.phase == Phase("Spring", 1901, M)
        assert start.units


def test_a_mad_diplomacy_opening_places_centres_in_spring_then_units_in_autumn_1900() -> None:
    spring = MAD_LIKE.opening[0]
    assert _after(MAD_LIKE, spring) == Phase("Fall", 1900, P)
    assert _after(MAD_LIKE, Phase("Fall", 1900, P)) == Phase("Spring", 1901, M)
    assert MAD_LIKE.display(Phase("Fall", 1900, P)) == "Autumn 1900 Placement"


def test_years_before_christ_count_down_as_stored_years_count_up() -> None:
    winter = HOPLITE_LIKE.opening[0]
    spring = _after(HOPLITE_LIKE, winter)
    assert spring == Phase("Spring", -450, M)
    assert HOPLITE_LIKE.display(winter) == "Winter 451 BC Adjustment"
    assert HOPLITE_LIKE.display(_after(HOPLITE_LIKE, spring)) == "Autumn 450 BC Movement"
    assert _after(HOPLITE_LIKE, Phase("Winter", -450, A)) == Phase("Spring", -449, M)
    assert spring.code == "S450BCM"


def test_a_three_season_year_adjusts_after_its_last_season() -> None:
    cal = Calendar(movement_seasons=("Spring", "Summer", "Fall"))
    assert _after(cal, Phase("Spring", 1901, M)) == Phase("Summer", 1901, M)
    assert _after(cal, Phase("Summer", 1901, M)) == Phase("Fall", 1901, M)
    assert _after(cal, Phase("Fall", 1901, M)) == Phase("Winter", 1901, A)
    assert not cal.ends_year(Phase("Summer", 1901, M))


def test_a_calendar_may_hand_centres_over_after_spring_too() -> None:
    board = load_map("standard")
    spring_too = Calendar(ownership_seasons=frozenset({"Spring", "Fall"}))
    position = Position(Phase("Spring", 1901, M), (Force("Germany", ARMY, "ruh"),), {})
    orders = [Submitted("Germany", "A Ruh - Bel", parse_order(board, "A Ruh - Bel"))]
    plain = adjudicate(Rules.build(board), position, orders)
    handed = adjudicate(Rules.build(board, calendar=spring_too), position, orders)
    assert "bel" not in plain.centres
    assert handed.centres["bel"] == "Germany"


def test_standard_has_no_placement_phase() -> None:
    case = {"variant": "standard", "phase": {"season": "Spring", "year": 1900, "type": "Placement"}, "units": []}
    with pytest.raises(CaseError, match="no placement"):
        run_case(case)


# --- sides ----------------------------------------------------------------------------------------------

_ATTACK = {
    "variant": "standard",
    "units": [
        {"power": "Austria", "unit": "A", "at": "vie"},
        {"power": "Austria", "unit": "A", "at": "gal"},
        {"power": "Russia", "unit": "A", "at": "bud"},
    ],
    "orders": {"Austria": ["A Vie - Bud", "A Gal S A Vie - Bud"], "Russia": ["A Bud H"]},
}


def test_a_side_may_not_dislodge_its_own_units_though_they_are_another_power() -> None:
    apart = run_case(_ATTACK)
    together = run_case({**_ATTACK, "sides": {"Anna": ["Austria", "Russia"]}})
    assert apart["orders"][0]["result"] == "succeeds"
    assert together["orders"][0]["result"] == "fails"
    assert together["sides"] == {"Anna": ["Austria", "Russia"]}
    assert {u["at"] for u in together["units"]} == {"vie", "gal", "bud"}


def test_an_attack_by_the_same_side_does_not_cut_its_support() -> None:
    case = {
        "variant": "standard",
        "units": [
            {"power": "Austria", "unit": "A", "at": "vie"},
            {"power": "Austria", "unit": "A", "at": "gal"},
            {"power": "Turkey", "unit": "A", "at": "bud"},
            {"power": "Russia", "unit": "A", "at": "ukr"},
        ],
        "orders": {
            "Austria": ["A Vie - Bud", "A Gal S A Vie - Bud"],
            "Turkey": ["A Bud H"],
            "Russia": ["A Ukr - Gal"],
        },
    }
    assert run_case(case)["orders"][1]["result"] == "fails"  # cut by Russia
    allied = run_case({**case, "sides": {"Anna": ["Austria", "Russia"]}})
    assert allied["orders"][1]["result"] == "succeeds"
    assert allied["orders"][0]["result"] == "succeeds"


def test_a_power_on_two_sides_is_a_malformed_case() -> None:
    with pytest.raises(CaseError, match="both"):
        run_case({**_ATTACK, "sides": {"Anna": ["Austria"], "Ben": ["Austria", "Russia"]}})


# --- per-unit facts -------------------------------------------------------------------------------------


class _TaggedRules(Rules):
    """Standard rules that keep one per-unit fact, as Mad Diplomacy keeps an embarked army's moves aboard."""

    variant = "tagged"
    unit_facts: ClassVar[tuple[str, ...]] = ("aboard",)


def test_a_units_facts_travel_with_it_through_a_move_and_a_retreat() -> None:
    board = load_map("standard")
    rules = _TaggedRules.build(board)
    case = {
        "units": [
            {"power": "France", "unit": "F", "at": "mao", "aboard": 2},
            {"power": "England", "unit": "F", "at": "eng", "aboard": 1},
            {"power": "England", "unit": "F", "at": "iri"},
        ]
    }
    position = read_position(rules, case, Phase("Spring", 1901, M))
    orders = [
        Submitted("France", "F Mao - Bre", parse_order(board, "F Mao - Bre")),
        Submitted("England", "F Iri - Mao", parse_order(board, "F Iri - Mao")),
    ]
    outcome = adjudicate(rules, position, orders)
    moved = next(f for f in outcome.units if f.at == "bre")
    assert moved.fact("aboard") == 2
    assert next(f for f in outcome.units if f.at == "eng").facts == facts_of({"aboard": 1})


def test_facts_the_variant_does_not_keep_are_not_read() -> None:
    rules = Rules.build(load_map("standard"))
    position = read_position(
        rules, {"units": [{"power": "France", "unit": "F", "at": "bre", "aboard": 3}]}, Phase("Spring", 1901, M)
    )
    assert position.units[0].facts == ()


# --- centres in halves ----------------------------------------------------------------------------------


class _TownRules(Rules):
    """Standard rules on which Holland is a town worth half a centre, as Hoplite Wars' towns are."""

    variant = "towns"

    def centre_value(self, province: str) -> int:
        return 1 if province == "hol" else super().centre_value(province)


def test_half_centres_are_counted_and_written_as_halves() -> None:
    rules = _TownRules.build(load_map("standard"))
    centres = {"lon": "England", "edi": "England", "hol": "England"}
    units = [Force("England", FLEET, "lon"), Force("England", FLEET, "nth")]
    assert balances(rules, centres, units) == {"England": 1}
    assert [halves(n) for n in (4, 3, 1, 0, -1, -2)] == ["2", "1½", "½", "0", "-½", "-1"]


def _winter(rules: Rules, centres: dict[str, str], units: list[Force], lines: list[str]) -> Outcome:
    board = rules.board
    position = Position(Phase("Winter", 1901, A), tuple(units), centres)
    return adjudicate(rules, position, [Submitted("England", line, parse_order(board, line)) for line in lines])


def test_half_a_centre_is_not_enough_to_build_an_army() -> None:
    rules = _TownRules.build(load_map("standard"))
    centres = {"lon": "England", "edi": "England", "lvp": "England", "hol": "England"}
    outcome = _winter(
        rules,
        centres,
        [Force("England", FLEET, "nth")] * 1 + [Force("England", ARMY, "yor")] * 1 + [Force("England", FLEET, "nwg")],
        ["Build A Lvp"],
    )
    assert outcome.results[0].result.value == "illegal"
    assert "½ left" in outcome.results[0].reason


def test_owing_half_a_centre_costs_one_whole_unit_and_no_more() -> None:
    rules = _TownRules.build(load_map("standard"))
    centres = {"lon": "England", "hol": "England"}  # 1½ centres, 2 units: half a centre owed
    units = [Force("England", FLEET, "nth"), Force("England", ARMY, "yor")]
    outcome = _winter(rules, centres, units, ["Remove A Yor", "Remove F Nth"])
    assert [r.result.value for r in outcome.results] == ["succeeds", "illegal"]
    assert [f.at for f in outcome.units] == ["nth"]


# --- the after-phase hook -------------------------------------------------------------------------------


class _Wandered(Event):
    kind = "wander"
    names = ("roll",)

    def __init__(self, roll: int) -> None:
        self.roll = roll


class _WanderingRules(Rules):
    """A centre that wanders after every phase by a seeded roll, as Mad Diplomacy's Atlantis does."""

    variant = "wandering"

    def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
        roll = rng.randint(1, 6)
        outcome.variant_state = {**outcome.variant_state, "roll": roll}
        outcome.events.append(_Wandered(roll))


def test_the_after_phase_hook_is_seeded_by_the_case_seed_and_the_phase() -> None:
    rules = _WanderingRules.build(load_map("standard"))
    position = Position(Phase("Spring", 1901, M), (Force("France", ARMY, "par"),), {})
    rolls = {seed: adjudicate(rules, position, [], seed).variant_state["roll"] for seed in range(12)}
    again = {seed: adjudicate(rules, position, [], seed).variant_state["roll"] for seed in range(12)}
    assert rolls == again
    assert len(set(rolls.values())) > 1
    fall = Position(Phase("Fall", 1901, M), position.units, {})
    assert [adjudicate(rules, fall, [], s).variant_state["roll"] for s in range(12)] != list(rolls.values())


# --- the contract ---------------------------------------------------------------------------------------


def test_variant_state_round_trips_as_state_and_the_old_key_is_still_read() -> None:
    case = {"variant": "multiplomacy", "units": [], "state": {"winters_at_victory_count": {"England": 1}}}
    assert run_case(case)["state"] == {"winters_at_victory_count": {"England": 1}}
    old = {"variant": "multiplomacy", "units": [], "variant_state": {"winters_at_victory_count": {"England": 1}}}
    assert run_case(old)["state"] == case["state"]


def test_every_registered_variant_has_a_descriptor_with_a_first_phase() -> None:
    for variant in VARIANTS.values():
        assert variant.first_phase() == variant.starting_position().phase
        assert variant.phase_name(variant.first_phase())


# --- garrisons ------------------------------------------------------------------------------------------


class _GarrisonRules(Rules):
    """Standard rules that also allow garrisons, as Hoplite Wars does."""

    variant = "garrisons"

    def allows(self, composition: Composition) -> bool:
        return composition.is_single


def test_a_garrison_never_moves_nor_convoys_but_holds_and_supports() -> None:
    board = load_map("standard")
    rules = _GarrisonRules.build(board)
    units = (Force("France", Composition.of(garrisons=1), "par"), Force("France", ARMY, "bur"))
    position = Position(Phase("Spring", 1901, M), units, {})
    lines = ["G Par - Pic", "G Par S A Bur"]
    outcome = adjudicate(rules, position, [Submitted("France", line, parse_order(board, line)) for line in lines])
    assert outcome.results[0].result.value == "illegal"
    assert "never moves" in outcome.results[0].reason
    assert outcome.results[1].result.value == "succeeds"


def test_a_garrison_costs_half_a_centre() -> None:
    rules = _GarrisonRules.build(load_map("standard"))
    units = [Force("France", Composition.of(garrisons=1), "par"), Force("France", ARMY, "bur")]
    assert balances(rules, {"par": "France", "bre": "France"}, units) == {"France": 1}


# --- a variant's own order verbs ------------------------------------------------------------------------

VERBS = {
    "boards": Verb(OrderKind.BOARD, "unit target"),
    "disembarks": Verb(OrderKind.MOVE, "unit place"),
    "sack": Verb(OrderKind.SACK, "unit"),
    "claim": Verb(OrderKind.CLAIM, "line"),
}


def test_the_reader_learns_a_variants_verbs_in_both_word_orders() -> None:
    board = load_map("standard")
    board_order = parse_order(board, "A Pic boards F Eng", VERBS)
    assert (board_order.kind, board_order.target and board_order.target.location) == (OrderKind.BOARD, "eng")
    assert render_order(board_order) == "A pic boards F eng"
    landing = parse_order(board, "A Wal disembarks Lon", VERBS)
    assert (landing.kind, landing.destination) == (OrderKind.MOVE, "lon")
    for line in ("A Par sack", "SACK A Par", "sack army paris"):
        sacked = parse_order(board, line, VERBS)
        assert (sacked.kind, sacked.unit and sacked.unit.location) == (OrderKind.SACK, "par")
    claim = parse_order(board, "CLAIM 2-way win with Russia", VERBS)
    assert (claim.kind, claim.words, render_order(claim)) == (
        OrderKind.CLAIM,
        "2-way win with Russia",
        "CLAIM 2-way win with Russia",
    )


def test_a_variants_verbs_are_unknown_to_the_other_variants() -> None:
    board = load_map("standard")
    with pytest.raises(OrderSyntaxError):
        parse_order(board, "A Par sack")
    with pytest.raises(OrderSyntaxError):
        parse_order(board, "CLAIM 2-way win with Russia")


def test_a_verb_the_variant_reads_but_does_not_adjudicate_is_illegal_with_the_reason() -> None:
    class Sacking(Rules):
        variant = "sacking"
        verbs: ClassVar = VERBS

    rules = Sacking.build(load_map("standard"))
    case = {"units": [{"power": "France", "unit": "A", "at": "par"}], "orders": {"France": ["A Par SACK"]}}
    position = read_position(rules, case, Phase("Spring", 1901, M))
    outcome = adjudicate(rules, position, read_orders(rules, case))
    assert outcome.results[0].result.value == "illegal"
    assert "sack order is not possible" in outcome.results[0].reason


def test_results_and_the_contract_write_seasons_and_years_as_the_variant_does(monkeypatch: pytest.MonkeyPatch) -> None:
    ancient = Variant("ancient", "a calendar before Christ", "standard", Rules, HOPLITE_LIKE)
    monkeypatch.setitem(VARIANTS, "ancient", ancient)
    case = {
        "variant": "ancient",
        "phase": {"season": "Autumn", "year": -450, "type": "Movement"},
        "units": [{"power": "Germany", "unit": "A", "at": "ruh"}],
        "orders": {"Germany": ["A Ruh - Bel"]},
    }
    outcome = run_case(case)
    assert outcome["phase"] == {"season": "Autumn", "year": -450, "type": "Movement"}
    assert outcome["next_phase"] == {"season": "Winter", "year": -450, "type": "Adjustment"}
    text = render_results("g", outcome, outcome["next_phase"])
    assert "Movement results for Autumn of 450 BC." in text
    assert "is Adjustment for Winter 450 BC" in text


# --- several boards -------------------------------------------------------------------------------------


def test_a_board_of_seven_copies_qualifies_every_id_with_its_board() -> None:
    seven = board_copies(load_map("standard"), 7)
    assert len(seven.provinces) == 7 * len(load_map("standard").provinces)
    assert len(seven.supply_centres) == 238
    assert seven.provinces["3:stp"].coasts == ("nc", "sc")
    assert seven.fleet_can_move("3:stp/nc", "3:bar")
    assert not seven.army_can_move("1:par", "3:par")  # links between boards are the variant's rule
    assert seven.powers["4:England"].home == ("4:edi", "4:lon", "4:lvp")
    assert seven.lookup("3:Paris") == "3:par"
    assert seven.lookup_power("4:England") == "4:England"
    assert board_of("3:stp/nc") == 3
    assert board_of("stp/nc") is None


def test_orders_name_places_on_a_board_with_its_number() -> None:
    seven = board_copies(load_map("standard"), 7)
    for line, canonical in (
        ("A 1:par - 3:par", "A 1:par - 3:par"),
        ("A(1:Par)-3:Par", "A 1:par - 3:par"),
        ("A 1: par - 1: bur", "A 1:par - 1:bur"),
        ("F 3:stp/nc - 3:bar", "F 3:stp/nc - 3:bar"),
        ("F 3:stp(sc) - 3:bot", "F 3:stp/sc - 3:bot"),
        ("F 4:Spain (north coast) - 4:mao", "F 4:spa/nc - 4:mao"),
        ("A 5:par S A 5:mar - 5:bur", "A 5:par S A 5:mar - 5:bur"),
    ):
        assert render_order(parse_order(seven, line)) == canonical


def test_a_board_of_copies_adjudicates_each_board_as_the_base_map() -> None:
    seven = board_copies(load_map("standard"), 7)
    rules = Rules.build(seven)
    units = (Force("1:France", ARMY, "1:par"), Force("1:France", ARMY, "1:mar"), Force("3:France", ARMY, "3:par"))
    position = Position(Phase("Spring", 1901, M), units, {})
    lines = {"1:France": ["A 1:par - 1:bur", "A 1:mar S A 1:par - 1:bur"], "3:France": ["A 3:par - 1:par"]}
    orders = [Submitted(p, line, parse_order(seven, line)) for p, ls in lines.items() for line in ls]
    outcome = adjudicate(rules, position, orders)
    assert [r.result.value for r in outcome.results] == ["succeeds", "succeeds", "illegal"]
    assert {f.at for f in outcome.units} == {"1:bur", "1:mar", "3:par"}


class _SharingRules(Rules):
    """Multiplomacy-like stacking where the powers of one side may also stand together (as Hoplite Wars' Major
    and Minor forces do)."""

    variant = "sharing"
    stacking = "power"
    shares_provinces = True
    sides_stand_together = True


def test_the_powers_of_one_side_may_stand_together_where_the_variant_allows_it() -> None:
    rules = _SharingRules.build(load_map("standard"))
    units = [{"power": "England", "unit": "A", "at": "bel"}, {"power": "France", "unit": "A", "at": "bel"}]
    with pytest.raises(CaseError, match="already holds"):
        read_position(rules, {"units": units}, Phase("Spring", 1901, M))
    together = read_position(
        rules, {"units": units, "sides": {"west": ["England", "France"]}}, Phase("Spring", 1901, M)
    )
    assert len(together.units) == 2
    with pytest.raises(CaseError, match="already holds"):
        read_position(
            Rules.build(load_map("standard")),
            {"units": units, "sides": {"west": ["England", "France"]}},
            Phase("Spring", 1901, M),
        )


class _RenamingRules(Rules):
    """Names a power differently in results, as Mad Diplomacy's optional rule 11 rotates them."""

    variant = "renaming"

    def power_label(self, power: str, phase: Phase) -> str:
        return "Albion" if power == "England" and phase.year >= 1901 else power


def test_a_variant_names_powers_in_the_results_without_storing_the_names(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(VARIANTS, "renaming", Variant("renaming", "names rotate", "standard", _RenamingRules))
    case = {"variant": "renaming", "units": [{"power": "England", "unit": "F", "at": "lon"}], "orders": {}}
    outcome = run_case(case)
    assert outcome["units"][0]["power"] == "England"  # the stored position keeps the real name
    assert "Albion:" in render_results("g", outcome, outcome["next_phase"], options={})
    assert "Albion:" not in render_results("g", outcome, outcome["next_phase"])
