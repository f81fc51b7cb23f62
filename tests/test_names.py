"""Names people choose that others read (issue 41, Security, "Names"): "a right-to-left override in a player's name
reverses the rest of the games list line; zero-width and look-alike characters let a second "alpha" game or a
second "GM" exist; a name of 3,000 characters is accepted. Names are isolated in pages (bidi), normalised and
checked for confusables when registered, and bounded." The rules are judge/game/names.py's; docs/mail.md
(REGISTER, CREATE) says them to players."""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select, text, update

from judge.game import Games
from judge.game.names import (
    GAME_NAME_LIMIT,
    PLAYER_NAME_LIMIT,
    NameRefused,
    as_shown,
    game_name,
    look_alike_key,
    player_name,
)
from judge.store import Player, open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.testing.mail_rig import Judge, start_game
from judge.testing.tables import POWERS
from judge.web.export import export_site
from judge.web.pages import SiteInfo

RLO = "\u202e"
"""RIGHT-TO-LEFT OVERRIDE: what follows it is drawn right to left, up to the end of the line"""
ZWSP = "\u200b"
"""ZERO WIDTH SPACE: nothing on the screen"""
CYRILLIC_A = "\u0430"
"""CYRILLIC SMALL LETTER A: drawn as the Latin a"""
CYRILLIC_EM = "\u041c"
"""CYRILLIC CAPITAL LETTER EM: drawn as the Latin M"""
CHROMIUM = os.environ.get("JUDGE_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SITE = SiteInfo(judge="testjudge", address="judge@judge.test", code="TEST")


# --- the normaliser, alone --------------------------------------------------------------------------------------


def test_a_name_is_normalised_nfkc_with_its_spaces_collapsed() -> None:
    assert player_name("  Anna \u00a0  Smith ") == "Anna Smith"
    assert player_name("\uff21nna") == "Anna"  # a full-width A
    assert player_name("ﬁona") == "fiona"  # the fi ligature
    assert game_name("ＡＬＰＨＡ") == "alpha"
    assert player_name("Zoë Ćwik") == "Zoë Ćwik" and player_name("محمد") == "محمد"  # letters of every script


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (f"Evil{RLO}namreg", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("A\u2066B", "U+2066 LEFT-TO-RIGHT ISOLATE"),
        (f"G{ZWSP}M", "U+200B ZERO WIDTH SPACE"),
        ("An\u00adna", "U+00AD SOFT HYPHEN"),
        ("Anna\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("An\u0007na", "U+0007"),
        ("An\ue000na", "U+E000"),
    ],
)
def test_an_invisible_or_direction_changing_character_is_refused_by_name(text: str, said: str) -> None:
    """Refused, not quietly dropped: the player learns which character it was."""
    with pytest.raises(NameRefused, match=re.escape(said)):
        player_name(text)
    with pytest.raises(NameRefused, match=re.escape(said)):
        game_name(text)


def test_the_direction_changers_are_named_as_such() -> None:
    with pytest.raises(NameRefused, match="changes the direction of the text after it"):
        player_name(f"x{RLO}y")


def test_names_are_bounded() -> None:
    assert player_name("x" * PLAYER_NAME_LIMIT)
    with pytest.raises(NameRefused, match=f"at most {PLAYER_NAME_LIMIT} characters; yours has 3000"):
        player_name("x" * 3000)
    assert game_name("g" * GAME_NAME_LIMIT)
    with pytest.raises(NameRefused, match=f"at most {GAME_NAME_LIMIT} characters; this one has 3000"):
        game_name("g" * 3000)
    with pytest.raises(NameRefused, match="accents on one letter"):
        player_name("Z" + "\u0301\u0316\u0330\u0353\u0361")  # "Zalgo": marks stacked over the lines around


def test_a_name_needs_a_letter_and_no_address() -> None:
    with pytest.raises(NameRefused, match="a letter or a digit"):
        player_name("-- ...")
    with pytest.raises(NameRefused, match="is empty"):
        player_name(f" {chr(0x3000)} ")
    with pytest.raises(NameRefused, match="not an address"):
        player_name("anna@example.org")


def test_a_games_name_is_ascii_letters_and_digits() -> None:
    with pytest.raises(NameRefused, match=re.escape("U+0430 CYRILLIC SMALL LETTER A is neither")):
        game_name(f"{CYRILLIC_A}lpha")
    with pytest.raises(NameRefused, match=re.escape("U+002D HYPHEN-MINUS is neither")):
        game_name("my-game")


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("GM", f"G{CYRILLIC_EM}"),
        ("GM", "gm"),
        ("alpha", f"{CYRILLIC_A}lpha"),
        ("alpha", "a1pha"),
        ("Alice", "AIice"),  # a capital I for the l
        ("Anna Smith", "ANNA SMITH"),
        ("modern", "rnodern"),
        ("Smith", "SMITH"),
    ],
)
def test_names_that_look_alike_share_a_key(one: str, other: str) -> None:
    """UTS #39's confusable skeleton (ICU's), case folded between two skeletons."""
    assert look_alike_key(one) == look_alike_key(other)


