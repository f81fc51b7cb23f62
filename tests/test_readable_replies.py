"""Issue 40: replies a player can read, one written form for a moment in time, and settings shown in a GM's words.

- "A Hepta PREVIEW or PREDICT is 226 lines and 368 KB, mostly unordered holds; a retreat refusal lists 35
  destinations; the Winter reply has seven lines of "no builds due". Show what the player asked about and his own
  side first, summarise the rest, and keep any reply under 64 KB and 120 lines unless asked for more (say how)."
  (docs/mail.md, "Long replies"). CW Heptadiplomacy, 49 board-nations, is the biggest board the judge plays.
- "One written form for a moment in time in every reply, notice, STATUS and SET DEADLINE" (docs/results.md,
  "Dates").
- "Settings shown in a GM's words (`auto_start=True` is Python's)" (docs/deadlines.md, "Settings").
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.contract import position_from_json
from judge.engine import PhaseType, Position, Rules
from judge.engine.order_text import render_order
from judge.engine.reasons import UnitName
from judge.engine.refusals import CannotRetreat
from judge.engine.supply import powers_to_order
from judge.game import Games
from judge.game.setting_table import SETTINGS
from judge.game.settings import apply_setting, given_settings, shown
from judge.render.bounds import REPLY_BYTES, REPLY_LINES
from judge.render.dates import due_text, span_text, when_text
from judge.schedule.keeper import DeadlineKeeper
from judge.store import Game, OutboundMail, open_database
from judge.testing.mail_rig import CONFIG, Judge, start_game
from judge.testing.random_games import phase_orders
from judge.variants import get_variant
from judge.web.pages import SiteInfo, game_page

GM = "gm@example.org"
COUNTRIES = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def _address(country: str) -> str:
    return f"{country.lower()}@example.org"


def _signon(country: str) -> str:
    """A player signs on by his first board-nation (`1:England`); his orders go to the board-nation each names."""
    return f"SIGNON hep 1:{country} pw{country.lower()}"


def _within_bounds(text: str) -> None:
    """Any reply: under 120 lines and 64 KB of text (docs/mail.md, "Long replies")."""
    assert len(text.splitlines()) < REPLY_LINES, f"{len(text.splitlines())} lines:\n{text}"
    assert len(text.encode()) < REPLY_BYTES


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    """A CW Heptadiplomacy game (option A: a player a country, seven board-nations each) by mail."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    judge = Judge(db)
    judge.mail(GM, "REGISTER Game Master gmpass")
    judge.mail(GM, "CREATE hep hepta joinpw assignment=a")
    for country in COUNTRIES:
        judge.mail(_address(country), f"REGISTER {country} Player pw{country.lower()}")
        judge.mail(_address(country), f"JOIN hep joinpw {country}")
    yield judge
    db.dispose()


def _position(judge: Judge) -> tuple[Rules, Position]:
    view = Games(judge.db, judge.clock).reads.game("hep")
    rules = get_variant("hepta").rules(view.options)
    assert view.position is not None
    return rules, position_from_json(rules, view.position)


def _side_lines(rules: Rules, position: Position, country: str, rng: random.Random) -> list[str]:
    """The seeded random legal orders (the demo's) of one player's seven board-nations."""
    due = set(powers_to_order(rules, position))
    return [
        render_order(s.order)
        for s in phase_orders(rules, position, rng)
        if s.order and s.power in due and s.power.endswith(f":{country}")
    ]


def _everyone_orders(judge: Judge, rng: random.Random) -> dict[str, list[str]]:
    rules, position = _position(judge)
    sent = {}
    for country in COUNTRIES:
        lines = _side_lines(rules, position, country, rng)
        if lines:
            judge.mail(_address(country), "\n".join([_signon(country), *lines]))
        sent[country] = lines
    return sent


# --- replies a player can read --------------------------------------------------------------------------------


