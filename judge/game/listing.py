"""The site's views across games: a page of the list of games, filtered, and the phases processed last in every
public game (the site's feed). A private game's state, variant and phases are in neither (issue 41); an unlisted
game (`unlisted`, issue 44) is in neither at all: its page is reached by its name alone."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from judge.game.names import shown_name
from judge.game.reads import _code, _public
from judge.game.settings import given_settings, is_private, is_unlisted
from judge.game.use_case import UseCase, phase_name, sides_of
from judge.game.views import GameListing, GamesPage, PublicGame, PublicPhase
from judge.store import Game, PhaseRecord


class Listing(UseCase):
    """What LIST and the site show of many games at once; one game's views are `Reads`'."""

    def games(self) -> list[GameListing]:
        """The judge's list of games (LIST): every game but the unlisted (`unlisted`: reached by name alone), with
        what a player choosing a game reads in LIST FULL (its places, GM, rule options, settings and comment)."""
        with self.store.plain() as s:
            every = s.execute(select(Game.id, Game.settings).order_by(Game.name)).all()
            listed = [id for id, settings in every if not is_unlisted(settings or {})]
            found = self.store.peek_ids(s, listed)
            return [
                GameListing(
                    g.name,
                    g.variant,
                    g.status,
                    phase_name(g.position) if g.position else "forming",
                    sum(1 for seat in g.seats if seat.player_id),
                    places=len(sides_of(g)),
                    gm=shown_name(g.gm.name),
                    options=dict(g.options),
                    settings=_for_choosing(given_settings(g.settings)),
                )
                for g in (found[id] for id in listed)
            ]

    def page(self, page: int, size: int, status: str = "", variant: str = "") -> GamesPage:
        """One page of the list of games, `size` to a page, by name, of the state and variant asked for (empty: any).
        A filtered list leaves the private games out: their names are public, their state and variant are not.
        An unlisted game is never on it."""
        with self.store.plain() as s:
            query = select(Game.id, Game.settings).order_by(Game.name)
            if status:
                query = query.where(Game.status == status)
            if variant:
                query = query.where(Game.variant == variant)
            filtered = bool(status or variant)
            ids = [
                id
                for id, settings in s.execute(query).all()
                if not (filtered and is_private(settings or {})) and not is_unlisted(settings or {})
            ]
            chosen = ids[(page - 1) * size : page * size]
            found = self.store.peek_ids(s, chosen)
            return GamesPage(tuple(_public(found[id]) for id in chosen), page, max(1, -(-len(ids) // size)), len(ids))

    def latest(self, limit: int) -> list[tuple[PublicGame, PublicPhase]]:
        """The `limit` phases processed last in the public games, newest first (the site's feed): a private game's
        phases never among them."""
        with self.store.plain() as s:
            every = s.execute(select(Game.id, Game.settings)).all()
            public = [id for id, settings in every if not (is_private(settings or {}) or is_unlisted(settings or {}))]
            if not public:
                return []
            rows = s.execute(
                select(PhaseRecord.game_id, PhaseRecord.index, PhaseRecord.outcome, PhaseRecord.processed_at)
                .where(PhaseRecord.game_id.in_(public))
                .order_by(PhaseRecord.processed_at.desc(), PhaseRecord.id.desc())
                .limit(limit)
            ).all()
            games = {id: _public(game) for id, game in self.store.peek_ids(s, (row[0] for row in rows)).items()}
            return [
                (games[game_id], PublicPhase(index, _code(outcome), phase_name(outcome), outcome, at))
                for game_id, index, outcome, at in rows
            ]


_NOT_FOR_CHOOSING = ("results.", "web.", "unlisted")
"""settings LIST FULL leaves out: how a player's own mail prints (results.*), the web page's (web.*), and
`unlisted` (an unlisted game is not on the list)"""


def _for_choosing(settings: dict[str, Any]) -> dict[str, Any]:
    """The given settings a player choosing a game reads in LIST FULL: the game's rules of play (gunboat, press,
    draws, deadlines, NMR) and the GM's comment."""
    return {k: v for k, v in settings.items() if not k.startswith(_NOT_FOR_CHOOSING)}
