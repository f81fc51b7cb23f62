"""Issue 40: attendance is reckoned per power owed and reported per side. The deadline's rules
(`judge.game.deadlines.plan`, a pure function) wait for every power that owes orders -- a Hepta player's seven
board-nations, a Hoplite Major and its Minor, each apart -- and goes early only when each has orders on file without
errors (docs/deadlines.md, "What happens"); the lists name a side once, with the powers it still owes when they are
not all it has."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import select

from judge.engine.phase import PhaseType
from judge.game.attendance import held_away, owed_by_sides, owed_text, owed_texts
from judge.game.checking import read_orders, route_lines
from judge.game.deadlines import Look
from judge.game.deadlines import plan as _plan
from judge.game.reads import side_status
from judge.store import Game, Marks, Seat, SeatStatus, open_database
from judge.testing.mail_rig import Judge
from judge.variants import get_variant

NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
DEADLINE = NOW + timedelta(days=2)

NO_MARKS = Marks()
"""a phase the judge has done nothing for yet"""

HEPTA_A = get_variant("hepta").sides({"assignment": "a"})
ENGLAND = next(side for side in HEPTA_A if side.name == "England")
FRANCE = next(side for side in HEPTA_A if side.name == "France")


def _look(
    due: set[str],
    sets: dict[str, bool],
    *,
    phase: PhaseType = PhaseType.MOVEMENT,
    seats: dict[str, str] | None = None,
    settings: dict[str, Any] | None = None,
    deadline: datetime = DEADLINE,
    marks: Marks = NO_MARKS,
    away: dict[str, list[str]] | None = None,
) -> Look:
    """A game's look as the keeper reads it: every power due has a seat with a player (`seats`: other statuses)."""
    status = {power: SeatStatus.PLAYING for power in due} | (seats or {})
    return Look(
        3,
        settings or {},
        marks,
        away or {},
        deadline,
        phase,
        frozenset(due),
        tuple((p, s, False) for p, s in status.items()),
        sets,
    )


def test_a_side_that_ordered_one_board_of_seven_is_not_processed_early() -> None:
    """The CW Heptadiplomacy repro: each player had sent orders for some board; 35 of 49 board-nations were not
    ordered, and the phase went early. Now the six boards not ordered are missing, and the phase waits."""
    due = {power for side in HEPTA_A for power in side.powers}
    sets = {side.powers[0]: False for side in HEPTA_A} | {p: False for p in FRANCE.powers}
    plan = _plan(_look(due, sets), NOW)
    assert plan.early is None
    assert plan.missing == sorted(due - set(sets))
    assert len(plan.missing) == 6 * 6


def test_the_phase_goes_early_once_every_power_owed_has_orders() -> None:
    due = {power for side in HEPTA_A for power in side.powers}
    assert _plan(_look(due, dict.fromkeys(due, False)), NOW).early == "every order is in"


def test_a_hoplite_winter_waits_for_a_minor_that_owes_a_removal_while_its_major_has_orders() -> None:
    """The Hoplite repro: Sparta's builds on file, Elatea owing a removal: not early; Elatea is missing."""
    plan = _plan(
        _look({"Sparta", "Elatea", "Athens"}, {"Sparta": False, "Athens": False}, phase=PhaseType.ADJUSTMENT), NOW
    )
    assert plan.early is None and plan.missing == ["Elatea"]


def test_orders_with_errors_for_one_board_hold_the_phase() -> None:
    due = set(ENGLAND.powers)
    sets = dict.fromkeys(due, False) | {"3:England": True}
    plan = _plan(_look(due, sets), NOW)
    assert plan.early is None and plan.missing == [] and plan.faulty == ["3:England"]


def test_powers_in_civil_disorder_or_held_away_are_not_waited_for() -> None:
    """docs/deadlines.md: civil disorder and `absence.mode=hold` excuse a power, each apart."""
    due = set(ENGLAND.powers) | {"1:France"}
    hold = {"absence": {"mode": "hold"}}
    away = {"1:France": [(NOW - timedelta(days=1)).isoformat(), (NOW + timedelta(days=3)).isoformat()]}
    sets = dict.fromkeys(ENGLAND.powers[1:], False)
    plan = _plan(_look(due, sets, seats={"1:England": SeatStatus.CIVIL_DISORDER}, settings=hold, away=away), NOW)
    assert plan.early == "every order is in"


def test_a_side_partly_in_is_reminded_and_late_for_what_it_still_owes() -> None:
    due = set(ENGLAND.powers)
    sets = dict.fromkeys(ENGLAND.powers[:5], False)
    reminded = _plan(_look(due, sets), DEADLINE - timedelta(hours=1))
    assert reminded.remind and reminded.missing == ["6:England", "7:England"]
    late = _plan(_look(due, sets), DEADLINE + timedelta(minutes=1))
    assert late.late and late.missing == ["6:England", "7:England"]
    assert not _plan(_look(due, dict.fromkeys(due, False), marks=Marks(no_early=3)), DEADLINE).late


