"""The results mails of a phase and the game-over mail, as the notifier (`judge.mail.notifier`) sends them."""

from __future__ import annotations

import secrets
from collections.abc import Hashable
from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.game.adjudication import Processed
from judge.game.house_rules import press_heading
from judge.mail.compose import notice
from judge.mail.pictures import map_parts
from judge.render import render, render_results
from judge.render.results import phase_code, season_and_year


def results_copies(
    config: Config, seats: dict[str, str], processed: Processed, observers: list[str] | None = None
) -> list[tuple[EmailMessage, bytes]]:
    """Each results mail with its bytes. The copies of one sheet with the map picture differ only in a few
    headers: their body (the sheet and some 200 KB of base64) is written once, and each copy is its own headers,
    as the library writes them, before it -- the bytes `bytes(mail)` gives, at an eighth of the cost
    (`tests/test_several_processes_results.py` holds every copy to them)."""
    copies = []
    bodies: dict[Hashable, bytes] = {}
    for mail, shared in _results(config, seats, processed, observers):
        body = bodies.get(shared) if shared is not None else None
        if body is None:
            raw = bytes(mail)
            if shared is not None:
                bodies[shared] = raw[raw.index(b"\n\n") + 2 :]  # after the blank line that ends the headers
        else:
            raw = b"".join(mail.policy.fold_binary(name, value) for name, value in mail.raw_items()) + b"\n" + body
        copies.append((mail, raw))
    return copies


def _results(
    config: Config, seats: dict[str, str], processed: Processed, observers: list[str] | None
) -> list[tuple[EmailMessage, Hashable | None]]:
    """Each results mail, with what identifies its body among the others (None: a body of its own): copies of
    one sheet with the picture share the picture's part and a boundary, so their bodies are the same bytes."""
    outcome = processed.outcome
    phase = outcome["phase"]
    when = f"{season_and_year(str(outcome.get('variant') or 'standard'), phase)} {phase['type']}"
    subject = f"{processed.game} {phase_code(phase)}: results of {when}"
    # the map after the phase, drawn once for every copy (judge.toml [mail] pictures; players may turn it off):
    # one picture, or one a board for a variant of several boards
    variant = str(outcome.get("variant") or "standard")
    pictures = map_parts(variant, outcome, f"{processed.game}-{phase_code(phase)}") if config.pictures else []
    powers_at: dict[str, set[str]] = {}
    for power, address in seats.items():
        powers_at.setdefault(address, set()).add(power)
    for address in observers or []:
        powers_at.setdefault(address, set())
    texts: dict[tuple[int, ...], str] = {}
    boundaries: dict[tuple[int, ...], str] = {}
    mails: list[tuple[EmailMessage, Hashable | None]] = []
    for address in sorted(powers_at):
        powers = powers_at[address]
        gm = "MASTER" in powers
        visible = tuple(
            i
            for i, press in enumerate(processed.press)
            if gm or press["recipients"] == ["*"] or powers & set(press["recipients"])
        )
        if gm and any(processed.press[i].get("grey") for i in visible):
            visible += (-1,)  # the GM's sheet names the senders of grey press; without any, it is everyone's sheet
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
                link=config.web.game_url(processed.game),
            )
            boundaries[visible] = _boundary(texts[visible])
        mail = notice(config, address, subject, texts[visible])
        if pictures and (gm or not powers or not powers <= set(processed.pictures_off)):
            mail.make_mixed(boundaries[visible])
            for picture in pictures:
                mail.attach(picture)  # the same parts, in every copy
            mails.append((mail, visible))
        else:
            mails.append((mail, None))
    return mails


def _boundary(text: str) -> str:
    """A MIME boundary as the library makes them, found in none of the text (the picture's base64 has no '=' but
    its padding)."""
    while True:
        boundary = "=" * 15 + secrets.token_hex(10) + "=="
        if boundary not in text:
            return boundary


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
