"""The mail a game sends of its own accord: results to everyone, reminders and late notices to players."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.mail.compose import notice
from judge.render import render_results


def results_mails(
    config: Config, addresses: list[str], game: str, outcome: dict[str, Any], next_phase: dict[str, Any] | None
) -> list[EmailMessage]:
    """One results mail per address: every player, observer and the GM get the same text."""
    text = render_results(game, outcome, next_phase)
    phase = outcome["phase"]
    code = f"{str(phase['season'])[0]}{phase['year']}{str(phase['type'])[0]}"
    subject = f"{game} {code}: results of {phase['season']} {phase['year']} {phase['type']}"
    return [notice(config, address, subject, text) for address in sorted(set(addresses))]
