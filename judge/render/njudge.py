"""A phase's results in njudge's layout, line for line (`results.layout=njudge`), for the tools that read njudge's
mails (jDip's judge import, mappers, archive scripts): the values of each line, from the engine's outcome; the
words are in `templates/njudge/` (`results.txt.j2`, `header.txt.j2`, the `notices/`).

What njudge writes, by its source (jonmarkgo/njudge): the `::` header by `msg_header()` in `mail.c`; a movement
phase by pass 6 and pass 7 of `st_movement.c` (every unit a line, `No Order Processed` for a unit without orders,
the one mark `(*bounce*)`, `(*cut, dislodged*)`, then `The following units were dislodged:` with njudge's
sentences); a retreat by `st_retreat.c` (`(*bounce, destroyed*)`, `No Order Processed (DISBAND)`); an adjustment by
`st_build.c` (`Builds an army in Vienna.`, `Removes the fleet in the North Sea.`, `Build waived.`, `Defaults,
removing ...`); the centres and the count chart by `ownership()` in `st_porder.c`; the footer by `dip.c`. The
layout is docs/results.md's "The njudge layout".

Where the judge's outcome says more than njudge did, the layout keeps to njudge: an order the judge refused is the
unit's `No Order Processed` (njudge refused it when it came), a paradox is the failed order's plain mark, a multiple
unit keeps the judge's own form (`2A`). Nothing here parses text: every line is built from the outcome's values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from judge.engine.kinds import reasons_from_json
from judge.engine.phase import Phase, PhaseType
from judge.engine.supply import halves
from judge.render import njudge_names as names
from judge.render.annotations import marks_for
from judge.render.dates import deadline_text
from judge.render.tally import Holding, holdings
from judge.variants import UnknownVariant, get_variant

LPOWER = 24
"""njudge's column for a retreat's or an adjustment's sentence (`LPOWER` in `variant.h`, `st_retreat.c`,
`st_build.c`: the power's name, a colon and a space, then spaces up to it)"""

WRAP = 78
"""njudge wraps a dislodgement's sentence and a power's centres past this column (`st_movement.c` pass 7,
`wrap_char()` in `lib.c`)"""


def phase_code(phase: dict[str, Any]) -> str:
    """njudge's phase code: S1901M, F1901R, and a winter's adjustments F1901B (`dip.c`: the adjustments are the
    Fall's `B` phase; `A` is Machiavelli's bidding). A year before Christ keeps the judge's own form."""
    return Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"])).njudge_code


def wrapped(text: str, indent: int = 0) -> list[str]:
    """A line cut as njudge cuts it: at the last space before column `WRAP`, the rest indented by `indent`."""
    lines: list[str] = []
    while len(text) > WRAP + 1:
        cut = text.rfind(" ", indent + 1, WRAP + 1)
        if cut <= indent:
            break
        lines.append(text[:cut])
        text = " " * indent + text[cut + 1 :]
    lines.append(text)
    return lines


def wrapped_at_commas(text: str, indent: int) -> list[str]:
    """A power's centres cut as `wrap_char()` cuts them: after the last comma before the column, the rest under
    the first name."""
    lines: list[str] = []
    while len(text) > WRAP + 1:
        comma = text.rfind(",", indent, WRAP + 1)
        if comma < 0:
            break
        lines.append(text[: comma + 1])
        text = " " * indent + text[comma + 2 :]
    lines.append(text)
    return lines


@dataclass(frozen=True)
class UnitLine:
    """One unit's line in a movement or retreat phase: the power, its unit and where it stands, what it was
    ordered (`kind`: hold, move, support, convoy, disband, unordered) with its target, and njudge's one mark."""

    power: str
    unit: str
    at: str
    kind: str
    target: str = ""
    """a support's or a convoy's unit, with its owner's adjective where it is another power's (`French Army
    Gascony`)"""
    to: str = ""
    mark: str = ""


@dataclass(frozen=True)
class Adjusted:
    """One line of an adjustment phase: `kind` build, remove, waived or defaults (a civil-disorder removal)."""

    power: str
    kind: str
    unit: str = ""
    at: str = ""


@dataclass(frozen=True)
class Count:
    """A line of njudge's chart: `Austria:   3 Supply centers,  3 Units:  Builds   0 units.`"""

    power: str
    centres: str
    units: str
    builds: bool
    change: str
    plural: bool
    """`units` or `unit` after the change"""
    won: bool = False
    """the power's solo: njudge's `(* VICTORY!! *)` after its line"""