def test_a_preview_of_a_whole_side_shows_that_side_first_and_counts_the_other_holds(judge: Judge) -> None:
    rules, position = _position(judge)
    lines = _side_lines(rules, position, "England", random.Random(3))
    assert len(lines) >= 20  # every unit of the seven English board-nations
    reply = judge.mail(_address("England"), "\n".join([_signon("England"), "PREVIEW", *lines]))
    _within_bounds(reply)
    sheet = reply[reply.index("Movement preview for") :]
    named = re.findall(r"^   (\d:\w+):", sheet, re.MULTILINE)
    assert named and all(n.endswith(":England") for n in named[:20]), named  # his side first
    assert sorted(set(named) & {f"{b}:England" for b in range(1, 8)}) == [f"{b}:England" for b in range(1, 8)]
    held = re.search(r"(\d+) other units held, untouched: not printed \(PREVIEW hep FULL lists every order\)", reply)
    assert held and int(held[1]) == len(position.units) - len(lines)
    full = judge.mail(_address("England"), "\n".join([_signon("England"), "PREVIEW FULL", *lines]))
    assert len(full.splitlines()) > REPLY_LINES  # asked for: every power's every order
    assert "1:Austria: A 1:Bud H" in full and "1:Austria: A 1:Bud H" not in reply


def test_predict_shows_what_happened_and_stays_within_the_bound_however_many_orders(judge: Judge) -> None:
    _everyone_orders(judge, random.Random(5))
    reply = judge.mail(GM, "SIGNON hep MASTER gmpass\nPREDICT")
    _within_bounds(reply)
    assert "PREDICT FULL" in reply  # says how to ask for the rest
    # 49 board-nations' orders: of the others only the orders that failed, those that succeeded counted
    assert re.search(r"\d+ other orders succeeded as written, \d+ other units held, untouched: not printed", reply), (
        reply
    )
    full = judge.mail(GM, "SIGNON hep MASTER gmpass\nPREDICT FULL")
    assert len(full.splitlines()) > REPLY_LINES
    for country in COUNTRIES:  # every board-nation's orders, asked for
        assert all(f"{b}:{country}:" in full for b in range(1, 8))


def test_history_list_and_the_winter_reply_stay_within_the_bound(judge: Judge) -> None:
    rng = random.Random(7)
    while _position(judge)[1].phase.type is not PhaseType.ADJUSTMENT:
        _everyone_orders(judge, rng)
        judge.mail(GM, "SIGNON hep MASTER gmpass\nPROCESS")
    history = judge.mail("anyone@example.org", "HISTORY hep S1901M")
    _within_bounds(history)
    assert "HISTORY hep S1901M FULL" in history
    assert len(judge.mail("anyone@example.org", "HISTORY hep S1901M FULL").splitlines()) > REPLY_LINES
    listed = judge.mail("anyone@example.org", "LIST hep")
    _within_bounds(listed)
    for country in COUNTRIES:  # each board-nation on one line: units, then centres
        assert all(re.search(rf"^   {b}:{country}: .*centres?: ", listed, re.MULTILINE) for b in range(1, 8))
    assert len(judge.mail("anyone@example.org", "LIST hep FULL").splitlines()) > len(listed.splitlines())
    rules, position = _position(judge)
    winter = judge.mail(
        _address("England"), "\n".join([_signon("England"), *_side_lines(rules, position, "England", rng)])
    )
    _within_bounds(winter)
    nothing = [line for line in winter.splitlines() if "no builds or removals due" in line.lower()]
    assert len(nothing) <= 1, nothing  # one line for all the board-nations with nothing to do


def test_a_refused_retreat_names_a_few_of_its_places_and_counts_the_rest() -> None:
    places = tuple(f"{b}:{p}" for b in range(1, 8) for p in ("bur", "pic", "gas", "par", "bel"))
    text = CannotRetreat(UnitName("1:France", "A", "1:par"), "7:mos", places).text()
    assert text == (
        "A 1:par cannot retreat to 7:mos; the retreats open: 1:bur, 1:pic, 1:gas, 1:par, 1:bel, 2:bur, 2:pic, "
        "2:gas and 27 more (or disband)"
    )
    few = CannotRetreat(UnitName("France", "A", "par"), "mos", ("bur", "pic")).text()
    assert few.endswith("the retreats open: bur, pic (or disband)")


