"""The mail a game sends of its own accord: the results of each phase to everyone in the game."""

from __future__ import annotations

from email.message import EmailMessage

from judge.config import Config
from judge.game.service import Processed
from judge.mail.compose import notice
from judge.render import render_results
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
