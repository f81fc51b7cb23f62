"""The example sessions of the use-case pages (docs/use-cases/*.md), replayed against a real judge, as Mailman runs
its command pages: the docs cannot drift from what the judge does.

A page's session is its fenced blocks, in order:

- ```` ```setup ```` names how the game stands before the session (`standard game alpha started`: a GM and one
  player a power, each registered as <power>@example.org with the password <power>pw, the GM as gm@example.org
  with gmpass, the game's password joinpw);
- ```` ```mail ```` is one mail to the judge: a `From:` line, a blank line, the body;
- ```` ```reply ```` is the reply to the mail before it;
- ```` ```received ADDRESS ```` is the last mail, not a reply, that ADDRESS got from the judge;
- ```` ```clock ```` moves the judge's clock (`+49h`) and lets the deadline keeper act.

A reply or received block matches when its lines are found in the mail in order, a line `...` standing for any
lines in between (and at the start and end, lines may be left out).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from judge.schedule.keeper import DeadlineKeeper
from judge.store import open_database
from judge.testing.mail_rig import CONFIG, Judge, start_game

PAGES = Path(__file__).resolve().parent.parent / "docs" / "use-cases"
_BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```\s*$", re.M | re.S)


def _blocks(page: Path) -> list[tuple[str, str, str]]:
    return [(m.group(1), m.group(2).strip(), m.group(3)) for m in _BLOCK.finditer(page.read_text(encoding="utf-8"))]


def _matches(expected: str, actual: str) -> bool:
    parts = [re.escape(line.rstrip()) if line.strip() != "..." else "(?:.*\n)*?" for line in expected.splitlines()]
    pattern = ""
    for part in parts:
        pattern += part if part.startswith("(?:") else part + r"[ \t]*\n"
    lines = "\n".join(line.rstrip() for line in actual.splitlines()) + "\n"
    return re.search(pattern, lines) is not None


def _setup(judge: Judge, what: str) -> None:
    variant, _, game, *_ = what.split()
    start_game(judge, game, variant)


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'judge.sqlite'}")
    yield Judge(db)
    db.dispose()


@pytest.mark.parametrize("page", sorted(PAGES.glob("*.md")), ids=lambda p: p.stem)
def test_the_example_session_of_a_use_case_page_is_what_the_judge_does(judge: Judge, page: Path) -> None:
    keeper = DeadlineKeeper(judge.db, CONFIG, judge.clock)
    last_reply = ""
    checked = 0
    for kind, argument, text in _blocks(page):
        if kind == "setup":
            _setup(judge, text.strip())
        elif kind == "mail":
            head, _, body = text.partition("\n\n")
            sender = head.removeprefix("From:").strip()
            last_reply = judge.mail(sender, body)
        elif kind == "reply":
            assert _matches(text, last_reply), f"{page.name}: the reply was\n{last_reply}"
            checked += 1
        elif kind == "received":
            got = [m for m in judge.outbound(to=argument) if m["Auto-Submitted"] != "auto-replied"]
            assert got, f"{page.name}: {argument} got no mail"
            body = got[-1].get_content() if not got[-1].is_multipart() else got[-1].get_body().get_content()
            assert _matches(text, f"Subject: {got[-1]['Subject']}\n\n{body}"), f"{page.name}: {argument} got\n{body}"
            checked += 1
        elif kind == "clock":
            hours = int(text.strip().removeprefix("+").removesuffix("h"))
            judge.clock.advance(timedelta(hours=hours))
            keeper.tick()
    assert checked >= 3, f"{page.name} checks too little"
