"""Issue 43 item 8: SUMMARY and HISTORY as archives use them, from games played by mail in-process (the real
processor and commands on a real SQLite file).

The anchors: njudge's `summary.c` (each power with its player, and under it "from S1903M" with each newcomer, beside
the centre counts by year; gunboat summaries name nobody but to the master) and `data/history` (what an observer read
over a period: turn results and broadcast press, never partial press; `FROM date TO date`, `LINES n`, 1000 lines by
default). The answer too long for one mail comes in parts, each saying "part n of m"."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.clock import as_utc
from judge.render.archive import parts
from judge.store import Game, PhaseRecord, open_database
from judge.testing.mail_rig import Judge, start_game
from judge.testing.tables import POWERS

GM = "gm@example.org"
VOLUNTEER = ("vera@example.org", "Vera Volunteer")
REPLACEMENT = ("rex@example.org", "Rex Replacement")
HOLD = {
    "Austria": "A vie H\nA bud H\nF tri H",
    "England": "F lon H\nF edi H\nA lvp H",
    "France": "F bre H\nA par H\nA mar H",
    "Germany": "F kie H\nA ber H\nA mun H",
    "Italy": "F nap H\nA rom H\nA ven H",
    "Russia": "F stp/sc H\nA mos H\nA war H\nF sev H",
    "Turkey": "F ank H\nA con H\nA smy H",
}


def _address(power: str) -> str:
    return f"{power.lower()}@example.org"


def _gm(judge: Judge, game: str, *lines: str) -> str:
    return judge.mail(GM, "\n".join([f"SIGNON {game} MASTER gmpass", *lines]))


def _order(judge: Judge, game: str, power: str, orders: str, address: str | None = None, pw: str = "") -> None:
    reply = judge.mail(address or _address(power), f"SIGNON {game} {power} {pw or power.lower() + 'pw'}\n{orders}")
    assert "Orders for" in reply or "orders" in reply.lower(), reply


def _process(judge: Judge, game: str) -> None:
    """Past the deadline, then the GM's PROCESS (whoever has not ordered is late: njudge's NMR)."""
    with judge.db.transaction() as s:
        deadline = as_utc(s.scalars(select(Game.deadline).where(Game.name == game)).one())
    judge.clock.set(deadline + timedelta(hours=1))
    assert "Phase processed" in _gm(judge, game, "PROCESS")


@pytest.fixture(scope="module")
def judge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Judge]:
    path: Path = tmp_path_factory.mktemp("archives") / "judge.sqlite"
    db = open_database(f"sqlite:///{path}")
    judge = Judge(db)
    _play_alpha(judge)
    yield judge
    db.dispose()


def _play_alpha(judge: Judge) -> None:
    """Spring 1901: France takes Spain's road (A mar - spa), England broadcasts, France writes to England alone;
    Turkey never orders (abandoned after 2 missed phases, this game's `abandon_after`). Fall 1901: France holds Spain
    (4 centres), England broadcasts again. Winter 1901: France's build is not sent. Spring 1902: France resigns and a
    volunteer takes the place over; the GM replaces Austria; a broadcast is sent in the phase under way."""
    start_game(judge, "alpha")
    assert "Set" in _gm(judge, "alpha", "SET abandon_after=2")
    for power in POWERS[:-1]:
        _order(judge, "alpha", power, "A par - bur\nA mar - spa\nF bre H" if power == "France" else HOLD[power])
    spring = "SIGNON alpha England englandpw\nBROADCAST\nSpring greetings from London.\nENDPRESS"
    judge.mail(_address("England"), spring)
    judge.mail(_address("France"), "SIGNON alpha France francepw\nPRESS TO England\nOur secret plan.\nENDPRESS")
    _process(judge, "alpha")
    for power in POWERS[:-1]:
        _order(judge, "alpha", power, "A spa H\nA bur H\nF bre H" if power == "France" else HOLD[power])
    judge.mail(_address("England"), "SIGNON alpha England englandpw\nBROADCAST\nAutumn in London.\nENDPRESS")
    _process(judge, "alpha")
    _process(judge, "alpha")  # Winter 1901: France's build never came
    assert "You have resigned" in judge.mail(_address("France"), "SIGNON alpha France francepw\nRESIGN")
    for address, name in (VOLUNTEER, REPLACEMENT):
        judge.mail(address, f"REGISTER {name} newpw")
    assert "You have taken over France" in judge.mail(VOLUNTEER[0], "TAKEOVER alpha France newpw")
    assert "now plays Austria" in _gm(judge, "alpha", f"REPLACE Austria {REPLACEMENT[0]}")
    judge.mail(_address("Italy"), "SIGNON alpha Italy italypw\nBROADCAST\nStill here in Rome.\nENDPRESS")


# --- SUMMARY --------------------------------------------------------------------------------------------------


def test_summary_names_each_sides_players_and_every_change_with_its_phase_and_centres(judge: Judge) -> None:
    """njudge's summary: each power's player and, under it, each newcomer "from" the phase he came in; the issue:
    every takeover, replacement, resignation and abandonment, with the side's centre count then."""
    summary = judge.mail("someone@example.org", "SUMMARY alpha")
    lines = [line.strip() for line in summary.splitlines()]
    assert "England  England Player" in lines
    assert "France   France Player" in lines
    assert "in S1902M: France Player resigned; 4 centres then; left open" in lines
    assert "from S1902M: Vera Volunteer, a volunteer (TAKEOVER); 4 centres then" in lines
    assert "from S1902M: Rex Replacement, put in by the GM (REPLACE); 3 centres then" in lines
    assert "in F1901M: Turkey Player abandoned it (too many phases without orders); 3 centres then; left open" in lines
    # the changes come in the order they happened, under their side
    at = lines.index("France   France Player")
    assert lines[at + 1].startswith("in S1902M: France Player resigned") and lines[at + 2].startswith("from S1902M")
    # the centre table stays as it was: a column a side, France's Spain counted from 1901
    header = next(line for line in lines if line.startswith("Austria"))
    row = next(line for line in lines if line.startswith("1901")).split()
    assert row[1 + header.split().index("France")] == "4"
    assert "vera@example.org" not in summary and "rex@example.org" not in summary  # never an address


def test_a_gunboat_summary_hides_the_names_from_all_but_the_gm(judge: Judge) -> None:
    """info.gunboat: nobody but the GM learns who plays which power; njudge's summary hid the names ("Somebody")
    but in the master's copy."""
    assert "created" in judge.mail(GM, "CREATE boat standard joinpw gunboat=on")
    for power in POWERS:  # registered for alpha
        assert "joined" in judge.mail(_address(power), f"JOIN boat joinpw {power}")
    for power in POWERS:
        _order(judge, "boat", power, HOLD[power])
    _process(judge, "boat")
    assert "now plays Italy" in _gm(judge, "boat", f"REPLACE Italy {REPLACEMENT[0]}")
    names = [f"{power} Player" for power in POWERS] + [REPLACEMENT[1]]
    for reader in (_address("England"), "someone@example.org"):
        shown = judge.mail(reader, "SUMMARY boat")
        assert "(hidden)" in shown and "from F1901M: (hidden), put in by the GM (REPLACE); 3 centres then" in shown
        assert [name for name in names if name in shown] == []
        history = judge.mail(reader, "HISTORY boat ALL")
        assert [name for name in names if name in history] == []
    to_gm = _gm(judge, "boat", "SUMMARY boat")
    assert "from F1901M: Rex Replacement, put in by the GM (REPLACE)" in to_gm
    assert "England  England Player" in to_gm  # his seat names him: the start mail kept no name
    # Italy's first player left before the names were made known: the judge never stored who he was
    assert "Italy    (not kept: a gunboat game's first player)" in to_gm


# --- HISTORY --------------------------------------------------------------------------------------------------


def _answer(reply: str, quoted: str) -> list[str]:
    """The lines a reply (or a later part) gives the command `quoted`: from after its quoted line to its end or the
    reply's foot, without the three spaces each is indented by."""
    lines = reply.splitlines()
    start = lines.index(f"> {quoted}") + 1
    if lines[start] == "(continued)":
        start += 1
    taken = []
    for line in lines[start:]:
        if line and not line.startswith("   "):
            break
        taken.append(line[3:])
    while taken and not taken[-1]:
        taken.pop()
    return taken


def test_history_all_has_every_phase_in_order_with_the_press_everybody_read(judge: Judge) -> None:
    """njudge's HISTORY: turn results and broadcast press, "but NOT any partial press"; the issue: the whole game,
    each phase's results then its broadcasts."""
    history = judge.mail("someone@example.org", "HISTORY alpha ALL")
    assert "The history of alpha, the whole game (3 phases" in history
    at = [history.index(f"(alpha, {code})") for code in ("S1901M", "F1901M", "W1901A")]
    assert at == sorted(at)
    spring, autumn, rome = (history.index(text) for text in ("Spring greetings", "Autumn in London", "Still here"))
    assert at[0] < spring < at[1] < autumn < at[2] < rome  # each after its phase's results, the phase now last
    assert "Press from England to everybody:" in history and "Press in S1902M (under way):" in history
    assert "Our secret plan" not in history  # press to one power is never in the archive
    assert "(part" not in history  # a short game is one mail


def test_history_by_two_phases_and_by_dates(judge: Judge) -> None:
    """A range of phases by code or number (both included), and njudge's `FROM date TO date` in the game's zone."""
    by_codes = judge.mail("someone@example.org", "HISTORY alpha S1901M F1901M")
    assert "S1901M to F1901M (2 phases" in by_codes and "(alpha, W1901A)" not in by_codes
    assert "Spring greetings" in by_codes and "Autumn in London" in by_codes and "Still here" not in by_codes
    by_numbers = judge.mail("someone@example.org", "HISTORY alpha 1 2")
    assert "(alpha, S1901M)" not in by_numbers and "(alpha, W1901A)" in by_numbers
    with judge.db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == "alpha")).one()
        times = [
            as_utc(at)
            for at in s.scalars(
                select(PhaseRecord.processed_at).where(PhaseRecord.game_id == game.id).order_by(PhaseRecord.index)
            )
        ]
    assert times[0].date() != times[1].date()  # each phase processed on a day of its own (the deadlines)
    day = times[1].strftime("%Y-%m-%d")
    one_day = judge.mail("someone@example.org", f"HISTORY alpha FROM {day} TO {day}")
    assert "(1 phase:" in one_day and "(alpha, F1901M)" in one_day and "Still here" not in one_day
    njudge_words = times[1].strftime("%b %d, %Y")
    since = judge.mail("someone@example.org", f"HISTORY alpha FROM {njudge_words}")
    assert "(alpha, S1901M)" not in since and "(alpha, W1901A)" in since and "Still here" in since
    refused = judge.mail("someone@example.org", "HISTORY alpha FROM yesterday-ish")
    assert "'yesterday-ish' is not a date" in refused


