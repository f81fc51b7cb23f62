"""A phase's results sheet: the outcome of one phase laid out the way the zines printed it.

The sheet is built here, in Python, from the engine's outcome (the `judge adjudicate` contract) and what the game
adds (its judge, deadline, late powers, the GM's note); the templates only lay it out. Keeping the logic out of the
templates lets a variant override the wording without copying any of it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from judge.contract.orders import order_from_json
from judge.engine.order_text import NJUDGE, ZINE, render_order
from judge.engine.phase import Phase, PhaseType
from judge.engine.reasons import NotYours, PartlyCut, Reason, reasons_from_json
from judge.engine.supply import halves
from judge.engine.units import Composition
from judge.render.annotations import Annotated, annotate
from judge.variants import UnknownVariant, get_variant


@dataclass(frozen=True)
class Dislodgement:
    power: str
    unit: str
    at: str
    attacker_from: str
    retreats: list[str]


@dataclass(frozen=True)
class CentreLine:
    power: str
    centres: int | float
    units: int | float
    centre_names: list[str]
    change: int | float
    """builds (above zero) or removals due, as the engine counted them (half centres as .5)"""

    @property
    def centres_shown(self) -> str:
        return _count(self.centres)

    @property
    def units_shown(self) -> str:
        return _count(self.units)

    @property
    def adjustment(self) -> str:
        if self.change > 0:
            return f"builds {_count(self.change)}"
        if self.change < 0:
            return f"removes {_count(-self.change)}"
        return "no change"


def _count(n: int | float) -> str:
    """A count that may hold a half centre, as players write it: 2, 1½, ½."""
    return halves(round(n * 2))


@dataclass
class ResultSheet:
    game: str
    variant: str
    judge: str
    phase: dict[str, Any]
    code: str
    title: str
    """"results" or, for a GM's PREDICT, "predicted results" """
    orders: dict[str, list[Annotated]]
    dislodged: list[Dislodgement]
    standoffs: list[str]
    die_rolls: list[dict[str, Any]]
    disbanded: list[dict[str, Any]]
    centres: list[CentreLine]
    show_centres: bool
    """after the year's last Fall phase, when ownership changes"""
    show_adjustments: bool
    next_phase: dict[str, Any] | None
    next_code: str | None
    deadline: str | None
    when: str = ""
    """the phase's season and year as the variant writes them ("Autumn 1900", "Spring 450 BC")"""
    next_when: str = ""
    partial_cuts: bool = False
    """some support stood in part and was cut in part (Multiplomacy prints the two parts apart)"""
    winner: list[str] = field(default_factory=list)
    players: list[CentreLine] = field(default_factory=list)
    """each player's totals, where players hold several powers by the variant's rule"""
    finished: str | None = None
    late: list[str] = field(default_factory=list)
    note: str | None = None
    press: list[dict[str, Any]] = field(default_factory=list)
    """press held for these results and visible to this reader"""
    wanderings: list[dict[str, Any]] = field(default_factory=list)
    """a wandering centre's moves (Mad Diplomacy's Atlantis): the die, its table, the roll, from and to"""
    njudge: bool = False
    """orders and headings as njudge prints them (`results.orders=njudge`), which its mappers read"""


def phase_code(phase: dict[str, Any]) -> str:
    """The njudge phase code (S1901M, F1901R, W1901A) that mappers and scripts read."""
    return Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"])).code


def deadline_text(when: datetime) -> str:
    """njudge's deadline form, e.g. "Sun Nov 29 2026 20:00:00 UTC"."""
    return when.strftime("%a %b %d %Y %H:%M:%S ") + (when.tzname() or "UTC")


@cache
def _provinces(variant: str) -> frozenset[str]:
    try:
        return frozenset(get_variant(variant).rules().board.provinces)
    except UnknownVariant:
        return frozenset()


_WORD = re.compile(r"\b([a-z]{3,})(?=\b|/)")
_COASTS = {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}


def zine_case(text: str, variant: str) -> str:
    """Province abbreviations capitalised as the zines printed them ("F Nth - Nwy"), coasts left as they are."""
    provinces = _provinces(variant)
    return _WORD.sub(lambda m: m[1].capitalize() if m[1] in provinces else m[1], text)


@cache
def _names(variant: str) -> dict[str, str]:
    try:
        return {p.id: p.name for p in get_variant(variant).rules().board.provinces.values()}
    except UnknownVariant:
        return {}


