"""Issue 44 item 1 (gunboat games) and item 3 in part (unlisted games, LIST FULL with the GM's comment), in the
fast rig: real SQLite, the real processor and commands, mail read from the outbound queue, the site served.

njudge's info.gunboat: "In gunboat Diplomacy no one knows who the other players are"; its players learn who
played whom when the game ends, and DPjudge's NO_REVEAL rule keeps even that back (here `reveal_at_end=off`,
the GM's REVEAL naming them whenever he likes). njudge's `set nolist`: a game left out of the list of games,
which "people can still" LIST by name (here `unlisted`). tests/test_gunboat_by_mail.py plays one such game
through a real Dovecot and searches every mail and page of it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from pathlib import Path

import pytest
from gunboat_leaks import crawl, exported, leaks
from sqlalchemy import select
from web_games import SITE, serving

from judge.game import Games
from judge.game.anonymity import ANONYMOUS
from judge.store import Game, OutboundMail, open_database
from judge.testing.mail_rig import Judge
from judge.testing.tables import OPENING_ORDERS, POWERS
from judge.variants import get_variant
from judge.web.export import export_site

GM = "gm@example.org"
NAMES = {
    "Austria": "Ada Quillfeather",
    "England": "Bram Stoutwhistle",
    "France": "Cora Vantablack",
    "Germany": "Dmitri Oakhollow",
    "Italy": "Elsa Thornquist",
    "Russia": "Fenwick Mallory",
    "Turkey": "Greta Ironwood",
}
"""each power's player: names found nowhere else in a game's mail or pages"""
NEWCOMER = ("Hugo Brightwater", "hugo.brightwater@mail.example")
"""the player the GM puts in for France"""
OBSERVER = "watcher@mail.example"


def address(power: str) -> str:
    return f"{NAMES[power].lower().replace(' ', '.')}@mail.example"


def _gm(game: str) -> str:
    return f"SIGNON {game} MASTER gmpass\n"


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


def _create(judge: Judge, game: str, *settings: str) -> None:
    judge.mail(GM, "REGISTER Game Master gmpass")
    assert "created" in judge.mail(GM, f"CREATE {game} standard joinpw")
    if settings:
        reply = judge.mail(GM, _gm(game) + "SET " + " ".join(settings))
        assert "Set " in reply, reply


def _join_all(judge: Judge, game: str) -> None:
    for power in POWERS:
        judge.mail(address(power), f"REGISTER {NAMES[power]} {power.lower()}pw")
        judge.mail(address(power), f"JOIN {game} joinpw {power}")


def _mails(judge: Judge) -> list[tuple[set[str], str]]:
    """Every mail the judge has queued: its readers and its text (headers and every text part)."""
    with judge.db.transaction() as s:
        rows = s.scalars(select(OutboundMail).order_by(OutboundMail.id)).all()
        found = []
        for row in rows:
            message = message_from_bytes(row.message, policy=policy.default)
            parts = [str(message.get(h, "")) for h in ("Subject", "To", "Cc", "Reply-To", "From")]
            parts += [p.get_content() for p in message.walk() if p.get_content_type() == "text/plain"]
            found.append(({str(r) for r in row.recipients}, "\n".join(parts)))
        return found


def _leaked_to_others(judge: Judge, players: dict[str, str]) -> list[tuple[str, str]]:
    """Each (reader, secret) where a mail read by anyone but the GM and the player himself names the player or
    gives his address (name -> address in `players`)."""
    found = []
    for readers, text in _mails(judge):
        for name, mail in players.items():
            others = readers - {GM, mail}
            for secret in (name, mail):
                if others and secret.lower() in text.lower():
                    found.append((sorted(others)[0], secret))
    return found


def test_a_gunboat_game_names_no_player_to_anyone_but_the_gm_until_it_ends(judge: Judge, tmp_path: Path) -> None:
    """info.gunboat: no one knows who the other players are -- not in the start mail, LIST, the results, press,
    SUMMARY, HISTORY, a replacement's notice, or any page, feed or export of the site; the GM's STATUS names
    them all; at the end everyone is told who played whom, and the lists and pages name them."""
    _create(judge, "boat", "gunboat=on", "press.type=both")
    judge.mail(OBSERVER, "REGISTER Quiet Watcher obspw")
    judge.mail(OBSERVER, "OBSERVE boat joinpw")
    for power in POWERS[:3]:
        judge.mail(address(power), f"REGISTER {NAMES[power]} {power.lower()}pw")
        judge.mail(address(power), f"JOIN boat joinpw {power}")
    forming = judge.mail(OBSERVER, "LIST boat")
    assert forming.count(ANONYMOUS) == 3 and "4 of 7 places open" in forming
    for power in POWERS[3:]:
        judge.mail(address(power), f"REGISTER {NAMES[power]} {power.lower()}pw")
        judge.mail(address(power), f"JOIN boat joinpw {power}")
    started = [text for readers, text in _mails(judge) if "has started" in text and address("Italy") in readers]
    assert started and "Italy:" in started[0] and ANONYMOUS in started[0]

    for power in POWERS:
        if power != "France":  # France is late
            judge.mail(address(power), f"SIGNON boat {power} {power.lower()}pw\n{OPENING_ORDERS[power]}")
    judge.mail(address("England"), "SIGNON boat England englandpw\nBROADCAST\nNorth Sea is mine.\nENDPRESS")
    judge.mail(address("Germany"), "SIGNON boat Germany germanypw\nPRESS TO Russia\nShall we?\nENDPRESS")
    judge.mail(GM, _gm("boat") + "PROCESS")
    judge.mail(NEWCOMER[1], f"REGISTER {NEWCOMER[0]} hugopw")
    assert "France" in judge.mail(GM, _gm("boat") + f"REPLACE France {NEWCOMER[1]}")
    status = judge.mail(GM, _gm("boat") + "STATUS")
    assert NEWCOMER[0] in status and NAMES["Italy"] in status and address("Italy") in status  # the GM sees all
    asked = [judge.mail(OBSERVER, f"{what}") for what in ("LIST boat", "LIST", "LIST FULL", "SUMMARY boat")]
    asked.append(judge.mail(address("Turkey"), "HISTORY boat"))
    assert ANONYMOUS in asked[0] and "France" in asked[0]

    players = {**{NAMES[p]: address(p) for p in POWERS}, NEWCOMER[0]: NEWCOMER[1]}
    secrets = (*players, *players.values())
    assert _leaked_to_others(judge, players) == []
    assert leaks({f"reply {n}": text for n, text in enumerate(asked)}, secrets) == []
    games = Games(judge.db, judge.clock)
    with serving(games, SITE) as server:
        assert leaks(crawl(server.url), secrets) == []
    export_site(games, SITE, tmp_path / "site")
    assert leaks(exported(tmp_path / "site"), secrets) == []

    judge.mail(GM, _gm("boat") + "TERMINATE")
    told = [(readers, text) for readers, text in _mails(judge) if "who played whom" in text]
    assert {OBSERVER, address("Italy"), NEWCOMER[1]} <= set().union(*(readers for readers, _ in told))
    assert NAMES["Italy"] in told[0][1] and NEWCOMER[0] in told[0][1] and NAMES["France"] not in told[0][1]
    listed = judge.mail(OBSERVER, "LIST boat")
    assert NAMES["Turkey"] in listed and ANONYMOUS not in listed
    with serving(games, SITE) as server:
        page = crawl(server.url, ("games/boat/",))
        assert any(NAMES["Turkey"] in text for text in page.values())
        assert leaks(page, tuple(players.values())) == []  # addresses never, even now


def test_the_gms_reveal_names_the_players_to_everyone_at_once(judge: Judge) -> None:
    """The GM may end the secret before the end (REVEAL); every list names the players from then on."""
    _create(judge, "open", "gunboat=on")
    _join_all(judge, "open")
    assert ANONYMOUS in judge.mail(OBSERVER, "LIST open")
    assert "from now on" in judge.mail(GM, _gm("open") + "REVEAL")
    told = [text for readers, text in _mails(judge) if "who played whom" in text and address("Russia") in readers]
    assert len(told) == 1 and "made its players known" in told[0] and NAMES["Austria"] in told[0]
    assert NAMES["Austria"] in judge.mail(OBSERVER, "LIST open")
    again = judge.mail(GM, _gm("open") + "REVEAL")
    assert "does not hide its players" in again


def test_reveal_before_the_start_names_those_who_joined(judge: Judge) -> None:
    """A forming gunboat game revealed: nobody plays a power yet, so nobody is told; LIST names the joined."""
    _create(judge, "soon", "gunboat=on")
    judge.mail(address("Italy"), f"REGISTER {NAMES['Italy']} italypw")
    judge.mail(address("Italy"), "JOIN soon joinpw Italy")
    assert NAMES["Italy"] not in judge.mail(OBSERVER, "LIST soon")
    assert "those who joined" in judge.mail(GM, _gm("soon") + "REVEAL")
    assert NAMES["Italy"] in judge.mail(OBSERVER, "LIST soon")
    assert not [text for _, text in _mails(judge) if "who played whom" in text]


def test_without_reveal_at_end_the_names_stay_hidden_after_the_end_as_under_no_reveal(judge: Judge) -> None:
    """DPjudge's NO_REVEAL: the end of the game names nobody; only the GM's REVEAL would."""
    _create(judge, "quiet", "gunboat=on", "reveal_at_end=off")
    _join_all(judge, "quiet")
    judge.mail(GM, _gm("quiet") + "TERMINATE")
    assert not [text for _, text in _mails(judge) if "who played whom" in text]
    listed = judge.mail(OBSERVER, "LIST quiet")
    assert ANONYMOUS in listed and NAMES["Germany"] not in listed


def test_orders_sent_with_a_players_password_from_another_address_do_not_name_it_in_a_gunboat_game(
    judge: Judge,
) -> None:
    """A player whose password was used from another address is told, as in any game, but not from which address:
    an address active in a gunboat game could tell him who plays another power (info.gunboat)."""
    _create(judge, "lent", "gunboat=on")
    _join_all(judge, "lent")
    judge.mail(address("Italy"), f"SIGNON lent France francepw\n{OPENING_ORDERS['France']}")
    told = [text for readers, text in _mails(judge) if "sent from another address" in text]
    assert len(told) == 1 and "a gunboat game does not say which" in told[0]
    assert address("Italy") not in told[0] and NAMES["Italy"] not in told[0]


def test_gunboat_is_set_before_the_start_and_not_after(judge: Judge) -> None:
    """The start mail names every player of an open game: turning gunboat on after it would hide nothing."""
    _create(judge, "late")
    _join_all(judge, "late")
    reply = judge.mail(GM, _gm("late") + "SET gunboat=on")
    assert "gunboat is set before the start" in reply
    assert NAMES["Italy"] in judge.mail(OBSERVER, "LIST late")


def test_a_draw_ends_a_gunboat_game_and_tells_who_played_whom(judge: Judge) -> None:
    """A game ended by the players (a draw by vote) names them too, as TERMINATE does: the reveal follows every
    end, the game-over mail or a victory's results (`judge.game.use_case.UseCase.raise_event`)."""
    _create(judge, "drawn", "gunboat=on")
    _join_all(judge, "drawn")
    for power in POWERS:
        judge.mail(address(power), f"SIGNON drawn {power} {power.lower()}pw\nSET DRAW")
    told = [readers for readers, text in _mails(judge) if "who played whom" in text]
    assert told and address("Austria") in set().union(*told)
    assert NAMES["England"] in judge.mail(OBSERVER, "LIST drawn")


