"""The results mails of a phase and the game-over mail, as the notifier (`judge.mail.notifier`) sends them."""

from __future__ import annotations

from dataclasses import dataclass
from email.headerregistry import Group
from email.message import EmailMessage
from typing import Any

from judge.config import Config
from judge.engine import PhaseType
from judge.engine.calendar import Calendar
from judge.engine.phase import Phase
from judge.engine.supply import halves
from judge.game.adjudication import Processed
from judge.game.events import SignedStatement
from judge.game.use_case import phase_name
from judge.mail.compose import notice, press_heading, words
from judge.mail.pictures import map_part
from judge.mail.predrawn import results_pictures
from judge.render import render, render_njudge_results, render_results
from judge.render.happenings import happenings
from judge.render.njudge import phase_code as njudge_code
from judge.render.njudge_names import place_name
from judge.render.results import phase_code, season_and_year
from judge.render.tally import holdings, side_total, sides_holding


@dataclass(frozen=True)
class ResultsMail:
    """One results mail of a phase and everyone it goes to: the players (and GM, observers) who see the same
    sheet, in one SMTP transaction of several recipients (`judge.mail.sender`)."""

    message: EmailMessage
    raw: bytes
    recipients: tuple[str, ...]


def results_copies(
    config: Config,
    seats: dict[str, str],
    processed: Processed,
    observers: list[str] | None = None,
    *,
    co_gms: tuple[str, ...] = (),
) -> list[ResultsMail]:
    """The results mails of a phase, one a sheet: everyone who sees the same text (the same press) with the same
    picture (or none) gets the same message, written once, its picture encoded once, through one SMTP transaction.
    A mail for several people is addressed to the game (`To: alpha results:;`, an empty group, as a mailing list
    hides its members), so nobody's address is shown to another; a sheet only one person sees is addressed to
    them. `co_gms` get the GM's sheet (MASTER's)."""
    return [
        ResultsMail(mail, bytes(mail), recipients)
        for mail, recipients in _results(config, seats, processed, observers, co_gms)
    ]


def _results(
    config: Config, seats: dict[str, str], processed: Processed, observers: list[str] | None, co_gms: tuple[str, ...]
) -> list[tuple[EmailMessage, tuple[str, ...]]]:
    """Each results mail with its recipients: one a sheet (the press its readers see) and picture (or none)."""
    outcome = processed.outcome
    # the map after the phase, drawn once for every copy (judge.toml [judge] pictures; players may turn it off):
    # one picture, or one a board for a variant of several boards; drawn ahead by the keeper's picture workers
    # when they drew this very outcome (judge/mail/predrawn.py), else here
    variant = str(outcome.get("variant") or "standard")
    pictures = (
        [map_part(png, name) for name, png in results_pictures(processed.game, processed.index, variant, outcome)]
        if config.pictures
        else []
    )
    powers_at: dict[str, set[str]] = {}
    for power, address in seats.items():
        powers_at.setdefault(address, set()).add(power)
    for address in observers or []:
        powers_at.setdefault(address, set())
    for address in co_gms:
        powers_at.setdefault(address, set()).add("MASTER")
    sheets: dict[tuple[tuple[int, ...], bool, bool], list[str]] = {}
    for address in sorted(powers_at):
        powers = powers_at[address]
        gm = "MASTER" in powers
        visible = tuple(
            i
            for i, press in enumerate(processed.press)
            if (gm and press.get("gm_copy", True))
            or press["recipients"] == ["*"]
            or powers & set(press.get("readers", press["recipients"]))
        )
        if gm and any(_told_the_gm(processed.press[i]) for i in visible):
            visible += (-1,)  # the GM's sheet names the senders of grey press; without any, it is everyone's sheet
        with_picture = bool(pictures) and (gm or not powers or not powers <= set(processed.pictures_off))
        # njudge's layout: the game's (`results.layout`), or the player's own choice (`SET LAYOUT NJUDGE`)
        njudge = processed.style.get("layout") == "njudge" or (bool(powers) and powers <= set(processed.njudge_layout))
        sheets.setdefault((visible, with_picture, njudge), []).append(address)
    mails: list[tuple[EmailMessage, tuple[str, ...]]] = []
    for (visible, with_picture, njudge), addresses in sheets.items():
        gm = visible[-1:] == (-1,)  # the GM's own sheet (grey press named): only a grey heading differs
        to = addresses[0] if len(addresses) == 1 else Group(f"{processed.game} results")  # as readers_mail
        if njudge:
            mail = _njudge_mail(config, processed, to, gm, visible)
        else:
            mail = _zine_mail(config, processed, to, gm, visible)
        if with_picture:
            mail.make_mixed()
            for picture in pictures:
                mail.attach(picture)  # the parts made once for every sheet
        mails.append((mail, tuple(addresses)))
    return mails


