"""Order notation: reading what players type by mail, and writing orders back in canonical form."""

from judge.notation.parse import OrderSyntaxError, parse_order
from judge.notation.render import render_order

__all__ = ["OrderSyntaxError", "parse_order", "render_order"]