def test_an_unlisted_game_is_reached_by_its_name_alone(judge: Judge) -> None:
    """njudge's `set nolist`: not in LIST, nor on the site's list or feed; LIST game, its page and JOIN by name
    work."""
    _create(judge, "quokka", "unlisted=on")
    judge.mail(GM, "CREATE shown standard joinpw")
    listed = judge.mail(OBSERVER, "LIST")
    assert "shown" in listed and "quokka" not in listed
    assert "quokka" not in judge.mail(OBSERVER, "LIST FULL")
    assert "quokka: standard, forming" in judge.mail(OBSERVER, "LIST quokka")
    judge.mail(address("France"), f"REGISTER {NAMES['France']} francepw")
    judge.mail(address("France"), "JOIN quokka joinpw France")
    assert NAMES["France"] in judge.mail(OBSERVER, "LIST quokka")
    judge.mail(GM, "CREATE wombat standard joinpw")
    judge.mail(GM, _gm("wombat") + "SET unlisted=on")
    _join_all(judge, "wombat")
    judge.mail(GM, _gm("wombat") + "PROCESS")
    games = Games(judge.db, judge.clock)
    assert games.reads.public_history("wombat").phases  # processed, and still not in the site's feed
    assert games.listing.latest(50) == []
    assert [g.name for g in games.listing.page(1, 50).games] == ["shown"]
    with serving(games, SITE) as server:
        site = crawl(server.url)
        assert not [url for url, text in site.items() if {"quokka", "wombat"} & set(re.findall(r"\w+", url + text))]
        page = crawl(server.url, ("games/quokka/",))
        assert any("quokka" in url and NAMES["France"] in text for url, text in page.items())


