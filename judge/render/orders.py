"""What a reply says of the orders a mail filed (`templates/orders_report.txt.j2`): the words of a
`judge.game.orders.Submission`, for the reply to the mail and for the notice its power's player gets when they came
from another address (`judge.mail.notifier`), so both say the same."""

from __future__ import annotations

from typing import Any

from judge.engine.refusals import some_of
from judge.engine.supply import halves
from judge.render import render


def orders_report(done: Any) -> list[str]:
    """The reply's lines on a submission (`judge.game.orders.Submission`: its checks, what is on file for the side,
    what it still owes, the builds or removals due in a winter, in halves)."""
    due: dict[str, int] = done.due
    idle = [power for power, change in due.items() if not change]
    text = render(
        "orders_report.txt.j2",
        None,
        done=done,
        phase_type=str(done.phase_type),
        adjusting=[(power, change, halves(abs(change))) for power, change in due.items() if change],
        idle=idle,
        idle_named=some_of(idle),
    )
    return text.splitlines()
