"""Replies and notices (issue 28): what the judge answers and tells, through the real processor and commands on a
real database. Each test is one item of the issue: a reply says what became of things and gives the choices."""

from __future__ import annotations

import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select
from test_players_not_powers import COUNTRIES
from test_players_not_powers import _game as game_of_sides

from judge.store import OrderSet, open_database
from judge.testing.mail_rig import CONFIG, Judge, start_game

GM = "SIGNON alpha MASTER gmpass\n"


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


def _notices(judge: Judge, to: str, subject: str) -> list[str]:
    return [m.get_content() for m in judge.outbound(kind="notice", to=to) if subject in str(m["Subject"])]


# --- ROLLBACK ---------------------------------------------------------------------------------------------------


def test_rollback_takes_the_phase_code_the_results_name(judge: Judge) -> None:
    """Phase numbers appear in no mail: ROLLBACK takes the code (S1901M) and the reply gives the number too."""
    start_game(judge)
    judge.mail("gm@example.org", GM + "PROCESS")
    reply = judge.mail("gm@example.org", GM + "ROLLBACK S1901M")
    assert "Rolled back to Spring 1901 Movement (phase 0)" in reply


def test_a_code_that_names_no_processed_phase_is_refused_with_the_phases_there_are(judge: Judge) -> None:
    start_game(judge)
    judge.mail("gm@example.org", GM + "PROCESS")
    reply = judge.mail("gm@example.org", GM + "ROLLBACK F1902M")
    assert "alpha has no processed phase F1902M; the processed phases are S1901M (0)" in reply


def test_rollback_keeps_the_draw_votes_cast_before_the_phase_and_withdraws_the_later_ones(judge: Judge) -> None:
    """A vote cast before the phase returned to was processed was cast on a past the rollback keeps; one cast
    after answered a position it undid. The GM's reply names them; everyone is told the rule, never whose."""
    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nSET DRAW")
    judge.clock.advance(timedelta(hours=1))
    judge.mail("gm@example.org", GM + "PROCESS")
    judge.clock.advance(timedelta(hours=1))
    judge.mail("italy@example.org", "SIGNON alpha Italy italypw\nSET DRAW")
    reply = judge.mail("gm@example.org", GM + "ROLLBACK S1901M")
    assert "Draw votes that stand (cast before that phase was processed): France." in reply
    assert "Draw votes withdrawn (cast on the position undone): Italy." in reply
    told = _notices(judge, "turkey@example.org", "rolled back")[-1]
    assert "Draw votes cast before that phase was processed still stand" in told
    assert "France" not in told and "Italy" not in told
    status = judge.mail("gm@example.org", GM + "STATUS")
    france = status.split("France", 1)[1].split("Germany", 1)[0]
    italy = status.split("Italy", 1)[1].split("Russia", 1)[0]
    assert "votes for a draw" in france and "votes" not in italy


# --- CREATE and LIST --------------------------------------------------------------------------------------------


def test_create_and_list_show_the_games_options_and_settings(judge: Judge) -> None:
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    created = judge.mail("gm@example.org", "CREATE beta standard joinpw edition=1982 timing.zone=Europe/London")
    assert "Rule options: edition=1982" in created
    assert "Settings: timing.zone=Europe/London" in created
    listed = judge.mail("anyone@example.org", "LIST beta")
    assert "Rule options: edition=1982" in listed and "Settings: timing.zone=Europe/London" in listed


def test_a_game_without_options_says_it_plays_the_defaults(judge: Judge) -> None:
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    created = judge.mail("gm@example.org", "CREATE beta standard joinpw")
    assert "Rule options: the variant's defaults" in created and "Settings: the judge's defaults" in created


def test_list_of_a_forming_game_shows_the_places_and_powers_still_open(judge: Judge) -> None:
    start_game(judge, players=("France", "Italy"))
    listed = judge.mail("anyone@example.org", "LIST alpha")
    assert "5 of 7 places open." in listed
    assert "Not yet asked for by anyone who joined: Austria, England, Germany, Russia, Turkey." in listed


# --- EJECT and REPLACE ------------------------------------------------------------------------------------------


