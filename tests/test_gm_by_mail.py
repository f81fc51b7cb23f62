"""Running a game by mail as a GM and players would (issue: "Running and playing a game by mail"): every mail goes
into a real Dovecot mailbox, the judge runs as `judge serve` runs it (IMAP intake, processor, sender, deadline
keeper), and what it sends is caught by a real SMTP relay. One judge serves the module; each test plays its own
game."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge.testing.by_mail import MailJudge, running_judge
from judge.testing.dovecot import DovecotServer
from judge.testing.tables import OPENING_ORDERS, POWERS

pytestmark = pytest.mark.slow  # end to end: real servers (make test-fast skips them)


@pytest.fixture(scope="module")
def judge(dovecot: DovecotServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MailJudge]:
    # the results' text is what these tests read; the map pictures cross a real relay in test_mail_end_to_end
    with running_judge(dovecot, tmp_path_factory.mktemp("gm"), "judge") as judge:
        yield judge


def _gm(game: str) -> str:
    return f"SIGNON {game} MASTER gmpass\n"


# --- defects --------------------------------------------------------------------------------------------


def test_1_terminate_before_the_start_is_answered_and_the_rest_of_the_mail_runs(judge: MailJudge) -> None:
    judge.send("gm@example.org", "REGISTER The GM gmpass")
    judge.send("gm@example.org", "CREATE early standard joinpw")
    judge.send(judge.player("early", "France"), "REGISTER F Player pw1\nJOIN early joinpw")
    reply = judge.send("gm@example.org", _gm("early") + "TERMINATE\nHELP SET")
    assert "early is terminated" in reply
    assert "Settings the GM changes" in reply  # the command after it ran too
    assert judge.wait_mails(judge.player("early", "France"), "early: terminated")


def test_2_a_rollback_waits_for_the_deadline_or_process_and_everyone_is_told(judge: MailJudge) -> None:
    judge.game("rolls")
    for power in POWERS:
        judge.send(judge.player("rolls", power), f"SIGNON rolls {power} {power.lower()}pw\n{OPENING_ORDERS[power]}")
    judge.wait_mails(judge.player("rolls", "France"), "results of Spring 1901")  # processed early: all in
    reply = judge.send("gm@example.org", _gm("rolls") + "ROLLBACK 0 KEEP")
    assert "Rolled back to Spring 1901 Movement" in reply
    told = judge.wait_mails(judge.player("rolls", "Italy"), "rolled back")
    assert "orders sent for it are kept" in told[0].get_content()
    time.sleep(2)  # the keeper has ticked meanwhile: the restored orders must not be processed again
    assert len(judge.mails(to=judge.player("rolls", "France"), subject="results of Spring 1901")) == 1
    judge.send("gm@example.org", _gm("rolls") + "PROCESS")
    assert len(judge.wait_mails(judge.player("rolls", "France"), "results of Spring 1901", 2)) == 2


def test_4_rule_options_by_mail_at_create_and_by_set(judge: MailJudge) -> None:
    judge.send("gm@example.org", "REGISTER The GM gmpass")
    assert "created" in judge.send("gm@example.org", "CREATE opts standard joinpw edition=1982")
    reply = judge.send("gm@example.org", _gm("opts") + "SET edition=2000")
    assert "Set edition=2000 (rule option)." in reply
    wrong = judge.send("gm@example.org", _gm("opts") + "SET edition=1999")
    assert "one of 2023, 2000, 1982, 1971" in wrong


def test_5_orders_from_another_address_are_copied_to_the_player(judge: MailJudge) -> None:
    judge.game("copy")
    judge.send("someone@else.example.org", "SIGNON copy France francepw\nA Par - Bur")
    copy = judge.wait_mails(judge.player("copy", "France"), "sent from another address")
    assert "someone@else.example.org" in copy[0].get_content()
    assert "A par - bur" in copy[0].get_content()


def test_7_results_print_only_orders(judge: MailJudge) -> None:
    judge.game("sheet")
    judge.send(judge.player("sheet", "Germany"), "SIGNON sheet Germany germanypw\nA Mun - Ruh\nCarol")
    judge.send(judge.player("sheet", "France"), "SIGNON sheet France francepw\nA Mun - Bur\nA Par - Burgundyy")
    judge.send("gm@example.org", _gm("sheet") + "PROCESS")
    text = judge.wait_mails(judge.player("sheet", "Italy"), "results of Spring 1901")[0].get_content()
    assert "Carol" not in text
    assert "Burgundyy" not in text
    assert "A Mun - Bur" not in text  # France's order for a German unit
    assert text.count("A Par") == 1


def test_8_and_9_a_reply_is_capped_and_never_shows_a_password(judge: MailJudge) -> None:
    long_line = "A Par - " + "x" * 100_000
    reply = judge.send("big@example.org", "HELLO\n" + long_line)
    assert len(reply) < 5_000
    assert "more characters" in reply
    typo = judge.send("typo@example.org", "SINGON somegame France topsecret9")
    assert "topsecret9" not in typo
    assert "did you mean SIGNON" in typo


def test_10_set_with_an_unknown_name_is_refused_and_help_explains_set(judge: MailJudge) -> None:
    judge.send("gm@example.org", "REGISTER The GM gmpass")
    judge.send("gm@example.org", "CREATE sets standard joinpw")
    refused = judge.send("gm@example.org", _gm("sets") + "SET manaul=true")
    assert "there is no setting 'manaul'" in refused
    both = judge.send("gm@example.org", _gm("sets") + "SET timing.manual=true\nSET manual=false")
    assert "Set timing.manual=on." in both and "Set manual=off." in both
    help_set = judge.send("gm@example.org", "HELP SET")
    assert "SET DEADLINE" in help_set and "timing.zone" in help_set
    assert "example: SET DEADLINE tomorrow 18:00" in judge.send("gm@example.org", "HELP SET DEADLINE")


def test_11_set_deadline_in_the_forms_people_type(judge: MailJudge) -> None:
    judge.game("when")
    reply = judge.send("gm@example.org", _gm("when") + "SET timing.zone=Europe/London\nSET DEADLINE tomorrow 18:00")
    assert "Read 'tomorrow 18:00' as" in reply and "18:00 Europe/London" in reply
    absolute = judge.send("gm@example.org", _gm("when") + "SET DEADLINE 2030-11-23 21:17")
    assert "Sat 23 Nov 2030 21:17 Europe/London" in absolute
    relative = judge.send("gm@example.org", _gm("when") + "SET DEADLINE +3h")
    assert "Read '+3h' as" in relative
    assert judge.wait_mails(judge.player("when", "Turkey"), "new deadline", 3)


def test_12_after_terminate_the_footer_shows_no_old_phase(judge: MailJudge) -> None:
    judge.game("over")
    judge.send("gm@example.org", _gm("over") + "TERMINATE")
    reply = judge.send(judge.player("over", "France"), "SIGNON over France francepw\nSET DRAW")
    assert "Deadline:" not in reply
    assert "over is in Spring 1901" not in reply
    assert "the game is over" in reply


def test_6_pause_resume_eject_and_replace_are_announced(judge: MailJudge) -> None:
    judge.game("told")
    judge.send("gm@example.org", _gm("told") + "PAUSE\nRESUME\nEJECT Italy")
    for subject in ("paused", "resumed", "Italy ejected"):
        assert judge.wait_mails(judge.player("told", "France"), subject)
    judge.send("newbie@example.org", "REGISTER New Player newpw")
    judge.send("gm@example.org", _gm("told") + "REPLACE Italy newbie@example.org")
    assert judge.wait_mails(judge.player("told", "England"), "Italy replaced")


def test_3_a_retreat_phase_with_only_destroyed_units_is_processed_at_once(judge: MailJudge) -> None:
    judge.game("nowhere")
    spring = {"Germany": "A Mun - Tyr", "Italy": "A Ven - Pie\nA Rom - Ven", "Austria": "A Bud - Gal"}
    for power, orders in spring.items():
        judge.send(judge.player("nowhere", power), f"SIGNON nowhere {power} {power.lower()}pw\n{orders}")
    judge.send("gm@example.org", _gm("nowhere") + "PROCESS")
    judge.wait_mails(judge.player("nowhere", "Germany"), "results of Spring 1901")
    # Fall: the German army in Tyrolia is dislodged with every neighbour taken, held or the attacker's origin
    fall = {
        "Austria": "A Vie - Tyr\nA Gal - Boh\nF Tri H",
        "Italy": "A Ven S A Vie - Tyr\nA Pie H",
        "Germany": "A Tyr H\nA Ber - Mun",
    }
    for power, orders in fall.items():
        judge.send(judge.player("nowhere", power), f"SIGNON nowhere {power} {power.lower()}pw\n{orders}")
    judge.send("gm@example.org", _gm("nowhere") + "PROCESS")
    judge.wait_mails(judge.player("nowhere", "Germany"), "results of Fall 1901 Movement")
    # nobody has anything to decide in the retreat phase: its results follow without waiting for its deadline
    retreat = judge.wait_mails(judge.player("nowhere", "Germany"), "results of Fall 1901 Retreat")
    assert "A Tyr" in retreat[0].get_content()


# --- what a mature judge also does ----------------------------------------------------------------------


def test_13_every_player_gets_a_game_start_mail_with_the_players_and_the_first_phase(judge: MailJudge) -> None:
    judge.game("begin")
    for power in POWERS:
        start = judge.wait_mails(judge.player("begin", power), "begin has started")[0].get_content()
        assert "begin has started: Standard Diplomacy" in start
        assert "France Player" in start and "Turkey:" in start
        assert "The first phase is Spring 1901 Movement" in start
    judge.send("gm@example.org", "CREATE place multiplicity1 joinpw")
    for power in POWERS:
        judge.send(
            judge.player("place", power), f"REGISTER {power} of place {power.lower()}pw\nJOIN place joinpw {power}"
        )
    placing = judge.wait_mails(judge.player("place", "Russia"), "place has started")[0].get_content()
    assert "The game opens with Winter 1900 Adjustment: each power places its units" in placing


def test_14_the_position_on_demand(judge: MailJudge) -> None:
    judge.game("where")
    listed = judge.send("observer@example.org", "LIST where")
    assert "Phase: Movement for Spring 1901." in listed
    assert "Russia: A Mos, A War, F Sev, F Stp/sc" in listed
    assert "3 centres: Bre, Mar, Par" in listed


def test_16_results_open_with_njudge_lines_mappers_read(judge: MailJudge) -> None:
    judge.game("maps")
    judge.send("gm@example.org", _gm("maps") + "PROCESS")
    text = judge.wait_mails(judge.player("maps", "France"), "results of Spring 1901")[0].get_content()
    text = text.replace("\r\n", "\n")
    assert text.startswith(":: Judge: TEST  Game: Maps  Variant: Standard\n:: Deadline: S1901M ")
    assert "Movement results for Spring of 1901." in text
    assert "France:   A Par H  (*unordered*)" in text  # the zines' form by default


def test_16_njudge_order_lines_with_full_names_set_at_create_or_by_set(judge: MailJudge) -> None:
    """`results.orders=njudge` and `results.names=full`: the lines njudge's mappers and jDip's import read."""
    judge.game("mapped", options="results.orders=njudge")
    reply = judge.send("gm@example.org", _gm("mapped") + "SET results.names=full")
    assert "Set results.names=full." in reply
    for power in ("France", "Germany"):
        orders = {"France": "A par - bur\nF bre - mao", "Germany": "A mun - bur\nA ber S A mun - bur"}[power]
        judge.send(judge.player("mapped", power), f"SIGNON mapped {power} {power.lower()}pw\n{orders}")
    judge.send("gm@example.org", _gm("mapped") + "PROCESS")
    text = judge.wait_mails(judge.player("mapped", "Italy"), "results of Spring 1901")[0].get_content()
    assert "France:   Army Paris -> Burgundy.  (*bounce*)" in text
    assert "France:   Fleet Brest -> Mid-Atlantic Ocean." in text
    assert "Germany:  Army Berlin SUPPORT Army Munich -> Burgundy." in text
    assert "Russia:   Fleet St. Petersburg (south coast) HOLD.  (*unordered*)" in text


def test_17_every_mail_is_logged_stored_and_then_answered_or_ignored(
    judge: MailJudge, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="judge")
    answered = judge.deliver("logged@example.org", "HELP")
    bounce = EmailMessage()
    bounce["From"] = "MAILER-DAEMON@example.org"
    bounce["To"] = "judge@example.org"
    bounce["Subject"] = "Undelivered Mail Returned to Sender"
    bounce["Auto-Submitted"] = "auto-replied"
    bounce["Message-ID"] = "<bounce.logged@example.org>"
    bounce.set_content("This is the mail system.")
    judge.dovecot.append("judge", bytes(bounce))
    for _ in range(600):
        text = caplog.text
        if f"{answered}: processed" in text and "<bounce.logged@example.org>: ignored" in text:
            break
        time.sleep(0.05)
    assert f"{answered}: stored from imap" in caplog.text
    assert f"{answered}: processed (answered logged@example.org)" in caplog.text
    assert "<bounce.logged@example.org>: ignored (never answered: bounce)" in caplog.text


def test_docs_mail_lists_every_command_with_an_example() -> None:
    from judge.commands import REGISTRY

    text = (Path(__file__).resolve().parents[1] / "docs" / "mail.md").read_text(encoding="utf-8")
    commands = text[text.index("## Commands") : text.index("## Administration")]
    for name, cls in REGISTRY.items():
        shown = "SET name=value" if name == "SET OPTION" else name
        assert f"`{shown}" in commands or f"{shown}`" in commands or f"`{shown} " in commands, name
        assert cls.example, f"{name} has no example for HELP"


def test_15_press_held_for_the_results_is_delivered_when_the_game_ends_without_them(judge: MailJudge) -> None:
    judge.game("hush")
    judge.send("gm@example.org", _gm("hush") + "SET press_with_results=true")
    judge.send(
        judge.player("hush", "France"), "SIGNON hush France francepw\nPRESS TO England\nMeet in the Channel?\nENDPRESS"
    )
    judge.send("gm@example.org", _gm("hush") + "TERMINATE")
    released = judge.wait_mails(judge.player("hush", "England"), "hush: press released")[0].get_content()
    assert "Meet in the Channel?" in released
    assert not judge.mails(to=judge.player("hush", "Germany"), subject="press released")


def _signon(judge: MailJudge, game: str, power: str) -> str:
    return f"SIGNON {game} {power} {power.lower()}pw\n"


def test_15_an_absence_moves_a_deadline_that_falls_in_it_and_everyone_is_told(judge: MailJudge) -> None:
    """absence.mode=extend (the default): the deadline (48 hours away) falls in France's absence, so it moves to a
    day after the absence ends."""
    judge.game("away")
    today = datetime.now(UTC).date()
    last = today + timedelta(days=3)
    reply = judge.send(
        judge.player("away", "France"), _signon(judge, "away", "France") + f"SET ABSENCE {today} TO {last}"
    )
    assert f"France is away from {today:%a %d %b %Y} to {last:%a %d %b %Y}" in reply
    assert "The deadline falls in it and moves to" in reply
    moved = last + timedelta(days=2)  # the end of the last day, then a day
    told = judge.wait_mails(judge.player("away", "Italy"), "deadline extended")[0].get_content()
    assert f"extended to {moved:%a %d %b %Y} 00:00" in told
    refused = judge.send(judge.player("away", "France"), _signon(judge, "away", "France") + "SET ABSENCE next week")
    assert "write the days away as 2026-12-01 TO 2026-12-05" in refused
    assert "France has no absence now" in judge.send("gm@example.org", _gm("away") + "SET NO ABSENCE France")


def test_15_under_absence_hold_the_phase_goes_on_without_the_absent_power(judge: MailJudge) -> None:
    """absence.mode=hold: the deadline stands, the phase does not wait for the absent power, which is not late."""
    judge.game("holds", options="absence.mode=hold")
    today = datetime.now(UTC).date()
    reply = judge.send(judge.player("holds", "France"), _signon(judge, "holds", "France") + f"SET ABSENCE {today}")
    assert "the game does not wait for your orders" in reply
    for power in POWERS:
        if power != "France":
            judge.send(judge.player("holds", power), _signon(judge, "holds", power) + OPENING_ORDERS[power])
    results = judge.wait_mails(judge.player("holds", "France"), "results of Spring 1901")[0].get_content()
    assert "France:   A Par H  (*unordered*)" in results
    assert "No orders were received from" not in results


def test_15_grey_press_hides_its_sender_from_all_but_the_gm(judge: MailJudge) -> None:
    judge.game("grey", options="press.type=both press.gm_reads=on")  # the GM reads private press
    sent = judge.send(
        judge.player("grey", "France"), _signon(judge, "grey", "France") + "PRESS TO England GREY\nTrust me.\nENDPRESS"
    )
    assert "Press sent as grey press (your power is not named)" in sent
    england = judge.wait_mails(judge.player("grey", "England"), "grey: press")[0]
    assert "France" not in str(england["Subject"]) and "France" not in england.get_content()
    assert "Grey press (its sender is not named) to England:" in england.get_content()
    gm = judge.wait_mails("gm@example.org", "grey: press")[0].get_content()
    assert "Grey press from France (only the GM is told) to England:" in gm


def test_15_no_press_and_no_partial_press_are_refused_but_press_to_the_gm_goes(judge: MailJudge) -> None:
    judge.game("quiet", options="press.type=none")
    france = _signon(judge, "quiet", "France")
    refused = judge.send(judge.player("quiet", "France"), france + "PRESS TO England\nHello\nENDPRESS")
    assert "this game has no press between players (press.type=none)" in refused
    to_gm = judge.send(judge.player("quiet", "France"), france + "PRESS TO GM\nMay I?\nENDPRESS")
    assert "Press sent to 1 address(es)" in to_gm
    assert "May I?" in judge.wait_mails("gm@example.org", "quiet: press")[0].get_content()
    judge.send("gm@example.org", _gm("quiet") + "SET press.type=white press.partial=false")
    partial = judge.send(judge.player("quiet", "France"), france + "PRESS TO England\nHello\nENDPRESS")
    assert "this game has no partial press (press.partial=false)" in partial
    assert "Press sent" in judge.send(judge.player("quiet", "France"), france + "BROADCAST\nHello all\nENDPRESS")
    grey = judge.send(judge.player("quiet", "France"), france + "BROADCAST GREY\nWho am I\nENDPRESS")
    assert "this game's press is white only" in grey


def test_15_a_draw_among_named_powers_when_every_survivor_names_the_same(judge: MailJudge) -> None:
    judge.game("pair", options="draw.dias=false")
    for power in POWERS:
        reply = judge.send(judge.player("pair", power), _signon(judge, "pair", power) + "SET DRAW France, Germany")
    assert "the game is drawn (France, Germany)" in reply
    over = judge.wait_mails(judge.player("pair", "Italy"), "the game is over (draw)")[0].get_content()
    assert "pair is drawn among France, Germany: every surviving power voted for this draw." in over
    judge.game("dias")
    refused = judge.send(judge.player("dias", "Italy"), _signon(judge, "dias", "Italy") + "SET DRAW France Germany")
    assert "draws include every surviving power (draw.dias=true)" in refused


def test_15_concession_to_one_power_ends_the_game(judge: MailJudge) -> None:
    judge.game("yield")
    for power in POWERS:
        if power != "Turkey":
            reply = judge.send(judge.player("yield", power), _signon(judge, "yield", power) + "CONCEDE Turkey")
    assert "Turkey wins the game" in reply
    over = judge.wait_mails(judge.player("yield", "Turkey"), "the game is over (conceded)")[0].get_content()
    assert "yield is conceded to Turkey, who wins." in over


def test_15_a_game_started_short_of_players_has_its_other_powers_in_civil_disorder(judge: MailJudge) -> None:
    judge.send("gm@example.org", "REGISTER The GM gmpass")
    judge.send("gm@example.org", "CREATE short standard joinpw")
    joined = ("England", "France", "Germany")
    for power in joined:
        judge.send(
            judge.player("short", power), f"REGISTER {power} of short {power.lower()}pw\nJOIN short joinpw {power}"
        )
    refused = judge.send("gm@example.org", _gm("short") + "START")
    assert "needs 7 players and has 3; START CD starts it now" in refused
    started = judge.send("gm@example.org", _gm("short") + "START CD")
    assert (
        "In civil disorder (units hold, removals by the civil-disorder rules): Austria, Italy, Russia, Turkey"
        in started
    )
    start = judge.wait_mails(judge.player("short", "England"), "short has started")[0].get_content()
    assert "Austria:    civil disorder" in start
    for power in joined:  # the phase waits only for the powers that are played
        judge.send(judge.player("short", power), _signon(judge, "short", power) + OPENING_ORDERS[power])
    results = judge.wait_mails(judge.player("short", "France"), "results of Spring 1901")[0].get_content()
    assert "Russia:   A Mos H  (*unordered*)" in results
    assert "No orders were received from" not in results
