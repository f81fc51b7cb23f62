"""A player who holds several powers (a side: Hoplite Wars' Major and Minor, Heptadiplomacy's board-nations) joins
once, signs on once and orders all the side's powers, and gets one results mail; the engine treats the side as
one player for self-dislodgement and cutting support. Played through the real processor and a real database,
on a variant registered for the test that pairs England with France."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select
from test_commands import _started as started

from judge.engine import Rules
from judge.store import OrderSet, Seat, open_database
from judge.testing.mail_rig import Judge
from judge.variants import VARIANTS, Variant


class _PairedRules(Rules):
    variant = "paired"

    def fixed_sides(self) -> dict[str, tuple[str, ...]]:
        return {"west": ("England", "France")}


@pytest.fixture
def judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Judge]:
    """A judge on a real SQLite file that also knows the test's variant."""
    paired = Variant("paired", "England and France as one side", "standard", _PairedRules)
    monkeypatch.setitem(VARIANTS, "paired", paired)
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


PLAYERS = ("Austria", "England", "Germany", "Italy", "Russia", "Turkey")
"""six players for seven powers: whoever asks for England (or France) takes both"""


def _started(judge: Judge) -> None:
    started(judge, "pair", "paired", PLAYERS)


def test_a_side_needs_one_player_and_its_player_holds_a_seat_for_each_power(judge: Judge) -> None:
    _started(judge)
    assert "has started" in judge.outbound(kind="reply")[-1].get_content()
    with judge.db.transaction() as s:
        held = {seat.power: seat.player.address for seat in s.scalars(select(Seat)) if seat.player}
    assert held["England"] == held["France"] == "england@example.org"
    assert len(set(held.values())) == 6


def test_one_signon_orders_every_power_of_the_side_each_line_filed_for_its_unit(judge: Judge) -> None:
    _started(judge)
    text = judge.mail(
        "england@example.org", "SIGNON pair England englandpw\nF Lon - Eng\nA Par - Bur\nF Bre - Mao\nA Lvp - Yor\n"
    )
    assert "Orders for west in pair" in text
    for canonical in ("F lon - eng", "A par - bur", "F bre - mao", "A lvp - yor"):
        assert f"-> {canonical}" in text
    with judge.db.transaction() as s:
        sets = {o.power: o.lines for o in s.scalars(select(OrderSet))}
    assert sets == {"England": ["F Lon - Eng", "A Lvp - Yor"], "France": ["A Par - Bur", "F Bre - Mao"]}


def test_a_side_gets_one_results_mail_and_its_powers_do_not_dislodge_each_other(judge: Judge) -> None:
    _started(judge)
    judge.mail("england@example.org", "SIGNON pair England englandpw\nF Lon - Eng\nF Bre - Mao\nA Par - Bre\n")
    judge.mail("gm@example.org", "SIGNON pair MASTER gmpass\nPROCESS\n")
    spring = judge.outbound(kind="result", to="england@example.org")
    assert len(spring) == 1
    judge.mail("england@example.org", "SIGNON pair France englandpw\nF Eng - Bre\nF Mao S F Eng - Bre\n")
    judge.mail("gm@example.org", "SIGNON pair MASTER gmpass\nPROCESS\n")
    fall = judge.outbound(kind="result", to="england@example.org")[-1].get_content()
    assert "F Eng - Bre  (*bounce*)" in fall
    assert "cannot dislodge its own unit in Bre" in fall
