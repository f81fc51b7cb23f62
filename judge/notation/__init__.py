"""Order notation: reading what players type by mail, and writing orders back in canonical form."""

from judge.engine.order_text import render_order
from judge.notation.lines import ReadOrder, read_line
from judge.notation.parse import OrderSyntaxError, parse_order

__all__ = ["OrderSyntaxError", "ReadOrder", "parse_order", "read_line", "render_order"]
