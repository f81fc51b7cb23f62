"""The game lifecycle through the service layer alone, on SQLite and on PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from sqlalchemy import select

from judge.board import load_map
from judge.clock import FakeClock
from judge.contract import position_from_json
from judge.engine import Rules
from judge.game import GameError, Games
from judge.store import Game, OrderSet, PhaseRecord, open_database
from judge.testing.random_games import adjustment_orders, movement_orders, retreat_orders
from judge.testing.tables import POWERS

BOARD = load_map("standard")
RULES = Rules.build(BOARD)


@pytest.fixture
def service(database_url: str) -> Iterator[Games]:
    db = open_database(database_url)
    yield Games(db, FakeClock())
    db.dispose()


def _players(service: Games) -> None:
    service.accounts.register("gm@example.org", "The GM", "gm-pass")
    for power in POWERS:
        service.accounts.register(f"{power.lower()}@example.org", power, f"{power}-pass")


def _started(service: Games, name: str = "alpha") -> None:
    _players(service)
    service.seating.create_game(name, "standard", "gm@example.org", "join-me", seed=7)
    for power in POWERS:
        service.seating.join(name, f"{power.lower()}@example.org", "join-me", [power])


def _scripted_orders(service: Games, name: str, rng: random.Random) -> dict[str, list[str]]:
    """Orders every power would write this phase (seeded), as text lines."""
    view = service.reads.game(name)
    position = position_from_json(RULES, view.position)
    kind = position.phase.type.value
    if kind == "Movement":
        submitted = movement_orders(BOARD, position, rng)
    elif kind == "Retreat":
        submitted = retreat_orders(position, rng)
    else:
        submitted = adjustment_orders(RULES, position, rng)
    lines: dict[str, list[str]] = {}
    for sub in submitted:
        assert sub.order is not None
        from judge.notation import render_order

        lines.setdefault(sub.power, []).append(render_order(sub.order))
    return lines


def test_joining_assigns_preferred_powers_and_starts_when_full(service: Games) -> None:
    _started(service)
    view = service.reads.game("alpha")
    assert view.status == "active"
    assert {seat.power: seat.address for seat in view.seats} == {p: f"{p.lower()}@example.org" for p in POWERS}
    assert view.position["phase"] == {"season": "Spring", "year": 1901, "type": "Movement"}


def test_powers_without_preference_are_assigned_from_the_games_seed(service: Games) -> None:
    _players(service)
    service.seating.create_game("beta", "standard", "gm@example.org", "pw", seed=3)
    for power in POWERS:
        service.seating.join("beta", f"{power.lower()}@example.org", "pw")
    seats = service.reads.game("beta").seats
    assert sorted(s.power for s in seats) == list(POWERS)


def test_wrong_game_password_and_unknown_powers_are_refused(service: Games) -> None:
    _players(service)
    service.seating.create_game("gamma", "standard", "gm@example.org", "pw")
    with pytest.raises(GameError, match="wrong password"):
        service.seating.join("gamma", "england@example.org", "guess")
    with pytest.raises(GameError, match="not a power"):
        service.seating.join("gamma", "england@example.org", "pw", ["Prussia"])
    with pytest.raises(GameError, match="unknown option"):
        service.seating.create_game("delta", "standard", "gm@example.org", "pw", options={"fog": True})


def test_orders_are_checked_on_arrival_and_a_new_set_replaces_the_old(service: Games) -> None:
    _started(service)
    first = service.orders.submit("alpha", "England", ["F lon - nth", "F edi - nwy", "A lvp - yor"])
    assert not first.replaced
    assert [c.error for c in first.errors] and "nwy is not next to edi" in first.errors[0].error
    second = service.orders.submit("alpha", "England", ["F lon - nth", "F edi - nwg", "A lvp - yor"])
    assert second.replaced and not second.errors
    assert service.orders.on_file("alpha", "England") == ["F lon - nth", "F edi - nwg", "A lvp - yor"]
    third = service.orders.submit("alpha", "England", ["F lon - xyz"])
    assert "'xyz' is not a place" in third.errors[0].error


def test_a_power_without_orders_holds_and_is_marked_late_then_abandoned(service: Games) -> None:
    _started(service)
    for _ in range(3):
        for power in POWERS:
            if power != "Italy":
                service.orders.submit("alpha", power, [])
        done = service.adjudication.process("alpha")
        assert done is not None and "Italy" in done.late
        italy = next(s for s in service.reads.game("alpha").seats if s.power == "Italy")
        if italy.missed >= 3:
            break
    assert italy.status == "abandoned"
    units = service.reads.game("alpha").position["units"]
    assert {"power": "Italy", "unit": "A", "at": "ven"} in units


def test_processing_twice_for_the_same_phase_does_nothing_the_second_time(service: Games) -> None:
    _started(service)
    assert service.adjudication.process("alpha", expected_index=0) is not None
    assert service.adjudication.process("alpha", expected_index=0) is None
    assert service.reads.game("alpha").phase_index == 1


def test_paused_games_are_not_processed(service: Games) -> None:
    _started(service)
    service.controls.pause("alpha")
    with pytest.raises(GameError, match="paused"):
        service.adjudication.process("alpha")
    service.controls.resume("alpha")
    assert service.adjudication.process("alpha") is not None


def test_predict_shows_the_results_without_committing(service: Games) -> None:
    _started(service)
    service.orders.submit("alpha", "France", ["A par - bur"])
    predicted = service.adjudication.predict("alpha")
    assert {"power": "France", "unit": "A", "at": "bur"} in predicted["units"]
    assert service.reads.game("alpha").phase_index == 0


def test_draw_by_unanimous_vote_ends_the_game(service: Games) -> None:
    _started(service)
    for power in POWERS[:-1]:
        assert service.talk.vote_draw("alpha", power, True) is None
    service.talk.vote_draw("alpha", "Turkey", False)
    assert service.reads.game("alpha").status == "active"
    assert service.talk.vote_draw("alpha", "Turkey", True) == sorted(POWERS)
    view = service.reads.game("alpha")
    assert view.status == "finished" and view.result == "draw" and view.winners == list(POWERS)


def test_concession_to_one_power_ends_the_game(service: Games) -> None:
    _started(service)
    for power in POWERS:
        if power != "France":
            service.talk.concede("alpha", power, "France")
    view = service.reads.game("alpha")
    assert view.result == "concession" and view.winners == ["France"]


def test_without_dias_a_draw_among_named_powers_needs_every_survivor_to_name_the_same(service: Games) -> None:
    """draw.dias=false: a vote names the powers of the draw; it passes when every survivor names the same ones."""
    _started(service)
    service.setup.set_by_mail("alpha", [("draw.dias", "false")])
    for power in POWERS[:-1]:
        assert service.talk.vote_draw("alpha", power, True, ["France", "Germany"]) is None
    assert service.talk.vote_draw("alpha", "Turkey", True, ["France", "Germany", "Turkey"]) is None
    assert service.talk.vote_draw("alpha", "Turkey", True, ["Germany", "France"]) == ["France", "Germany"]
    assert service.reads.game("alpha").winners == ["France", "Germany"]


def test_with_dias_a_draw_vote_may_not_leave_out_a_survivor(service: Games) -> None:
    _started(service)
    with pytest.raises(GameError, match="include every surviving power"):
        service.talk.vote_draw("alpha", "France", True, ["France", "Germany"])


def test_a_concession_is_withdrawn_and_may_not_go_to_oneself(service: Games) -> None:
    _started(service)
    with pytest.raises(GameError, match="not to itself"):
        service.talk.concede("alpha", "France", "France")
    for power in POWERS:
        if power not in ("France", "Turkey"):
            service.talk.concede("alpha", power, "France")
    service.talk.concede("alpha", "Austria", None)
    assert service.talk.concede("alpha", "Turkey", "France") is False
    assert service.talk.concede("alpha", "Austria", "France") is True


def test_a_full_game_of_several_years_with_a_rollback_and_a_replacement(service: Games) -> None:
    _started(service)
    rng = random.Random(11)
    positions: dict[int, dict[str, object]] = {}
    while service.reads.game("alpha").position["phase"]["year"] < 1906:
        view = service.reads.game("alpha")
        positions[view.phase_index] = view.position
        for power, lines in _scripted_orders(service, "alpha", rng).items():
            service.orders.submit("alpha", power, lines)
        done = service.adjudication.process("alpha")
        assert done is not None
        if view.phase_index == 4:
            service.controls.eject("alpha", "Germany")
            service.accounts.register("newcomer@example.org", "Newcomer", "pw")
            service.controls.replace("alpha", "Germany", "newcomer@example.org")
    history = [service.reads.phase("alpha", i).outcome for i in range(service.reads.game("alpha").phase_index)]
    kinds = {h["phase"]["type"] for h in history}
    assert kinds == {"Movement", "Retreat", "Adjustment"} or kinds >= {"Movement", "Adjustment"}
    assert history[0]["phase"] == {"season": "Spring", "year": 1901, "type": "Movement"}
    germany = next(s for s in service.reads.game("alpha").seats if s.power == "Germany")
    assert germany.address == "newcomer@example.org"

    # roll back to phase 3 and replay it with the same orders: the same outcome comes out
    replayed_from = history[3]
    service.controls.rollback("alpha", 3)
    view = service.reads.game("alpha")
    assert view.phase_index == 3 and view.position == positions[3]
    again = service.adjudication.process("alpha")
    assert again is not None
    assert again.outcome["units"] == replayed_from["units"]
    assert again.outcome["orders"] == replayed_from["orders"]


def test_victory_ends_the_game(service: Games) -> None:
    _started(service)
    db = service.db
    with db.transaction() as s:
        game = s.scalars(select(Game)).one()
        position = dict(game.position or {})
        centres = [c for c in BOARD.supply_centres if c not in ("ven", "rom", "nap", "tun", "mun")]
        position["phase"] = {"season": "Fall", "year": 1910, "type": "Movement"}
        position["units"] = [{"power": "France", "unit": "A", "at": "bur"}]
        position["supply_centers"] = {"France": centres[:17]}
        game.position = position
    service.orders.submit("alpha", "France", ["A bur - mun"])
    done = service.adjudication.process("alpha")
    assert done is not None and done.finished == "victory"
    view = service.reads.game("alpha")
    assert view.status == "finished" and view.winners == ["France"]
    with db.transaction() as s:
        assert s.scalar(select(PhaseRecord.index)) == 0
        assert s.scalars(select(OrderSet.power)).all() == ["France"]


def test_a_game_view_is_read_again_after_a_change_or_a_rollback_in_the_same_transaction(
    service: Games,
) -> None:
    """Views last a transaction (the processor's batch), but never outlive what they show."""
    from judge.game.snapshot import snapshot as game_view

    _started(service)
    with service.db.transaction() as s:
        first = game_view(s, "alpha")
        assert first is not None and first.status == "active"
        assert game_view(s, "alpha") is first  # read once
        bound = Games(service.db, service.clock, s)
        bound.controls.pause("alpha")  # a change through the ORM, in this transaction
        paused = game_view(s, "alpha")
        assert paused is not first and paused is not None and paused.status == "paused"
        try:
            with s.begin_nested():
                bound.controls.resume("alpha")
                assert (resumed := game_view(s, "alpha")) is not None and resumed.status == "active"
                raise RuntimeError("undone")
        except RuntimeError:
            pass
        after = game_view(s, "alpha")
        assert after is not None and after.status == "paused"  # the undone change is not remembered


def test_orders_are_filed_for_the_phase_the_transaction_sees(service: Games) -> None:
    """Orders filed, the phase processed and orders filed again, all in one transaction: the second set is
    filed for the new phase, not the one the first view showed."""
    _started(service)
    with service.db.transaction() as s:
        bound = Games(service.db, service.clock, s)
        assert bound.orders.submit("alpha", "France", ["A par - bur"]).phase == "Spring 1901 Movement"
        bound.adjudication.process("alpha")
        assert bound.orders.submit("alpha", "France", ["A bur - mun"]).phase == "Fall 1901 Movement"
    with service.db.transaction() as s:
        filed = s.execute(select(OrderSet.phase_index, OrderSet.lines).where(OrderSet.power == "France")).all()
    assert sorted((index, list(lines)) for index, lines in filed) == [(0, ["A par - bur"]), (1, ["A bur - mun"])]


def test_orders_from_a_mail_with_an_overlong_message_id_are_filed(service: Games) -> None:
    """The Message-ID is kept with the orders only as far as its column holds (PostgreSQL refuses more)."""
    _started(service)
    long_id = "<" + "x" * 1500 + "@example.org>"
    service.orders.submit("alpha", "France", ["A par - bur"], source_message_id=long_id)
    with service.db.transaction() as s:
        assert s.scalar(select(OrderSet.source_message_id)) == long_id[:998]


def test_draws_may_include_eliminated_powers_where_the_game_says_so() -> None:
    """draw.eliminated=include: an eliminated power may be named in a draw and is part of a DIAS draw; with the
    default it may not be named."""
    from judge.game.house_rules import DrawRules, HouseRuleError

    survivors, everyone = {"France", "Germany"}, {"France", "Germany", "Italy"}
    assert DrawRules(dias=True, eliminated="include").among(None, survivors, everyone) == everyone
    assert DrawRules(dias=False, eliminated="include").among(["France", "Italy"], survivors, everyone) == {
        "France",
        "Italy",
    }
    with pytest.raises(HouseRuleError, match="Italy: eliminated"):
        DrawRules(dias=False).among(["France", "Italy"], survivors, everyone)


@pytest.mark.parametrize("name", ["timing.manual", "manual"])
def test_both_spellings_of_the_manual_setting_take_effect(service: Games, name: str) -> None:
    """Issue 18, item 6: `SET timing.manual=true` (docs/deadlines.md's spelling) and `SET manual=true` mean one
    setting, and it is not confirmed and then ignored."""
    from judge.game.timing import timing_from_settings
    from judge.store import Game

    _started(service)
    service.setup.set_by_mail("alpha", [(name, "true")])
    with service.db.transaction() as s:
        settings = s.scalars(select(Game.settings).where(Game.name == "alpha")).one()
    assert timing_from_settings(settings).manual is True
    service.setup.set_by_mail("alpha", [("manual" if name == "timing.manual" else "timing.manual", "false")])
    with service.db.transaction() as s:
        settings = s.scalars(select(Game.settings).where(Game.name == "alpha")).one()
    assert timing_from_settings(settings).manual is False


def test_a_draw_vote_without_names_counts_whoever_survives_when_the_votes_are_counted(service: Games) -> None:
    """A vote cast before a power is eliminated still counts for the draw of the survivors afterwards."""
    _started(service)
    for power in POWERS[:-1]:
        service.talk.vote_draw("alpha", power, True)
    with service.db.transaction() as s:  # Turkey is wiped out (before its vote)
        from judge.store import Game

        game = s.scalars(select(Game).where(Game.name == "alpha")).one()
        position = dict(game.position or {})
        position["units"] = [u for u in position["units"] if u["power"] != "Turkey"]
        position["supply_centers"] = {p: c for p, c in position["supply_centers"].items() if p != "Turkey"}
        game.position = position
    with pytest.raises(GameError, match="eliminated"):
        service.talk.vote_draw("alpha", "Turkey", True)
    assert service.talk.vote_draw("alpha", "Russia", True) == sorted(POWERS[:-1])


def test_powers_in_civil_disorder_neither_vote_on_a_draw_nor_concede(service: Games) -> None:
    service.accounts.register("gm@example.org", "GM", "pw")
    service.seating.create_game("short", "standard", "gm@example.org", "pw")
    for power in ("France", "Germany"):
        service.accounts.register(f"{power.lower()}.s@example.org", power, "pw")
        service.seating.join("short", f"{power.lower()}.s@example.org", "pw", [power])
    assert "Austria" in service.seating.start("short", short=True)
    assert service.talk.vote_draw("short", "France", True) is None
    assert service.talk.vote_draw("short", "Germany", True) == sorted(POWERS)  # the draw includes every survivor


@pytest.mark.parametrize(
    ("first", "last", "why"),
    [("2026-12-01", "9999-12-31", "at most 90 days"), ("2026-12-05", "2026-12-01", "ends on or after")],
)
def test_an_absence_the_judge_cannot_keep_is_refused_with_why(service: Games, first: str, last: str, why: str) -> None:
    from datetime import date

    _started(service)
    with pytest.raises(GameError, match=why):
        service.setup.set_absence("alpha", "France", date.fromisoformat(first), date.fromisoformat(last))
