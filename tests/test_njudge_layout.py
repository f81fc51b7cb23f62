"""njudge's results layout, line for line (issue 45; `results.layout=njudge`), each phase kind pinned by a golden
file and its lines checked against what njudge's own source writes (jonmarkgo/njudge, the lines cited: `mail.c`,
`st_movement.c`, `st_retreat.c`, `st_build.c`, `st_porder.c`, `dip.c`, `ml_signon.c`, `data/report.standard`).
The start mail and the plain-text mail of a player who turned the picture off are read from a game played through
the real processor on SQLite."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import pytest
from test_results_sheets import STANDARD_FALL, STANDARD_RETREAT, STANDARD_WINTER, _case, _units

from judge.contract.adjudicate import run_case
from judge.engine.phase import Phase, PhaseType
from judge.render import render_njudge_results
from judge.render.dates import deadline_text
from judge.store import open_database
from judge.testing.mail_rig import CONFIG, Judge, start_game

PLAYED = datetime(2026, 11, 27, 20, 0, tzinfo=UTC)
NEXT = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)

FALL_NO_RETREATS = _case(
    "standard",
    ("Fall", 1901, "Movement"),
    _units(
        ("Austria", "A", "bud"),
        ("Russia", "F", "sev"),
        ("Russia", "A", "ukr"),
        ("Turkey", "F", "bla"),
        ("England", "F", "nwg"),
    ),
    {"Austria": ["A bud - rum"], "Russia": ["F sev - rum", "A ukr S F sev - rum"], "England": ["F nwg - nwy"]},
    supply_centers={"Austria": ["bud", "tri", "vie"], "Russia": ["mos", "sev", "stp", "war"], "Turkey": ["ank"]},
)
"""a Fall with no dislodgement: the centres change hands at once and njudge prints them with the chart"""


def _sheet(case: dict[str, object], seq: int = 3) -> str:
    outcome = run_case(case)
    return render_njudge_results(
        "alpha", outcome, outcome["next_phase"], judge="EXMP", played_deadline=PLAYED, deadline=NEXT, seq=seq
    )


@pytest.mark.parametrize(
    ("name", "case"),
    [
        ("njudge_layout_fall_movement", STANDARD_FALL),
        ("njudge_layout_fall_movement_centres", FALL_NO_RETREATS),
        ("njudge_layout_fall_retreat", STANDARD_RETREAT),
        ("njudge_layout_winter_adjustment", STANDARD_WINTER),
    ],
)
def test_each_phase_kind_matches_its_golden_file(
    name: str, case: dict[str, object], golden: Callable[..., None]
) -> None:
    golden(name, _sheet(case))


def test_the_header_is_msg_headers() -> None:
    """mail.c `msg_header()`: a blank line, `:: Judge: %s  ` then `Game: %s  ` (strcap) and `Variant: %s`
    (strcap), then `:: Deadline: %s %s  ` (the phase, `ptime()` of jm.c: `%a %b %d %Y %H:%M:%S %z`) and a blank
    line. In a results mail the phase is the one played (dip.c calls `msg_header(rfp)` before it moves on)."""
    lines = _sheet(STANDARD_FALL).split("\n")
    assert lines[:4] == [
        "",
        ":: Judge: EXMP  Game: Alpha  Variant: Standard",
        ":: Deadline: F1901M Fri Nov 27 2026 20:00:00 +0000  ",
        "",
    ]
    assert deadline_text(NEXT) == "Sun Nov 29 2026 20:00:00 +0000"


def test_a_winter_is_the_falls_b_phase() -> None:
    """dip.c 1736-1743: the adjustments are the Fall's `B` phase (`A` is Machiavelli's bidding)."""
    assert Phase("Winter", 1901, PhaseType.ADJUSTMENT).njudge_code == "F1901B"
    assert Phase("Autumn", 1901, PhaseType.RETREAT).njudge_code == "F1901R"
    assert ":: Deadline: F1901B " in _sheet(STANDARD_WINTER)


def test_movement_lines_are_st_movements() -> None:
    """st_movement.c 1748-1752 (`Movement results for %s of %d.` then ` (%s.%s)`), 1932-2094 (`%s: ` power,
    `Utype`, the province, ` CONVOY `, ` SUPPORT `, ` -> `, `, No Order Processed`, then `.` or `. (*%s%s*)` with
    `, dislodged`), 2183 (`\\n\\nThe following units were dislodged:\\n\\n`), 2192-2244 (`The %s %s %s %s`, `can
    retreat to ... or ...`, cut past column 78)."""
    text = _sheet(STANDARD_FALL)
    assert "\nMovement results for Fall of 1901. (alpha.003)\n\nEngland: " in text
    assert "England: Fleet North Sea CONVOY Army Yorkshire -> Norway. (*dislodged*)\n" in text
    assert "England: Army Yorkshire -> Norway. (*no convoy*)\n" in text
    assert "England: Fleet London SUPPORT Fleet North Sea. (*cut*)\n" in text
    assert "France: Fleet English Channel -> London. (*bounce*)\n" in text
    assert "Germany: Fleet Helgoland Bight -> North Sea.\n" in text  # njudge's data/map spelling
    assert "A Mun" not in text and "Munich" not in text  # France's order for an empty province: njudge had no unit
    assert (
        "\n\n\nThe following units were dislodged:\n\nThe English Fleet in the North Sea can retreat to Denmark or "
        "Edinburgh or\nNorwegian Sea or Norway or Skagerrak.\n"
    ) in text
    assert all(len(line) <= 79 for line in text.splitlines())


def test_an_unordered_unit_and_a_foreign_unit_are_written_as_njudge_does() -> None:
    """st_movement.c 2010 (`, No Order Processed`), 2021-2029 (a support of another power's unit names its owner by
    adjective: `owners[]`), 2091 (`(*cut, dislodged*)`)."""
    case = _case(
        "standard",
        ("Spring", 1901, "Movement"),
        _units(
            ("Austria", "A", "vie"),
            ("Austria", "A", "bud"),
            ("Germany", "A", "mun"),
            ("Russia", "A", "sil"),
            ("Russia", "A", "tyr"),
        ),
        {
            "Austria": ["A vie - boh"],
            "Germany": ["A mun S A vie - boh"],
            "Russia": ["A tyr - mun", "A sil S A tyr - mun"],
        },
    )
    text = _sheet(case, seq=1)
    assert "Austria: Army Budapest, No Order Processed.\n" in text
    assert "Austria: Army Vienna -> Bohemia.\n" in text
    assert "Germany: Army Munich SUPPORT Austrian Army Vienna -> Bohemia. (*cut, dislodged*)\n" in text
    assert "Russia: Army Tyrolia -> Munich.\n" in text
    assert "The German Army in Munich can retreat to " in text


def test_retreat_lines_are_st_retreats() -> None:
    """st_retreat.c 246 (`Retreat %s for %s of %d.  (%s.%s)\\n\\n`), 316-351 (`%s: ` padded to LPOWER, `%-5s %s`,
    ` -> %s`, ` (*bounce, destroyed*)` before the full stop, `, No Order Processed (DISBAND)`)."""
    text = _sheet(STANDARD_RETREAT)
    assert "\nRetreat results for Fall of 1901.  (alpha.003)\n\n" in text
    assert "England:                  Fleet Norwegian Sea -> Norway.\n" in text
    assert "France:                   Army  Picardy -> Belgium (*bounce, destroyed*).\n" in text
    assert "Russia:                   Army  Warsaw, No Order Processed (DISBAND).\n" in text


def test_ownership_and_the_chart_are_ownerships() -> None:
    """st_porder.c 174 (`\\nOwnership of supply centers:\\n\\n`), 196-238 (the name and colon, spaces to column
    12, the centres by njudge's names, `, ` between, `.` after the last, cut after a comma at column 78 under
    column 12), 355-362 (`%2d Supply center%s %2d Unit%s  %s %2d unit%s.`, the names padded to
    `GetMaxCountryStrlen()`, ten at least); dip.c 1736 and 1750 (the footer's two sentences)."""
    text = _sheet(FALL_NO_RETREATS)
    assert "\n\nOwnership of supply centers:\n\nAustria:   Budapest, Trieste, Vienna.\n" in text
    assert "\nRussia:    Moscow, Rumania, Sevastopol, St Petersburg, Warsaw.\n" in text
    assert "Austria:   3 Supply centers,  1 Unit:   Builds   2 units.\n" in text
    assert "Turkey:    1 Supply center,   1 Unit:   Builds   0 units.\n" in text
    assert "Russia:    5 Supply centers,  2 Units:  Builds   3 units.\n" in text
    unowned = [line for line in text.splitlines() if line.startswith(("Unowned:", "           "))]
    assert unowned[0].startswith("Unowned:   Belgium, ") and all(len(line) <= 79 for line in unowned)
    assert text.endswith(
        "\nThe next phase of 'alpha' will be Adjustments for Winter of 1901.\n"
        "The deadline for orders will be Sun Nov 29 2026 20:00:00 +0000.\n"
    )


def test_adjustment_lines_are_st_builds() -> None:
    """st_build.c 908 (`Adjustment %s for Winter of %d.  (%s.%s)\\n\\n`), 959-991 (`Builds %s in %s.` with
    `autype()`, `Build waived.`), 1117-1120 (`Defaults, removing the %s in %s%s.`)."""
    text = _sheet(STANDARD_WINTER)
    assert "\nAdjustment results for Winter of 1901.  (alpha.003)\n\n" in text
    assert "England:                  Builds a fleet in London.\n" in text
    assert "England:                  Builds an army in Edinburgh.\n" in text
    assert "England:                  Build waived.\n" in text
    assert "Russia:                   Defaults, removing the army in Ukraine.\n" in text
    assert "\nThe next phase of 'alpha' will be Movement for Spring of 1902.\n" in text


def test_a_won_game_ends_as_njudges() -> None:
    """dip.c 1638: `\\nThe game is over.  Thank you for playing.\\n`; st_porder.c 366: `  (* VICTORY!! *)`."""
    outcome = run_case(FALL_NO_RETREATS)
    outcome["winner"] = ["Russia"]
    text = render_njudge_results("alpha", outcome, None, judge="EXMP", played_deadline=PLAYED)
    assert "Russia:    5 Supply centers,  2 Units:  Builds   3 units.  (* VICTORY!! *)\n" in text
    assert text.endswith("\nThe game is over.  Thank you for playing.\n")


# --- by mail, through the real processor ---------------------------------------------------------------------


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db, replace(CONFIG, pictures=True))
    db.dispose()


