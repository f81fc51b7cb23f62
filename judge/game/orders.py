"""Filing a player's orders for the current phase, and reading back what is on file."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from judge.engine import OrderKind, PhaseType, Position, Rules
from judge.engine.supply import balances, powers_to_order
from judge.game.checking import (
    LineCheck,
    OrderLine,
    check_orders,
    orders_from_json,
    orders_json,
    read_orders,
    route_lines,
)
from judge.game.errors import GameError
from judge.game.events import OrdersFromAnotherAddress
from judge.game.order_writes import write_order_sets
from judge.game.store import account_of
from judge.game.use_case import UseCase, phase_name, side_of
from judge.store import GameStatus, OrderSet


@dataclass(frozen=True)
class Submission:
    """What became of the orders a mail filed, as values: the reply and the notice to the power's player word it
    (`judge.render.orders.orders_report`)."""

    game: str
    power: str
    phase: str
    checks: list[LineCheck]
    replaced: bool
    phase_type: PhaseType = PhaseType.MOVEMENT
    filed: dict[str, list[LineCheck]] = field(default_factory=dict)
    """for a player of several powers: each power's orders now on file, those the results will print (`printed`;
    a refused one is printed void, as the template words it: issue 40), in the side's order"""
    due: dict[str, int] = field(default_factory=dict)
    """in an adjustment phase: each of the player's powers' builds (above zero) or removals (below) due, in halves"""
    owed: tuple[str, ...] = ()
    """for a player of several powers: those that owe orders this phase and have none on file (the phase waits
    for them: docs/deadlines.md, "Several powers to a player")"""

    @property
    def errors(self) -> list[LineCheck]:
        return [c for c in self.checks if c.refused]


def printed(check: LineCheck) -> bool:
    """Whether the results will print this order (`LineCheck.printed`; a check stored before it was kept: any
    line read as an order)."""
    return bool(check.order) and check.printed


def adjustments_due(rules: Rules, position: Position, powers: list[str]) -> dict[str, int]:
    """In an adjustment phase, each power's builds (above zero) or removals (below) due; else nothing."""
    if position.phase.type is not PhaseType.ADJUSTMENT:
        return {}
    owed = balances(rules, position.centres, position.units, position.variant_state)
    return {power: owed.get(power, 0) for power in powers}