def test_preview_attaches_only_the_board_most_of_its_orders_are_on(tmp_path: Path) -> None:
    """The picture of a board weighs about 50 KB in mail: seven made a 368 KB reply; one keeps it under 64 KB."""
    db = open_database(f"sqlite:///{tmp_path / 'pictures.sqlite'}")
    try:
        judge = Judge(db, replace(CONFIG, pictures=True))
        judge.mail(GM, "REGISTER Game Master gmpass")
        judge.mail(GM, "CREATE hep hepta joinpw assignment=a")
        for country in COUNTRIES:
            judge.mail(_address(country), f"REGISTER {country} Player pw{country.lower()}")
            judge.mail(_address(country), f"JOIN hep joinpw {country}")
        orders = "F 3:lon - 3:eng\nF 3:edi - 3:nth\nA 5:lvp - 5:yor"
        stored = judge.store(_address("England"), f"{_signon('England')}\nPREVIEW\n{orders}")
        judge.processor.process_pending()
        reply = judge.outbound(kind="reply", inbound_id=stored)[0]
        assert [p.get_filename() for p in reply.iter_attachments()] == ["hep-S1901M-preview-board3.png"]
        body = reply.get_body(preferencelist=("plain",))
        assert body is not None and "PREVIEW hep FULL attaches every board" in body.get_content()
        assert len(bytes(reply)) < REPLY_BYTES
    finally:
        db.dispose()


# --- one written form for a moment -----------------------------------------------------------------------------

_FORM = r"(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d"
_MOMENT = re.compile(rf"{_FORM} (UTC|Europe/Paris \(\d\d:\d\d UTC( (Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d \w{{3}})?\))")
_LEFT = re.compile(r"\((in|passed) ((\d+ (day|hour|minute)s? ?){1,2}|less than a minute)( ago)?\)")
_NOT_OURS = re.compile(
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\d+\.\d+ hours|hours? from now|\(\d+ hours?\)|\+00:00|\d\d:\d\d:\d\d\.\d+"
)


def test_time_left_and_a_moment_are_written_in_words_in_the_games_zone() -> None:
    moment = datetime(2026, 1, 3, 12, 0, tzinfo=UTC)
    assert when_text(moment) == "Sat 03 Jan 2026 12:00 UTC"
    assert when_text(moment, "Europe/Paris") == "Sat 03 Jan 2026 13:00 Europe/Paris (12:00 UTC)"
    assert when_text(moment, "America/New_York").endswith("(12:00 UTC)")
    late = datetime(2026, 1, 3, 23, 30, tzinfo=UTC)
    assert when_text(late, "Europe/Paris") == "Sun 04 Jan 2026 00:30 Europe/Paris (23:30 UTC Sat 03 Jan)"
    assert due_text(moment, moment - timedelta(days=2, hours=5, minutes=3)) == (
        "Sat 03 Jan 2026 12:00 UTC (in 2 days 5 hours)"
    )
    assert span_text(timedelta(0)) == "less than a minute"
    assert span_text(timedelta(hours=30)) == "1 day 6 hours"


_WRITTEN_ELSEWHERE = {
    "web/feed.py": "the Atom feed's RFC 3339 stamps, read by feed readers, not people",
    "game/reads.py": "the GM's view of an absence, its days in the form of `day_text` (the game layer imports no "
    "renderer)",
}


def test_a_moment_is_formatted_in_one_module() -> None:
    """No module but judge/render/dates.py formats a moment or a day (`%H:%M`, `%a %d %b`, `%Y-%m-%d`,
    `strftime`): one place for the form (docs/results.md, "Dates")."""
    judge_dir = Path(__file__).resolve().parent.parent / "judge"
    formats = re.compile(r"%H:%M|%a %d|%d %b|%Y-%m|strftime\(")
    found = {
        str(path.relative_to(judge_dir)): [
            ln.strip() for ln in path.read_text(encoding="utf-8").splitlines() if formats.search(ln)
        ]
        for path in judge_dir.rglob("*.py")
    }
    elsewhere = {name: lines for name, lines in found.items() if lines and name != "render/dates.py"}
    assert set(elsewhere) == set(_WRITTEN_ELSEWHERE), elsewhere