def place_namer(variant: str, full: bool) -> Callable[[str], str]:
    """How results name a location: the zines' abbreviation (`Nwy`, `Stp/nc`) or its full name (`Norway`,
    `St. Petersburg (north coast)`), as the game's `results.names` says."""
    if not full:
        return lambda location: zine_case(location, variant)
    names = _names(variant)

    def name(location: str) -> str:
        province, _, coast = location.partition("/")
        named = names.get(province, zine_case(province, variant))
        return f"{named} ({_COASTS.get(coast, coast)})" if coast else named

    return name


def _size(unit: str) -> int:
    try:
        return Composition.parse(unit).size
    except (KeyError, ValueError):
        return 1


def season_and_year(variant: str, phase: dict[str, Any], joiner: str = " ") -> str:
    """Fall 1901, Autumn 1900, Spring 450 BC: as the variant's calendar writes them (`joiner=" of "` gives
    njudge's "Spring of 1901")."""
    try:
        calendar = get_variant(variant).calendar
    except UnknownVariant:
        return f"{phase['season']}{joiner}{phase['year']}"
    parsed = Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"]))
    return f"{calendar.season_name(parsed.season)}{joiner}{calendar.year_name(parsed.year)}"


def _ownership_changed(variant: str, phase: dict[str, Any]) -> bool:
    """Was this a phase after which centres change hands (standard: the Fall), by the variant's calendar?"""
    try:
        calendar = get_variant(variant).calendar
    except UnknownVariant:
        return bool(phase["season"] == "Fall")
    return calendar.ownership_changes(Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"])))


def _labeller(variant: str, phase: dict[str, Any], options: dict[str, Any] | None) -> Callable[[str], str]:
    """How the variant names powers in this phase's results (`Rules.power_label`); as stored without options."""
    if options is None:
        return str
    try:
        rules = get_variant(variant).rules(options)
    except (UnknownVariant, ValueError):
        return str
    parsed = Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"]))
    return lambda power: rules.power_label(power, parsed)


def _public(line: dict[str, Any], reasons: list[Reason]) -> bool:
    """Whether an order line belongs in the results everyone reads: only orders. A line that could not be read
    as one (a signature, a misspelt order: its unit's hold is printed instead) and an order for another power's
    unit stay out."""
    if line.get("result") != "illegal":
        return True
    if not line.get("order"):
        return False
    return not any(isinstance(r, NotYours) for r in reasons)


def _has_line(outcome: dict[str, Any], power: str, at: str) -> bool:
    """Whether a power's orders already tell of the unit at `at` (so its disbanding needs no line of its own)."""
    where = at.split("/")[0]
    return any(
        line["power"] == power and str(line.get("at") or "").split("/")[0] == where
        for line in outcome.get("orders", [])
    )


def _winner_text(winner: Any, label: Callable[[str], str]) -> str:
    """A winner as the results name it: a power, or a side with its kind of win (CW Heptadiplomacy:
    `{"side": "England", "win": "two-way"}` is "England (two-way win)")."""
    if isinstance(winner, dict):
        return f"{label(str(winner['side']))} ({winner.get('win', '')} win)"
    return label(str(winner))


def _players(
    variant: str, options: dict[str, Any] | None, owned: dict[str, list[str]], units: dict[str, int]
) -> list[CentreLine]:
    """Each player's totals where a player holds several powers by the variant's rule (CW Heptadiplomacy's
    board-nations; Hoplite Wars' Major and Minor); empty otherwise."""
    from judge.variants import get_variant

    try:
        rules = get_variant(variant).rules(options)
    except (KeyError, ValueError):
        return []
    lines = []
    for player, powers in sorted(rules.fixed_sides().items()):
        if len(powers) > 1:
            halves = sum(rules.centre_value(c) for p in powers for c in owned.get(p, []) if c in rules.board.provinces)
            held = halves // 2 if halves % 2 == 0 else halves / 2
            lines.append(CentreLine(player, held, sum(units.get(p, 0) for p in powers), [], 0))
    return lines


def build_sheet(
    game: str,
    outcome: dict[str, Any],
    next_phase: dict[str, Any] | None,
    *,
    judge: str = "judge",
    deadline: datetime | None = None,
    late: list[str] | None = None,
    note: str | None = None,
    finished: str | None = None,
    title: str = "results",
    options: dict[str, Any] | None = None,
    press: list[dict[str, Any]] | None = None,
    style: dict[str, str] | None = None,
) -> ResultSheet:
    """`style` is the game's `results.orders` and `results.names` (`judge.game.settings.results_style`)."""
    variant = str(outcome.get("variant") or "standard")
    phase = outcome["phase"]
    chosen = style or {}
    place = place_namer(variant, chosen.get("names") == "full")
    form = (NJUDGE if chosen.get("orders") == "njudge" else ZINE).named(place)
    rewritten = form is not ZINE and (form.unit_words or chosen.get("names") == "full")

    def z(text: str) -> str:
        return zine_case(text, variant)

    def printed_order(line: dict[str, Any]) -> str:
        """The order in the game's form, from the order as read; a line that was not read, as it came."""
        read = line.get("read")
        if rewritten and read:
            return render_order(order_from_json(read), form)
        return z(line.get("order") or line.get("input") or "")

    label = _labeller(variant, phase, options)
    orders: dict[str, list[Annotated]] = {}
    for line in outcome.get("orders", []):
        reasons = reasons_from_json(line.get("reasons"))
        if not _public(line, reasons):
            continue  # the sender's own reply lists it, with why
        for printed in annotate(printed_order(line), line["result"], reasons, ordered=bool(line.get("input"))):
            orders.setdefault(label(line["power"]), []).append(
                Annotated(printed.order if rewritten else z(printed.order), printed.marks, z(printed.why))
            )
    owned = outcome.get("supply_centers", {})
    counted = outcome.get("adjustments", {})
    units_after: dict[str, int] = {}
    for unit in outcome.get("units", []):
        units_after[unit["power"]] = units_after.get(unit["power"], 0) + _size(unit["unit"])
    centres = []
    for power in sorted(set(owned) | set(units_after)):
        names = owned.get(power, [])
        if not names and not units_after.get(power):
            continue
        count = counted.get(power) or {"centres": len(names), "units": units_after.get(power, 0)}
        change = count.get("change", count["centres"] - count["units"])
        centres.append(
            CentreLine(label(power), count["centres"], count["units"], [place(n) for n in sorted(names)], change)
        )
    next_type = (next_phase or {}).get("type")
    return ResultSheet(
        game=game,
        variant=variant,
        judge=judge,
        phase=phase,
        code=phase_code(phase),
        title=title,
        orders=dict(sorted(orders.items())),
        dislodged=[
            Dislodgement(
                label(d["power"]),
                form.unit(d["unit"]),
                place(d["at"]),
                place(d["attacker_from"]) if d.get("attacker_from") else "",
                [place(r) for r in d["retreats"]],
            )
            for d in outcome.get("dislodged", [])
        ],
        standoffs=[place(p) for p in outcome.get("standoffs", [])],
        die_rolls=[
            {**e, "purpose": z(e["purpose"]), "order": [z(o) for o in e["order"]]}
            for e in outcome.get("events", [])
            if e["kind"] == "die_roll"
        ],
        disbanded=[
            {**e, "at": place(e["at"])}
            for e in outcome.get("events", [])
            if e["kind"] in ("disbanded", "civil_disorder_removal", "annihilated")
            and not (e["kind"] != "annihilated" and _has_line(outcome, e["power"], e["at"]))
        ],
        wanderings=[
            {
                **e,
                "from": place(e["from"]),
                "to": place(e["to"]),
                "rounds": [", ".join(f"{place(r['at'])} {r['roll']}" for r in rolls) for rolls in e["rounds"]],
            }
            for e in outcome.get("events", [])
            if e["kind"] == "atlantis"
        ],
        centres=centres,
        show_centres=_ownership_changed(variant, phase) and next_type != PhaseType.RETREAT.value,
        show_adjustments=next_type == PhaseType.ADJUSTMENT.value,
        next_phase=next_phase,
        next_code=phase_code(next_phase) if next_phase else None,
        when=season_and_year(variant, phase, " of "),  # njudge's heading, which mappers look for
        next_when=season_and_year(variant, next_phase) if next_phase else "",
        deadline=deadline_text(deadline) if deadline else None,
        partial_cuts=any(
            isinstance(r, PartlyCut) for o in outcome.get("orders", []) for r in reasons_from_json(o.get("reasons"))
        ),
        winner=[_winner_text(w, label) for w in outcome.get("winner") or []],
        players=_players(variant, options, owned, units_after),
        finished=finished,
        late=[label(p) for p in late or []],
        note=note,
        press=list(press or []),
        njudge=form.unit_words,
    )