@dataclass
class NjudgeSheet:
    judge: str
    game: str
    game_title: str
    """the game's name capitalised as njudge's header writes it (`Alpha`)"""
    variant_title: str
    code: str
    """the phase's njudge code"""
    deadline: str | None
    """the phase's deadline as njudge writes it, for `:: Deadline:`"""
    kind: str
    """Movement, Retreat or Adjustment"""
    season: str
    year: str
    seq: str
    """the results' number in the game (`alpha.003`)"""
    units: list[list[UnitLine]] = field(default_factory=list)
    """a movement's or a retreat's lines, each power's together"""
    adjusted: list[Adjusted] = field(default_factory=list)
    dislodged: list[str] = field(default_factory=list)
    """the dislodged units' sentences, cut to njudge's width"""
    ownership: list[str] = field(default_factory=list)
    country_width: int = 10
    """njudge's column for the chart (`GetMaxCountryStrlen()`)"""
    counts: list[Count] = field(default_factory=list)
    over: bool = False
    next_kind: str = ""
    next_season: str = ""
    next_year: str = ""
    next_deadline: str | None = None
    variant_lines: list[str] = field(default_factory=list)
    """what a variant of the judge's has that njudge had no line for (a Hoplite sack, Atlantis), in the judge's
    own words (`judge.render.happenings`)"""

    @property
    def power_width(self) -> int:
        return LPOWER


