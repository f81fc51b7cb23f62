"""Checking a power's orders when they arrive, so the player hears at once what is wrong.

The check runs the engine itself on the power's lines alone: a line is wrong when it cannot be read or when the
engine calls it illegal. Nothing here decides legality on its own, so a submission check can never disagree
with the adjudication.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.board.model import province_of
from judge.contract.public import printed_in_results
from judge.engine import OrderKind, PhaseType, Position, Result, Rules, Submitted, check_legality
from judge.engine.reasons import text_of
from judge.notation import read_line
from judge.notation.quoting import shorten


@dataclass(frozen=True)
class LineCheck:
    input: str
    order: str
    """canonical form ("" when unreadable)"""
    error: str
    """why the line is wrong ("" when it is fine)"""
    printed: bool = True
    """the results will print it (a refused order void), by their rule (`printed_in_results`)"""

    def reply_line(self) -> str:
        """The line as a reply answers it: quoted (shortened when long), then what it was read as or why not."""
        if self.error:
            return f"  {shorten(self.input)}   ** {self.error}"
        return f"  {shorten(self.input)}   -> {self.order}"

    def as_json(self) -> dict[str, str | bool]:
        return {"input": self.input, "order": self.order, "error": self.error, "printed": self.printed}


def read_lines(rules: Rules, power: str, lines: Sequence[str]) -> list[Submitted]:
    """Every order in the lines (a line may hold several: `judge.notation.lines`), read or not."""
    return [
        Submitted(power, read.text, read.order, read.error)
        for line in lines
        for read in read_line(rules.board, line, rules.verbs)
    ]


def check_orders(rules: Rules, position: Position, power: str, lines: Sequence[str]) -> list[LineCheck]:
    submitted = read_lines(rules, power, lines)
    retreats = position.phase.type is PhaseType.RETREAT
    checks = []
    for sub, result in zip(submitted, check_legality(rules, position, submitted), strict=False):
        illegal = result.result is Result.ILLEGAL
        reasons = result.reasons if illegal else ()
        printed = printed_in_results(illegal, result.canonical is not None, reasons, retreats)
        checks.append(LineCheck(sub.text, result.order, text_of(reasons) if illegal else "", printed))
    return checks


def route_lines(
    rules: Rules, position: Position, powers: Sequence[str], default: str, lines: Sequence[str]
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
        for read in read_line(rules.board, line, rules.verbs):
            order = read.order
            if order is not None and order.unit is not None:
                province = province_of(order.unit.location)
                found |= homes.get(province, set()) if order.kind is OrderKind.BUILD else units.get(province, set())
            elif order is not None and (order.merging or order.parts):  # a merge: the units it names
                merged = [*order.merging, *(part.unit for part in order.parts if part.unit is not None)]
                for unit in merged:
                    found |= units.get(province_of(unit.location), set())
            elif order is not None and order.words:  # a free-words line (a Hepta claim) naming a place of a unit
                named = next((t for t in order.words.split() if rules.board.lookup(t)), None)
                place = rules.board.lookup(named) if named else None
                if place is not None:
                    found |= units.get(province_of(place), set())
            elif order is not None and order.kind is OrderKind.WAIVE:  # "3:England: Waive": the power it names
                named_power = rules.board.lookup_power(line.rpartition(":")[0].strip()) if ":" in line else None
                if named_power is not None and named_power in mine:
                    found.add(named_power)
        owners.append(next(iter(found)) if len(found) == 1 else default)
    return owners
