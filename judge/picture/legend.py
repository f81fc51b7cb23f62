"""The legend under every picture: each side's colour (and a second power's stripes), its supply centres (in
halves where a Town counts half: `7½`) and its units (by what they cost: a garrison half), counted as every table
of the judge counts them, so that a player can tell from the picture alone whose
every colour is.

A side holding powers on several boards (a Heptadiplomacy player) is one line; drawn one board alone, the line
names the nation the side holds there and gives the side's figures on that board and in all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from judge.board.model import Board
from judge.engine.position import Adjustment, Position
from judge.engine.rules import Rules
from judge.engine.supply import adjustment_counts
from judge.picture.palette import Colours, Palette, board_number, nation
from judge.picture.svg import attr, num, text

LINE = 14.0
PAD = 8.0
CHAR = 5.9
"""the width a character of the legend's 10-unit text takes, near enough to lay out columns"""


@dataclass(frozen=True)
class Line:
    colours: Colours
    name: str
    figures: str
    in_all: bool = False
    """the figures end with the side's count (on every board; a Major's line, with its Minor)"""

    @property
    def words(self) -> str:
        return f"{self.name}: {self.figures}"


@dataclass(frozen=True)
class Entry:
    lines: tuple[Line, ...]


def halves_text(halves: int) -> str:
    whole_part, half = divmod(halves, 2)
    return f"{whole_part}½" if half else str(whole_part)


def _total(held: dict[str, Adjustment], powers: Iterable[str]) -> Adjustment:
    return sum((held.get(p, Adjustment(0, 0)) for p in powers), Adjustment(0, 0))


def _figures(held: Adjustment) -> str:
    """A count as the results' chart gives it (issue 40: one `2G` is "1 unit", as it costs one centre)."""
    centres = "centre" if 0 < held.centres <= 2 else "centres"
    units = "unit" if 0 < held.units <= 2 else "units"
    return f"{halves_text(held.centres)} {centres}, {halves_text(held.units)} {units}"


def entries(board: Board, position: Position, palette: Palette, rules: Rules | None = None,
            only_board: int | None = None) -> list[Entry]:  # fmt: skip
    """One entry per side with a power on the drawn board(s), a line per colouring, the first ending with the
    side's count where it has several (issue 40: a side is what lists count); the figures are the engine's one
    count (`adjustment_counts`: centres by the variant's worth, units by what they cost), as every table of the
    judge gives them."""
    rules = rules if rules is not None else Rules.build(board)
    held = adjustment_counts(rules, position.centres, position.units, position.variant_state)
    out: list[Entry] = []
    for label, powers in palette.sides:
        drawn = [p for p in powers if only_board is None or board_number(p) in ("", str(only_board))]
        if not drawn:
            continue
        groups: dict[int | None, list[str]] = {}
        for power in drawn:
            groups.setdefault(palette.of(power).hatch, []).append(power)
        lines = []
        for hatch, group in groups.items():
            name = label if hatch is None else ", ".join(group)
            if only_board is not None and len(group) == 1 and nation(group[0]) != name:
                name = f"{name} ({nation(group[0])})"
            figures = _figures(_total(held, group))
            in_all = only_board is not None and len(powers) > len(drawn)
            if in_all:
                everywhere = _total(held, powers)
                figures += f" (all boards {halves_text(everywhere.centres)}, {halves_text(everywhere.units)})"
            lines.append(Line(palette.of(group[0]), name, figures, in_all))
        if len(lines) > 1 and not lines[0].in_all:  # a Major and its Minor: the side's count on the first line
            side = _total(held, powers)
            first = lines[0]
            together = f" (in all {halves_text(side.centres)}, {halves_text(side.units)})"
            lines[0] = Line(first.colours, first.name, first.figures + together, True)
        out.append(Entry(tuple(lines)))
    return out


def _column_width(found: list[Entry]) -> float:
    """Wide enough for the longest name with the widest figures, so that the legend keeps its shape from
    phase to phase (the frames of an animation are all one size)."""
    lines = [line for e in found for line in e.lines]
    longest = max((len(line.name) for line in lines), default=10)
    widest = len(": 99½ centres, 99 units") + (len(" (all boards 99½, 99)") if any(x.in_all for x in lines) else 0)
    return 24 + CHAR * (longest + max([widest, *(len(x.figures) + 2 for x in lines)]))


def height(found: list[Entry], width: float) -> float:
    """Map units the legend takes under the map."""
    if not found:
        return 0.0
    across = max(1, int((width - PAD) // _column_width(found)))
    rows = -(-len(found) // across)
    tallest = max(len(e.lines) for e in found)
    return PAD * 2 + rows * (tallest * LINE + 4)


def draw(found: list[Entry], top: float, width: float) -> str:
    """The legend, from `top` down, on white."""
    if not found:
        return ""
    col = _column_width(found)
    across = max(1, int((width - PAD) // col))
    tallest = max(len(e.lines) for e in found)
    out = [f'<rect class="lgb" x="0" y="{num(top)}" width="{num(width)}" height="{num(height(found, width))}"/>']
    for n, entry in enumerate(found):
        x = PAD + (n % across) * col
        y = top + PAD + (n // across) * (tallest * LINE + 4)
        for line in entry.lines:
            fill = line.colours.fill
            out.append(
                f'<rect class="lgs" x="{num(x)}" y="{num(y + 1)}" width="18" height="10" rx="2" fill={attr(fill)}/>'
                f'<text class="lg" x="{num(x + 24)}" y="{num(y + 10)}">{text(line.words)}</text>'
            )
            y += LINE
    return "".join(out)
