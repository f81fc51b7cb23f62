"""The end-of-game statements a game has, as everyone may read them once it is over (issue 44 item 5): read here,
apart from the use case that files them (`judge.game.statements`), because raising the end of a game
(`judge.game.use_case.UseCase.raise_event`) hands them to the game-over mail."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.game.anonymity import name_for_others, names_hidden
from judge.game.events import SignedStatement
from judge.game.names import shown_name
from judge.store import Game, Player, Statement


def signed(game: Game, statement: Statement, name: str) -> SignedStatement:
    """One statement as others read it: the player's name only where the game names its players (a gunboat game's
    statement is signed by its side until the reveal); the GM's by the GM."""
    if statement.side is None:  # the GM is no secret, even in a gunboat game
        return SignedStatement(None, shown_name(name), tuple(statement.text.split("\n")))
    player = None if names_hidden(game) else name_for_others(game, name)
    return SignedStatement(statement.side, player, tuple(statement.text.split("\n")))


def statements_of(s: Session, game: Game, *, before: bool | None = None) -> tuple[SignedStatement, ...]:
    """The game's statements, the GM's last and the players' by side; `before`: only those filed by the time the
    game ended (True) or after (False)."""
    query = select(Statement, Player.name).join(Player, Player.id == Statement.player_id)
    rows = s.execute(query.where(Statement.game_id == game.id)).all()
    ended = as_utc(game.finished_at) if game.finished_at is not None else None
    found = []
    for statement, name in rows:
        if before is not None and ended is not None and (as_utc(statement.filed_at) <= ended) != before:
            continue
        found.append(signed(game, statement, name))
    return tuple(sorted(found, key=lambda each: (each.side is None, each.side or "")))