def _zine_mail(
    config: Config, processed: Processed, to: str | Group, gm: bool, visible: tuple[int, ...]
) -> EmailMessage:
    """A results mail in the judge's own layout (`templates/results.txt.j2`)."""
    outcome = processed.outcome
    phase = outcome["phase"]
    variant = str(outcome.get("variant") or "standard")
    # the phase as values (its season and year as the variant's calendar names them, and its type): the
    # template words the subject from them, so a variant's own template may word it otherwise
    season = season_and_year(variant, phase)
    phase_type = PhaseType(str(phase["type"]))
    text = render_results(
        processed.game,
        outcome,
        processed.next_phase,
        judge=config.judge_code,
        deadline=processed.deadline,
        played_deadline=processed.played_deadline,
        late=processed.late,
        note=processed.note,
        finished=processed.finished,
        winners=processed.winners,
        end_year=processed.end_year,
        press=[
            {**processed.press[i], "heading": press_heading(processed.press[i], gm, variant)} for i in visible if i >= 0
        ],
        options=processed.options,
        style=processed.style,
        link=config.web.game_url(processed.game),
        phase_link=config.web.phase_url(processed.game, processed.index),
    )
    said = words("results", variant, game=processed.game, code=phase_code(phase), season=season,
                 phase_type=phase_type, sheet=text)  # fmt: skip
    return notice(config, to, said.subject, said.text)


def _njudge_mail(
    config: Config, processed: Processed, to: str | Group, gm: bool, visible: tuple[int, ...]
) -> EmailMessage:
    """A results mail in njudge's layout (`results.layout=njudge`): njudge's subject and sheet, the judge's own
    additions (held press, the GM's note, the web links) after njudge's footer (`templates/njudge/after.txt.j2`)."""
    outcome = processed.outcome
    variant = str(outcome.get("variant") or "standard")
    sheet = render_njudge_results(
        processed.game,
        outcome,
        processed.next_phase,
        judge=config.judge_code,
        played_deadline=processed.played_deadline,
        deadline=processed.deadline,
        seq=processed.index + 1,
        options=processed.options,
        finished=processed.finished,
        variant_lines=happenings(outcome, str, lambda location: place_name(variant, location)),
    )
    after = render(
        "njudge/after.txt.j2",
        None,
        press=[
            {**processed.press[i], "heading": press_heading(processed.press[i], gm, variant)} for i in visible if i >= 0
        ],
        note=processed.note,
        link=config.web.game_url(processed.game),
        phase_link=config.web.phase_url(processed.game, processed.index),
    )
    said = words(
        "results",
        "njudge",
        judge=config.judge_code,
        game=processed.game,
        code=njudge_code(outcome["phase"]),
        sheet=sheet,
    )
    return notice(config, to, said.subject, said.text + after)


def game_over_mail(
    config: Config,
    addresses: list[str],
    game: str,
    position: dict[str, Any],
    how: str,
    powers: list[str],
    options: dict[str, Any] | None = None,
    *,
    end_year: int | None = None,
    statements: tuple[SignedStatement, ...] = (),
) -> ResultsMail:
    """The end of a game that no phase's results announce: a draw by vote, a concession, the GM's TERMINATE.
    `statements`: the players' end-of-game statements filed before the end, which it makes public.
    Everyone reads the same text, so it is one message for all, addressed as a results mail to several people is
    (`readers_mail`). The winners and the last centres are each player's side's, named and counted as every table
    names and counts them (issue 40)."""
    variant = str(position.get("variant") or "standard")
    held = holdings(variant, position, options)
    sides = sides_holding(variant, options, held)
    counted = sorted(
        ((s.label, side_total(s.powers, held).centres) for s in sides), key=lambda item: (-item[1], item[0])
    )
    centres = [(label, halves(n)) for label, n in counted if n]
    winners = [side.label for side in sides_holding(variant, options, powers)]  # a side named once, as lists do
    said = words(
        "game_over",
        variant,
        judge=config.judge_code,
        game=game,
        variant=variant,
        code=Phase.parse(
            str(position["phase"]["season"]), int(position["phase"]["year"]), str(position["phase"]["type"])
        ).njudge_code,
        deadline_code=None,
        deadline=None,
        phase=phase_name(position),
        how=how,
        powers=winners,
        last_year=Calendar.year_name(end_year) if end_year is not None else "",
        centres=centres,
        width=max([10, *(len(label) + 2 for label, _ in centres)]),
        statements=list(statements),
    )
    return readers_mail(config, addresses, game, said.subject, said.text)


def readers_mail(config: Config, addresses: list[str], game: str, subject: str, text: str) -> ResultsMail:
    """One message of the game for everyone in `addresses` (each once), through one SMTP transaction: `To:` the
    empty group `<game> results:;` where it has several readers, so only the envelope names them; a mail one
    person reads is addressed to that person."""
    readers = tuple(sorted(set(addresses)))
    to = readers[0] if len(readers) == 1 else Group(f"{game} results")
    mail = notice(config, to, subject, text)
    return ResultsMail(mail, bytes(mail), readers)


def _told_the_gm(press: dict[str, Any]) -> bool:
    """Whether the GM's heading of a press message differs from its readers': a grey sender, an observer, or what
    fake press pretends (`templates/press_heading.txt.j2`)."""
    faked = press.get("shown_sender") is not None or press.get("shown_recipients") is not None
    return bool(press.get("grey") or press.get("observer") or faked)
