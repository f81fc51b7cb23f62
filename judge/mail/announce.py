"""The mail a game sends of its own accord: the results of each phase, and the end of the game, to everyone in it."""

from __future__ import annotations

from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.engine.calendar import Calendar
from judge.game.house_rules import press_heading
from judge.game.service import Processed
from judge.mail.compose import notice
from judge.mail.pictures import attach_map, map_png
from judge.render import render, render_results
from judge.render.results import phase_code


def results_mails(
    config: Config, seats: dict[str, str], processed: Processed, observers: list[str] | None = None
) -> list[EmailMessage]:
    """One results mail per address (`seats`: power -> address, "MASTER" -> the GM; then the observers). Everyone
    gets the same sheet, except for press held for the results: each player sees what was addressed to their power
    or to everybody, the GM all of it, an observer what went to everybody."""
    outcome = processed.outcome
    phase = outcome["phase"]
    when = f"{phase['season']} {Calendar.year_name(int(phase['year']))} {phase['type']}"
    subject = f"{processed.game} {phase_code(phase)}: results of {when}"
    # the map after the phase, drawn once for every copy (judge.toml [mail] pictures; players may turn it off)
    png = map_png(str(outcome.get("variant") or "standard"), outcome) if config.pictures else None
    picture = f"{processed.game}-{phase_code(phase)}.png"
    powers_at: dict[str, set[str]] = {}
    for power, address in seats.items():
        powers_at.setdefault(address, set()).add(power)
    for address in observers or []:
        powers_at.setdefault(address, set())
    texts: dict[tuple[int, ...], str] = {}
    mails = []
    for address in sorted(powers_at):
        powers = powers_at[address]
        gm = "MASTER" in powers
        visible = tuple(
            i
            for i, press in enumerate(processed.press)
            if gm or press["recipients"] == ["*"] or powers & set(press["recipients"])
        ) + ((-1,) if gm else ())  # the GM's sheet names the senders of grey press
        if visible not in texts:
            texts[visible] = render_results(
                processed.game,
                outcome,
                processed.next_phase,
                judge=config.judge_code,
                deadline=processed.deadline,
                late=processed.late,
                note=processed.note,
                finished=processed.finished,
                press=[
                    {**processed.press[i], "heading": press_heading(processed.press[i], gm)} for i in visible if i >= 0
                ],
                options=processed.options,
                style=processed.style,
            )
        mail = notice(config, address, subject, texts[visible])
        if png is not None and (gm or not powers or not powers <= set(processed.pictures_off)):
            attach_map(mail, png, picture)
        mails.append(mail)
    return mails


def game_over_mails(
    config: Config, addresses: list[str], game: str, position: dict[str, Any], how: str, powers: list[str]
) -> list[EmailMessage]:
    """The end of a game that no phase's results announce: a draw by vote, a concession, the GM's TERMINATE."""
    phase = position["phase"]
    owned = position.get("supply_centers", {})
    text = render(
        "game_over.txt.j2",
        str(position.get("variant") or ""),
        judge=config.judge_code,
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