def test_names_that_do_not_look_alike_have_their_own_keys() -> None:
    keys = {look_alike_key(name) for name in ("Anna", "Ânna", "Anne", "GM", "GMs", "alpha", "alpha2", "Иван")}
    assert len(keys) == 8


def test_an_old_name_is_shown_without_what_todays_rules_refuse() -> None:
    """A name stored before issue 41 keeps its record; pages and mail show it with its overrides and zero-width
    characters dropped and its length bounded."""
    assert as_shown(f"Evil{RLO}namreg{ZWSP}") == "Evilnamreg"
    assert as_shown("x" * 3000) == "x" * (PLAYER_NAME_LIMIT - 1) + "…"
    assert as_shown("Anna Smith") == "Anna Smith"


# --- by mail ----------------------------------------------------------------------------------------------------


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (f"Anna{RLO}htimS", "holds a character that changes the direction of the text after it, U+202E"),
        (f"G{ZWSP}M", "holds an invisible formatting character, U+200B ZERO WIDTH SPACE"),
        (f"G{CYRILLIC_EM}", "GМ is, or looks like, GM: another player's name; choose another"),
        ("gm", "gm is, or looks like, GM: another player's name; choose another"),
        ("x" * 3000, f"a name is at most {PLAYER_NAME_LIMIT} characters; yours has 3000"),
    ],
)
def test_register_refuses_a_name_saying_why(judge: Judge, name: str, why: str) -> None:
    """Issue 41: a second "GM", or one that reverses the line, or a paragraph for a name: each refused, the reply
    saying why; nothing registered."""
    assert "is registered as GM." in judge.mail("gm@example.org", "REGISTER GM gmpass")
    reply = judge.mail("mallory@example.org", f"REGISTER {name} pw")
    assert why in reply and "is registered" not in reply
    with judge.db.transaction() as s:
        assert s.scalar(select(Player).where(Player.address == "mallory@example.org")) is None


def test_register_stores_and_answers_the_normalised_name(judge: Judge) -> None:
    assert "is registered as Anna Smith." in judge.mail("anna@example.org", "REGISTER \uff21nna   Smith pw")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        (f"{CYRILLIC_A}lpha", "a game's name is letters a-z and digits 0-9 only, and U+0430 CYRILLIC SMALL LETTER A"),
        (f"al{ZWSP}pha", "the game's name holds an invisible formatting character, U+200B ZERO WIDTH SPACE"),
        (f"alpha{RLO}", "the game's name holds a character that changes the direction of the text after it"),
        ("a1pha", "a1pha looks like alpha, another game's name: choose another"),
        ("ALPHA", "a game called alpha already exists"),
        ("ａｌｐｈａ", "a game called alpha already exists"),
        ("g" * 3000, f"a game's name is at most {GAME_NAME_LIMIT} characters; this one has 3000"),
    ],
)
def test_create_refuses_a_second_alpha_saying_why(judge: Judge, name: str, why: str) -> None:
    """Issue 41: zero-width and look-alike characters let a second "alpha" game exist."""
    start_game(judge, players=())
    reply = judge.mail("gm@example.org", f"CREATE {name} standard joinpw")
    assert why in reply and "created" not in reply
    assert [g.name for g in Games(judge.db, judge.clock).listing.games()] == ["alpha"]


def test_a_player_with_an_old_name_plays_on_and_is_shown_without_its_override(judge: Judge, tmp_path: Path) -> None:
    """An old record that today's rules would refuse keeps working (nothing is migrated away): its player signs on
    and orders; LIST, the game-start mail and the pages show the name with its override dropped."""
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw")
    for power in POWERS:
        judge.mail(f"{power.lower()}@example.org", f"REGISTER {power} Player {power.lower()}pw")
    with judge.db.transaction() as s:
        s.execute(update(Player).where(Player.address == "england@example.org").values(name=f"Evil{RLO}namreg"))
    for power in POWERS:
        judge.mail(f"{power.lower()}@example.org", f"JOIN alpha joinpw {power}")
    started = judge.outbound(kind="notice", to="england@example.org")[-1].get_content()
    assert "Evilnamreg" in started and RLO not in started
    assert "Signed on to alpha as England" in judge.mail("england@example.org", "SIGNON alpha England englandpw")
    listing = judge.mail("x@example.org", "LIST alpha")
    assert "Evilnamreg" in listing and RLO not in listing
    export_site(Games(judge.db, judge.clock), SITE, tmp_path / "site")
    for page in (tmp_path / "site").rglob("*.html"):
        assert RLO not in page.read_text(encoding="utf-8"), page
    assert "<bdi>Evilnamreg</bdi>" in (tmp_path / "site" / "index.html").read_text(encoding="utf-8")


