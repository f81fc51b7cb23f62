"""Order sets filed in a transaction are written together, before its next statement or its commit
(`judge.game.order_writes`): no statement ever reads order sets without them, a savepoint rolled back takes those
filed inside it, and a batch of order mails writes its sets in one statement a kind, not one a mail."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event, select

from judge.commands import answer_mail
from judge.config import Config, SmtpIntakeConfig
from judge.game import Games
from judge.game.order_writes import file_order_set
from judge.mail.inbox import store_inbound
from judge.mail.processor import Processor
from judge.store import Database, Game, OrderSet, open_database
from judge.testing.tables import OPENING_ORDERS, full_games


def _on_file(db: Database) -> dict[str, list[str]]:
    with db.transaction() as s:
        return {power: list(lines) for power, lines in s.execute(select(OrderSet.power, OrderSet.lines))}


def _games(url: str) -> Database:
    db = open_database(url)
    full_games(Games(db), 1)
    return db


def test_orders_filed_in_a_transaction_are_read_by_its_next_statement(database_url: str) -> None:
    db = _games(database_url)
    with db.transaction() as s:
        Games(db).bound(s).orders.submit("g0", "France", ["A Par-Bur"])
        seen = {power: lines for power, lines in s.execute(select(OrderSet.power, OrderSet.lines))}
    assert seen == {"France": ["A Par-Bur"]}


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


def test_a_batch_of_order_mails_writes_its_order_sets_in_one_statement_a_kind(database_url: str) -> None:
    db = open_database(database_url)
    seats = full_games(Games(db), 2)
    for n in range(28):  # every power of g0 and g1 twice, all in one batch
        seat = seats[n % len(seats)]
        raw = (
            f"From: {seat.address}\r\nTo: judge@example.org\r\nSubject: orders\r\nMessage-ID: <w{n}@example.org>\r\n"
            f"\r\nSIGNON {seat.game} {seat.power} pw\r\n{OPENING_ORDERS[seat.power]}\r\n"
        ).encode()
        store_inbound(db, raw, source="test")
    statements: list[str] = []

    @event.listens_for(db.engine, "before_cursor_execute")
    def _count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if "order_sets" in statement:
            statements.append(statement.split()[0])

    config = Config(address="judge@example.org", rate_limit=10**9, smtp_intake=SmtpIntakeConfig(enabled=False))
    assert Processor(db, config, handler=answer_mail).process_pending() == 28
    # the two games' snapshots (which powers have orders on file), and one INSERT of the fourteen sets, each written
    # once as last filed
    assert sorted(statements) == ["INSERT", "SELECT", "SELECT"]
    with db.transaction() as s:
        assert s.scalar(select(OrderSet.id).where(OrderSet.has_errors)) is None
        assert len(s.scalars(select(OrderSet.id)).all()) == 14


def test_a_set_said_to_be_on_file_that_is_not_fails_the_transaction_rather_than_vanish(database_url: str) -> None:
    db = _games(database_url)
    with db.transaction() as s:
        game_id, phase = s.execute(select(Game.id, Game.phase_index).where(Game.name == "g0")).one()
    values = {"set_game": game_id, "set_phase": phase, "set_power": "Italy", "lines": ["A Ven H"], "checked": [],
              "has_errors": False, "submitted_at": datetime.now(UTC), "source_message_id": None}  # fmt: skip
    with pytest.raises(RuntimeError, match="not on file"), db.transaction() as s:
        file_order_set(s, values, on_file=True)
    assert _on_file(db) == {}
