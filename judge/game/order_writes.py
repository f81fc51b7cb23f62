"""Writing a mail's order sets: the one statement that files orders, run by the use case that files them
(`Orders.submit`), where a reader sees it.

A mail files one set per power it orders (a side's mail, several) in one `executemany`. Each set is an
`INSERT ... ON CONFLICT DO UPDATE`: the order path holds the game only `FOR SHARE` (`judge.game.snapshot`), so two
processes may file orders for one game at once, and even for one power (a player and the GM, or mail from two
addresses). Whichever commits second waits for the first's row and replaces it, so exactly one set is left, the
later; its reply says the orders were filed, not that they replaced others (its snapshot did not see the other's,
not yet committed). Whether a set replaced an earlier one is what the game's snapshot says is on file
(`Snapshot.on_file`), which the use case keeps up to date as it files.

(The sets were once held in the session and written by SQLAlchemy hooks before its next statement, to write a
batch of mails' sets in one round trip; issue 42 made the write explicit: a hidden write is one a reader of the use
case cannot see, and one a statement with an opt-out flag could miss.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from sqlalchemy import BindParameter, Table, bindparam, delete
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from judge.store import OrderSet

_ORDER_SETS = cast(Table, OrderSet.__table__)
_SET_VALUES: dict[str, BindParameter[Any]] = {
    name: bindparam(name) for name in ("lines", "orders", "checked", "has_errors", "submitted_at", "source_message_id")
}


def _add_order_set(insert: Any) -> Any:
    """A new set, or, where one is on file for the power in the phase, the set replaced: the later wins."""
    statement = insert(_ORDER_SETS).values(
        game_id=bindparam("set_game"), phase_index=bindparam("set_phase"), power=bindparam("set_power"), **_SET_VALUES
    )
    return statement.on_conflict_do_update(
        index_elements=["game_id", "phase_index", "power"],
        set_={name: getattr(statement.excluded, name) for name in _SET_VALUES},
    )


_ADD_ORDER_SET = {"postgresql": _add_order_set(postgresql.insert), "sqlite": _add_order_set(sqlite.insert)}


def write_order_sets(session: Session, sets: Sequence[dict[str, Any]]) -> None:
    """Write a mail's sets, each replacing the power's set on file (`sets`: each with set_game, set_phase,
    set_power, lines, orders, checked, has_errors, submitted_at, source_message_id)."""
    if not sets:
        return
    # in the key's order, so that two transactions writing some of the same sets take their row locks alike
    in_order = sorted(sets, key=lambda values: (values["set_game"], values["set_phase"], values["set_power"]))
    session.execute(_ADD_ORDER_SET[session.get_bind().dialect.name], in_order)


def remove_order_sets(session: Session, game_id: int, phase: int, powers: Sequence[str]) -> None:
    """Remove the powers' sets for the phase (CLEAR: `judge.game.on_file`): each power is then as one that sent no
    orders, its units unordered."""
    if not powers:
        return
    session.execute(
        delete(_ORDER_SETS).where(
            _ORDER_SETS.c.game_id == game_id,
            _ORDER_SETS.c.phase_index == phase,
            _ORDER_SETS.c.power.in_(list(powers)),
        )
    )