def _plain(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    return str(body.get_content())


def test_the_start_mail_and_a_results_mail_by_mail(judge: Judge, golden: Callable[..., None]) -> None:
    """ml_signon.c 243 (`You have been selected as %s in game '%s' of Diplomacy.`), 1535-1557 (the players, the
    report file, `The deadline for the first orders is %s.`), and its subject `%s:%s - %s Game Starting`; dip.c
    1798: the results' subject `%s:%s - %s Results`. A player who asked for no picture gets one plain-text part,
    7-bit, its lines short (issue 45); the others the picture beside it."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw\nSIGNON alpha MASTER gmpass\nSET results.layout=njudge")
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        address = f"{power.lower()}@example.org"
        judge.mail(address, f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(address, f"JOIN alpha joinpw {power}")
    [start] = judge.outbound(kind="notice", to="england@example.org")
    assert start["Subject"] == "TEST:alpha - S1901M Game Starting"
    golden("njudge_layout_start_mail", _plain(start))
    judge.mail("france@example.org", "SIGNON alpha France francepw\nSET PICTURES OFF\nA par - bur")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    [france] = judge.outbound(kind="result", to="france@example.org")
    [england] = judge.outbound(kind="result", to="england@example.org")
    assert france["Subject"] == "TEST:alpha - S1901M Results"
    assert not france.is_multipart() and france.get_content_type() == "text/plain"
    assert france["Content-Transfer-Encoding"] == "7bit"
    text = france.get_content()
    assert text.isascii() and max(len(line) for line in text.splitlines()) <= 79
    assert "France: Army Paris -> Burgundy.\n" in text
    assert "England: Fleet London, No Order Processed.\n" in text
    assert england.is_multipart() and any(p.get_content_type() == "image/png" for p in england.iter_attachments())
    assert _plain(england) == text


def test_a_player_chooses_njudges_layout_for_himself(tmp_path: Path) -> None:
    """Issue 45: the layout is chosen per game (`results.layout`) or per player (`SET LAYOUT NJUDGE`): in a game
    in the zine layout, the player who asked reads njudge's, the others the zine's."""
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}"))
    start_game(judge)
    said = judge.mail("england@example.org", "SIGNON alpha England englandpw\nSET LAYOUT NJUDGE\nF lon - nth")
    assert "Your results mails come in njudge's layout" in said
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    [england] = judge.outbound(kind="result", to="england@example.org")
    [france] = judge.outbound(kind="result", to="france@example.org")
    assert england["Subject"] == "TEST:alpha - S1901M Results"
    assert "England: Fleet London -> North Sea.\n" in england.get_content()
    assert france["Subject"] == "alpha S1901M: results of Spring 1901 Movement"
    assert "England:  F Lon - Nth\n" in france.get_content()
    judge.mail("england@example.org", "SIGNON alpha England englandpw\nSET LAYOUT ZINE")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    assert judge.outbound(kind="result", to="england@example.org")[1]["Subject"].startswith("alpha F1901M")
    judge.db.dispose()


def test_migration_0017_keeps_every_game_in_its_layout(sqlite_url: str) -> None:
    """0017_njudge adds the players' choice (empty for every game stored before) and goes back down."""
    from alembic import command
    from sqlalchemy import inspect

    from judge.store.db import alembic_config, make_engine, migrating

    engine = make_engine(sqlite_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0012")
    assert "njudge_layout" not in {c["name"] for c in inspect(engine).get_columns("games")}
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "head")
    assert "njudge_layout" in {c["name"] for c in inspect(engine).get_columns("games")}
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), "0012")
    assert "njudge_layout" not in {c["name"] for c in inspect(engine).get_columns("games")}
    engine.dispose()
