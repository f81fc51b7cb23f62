"""Orders on file (issue 43, item 1): every reply to a signed-on player ends with the side's orders now on file for
the phase, one line a unit, units without an order marked (njudge ends its replies with "Pending orders"; DPjudge
shows them by STATUS); ORDERS shows them and changes nothing; CLEAR withdraws all of them or those of the units
named, and a unit cleared is as if never ordered. Played through the real processor and commands on a real
database; the layout is docs/mail.md's ("Orders on file")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from test_sides_by_mail import PLAYERS, _PairedRules

from judge.store import OrderSet, open_database
from judge.testing.mail_rig import Judge, start_game
from judge.variants import VARIANTS, Variant

FRANCE = "SIGNON alpha France francepw\n"
GERMANY = "SIGNON alpha Germany germanypw\n"
GM = "SIGNON alpha MASTER gmpass\n"


@pytest.fixture
def judge(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Judge]:
    paired = Variant("paired", "England and France as one side", "standard", _PairedRules)
    monkeypatch.setitem(VARIANTS, "paired", paired)
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


def _block(reply: str) -> list[str]:
    """The reply's last block: the orders on file (it ends the reply)."""
    at = reply.rindex("Orders on file for")
    return reply[at:].rstrip("\n").splitlines()


def _sets(judge: Judge) -> dict[str, tuple[Any, ...]]:
    with judge.db.transaction() as s:
        return {o.power: (list(o.lines), list(o.checked), o.submitted_at) for o in s.scalars(select(OrderSet))}


def test_a_reply_to_a_partly_ordered_power_ends_with_its_orders_and_marks_the_unordered_unit(judge: Judge) -> None:
    start_game(judge)
    reply = judge.mail("france@example.org", FRANCE + "A Par - Bur\nF Bre - Kie\n")
    assert _block(reply) == [
        "Orders on file for France in alpha, Spring 1901 Movement:",
        "  F bre - kie         (void: kie is not next to bre for a fleet; the unit holds)",
        "  A mar               (no order: holds)",
        "  A par - bur",
    ]
    assert reply.rstrip().endswith("A par - bur")  # it ends the reply, after the deadline