def _texts(judge: Judge) -> list[str]:
    with judge.db.transaction() as s:
        rows = [r.message for r in s.scalars(select(OutboundMail).order_by(OutboundMail.id))]
    out = []
    from email import message_from_bytes, policy

    for raw in rows:
        message = message_from_bytes(raw, policy=policy.default)
        assert isinstance(message, EmailMessage)
        body = message.get_body(preferencelist=("plain",))
        out.append(f"{message['Subject']}\n{body.get_content() if body is not None else ''}")
    return out


def test_every_reply_and_notice_writes_a_moment_in_the_one_form(tmp_path: Path) -> None:
    """Every kind of mail that names a moment, from a game in a zone of its own: the replies (STATUS, SET
    DEADLINE, PAUSE, RESUME, SET ABSENCE, LIST, orders and the foot of each), the notices (a new deadline, a
    pause, a resumption, a rollback, an absence), the reminder and late notices, the results and the start mail.
    Every moment in them is `when_text`'s; no ISO stamp, no "0.0 hours", no "hours from now"."""
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    try:
        judge = Judge(db)
        start_game(judge)
        gm = "SIGNON alpha MASTER gmpass\n"
        judge.mail("gm@example.org", gm + "SET timing.zone=Europe/Paris absence.mode=extend")
        judge.mail("gm@example.org", gm + "SET DEADLINE +2d\nSTATUS\nPAUSE")
        judge.clock.advance(timedelta(hours=3, minutes=20))
        judge.mail("gm@example.org", gm + "RESUME")
        judge.mail("france@example.org", "SIGNON alpha France francepw\nA par - bur")
        day = (judge.clock.now() + timedelta(days=2)).date().isoformat()
        judge.mail("england@example.org", f"SIGNON alpha England englandpw\nSET ABSENCE {day}")
        judge.mail("anyone@example.org", "LIST alpha")
        keeper = DeadlineKeeper(db, CONFIG, judge.clock)
        with db.transaction() as s:
            deadline = s.scalars(select(Game.deadline).where(Game.name == "alpha")).one()
        assert deadline is not None
        judge.clock.set(deadline.replace(tzinfo=UTC) - timedelta(hours=6))
        keeper.tick()  # reminders
        judge.clock.set(deadline.replace(tzinfo=UTC) + timedelta(minutes=1))
        keeper.tick()  # late notices, the phase processed: results
        judge.mail("gm@example.org", gm + "ROLLBACK\nSTATUS")
        texts = _texts(judge)
        kinds = {t.splitlines()[0] for t in texts}
        assert any("reminder" in k.lower() for k in kinds), kinds
        assert any("results" in k.lower() for k in kinds), kinds
        assert any("rolled back" in k for k in kinds) and any("resumed" in k for k in kinds), kinds
        moments = 0
        for text in texts:
            assert not _NOT_OURS.search(text), _NOT_OURS.search(text)
            for line in text.splitlines():
                if line.startswith(":: Deadline:"):  # njudge's header line, read by the mappers
                    continue
                rest = _MOMENT.sub("<moment>", line)
                moments += line.count(" 20") - rest.count(" 20")
                assert not re.search(r"\d\d:\d\d", rest), line  # no time of day outside the one form
        assert moments > 10
        status = next(t for t in reversed(texts) if "> STATUS" in t)
        assert re.search(rf"; deadline {_MOMENT.pattern} {_LEFT.pattern}", status), status
        resumed = next(t for t in texts if "> RESUME" in t)
        assert "(3 hours 20 minutes)" in resumed
    finally:
        db.dispose()


# --- settings in a GM's words --------------------------------------------------------------------------------

