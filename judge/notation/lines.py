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

from judge.board.copies import board_of
from judge.board.model import Board, province_of
from judge.engine.legality import convoy_route_seas
from judge.engine.orders import Order, OrderKind, UnitRef, Verb
from judge.notation.parse import OrderSyntaxError, StackParts, parse_order
from judge.value import Value, replace

_SUPPORTED_BY = re.compile(r"^(?P<move>.+?)\s+(?:s|sup|supp|supported|supports?|sup\.)\s+by\s+(?P<by>.+)$", re.I)
_BY_JOINERS = re.compile(r"\s*(?:,|&|\band\b|\+)\s*(?=(?:\d+\s*)?[a-z])", re.I)


class ReadOrder(Value):
    """One order found in a line: the text reported as its input, and the order or why it could not be read."""

    text: str
    order: Order | None
    error: str

    names = ("text", "order", "error")
    optional = frozenset(("error",))

    def __init__(self, text: str, order: Order | None, error: str = "") -> None:
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "order", order)
        object.__setattr__(self, "error", error)


_READ: dict[str, list[tuple[Board, Mapping[str, Verb] | None, tuple[ReadOrder, ...]]]] = {}
"""lines already read, then by board and verbs: a deadline's orders and a batch of cases repeat the same lines, and
a line is read the same way every time (the orders read are values, never changed). Keyed by the line alone and
told apart by identity: a key of the line with the board's and the verbs' ids cost a tuple and two numbers made
and hashed on every line"""
_READ_MOST = 1 << 16
_READINGS_MOST = 8
"""boards and verbs remembered for one line (a phase type's verbs, a game's map: a few at most)"""


def read_line(board: Board, line: str, verbs: Mapping[str, Verb] | None = None) -> list[ReadOrder]:
    """The orders a line holds: usually one; several where a zine wrote them on one line ("F Ank-Bla sup by F Con",
    "A Par-Bur; A Mar-Spa", a fleet convoying several armies)."""
    readings = _READ.get(line)
    if readings is not None:
        for known_board, known_verbs, known in readings:
            if known_board is board and known_verbs is verbs:
                return list(known)
    read = _read_line(board, line, verbs)
    if readings is None:
        if len(_READ) >= _READ_MOST:
            _READ.clear()
        _READ[line] = [(board, verbs, tuple(read))]
    elif len(readings) < _READINGS_MOST:
        readings.append((board, verbs, tuple(read)))
    return read


def _read_line(board: Board, line: str, verbs: Mapping[str, Verb] | None = None) -> list[ReadOrder]:
    try:
        return [ReadOrder(line, parse_order(board, line, verbs))]
    except StackParts as asked:
        return _stack_supports(line, asked)
    except OrderSyntaxError as whole:
        failed = whole
    with_support = _move_with_support(board, line, verbs)
    if with_support is not None:
        return with_support
    convoys = _convoys(board, line, verbs)
    if convoys is not None:
        return convoys
    if ";" in line:
        return [piece for part in line.split(";") if part.strip() for piece in _read_line(board, part.strip(), verbs)]
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


def _stack_supports(line: str, asked: StackParts) -> list[ReadOrder]:
    """ "2 F Wes sup 1 A & 1 F Naf": one support from each supporting unit, for each unit named, where the units
    named are as many as the supporting units (Multiplomacy rule 7's example: a unit supports one unit, and an
    attack of n units cuts n supports). Otherwise the reader's question: "F Ion sup 1 A & 1 F Tun" is one fleet
    naming two units."""
    supporter = asked.supporter
    if sum(part.count or 1 for part in asked.parts) != (supporter.count or 1):
        return [ReadOrder(line, None, asked.why)]
    return [
        ReadOrder(
            line,
            Order(
                OrderKind.SUPPORT,
                replace(supporter, count=part.count),
                target=replace(part, count=None) if part.count == 1 else part,
                destination=asked.destination,
            ),
        )
        for part in asked.parts
    ]


_CONVOY = re.compile(r"^(?P<fleets>.+?)\s+(?:c|con|conv|convoy|convoys)\s+(?P<cargo>.+)$", re.I)
_FLEETS_WORD = re.compile(r"^\s*(?:f's|fs|fleets)\s+", re.I)
_AND = re.compile(r"\s+(?:and|&)\s+|\s*,\s*", re.I)
_PLUS = re.compile(r"\s*(?:\+|&|\band\b)\s*", re.I)
_GOES = re.compile(r"^(?P<units>.+?)\s*(?:->|-|\bto\b)\s*(?P<dest>[^-]+?)\s*$", re.I)


def _convoys(board: Board, line: str, verbs: Mapping[str, Verb] | None) -> list[ReadOrder] | None:
    """Mad Diplomacy's convoys of several armies by several fleets in one line: "F's TYH and Lyo C A(Pie) +
    A(Tus) - Spa and 3A(Rom) + 2A(Tun) - Mar" is a convoy order for each fleet and each army, every army going
    where its group goes. Only a line that reads whole this way is split so."""
    match = _CONVOY.match(line.strip())
    if match is None:
        return None
    fleets_text = match["fleets"]
    plural = _FLEETS_WORD.match(fleets_text)
    fleets = []
    for piece in _AND.split(fleets_text[plural.end() :] if plural else fleets_text):
        try:
            held = parse_order(board, f"F {piece}" if plural else piece, verbs)
        except OrderSyntaxError:
            return None
        if held.kind is not OrderKind.HOLD or held.unit is None:
            return None
        fleets.append(held.unit)
    pairs: list[tuple[UnitRef, str]] = []
    for group in re.split(r"\s+(?:and|&)\s+(?=(?:\d+\s*)?[af]\b|\d*[af]\()", match["cargo"], flags=re.I):
        goes = _GOES.match(group)
        if goes is None:
            return None
        try:
            destination = parse_order(board, f"A {goes['dest']}", verbs)
        except OrderSyntaxError:
            return None
        if destination.unit is None or destination.kind is not OrderKind.HOLD:
            return None
        for text in _PLUS.split(goes["units"]):
            try:
                army = parse_order(board, text, verbs)
            except OrderSyntaxError:
                return None
            if army.kind is not OrderKind.HOLD or army.unit is None:
                return None
            pairs.append((army.unit, destination.unit.location))
    orders = []
    for fleet in fleets:
        # each fleet convoys the armies whose routes it lies on ("F's TYH and Lyo": Lyo alone carries Pie to Spa);
        # on linked boards (`3:tys`) routes are the variant's question, so each fleet convoys every army named
        mine = [
            (cargo, to)
            for cargo, to in pairs
            if board_of(fleet.location) is None
            and province_of(fleet.location) in convoy_route_seas(board, province_of(cargo.location), province_of(to))
        ]
        for cargo, to in mine or pairs:
            orders.append(Order(OrderKind.CONVOY, fleet, target=cargo, destination=to))
    if len(orders) < 2:
        return None
    return [ReadOrder(line, order) for order in orders]


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
