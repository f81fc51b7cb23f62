"""The player's side is the unit the game by mail works in (issue 27): a player of CW Heptadiplomacy holds seven
board-nations, a player of Hoplite Wars a Major and its Minor. Played through the real processor and commands on a
real database. The rule on what a later mail replaces is docs/mail.md's ("Orders"): a mail's orders for a power
replace that power's earlier orders; the player's other powers keep theirs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from judge.store import OrderSet, open_database
from judge.testing.mail_rig import Judge

COUNTRIES = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
MAJORS = ("Achea", "Aetolia", "Argolis", "Athens", "Boeotia", "Sparta", "Thessaly")


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


def _game(judge: Judge, game: str, variant: str, names: tuple[str, ...], *options: str) -> str:
    """A game created by the GM and joined by a player a side, each asking for it by the name the variant page
    gives; returns the last JOIN's reply (the one that started the game)."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    assert "created" in judge.mail("gm@example.org", f"CREATE {game} {variant} joinpw {' '.join(options)}")
    reply = ""
    for name in names:
        address = f"{name.lower().replace(' ', '')}@example.org"
        judge.mail(address, f"REGISTER {name} Player pw{name.lower().replace(' ', '')}")
        reply = judge.mail(address, f"JOIN {game} joinpw {name}")
    return reply


def _sets(judge: Judge) -> dict[str, list[str]]:
    with judge.db.transaction() as s:
        return {o.power: list(o.lines) for o in s.scalars(select(OrderSet))}


def test_hepta_option_a_a_player_joins_and_signs_on_with_his_country(judge: Judge) -> None:
    """docs/variants/hepta.md: under option A the player is named by the country (rule 2)."""
    started = _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    assert "you play Turkey (1:Turkey, 2:Turkey" in started
    reply = judge.mail("england@example.org", "SIGNON hep England pwengland\nF 1:lon - 1:eng")
    assert "Signed on to hep as England: you play England (1:England," in reply
    assert "-> F 1:lon - 1:eng" in reply


def test_hepta_option_b_a_player_signs_on_as_player_two(judge: Judge) -> None:
    """Option B: the players are `Player 1` ... `Player 7` (a name of two words, or written as one)."""
    players = tuple(f"Player {n}" for n in range(1, 8))
    _game(judge, "hepb", "hepta", players, "assignment=b")
    assert "you play Player 2" in judge.mail("player2@example.org", "SIGNON hepb Player 2 pwplayer2")
    assert "you play Player 2" in judge.mail("player2@example.org", "SIGNON hepb player2 pwplayer2")


def test_a_name_that_is_no_player_is_refused_with_the_names_there_are(judge: Judge) -> None:
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE hop hoplite joinpw")
    judge.mail("x@example.org", "REGISTER X pw")
    reply = judge.mail("x@example.org", "JOIN hop joinpw Thebes")
    assert "'Thebes' names no player of hoplite" in reply
    assert "Sparta + Elatea" in reply and "(name either power)" in reply


def test_a_later_mail_replaces_the_orders_of_the_boards_it_orders_and_no_others(judge: Judge) -> None:
    """The repro of issue 27: boards 1-4 ordered, then a mail holding only board 5; nothing is lost."""
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    first = "\n".join(f"F {k}:lon - {k}:eng" for k in range(1, 5))
    judge.mail("england@example.org", f"SIGNON hep 1:England pwengland\n{first}")
    reply = judge.mail("england@example.org", "SIGNON hep 1:England pwengland\nF 5:lon - 5:eng")
    assert "your other powers keep the orders they have" in reply
    assert "  1:England: F 1:lon - 1:eng" in reply and "  5:England: F 5:lon - 5:eng" in reply
    assert "  6:England: no orders" in reply
    assert "Still owed: 6:England, 7:England. The phase waits for them until the deadline" in reply  # issue 40
    sets = _sets(judge)
    assert {power: lines for power, lines in sets.items()} == {
        **{f"{k}:England": [f"F {k}:lon - {k}:eng"] for k in range(1, 6)}
    }
    predicted = judge.mail("gm@example.org", "SIGNON hep MASTER gmpass\nPREDICT")
    for k in range(1, 6):  # the results' zine case, board and all (issue 28)
        assert f"F {k}:Lon - {k}:Eng\n" in predicted


def _hoplite_in_spring(judge: Judge) -> None:
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta\nBuild A spa\nBuild A pra\nBuild A zar\nBuild A ela")
    judge.mail("gm@example.org", "SIGNON hop MASTER gmpass\nPROCESS")


