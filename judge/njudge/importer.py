"""`judge import`: a game moved here from an njudge judge (issue 45), started from its results mails.

The GM saves the game's mails (its start mail, if he has it, and every results mail, in the order they came) as
files: plain text or whole messages (`.eml`, an mbox). The reader (`judge.njudge.reader`) reads them into the last
phase's position; the game is created here, its GM the GM who imports it, forming at that position (the
phase the last mail's footer names, its units, the units waiting to retreat and where they may go, the centres
each power owns). The powers' players join it as they join any game (`JOIN game password Power`), or are named
in the command (`--player England=ann@example.org`, each registered here); when the last has joined the game
starts from the imported position, its results in njudge's layout (`results.layout=njudge`: the players were
reading njudge's)."""

from __future__ import annotations

import mailbox
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from judge.game.layer import Games
from judge.game.settings import apply_setting
from judge.njudge.reader import Reader, ReadError, read_game


@dataclass(frozen=True)
class Imported:
    """What `judge import` made: the game, its variant, the phase it stands at, who joined and whether it
    started."""

    game: str
    variant: str
    phase: dict[str, Any]
    joined: tuple[str, ...]
    started: bool


def texts_of(paths: Sequence[Path]) -> list[str]:
    """The bodies of the mails in `paths`, in order: a file of plain text is one mail's body; a whole message
    (headers first) its text part; an mbox each of its messages."""
    texts: list[str] = []
    for path in paths:
        raw = path.read_bytes()
        if raw.startswith(b"From "):
            for message in mailbox.mbox(str(path), factory=None, create=False):
                texts.append(_body(message_from_bytes(message.as_bytes(), policy=policy.default)))
        elif b"\n\n" in raw and raw.split(b"\n", 1)[0].split(b":", 1)[0].replace(b"-", b"").isalnum():
            texts.append(_body(message_from_bytes(raw, policy=policy.default)))
        else:
            texts.append(raw.decode("utf-8", errors="replace"))
    return texts


def _body(message: Any) -> str:
    if not isinstance(message, EmailMessage):
        return ""
    part = message.get_body(("plain",))
    return str(part.get_content()) if part is not None else ""


def imported_position(reader: Reader) -> dict[str, Any]:
    """The position the last results mail leaves, at the phase its footer names (a contract case without
    orders, as the store keeps positions)."""
    if not reader.positions:
        raise ReadError("no results mail among them (no `Movement results for ...` line)")
    last = reader.positions[-1]
    if last.next_phase is None:
        raise ReadError("the game is over: its last results mail names no next phase")
    position: dict[str, Any] = {
        "variant": reader.variant,
        "phase": last.next_phase,
        "units": last.units,
        "supply_centers": last.supply_centers,
    }
    if last.next_phase["type"] == "Retreat":
        position["dislodged"] = last.dislodged
    return position


def import_game(
    games: Games,
    texts: Iterable[str],
    *,
    name: str,
    gm: str,
    password: str,
    players: dict[str, str] | None = None,
    variant: str | None = None,
) -> Imported:
    """Create `name` at the position `texts` (the game's njudge mails, in order) leave, with `gm` its GM and
    `password` the password its players join with; join the `players` named (power -> registered address)."""
    reader = read_game(texts, variant)
    position = imported_position(reader)
    settings: dict[str, Any] = {}
    apply_setting(settings, "results.layout", "njudge")
    created = games.seating.create_game(name, reader.variant, gm, password, settings=settings)
    games.setup.place_imported(created.name, position)
    joined: list[str] = []
    started = False
    for power, address in (players or {}).items():
        side = games.seating.join(created.name, address, password, (power,)).side
        joined.append(power)
        started = started or side is not None
    return Imported(created.name, reader.variant, position["phase"], tuple(joined), started)
