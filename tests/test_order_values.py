"""Orders are kept as the values the reader made, with the player's line for the echo, and read once (issue 42,
item 2): the codec of an order's value round-trips every order of every variant's cases, a mail's lines are read
once and never again at the deadline, and migration 0010 reads the lines stored before it once into their values."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import inspect, select, text

import judge
from judge.board.model import Board
from judge.contract.adjudicate import read_orders as read_case_orders
from judge.contract.orders import order_from_json, order_json, read_from_json, read_json
from judge.engine import Order, OrderKind
from judge.engine.orders import Verb
from judge.game import Games, checking
from judge.game.checking import orders_json, read_orders
from judge.notation import ReadOrder
from judge.store import OrderSet, open_database
from judge.store.db import alembic_config, make_engine, migrating
from judge.testing.tables import OPENING_ORDERS, full_games
from judge.variants import get_variant

TESTS = Path(__file__).parent
CASES = sorted([*(TESTS / "datc").glob("*.json"), *(TESTS / "variants").glob("*.json")])


UNCASED = {
    "standard": ["A Par R Bur", "F Bre retreat Mao", "Waive", "Build F Stp/nc", "Remove A Mos"],
    "hepta": ["3:England: Waive", "Build A 1:par", "2:England: F 2:lon - 2:eng"],
    "multiplicity1": ["1. A Par S A Mar - Bur", "(2) F Bre S A Par"],
}
"""what the cases never write (they give a retreat phase's moves as moves, and no winter waives)"""


def _case_orders() -> Iterator[tuple[str, str, Order]]:
    """Every order read from every DATC and variant case, and from `UNCASED`: (where from, its line, the order)."""
    for path in CASES:
        for entry in json.loads(path.read_text(encoding="utf-8")):
            case = entry["case"]
            rules = get_variant(str(case.get("variant", "standard"))).rules(case.get("options") or {})
            for sub in read_case_orders(rules, case):
                if sub.order is not None:
                    yield str(entry["id"]), sub.text, sub.order
    for variant, lines in UNCASED.items():
        for line in read_orders(get_variant(variant).rules({}), lines):
            for read in line.orders:
                assert read.order is not None, read.error
                yield variant, line.line, read.order


def _parts(order: Order) -> Iterator[Order]:
    yield order
    for part in order.parts:
        yield from _parts(part)


def test_every_order_of_every_variants_cases_round_trips_through_its_json() -> None:
    """One codec, both ways (judge/contract/orders.py): what is stored is what the reader made, through JSON text as
    the database keeps it -- merges, splits, Hepta board-nation orders, builds, waives, Hoplite's captures and
    conversions, Mad Diplomacy's boardings and centres, claims."""
    kinds: Counter[OrderKind] = Counter()
    seen = {"merging": 0, "board nation": 0, "priority": 0, "for power": 0, "words": 0}
    for case, line, order in _case_orders():
        stored = json.loads(json.dumps(order_json(order)))
        assert order_from_json(stored) == order, f"{case}: {line!r}"
        for each in _parts(order):
            kinds[each.kind] += 1
        seen["merging"] += bool(order.merging)
        seen["board nation"] += order.unit is not None and ":" in order.unit.location
        seen["priority"] += order.priority is not None
        seen["for power"] += order.for_power is not None
        seen["words"] += bool(order.words)
    assert set(kinds) == set(OrderKind), f"no case orders {set(OrderKind) - set(kinds)}"
    assert all(seen.values()), seen


def test_a_line_that_cannot_be_read_keeps_why_and_a_line_of_several_orders_keeps_each() -> None:
    """`read_json`: an unreadable order is kept with the reader's reason, not read again to find it."""
    rules = get_variant("standard").rules({})
    lines = read_orders(rules, ["A Par-Bur; A Mar-Spa", "A Par-Xyz", "Waive"])
    stored = json.loads(json.dumps(orders_json(lines)))
    assert [[read_from_json(read) for read in reads] for reads in stored] == [list(line.orders) for line in lines]
    assert [read["input"] for read in stored[0]] == ["A Par-Bur", "A Mar-Spa"]
    assert "read" not in stored[1][0] and stored[1][0]["error"] == lines[1].orders[0].error != ""
    assert read_json(lines[2].orders[0]) == {"input": "Waive", "read": {"kind": "waive"}}


class _CountedReads:
    """The reader as the game layer calls it (`judge.game.checking.read_line`, its one reading of order text:
    `test_order_text_is_read_in_the_places_that_take_text`), counting each line it is asked to read."""

    def __init__(self, read: Callable[..., list[ReadOrder]]) -> None:
        self.read = read
        self.asked: Counter[str] = Counter()

    def __call__(self, board: Board, line: str, verbs: Mapping[str, Verb] | None = None) -> list[ReadOrder]:
        self.asked[line] += 1
        return self.read(board, line, verbs)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> _CountedReads:
    counted = _CountedReads(checking.read_line)
    monkeypatch.setattr(checking, "read_line", counted)
    return counted


def test_each_line_is_read_once_per_submission_and_not_at_the_deadline(reads: _CountedReads, sqlite_url: str) -> None:
    """A standard game's orders: each line read when its mail is filed, once; PREDICT and the deadline's
    processing take the stored values and read nothing."""
    games = Games(open_database(sqlite_url))
    full_games(games, 1)
    for power, orders in OPENING_ORDERS.items():
        games.orders.submit("g0", power, orders.split("\n"))
    every_line = [line for orders in OPENING_ORDERS.values() for line in orders.split("\n")]
    assert reads.asked == Counter(every_line)
    games.adjudication.predict("g0")
    processed = games.adjudication.process("g0")
    assert reads.asked == Counter(every_line)  # not one more
    assert processed is not None and {o["result"] for o in processed.outcome["orders"]} == {"succeeds", "fails"}


def test_a_sides_lines_are_read_once_though_routed_checked_and_kept_with_earlier_ones(
    reads: _CountedReads, sqlite_url: str
) -> None:
    """CW Heptadiplomacy, a player of seven boards' England: a mail's lines are routed to the boards' powers, told
    statements from unit orders, checked and put back in the order written, each from the one reading; a later mail
    keeps the earlier orders as they were read (docs/mail.md, "Orders"), and the deadline reads nothing."""
    games = Games(open_database(sqlite_url))
    games.accounts.register("gm@example.org", "GM", "pw")
    games.seating.create_game("hep", "hepta", "gm@example.org", "pw", seed=1, options={"assignment": "a"})
    for country in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        games.accounts.register(f"{country.lower()}@example.org", f"{country} Player", "pw")
        games.seating.join("hep", f"{country.lower()}@example.org", "pw", [country])
    first = ["F 1:lon - 1:eng", "F 2:lon - 2:eng; A 2:lvp - 2:yor", "A 3:lvp - 3:yor"]
    games.orders.submit("hep", "1:England", first, sender="england@example.org")
    assert reads.asked == Counter(first)
    claim = ["CLAIM 2-way win with France"]
    done = games.orders.submit("hep", "1:England", claim, sender="england@example.org")
    assert reads.asked == Counter(first + claim)
    assert [c.order for c in done.filed["1:England"][1:]] == ["F 1:lon - 1:eng"]  # after the claim (void in a Spring)
    assert [c.order for c in done.filed["2:England"]] == ["F 2:lon - 2:eng", "A 2:lvp - 2:yor"]
    with games.db.transaction() as s:
        sets = {power: list(lines) for power, lines in s.execute(select(OrderSet.power, OrderSet.lines))}
    assert sets == {"1:England": [*claim, first[0]], "2:England": [first[1]], "3:England": [first[2]]}
    games.adjudication.process("hep")
    assert reads.asked == Counter(first + claim)


def test_the_upgrade_reads_the_orders_stored_as_text_once_into_their_values(database_url: str) -> None:
    """Migration 0010: a set filed before it keeps its lines and gets, per line, the orders read from them, as a
    mail's would be read now; the deadline then adjudicates them like any other."""
    lines = ["A par - bur", "A mar - spa; F bre - mao", "A par - nowhere"]
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.upgrade(alembic_config(conn), "head")
    games = Games(open_database(database_url, migrate=False))
    full_games(games, 1)
    games.orders.submit("g0", "France", lines)
    engine = make_engine(database_url)
    with migrating(engine) as conn:
        command.downgrade(alembic_config(conn), "0009")
        assert "orders" not in {column["name"] for column in inspect(conn).get_columns("order_sets")}
        command.upgrade(alembic_config(conn), "head")
    with engine.connect() as conn:
        kept, stored = conn.execute(text("SELECT lines, orders FROM order_sets")).one()
    engine.dispose()
    decoded = [json.loads(value) if isinstance(value, str) else value for value in (kept, stored)]
    rules = get_variant("standard").rules({})
    assert decoded == [lines, orders_json(read_orders(rules, lines))]
    assert [len(reads) for reads in decoded[1]] == [1, 2, 1] and "error" in decoded[1][2][0]
    processed = Games(open_database(database_url)).adjudication.process("g0")
    assert processed is not None
    results = {o["input"]: o["result"] for o in processed.outcome["orders"] if o["power"] == "France"}
    assert results == {"A par - bur": "succeeds", "A mar - spa": "succeeds", "F bre - mao": "succeeds",
                       "A par - nowhere": "illegal"}  # fmt: skip


def test_order_text_is_read_in_the_places_that_take_text() -> None:
    """Outside the reader itself, order text is read in the game layer's `read_orders` (a mail's lines, once), by
    `judge adjudicate` (whose input is text), and by Heptadiplomacy's claim reader (the orders a claim's conditions
    name, read with the claim's line, once: `hepta_claims.read_terms`, the CLAIM verb's `read`); nowhere else, so the
    counts above are every reading a submission and a deadline make."""
    package = Path(judge.__file__).parent
    readers = sorted(
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        if path.parent.name != "notation" and re.search(r"\b(read_line|parse_order)\(", path.read_text("utf-8"))
    )
    assert readers == ["contract/adjudicate.py", "game/checking.py", "variants/hepta_claims.py"]
