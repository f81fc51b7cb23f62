"""Every notice is composed in one place (issue 42, item 5): the notifier picks the template -- the game's
variant's own where it has one, else the judge's (`templates/notices/`) -- and renders it; no event the game layer
can raise goes without a handler, and one that somehow does is a loud failure, never a lost notice."""

from __future__ import annotations

import importlib
import logging
import pkgutil
import typing
from pathlib import Path

import pytest
from jinja2 import ChoiceLoader, DictLoader
from jinja2.utils import LRUCache

import judge.game
import judge.mail
import judge.schedule
from judge.config import Config
from judge.data import data_dir
from judge.game import Games
from judge.game.events import Audience, GameEvent, GamePaused, GameResumed
from judge.mail.admin_events import AdminEvent
from judge.mail.notifier import Notifier, UnhandledEvent
from judge.render import environment
from judge.store import open_database
from judge.testing.mail_rig import Judge, start_game

AUDIENCE = Audience({"Sparta": "sparta@example.org"}, "gm@example.org")


def notifier() -> Notifier:
    return Notifier(Config(address="judge@example.org", admin="admin@example.org"))


def event_classes() -> set[type]:
    """Every event class of the judge: each subclass of `GameEvent` in any module of the packages that raise
    events (the game layer, the deadline keeper, the mail), and the admin's."""
    for package in (judge.game, judge.schedule, judge.mail):
        for module in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            importlib.import_module(module.name)
    found: set[type] = set()
    todo: list[type] = [GameEvent]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("judge.") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found | set(typing.get_args(AdminEvent))


def test_every_event_the_judge_can_raise_has_a_handler_in_the_notifier() -> None:
    kinds = event_classes()
    assert {"GamePaused", "PhaseProcessed", "Reminder", "DrawVoted", "MessageShunted"} <= {k.__name__ for k in kinds}
    unhandled = sorted(kind.__name__ for kind in kinds if not notifier().handles(kind))
    assert unhandled == [], f"events the notifier has no handler for: {unhandled}"


def test_an_event_without_a_handler_is_logged_counted_and_raised(caplog: pytest.LogCaptureFixture) -> None:
    class Unheard(GameEvent):  # an event someone added to the game layer and forgot to tell the notifier of
        pass

    told = notifier()
    with caplog.at_level(logging.ERROR, logger="judge.mail.notifier"), pytest.raises(UnhandledEvent):
        told.mails([GamePaused(game="g", audience=AUDIENCE), Unheard(game="g")])
    assert told.unhandled["Unheard"] == 1
    assert "no handler for Unheard" in caplog.text


def test_every_notice_template_sets_its_subject_first() -> None:
    """`templates/notices/<name>.txt.j2` and a variant's own (`templates/<variant>/notices/`): after the comment that
    says what it is (and any value it sets or macro it imports), the template sets its subject (`{% set subject
    %}`), which `judge.mail.compose.words` takes as a value of the rendered template, never cut out of its words."""
    templates = Path(str(data_dir("templates")))
    found = sorted([*templates.glob("notices/*.txt.j2"), *templates.glob("*/notices/*.txt.j2")])
    assert len(found) >= 20
    for each in found:
        text = each.read_text()
        if text.startswith("{#"):
            text = text[text.index("#}") + 2 :].lstrip("\n")
        first, _, rest = text.partition("\n")
        while first.startswith(("{% set ", "{% from ")) and not first.startswith("{% set subject %}"):
            first, _, rest = rest.partition("\n")
        assert first.startswith("{% set subject %}") and first.endswith("{% endset %}"), each.name


@pytest.fixture
def hoplite_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hoplite Wars words its own pause notice (`templates/hoplite/notices/game_paused.txt.j2`), for this test only:
    the judge's templates stay as shipped, and the compiled templates are forgotten afterwards."""
    env = environment()
    own = "{% set subject %}{{ game }}: a truce of the Games{% endset %}\nThe GM has called a truce in {{ game }}."
    monkeypatch.setattr(
        env, "loader", ChoiceLoader([DictLoader({"hoplite/notices/game_paused.txt.j2": own}), env.loader])
    )
    monkeypatch.setattr(env, "cache", LRUCache(400))


@pytest.mark.usefixtures("hoplite_pause")
def test_a_variant_words_one_notice_its_own_way_and_every_other_notice_as_the_judge_does() -> None:
    told = notifier()
    (hoplite,) = told.mails([GamePaused(game="agora", variant="hoplite", audience=Audience({}, "gm@example.org"))])
    assert hoplite.message["Subject"] == "agora: a truce of the Games"
    assert hoplite.message.get_content() == "The GM has called a truce in agora.\n"
    (standard,) = told.mails([GamePaused(game="paris", variant="standard", audience=Audience({}, "gm@example.org"))])
    assert standard.message["Subject"] == "paris: paused"
    (resumed,) = told.mails([GameResumed(game="agora", variant="hoplite", audience=Audience({}, "gm@example.org"))])
    assert resumed.message["Subject"] == "agora: resumed"
    assert resumed.message.get_content().startswith("The GM has resumed agora.")


def test_a_use_case_tells_its_events_the_games_variant_and_the_history_does_not_keep_it(tmp_path: Path) -> None:
    games = Games(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    games.accounts.register("gm@example.org", "The GM", "pw")
    games.accounts.register("sparta@example.org", "Leonidas", "pw")
    games.seating.create_game("agora", "hoplite", "gm@example.org", "pw", seed=1)
    games.seating.join("agora", "sparta@example.org", "pw")
    games.seating.start("agora", short=True)
    games.controls.pause("agora")
    paused = games.events[-1]
    assert isinstance(paused, GamePaused) and paused.variant == "hoplite"
    assert "variant" not in paused.data()


def test_set_says_what_it_changed_and_a_private_game_without_a_page_password_is_a_line_of_its_own(
    tmp_path: Path,
) -> None:
    """The use case says what SET changed as values; the reply words them (it once read "Set No page password
    yet: ... (SET WEB PASSWORD).." when the GM made a game private)."""
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    start_game(judge)
    reply = judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nSET web.private=on")
    assert "   Set web.private=on.\n" in reply
    assert "   No page password yet: the pages open to nobody until you set one (SET WEB PASSWORD).\n" in reply
    assert "Set No page password" not in reply


def test_a_replys_subject_and_foot_say_what_the_mail_was_about_and_what_it_lacked(tmp_path: Path) -> None:
    """The reply's template words its subject (the sender's own, as a reply's, tagged with the game) and its foot:
    a mail of no commands, one of more lines than a reply answers, one cut short, the game's phase and deadline."""
    judge = Judge(open_database(f"sqlite:///{tmp_path / 'j.sqlite'}"))
    assert judge.mail("x@example.org", "").endswith(
        "\n\nYour mail held no commands. Send HELP for the list of commands.\n"
    )
    many = judge.mail("x@example.org", "\n".join(["FROB"] * 600))
    assert many.endswith(
        "\n\n> (the rest of the mail)\n** 300 more line(s) were not answered: a reply answers the first 200\n"
        "\nYour mail was too long: only its beginning was read.\n"
    )
    start_game(judge)
    stored = judge.store("france@example.org", "SIGNON alpha France francepw\nA par - bur", subject="my orders")
    judge.processor.process_pending()
    (reply,) = judge.outbound(kind="reply", inbound_id=stored)
    assert reply["Subject"] == "Re: my orders [alpha Spring 1901 Movement]"
    assert "\n\nalpha is in Spring 1901 Movement.\n\nDeadline: " in judge.reply_to(stored)