def test_the_upgrade_keys_the_names_already_stored_and_refuses_none(database_url: str) -> None:
    """Migration 0009 gives every stored player and game its look-alike key and changes no name: two old names
    that look alike both stay (their players go on playing); a new name like either is refused."""
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "0007")
        for n, name in enumerate(("GM", f"G{CYRILLIC_EM}", f"Evil{RLO}namreg")):
            conn.execute(
                text("INSERT INTO players (address, name, password_hash, created_at) "
                     "VALUES (:address, :name, 'x', CURRENT_TIMESTAMP)"),
                {"address": f"p{n}@example.org", "name": name},
            )  # fmt: skip
        conn.execute(
            text("INSERT INTO games (name, variant, options, settings, status, gm_id, password_hash, seed, "
                 "phase_index, version, created_at) VALUES ('alpha', 'standard', '{}', '{}', 'forming', "
                 "(SELECT min(id) FROM players), 'x', 1, 0, 0, CURRENT_TIMESTAMP)"),
        )  # fmt: skip
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        keys = conn.execute(text("SELECT name, name_key FROM players ORDER BY id")).all()
    engine.dispose()
    assert [name for name, _ in keys] == ["GM", f"G{CYRILLIC_EM}", f"Evil{RLO}namreg"]
    assert keys[0][1] == keys[1][1] == look_alike_key("gm") and keys[2][1] == look_alike_key("Evilnamreg")
    games = Games(open_database(database_url))
    with pytest.raises(NameRefused, match="looks like"):
        games.accounts.register("new@example.org", "Gm", "pw")
    with pytest.raises(NameRefused, match="looks like"):
        games.accounts.register("new@example.org", "Evilnamreg", "pw")
    with pytest.raises(NameRefused, match="a1pha looks like alpha"):
        games.seating.create_game("a1pha", "standard", "p0@example.org", "pw")


# --- in pages ---------------------------------------------------------------------------------------------------


def _forming_site(tmp_path: Path, gm: str, joined: tuple[str, ...]) -> None:
    """The exported site (in tmp_path/site) of a forming game `alpha` run by `gm`, the players `joined` in."""
    games = Games(open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}"))
    games.accounts.register("gm@example.org", gm, "pw")
    games.seating.create_game("alpha", "standard", "gm@example.org", "pw", seed=1)
    for n, name in enumerate(joined):
        games.accounts.register(f"p{n}@example.org", name, "pw")
        games.seating.join("alpha", f"p{n}@example.org", "pw")
    export_site(games, SITE, tmp_path / "site")


def test_every_name_in_the_pages_is_isolated(tmp_path: Path) -> None:
    """A name right to left (Hebrew here) must move neither the punctuation nor the next name: the games list,
    the game's page (GM, players, the forming game's joined players) write each in its own <bdi>."""
    _forming_site(tmp_path, "דוד", ("אנה", "Bob"))
    listing = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    page = (tmp_path / "site" / "games" / "alpha" / "index.html").read_text(encoding="utf-8")
    assert "<bdi>Bob</bdi>, <bdi>אנה</bdi> (2 of 7 joined)" in listing
    assert "GM: <bdi>דוד</bdi>." in page
    assert "players joined: <bdi>Bob</bdi>, <bdi>אנה</bdi>." in page


_WHERE_DRAWN = """(names) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const left = names.map(() => null);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        names.forEach((name, i) => {
            const at = node.data.indexOf(name);
            if (at >= 0 && left[i] === null) {
                const range = document.createRange();
                range.setStart(node, at);
                range.setEnd(node, at + name.length);
                left[i] = range.getBoundingClientRect().left;
            }
        });
    }
    return left;
}"""
"""the left edge of the first place each name is drawn, found in the page's text wherever it stands"""


@pytest.mark.slow
def test_in_chromium_right_to_left_names_keep_their_places_in_a_list(tmp_path: Path) -> None:
    """Drawn by a real browser: two Hebrew names joined one after the other are drawn in the list's order, left to
    right, the comma between them (unisolated, the two names and their comma would make one right-to-left run, the
    second name drawn first)."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).is_file():
        message = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    _forming_site(tmp_path, "Gamesmaster", ("אנה", "דוד"))
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        for path in ("index.html", "games/alpha/index.html"):
            page = browser.new_page()
            page.goto((tmp_path / "site" / path).as_uri())
            left = page.evaluate(_WHERE_DRAWN, ["אנה", "דוד"])  # where each name's text is drawn, markup aside
            assert left[0] < left[1], (path, left)
        browser.close()
