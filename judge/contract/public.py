"""Which of a phase's order lines the results everyone reads print: one rule, read by the results sheet
(`judge.render.results`) and by a player's reply when it says what he has on file (`judge.game.orders`), so that
the two cannot disagree (issue 40: a refused Hepta build was "no orders" in the reply and void in the results)."""

from __future__ import annotations

from collections.abc import Sequence

from judge.engine.reasons import Lost, NotYours, Reason


def printed_in_results(illegal: bool, has_order: bool, reasons: Sequence[Reason], retreats: bool) -> bool:
    """Only orders are printed. A line that could not be read as one (a signature, a misspelt order: its unit's
    hold is printed instead) and an order for another power's unit stay out; so, in a retreat phase, does an
    order that moves no dislodged unit (issue 28: `F Nth - Nwg` from a power with nothing dislodged revealed its
    plans): the sender's own reply lists it. An illegal retreat of a dislodged unit stays in, since it costs the
    unit (`Lost`). An illegal order printed is marked void."""
    if not illegal:
        return True
    if not has_order:
        return False
    if retreats and not any(isinstance(r, Lost) for r in reasons):
        return False
    return not any(isinstance(r, NotYours) for r in reasons)