def test_history_of_one_phase_keeps_its_meaning(judge: Judge) -> None:
    """`HISTORY game` is still the last processed phase, `HISTORY game phase` that phase."""
    last = judge.mail("someone@example.org", "HISTORY alpha")
    assert "(alpha, W1901A)" in last and "(alpha, F1901M)" not in last and "Spring greetings" not in last
    assert "(alpha, S1901M)" in judge.mail("someone@example.org", "HISTORY alpha S1901M")


def test_a_long_history_comes_in_parts_that_join_into_the_whole(judge: Judge) -> None:
    """The answer past a mail's bound (`LINES n`) comes as "part n of m" mails, all answering the one request,
    queued with the reply; joined, they are the whole answer, line for line."""
    whole = _answer(judge.mail("someone@example.org", "HISTORY alpha ALL"), "HISTORY alpha ALL")
    inbound = judge.store("someone@example.org", "HISTORY alpha ALL LINES 60")
    judge.processor.process_pending()
    mails = judge.outbound(kind="reply", inbound_id=inbound) + judge.outbound(kind="reply part", inbound_id=inbound)
    assert len(judge.outbound(kind="reply", inbound_id=inbound)) == 1  # one reply to the mail; the rest are its parts
    total = len(mails)
    assert total >= 2
    assert [str(m["Subject"]) for m in mails] == [f"Re: orders (part {n} of {total})" for n in range(1, total + 1)]
    texts = [m.get_content() for m in mails]
    assert f"This answer comes in {total} mails (part 1 of {total})" in texts[0]
    for n, text in enumerate(texts[1:], start=2):
        assert text.startswith(f"testjudge: part {n} of {total} of the answer to your mail.")
    joined = [line for text in texts for line in _answer(text, "HISTORY alpha ALL LINES 60")]
    assert [line.rstrip() for line in joined] == [line.rstrip() for line in whole]
    assert all(len(_answer(text, "HISTORY alpha ALL LINES 60")) <= 60 for text in texts)
    assert "40 to 1000" in judge.mail("someone@example.org", "HISTORY alpha ALL LINES 5")


