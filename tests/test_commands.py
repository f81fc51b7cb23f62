"""The command language by mail: stored mails in, replies (and result mail) out, through the real processor
and a real database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store import InboundMail, MailStatus, open_database
from judge.testing.mail_rig import Judge, start_game
from judge.testing.tables import POWERS


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


_started = start_game
"""A game created by the GM and joined by one player a power named (`france@example.org` asks for France)."""


def test_register_create_and_join_start_a_game_when_full(judge: Judge) -> None:
    _started(judge)
    last = judge.outbound(kind="reply")[-1].get_content()
    assert "has started" in last
    assert judge.outbound(kind="notice", to="gm@example.org")


def test_orders_after_signon_are_read_and_each_line_answered(judge: Judge) -> None:
    _started(judge)
    text = judge.mail("france@example.org", "SIGNON alpha France francepw\nA Paris - Burgundy\nF bre - xyz\nA mar H\n")
    assert "Signed on to alpha as France" in text
    assert "-> A par - bur" in text
    assert "'xyz' is not a place" in text
    again = judge.mail("france@example.org", "SIGNON alpha France francepw\nA par - pic\n")
    assert "replace the ones you sent before" in again


def test_njudge_signon_with_the_initial_glued_to_the_game(judge: Judge) -> None:
    _started(judge)
    assert "Signed on to alpha as France" in judge.mail("france@example.org", "SIGNON Falpha francepw")


def test_a_wrong_password_reveals_nothing_about_the_game(judge: Judge) -> None:
    _started(judge)
    wrong_password = judge.mail("x@example.org", "SIGNON alpha France guess")
    no_game = judge.mail("x@example.org", "SIGNON nosuchgame France guess")
    assert "signon failed: wrong game, power or password" in wrong_password
    assert wrong_password.replace("m1", "").count("failed") == no_game.count("failed")
    assert "guess" not in wrong_password


def test_gm_commands_need_the_gms_signon(judge: Judge) -> None:
    _started(judge)
    assert "this is a GM command" in judge.mail("france@example.org", "SIGNON alpha France francepw\nPROCESS")
    text = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    assert "Phase processed; results sent to 8 address(es)" in text
    results = judge.outbound(kind="result", to="france@example.org")
    assert "Movement results for Spring of 1901." in results[0].get_content()


def test_html_mail_and_a_quoted_reply_are_read_as_the_player_meant(judge: Judge) -> None:
    _started(judge)
    message = EmailMessage()
    message["From"] = "italy@example.org"
    message["Subject"] = "Re: orders"
    message.set_content("SIGNON alpha Italy italypw\nA ven - tyr\n\nOn Monday, judge wrote:\n> A rom - apu\n")
    message.add_alternative("<p>SIGNON alpha Italy italypw<br>A ven - tyr</p>", subtype="html")
    text = judge.raw(bytes(message), "italy@example.org")
    assert "-> A ven - tyr" in text
    orders, on_file = text.split("(orders)")[1].split("Orders on file")
    assert "A rom" not in orders
    assert "A rom - apu" not in on_file  # the quoted line was not filed: A rom is listed without an order


def test_bounces_and_auto_replies_are_never_answered(judge: Judge) -> None:
    judge.mail("MAILER-DAEMON@example.org", "Delivery failed")
    judge.mail("bob@example.org", "I am away", extra={"Auto-Submitted": "auto-replied"})
    judge.mail("bob@example.org", "list mail", extra={"Precedence": "bulk"})
    assert judge.outbound(kind="reply") == []
    with judge.db.transaction() as s:
        assert set(s.scalars(select(InboundMail.status))) == {MailStatus.IGNORED}


def test_every_reply_is_threaded_and_marked_automatic(judge: Judge) -> None:
    judge.mail("bob@example.org", "HELP", subject="question")
    reply = judge.outbound(kind="reply")[0]
    assert reply["In-Reply-To"] == "<m1@example.org>"
    assert reply["Auto-Submitted"] == "auto-replied"
    assert reply["X-Judge-Loop"] == "testjudge"
    assert reply["Subject"] == "Re: question"
    assert "REGISTER" in reply.get_content()


def test_a_header_injection_attempt_stays_in_the_subject(judge: Judge) -> None:
    raw = b"From: eve@example.org\r\nSubject: hi\r\n =?utf-8?q?x=0D=0ABcc:_victim@example.org?=\r\n\r\nHELP\r\n"
    judge.raw(raw, "eve@example.org")
    reply = judge.outbound(kind="reply")[0]
    assert reply["Bcc"] is None
    assert "victim" not in str(reply["To"])


def test_press_reaches_the_named_powers_and_the_gm(judge: Judge) -> None:
    _started(judge)
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET press.gm_reads=on")  # the GM reads private press
    text = judge.mail(
        "france@example.org", "SIGNON alpha France francepw\nPRESS TO England Germany\nShall we?\nENDPRESS"
    )
    assert "Press sent to 3 address(es)" in text
    press = judge.outbound(kind="press", to="england@example.org")
    assert "Shall we?" in press[0].get_content()
    assert not judge.outbound(kind="press", to="italy@example.org")


def test_the_gms_note_is_printed_with_the_results_and_history_finds_a_phase_by_its_code(judge: Judge) -> None:
    _started(judge)
    assert "Note for the results: Press is grey." in judge.mail(
        "gm@example.org", "SIGNON alpha MASTER gmpass\nNOTE Press is grey."
    )
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    results = judge.outbound(kind="result", to="italy@example.org")
    assert "Note from the GM: Press is grey." in results[0].get_content()
    history = judge.mail("italy@example.org", "HISTORY alpha S1901M")
    assert "Movement results for Spring of 1901." in history and "Note from the GM" not in history
    assert "has no processed phase F1905M" in judge.mail("italy@example.org", "HISTORY alpha F1905M")


def test_a_draw_by_every_survivor_is_announced_to_everyone_in_the_game(
    judge: Judge, golden: Callable[[str, str], None]
) -> None:
    _started(judge)
    for power in POWERS:
        text = judge.mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\nSET DRAW")
    assert "the game is drawn" in text
    for address in [*(f"{p.lower()}@example.org" for p in POWERS), "gm@example.org"]:
        assert len(judge.outbound(kind="result", to=address)) == 1, address
    golden("game_over_draw", judge.outbound(kind="result", to="gm@example.org")[0].get_content().replace("\r\n", "\n"))


def test_the_gms_terminate_is_announced_to_everyone_in_the_game(judge: Judge) -> None:
    _started(judge)
    assert "everyone in it is told" in judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nTERMINATE")
    ended = judge.outbound(kind="result", to="italy@example.org")
    assert ended and "alpha was ended by its GM in Spring 1901 Movement." in ended[0].get_content()


def test_grey_press_held_for_the_results_names_its_sender_only_to_the_gm(judge: Judge) -> None:
    _started(judge)
    judge.mail(
        "gm@example.org", "SIGNON alpha MASTER gmpass\nSET press_with_results=true press.type=grey press.gm_reads=on"
    )
    judge.mail("france@example.org", "SIGNON alpha France francepw\nPRESS TO England\nGuess who.\nENDPRESS")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    england = judge.outbound(kind="result", to="england@example.org")[0].get_content()
    assert "Grey press (its sender is not named) to England:" in england and "Guess who." in england
    gm = judge.outbound(kind="result", to="gm@example.org")[0].get_content()
    assert "Grey press from France (only the GM is told) to England:" in gm


def test_press_held_for_the_results_reaches_only_its_recipients_with_them(judge: Judge) -> None:
    _started(judge)
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET press_with_results=true press.gm_reads=on")
    text = judge.mail(
        "france@example.org", "SIGNON alpha France francepw\nPRESS TO England\nMeet in the Channel?\nENDPRESS"
    )
    assert "Press held: it goes to 2 address(es) with the next results." in text
    assert not judge.outbound(kind="press")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    england = judge.outbound(kind="result", to="england@example.org")[0].get_content()
    assert "Press released with these results:" in england and "Press from France to England:" in england
    assert "Meet in the Channel?" in judge.outbound(kind="result", to="gm@example.org")[0].get_content()
    assert "Meet in the Channel?" not in judge.outbound(kind="result", to="italy@example.org")[0].get_content()
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    assert "Meet in the Channel?" not in judge.outbound(kind="result", to="england@example.org")[1].get_content()


def test_an_observer_gets_the_results_and_broadcasts_but_not_private_press(judge: Judge) -> None:
    _started(judge)
    judge.mail("watcher@example.org", "REGISTER Watcher watchpw")
    assert "wrong password" in judge.mail("watcher@example.org", "OBSERVE alpha nope")
    assert "You observe alpha" in judge.mail("watcher@example.org", "OBSERVE alpha joinpw")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET press_with_results=true")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nPRESS TO England\nJust us.\nENDPRESS")
    judge.mail("france@example.org", "SIGNON alpha France francepw\nBROADCAST\nHello all.\nENDPRESS")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    sheet = judge.outbound(kind="result", to="watcher@example.org")[0].get_content()
    assert "Movement results for Spring of 1901." in sheet
    assert "Hello all." in sheet and "Just us." not in sheet
    assert "no longer observe" in judge.mail("watcher@example.org", "OBSERVE alpha OFF")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    assert len(judge.outbound(kind="result", to="watcher@example.org")) == 1


def test_summary_gives_the_centre_counts_at_the_end_of_each_year(judge: Judge) -> None:
    _started(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA mar - spa")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    lines = judge.mail("italy@example.org", "SUMMARY alpha").splitlines()
    header = next(line for line in lines if "Austria" in line)
    columns = header.split()
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.strip()[:4] in ("1900", "1901")}
    assert rows["1900"][columns.index("France")] == "3"
    assert rows["1901"][columns.index("France")] == "4"
    assert rows["1901"][columns.index("Russia")] == "4"
    # the game is in Winter 1901: the year is marked as not over yet, the years before are not
    assert next(line for line in lines if line.strip().startswith("1901")).endswith(
        "(the year is not over: centres so far)"
    )
    assert "not over" not in next(line for line in lines if line.strip().startswith("1900"))


def test_rollback_and_predict_by_mail(judge: Judge) -> None:
    _started(judge)
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA par - bur")
    predicted = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPREDICT")
    assert "Movement predicted results for Spring of 1901." in predicted
    assert "A Par - Bur" in predicted
    judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    assert "Rolled back to Spring 1901 Movement" in judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nROLLBACK")


def test_a_mail_that_keeps_failing_is_shunted_and_the_admin_told(judge: Judge) -> None:
    _started(judge)
    from judge.store import Game

    with judge.db.transaction() as s:  # a damaged game record: processing its orders raises
        game = s.scalars(select(Game)).one()
        game.position = {"phase": {}}
    assert judge.mail("france@example.org", "SIGNON alpha France francepw\nA par - bur") == ""
    for _ in range(2):
        judge.processor.process_pending()
    with judge.db.transaction() as s:
        row = s.scalars(select(InboundMail).order_by(InboundMail.id.desc())).first()
        assert row is not None
        assert (row.status, row.attempts) == (MailStatus.SHUNTED, 3)
        assert "KeyError" in (row.error or "")
    notices = judge.outbound(kind="notice", to="admin@example.org")
    assert "shunted" in notices[-1]["Subject"]
    assert not judge.outbound(kind="reply", inbound_id=row.id)


def test_a_failing_mail_does_not_take_its_batch_mates_with_it(judge: Judge) -> None:
    _started(judge)
    from judge.store import Game

    with judge.db.transaction() as s:  # a damaged game record: processing its orders raises
        s.scalars(select(Game)).one().position = {"phase": {}}
    before = judge.store("bob@example.org", "HELP")
    failing = judge.store("france@example.org", "SIGNON alpha France francepw\nA par - bur")
    after = judge.store("carol@example.org", "HELP JOIN")
    assert judge.processor.process_pending() == 2  # one batch: the two good mails are finished
    assert "SIGNON" in judge.reply_to(before) and "JOIN" in judge.reply_to(after)
    assert judge.reply_to(failing) == ""
    with judge.db.transaction() as s:
        row = s.get(InboundMail, failing)
        assert row is not None
        assert (row.status, row.attempts) == (MailStatus.RECEIVED, 1)  # to be tried again, alone
        assert "KeyError" in (row.error or "")


def test_a_password_changed_by_one_mail_counts_for_the_next_mail_of_the_same_batch(judge: Judge) -> None:
    _started(judge)
    first = judge.store("france@example.org", "SIGNON alpha France francepw\nA par - bur")  # reads the game
    changed = judge.store("france@example.org", "SET PASSWORD francepw newpw")
    new = judge.store("france@example.org", "SIGNON alpha France newpw\nA par - pic")
    old = judge.store("france@example.org", "SIGNON alpha France francepw\nA par - gas")
    assert judge.processor.process_pending() == 4  # one batch
    assert "-> A par - bur" in judge.reply_to(first)
    assert "Password changed" in judge.reply_to(changed)
    assert "-> A par - pic" in judge.reply_to(new)
    assert "signon failed" in judge.reply_to(old)


def test_a_flood_in_one_batch_is_held_to_the_rate_limit(judge: Judge) -> None:
    judge.processor.rate_limit = 2
    stored = [judge.store("chatty@example.org", "HELP") for _ in range(3)]
    assert judge.processor.process_pending() == 2
    assert [bool(judge.reply_to(inbound_id)) for inbound_id in stored] == [True, True, False]


def test_a_mail_that_keeps_bringing_the_judge_down_is_shunted_without_another_try(judge: Judge) -> None:
    stored = judge.store("bob@example.org", "HELP")
    with judge.db.transaction() as s:  # three attempts, none of which finished: the process died each time
        row = s.get(InboundMail, stored)
        assert row is not None
        row.attempts = 3
    judge.processor.process_pending()
    with judge.db.transaction() as s:
        row = s.get(InboundMail, stored)
        assert row is not None
        assert (row.status, row.attempts) == (MailStatus.SHUNTED, 3)
        assert "stopped while handling it" in (row.error or "")
    assert judge.reply_to(stored) == ""
    assert "shunted" in judge.outbound(kind="notice", to="admin@example.org")[-1]["Subject"]


def test_a_flood_from_one_address_does_not_keep_other_mail_waiting(judge: Judge) -> None:
    judge.processor.rate_limit = 2
    flood = [judge.store("chatty@example.org", "HELP") for _ in range(5)]
    bob = judge.store("bob@example.org", "HELP")
    judge.processor.process_pending(limit=3)  # the round is all flood: two answered, one held back
    judge.processor.process_pending(limit=3)  # the held one is left out, so the round reaches Bob
    assert "SIGNON" in judge.reply_to(bob)
    assert sum(bool(judge.reply_to(inbound_id)) for inbound_id in flood) == 2


def test_a_mail_is_answered_once_even_if_processed_again(judge: Judge) -> None:
    judge.mail("bob@example.org", "HELP")
    judge.processor.process_pending()
    judge.processor.process_one(1)
    assert len(judge.outbound(kind="reply")) == 1


def test_help_lists_every_command_from_the_registry(judge: Judge) -> None:
    from judge.commands import REGISTRY

    text = judge.mail("bob@example.org", "HELP")
    for name in REGISTRY:
        assert REGISTRY[name].usage.split()[0] in text


def test_a_sender_over_the_rate_limit_waits_and_is_answered_later(judge: Judge) -> None:
    judge.processor.rate_limit = 2
    for _ in range(3):
        judge.mail("chatty@example.org", "HELP")
    assert len(judge.outbound(kind="reply", to="chatty@example.org")) == 2
    with judge.db.transaction() as s:
        waiting = s.scalars(select(InboundMail).where(InboundMail.status == MailStatus.RECEIVED)).all()
        assert len(waiting) == 1 and waiting[0].attempts == 0  # deferred, not lost, not counted as a failure
    judge.clock.advance(timedelta(minutes=11))
    judge.processor.process_pending()
    assert len(judge.outbound(kind="reply", to="chatty@example.org")) == 3


def test_password_and_address_changes_by_mail(judge: Judge) -> None:
    judge.mail("old@example.org", "REGISTER Old Hand secret1")
    assert "Password changed" in judge.mail("old@example.org", "SET PASSWORD secret1 secret2")
    assert "wrong password" in judge.mail("old@example.org", "SET PASSWORD secret1 secret3")
    assert "now goes to new@example.org" in judge.mail("old@example.org", "SET ADDRESS secret2 new@example.org")
    reply = judge.mail("old@example.org", "SET PASSWORD secret2 x")
    assert "unknown address or wrong password" in reply
    assert "****" in reply and "secret2" not in reply


def test_the_gm_sets_deadlines_and_orders_for_a_power_with_become(judge: Judge) -> None:
    _started(judge)
    text = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET DEADLINE +24h\nBECOME Turkey\nA con - bul")
    assert "Read '+24h' as Fri 02 Jan 2026 12:00 UTC (in 1 day); everyone in the game is told." in text
    assert "-> A con - bul" in text
    assert "Set grace_hours=6h: late orders" in judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET GRACE 6")
    assert "can only be changed before alpha starts" in judge.mail(
        "gm@example.org", "SIGNON alpha MASTER gmpass\nSET edition=1971"
    )


def test_shunted_mail_is_listed_shown_and_retried_from_the_command_line(
    judge: Judge, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from judge.cli import main
    from judge.store import Game

    _started(judge)
    with judge.db.transaction() as s:
        s.scalars(select(Game)).one().position = {"phase": {}}
    judge.mail("france@example.org", "SIGNON alpha France francepw\nA par - bur")
    for _ in range(2):
        judge.processor.process_pending()
    url = str(judge.db.engine.url)
    config = tmp_path / "judge.toml"
    config.write_text(f'[database]\nurl = "{url}"\n', encoding="utf-8")
    assert main(["--config", str(config), "shunt", "list"]) == 0
    listed = capsys.readouterr().out
    shunted_id = int(listed.split()[0])
    assert main(["--config", str(config), "shunt", "show", str(shunted_id)]) == 0
    assert "KeyError" in capsys.readouterr().out
    assert main(["--config", str(config), "shunt", "retry", str(shunted_id)]) == 0
    with judge.db.transaction() as s:
        row = s.get(InboundMail, shunted_id)
        assert row is not None and row.status == MailStatus.RECEIVED and row.attempts == 0


def test_a_process_mail_that_meets_the_deadline_keeper_does_not_process_the_next_phase(judge: Judge) -> None:
    """Issue 19, item 2: the GM's PROCESS arrives; before it is handled the phase is processed at its deadline (by
    this judge's keeper or another process's): the PROCESS is answered, and the next phase is left alone."""
    from judge.game import Games

    _started(judge)
    asked = judge.store("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    judge.clock.advance(timedelta(seconds=1))
    Games(judge.db, judge.clock).adjudication.process("alpha", expected_index=0)  # the deadline keeper's turn
    judge.processor.process_pending()
    reply = judge.reply_to(asked)
    assert "after your mail arrived" in reply and "send PROCESS again" in reply
    assert Games(judge.db, judge.clock).reads.game("alpha").phase_index == 1
    again = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS\nPROCESS")
    assert again.count("Phase processed") == 2  # a second PROCESS in one mail goes on from the first
    assert Games(judge.db, judge.clock).reads.game("alpha").phase_index == 3


@pytest.mark.parametrize(
    "line",
    [
        "OBSERVE alpha s3cret",
        "JOIN alpha s3cret France",
        "CREATE beta standard s3cret edition=1982",
        "SIGNON alpha France s3cret",
        "SIGNON Falpha s3cret",
        "REGISTER Anna Smith s3cret",
        "SET PASSWORD s3cret s3cret",
        "SET ADDRESS s3cret new@example.org",
    ],
)
def test_a_secret_argument_is_blanked_wherever_its_command_is_quoted(judge: Judge, line: str) -> None:
    """Each command says which of its arguments are secrets (`Command.secrets`); the reply never shows them,
    whether the command worked or not."""
    _started(judge)
    reply = judge.mail("france@example.org", line)
    assert "s3cret" not in reply
    assert "****" in reply


def test_a_name_that_is_an_address_is_refused_at_registration(judge: Judge) -> None:
    """The name is shown to the other players and on the web, where no address may be."""
    reply = judge.mail("anna@example.org", "REGISTER anna@example.org s3cret")
    assert "give your name, not an address" in reply and "s3cret" not in reply
    assert "is registered as Anna" in judge.mail("anna@example.org", "REGISTER Anna s3cret")
