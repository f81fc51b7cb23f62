"""Issue 43, item 2: orders for a later phase, as njudge's `PHASE season year phase` takes them (njudge's data/index:
"PHASE season year phase: to specify that any following orders should be held until the specified phase before
processing"). They are held as read, become the side's orders when their phase opens, each checked against the
position then, and the player is told; orders for a phase that never comes are dropped, and he is told that too.
docs/deadlines.md, "Orders for a later phase". In process (the mail rig: real SQLite, the real processor and
keeper); tests/test_deadlines_by_mail.py plays the same through Dovecot."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.engine.phase import Phase, PhaseType
from judge.game import Games
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Game, LaterOrderSet, OrderSet, open_database
from judge.testing.mail_rig import CONFIG, Judge, start_game
from judge.testing.tables import POWERS
from judge.variants import get_variant

HOLDS = {
    "Austria": "A vie H\nA bud H\nF tri H",
    "England": "F lon H\nF edi H\nA lvp H",
    "France": "A par H\nA mar H\nF bre H",
    "Germany": "A ber H\nA mun H\nF kie H",
    "Italy": "A rom H\nA ven H\nF nap H",
    "Russia": "A mos H\nA war H\nF sev H\nF stp/sc H",
    "Turkey": "A con H\nA smy H\nF ank H",
}


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    j = Judge(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    start_game(j)
    yield j
    j.db.dispose()


def _orders(judge: Judge, power: str, body: str) -> str:
    return judge.mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\n{body}\n")


def _play(judge: Judge, orders: dict[str, str]) -> list[str]:
    """Every power orders (holds where `orders` names none) and the keeper does what is due."""
    for power in POWERS:
        _orders(judge, power, orders.get(power, HOLDS[power]))
    return DeadlineKeeper(judge.db, CONFIG, judge.clock).tick()


def _phase(judge: Judge) -> str:
    with judge.db.transaction() as s:
        game = s.scalars(select(Game)).one()
        assert game.position is not None
        phase = game.position["phase"]
        return f"{phase['season']} {phase['year']} {phase['type']}"


def _text(mail: EmailMessage) -> str:
    body = mail.get_content()
    assert isinstance(body, str)
    return body.replace("\r\n", "\n")


def _to_fall_with_munich_attacked(judge: Judge) -> None:
    """Spring 1901: France into Burgundy and Austria into Tyrolia, next to Munich."""
    _play(judge, {"France": "A par - bur\nA mar H\nF bre H", "Austria": "A vie - tyr\nA bud H\nF tri H"})
    assert _phase(judge) == "Fall 1901 Movement"


FALL_ATTACK = {"France": "A bur - mun\nA mar H\nF bre H", "Austria": "A tyr S A bur - mun\nA bud H\nF tri H"}


def test_retreats_sent_in_advance_become_the_orders_of_the_retreat_phase_and_are_used(judge: Judge) -> None:
    """A player going away sends his retreat in advance; when the phase opens it is his order on file, checked
    then, and the phase goes on it (here at once: the only order owed is in)."""
    _to_fall_with_munich_attacked(judge)
    reply = _orders(judge, "Germany", "A mun H\nA ber H\nF kie H\nPHASE Fall 1901 Retreat\nA mun - sil")
    assert "held for Fall 1901 Retreat" in reply and "  A mun - sil" in reply
    with judge.db.transaction() as s:
        assert s.scalars(select(LaterOrderSet.lines)).one() == ["A mun - sil"]
        # the lines before PHASE are the Fall's orders, on file now
        fall = select(OrderSet.lines).where(OrderSet.power == "Germany", OrderSet.phase_index == 1)
        assert s.scalars(fall).one() == [
            "A mun H",
            "A ber H",
            "F kie H",
        ]
    _play(judge, {**FALL_ATTACK, "Germany": "A mun H\nA ber H\nF kie H"})
    told = [m for m in judge.outbound(kind="notice", to="germany@example.org") if "on file" in str(m["Subject"])]
    assert len(told) == 1 and "A mun - sil" in _text(told[0]) and "**" not in _text(told[0])
    assert _phase(judge) == "Winter 1901 Adjustment"  # the retreat went with the order held for it
    with judge.db.transaction() as s:
        game = s.scalars(select(Game)).one()
        assert game.position is not None
        assert {"power": "Germany", "unit": "A", "at": "sil"} in game.position["units"]
        assert s.scalars(select(LaterOrderSet)).all() == []  # used, and gone


def test_orders_held_for_a_phase_are_refused_then_with_their_reason_when_illegal_then(judge: Judge) -> None:
    """Conditional on the position then: a retreat into a province held by a unit is refused when the phase opens
    (not when it was sent), the player is told why, and the phase waits for his orders."""
    _to_fall_with_munich_attacked(judge)
    _orders(judge, "Germany", "PHASE F1901R\nA mun - tyr")  # njudge's code names the phase too
    _play(judge, FALL_ATTACK)
    assert _phase(judge) == "Fall 1901 Retreat"  # the order on file has an error: the phase waits
    told = [m for m in judge.outbound(kind="notice", to="germany@example.org") if "on file" in str(m["Subject"])]
    assert len(told) == 1
    text = _text(told[0])
    assert "A mun - tyr" in text and "**" in text and "refused" in text
    with judge.db.transaction() as s:
        assert s.scalars(
            select(OrderSet.has_errors).where(OrderSet.power == "Germany", OrderSet.phase_index == 2)
        ).one()


def test_orders_for_a_phase_that_never_comes_are_dropped_and_the_player_told(judge: Judge) -> None:
    """Spring 1901 with nobody dislodged has no retreat phase: the orders held for it are dropped when Fall opens."""
    reply = _orders(judge, "England", "PHASE Spring 1901 Retreats\nF lon - nth")
    assert "held for Spring 1901 Retreat" in reply
    _play(judge, {})
    told = [m for m in judge.outbound(kind="notice", to="england@example.org") if "not used" in str(m["Subject"])]
    assert len(told) == 1 and "Fall 1901 Movement" in _text(told[0])
    with judge.db.transaction() as s:
        assert s.scalars(select(LaterOrderSet)).all() == []


def test_a_phase_line_is_read_as_meant_or_refused(judge: Judge) -> None:
    """The phase under way is no later phase: the orders are for it. A past phase, or words that name no phase of
    the game, are refused, quoting the line; a later PHASE in the same mail replaces the first for the lines after
    it; a second PHASE mail for one phase replaces the orders held for it."""
    now = _orders(judge, "France", "PHASE Spring 1901 Movement\nA par - bur")
    assert "is the phase under way" in now and "Orders for France in alpha, Spring 1901 Movement" in now
    past = _orders(judge, "France", "PHASE Spring 1900 Movement\nA par - bur")
    assert "PHASE Spring 1900 Movement" in past and "is past" in past
    with judge.db.transaction() as s:
        assert s.scalars(select(LaterOrderSet)).all() == []  # the lines after a refused PHASE are not held
    wrong = _orders(judge, "France", "PHASE Fall 1901\nA par - bur")
    assert "PHASE Fall 1901 Retreat" in wrong  # says how to write it
    two = _orders(judge, "France", "PHASE Fall 1901 Retreat\nA par - pic\nPHASE Winter 1901 Builds\nBuild A par")
    assert "held for Fall 1901 Retreat" in two and "held for Winter 1901 Adjustment" in two
    again = _orders(judge, "France", "PHASE Fall 1901 Retreat\nA par - gas")
    assert "they replace those held before" in again
    with judge.db.transaction() as s:
        held = {phase: lines for phase, lines in s.execute(select(LaterOrderSet.phase, LaterOrderSet.lines))}
    assert held == {"F1901R": ["A par - gas"], "W1901A": ["Build A par"]}  # stored by the phase's own code


def test_the_orders_on_file_block_can_show_the_orders_held_for_later_phases(judge: Judge) -> None:
    """The view a reply's "orders on file" block shows (`LaterOrders.on_file`): by phase, earliest first, or for
    one phase."""
    _orders(judge, "France", "PHASE Winter 1901 Builds\nBuild A par\nPHASE Fall 1901 Retreat\nA par - pic")
    games = Games(judge.db, judge.clock).later
    held = games.on_file("alpha", "France")
    assert [(h.phase, h.code, h.lines) for h in held] == [
        ("Fall 1901 Retreat", "F1901R", ("A par - pic",)),
        ("Winter 1901 Adjustment", "F1901B", ("Build A par",)),
    ]
    winter = games.on_file("alpha", "France", Phase("Winter", 1901, PhaseType.ADJUSTMENT))
    assert [h.code for h in winter] == ["F1901B"]
    assert games.on_file("alpha", "England") == []  # a player sees his own, never another's


def test_every_reply_ends_with_the_orders_held_for_later_phases_too(judge: Judge) -> None:
    """Issue 43 item 1 with item 2: the orders on file a reply ends with include what the side holds for later
    phases, by phase, as written; another power's are never shown."""
    _orders(judge, "France", "PHASE Winter 1901 Builds\nBuild A par")
    reply = _orders(judge, "France", "ORDERS")
    held = reply[reply.index("Orders held for later phases") :]
    assert "Winter 1901 Adjustment (F1901B):" in held and "    Build A par" in held
    assert "Orders held for later phases" not in _orders(judge, "England", "ORDERS")