def _ownership_shown(variant: str, phase: dict[str, Any], next_phase: dict[str, Any] | None) -> bool:
    try:
        calendar = get_variant(variant).calendar
        changes = calendar.ownership_changes(Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"])))
    except UnknownVariant:
        changes = phase["season"] == "Fall"
    return bool(changes) and (next_phase or {}).get("type") != PhaseType.RETREAT.value


def _season(phase: dict[str, Any]) -> str:
    return "Winter" if phase["type"] == PhaseType.ADJUSTMENT.value else str(phase["season"])


def _year(variant: str, phase: dict[str, Any]) -> str:
    """The year as njudge's `%d` writes it; a year before Christ (Hoplite Wars), as the variant's calendar does."""
    year = int(phase["year"])
    if year >= 0:
        return str(year)
    try:
        return get_variant(variant).calendar.year_name(year)
    except UnknownVariant:
        return str(year)


def _units_before(outcome: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """Each unit that stood at the start of the phase: its province -> (power, unit), from the order lines (every
    unit has one: the engine's hold or disband where none was given). An order the engine refused stands for its
    unit only where it said the unit holds instead (not an order for an empty province)."""
    found: dict[str, tuple[str, str]] = {}
    for line in outcome.get("orders", []):
        read = line.get("read") or {}
        unit = read.get("unit") or {}
        at = str(line.get("at") or unit.get("at") or "")
        if not at or not unit:
            continue
        if line.get("result") == "illegal":
            kinds = [r.get("kind") for r in line.get("reasons") or []]
            if kinds[:1] != ["and_so"]:
                continue
        found.setdefault(at.partition("/")[0], (str(line["power"]), str(unit.get("type") or "")))
    return found


def _njudge_mark(kind: str, marks: tuple[str, ...], dislodged: bool, retreat: bool) -> str:
    """njudge's one mark (`results[]` in `st_movement.c`, plus `, dislodged`; `(*bounce, destroyed*)` in a
    retreat) from the judge's marks."""
    if retreat:
        return "bounce, destroyed" if "destroyed" in marks or "bounce" in marks else ""
    base = ""
    for mark in marks:
        if mark in ("void", "no convoy", "cut", "bounce"):
            base = mark
            break
        if mark in ("paradox", "fails"):
            base = {"move": "bounce", "support": "cut"}.get(kind, "void")
            break
    if dislodged:
        # a dislodged unit's move was beaten and its support cut, as njudge marks them (`(*bounce, dislodged*)`,
        # `(*cut, dislodged*)`); a dislodged hold or convoy is only `(*dislodged*)`
        base = base or {"move": "bounce", "support": "cut"}.get(kind, "")
        return f"{base}, dislodged" if base else "dislodged"
    return base


def _unit_lines(
    variant: str, outcome: dict[str, Any], label: Callable[[str], str], retreat: bool
) -> list[list[UnitLine]]:

    def place(location: str) -> str:
        return names.place_name(variant, location)

    before = _units_before(outcome)
    dislodged = {str(d["at"]).partition("/")[0] for d in outcome.get("dislodged", [])}
    # a unit's own composition where it stayed (a Multiplicity `2A`: the order names one army of it)
    stayed = {(str(u["power"]), str(u["at"]).partition("/")[0]): str(u["unit"]) for u in outcome.get("units", [])}
    stayed.update(
        {(str(d["power"]), str(d["at"]).partition("/")[0]): str(d["unit"]) for d in outcome.get("dislodged", [])}
    )
    legal = {
        str(line.get("at") or "").partition("/")[0]
        for line in outcome.get("orders", [])
        if line.get("result") != "illegal"
    }
    by_power: dict[str, list[UnitLine]] = {}
    for line in outcome.get("orders", []):
        read = line.get("read") or {}
        unit = read.get("unit") or {}
        at = str(line.get("at") or unit.get("at") or "")
        province = at.partition("/")[0]
        if province not in before or before[province][0] != line["power"]:
            continue
        if line.get("result") == "illegal" and province in legal:
            continue  # njudge refused it when it came: the unit's own order stands
        if retreat and read.get("kind") not in ("retreat", "disband", "move"):
            continue
        power, kind = before[province]
        moved = read.get("kind") in ("move", "retreat") and line.get("result") == "succeeds"
        kind = kind if moved else stayed.get((power, province), kind)
        reasons = reasons_from_json(line.get("reasons"))
        ordered = bool(line.get("input")) and line.get("result") != "illegal"
        order_kind = str(read.get("kind")) if ordered else "unordered"
        target = read.get("target") or {}
        target_text = ""
        if order_kind in ("support", "convoy") and target:
            owner = before.get(str(target.get("at", "")).partition("/")[0], ("", ""))[0]
            adjective = f"{names.adjective(variant, owner)} " if owner and owner != power else ""
            target_text = f"{adjective}{names.unit_word(str(target.get('type') or ''))} {place(str(target['at']))}"
        destination = str(read.get("to") or "")
        marks = marks_for(str(line.get("result")), reasons, ordered)
        mark = _njudge_mark(order_kind, marks, province in dislodged and not retreat, retreat and ordered)
        if order_kind == "retreat":
            order_kind = "move"
        by_power.setdefault(power, []).append(
            UnitLine(
                label(power),
                names.unit_word(kind),
                place(at),
                order_kind,
                target_text,
                place(destination) if destination else "",
                mark,
            )
        )
    return [by_power[p] for p in sorted(by_power)]


def _dislodged(variant: str, outcome: dict[str, Any]) -> list[str]:
    """`The Austrian Army in Bohemia can retreat to Galicia or Vienna.` (`st_movement.c` pass 7), cut at
    njudge's width."""
    lines: list[str] = []
    for d in outcome.get("dislodged", []):
        unit = f"The {names.adjective(variant, str(d['power']))} {names.unit_word(str(d['unit']))}"
        where = names.in_place(variant, str(d["at"]))
        retreats = [names.place_name(variant, r) for r in d.get("retreats") or []]
        said = (
            f"{unit} {where} can retreat to {' or '.join(retreats)}."
            if retreats
            else (f"{unit} {where} with no valid retreats was destroyed.")
        )
        lines += wrapped(said)
    return lines


def _adjusted(variant: str, outcome: dict[str, Any], label: Callable[[str], str]) -> list[Adjusted]:
    """`st_build.c`'s lines: builds, removals (a civil-disorder removal as njudge's `Defaults, removing ...`), a
    line `Build waived.` for each build left unused, each power's together."""
    out: dict[str, list[Adjusted]] = {}
    for line in outcome.get("orders", []):
        if line.get("result") == "illegal":
            continue
        read = line.get("read") or {}
        unit = read.get("unit") or {}
        power = str(line["power"])
        kind = str(read.get("kind"))
        if kind == "build":
            what = names.ARTICLES.get(str(unit.get("type")), str(unit.get("type")))
            out.setdefault(power, []).append(
                Adjusted(label(power), "build", what, names.place_name(variant, unit["at"]))
            )
        elif kind in ("remove", "disband") and unit:
            how = "defaults" if not line.get("input") else "remove"
            word = names.unit_word(str(unit.get("type") or "")).lower()
            out.setdefault(power, []).append(
                Adjusted(label(power), how, word, names.in_place(variant, str(unit["at"])))
            )
    for event in outcome.get("events", []):
        if event["kind"] == "builds_waived":
            power = str(event["power"])
            for _ in range(int(event["halves"]) // 2):
                out.setdefault(power, []).append(Adjusted(label(power), "waived"))
    return [line for power in sorted(out) for line in out[power]]


def _ownership(variant: str, outcome: dict[str, Any], label: Callable[[str], str]) -> list[str]:
    """`Ownership of supply centers:`'s lines (`ownership()` in `st_porder.c`): each power's centres from the
    12th column, by njudge's name, a full stop after the last; then the centres nobody owns, as `Unowned`."""
    owned = outcome.get("supply_centers", {})
    found = names.board(variant)
    centres = set(found.supply_centres) if found else set()
    width = _country_width(variant, owned)
    lines: list[str] = []
    rows = [(label(p), owned[p]) for p in sorted(owned) if owned[p]]
    nobody = sorted(centres - {c for held in owned.values() for c in held})
    if nobody:
        rows.append(("Unowned", nobody))
    for power, held in rows:
        listed = sorted(names.place_name(variant, c) for c in held)
        head = f"{power}:".ljust(width + 1)
        lines += wrapped_at_commas(head + ", ".join(listed) + ".", width + 1)
    return lines


def _country_width(variant: str, powers: Any) -> int:
    """`GetMaxCountryStrlen()` (`variant.c`): the longest power's name and one, ten at least."""
    found = names.board(variant)
    every = list(found.powers) if found else list(powers)
    return max([10, *(len(p) + 1 for p in every)])


def _counts(
    variant: str, outcome: dict[str, Any], options: dict[str, Any] | None, label: Callable[[str], str]
) -> list[Count]:
    held = holdings(variant, outcome, options)
    winners = {str(w["side"]) if isinstance(w, dict) else str(w) for w in outcome.get("winner") or []}
    out: list[Count] = []
    for power in sorted(held):
        have = held.get(power, Holding(0, 0))
        if not have.centres and not have.units:
            continue
        change = have.centres + have.extra - have.units
        out.append(
            Count(
                label(power),
                halves(have.centres),
                halves(have.units),
                change >= 0,
                halves(abs(change)),
                halves(abs(change)) != "1",
                power in winners,
            )
        )
    return out


def _labeller(variant: str, phase: dict[str, Any], options: dict[str, Any] | None) -> Callable[[str], str]:
    try:
        rules = get_variant(variant).rules(options or None)
    except (UnknownVariant, ValueError, KeyError):
        return str
    parsed = Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"]))
    return lambda power: rules.power_label(power, parsed)


def build_njudge_sheet(
    game: str,
    outcome: dict[str, Any],
    next_phase: dict[str, Any] | None,
    *,
    judge: str = "judge",
    played_deadline: datetime | None = None,
    deadline: datetime | None = None,
    seq: int = 1,
    options: dict[str, Any] | None = None,
    finished: str | None = None,
    variant_lines: list[str] | None = None,
) -> NjudgeSheet:
    """`played_deadline`: the deadline of the phase these results are of (njudge's `:: Deadline:` in a results
    mail); `deadline`: the next phase's, for the footer; `seq`: the results' number in the game."""
    variant = str(outcome.get("variant") or "standard")
    phase = outcome["phase"]
    label = _labeller(variant, phase, options)
    kind = str(phase["type"])
    sheet = NjudgeSheet(
        judge=judge,
        game=game,
        game_title=names.capitalised(game),
        variant_title=names.capitalised(variant),
        code=phase_code(phase),
        deadline=deadline_text(played_deadline) if played_deadline else None,
        kind=kind,
        season=_season(phase),
        year=_year(variant, phase),
        seq=f"{seq:03d}",
        variant_lines=list(variant_lines or []),
    )
    if kind == PhaseType.ADJUSTMENT.value:
        sheet.adjusted = _adjusted(variant, outcome, label)
    else:
        sheet.units = _unit_lines(variant, outcome, label, retreat=kind == PhaseType.RETREAT.value)
    if kind == PhaseType.MOVEMENT.value:
        sheet.dislodged = _dislodged(variant, outcome)
    if _ownership_shown(variant, phase, next_phase):
        sheet.ownership = _ownership(variant, outcome, label)
        sheet.counts = _counts(variant, outcome, options, label)
        sheet.country_width = _country_width(variant, outcome.get("supply_centers", {}))
    if outcome.get("winner") or finished or next_phase is None:
        sheet.over = True
    else:
        sheet.next_kind = {"Movement": "Movement", "Retreat": "Retreats", "Adjustment": "Adjustments"}.get(
            str(next_phase["type"]), str(next_phase["type"])
        )
        sheet.next_season = _season(next_phase)
        sheet.next_year = _year(variant, next_phase)
        sheet.next_deadline = deadline_text(deadline) if deadline else None
    return sheet


@dataclass(frozen=True)
class Placed:
    """A unit of the starting position as njudge's report file lists it (`Austria: Army  Vienna.`)."""

    power: str
    unit: str
    at: str


def starting_position(variant: str, phase: Phase, units: tuple[tuple[str, str, str], ...]) -> dict[str, Any]:
    """The values of njudge's `Starting position for Spring of 1901.` block (njudge's `data/report.standard`,
    copied into the start mail by `ml_signon.c`): each power's units together, the power's name padded to the
    longest name's column, the unit's word to five."""
    found = names.board(variant)
    order = list(found.powers) if found else sorted({power for power, _, _ in units})
    groups = [
        [Placed(power, names.unit_word(unit), names.place_name(variant, at)) for p, unit, at in units if p == power]
        for power in order
    ]
    return {
        "season": "Winter" if phase.type is PhaseType.ADJUSTMENT else phase.season,
        "year": str(phase.year),
        "groups": [group for group in groups if group],
        "width": max([len(power) + 2 for power, _, _ in units] or [9]),
    }
