"""Checking a power's orders when they arrive, so the player hears at once what is wrong.

The check runs the engine itself on the power's lines alone: a line is wrong when it cannot be read or when the
engine calls it illegal. Nothing here decides legality on its own, so a submission check can never disagree
with the adjudication.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.engine import Position, Result, Rules, Submitted, check_legality
from judge.notation import OrderSyntaxError, parse_order


@dataclass(frozen=True)
class LineCheck:
    input: str
    order: str
    """canonical form ("" when unreadable)"""
    error: str
    """why the line is wrong ("" when it is fine)"""

    def as_json(self) -> dict[str, str]:
        return {"input": self.input, "order": self.order, "error": self.error}


def read_lines(rules: Rules, power: str, lines: Sequence[str]) -> list[Submitted]:
    submitted = []
    for line in lines:
        try:
            submitted.append(Submitted(power, line, parse_order(rules.board, line)))
        except OrderSyntaxError as exc:
            submitted.append(Submitted(power, line, None, exc.why))
    return submitted


def check_orders(rules: Rules, position: Position, power: str, lines: Sequence[str]) -> list[LineCheck]:
    submitted = read_lines(rules, power, lines)
    checks = []
    for sub, result in zip(submitted, check_legality(rules, position, submitted), strict=False):
        error = result.reason if result.result is Result.ILLEGAL else ""
        checks.append(LineCheck(sub.text, result.order, error))
    return checks
