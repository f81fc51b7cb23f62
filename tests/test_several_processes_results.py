"""The results mails of a crowded deadline: the deadline keeper writes one mail a sheet with the map picture
(`judge.mail.announce.results_copies`), byte for byte what the library writes, for everyone who reads that sheet."""

from __future__ import annotations

from email import message_from_bytes, policy
from pathlib import Path

from judge.config import Config
from judge.game import Games
from judge.game.adjudication import Processed
from judge.mail.announce import results_copies
from judge.store import open_database
from judge.testing.tables import OPENING_ORDERS, POWERS

CONFIG = Config(address="judge@example.org", name="testjudge")


def _processed(tmp_path: Path) -> tuple[dict[str, str], Processed]:
    """Spring 1901 of a standard game with held press (one message to all, one grey to two powers), France not
    wanting pictures; the addresses of its players and GM."""
    service = Games(open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}"))
    service.accounts.register("gm@example.org", "GM", "pw")
    settings = {"press_with_results": True, "press": {"type": "grey"}}
    service.seating.create_game("alpha", "standard", "gm@example.org", "pw", settings=settings, seed=3)
    for power in POWERS:
        service.accounts.register(f"{power.lower()}@example.org", power, "pw")
        service.seating.join("alpha", f"{power.lower()}@example.org", "pw", [power])
    for power in POWERS:
        service.orders.submit("alpha", power, OPENING_ORDERS[power].split("\n"))
    service.talk.post_press("alpha", "England", ["*"], "Peace in our time.")
    service.talk.post_press("alpha", "Germany", ["France", "Russia"], "Guess who.", grey=True)
    service.setup.set_pictures("alpha", ["France"], False)
    processed = service.adjudication.process("alpha")
    assert processed is not None
    return service.reads.audience("alpha").with_gm(), processed


def test_everyone_who_sees_the_same_sheet_gets_one_mail_written_once(tmp_path: Path) -> None:
    """Issue 31: one message a sheet (the same press, the same picture or none), its bytes what the library writes,
    for all its recipients in one SMTP transaction."""
    seats, processed = _processed(tmp_path)
    mails = results_copies(CONFIG, seats, processed, ["looker@example.org"])
    everyone = sorted([*seats.values(), "looker@example.org"])
    assert sorted(a for mail in mails for a in mail.recipients) == everyone  # each once
    for mail in mails:
        assert mail.raw == bytes(mail.message)
    by_recipients = {mail.recipients: mail for mail in mails}
    # the GM sees the grey press's sender, Russia the grey press, France no picture, the others (and the looker)
    # the same sheet with the picture
    assert sorted(by_recipients) == sorted([
        ("austria@example.org", "england@example.org", "germany@example.org", "italy@example.org",
         "looker@example.org", "turkey@example.org"),
        ("france@example.org",),
        ("gm@example.org",),
        ("russia@example.org",),
    ])  # fmt: skip
    pictures = {
        to: [part.get_filename() for part in message_from_bytes(mail.raw, policy=policy.default).iter_attachments()]
        for to, mail in by_recipients.items()
    }
    assert pictures.pop(("france@example.org",)) == []
    assert set(map(tuple, pictures.values())) == {("alpha-S1901M.png",)}


def test_no_address_of_one_reader_appears_in_the_mail_of_another(tmp_path: Path) -> None:
    """A mail for several people is addressed to the game, never to them: only the envelope names them."""
    seats, processed = _processed(tmp_path)
    mails = results_copies(CONFIG, seats, processed, ["looker@example.org"])
    everyone = {*seats.values(), "looker@example.org"}
    for mail in mails:
        shown = {address for address in everyone if address.encode() in mail.raw}
        assert shown == (set(mail.recipients) if len(mail.recipients) == 1 else set()), mail.recipients
        if len(mail.recipients) > 1:
            assert str(mail.message["To"]) == "alpha results:;"
