"""A mail's order sets are written by the use case that files them, when it files them (`Orders.submit`,
`judge.game.order_writes`; issue 42, "Hidden writes"): no session hook writes them later, a savepoint or a
transaction rolled back takes them as it takes any write, and a set filed meanwhile by another is replaced, not
doubled."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event, insert, select
from sqlalchemy.orm import Session

from judge.game import Games
from judge.store import Database, Game, OrderSet, open_database
from judge.testing.tables import full_games


def _on_file(db: Database) -> dict[str, list[str]]:
    with db.transaction() as s:
        return {power: list(lines) for power, lines in s.execute(select(OrderSet.power, OrderSet.lines))}


def _games(url: str) -> Database:
    db = open_database(url)
    full_games(Games(db), 1)
    return db


def test_a_mails_orders_are_written_by_the_submission_itself_in_one_statement(database_url: str) -> None:
    """The write is the use case's own statement, run before it returns: not one left for a later statement or
    the commit to set off."""
    db = _games(database_url)
    statements: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "order_sets" in statement:
            statements.append(statement.split()[0])

    with db.transaction() as s:
        Games(db).bound(s).orders.submit("g0", "France", ["A Par-Bur", "A Mar-Spa", "F Bre-Mao"])
        # the game's snapshot (which powers have orders on file), and the set's one INSERT
        assert statements == ["SELECT", "INSERT"]
        seen = {power: lines for power, lines in s.execute(select(OrderSet.power, OrderSet.lines))}
    assert seen == {"France": ["A Par-Bur", "A Mar-Spa", "F Bre-Mao"]}


def test_no_session_hook_writes_orders() -> None:
    """The hooks that once wrote filed sets before a session's next statement, flush or commit are gone: the only
    session hooks the judge sets are the game snapshot's, which forget a snapshot that a change made stale."""
    import judge.serve  # noqa: F401 - the whole judge imported, so every hook it sets is set

    hooks = {
        name: [hook.__name__ for hook in getattr(Session().dispatch, name)]
        for name in ("do_orm_execute", "before_flush", "after_flush", "before_commit", "after_transaction_create",
                     "after_soft_rollback")
    }  # fmt: skip
    assert {name: hooked for name, hooked in hooks.items() if hooked} == {
        "after_flush": ["_forget_after_writes"],
        "after_soft_rollback": ["_forget_after_rollback"],
    }


def test_a_second_mail_in_one_transaction_replaces_the_first_and_says_so(database_url: str) -> None:
    db = _games(database_url)
    with db.transaction() as s:
        games = Games(db).bound(s)
        first = games.orders.submit("g0", "France", ["A Par-Bur"])
        second = games.orders.submit("g0", "France", ["A Par-Pic"])
    with db.transaction() as s:
        third = Games(db).bound(s).orders.submit("g0", "France", ["A Par-Gas"])
    assert (first.replaced, second.replaced, third.replaced) == (False, True, True)
    assert _on_file(db) == {"France": ["A Par-Gas"]}


def test_a_savepoint_rolled_back_takes_the_orders_filed_inside_it_and_no_others(database_url: str) -> None:
    db = _games(database_url)
    with db.transaction() as s:
        games = Games(db).bound(s)
        games.orders.submit("g0", "France", ["A Par-Bur"])
        savepoint = s.begin_nested()
        games.orders.submit("g0", "Germany", ["A Ber-Kie"])
        games.orders.submit("g0", "France", ["A Par-Pic"])
        savepoint.rollback()
        assert games.orders.submit("g0", "Germany", ["A Ber-Sil"]).replaced is False
    assert _on_file(db) == {"France": ["A Par-Bur"], "Germany": ["A Ber-Sil"]}


def test_a_transaction_rolled_back_writes_no_orders(database_url: str) -> None:
    db = _games(database_url)
    try:
        with db.transaction() as s:
            Games(db).bound(s).orders.submit("g0", "France", ["A Par-Bur"])
            raise LookupError("the mail's work failed")
    except LookupError:
        pass
    assert _on_file(db) == {}


def test_a_set_filed_since_the_snapshot_was_taken_is_replaced_not_doubled(database_url: str) -> None:
    """Another process may file the power's set after this one looked (the order path holds the game only
    `FOR SHARE`): the later set wins, and one set is left."""
    db = _games(database_url)
    with db.transaction() as s:
        games = Games(db).bound(s)
        games.orders.submit("g0", "Italy", ["A Ven H"])  # the snapshot is taken: France has nothing on file
        game_id, phase = s.execute(select(Game.id, Game.phase_index).where(Game.name == "g0")).one()
        s.execute(
            insert(OrderSet).values(
                game_id=game_id, phase_index=phase, power="France", lines=["A Par H"], orders=[[]], checked=[],
                has_errors=False, submitted_at=datetime.now(UTC),
            )
        )  # fmt: skip
        assert games.orders.submit("g0", "France", ["A Par-Bur"]).replaced is False  # as the snapshot saw it
    assert _on_file(db) == {"France": ["A Par-Bur"], "Italy": ["A Ven H"]}