class Orders(UseCase):
    def submit(
        self,
        name: str,
        power: str,
        lines: Sequence[str],
        *,
        source_message_id: str | None = None,
        sender: str | None = None,
    ) -> Submission:
        """File a player's orders for the current phase, and say what is wrong. Each line is filed with the power
        whose unit it names; a mail's orders for a power replace that power's earlier orders, and the player's
        other powers keep theirs (one rule, the same for a side as for one power: docs/mail.md). `sender`: the
        address the orders came from; when it is not the player's, the player is told."""
        with self.store.plain() as s:  # its writes are its last statements: the sets, then an event it raises
            game = self.store.snapshot(s, name)
            if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
                raise GameError(f"{name} is not running")
            seat = game.seat(power)
            if seat is None:
                raise GameError(f"{power} is not a power in {name}")
            side = [o.power for o in game.seats if o.power and seat.address and o.address == seat.address]
            read = read_orders(game.rules, lines)  # the one reading of the mail's lines: the rest takes the values
            # a player with several powers: each line goes to the power whose unit it names
            owners = route_lines(game.rules, game.current, side, power, read) if len(side) > 1 else [power] * len(read)
            by_power: dict[str, list[OrderLine]] = {} if len(side) > 1 else {power: []}
            for line, owner in zip(read, owners, strict=True):
                by_power.setdefault(owner, []).append(line)
            replaced = False
            checked: dict[str, Iterator[LineCheck]] = {}
            filed: dict[str, list[LineCheck]] = {}
            sets: list[dict[str, Any]] = []
            earlier = self._earlier(s, game.id, game.phase_index, list(by_power)) if len(side) > 1 else {}
            for each, own in list(by_power.items()):
                # a mail of only statements (a claim) leaves the power's unit orders, and one of only unit orders
                # the power's statements: each kind replaces its own kind (docs/mail.md, "Orders")
                kinds = {_kind(line) for line in own}
                own = by_power[each] = own + [ln for ln in earlier.get(each, []) if _kind(ln) not in kinds]
                checks = check_orders(game.rules, game.current, each, own)
                checked[each] = iter(checks)
                filed[each] = [c for c in checks if printed(c)]
                sets.append(
                    {
                        "set_game": game.id,
                        "set_phase": game.phase_index,
                        "set_power": each,
                        "lines": [line.line for line in own],
                        "orders": orders_json(own),
                        "checked": [c.as_json() for c in checks],
                        "has_errors": any(c.refused for c in checks),
                        "submitted_at": self.clock.now(),
                        "source_message_id": source_message_id[:998] if source_message_id else None,  # column size
                    }
                )
                replaced = replaced or each in game.on_file
            if len(side) > 1:  # the whole side's orders now on file: those this mail gave, and those it left
                for each, checked_json in s.execute(
                    select(OrderSet.power, OrderSet.checked).where(
                        OrderSet.game_id == game.id,
                        OrderSet.phase_index == game.phase_index,
                        OrderSet.power.in_([p for p in side if p not in filed]),
                    )
                ):
                    filed[each] = [c for c in map(LineCheck.from_json, checked_json) if printed(c)]
            # back in the order the player wrote them (a line may hold several orders, each with its check)
            in_order = (
                [next(checked[owner]) for owner, line in zip(owners, read, strict=True) for _ in line.orders]
                if len(side) > 1
                else list(checked[power])
            )
            done = Submission(
                name,
                side_of(game, power).label if len(side) > 1 else power,
                phase_name(game.position or {}),
                in_order,
                replaced,
                game.current.phase.type,
                {p: filed.get(p, []) for p in sorted(side)} if len(side) > 1 else {},
                adjustments_due(game.rules, game.current, sorted(side) if len(side) > 1 else [power]),
                tuple(sorted(set(side) & powers_to_order(game.rules, game.current) - filed.keys()))
                if len(side) > 1
                else (),
            )
            write_order_sets(s, sets)  # the mail's sets, in one statement (`judge.game.order_writes`)
            game.on_file.update(by_power)
            if sender is not None and seat.address is not None and not _his(s, seat.address, sender):
                event = OrdersFromAnotherAddress(
                    game=name,
                    power=done.power,
                    phase=done.phase,
                    owner=seat.address,
                    sender=sender,
                    sender_named=not game.names_hidden,
                    submission=done,
                )
                self.raise_event(s, game, event)
            return done

    @staticmethod
    def _earlier(s: Session, game_id: int, phase: int, powers: list[str]) -> dict[str, list[OrderLine]]:
        """The orders on file for these powers in the phase, before this mail, as they were read then."""
        rows = s.execute(
            select(OrderSet.power, OrderSet.lines, OrderSet.orders).where(
                OrderSet.game_id == game_id, OrderSet.phase_index == phase, OrderSet.power.in_(powers)
            )
        )
        return {power: orders_from_json(lines, stored) for power, lines, stored in rows}

    def on_file(self, name: str, power: str) -> list[str]:
        """The lines on file for a power in the current phase."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            found = s.scalar(
                select(OrderSet.lines).where(
                    OrderSet.game_id == game.id, OrderSet.phase_index == game.phase_index, OrderSet.power == power
                )
            )
            return list(found) if found else []


_STATEMENT_EXCLUDED = frozenset({OrderKind.BUILD, OrderKind.WAIVE, OrderKind.REMOVE})


def _kind(line: OrderLine) -> str:
    """ "statement" for a line that orders no unit (a Heptadiplomacy claim, a Hoplite capture), else "orders"."""
    statement = bool(line.orders) and all(
        read.order is not None
        and read.order.unit is None
        and not read.order.merging
        and not read.order.parts
        and read.order.kind not in _STATEMENT_EXCLUDED
        for read in line.orders
    )
    return "statement" if statement else "orders"


def _his(s: Session, owner: str, sender: str) -> bool:
    """Whether a mail from `sender` is the player's at `owner`: his own address, or one he joined to it (`I AM
    ALSO`; looked up only for a sender that is not his own address, so the order path pays nothing for it)."""
    sender = sender.strip().lower()
    if sender == owner:
        return True
    found = account_of(s, sender)
    return found is not None and found.address == owner
