"""Order sets filed by a transaction's mails, written together when the transaction next looks at the database.

A deadline's rush is a stream of order mails, each filing one order set, and the mail processor handles a hundred of
them in one transaction. Written one statement a mail, each is a round trip to PostgreSQL that the processor waits
for (and, with the judge's other threads busy, waits again for the interpreter lock after): on the order path that
was most of what PostgreSQL cost over SQLite. So a set is filed here, in the session, and written with the others
as one `executemany` (psycopg sends the lot pipelined, in one round trip) just before the session's next statement
or its commit -- so that nothing, in this transaction or any other, ever reads order sets without the filed ones:

- any statement run through the session writes them first (`do_orm_execute`), except the game snapshot's reads
  (`READS_NO_ORDER_SETS`), which read games, seats and players only and add the powers filed here themselves
  (`filed_powers`);
- so does any ORM flush, and the commit;
- a savepoint rolled back drops what was filed inside it; a transaction rolled back, all.

Whether a set replaced an earlier one is what the game's snapshot says is on file (`Snapshot.on_file`), not a
statement's row count, which a write sent later cannot give. The row count still guards the belief: should fewer sets
be replaced than were said to be on file, the transaction fails (and its mail is done again alone) rather than lose
orders without a word. (Nothing but a transaction holding the game `FOR UPDATE` removes a set, and the order path
holds it `FOR SHARE` until it commits, so a set on file stays there.)

The order path holds the game only `FOR SHARE` (`judge.game.snapshot`), so two processes may file orders for one
game at once, and even for one power (a player and the GM, or mail from two addresses): a new set is therefore an
`INSERT ... ON CONFLICT DO UPDATE`. Whichever commits second waits for the first's row and replaces it, so exactly
one set is left, the later; its reply says the orders were filed, not that they replaced others (its snapshot did
not see the other's, not yet committed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import BindParameter, CursorResult, Table, bindparam, event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import ORMExecuteState, Session, SessionTransaction, UOWTransaction

from judge.store import OrderSet

_PENDING = "judge.pending_order_sets"
"""where a session keeps the sets filed and not yet written (`Session.info`)"""
_MARKS = "judge.pending_order_set_marks"
"""for each savepoint open: how many sets were filed when it began"""

READS_NO_ORDER_SETS = {"judge_reads_no_order_sets": True}
"""the execution option of a statement that neither reads nor writes order sets: it is run without writing the
filed sets first"""

# plain table statements, built once: order sets are only ever read as columns, never as ORM objects that a
# statement here could leave stale
_ORDER_SETS = cast(Table, OrderSet.__table__)
_SET_VALUES: dict[str, BindParameter[Any]] = {
    name: bindparam(name) for name in ("lines", "checked", "has_errors", "submitted_at", "source_message_id")
}
_REPLACE_ORDER_SET = (
    _ORDER_SETS.update()
    .where(
        _ORDER_SETS.c.game_id == bindparam("set_game"),
        _ORDER_SETS.c.phase_index == bindparam("set_phase"),
        _ORDER_SETS.c.power == bindparam("set_power"),
    )
    .values(_SET_VALUES)
)


def _add_order_set(insert: Any) -> Any:
    """A new set, or, where another transaction filed the power's set since this one looked (the order path holds
    the game only `FOR SHARE`, so two processes may file one power at once), the set replaced: the later wins."""
    statement = insert(_ORDER_SETS).values(
        game_id=bindparam("set_game"), phase_index=bindparam("set_phase"), power=bindparam("set_power"), **_SET_VALUES
    )
    return statement.on_conflict_do_update(
        index_elements=["game_id", "phase_index", "power"],
        set_={name: getattr(statement.excluded, name) for name in _SET_VALUES},
    )


_ADD_ORDER_SET = {"postgresql": _add_order_set(postgresql.insert), "sqlite": _add_order_set(sqlite.insert)}


@dataclass(frozen=True)
class _Filed:
    values: dict[str, Any]
    """the statement's parameters: set_game, set_phase, set_power and the set's columns"""
    new: bool
    """no set was on file for the power in the phase: the first write of it inserts"""

    @property
    def key(self) -> tuple[int, int, str]:
        return self.values["set_game"], self.values["set_phase"], self.values["set_power"]


def file_order_set(session: Session, values: dict[str, Any], *, on_file: bool) -> None:
    """File a power's set for a phase (`values`: set_game, set_phase, set_power, lines, checked, has_errors,
    submitted_at, source_message_id), written before the session's next statement. `on_file`: a set for the power
    and phase is in the database already, or filed here earlier."""
    pending: list[_Filed] = session.info.setdefault(_PENDING, [])
    pending.append(_Filed(dict(values), new=not on_file))


def filed_powers(session: Session, game_id: int, phase_index: int) -> set[str]:
    """The powers whose sets for the phase are filed here and not yet written."""
    pending: list[_Filed] = session.info.get(_PENDING, [])
    return {filed.key[2] for filed in pending if filed.key[:2] == (game_id, phase_index)}


def write_order_sets(session: Session) -> None:
    """Write what is filed: one statement for the sets that replace others (run as one `executemany`), one for the
    new ones; a power filed twice is written once, as last filed."""
    pending: list[_Filed] | None = session.info.pop(_PENDING, None)
    if not pending:
        return
    last: dict[tuple[int, int, str], _Filed] = {}
    for filed in pending:
        first = last.get(filed.key)
        last[filed.key] = filed if first is None else _Filed(filed.values, new=first.new)
    # in the key's order, so that two transactions writing some of the same sets take their row locks alike
    in_order = [last[key] for key in sorted(last)]
    replaced = [filed.values for filed in in_order if not filed.new]
    added = [filed.values for filed in in_order if filed.new]
    if replaced:
        result = session.execute(_REPLACE_ORDER_SET, replaced, execution_options=READS_NO_ORDER_SETS)
        written = cast(CursorResult[Any], result).rowcount
        if 0 <= written < len(replaced):  # a set said to be on file was not: never lose orders without a word
            raise RuntimeError(f"{len(replaced) - written} order set(s) to replace were not on file")
    if added:
        insert = _ADD_ORDER_SET[session.get_bind().dialect.name]
        session.execute(insert, added, execution_options=READS_NO_ORDER_SETS)


@event.listens_for(Session, "do_orm_execute")
def _before_a_statement(state: ORMExecuteState) -> None:
    if state.session.info.get(_PENDING) and not state.execution_options.get("judge_reads_no_order_sets"):
        write_order_sets(state.session)


@event.listens_for(Session, "before_flush")
def _before_an_orm_flush(session: Session, _context: UOWTransaction, _instances: object) -> None:
    write_order_sets(session)


@event.listens_for(Session, "before_commit")
def _before_the_commit(session: Session) -> None:
    write_order_sets(session)


@event.listens_for(Session, "after_transaction_create")
def _mark_a_savepoint(session: Session, transaction: SessionTransaction) -> None:
    if transaction.nested:
        marks: dict[int, int] = session.info.setdefault(_MARKS, {})
        marks[id(transaction)] = len(session.info.get(_PENDING, []))


@event.listens_for(Session, "after_soft_rollback")
def _drop_what_was_undone(session: Session, previous: SessionTransaction) -> None:
    """A savepoint rolled back: the sets filed inside it go with it; the whole transaction: every set."""
    mark = session.info.get(_MARKS, {}).pop(id(previous), None) if previous.nested else None
    pending: list[_Filed] | None = session.info.get(_PENDING)
    if mark is None:
        session.info.pop(_PENDING, None)
    elif pending is not None:
        del pending[mark:]