def test_list_full_gives_each_games_settings_and_the_gms_comment(judge: Judge) -> None:
    """Issue 44 item 3: LIST FULL, for a player choosing a game: its GM, places, rule options, the settings of
    play (not how the mail prints) and the GM's comment in his words (SET COMMENT)."""
    _create(judge, "fast", "gunboat=on", "press.type=grey", "results.names=full")
    reply = judge.mail(GM, _gm("fast") + "SET COMMENT Gunboat, 24h deadlines: newcomers welcome.")
    assert "Comment: Gunboat, 24h deadlines: newcomers welcome." in reply
    judge.mail(GM, "CREATE slow standard joinpw")
    full = judge.mail(OBSERVER, "LIST FULL")
    fast = full[full.index("fast") : full.index("slow")]
    assert "GM Game Master; 0 of 7 places taken" in fast
    assert "gunboat=on" in fast and "press.type=grey" in fast and "results.names" not in fast
    assert "The GM's comment: Gunboat, 24h deadlines: newcomers welcome." in fast
    assert "comment" not in full[full.index("slow") :]
    assert "The GM's comment: Gunboat" in judge.mail(OBSERVER, "LIST fast")
    assert "comment" not in judge.mail(OBSERVER, "LIST")  # the short list: a line a game
    assert "cleared" in judge.mail(GM, _gm("fast") + "SET COMMENT")
    assert "comment" not in judge.mail(OBSERVER, "LIST fast").lower()