def test_parts_never_cut_a_phase_where_it_fits_in_the_next_mail() -> None:
    """A block (a phase) goes whole into one mail where it fits in one; one longer than a mail is cut where the mail
    is full; nothing is lost or repeated."""
    blocks = [["head"], [f"a{n}" for n in range(30)], [f"b{n}" for n in range(30)], [f"c{n}" for n in range(95)]]
    found = parts(blocks, lines=50)
    assert [len(part) for part in found] == [31, 30, 50, 45]
    assert found[1][0] == "b0" and found[2][0] == "c0"
    assert [line for part in found for line in part] == [line for block in blocks for line in block]
    assert parts([["x"] * 10], lines=50) == [["x"] * 10]
    by_bytes = parts([["x" * 99] * 10], lines=1000, size=500)  # 100 bytes a line: five a mail
    assert [len(part) for part in by_bytes] == [5, 5]


def test_history_prints_grey_press_unsigned_and_never_a_message_still_held(judge: Judge) -> None:
    """Press held for the results (`press_with_results`) is in the archive once the results released it, never
    before; grey press keeps its sender unnamed there as in its mail."""
    assert "created" in judge.mail(GM, "CREATE held standard joinpw press_with_results=on press.type=both")
    for power in POWERS:
        assert "joined" in judge.mail(_address(power), f"JOIN held joinpw {power}")
    judge.mail(_address("Germany"), "SIGNON held Germany germanypw\nBROADCAST GREY\nWho am I?\nENDPRESS")
    _process(judge, "held")
    judge.mail(_address("Russia"), "SIGNON held Russia russiapw\nBROADCAST\nNot yet released.\nENDPRESS")
    history = judge.mail("someone@example.org", "HISTORY held ALL")
    assert "Grey press (its sender is not named) to everybody:\n   Who am I?" in history
    assert "Germany to everybody" not in history
    assert "Not yet released" not in history  # held until the next results
    _process(judge, "held")
    assert "Not yet released" in judge.mail("someone@example.org", "HISTORY held ALL")