_WRITTEN = {
    "bool": "on",
    "int": "4",
    "number": "3",
    "year": "1905",
    "hours": "36h",
    "days": "5d",
    "spans": "24h,6h,1h",
    "zone": "Europe/Paris",
    "time": "18:00",
    "weekdays": "mon,tue,wed,thu,fri",
    "text": "x",
}


def test_every_setting_shown_is_what_set_takes_back_unchanged(judge: Judge) -> None:
    """The round trip: each setting set as a GM writes it, shown by the reply, LIST and STATUS, and that shown
    value SET again gives the very same setting."""
    gm = "SIGNON hep MASTER gmpass\n"
    lines = [
        f"SET {name}={setting.choices[-1] if setting.choices else _WRITTEN[setting.kind]}"
        for name, setting in sorted(SETTINGS.items())
        if name != "manual"  # one switch with timing.manual, which the line before would undo
        and name != "gunboat"  # set before the start only (tests/test_gunboat.py); this game has started
    ]
    reply = judge.mail(GM, gm + "\n".join(lines))
    said = dict(re.findall(r"^   Set (\S+?)=(\S+)\.$", reply, re.MULTILINE))
    assert len(said) == len(lines), reply
    with judge.db.transaction() as s:
        before = dict(s.scalars(select(Game.settings).where(Game.name == "hep")).one())
    again = judge.mail(GM, gm + "\n".join(f"SET {name}={value}" for name, value in said.items()))
    assert dict(re.findall(r"^   Set (\S+?)=(\S+)\.$", again, re.MULTILINE)) == said
    with judge.db.transaction() as s:
        assert dict(s.scalars(select(Game.settings).where(Game.name == "hep")).one()) == before
    for reply in (judge.mail(GM, "LIST hep"), judge.mail(GM, gm + "STATUS"), judge.mail(GM, "HELP SET")):
        assert not re.search(r"=(True|False)\b|\((bool|number)\)|\{'", reply), reply
    listed = judge.mail(GM, "LIST hep")
    assert "grace_hours=36h" in listed and "timing.movement.weekdays=mon,tue,wed,thu,fri" in listed
    assert "web.private=on" in listed
    reads = Games(judge.db, judge.clock).reads
    page = game_page(
        SiteInfo("testjudge", "judge@example.org", "TEST"), reads.public_game("hep"), reads.public_history("hep")
    )
    assert "<dt>grace_hours</dt><dd>36h</dd>" in page and "<dt>web.private</dt><dd>on</dd>" in page
    assert "<dd>True</dd>" not in page and "<dd>[0, 1" not in page


@pytest.mark.parametrize(
    ("name", "written", "stored", "seen"),
    [
        ("grace_hours", "36", 36, "36h"),
        ("grace_hours", "90m", 1.5, "1.5h"),
        ("grace_hours", "2d", 48, "48h"),
        ("timing.reminder_hours", "20m", 1 / 3, "20m"),
        ("absence.max_days", "5", 5, "5d"),
        ("timing.movement.weekdays", "0,1,2", [0, 1, 2], "mon,tue,wed"),
        ("timing.movement.weekdays", "saturday,sun", [5, 6], "sat,sun"),
        ("auto_start", "false", False, "off"),
        ("timing.manual", "yes", True, "on"),
    ],
)
def test_a_setting_is_read_as_written_and_shown_as_a_gm_writes_it(
    name: str, written: str, stored: object, seen: str
) -> None:
    settings: dict[str, object] = {}
    key, value = apply_setting(settings, name, written)
    assert value == stored and shown(key, value) == seen
    assert apply_setting({}, key, seen)[1] == value


def test_the_settings_a_gm_gave_are_shown_flat_in_his_words() -> None:
    settings: dict[str, object] = {}
    apply_setting(settings, "timing.movement.hours", "72")
    apply_setting(settings, "press.partial", "off")
    given = given_settings(settings)
    assert {k: shown(k, v) for k, v in given.items()} == {"press.partial": "off", "timing.movement.hours": "72h"}
