"""The mail a game sends of its own accord: the results of each phase, and the end of the game, to everyone in it."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.game.service import Processed
from judge.mail.compose import notice
from judge.render import render, render_results
from judge.render.results import phase_code


def results_mails(config: Config, addresses: list[str], processed: Processed) -> list[EmailMessage]:
    """One results mail per address: every player, observer and the GM get the same text."""
    outcome = processed.outcome
    text = render_results(
        processed.game,
        outcome,
        processed.next_phase,
        judge=config.address,
        deadline=processed.deadline,
        late=processed.late,
        note=processed.note,
        finished=processed.finished,
    )
    phase = outcome["phase"]
    subject = f"{processed.game} {phase_code(phase)}: results of {phase['season']} {phase['year']} {phase['type']}"
    return [notice(config, address, subject, text) for address in sorted(set(addresses))]


def game_over_mails(
    config: Config, addresses: list[str], game: str, position: dict[str, Any], how: str, powers: list[str]
) -> list[EmailMessage]:
    """The end of a game that no phase's results announce: a draw by vote, a concession, the GM's TERMINATE."""
    phase = position["phase"]
    owned = position.get("supply_centers", {})
    text = render(
        "game_over.txt.j2",
        str(position.get("variant") or ""),
        judge=config.address,
        game=game,
        variant=position.get("variant", ""),
        code=phase_code(phase),
        deadline_code=None,
        deadline=None,
        phase=f"{phase['season']} {phase['year']} {phase['type']}",
        how=how,
        powers=powers,
        centres=sorted(((p, len(c)) for p, c in owned.items() if c), key=lambda item: (-item[1], item[0])),
    )
    subject = f"{game}: the game is over ({how})"
    return [notice(config, address, subject, text) for address in sorted(set(addresses))]
