"""Issue 40, end to end: games of Hoplite Wars and CW Heptadiplomacy (options A and B) by mail through a real Dovecot
(every mail in by IMAP), the whole daemon and a real SMTP relay (every mail out). Each player's start mail says what
he plays; PRESS TO reaches a player by each name the judge prints; the GM replaces and ejects whole sides by those
names, after which the player who left can neither sign on (as any of the side's names) nor receives the results;
the game ends by votes (a Hoplite draw, Heptadiplomacy concessions) cast by side names (docs/mail.md, "Names")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_sides_whole_games import GM, SEED, Delivered, Seat, Table, _check_privacy, _phase, _play, _start

from judge.testing.dovecot import DovecotServer
from judge.testing.smtp_relay import SmtpRelay
from judge.variants import get_variant

pytestmark = pytest.mark.slow  # end to end: real servers, whole games (make test-fast skips them)


def _other_power(seat: Seat) -> str:
    """A power of the side that is not the side's name (the Minor; a board-nation)."""
    return next(p for p in seat.powers if p != seat.name)


def _key(name: str) -> str:
    """A name as a player may write it: no spaces, lower case (`player2`, `sparta+elatea`)."""
    return "".join(name.split()).lower()


def _mails_to(mails: list[Delivered], address: str, subject: str = "") -> list[Delivered]:
    return [m for m in mails if m.to == address and subject in str(m.message["Subject"])]


def _told_what_each_plays(table: Table, options: str) -> None:
    """Issue 40, "each player told what he plays": his copy of the start mail names his side, and under
    Heptadiplomacy his board-nations; nobody else's copy names them."""
    table.read = 0
    mails = table.new_mail()
    described = {side.name: side.described for side in get_variant(table.variant).sides(_options(options))}
    for seat in table.seats:
        (start,) = _mails_to(mails, seat.address, "has started")
        assert f"You play {described[seat.name]}." in start.text, start.text
        assert f"SIGNON {table.game} {seat.name} <password>" in start.text
        for other in table.seats:
            if other is not seat and len(other.powers) > 2:
                assert ", ".join(other.powers) not in start.text


def _options(written: str) -> dict[str, object]:
    return {key: value for key, _, value in (pair.partition("=") for pair in written.split())}


def _press_by_every_name(table: Table) -> None:
    """PRESS TO the side's name, its label, one of its powers and the name as typed quickly each reach its player
    alone (the GM reads no private press unless `press.gm_reads` is on), headed by the sides' names."""
    sender, reader = table.seats[0], table.seats[3]
    forms = {reader.name, reader.label, _other_power(reader), _key(reader.label)}
    for n, form in enumerate(sorted(forms)):
        body = f"Note number {n} to {form}."
        table.send(
            sender.address, f"SIGNON {table.game} {sender.name} {sender.password}\nPRESS TO {form}\n{body}\nENDPRESS"
        )
        table.settle()
        mails = table.new_mail()
        _check_privacy(table, mails, {})
        got = [m for m in mails if body in m.text]
        assert [m.to for m in got] == [reader.address], (form, [m.to for m in got])
        assert f"Press from {sender.label} to {reader.label}:" in got[0].text