def test_a_victory_in_a_gunboat_game_is_followed_by_who_played_whom(judge: Judge) -> None:
    """The end by a phase's results: the results first (they name powers), then the names, once to each
    reader. The position is set one move from France's 18th centre, as tests/test_lifecycle.py sets it."""
    _create(judge, "won", "gunboat=on")
    _join_all(judge, "won")
    board = get_variant("standard").rules(None).board
    with judge.db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == "won")).one()
        position = dict(game.position or {})
        centres = [c for c in board.supply_centres if c not in ("ven", "rom", "nap", "tun", "mun")]
        position["phase"] = {"season": "Fall", "year": 1910, "type": "Movement"}
        position["units"] = [{"power": "France", "unit": "A", "at": "bur"}]
        position["supply_centers"] = {"France": centres[:17]}
        game.position = position
    judge.mail(address("France"), "SIGNON won France francepw\nA bur - mun")
    judge.mail(GM, _gm("won") + "PROCESS")
    subjects = [text.splitlines()[0] for readers, text in _mails(judge) if address("Italy") in readers]
    results = next(n for n, subject in enumerate(subjects) if "results of Fall 1910" in subject)
    revealed = [n for n, subject in enumerate(subjects) if "who played whom" in subject]
    assert len(revealed) == 1 and revealed[0] > results
    assert NAMES["France"] in judge.mail(OBSERVER, "LIST won")
