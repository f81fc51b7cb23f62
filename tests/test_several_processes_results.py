"""The results mails of a crowded deadline: the deadline keeper writes the copies of one sheet with the map picture
from one body (`judge.mail.announce.results_copies`), and every copy is byte for byte what the library writes."""

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


def test_every_copy_of_a_results_mail_is_what_the_library_writes_for_it(tmp_path: Path) -> None:
    seats, processed = _processed(tmp_path)
    copies = results_copies(CONFIG, seats, processed, ["looker@example.org"])
    assert [str(mail["To"]) for mail, _ in copies] == sorted([*seats.values(), "looker@example.org"])
    for mail, raw in copies:
        assert raw == bytes(mail), mail["To"]
    pictures = {
        str(parsed["To"]): [part.get_filename() for part in parsed.iter_attachments()]
        for parsed in (message_from_bytes(raw, policy=policy.default) for _, raw in copies)
    }
    assert pictures.pop("france@example.org") == []
    assert set(map(tuple, pictures.values())) == {("alpha-S1901M.png",)}


def test_the_copies_of_one_sheet_share_one_body_and_each_sheet_has_its_own(tmp_path: Path) -> None:
    seats, processed = _processed(tmp_path)
    copies = results_copies(CONFIG, seats, processed, ["looker@example.org"])
    bodies: dict[str, set[bytes]] = {}
    for mail, raw in copies:
        to = str(mail["To"])
        if to != "france@example.org":  # without the picture, a body of its own
            bodies.setdefault(to, set()).add(raw[raw.index(b"\n\n") :])
    by_body: dict[bytes, list[str]] = {}
    for to, (body,) in bodies.items():
        by_body.setdefault(body, []).append(to)
    # the GM sees the grey press's sender, Russia the grey press, the others (and the looker) neither
    assert sorted(map(sorted, by_body.values())) == [
        ["austria@example.org", "england@example.org", "germany@example.org", "italy@example.org",
         "looker@example.org", "turkey@example.org"],
        ["gm@example.org"],
        ["russia@example.org"],
    ]  # fmt: skip