def _replace_and_eject(table: Table) -> list[Seat]:
    """The GM replaces one side by the name of its other power, ejects another by its label as typed, and gives that
    one to a newcomer by one of its powers. Returns the players who left."""
    replaced, ejected = table.seats[1], table.seats[2]
    newcomers = [
        Seat(old.name, old.powers, f"new{k}@example.org", f"pw-new{k}-z9", old.label)
        for k, old in enumerate((replaced, ejected))
    ]
    for k, seat in enumerate(newcomers):
        table.send(seat.address, f"REGISTER Newcomer{k} Player {seat.password}")
    table.settle()
    table.new_mail()
    table.gm(
        f"REPLACE {_other_power(replaced)} {newcomers[0].address}\n"
        f"EJECT {_key(ejected.label)}\n"
        f"REPLACE {ejected.powers[-1]} {newcomers[1].address}"
    )
    table.settle()
    mails = table.new_mail()
    (reply,) = _mails_to(mails, GM, "Re:")
    assert f"{newcomers[0].address} now plays {replaced.label}" in reply.text
    assert f"{ejected.label} has no player now" in reply.text
    (gone,) = _mails_to(mails, replaced.address, "you no longer play")
    assert f"Newcomer0 Player plays {replaced.label} from now on" in gone.text
    assert newcomers[0].address not in gone.text
    (out,) = _mails_to(mails, ejected.address, "you no longer play")
    assert f"you no longer play {ejected.label}" in out.text
    (welcome,) = _mails_to(mails, newcomers[0].address, "you play")
    assert f"SIGNON {table.game} {replaced.name} <your password>" in welcome.text
    for seat in table.seats[3:]:
        told = "\n".join(m.text for m in _mails_to(mails, seat.address, "replaced"))
        assert f"{replaced.label} has a new player, chosen by the GM: Newcomer0 Player." in told
        assert newcomers[0].address not in told and replaced.address not in told
    table.seats[1:3] = newcomers
    # the players who left can do nothing more: a sign-on by any name of the side is refused
    for old in (replaced, ejected):
        for name in {old.name, _other_power(old), old.powers[0]}:
            table.send(
                old.address, f"SIGNON {table.game} {name} {old.password}\nPRESS TO {table.seats[0].name}\nHi\nENDPRESS"
            )
    table.settle()
    mails = table.new_mail()
    for old in (replaced, ejected):
        replies = _mails_to(mails, old.address)
        assert replies and all("signon failed" in m.text for m in replies)
    assert not any(line == "Hi" for m in mails for line in m.text.splitlines())
    return [replaced, ejected]


def _no_more_mail(table: Table, gone: list[Seat], rng: random.Random) -> None:
    """One phase played by the players now seated: one results mail each (none to those who left)."""
    phase = _phase(table, rng)
    assert phase is not None
    before = len(table.relay.messages)
    _play(table, phase)  # asserts one results mail per seated player and the GM, and no other
    reached = {to for item in table.relay.messages[before:] for to in item.rcpt_tos}
    assert not reached & {seat.address for seat in gone}


def _play_and_check(mailbox: DovecotServer, relay: SmtpRelay, tmp_path: Path, variant: str, options: str) -> Table:
    table = Table(mailbox, relay, tmp_path, "nam", variant)
    table.daemon.start()
    _start(table, options, joined_by_powers=variant == "hoplite")
    _told_what_each_plays(table, options)
    _press_by_every_name(table)
    gone = _replace_and_eject(table)
    _no_more_mail(table, gone, random.Random(SEED))
    return table


def test_hoplite_sides_by_every_name(mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path) -> None:
    table = _play_and_check(mailbox, smtp_relay, tmp_path, "hoplite", "")
    try:
        # a draw voted by every side from its Minor's sign-on, naming the sides as LIST prints them
        everyone = ", ".join(seat.label for seat in table.seats)
        for seat in table.seats:
            table.send(seat.address, f"SIGNON {table.game} {_other_power(seat)} {seat.password}\nSET DRAW {everyone}")
        table.settle()
        mails = table.new_mail()
        over = [m for m in mails if "the game is over (draw)" in str(m.message["Subject"])]
        assert sorted({m.to for m in over}) == sorted({GM, *(seat.address for seat in table.seats)})
    finally:
        table.daemon.shutdown()


@pytest.mark.parametrize("assignment", ["a", "b"])
def test_heptadiplomacy_sides_by_every_name(
    mailbox: DovecotServer, smtp_relay: SmtpRelay, tmp_path: Path, assignment: str
) -> None:
    table = _play_and_check(mailbox, smtp_relay, tmp_path, "hepta", f"assignment={assignment} module=2")
    try:
        # no draws in CW Heptadiplomacy (rule 7): the others concede to one player, each naming him another way
        winner = table.seats[0]
        forms = [winner.name, _key(winner.name), *winner.powers]
        for k, seat in enumerate(table.seats[1:]):
            table.send(seat.address, f"SIGNON {table.game} {seat.powers[k]} {seat.password}\nCONCEDE {forms[k]}")
        table.settle()
        mails = table.new_mail()
        for seat in table.seats[1:-1]:
            (reply,) = _mails_to(mails, seat.address, "Re:")
            assert f"Your concession to {winner.name} is recorded" in reply.text
        over = [m for m in mails if "the game is over (conceded)" in str(m.message["Subject"])]
        # the game-over mail names the winner as every list does: his side, once, not his seven board-nations
        assert over and all(f"is conceded to {winner.name}, who wins." in m.text for m in over), over
    finally:
        table.daemon.shutdown()