def test_a_reply_without_orders_to_a_signed_on_player_ends_with_them_too(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", FRANCE + "A Par - Bur\n")
    reply = judge.mail("france@example.org", FRANCE + "SET WAIT\n")
    assert _block(reply)[1:] == ["  F bre               (no order: holds)", "  A mar               (no order: holds)",
                                 "  A par - bur"]  # fmt: skip
    assert "Orders on file" not in judge.mail("france@example.org", "HELP SIGNON\n")  # not signed on: no block


def test_orders_shows_them_and_changes_nothing(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", FRANCE + "A Par - Bur\nA Mar - Spa\n")
    before = _sets(judge)
    judge.clock.advance(timedelta(minutes=5))
    reply = judge.mail("france@example.org", FRANCE + "ORDERS\n")
    assert "> ORDERS\n   Orders on file for France in alpha, Spring 1901 Movement:\n" in reply
    assert "     A mar - spa\n" in reply
    assert _sets(judge) == before  # the same set, the same time of filing: nothing was written
    assert "Orders filed" not in reply and "replace" not in reply
    whole = judge.mail("france@example.org", FRANCE + "ORDERS FULL\n")  # bounded as every answer; FULL: all of it
    assert "> ORDERS FULL\n   Orders on file for France in alpha, Spring 1901 Movement:\n" in whole
    assert "     A mar - spa\n" in whole and _sets(judge) == before


def test_clear_withdraws_all_the_orders_and_the_units_hold_at_the_deadline(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", FRANCE + "A Par - Bur\nA Mar - Spa\nF Bre - Mao\n")
    reply = judge.mail("france@example.org", FRANCE + "CLEAR\n")
    assert "Withdrawn (these units are now without orders):" in reply
    assert "France: A par - bur" in reply and "France: F bre - mao" in reply
    assert all("(no order: holds)" in line for line in _block(reply)[1:])
    assert "France" not in _sets(judge)  # as a power that sent nothing: late as one, its units unordered
    judge.mail("gm@example.org", GM + "PROCESS\n")
    results = judge.outbound(kind="result", to="france@example.org")[-1].get_content()
    assert "A Par - Bur" not in results and "F Bre - Mao" not in results
    again = judge.mail("france@example.org", FRANCE + "ORDERS\n")
    assert _block(again)[0] == "Orders on file for France in alpha, Fall 1901 Movement:"


def test_clear_named_units_withdraws_only_theirs(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", FRANCE + "A Par - Bur\nA Mar - Spa\nF Bre - Mao\n")
    reply = judge.mail("france@example.org", FRANCE + "CLEAR A Par, F Bre\n")
    assert "France: A par - bur" in reply and "France: F bre - mao" in reply
    assert _block(reply)[1:] == ["  F bre               (no order: holds)", "  A mar - spa",
                                 "  A par               (no order: holds)"]  # fmt: skip
    lines, checked, _ = _sets(judge)["France"]
    assert lines == ["A Mar - Spa"] and [c["order"] for c in checked] == ["A mar - spa"]
    judge.mail("gm@example.org", GM + "PROCESS\n")
    results = judge.outbound(kind="result", to="france@example.org")[-1].get_content()
    assert "A Mar - Spa" in results and "A Par - Bur" not in results


def test_clear_of_a_unit_not_ordered_or_not_there_says_so(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", FRANCE + "A Par - Bur\n")
    reply = judge.mail("france@example.org", FRANCE + "CLEAR A Mar, A Mun\n")
    assert "No order was on file for the units named." in reply
    assert _sets(judge)["France"][0] == ["A Par - Bur"]
    wrong = judge.mail("france@example.org", FRANCE + "CLEAR A Xyzzy\n")
    assert "** 'A Xyzzy' names no unit or place on this board" in wrong
    mixed = judge.mail("france@example.org", FRANCE + "CLEAR A Par, F Bre\n")
    assert "France: A par - bur" in mixed and "No order was on file for F Bre." in mixed


def test_clear_files_the_orders_above_it_first(judge: Judge) -> None:
    """A mail's lines are taken in the order written: orders above CLEAR are filed, then CLEAR acts on them."""
    start_game(judge)
    reply = judge.mail("france@example.org", FRANCE + "A Par - Bur\nA Mar - Spa\nCLEAR A Mar\n")
    assert _block(reply)[1:] == ["  F bre               (no order: holds)", "  A mar               (no order: holds)",
                                 "  A par - bur"]  # fmt: skip


def test_a_side_of_several_powers_sees_all_its_powers_and_clears_them_all(judge: Judge) -> None:
    start_game(judge, "pair", "paired", PLAYERS)
    reply = judge.mail("england@example.org", "SIGNON pair England englandpw\nF Lon - Eng\nA Par - Bur\n")
    block = _block(reply)
    assert block[0] == "Orders on file for west in pair, Spring 1901 Movement:"
    assert block[block.index("England:") + 1 :][:3] == ["  F edi               (no order: holds)", "  F lon - eng",
                                                        "  A lvp               (no order: holds)"]  # fmt: skip
    assert "France:" in block and "  A par - bur" in block and "  A mar               (no order: holds)" in block
    void = judge.mail("england@example.org", "SIGNON pair England englandpw\nA Mar - Mun\n")
    assert "  France: A mar - mun (void)" in void  # the report's list, as the results will print it (issue 40)
    assert "  A mar - mun         (void: " in _block(void)[_block(void).index("France:") :][2]
    cleared = judge.mail("england@example.org", "SIGNON pair France englandpw\nCLEAR\n")
    assert "England: F lon - eng" in cleared and "France: A mar - mun" in cleared
    assert _sets(judge) == {}


def _to_the_retreat(judge: Judge) -> None:
    """Spring: Germany takes Ruhr and Denmark and France Burgundy; Fall: Germany dislodges A Bur (Mun supports)."""
    judge.mail("germany@example.org", GERMANY + "A Mun - Ruh\nA Ber - Mun\nF Kie - Den\n")
    judge.mail("france@example.org", FRANCE + "A Par - Bur\n")
    judge.mail("gm@example.org", GM + "PROCESS\n")
    judge.mail("germany@example.org", GERMANY + "A Ruh - Bur\nA Mun S A Ruh - Bur\nF Den H\n")
    judge.mail("france@example.org", FRANCE + "A Bur H\n")
    judge.mail("gm@example.org", GM + "PROCESS\n")


def test_retreat_and_adjustment_phases_show_what_each_phase_orders(judge: Judge) -> None:
    start_game(judge)
    _to_the_retreat(judge)
    retreat = _block(judge.mail("france@example.org", FRANCE + "ORDERS\n"))
    assert retreat == ["Orders on file for France in alpha, Fall 1901 Retreat:",
                       "  A bur               (no order: disbanded)"]  # fmt: skip
    ordered = _block(judge.mail("france@example.org", FRANCE + "A Bur - Pic\n"))
    assert ordered[1:] == ["  A bur R pic"]
    judge.mail("gm@example.org", GM + "PROCESS\n")
    winter = _block(judge.mail("germany@example.org", GERMANY + "ORDERS\n"))
    assert winter == ["Orders on file for Germany in alpha, Winter 1901 Adjustment:",
                      "  (1 build(s) due; builds not ordered are waived)"]  # fmt: skip
    built = _block(judge.mail("germany@example.org", GERMANY + "Build A Kie\n"))
    assert built[1:] == ["  Build A kie", "  (1 build(s) due; builds not ordered are waived)"]
    cleared = _block(judge.mail("germany@example.org", GERMANY + "CLEAR\n"))
    assert cleared[1:] == ["  (1 build(s) due; builds not ordered are waived)"]


def test_a_hepta_side_sees_its_seven_board_nations(judge: Judge) -> None:
    countries = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE hep hepta joinpw assignment=a")
    for name in countries:
        judge.mail(f"{name.lower()}@example.org", f"REGISTER {name} Player pw{name.lower()}")
        judge.mail(f"{name.lower()}@example.org", f"JOIN hep joinpw {name}")
    reply = judge.mail("england@example.org", "SIGNON hep England pwengland\nF 1:lon - 1:eng\n")
    block = _block(reply)
    assert block[0] == "Orders on file for England in hep, Spring 1901 Movement:"
    heads = [line for line in block[1:] if line.endswith(":") and not line.startswith(" ")]
    assert heads == [f"{board}:England:" for board in range(1, 8)]
    assert "  F 1:lon - 1:eng" in block and "  F 2:lon             (no order: holds)" in block
    cleared = judge.mail("england@example.org", "SIGNON hep England pwengland\nCLEAR F 1:lon\n")
    assert "1:England: F 1:lon - 1:eng" in cleared
    assert "  F 1:lon             (no order: holds)" in _block(cleared)


def test_where_the_block_would_take_a_reply_past_its_bound_it_is_one_line(judge: Judge) -> None:
    """docs/mail.md, "Long replies": a reply stays under `REPLY_LINES`; a Hepta side of 21 units after a long
    answer (the whole PREVIEW it asked for) gets its orders on file in one line, and
    ORDERS alone shows each."""
    countries = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE hep hepta joinpw assignment=a")
    for name in countries:
        judge.mail(f"{name.lower()}@example.org", f"REGISTER {name} Player pw{name.lower()}")
        judge.mail(f"{name.lower()}@example.org", f"JOIN hep joinpw {name}")
    holds = "\n".join(f"{unit} {board}:{at} H" for board in range(1, 8) for unit, at in (("F", "lon"), ("F", "edi")))
    judge.mail("england@example.org", f"SIGNON hep England pwengland\n{holds}\n")
    reply = judge.mail("england@example.org", f"SIGNON hep England pwengland\nPREVIEW FULL\n{holds}\n")
    assert "(no order: holds)" not in reply  # not the block: the reply is long already
    assert "Orders on file for England in hep, Spring 1901 Movement: 14 of 21 units ordered." in reply
    assert "Send ORDERS alone to see each." in reply
    shown = judge.mail("england@example.org", "SIGNON hep England pwengland\nORDERS\n")
    assert "  F 1:lon H" in shown and "  A 1:lvp             (no order: holds)" in shown


def test_the_view_takes_the_phase_so_orders_for_a_later_phase_can_be_shown(judge: Judge) -> None:
    """The hook for njudge's PHASE (orders for a later phase): the view of a phase not yet reached lists what is
    on file for it alone, with no position to hold it up to."""
    from judge.game import Games
    from judge.render.orders import on_file_lines

    start_game(judge)
    judge.mail("france@example.org", FRANCE + "A Par - Bur\n")
    later = Games(judge.db, judge.clock).on_file.view("alpha", "France", phase=1)
    assert later.phase_type is None and later.powers[0].units == () and later.powers[0].others == ()
    shown = ["Orders on file for France in alpha, phase 1:", "  (nothing to order, nothing on file)"]
    assert on_file_lines(later) == shown
