"""What a variant's position holds beyond units and centres, drawn by the variant's own picture rule.

The pictures of every variant share one drawing code; a variant whose position carries facts of its own (Hoplite
Wars' sacked Delphi and colonies, Mad Diplomacy's Atlantis credit and armies aboard fleets) names a function
here by its rule module's `variant`, as the registry of variants names rule modules, rather than an
`if variant ==` in the drawing code.
"""

from __future__ import annotations

from collections.abc import Callable

from judge.engine.position import Outcome, Position
from judge.engine.rules import Rules
from judge.picture.layout import Layout
from judge.picture.palette import Palette
from judge.picture.svg import attr, num, text
from judge.picture.units import HEIGHT, Box, chip_width, chips_at

Facts = Callable[[Rules, Position, Layout, Palette, list[Box]], str]


INK = "#1d1d1d"
"""the words of a tag: dark on their white halo, whatever land they stand on (a power's colour as the words' own
was unreadable on that power's tint: Athens' yellow on Chios)"""


def tag(x: float, y: float, words: str, swatch: str | None, title: str, boxes: list[Box]) -> str:
    """A few words on a white halo (class `tg`), with a square of the power they name (`swatch`) before them; the
    box kept so that no name is hidden under it."""
    width = 4.6 * len(words)
    left = x - width / 2 - (7 if swatch else 0)
    boxes.append((left, y - 7, x + width / 2, y + 2))
    square = (
        f'<rect class="tw" x="{num(left)}" y="{num(y - 5.5)}" width="5" height="5" fill={attr(swatch)}/>'
        if swatch
        else ""
    )
    return (
        f'{square}<text class="tg" x="{num(x)}" y="{num(y)}" fill="{INK}">{text(words)}<title>{text(title)}</title>'
        f"</text>"
    )


def hoplite_facts(rules: Rules, position: Position, layout: Layout, palette: Palette, boxes: list[Box]) -> str:
    """Rule 7: Delphi, once sacked, ringed in red with the sacker named; rule 6: each colony tagged, with the
    Major it declared for once it has."""
    from judge.variants.hoplite import COLONIES, DELPHI

    out: list[str] = []
    state = position.variant_state
    sacker = state.get("sacked_by")
    outline = layout.geometry.outlines.get(DELPHI)
    panel, _ = layout.split(DELPHI)
    if isinstance(sacker, str) and outline is not None and panel is not None:
        x, y = outline.centre or outline.label
        x, y = x + panel.dx, y + panel.dy
        out.append(f'<circle class="sk" cx="{num(x)}" cy="{num(y)}" r="8"/>')
        out.append(tag(x, y + 17, f"sacked by {sacker}", palette.of(sacker).fill, "Delphi sacked (rule 7)", boxes))
    declared = state.get("colonies_declared")
    declared = declared if isinstance(declared, dict) else {}
    for colony in COLONIES:
        outline = layout.geometry.outlines.get(colony)
        panel, _ = layout.split(colony)
        if outline is None or panel is None:
            continue
        x, y = outline.centre or outline.label
        major = declared.get(colony)
        words = f"colony: {major}" if isinstance(major, str) else "colony"
        swatch = palette.of(major).fill if isinstance(major, str) else None
        out.append(tag(x + panel.dx, y + panel.dy + 12, words, swatch, "colony (rule 6)", boxes))
    return "".join(out)


def mad_facts(rules: Rules, position: Position, layout: Layout, palette: Palette, boxes: list[Box]) -> str:
    """Rule 9: whom Atlantis would be credited to where it stands; rule 4b: each army aboard a fleet, with the
    moves it has made aboard (it is lost at the end of its fourth)."""
    from judge.variants.mad import MadRules
    from judge.variants.mad_atlantis import owner, where

    out: list[str] = []
    if isinstance(rules, MadRules):
        now = Outcome(position.phase, [], position.units, position.dislodged, position.standoffs,
                      dict(position.centres), position.phase, variant_state=dict(position.variant_state))  # fmt: skip
        at, credited = where(rules, now), owner(rules, now)
        outline = layout.geometry.outlines.get(at)
        panel, _ = layout.split(at)
        if outline is not None and panel is not None:
            x, y = outline.centre or outline.label
            words = f"Atlantis: {credited or 'nobody'}"
            swatch = palette.of(credited).fill if credited else None
            out.append(tag(x + panel.dx - 11, y + panel.dy + 25, words, swatch, "whom Atlantis credits", boxes))
    for location, chips in chips_at(position.units).items():
        point = layout.point(location)
        if point is None:
            continue
        left = point[0] - (sum(chip_width(c) for c in chips) + 2 * (len(chips) - 1)) / 2
        for chip in chips:
            force = next(f for f in position.units if f.at == location and f.composition == chip.parts[0][1])
            moves = force.fact("aboard")
            if moves is not None:
                words = f"aboard {moves}/4"
                out.append(tag(left + chip_width(chip) / 2, point[1] - HEIGHT / 2 - 3, words, None,
                               "an army aboard a fleet: moves made aboard (rule 4b)", boxes))  # fmt: skip
            left += chip_width(chip) + 2
    return "".join(out)


FACTS: dict[str, Facts] = {"hoplite": hoplite_facts, "mad": mad_facts}
"""a rule module's `variant` -> what its pictures draw of its own facts"""
