"""`judge import` (issue 45): a GM moves a running game here from its njudge mails. The game is created at the
position its last results mail leaves, its players join (or are named in the command), and it starts from that
position, its start mail and results in njudge's layout. Here the "njudge game" is one this judge played in
njudge's layout, its mails saved as the GM would save them (one a file)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from test_njudge_reader import _centres, _dislodged, _orders, _units

from judge.cli import main
from judge.game.errors import GameError
from judge.game.layer import Games
from judge.njudge.importer import import_game, texts_of
from judge.njudge.reader import ReadError
from judge.store import Game, open_database
from judge.testing.mail_rig import Judge
from judge.variants import get_variant

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
RETREAT = {"season": "Fall", "year": 1902, "type": "Retreat"}
"""where the game moved here stands: units waiting to retreat (the game seeded 7 has them after Fall 1902)"""


def _judge(path: Path) -> Judge:
    return Judge(open_database(f"sqlite:///{path}"))


def _position(judge: Judge, name: str) -> dict[str, Any]:
    with judge.db.transaction() as s:
        position = s.scalars(select(Game).where(Game.name == name)).one().position
    assert position is not None
    return dict(position)


@pytest.fixture(scope="module")
def njudge_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Path], dict[str, Any]]]:
    """A game in njudge's layout to its Fall 1902 retreats, its mails saved one a file, and the position it
    stands at."""
    folder = tmp_path_factory.mktemp("moved")
    judge = _judge(folder / "there.sqlite")
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw\nSIGNON alpha MASTER gmpass\nSET results.layout=njudge")
    for power in POWERS:
        judge.mail(f"{power.lower()}@example.org", f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(f"{power.lower()}@example.org", f"JOIN alpha joinpw {power}")
    board = get_variant("standard").rules().board
    rnd = random.Random(7)
    for _ in range(8):
        if _position(judge, "alpha")["phase"] == RETREAT:
            break
        for power, lines in _orders(board, _position(judge, "alpha"), rnd).items():
            judge.mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\n" + "\n".join(lines))
        judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    assert _position(judge, "alpha")["phase"] == RETREAT
    mails = [judge.outbound(kind="notice", to="gm@example.org")[0]]
    mails += judge.outbound(kind="result", to="gm@example.org")
    files = []
    for n, mail in enumerate(mails):
        files.append(folder / f"{n:02d}.eml")
        files[-1].write_bytes(bytes(mail))
    yield files, _position(judge, "alpha")
    judge.db.dispose()


def test_a_game_is_imported_and_starts_from_its_last_position(
    njudge_game: tuple[list[Path], dict[str, Any]], tmp_path: Path
) -> None:
    files, there = njudge_game
    judge = _judge(tmp_path / "here.sqlite")
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("england@example.org", "REGISTER Ann England annpw")
    done = import_game(
        Games(judge.db),
        texts_of(files),
        name="beta",
        gm="gm@example.org",
        password="joinpw",
        players={"England": "england@example.org"},
    )
    assert (done.game, done.variant, done.joined, done.started) == ("beta", "standard", ("England",), False)
    assert done.phase == RETREAT
    for power in POWERS[:1] + POWERS[2:]:
        judge.mail(f"{power.lower()}@example.org", f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(f"{power.lower()}@example.org", f"JOIN beta joinpw {power}")
    here = _position(judge, "beta")
    assert here["phase"] == there["phase"]
    assert _units(here["units"]) == _units(there["units"])
    assert _centres(here["supply_centers"]) == _centres(there["supply_centers"])
    assert _dislodged(here["dislodged"]) == _dislodged(there["dislodged"]) != []
    [start] = judge.outbound(kind="notice", to="england@example.org")
    assert start["Subject"] == "TEST:beta - F1902R Game Starting"
    text = start.get_content()
    assert "You have been selected as England in game 'beta' of Diplomacy." in text
    assert "Starting position for Fall of 1902." in text
    judge.mail("gm@example.org", "SIGNON beta MASTER gmpass\nPROCESS")
    [results] = judge.outbound(kind="result", to="england@example.org")
    assert "\nRetreat results for Fall of 1902.  (beta.001)\n" in results.get_content()
    assert results["Subject"] == "TEST:beta - F1902R Results"


def test_the_command_line_imports_and_refuses_what_it_cannot_read(
    njudge_game: tuple[list[Path], dict[str, Any]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files, _ = njudge_game
    config = tmp_path / "judge.toml"
    config.write_text(f'[database]\nurl = "sqlite:///{tmp_path / "cli.sqlite"}"\n', encoding="utf-8")
    judge = _judge(tmp_path / "cli.sqlite")
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    args = ["--config", str(config), "import", "gamma", *map(str, files), "--gm", "gm@example.org"]
    assert main([*args, "--password", "joinpw"]) == 0
    assert "gamma (standard) imported at Fall 1902 Retreat." in capsys.readouterr().out
    assert _position(judge, "gamma")["phase"] == RETREAT
    assert main([*args[:3], "delta", str(files[0]), *args[-2:], "--password", "x"]) == 1
    assert "no results mail among them" in capsys.readouterr().err
    with pytest.raises((GameError, ReadError)):
        import_game(Games(judge.db), ["no mail of njudge's"], name="eps", gm="gm@example.org", password="x")


def test_the_mails_may_be_text_messages_or_an_mbox(tmp_path: Path) -> None:
    """`judge import` takes the GM's mails as he kept them: a body as text, a whole message, an mbox of several."""
    body = "Movement results for Spring of 1901. (demo.001)\n\nAustria: Army Vienna -> Galicia.\n"
    (tmp_path / "one.txt").write_text(body, encoding="utf-8")
    message = f"From: judge@example.org\nSubject: DEMO:demo - S1901M Results\n\n{body}"
    (tmp_path / "two.eml").write_text(message, encoding="utf-8")
    mbox = "".join(f"From judge@example.org Thu Jan  1 00:00:00 2026\n{message}\n" for _ in range(2))
    (tmp_path / "three.mbox").write_text(mbox, encoding="utf-8")
    texts = texts_of([tmp_path / "one.txt", tmp_path / "two.eml", tmp_path / "three.mbox"])
    assert len(texts) == 4 and all(text.strip() == body.strip() for text in texts)
