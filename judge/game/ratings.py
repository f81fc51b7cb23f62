"""The players' ratings: one scale per variant family, from the finished games' own events, by the method
docs/ratings.md publishes (with its argument and a worked example) -- an Elo rating over every pair of a game's
players, each pair's result read from the game's score.

A game's score (`game_scores`): the sides among its winners share one point equally (a victory gives the winner
the point; a draw shares it among the drawing sides, every power of a side drawing with it; a concession gives it
to the side conceded to; a game ended at its end year shares it among the leaders in centres) and every other side
scores nothing -- a side as the variant's text counts it (a Hoplite Major with its Minor, a CW Heptadiplomacy
player's board-nations: one side, one score). A terminated game is not rated. The player who held a side at the
end takes its score; a player who left a side before the end (resigned, ejected, replaced) is rated as scoring
nothing in that game. A side nobody played is no one's.

Nothing is stored: the ratings are worked out from the finished games in the order they ended, each time they are
read, so a game that ends counts at once and a rolled-back one (no longer finished) drops out at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.game.records import event_stamps, player_names, seats_public, walk_game
from judge.game.store import GameStore
from judge.store import Game, GameStatus

START = 1500.0
"""every player's rating before his first rated game of a family"""
K = 32.0
"""the most one game moves a rating (against a single opponent); spread over his opponents"""
RATED_RESULTS = ("victory", "draw", "concession", "centres")
"""the results rated: "centres" is a game ended at its end year (judge.game.year_end), its leaders sharing the point
as a draw's sides do (one leader takes it whole, as a victory)"""


@dataclass(frozen=True)
class Rating:
    family: str
    rating: float
    games: int


def family_of(variant: str) -> str:
    """The scale a variant's games are rated on: the variant's own (every edition of the standard game on one
    scale, each multi-unit variant on its own: their games are not alike enough to share one)."""
    return variant


def game_scores(game: Game, sides: dict[str, tuple[str, ...]]) -> dict[str, float]:
    """Each side's score in a finished game (module docstring): `sides`, label -> its powers."""
    winners = set(game.winners or ())
    winning = [label for label, powers in sides.items() if winners & set(powers)]
    return {label: (1.0 / len(winning) if label in winning else 0.0) for label in sides}


def expected(mine: float, theirs: float) -> float:
    """Elo's expectation of a pair: the share of the point a player rated `mine` is expected to take."""
    return 1.0 / (1.0 + float(10.0 ** ((theirs - mine) / 400.0)))


def rate_game(ratings: dict[int, float], scores: dict[int, float]) -> dict[int, float]:
    """Each player's change from one game: for every pair, 1 to the higher score, 0.5 each for equal scores,
    against Elo's expectation; the sum over his opponents times K / (players - 1). Zero-sum."""
    players = sorted(scores)
    if len(players) < 2:
        return {}
    changes = {}
    for me in players:
        total = 0.0
        for other in players:
            if other == me:
                continue
            actual = 1.0 if scores[me] > scores[other] else 0.5 if scores[me] == scores[other] else 0.0
            total += actual - expected(ratings.get(me, START), ratings.get(other, START))
        changes[me] = K * total / (len(players) - 1)
    return changes


def rated_games(s: Session) -> list[Game]:
    """The finished games that count, in the order they ended."""
    games = GameStore.games_in(s, [GameStatus.FINISHED])
    return sorted(
        (g for g in games if g.result in RATED_RESULTS and seats_public(g)),
        key=lambda g: (as_utc(g.finished_at) if g.finished_at else datetime.min.replace(tzinfo=UTC), g.id),
    )


def all_ratings(s: Session) -> dict[str, dict[int, Rating]]:
    """Every family's ratings: family -> player id -> his rating and rated games."""
    names = player_names(s)
    games = rated_games(s)
    stamps = event_stamps(s, [game.id for game in games])
    ratings: dict[str, dict[int, float]] = {}
    counts: dict[str, dict[int, int]] = {}
    for game in games:
        walk = walk_game(s, game, names, phases=False, stamp=stamps.get(game.id, (0, 0)))
        side_scores = game_scores(game, {label: side.powers for label, side in walk.sides.items()})
        scores = {holder: side_scores.get(label, 0.0) for label, holder in walk.holders.items() if holder is not None}
        for player in walk.left:
            scores.setdefault(player, 0.0)
        family = family_of(game.variant)
        scale = ratings.setdefault(family, {})
        for player, change in rate_game(scale, scores).items():
            scale[player] = scale.get(player, START) + change
            counts.setdefault(family, {})[player] = counts.get(family, {}).get(player, 0) + 1
    return {
        family: {pid: Rating(family, scale[pid], counts[family][pid]) for pid in scale}
        for family, scale in ratings.items()
    }


def ratings_of(s: Session, player_id: int) -> list[Rating]:
    """One player's ratings, a family at a time (those he has a rated game in)."""
    return sorted((scale[player_id] for scale in all_ratings(s).values() if player_id in scale), key=lambda r: r.family)