def test_the_ejected_player_is_told_and_the_replacement_told_the_game_and_the_others_once(judge: Judge) -> None:
    start_game(judge)
    judge.mail("newbie@example.org", "REGISTER New Player newpw")
    judge.mail("gm@example.org", GM + "EJECT Italy\nREPLACE Italy newbie@example.org")
    ejected = _notices(judge, "italy@example.org", "you no longer play Italy")
    assert len(ejected) == 1 and "removed you from the game" in ejected[0]
    welcome = judge.outbound(to="newbie@example.org")
    assert [str(m["Subject"]) for m in welcome if m["Subject"].startswith("alpha")] == ["alpha: you play Italy"]
    text = welcome[-1].get_content()
    assert "Spring 1901" in text and "Deadline:" in text and "Italy: A Rom, A Ven, F Nap" in text
    assert "SIGNON alpha Italy <your password>" in text
    for address in ("france@example.org", "gm@example.org"):
        assert len(_notices(judge, address, "Italy replaced")) == 1


# --- PAUSE and RESUME -------------------------------------------------------------------------------------------


def test_resume_moves_the_deadline_on_by_the_time_paused(judge: Judge) -> None:
    """njudge's habit: the time a game stood paused is added to its deadline, unless the GM sets another."""
    start_game(judge)  # the deadline: 2026-01-03 12:00 UTC
    assert "The deadline (Sat 03 Jan 2026 12:00 UTC) stops with the clock" in judge.mail("gm@example.org", GM + "PAUSE")
    judge.clock.advance(timedelta(hours=30))
    footer = judge.mail("france@example.org", "SIGNON alpha France francepw\nA Par - Bur")
    assert "paused by the GM (no deadline runs until RESUME)" in footer and "Deadline:" not in footer
    reply = judge.mail("gm@example.org", GM + "RESUME")
    assert "moved on by the time the game was paused (1 day 6 hours): Sun 04 Jan 2026 18:00 UTC" in reply
    assert "Sun 04 Jan 2026 18:00 UTC" in _notices(judge, "italy@example.org", "resumed")[-1]


def test_resume_with_a_deadline_sets_that_deadline(judge: Judge) -> None:
    start_game(judge)
    judge.mail("gm@example.org", GM + "PAUSE")
    judge.clock.advance(timedelta(hours=30))
    reply = judge.mail("gm@example.org", GM + "RESUME 2026-01-10 18:00")
    assert "The GM has set the deadline: Sat 10 Jan 2026 18:00 UTC" in reply


# --- what a reply says ------------------------------------------------------------------------------------------