def test_a_merge_of_the_majors_units_sent_from_the_minors_signon_is_filed_and_printed_as_the_majors(
    judge: Judge,
) -> None:
    """Hoplite Wars rule 1: a player orders his Major's and Minor's units from either; each line is filed with the
    power whose units it names."""
    _hoplite_in_spring(judge)
    reply = judge.mail("sparta@example.org", "SIGNON hop Elatea pwsparta\nA Spa & A Pra MERGE 2A Spa")
    assert "Signed on to hop as Elatea: you play Sparta + Elatea" in reply
    assert _sets(judge)["Sparta"] == ["A Spa & A Pra MERGE 2A Spa"]
    judge.mail("gm@example.org", "SIGNON hop MASTER gmpass\nPROCESS")
    results = judge.outbound(kind="result", to="sparta@example.org")[-1].get_content()
    assert "Sparta:     A Spa + A Pra MERGE = 2A Spa" in results  # the column holds `Anactorium:`
    assert "Elatea:   A Spa" not in results


def test_a_player_is_late_for_the_power_he_left_unordered_and_for_no_other(judge: Judge) -> None:
    """Issue 40: attendance is reckoned per power owed. Sparta's units ordered from Elatea's sign-on: Sparta is
    not late; Elatea's army, which nobody ordered, is, and the side is named once with it."""
    _hoplite_in_spring(judge)
    judge.mail("sparta@example.org", "SIGNON hop Elatea pwsparta\nA Spa - Teg")
    reply = judge.mail("gm@example.org", "SIGNON hop MASTER gmpass\nPROCESS")
    assert "Sparta + Elatea (Elatea)" in reply
    results = judge.outbound(kind="result", to="sparta@example.org")[-1].get_content()
    late = next(line for line in results.splitlines() if line.startswith("No orders were received from"))
    assert "Sparta + Elatea (Elatea)" in late


def test_a_player_who_ordered_every_power_he_owes_is_not_late(judge: Judge) -> None:
    """One order for each power owed: the side is not late for either (its units not ordered hold)."""
    _hoplite_in_spring(judge)
    judge.mail("sparta@example.org", "SIGNON hop Elatea pwsparta\nA Spa - Teg\nA Ela H")
    reply = judge.mail("gm@example.org", "SIGNON hop MASTER gmpass\nPROCESS")
    assert "Sparta" not in reply and "Elatea" not in reply
    results = judge.outbound(kind="result", to="sparta@example.org")[-1].get_content()
    assert "No orders were received from" not in results or "Sparta" not in results.split("No orders")[1]


def test_the_late_line_names_players_not_board_nations(judge: Judge) -> None:
    """Issue 40: a player who ordered one board of seven is late for the other six, named once, compactly."""
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    judge.mail("england@example.org", "SIGNON hep England pwengland\nF 1:lon - 1:eng")
    reply = judge.mail("gm@example.org", "SIGNON hep MASTER gmpass\nPROCESS")
    england = "England (2:England, 3:England, 4:England, 5:England, 6:England, 7:England)"
    assert f"No orders from: Austria, {england}, France, Germany, Italy, Russia, Turkey." in reply


def test_the_gm_sees_per_player_who_has_orders_in_and_who_votes(judge: Judge) -> None:
    _hoplite_in_spring(judge)
    judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta\nA Spa - Teg")
    judge.mail("achea@example.org", "SIGNON hop Achea pwachea\nSET DRAW")
    status = judge.mail("gm@example.org", "SIGNON hop MASTER gmpass\nSTATUS")
    assert "Sparta + Elatea" in status and "orders partly in (Elatea missing, Sparta in)" in status
    assert "Achea + Chalcis" in status and "orders not due" in status  # no units yet: nothing to order
    assert "votes for a draw" in status
    assert "Rule options: the variant's defaults" in status
    refused = judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta\nSTATUS")
    assert "this is a GM command" in refused


def test_the_game_start_mail_names_each_player_once(judge: Judge) -> None:
    """The list of players names each player once (never 49 board-nations); only the reader's own line below it
    names his board-nations (issue 40: "each player told what he plays")."""
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    start = judge.outbound(kind="notice", to="england@example.org")[-1].get_content()
    players = start.split("The players:")[1].split("You play")[0]
    assert ":England" not in players and ":France" not in players
    assert players.count("Player") == len(COUNTRIES)
    assert "You play England (1:England, 2:England," in start
    assert "1:France" not in start
