"""Map pictures by mail (issue 13, item 4): the MAP command answers with the picture attached, results mails carry
the map after the phase, and a player who would rather not have it says SET PICTURES OFF. Through the real
processor and a real SQLite database."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path

import pytest
from test_commands import _started as started

from judge.store import open_database
from judge.testing.mail_rig import CONFIG, Judge


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db, replace(CONFIG, pictures=True))
    db.dispose()


def _pictures(message: EmailMessage) -> list[tuple[str, bytes]]:
    return [
        (part.get_filename() or "", part.get_content())
        for part in message.iter_attachments()
        if part.get_content_type() == "image/png"
    ]


def _text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    assert body is not None
    content: str = body.get_content()
    return content


def _gm(game: str = "alpha") -> str:
    return f"SIGNON {game} MASTER gmpass\n"


def test_map_answers_with_the_position_as_a_png(judge: Judge) -> None:
    started(judge)
    stored = judge.store("france@example.org", "MAP alpha")
    judge.processor.process_pending()
    answer = judge.outbound(kind="reply", inbound_id=stored)[0]
    assert "The map of the position of alpha now (S1901M) is attached (alpha-S1901M.png)." in _text(answer)
    [(name, png)] = _pictures(answer)
    assert name == "alpha-S1901M.png" and png.startswith(b"\x89PNG\r\n\x1a\n")


def test_results_mails_carry_the_map_unless_the_player_turned_it_off(judge: Judge) -> None:
    started(judge)
    text = judge.mail("france@example.org", "SIGNON alpha France francepw\nSET PICTURES OFF")
    assert "without the map picture" in text
    judge.mail("gm@example.org", _gm() + "PROCESS")
    results = judge.outbound(kind="result")
    by_reader = {message["To"]: message for message in results}
    assert _pictures(by_reader["england@example.org"])
    assert not _pictures(by_reader["france@example.org"])
    assert "Movement results for Spring of 1901." in _text(by_reader["england@example.org"])
    stored = judge.store("france@example.org", "MAP alpha S1901M")
    judge.processor.process_pending()
    answer = judge.outbound(kind="reply", inbound_id=stored)[0]
    assert "alpha after S1901M, with its orders" in _text(answer) and _pictures(answer)


def test_map_of_a_phase_not_played_is_refused_with_why(judge: Judge) -> None:
    started(judge)
    text = judge.mail("france@example.org", "MAP alpha F1905M")
    assert "F1905M" in text
