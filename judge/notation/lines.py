"""One line as a player writes it may hold several orders: njudge accepts orders separated by `;` (and the
seed texts write order sets with commas), and the Multiplomacy text writes a move with its support in one line
("F Ank-Bla sup by F Con", "2 A Swi-Mun sup by 1 A Swi").

`read_line` turns a line into the orders it holds, each with the text that is reported as its `input`: the
piece of the line for a line split at `;` or `,`, the whole line for a move written with its support. A line
that reads whole as one order is never split (a split order lists its parts with commas). A line is split at
commas only when every piece reads as an order; otherwise the whole line's error is what the player sees.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from judge.board.model import Board
from judge.engine.orders import Order, OrderKind, Verb
from judge.notation.parse import OrderSyntaxError, parse_order

_SUPPORTED_BY = re.compile(r"^(?P<move>.+?)\s+(?:s|sup|supp|supported|supports?|sup\.)\s+by\s+(?P<by>.+)$", re.I)
_BY_JOINERS = re.compile(r"\s*(?:,|&|\band\b|\+)\s*(?=(?:\d+\s*)?[a-z])", re.I)


@dataclass(frozen=True)
class ReadOrder:
    """One order found in a line: the text reported as its input, and the order or why it could not be read."""

    text: str
    order: Order | None
    error: str = ""


def read_line(board: Board, line: str, verbs: Mapping[str, Verb] | None = None) -> list[ReadOrder]:
    try:
        return [ReadOrder(line, parse_order(board, line, verbs))]
    except OrderSyntaxError as whole:
        failed = whole
    with_support = _move_with_support(board, line, verbs)
    if with_support is not None:
        return with_support
    if ";" in line:
        return [piece for part in line.split(";") if part.strip() for piece in read_line(board, part.strip(), verbs)]
    if "," in line:
        pieces = [part.strip() for part in line.split(",") if part.strip()]
        read: list[ReadOrder] = []
        for piece in pieces:
            try:
                read.append(ReadOrder(piece, parse_order(board, piece, verbs)))
            except OrderSyntaxError:
                break
        else:
            if len(read) > 1:
                return read
    return [ReadOrder(line, None, failed.why)]


def _move_with_support(board: Board, line: str, verbs: Mapping[str, Verb] | None) -> list[ReadOrder] | None:
    """ "F Ank-Bla sup by F Con": the move, and a support for it from each unit named after "by"."""
    match = _SUPPORTED_BY.match(line.strip())
    if match is None:
        return None
    try:
        move = parse_order(board, match["move"], verbs)
    except OrderSyntaxError:
        return None
    if move.kind is not OrderKind.MOVE or move.unit is None:
        return None
    orders = [ReadOrder(line, move)]
    for supporter in _BY_JOINERS.split(match["by"]):
        try:
            held = parse_order(board, supporter, verbs)
        except OrderSyntaxError as exc:
            orders.append(ReadOrder(line, None, f"the supporting unit {supporter!r}: {exc.why}"))
            continue
        if held.kind is not OrderKind.HOLD or held.unit is None:
            orders.append(ReadOrder(line, None, f"expected a unit after 'by', not {supporter!r}"))
            continue
        support = Order(OrderKind.SUPPORT, held.unit, target=move.unit, destination=move.destination)
        orders.append(ReadOrder(line, support))
    return orders
