"""Order notation: reading what players type by mail (and, from the engine beneath, `render_order`, which writes
orders back in canonical form)."""

from judge.engine.order_text import render_order
from judge.notation.lines import ReadOrder, read_line
from judge.notation.parse import OrderSyntaxError, parse_order

__all__ = ["OrderSyntaxError", "ReadOrder", "parse_order", "read_line", "render_order"]
