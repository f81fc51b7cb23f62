"""`judge map draw`: a variant's starting position, or the position of a contract case or outcome, as a picture.

A case (docs/adjudicate.md) is drawn as it stands before its phase; with `orders`, the engine adjudicates it and
its orders are drawn as arrows with their results. An outcome (it has `next_phase`) is drawn as it stands after
the phase, with `orders` the phase's orders over it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.board.geometry import Geometry, load_geometry
from judge.board.model import Board
from judge.contract import CaseError
from judge.contract.adjudicate import read_orders, read_position
from judge.contract.orders import order_from_json
from judge.engine import Phase, adjudicate
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Position, Result
from judge.engine.rules import RuleOptionError, Rules
from judge.picture import draw_png, draw_svg
from judge.picture.png import QUALITY
from judge.variants import Variant, get_variant


@dataclass(frozen=True)
class Drawing:
    """Everything one picture needs."""

    board: Board
    geometry: Geometry
    position: Position
    title: str
    orders: list[OrderResult] | None = None
    orders_phase: PhaseType | None = None
    rules: Rules | None = None
    """the variant's rules: sides, mixed forces' shares, the variant's own facts"""


def _phase(raw: Any, board: Board) -> Phase:
    raw = raw if isinstance(raw, dict) else {}
    try:
        return Phase.parse(
            str(raw.get("season", board.start_season)),
            int(raw.get("year", board.start_year)),
            str(raw.get("type", "Movement")),
        )
    except (ValueError, TypeError) as exc:
        raise CaseError(f"phase: {exc}") from None


def _outcome_orders(data: dict[str, Any]) -> list[OrderResult]:
    """An outcome's orders, as the engine gave them (only those it could read)."""
    out: list[OrderResult] = []
    for entry in data.get("orders") or []:
        if not isinstance(entry, dict) or not isinstance(entry.get("read"), dict):
            continue
        try:
            result = Result(str(entry.get("result", "")))
            order = order_from_json(entry["read"])
        except (ValueError, KeyError, TypeError):
            continue
        out.append(OrderResult(str(entry.get("power", "")), str(entry.get("input", "")), order, result))
    return out


def drawing(variant_name: str, case: dict[str, Any] | None = None, with_orders: bool = False) -> Drawing:
    """What to draw for the variant: its starting position, or the case's or outcome's position."""
    variant: Variant = get_variant(variant_name)
    try:
        rules = variant.rules((case or {}).get("options") or {})
    except RuleOptionError as exc:
        raise CaseError(str(exc)) from None
    board = rules.board
    geometry = load_geometry(variant.map_name)
    if case is None:
        position = variant.starting_position()
        return Drawing(board, geometry, position, variant.phase_name(position.phase), rules=rules)
    if "next_phase" in case:  # an outcome: the position after its phase
        played = _phase(case.get("phase"), board)
        position = read_position(rules, case, _phase(case.get("next_phase"), board))
        orders = _outcome_orders(case) if with_orders else None
        title = f"after {variant.phase_name(played)}"
        return Drawing(board, geometry, position, title, orders, played.type, rules)
    position = read_position(rules, case, _phase(case.get("phase"), board))
    orders = None
    if with_orders:
        seed = case.get("seed", 0)
        orders = adjudicate(rules, position, read_orders(rules, case), seed if isinstance(seed, int) else 0).results
    return Drawing(board, geometry, position, variant.phase_name(position.phase), orders, rules=rules)


def render(picture: Drawing, fmt: str, *, only_board: int | None = None, columns: int | None = None,
           scale: float | None = None, sides: Mapping[str, Sequence[str]] | None = None,
           label_size: float = 9.0, palette_png: bool = False, quality: int = QUALITY) -> bytes:  # fmt: skip
    """The picture as `svg` (UTF-8 text) or `png` bytes; `sides`: who holds which powers (default: the
    position's, else the variant's fixed sides)."""
    common: dict[str, Any] = {
        "orders": picture.orders,
        "title": picture.title,
        "only_board": only_board,
        "columns": columns,
        "orders_phase": picture.orders_phase,
        "sides": sides,
        "rules": picture.rules,
        "label_size": label_size,
    }
    if fmt == "png":
        return draw_png(
            picture.board, picture.geometry, picture.position, scale=scale, palette_png=palette_png,
            quality=quality, **common,
        )  # fmt: skip
    return draw_svg(picture.board, picture.geometry, picture.position, **common).encode("utf-8")