def test_summary_lists_a_side_of_several_powers_as_one(judge: Judge) -> None:
    """Hoplite Wars rule 1: a player holds a Major and its Minor, one side: SUMMARY lists the side once, by the name
    lists give it, and its centres at the takeover are the two powers' added up (a Town half a City)."""
    majors = ("Achea", "Aetolia", "Argolis", "Athens", "Boeotia", "Sparta", "Thessaly")
    assert "created" in judge.mail(GM, "CREATE hop hoplite joinpw")
    for name in majors:
        address = f"{name.lower()}.hop@example.org"
        judge.mail(address, f"REGISTER {name} Hoplite pw{name.lower()}")
        judge.mail(address, f"JOIN hop joinpw {name}")
    _process(judge, "hop")
    assert "You have resigned" in judge.mail("sparta.hop@example.org", "SIGNON hop Sparta pwsparta\nRESIGN")
    assert "You have taken over" in judge.mail(VOLUNTEER[0], "TAKEOVER hop Elatea newpw")
    lines = [line.strip() for line in judge.mail("someone@example.org", "SUMMARY hop").splitlines()]
    at = next(n for n, line in enumerate(lines) if line.startswith("Sparta + Elatea") and "Sparta Hoplite" in line)
    assert re.fullmatch(r"in \S+: Sparta Hoplite resigned; \d+½? centres then; left open", lines[at + 1])
    assert re.fullmatch(r"from \S+: Vera Volunteer, a volunteer \(TAKEOVER\); \d+½? centres then", lines[at + 2])
    assert not any(line.startswith(("Sparta ", "Elatea ")) for line in lines[at + 3 :])  # no line a power