def test_a_side_is_named_once_with_the_powers_it_still_owes() -> None:
    """Reported per side: the side alone when it owes for all it has, else with the powers, never 49 names."""
    assert owed_text(ENGLAND, list(ENGLAND.powers)) == "England"
    assert owed_text(ENGLAND, ["3:England", "7:England"]) == "England (3:England, 7:England)"
    hoplite = next(side for side in get_variant("hoplite").sides() if side.name == "Sparta")
    assert owed_text(hoplite, ["Elatea"]) == "Sparta + Elatea (Elatea)"
    every = [power for side in HEPTA_A for power in side.powers]
    assert owed_texts(HEPTA_A, every) == sorted(side.name for side in HEPTA_A)
    assert [side.name for side, _ in owed_by_sides(HEPTA_A, ["7:England", "1:France"])] == ["England", "France"]


def test_a_hepta_player_waives_a_boards_builds_by_naming_it() -> None:
    """A Hepta player signed on as board 1 waives board 3's build with `3:England: Waive`: the line is filed for
    3:England (a waive names no unit; the power written before it says whose it is), so that board is heard."""
    variant = get_variant("hepta")
    rules = variant.rules({"assignment": "a"})
    position = variant.starting_position()
    lines = ["3:England: Waive", "Waive", "7:France: Waive"]
    owners = route_lines(rules, position, ENGLAND.powers, "1:England", read_orders(rules, lines))
    assert owners == ["3:England", "1:England", "1:England"]  # France's board is not his: left with the sign-on


def test_list_shows_a_side_late_for_one_board_and_not_eliminated_for_one() -> None:
    """LIST names a side's state: late when any power of it was late (counted per power), eliminated only when
    every power of it is (a Hepta board-nation knocked out leaves its player in the game)."""
    seats = [Seat(power=power, status=SeatStatus.PLAYING) for power in ENGLAND.powers]
    assert side_status(seats) == SeatStatus.PLAYING
    seats[0].status = SeatStatus.ELIMINATED
    assert side_status(seats) == SeatStatus.PLAYING
    seats[6].status = SeatStatus.LATE
    assert side_status(seats) == SeatStatus.LATE
    seats[5].status = SeatStatus.ABANDONED
    assert side_status(seats) == SeatStatus.ABANDONED
    assert side_status([Seat(power=p, status=SeatStatus.ELIMINATED) for p in ENGLAND.powers]) == "eliminated"


def test_a_hepta_player_late_for_one_board_is_listed_late_once(tmp_path: Path) -> None:
    """By mail: England orders six boards of seven; at PROCESS the GM's reply names him with the seventh, and LIST
    shows his side late, once."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    try:
        _hepta_by_mail(judge)
        reply = judge.mail("england@example.org", "SIGNON hep England pwengland\n" + "\n".join(
            f"F {k}:lon - {k}:eng" for k in range(1, 7)))  # fmt: skip
        assert "Still owed: 7:England." in reply
        processed = judge.mail("gm@example.org", "SIGNON hep MASTER gmpass\nPROCESS")
        assert "England (7:England)" in processed
        listed = judge.mail("x@example.org", "LIST hep")
        england = [line for line in listed.splitlines() if "England Player" in line]
        assert len(england) == 1 and england[0].split()[-1] == "late", england
    finally:
        db.dispose()


def test_a_hepta_players_absence_covers_his_seven_board_nations(tmp_path: Path) -> None:
    """An absence is the player's (docs/deadlines.md, "Several powers to a player"): SET ABSENCE from any sign-on
    is kept for every power of his side, so under `absence.mode=hold` the phase waits for none of his boards, and
    under `extend` a deadline moves whichever of his boards owes orders; SET NO ABSENCE withdraws it for all."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    try:
        _hepta_by_mail(judge, "absence.mode=hold")
        today = judge.clock.now().date()
        away = f"SET ABSENCE {today} TO {today + timedelta(days=3)}"
        assert "away from" in judge.mail("england@example.org", f"SIGNON hep 3:England pwengland\n{away}")
        with db.transaction() as s:
            settings, kept = s.execute(select(Game.settings, Game.absences).where(Game.name == "hep")).one()
        assert sorted(kept) == sorted(ENGLAND.powers)
        assert held_away(settings, kept, judge.clock.now()) == set(ENGLAND.powers)
        judge.mail("england@example.org", "SIGNON hep England pwengland\nSET NO ABSENCE")
        with db.transaction() as s:
            kept = s.scalars(select(Game.absences).where(Game.name == "hep")).one()
        assert not kept
    finally:
        db.dispose()


def _hepta_by_mail(judge: Judge, *settings: str) -> None:
    """A CW Heptadiplomacy game (option A) created by its GM and joined by a player a country."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", f"CREATE hep hepta joinpw assignment=a {' '.join(settings)}")
    for side in HEPTA_A:
        address = f"{side.name.lower()}@example.org"
        judge.mail(address, f"REGISTER {side.name} Player pw{side.name.lower()}")
        judge.mail(address, f"JOIN hep joinpw {side.name}")
