"""What a reply says of the orders a mail filed (`templates/orders_report.txt.j2`): the words of a
`judge.game.orders.Submission`, for the reply to the mail and for the notice its power's player gets when they came
from another address (`judge.mail.notifier`), so both say the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from judge.engine.refusals import some_of
from judge.engine.supply import halves
from judge.render import render


def orders_report(done: Any, heading: bool = False) -> list[str]:
    """The reply's lines on a submission (`judge.game.orders.Submission`: its checks, what is on file for the side,
    what it still owes, the builds or removals due in a winter, in halves); `heading`: begun with the line naming
    the power, the game and the phase (the reply's; the notice to the power's player has its own)."""
    due: dict[str, int] = done.due
    idle = [power for power, change in due.items() if not change]
    text = render(
        "orders_report.txt.j2",
        None,
        done=done,
        heading=heading,
        phase_type=str(done.phase_type),
        adjusting=[(power, change, halves(abs(change))) for power, change in due.items() if change],
        idle=idle,
        idle_named=some_of(idle),
    )
    return text.splitlines()


def check_lines(checks: Sequence[Any]) -> list[str]:
    """Orders as the judge read them (`judge.game.checking.LineCheck`), one line each (`templates/check_lines.txt.j2`):
    PREVIEW's echo of the orders it was given."""
    return render("check_lines.txt.j2", None, checks=checks).splitlines()


def held_lines(held: Any) -> list[str]:
    """The reply to orders sent for a later phase (`judge.game.later_orders.Held`; `templates/held_orders.txt.j2`)."""
    return render("held_orders.txt.j2", None, held=held, checks=held.unreadable).splitlines()


def on_file_lines(on_file: Any, pending: bool = False) -> list[str]:
    """A side's orders on file (`judge.game.on_file.OnFile`), as ORDERS shows them and a reply ends with them
    (`templates/on_file.txt.j2`; a variant may word them its own way). `pending`: the mail has orders above ORDERS
    not filed yet (they are filed at its end, or at its next SIGNON)."""
    return render("on_file.txt.j2", on_file.variant, on_file=on_file, pending=pending).splitlines()


def on_file_summary(on_file: Any) -> list[str]:
    """A side's orders on file in one line (`templates/on_file_summary.txt.j2`), where the whole block would take the
    reply past its bound (`judge.render.bounds.REPLY_LINES`)."""
    return render("on_file_summary.txt.j2", on_file.variant, on_file=on_file).splitlines()


def withdrawn_lines(cleared: Any, named: bool) -> list[str]:
    """What CLEAR withdrew (`judge.game.on_file.Cleared`; `templates/cleared.txt.j2`); `named`: units were named."""
    return render("cleared.txt.j2", None, cleared=cleared, named=named).splitlines()
