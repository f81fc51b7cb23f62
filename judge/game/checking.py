"""Reading a power's orders once when they arrive, and checking them, so the player hears at once what is wrong.

`read_orders` is the one place the game layer reads order lines (issue 42): the lines are read when the mail comes,
the values the reader made are stored with each line (`OrderSet.orders`, through `orders_json`), and everything
after -- routing a side's lines to its powers, the check, the reply, the deadline's adjudication, PREDICT, the
pictures drawn ahead -- takes those values (`orders_from_json`), never the text again.

The check runs the engine itself on the power's orders alone: an order is wrong when it cannot be read or when the
engine calls it illegal. Nothing here decides legality on its own, so a submission check can never disagree
with the adjudication.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from judge.board.model import province_of
from judge.contract.orders import read_from_json, read_json
from judge.contract.public import printed_in_results
from judge.engine import OrderKind, PhaseType, Position, Result, Rules, Submitted, check_legality
from judge.engine.kinds import reasons_from_json
from judge.engine.reasons import Note, Reason, text_of
from judge.notation import ReadOrder, read_line
from judge.notation.quoting import shorten


@dataclass(frozen=True)
class LineCheck:
    """An order as the submission check answered it: what it was read as, and, where it was refused, why -- as the
    engine's values (`refusal`), stored so (`as_json`) and read back so (`from_json`); the reply's words come from
    its template (`templates/check_line.txt.j2`, through `judge.render.orders.check_lines`)."""

    input: str
    order: str
    """canonical form ("" when unreadable)"""
    refused: bool = False
    """the engine calls the order illegal (or it could not be read)"""
    refusal: tuple[Reason, ...] = ()
    """why it was refused, as the engine's values (a kind of `judge.engine.kinds`)"""
    printed: bool = True
    """the results will print it (a refused order void), by their rule (`printed_in_results`)"""

    @property
    def error(self) -> str:
        """Why the line is wrong, in the words every kind of refusal has (`Reason.text`); "" when it is fine."""
        return (text_of(self.refusal) or "refused") if self.refused else ""

    @property
    def shown(self) -> str:
        """The line as the player wrote it, shortened where long, as a reply quotes it."""
        return shorten(self.input)

    def as_json(self) -> dict[str, Any]:
        return {
            "input": self.input,
            "order": self.order,
            "refused": self.refused,
            "refusal": [reason.json() for reason in self.refusal],
            "printed": self.printed,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> LineCheck:
        """A check as `as_json` stored it; one stored before the refusals were kept as values (`"error"`: their
        words) reads back as a refusal of those words (`Note`)."""
        if "refused" in raw:
            refused, refusal = bool(raw["refused"]), tuple(reasons_from_json(raw.get("refusal")))
        else:
            words = str(raw.get("error") or "")
            refused, refusal = bool(words), ((Note(words),) if words else ())
        printed = bool(raw.get("printed", True))
        return cls(str(raw.get("input", "")), str(raw.get("order") or ""), refused, refusal, printed)


@dataclass(frozen=True)
class OrderLine:
    """A line as the player wrote it (kept for the echo: replies, HISTORY), with the orders read from it, once."""

    line: str
    orders: tuple[ReadOrder, ...]
    """usually one; several where the line holds several (`judge.notation.lines`)"""


def read_orders(rules: Rules, lines: Sequence[str]) -> list[OrderLine]:
    """The lines read, each once: the game layer's only reading of order text."""
    return [OrderLine(line, tuple(read_line(rules.board, line, rules.verbs))) for line in lines]


def orders_json(lines: Sequence[OrderLine]) -> list[list[dict[str, Any]]]:
    """What a set of lines is stored as beside the lines (`OrderSet.orders`): per line, its orders' values."""
    return [[read_json(read) for read in line.orders] for line in lines]


def orders_from_json(lines: Sequence[str], stored: Sequence[Sequence[dict[str, Any]]]) -> list[OrderLine]:
    """A set on file as the reader left it: its lines, and per line the values `orders_json` kept."""
    return [
        OrderLine(line, tuple(read_from_json(read) for read in reads))
        for line, reads in zip(lines, stored, strict=True)
    ]


def submitted(power: str, lines: Sequence[OrderLine]) -> list[Submitted]:
    """Every order in the lines, read or not, as the engine takes them."""
    return [Submitted(power, read.text, read.order, read.error) for line in lines for read in line.orders]


def check_orders(rules: Rules, position: Position, power: str, lines: Sequence[OrderLine]) -> list[LineCheck]:
    """Each order of the power's lines as the reply answers it, in the order written."""
    orders = submitted(power, lines)
    retreats = position.phase.type is PhaseType.RETREAT
    checks = []
    for sub, result in zip(orders, check_legality(rules, position, orders), strict=False):
        illegal = result.result is Result.ILLEGAL
        reasons = result.reasons if illegal else ()
        printed = printed_in_results(illegal, result.canonical is not None, reasons, retreats)
        checks.append(LineCheck(sub.text, result.order, illegal, tuple(reasons), printed))
    return checks


def route_lines(
    rules: Rules, position: Position, powers: Sequence[str], default: str, lines: Sequence[OrderLine]
) -> list[str]:
    """Which of a side's powers each order line is for: the power whose unit it names (or, for a build, whose
    home centre it names; for a waive, the power written before it, `3:England: Waive`); a line that names none
    of them, or cannot be read, stays with `default` (the power signed on), whose reply then says what is wrong
    with it."""
    mine = set(powers)
    units: dict[str, set[str]] = {}
    for force in (*position.units, *(d.force for d in position.dislodged)):
        if force.power in mine:
            units.setdefault(force.province, set()).add(force.power)
    homes: dict[str, set[str]] = {}
    for power in powers:  # where each builds: its home centres (Hoplite Wars: any centre it owns)
        for home in rules.home_centres(power, position.variant_state, position.centres):
            homes.setdefault(home, set()).add(power)
    owners = []
    for line in lines:
        found: set[str] = set()
        for read in line.orders:
            order = read.order
            if order is not None and order.unit is not None:
                province = province_of(order.unit.location)
                found |= homes.get(province, set()) if order.kind is OrderKind.BUILD else units.get(province, set())
            elif order is not None and (order.merging or order.parts):  # a merge: the units it names
                merged = [*order.merging, *(part.unit for part in order.parts if part.unit is not None)]
                for unit in merged:
                    found |= units.get(province_of(unit.location), set())
            elif order is not None and order.terms is not None:  # a statement (a Hepta claim) naming a unit
                place = next(iter(order.terms.places()), None)  # as its variant read it with the line
                if place is not None:
                    found |= units.get(province_of(place), set())
            elif order is not None and order.kind is OrderKind.WAIVE and order.for_power in mine:
                found.add(str(order.for_power))  # "3:England: Waive": the power the reader kept
        owners.append(next(iter(found)) if len(found) == 1 else default)
    return owners
