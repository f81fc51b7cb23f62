"""What happened to a game beside its phases, as its pages list it (issue 41): the stored events every player was
told of and the powers the processed phases eliminated -- public facts only, read field by field."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.game.anonymity import name_for_others
from judge.game.use_case import sides_of
from judge.game.views import PublicEvent, PublicPhase
from judge.store import Game, GameEventRecord

SHOWN_EVENTS = (
    "game started",
    "players revealed",
    "game paused",
    "game resumed",
    "game rolled back",
    "player ejected",
    "player resigned",
    "player replaced",
    "game ended",
    "game unstarted",
    "game unterminated",
)
"""the stored events a game's page lists (`GameEvent.kind`): what every player of the game was told"""


def public_events(s: Session, game: Game, phases: tuple[PublicPhase, ...]) -> tuple[PublicEvent, ...]:
    """What happened to the game beside its phases, in order: the stored events every player was told of (their
    public fields only, each read by name: never an address or a vote), and each power a processed phase
    eliminated (the engine's `eliminated` event in its outcome)."""
    rows = s.scalars(
        select(GameEventRecord)
        .where(GameEventRecord.game_id == game.id, GameEventRecord.kind.in_(SHOWN_EVENTS))
        .order_by(GameEventRecord.id)
    )
    found = []
    for row in rows:
        data = row.data or {}
        found.append(
            PublicEvent(
                row.kind,
                row.phase_index,
                as_utc(row.at),
                side=str(data.get("side") or ""),
                player=name_for_others(game, str(data["player"])) if data.get("player") else "",
                phase=str(data.get("phase") or "") if row.kind == "game rolled back" else "",
                how=str(data.get("how") or "") if row.kind == "game ended" else "",
                winners=tuple(str(w) for w in data.get("winners") or ()) if row.kind == "game ended" else (),
            )
        )
    sides = sides_of(game)
    for phase in phases:
        for event in phase.outcome.get("events") or ():
            if event.get("kind") == "eliminated":
                power = str(event["power"])
                side = next((each.label for each in sides if power in each.powers), power)
                found.append(PublicEvent("eliminated", phase.index, as_utc(phase.processed_at), side=side, power=power))
    return tuple(sorted(found, key=lambda event: event.at))
