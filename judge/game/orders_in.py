"""Whether orders are in: for the GM's view, power by power, and for the web page where the GM shows it
(`web.orders_in`), side by side -- "in" or "not in", never what the orders are."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.engine.supply import powers_to_order
from judge.game.store import position_of, rules_of
from judge.game.use_case import sides_of
from judge.store import Game, GameStatus, OrderSet


def order_sets(s: Session, game: Game) -> tuple[set[str], dict[str, bool]]:
    """The powers that must order in the phase under way, and each power's orders on file for it (whether they
    hold errors)."""
    due = powers_to_order(rules_of(game), position_of(game)) if game.position else set()
    sets = dict(
        s.execute(
            select(OrderSet.power, OrderSet.has_errors).where(
                OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index
            )
        ).all()
    )
    return due, sets


def sides_in(s: Session, game: Game) -> dict[str, str]:
    """Each side that must order now (a running game): "in" when every power of it that must has orders on file
    without errors, else "not in". A player's side is the unit: a Hoplite Major's orders without its Minor's are
    not in."""
    if game.status != GameStatus.ACTIVE or game.position is None:
        return {}
    due, sets = order_sets(s, game)
    found = {}
    for side in sides_of(game):
        must = [p for p in side.powers if p in due]
        if must:
            found[side.label] = "in" if all(p in sets and not sets[p] for p in must) else "not in"
    return found