def test_the_winter_reply_says_how_many_builds_or_removals_are_due(judge: Judge) -> None:
    start_game(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA Par - Bur\nA Mar - Spa")
    judge.mail("gm@example.org", GM + "PROCESS")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA Bur - Bel\nF Bre - Mao")
    judge.mail("gm@example.org", GM + "PROCESS")
    reply = judge.mail("france@example.org", "SIGNON alpha France francepw\nBuild A Par")
    assert "France may build 2 (2 build(s) due; builds not ordered are waived)." in reply
    assert "Austria has no builds or removals due." in judge.mail(
        "austria@example.org", "SIGNON alpha Austria austriapw\nWaive"
    )


def test_a_note_is_echoed_as_written_without_a_second_stop(judge: Judge) -> None:
    start_game(judge)
    reply = judge.mail("gm@example.org", GM + "NOTE Press is grey.")
    assert "Note for the results: Press is grey." in reply and "grey.." not in reply


def test_placement_errors_say_what_the_placement_rules_do_not_that_units_hold(judge: Judge) -> None:
    """Mad Diplomacy opens with placements (rules 2 and 3): there are no units to hold yet."""
    start_game(judge, "mad", "mad")
    reply = judge.mail("france@example.org", "SIGNON mad France francepw\nCentre Xyz")
    assert "will hold" not in reply
    assert "placed or waived by the variant's placement rules" in reply


def test_the_judges_own_answer_is_never_cut_short(judge: Judge) -> None:
    """Only quoted input is shortened; Hepta's SET DRAW refusal used to end "... (12 more characters)"."""
    game_of_sides(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    reply = judge.mail("england@example.org", "SIGNON hep England pwengland\nSET DRAW")
    assert "more characters)" not in reply
    refusal = next(line for line in reply.splitlines() if "has no draws" in line)
    assert len(refusal) > 200


def test_a_long_line_of_input_is_still_quoted_short(judge: Judge) -> None:
    start_game(judge)
    reply = judge.mail("france@example.org", "SIGNON alpha France francepw\nA Par - Bur " + "x" * 400)
    assert "more characters)" in reply and "x" * 300 not in reply


def test_a_retreat_refused_names_the_retreats_open(judge: Judge) -> None:
    start_game(judge)
    judge.mail("russia@example.org", "SIGNON alpha Russia russiapw\nA War - Gal")
    judge.mail("gm@example.org", GM + "PROCESS")
    judge.mail("austria@example.org", "SIGNON alpha Austria austriapw\nA Bud - Gal\nA Vie S A Bud - Gal")
    judge.mail("gm@example.org", GM + "PROCESS")
    reply = judge.mail("russia@example.org", "SIGNON alpha Russia russiapw\nA Gal - Bud")
    line = next(line for line in reply.splitlines() if "cannot retreat to" in line)
    assert "the retreats open:" in line
    for open_province in ("boh", "rum", "sil", "ukr", "war"):
        assert open_province in line.lower()


# --- PREVIEW ----------------------------------------------------------------------------------------------------


def test_preview_adjudicates_the_players_guesses_and_shows_no_order_on_file(judge: Judge) -> None:
    """A player's what-if: his orders and his guesses at others' are adjudicated against the position now;
    nothing is stored, and nobody's real orders are used or shown."""
    start_game(judge)
    judge.mail("germany@example.org", "SIGNON alpha Germany germanypw\nA Mun - Ruh\nF Kie - Den")
    reply = judge.mail(
        "france@example.org", "SIGNON alpha France francepw\nPREVIEW alpha\nA Par - Bur\nA Mun - Bur\nENDPRESS"
    )
    assert "France:\n     A Par - Bur   -> A par - bur" in reply
    assert "Germany:\n     A Mun - Bur   -> A mun - bur" in reply
    assert "Movement preview for Spring" in reply
    assert "France:   A Par - Bur  (*bounce*)" in reply and "Germany:  F Kie H  (*unordered*)" in reply
    assert "Ruh" not in reply and "Den" not in reply  # Germany's real orders are neither used nor shown
    with judge.db.transaction() as s:
        assert sorted(o.power for o in s.scalars(select(OrderSet))) == ["Germany"]  # nothing stored


def test_preview_attaches_the_map_of_what_it_would_give(tmp_path: Path) -> None:
    db = open_database(f"sqlite:///{tmp_path / 'pictures.sqlite'}")
    try:
        judge = Judge(db, replace(CONFIG, pictures=True))
        start_game(judge)
        stored = judge.store("france@example.org", "SIGNON alpha France francepw\nPREVIEW\nA Par - Bur")
        judge.processor.process_pending()
        reply = judge.outbound(kind="reply", inbound_id=stored)[0]
        files = [part.get_filename() for part in reply.iter_attachments()]
        assert files == ["alpha-S1901M-preview.png"]
        assert "The map of the preview is attached (alpha-S1901M-preview.png)." in reply.get_body().get_content()
    finally:
        db.dispose()


def test_preview_needs_a_signed_on_player_and_orders(judge: Judge) -> None:
    start_game(judge)
    assert "sign on to your power first" in judge.mail("anyone@example.org", "PREVIEW alpha\nA Par - Bur")
    assert "PREVIEW needs orders" in judge.mail("france@example.org", "SIGNON alpha France francepw\nPREVIEW")


# --- the docs -----------------------------------------------------------------------------------------------------


def test_the_readmes_decode_line_reads_an_outbox_with_a_picture_in_it(tmp_path: Path) -> None:
    """README's one-liner used to fail with KeyError: 'multipart/mixed' once a results mail with a map was there."""
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    line = next(text for text in readme.splitlines() if "message_from_binary_file" in text)
    command = shlex.split(line.strip())
    assert command[:2] == [".venv/bin/python", "-c"]
    outbox = tmp_path / "var" / "outbox"
    outbox.mkdir(parents=True)
    plain = EmailMessage()
    plain.set_content("the reply")
    with_map = EmailMessage()
    with_map.set_content("the results")
    with_map.add_attachment(b"\x89PNG", maintype="image", subtype="png", filename="alpha-S1901M.png")
    (outbox / "00000001-reply.eml").write_bytes(bytes(plain))
    (outbox / "00000002-result.eml").write_bytes(bytes(with_map))
    done = subprocess.run([sys.executable, "-c", command[2]], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["the", "reply", "the", "results"]


def test_the_foot_of_a_reply_names_the_phase_only_where_the_mail_signed_on_to_a_game(judge: Judge) -> None:
    """docs/mail.md says which replies have the foot: those that signed on to a game, not LIST, HELP, REGISTER."""
    start_game(judge)
    assert "alpha is in Spring 1901 Movement." in judge.mail("france@example.org", "SIGNON alpha France francepw")
    for line in ("LIST alpha", "HELP", "REGISTER Somebody Else pw"):
        assert "is in Spring 1901" not in judge.mail("someone@example.org", line).split("\n\n")[-1]
