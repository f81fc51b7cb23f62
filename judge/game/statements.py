"""The players' end-of-game statements (issue 44 item 5; DPjudge's "End Of Game Statements", which it archived on
the game's page): each player of a side, and the GM, files one statement a game with `STATEMENT`, and may change it
by filing it again or take it back (`STATEMENT WITHDRAW`).

When: from the game's start, with no end. One filed before the end is kept private -- nobody but its writer is
told of it -- until the game ends, when the game-over mail carries it (after a victory's results, a mail of its
own: `judge.game.use_case.UseCase.raise_event`); one filed or changed after the end is posted to everyone in the
game at once, as DPjudge's players posted theirs as broadcasts after the end. The game's page shows them all once
the game is over. In a gunboat game a statement is signed by its side, not its player, until the names are
revealed (`judge.game.filed_statements.signed`)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.game.errors import GameError
from judge.game.events import StatementFiled
from judge.game.filed_statements import signed
from judge.game.use_case import UseCase, audience_of, side_of
from judge.store import Game, GameStatus, Player, Statement

MOST_LINES = 100
"""the longest statement, in lines: a statement is a word on the game, not a second game's press"""


@dataclass(frozen=True)
class Filed:
    """What `STATEMENT` did, for its reply: published (the game is over: everyone was sent it) or kept private
    until the end; `changed`: it replaced the writer's earlier statement."""

    published: bool
    changed: bool
    side: str | None
    """the side it is signed for (None: the GM's)"""


class Statements(UseCase):
    def file(self, name: str, address: str, lines: list[str], *, master: bool = False) -> Filed:
        """File (or change) the statement of the player at `address` (`master`: the GM's, or a co-GM's)."""
        text = "\n".join(lines).strip("\n")
        if not text.strip():
            raise GameError("the statement is empty: write it on the lines after STATEMENT, up to ENDPRESS")
        count = len(text.split("\n"))
        if count > MOST_LINES:
            raise GameError(f"a statement is at most {MOST_LINES} lines; this one has {count}")
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player, side = self._writer(s, game, address, master)
            statement = s.scalar(
                select(Statement).where(Statement.game_id == game.id, Statement.player_id == player.id)
            )
            changed = statement is not None
            if statement is None:
                statement = Statement(game_id=game.id, player_id=player.id)
                s.add(statement)
            statement.side = side
            statement.text = text
            statement.filed_at = self.clock.now()
            s.flush()
            over = game.status == GameStatus.FINISHED
            if over:  # after the end: posted to everyone in the game now
                shown = signed(game, statement, player.name)
                event = StatementFiled(game=name, statement=shown, changed=changed, audience=audience_of(game))
                self.raise_event(s, game, event)
            return Filed(over, changed, side)

    def withdraw(self, name: str, address: str, *, master: bool = False) -> bool:
        """Take back the statement of the player at `address`; False where he had filed none."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            player, _ = self._writer(s, game, address, master)
            statement = s.scalar(
                select(Statement).where(Statement.game_id == game.id, Statement.player_id == player.id)
            )
            if statement is None:
                return False
            s.delete(statement)
            return True

    def _writer(self, s: Session, game: Game, address: str, master: bool) -> tuple[Player, str | None]:
        """Who files, and the side he signs for: the GM none; a player the side he holds now (one who left it
        before the end no longer speaks for it)."""
        if game.status == GameStatus.FORMING or game.position is None:
            raise GameError(f"{game.name} has not started: a statement is a word on a game played")
        player = self.store.player(s, address)
        if master:
            return player, None
        held = next((seat.power for seat in game.seats if seat.player_id == player.id and seat.power), None)
        if held is None:
            raise GameError(f"you hold no side in {game.name}: only its players and its GM file statements")
        return player, side_of(game, held).label
