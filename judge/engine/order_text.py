"""Order text as the judge writes it back: canonical for replies and the contract, and in the two forms a game's
results may print (`results.orders`): the zines' (`F Nth C A Yor - Nwy`) and njudge's (`Fleet North Sea CONVOY
Army Yorkshire -> Norway.`), which njudge's mappers and jDip's result import read.

It lives in the engine, which writes an order result's canonical order and the orders in its events from its own
values; the order reader (`judge.notation`) sits above the engine and may import it, never the reverse.

Every form is written from the order as read (an `Order` value), never from the words the player typed.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.engine.orders import Order, OrderKind, UnitRef
from judge.engine.units import Composition
from judge.value import Value


def _same(location: str) -> str:
    return location


class Form(Value):
    """The words an order form uses, and how it names places (a location code such as `stp/nc` in, the printed
    name out)."""

    hold: str
    move: str
    support: str
    convoy: str
    retreat: str
    disband: str
    end: str
    unit_words: bool
    """njudge's "Army" and "Fleet" for a single army or fleet; multi-unit forms (`2A`, `A/2F`) stay as they are"""
    place: Callable[[str], str]

    names = ("hold", "move", "support", "convoy", "retreat", "disband", "end", "unit_words", "place")
    optional = frozenset(("place",))

    def __init__(
        self,
        hold: str,
        move: str,
        support: str,
        convoy: str,
        retreat: str,
        disband: str,
        end: str,
        unit_words: bool,
        place: Callable[[str], str] = _same,
    ) -> None:
        object.__setattr__(self, "hold", hold)
        object.__setattr__(self, "move", move)
        object.__setattr__(self, "support", support)
        object.__setattr__(self, "convoy", convoy)
        object.__setattr__(self, "retreat", retreat)
        object.__setattr__(self, "disband", disband)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "unit_words", unit_words)
        object.__setattr__(self, "place", place)

    def unit(self, text: str) -> str:
        """A unit as the outcome names it (`F`, `2A`) in this form's words (`Fleet`, `2A`)."""
        try:
            return _kind(Composition.parse(text), self)
        except ValueError:
            return text

    def named(self, place: Callable[[str], str]) -> Form:
        return Form(
            self.hold,
            self.move,
            self.support,
            self.convoy,
            self.retreat,
            self.disband,
            self.end,
            self.unit_words,
            place,
        )


CANONICAL = Form("H", "-", "S", "C", "R", "disband", "", False)
ZINE = CANONICAL
NJUDGE = Form("HOLD", "->", "SUPPORT", "CONVOY", "->", "DISBAND", ".", True)

_WORDS = {Composition(armies=1): "Army", Composition(fleets=1): "Fleet", Composition(garrisons=1): "Garrison"}
_ARTICLES = {"Army": "an army", "Fleet": "a fleet", "Garrison": "a garrison"}


def _kind(composition: Composition | None, form: Form) -> str:
    if composition is None:
        return ""
    if form.unit_words:
        return _WORDS.get(composition, str(composition))
    return str(composition)


def _unit(ref: UnitRef, form: Form = CANONICAL) -> str:
    kind = _kind(ref.composition, form)
    count = f"{ref.count} " if ref.count else ""
    return f"{count}{kind + ' ' if kind else ''}{form.place(ref.location)}"


def _part(part: Order, whole: UnitRef, form: Form) -> str:
    """A split's part: where it goes ("A par"), or, for the part that stays, its own order."""
    assert part.unit is not None
    if part.kind is OrderKind.MOVE:
        return f"{part.unit.composition} {form.place(part.destination or '')}"
    if part.kind is OrderKind.HOLD:
        return f"{part.unit.composition} {form.place(whole.location)}"
    return _body(part, form)


def _adjustment(order: Order, form: Form) -> str | None:
    """njudge's sentences for builds and removals ("Builds an army in Vienna."); None in the zine form."""
    if not form.unit_words or order.kind not in (OrderKind.BUILD, OrderKind.REMOVE, OrderKind.WAIVE):
        return None
    if order.kind is OrderKind.WAIVE:
        return "Build waived"
    assert order.unit is not None
    word = _kind(order.unit.composition, form)
    where = form.place(order.unit.location)
    if order.kind is OrderKind.BUILD:
        what = _ARTICLES.get(word, word)
        return f"Builds {what} in {where}"
    what = f"the {word.lower()}" if word in _ARTICLES else word
    return f"Removes {what} in {where}"


def _body(order: Order, form: Form) -> str:
    kind = order.kind
    sentence = _adjustment(order, form)
    if sentence is not None:
        return sentence
    if kind is OrderKind.WAIVE:
        return "Waive"
    if kind is OrderKind.CAPTURE and order.for_power is not None:
        return f"CAPTURE {form.place(order.destination or '')} FOR {order.for_power}"
    if order.unit is None and kind in (OrderKind.CLAIM, OrderKind.CAPTURE, OrderKind.CONVERT):
        return f"{kind.value.upper()} {order.words}".rstrip()  # a line of a variant's own (CLAIM ..., CAPTURE ...)
    if kind is OrderKind.CENTRE:
        return f"Centre {form.place(order.destination or '')}"
    if kind is OrderKind.MERGE:
        formed = f"{order.target.composition} " if order.target and order.target.composition else ""
        merging = " + ".join(_unit(u, form) for u in order.merging)
        return f"{merging} MERGE = {formed}{form.place(order.destination or '')}"
    assert order.unit is not None
    unit = _unit(order.unit, form)
    if kind is OrderKind.HOLD:
        return f"{unit} {form.hold}"
    if kind is OrderKind.MOVE:
        landing = f" (landing from {form.place(order.via)})" if order.via else ""
        convoyed = " via convoy" if order.via_convoy else ""
        return f"{unit} {form.move} {form.place(order.destination or '')}{convoyed}{landing}"
    if kind is OrderKind.SPLIT:
        parts = ", ".join(_part(part, order.unit, form) for part in order.parts)
        return f"{unit} SPLIT = {parts}"
    if kind is OrderKind.SUPPORT:
        if order.target is None:
            return f"{unit} {form.support} MERGE {form.place(order.destination or '')}"
        target = _unit(order.target, form)
        moving = f" {form.move} {form.place(order.destination)}" if order.destination else ""
        return f"{unit} {form.support} {target}{moving}"
    if kind is OrderKind.CONVOY:
        assert order.target is not None
        return f"{unit} {form.convoy} {_unit(order.target, form)} {form.move} {form.place(order.destination or '')}"
    if kind is OrderKind.RETREAT:
        return f"{unit} {form.retreat} {form.place(order.destination or '')}"
    if kind is OrderKind.DISBAND:
        return f"{unit} {form.disband}"
    if kind is OrderKind.BUILD:
        return f"Build {unit}"
    if kind is OrderKind.BOARD:
        assert order.target is not None
        return f"{unit} boards {_unit(order.target, form)}"
    if kind is OrderKind.SACK:
        return f"{unit} SACK"
    if kind is OrderKind.CONVERT:
        assert order.target is not None
        coast = f" {form.place(order.target.location)}" if "/" in order.target.location else ""
        return f"CONVERT {unit} to {_kind(order.target.composition, form)}{coast}"
    return f"Remove {unit}"


def render_order(order: Order, form: Form = CANONICAL) -> str:
    """An order in a form: the canonical one by default (what replies, the contract and the store keep)."""
    return _body(order, form) + form.end