def test_a_side_of_several_powers_has_its_held_lines_filed_with_the_power_each_names(tmp_path: Path) -> None:
    """A CW Heptadiplomacy player (seven board-nations) sends his Fall moves for every board in Spring: when the
    Fall opens each line is filed with the board-nation whose unit it names, as a mail's are (docs/mail.md,
    "Orders: what a later mail replaces"), and he is told once, for his side."""
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'hep.sqlite'}"))
    try:
        judge.mail("gm@example.org", "REGISTER Game Master gmpass")
        judge.mail("gm@example.org", "CREATE hep hepta joinpw assignment=a")
        for side in get_variant("hepta").sides({"assignment": "a"}):
            address = f"{side.name.lower()}@example.org"
            judge.mail(address, f"REGISTER {side.name} Player pw{side.name.lower()}")
            judge.mail(address, f"JOIN hep joinpw {side.name}")
        moves = "\n".join(f"F {k}:lon - {k}:eng" for k in range(1, 8))
        held = judge.mail("england@example.org", f"SIGNON hep England pwengland\nPHASE Fall 1901 Movement\n{moves}")
        assert "held for Fall 1901 Movement" in held
        judge.mail("gm@example.org", "SIGNON hep MASTER gmpass\nPROCESS")
        with judge.db.transaction() as s:
            filed = {
                power: lines
                for power, lines in s.execute(select(OrderSet.power, OrderSet.lines).where(OrderSet.phase_index == 1))
            }
        assert filed == {f"{k}:England": [f"F {k}:lon - {k}:eng"] for k in range(1, 8)}
        told = [m for m in judge.outbound(kind="notice", to="england@example.org") if "on file" in str(m["Subject"])]
        assert len(told) == 1 and "**" not in _text(told[0])
    finally:
        judge.db.dispose()
