"""A phase's results sheet: the outcome of one phase laid out the way the zines printed it.

The sheet is built here, in Python, from the engine's outcome (the `judge adjudicate` contract) and what the game
adds (its judge, deadline, late powers, the GM's note); the templates only lay it out. Keeping the logic out of the
templates lets a variant override the wording without copying any of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from judge.contract.orders import order_from_json
from judge.contract.public import printed_in_results
from judge.engine.calendar import Calendar
from judge.engine.kinds import reason_from_json, reasons_from_json
from judge.engine.order_text import NJUDGE, ZINE, render_order
from judge.engine.phase import Phase, PhaseType
from judge.engine.reasons import PartlyCut, Reason
from judge.engine.refusals import some_of
from judge.engine.supply import halves
from judge.render.annotations import Annotated, annotate, marks_for
from judge.render.dates import deadline_text, when_text
from judge.render.happenings import happenings
from judge.render.tally import Holding, by_side, holdings, rules_for, side_total, sides_for, sides_holding
from judge.value import replace
from judge.variants import UnknownVariant, get_variant


def _attackers(found: Any, place: Callable[[str], str]) -> str:
    """Where a dislodged unit was attacked from: one place, or (a merge from several places, which the contract
    writes as a list) each of them."""
    if not found:
        return ""
    if isinstance(found, list):
        return " and ".join(place(str(p)) for p in found)
    return place(str(found))


@dataclass(frozen=True)
class Dislodgement:
    power: str
    unit: str
    at: str
    attacker_from: str
    retreats: list[str]


@dataclass(frozen=True)
class CentreLine:
    """A line of the chart: a power's (or a player's) count (`Holding`, the engine's one count: a garrison costs
    half, so `2G` counts 1; the builds Delphi grants are in its adjustment)."""

    power: str
    held: Holding
    centre_names: list[str] = field(default_factory=list)

    @property
    def centres_shown(self) -> str:
        return halves(self.held.centres)

    @property
    def units_shown(self) -> str:
        return halves(self.held.units)

    @property
    def adjustment(self) -> str:
        change = self.held.change
        if change > 0:
            return f"builds {halves(change)}"
        if change < 0:
            return f"removes {halves(-change)}"
        return "no change"


@dataclass(frozen=True)
class Brief:
    """How a reply shows a phase a player asked about (issue 40: a Heptadiplomacy PREVIEW was 226 lines, mostly
    unordered holds): the powers in `focus` (the powers he ordered, and his side: a power's whole side is taken)
    first and in full; of the others only what happened (a move, a support, a failure, a dislodgement), their
    units that simply hold counted; the per-power centre rows only for `focus` where the sheet also has each
    player's totals. `failures`: of the others only the orders that failed (a bounce, a void order, a cut
    support, a dislodgement), those that succeeded counted too (a PREDICT of 49 board-nations' moves). `full` is
    the command that sends the whole sheet."""

    full: str
    focus: tuple[str, ...] = ()
    failures: bool = False

    @property
    def shorter(self) -> Brief:
        """The same brief, the others' successful orders counted too."""
        return Brief(self.full, self.focus, failures=True)


@dataclass(frozen=True)
class LeftOut:
    """What a brief sheet did not print, for its closing line."""

    holding: int
    """units of other powers that held (ordered to or not) and were left unharmed"""
    succeeded: int
    """other orders of other powers that succeeded, counted on a `Brief.failures` sheet"""
    powers: int
    """other powers whose rows of the centre chart (and builds waived) were left out"""
    full: str


def _quiet(line: dict[str, Any], reasons: list[Reason]) -> bool:
    """An order a brief sheet counts instead of printing: a hold that stood, the unit untouched."""
    read = line.get("read") or {}
    return read.get("kind") == "hold" and line.get("result") == "succeeds" and not reasons


def _succeeded(line: dict[str, Any], reasons: list[Reason]) -> bool:
    """An order a briefer sheet (`Brief.failures`) counts: one that did as it said, nothing marked on it."""
    return line.get("result") == "succeeds" and not marks_for("succeeds", reasons)


@dataclass
class ResultSheet:
    game: str
    variant: str
    judge: str
    phase: dict[str, Any]
    code: str
    header_code: str
    """the phase's code in the `::` header lines, njudge's (`F1901B` for a winter)"""
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
    """the next phase's deadline in njudge's form"""
    played: str | None = None
    """the deadline of the phase these results are of in njudge's form, which njudge's `:: Deadline:` line of a
    results mail names (issue 45); unknown to a reply's sheet (HISTORY, PREDICT), whose header has no such line"""
    due: str | None = None
    """the same moment in the form of every other date the judge writes (`judge.render.dates.when_text`)"""
    when: str = ""
    """the phase's season and year as the variant writes them ("Autumn 1900", "Spring 450 BC")"""
    next_when: str = ""
    partial_cuts: bool = False
    """some support stood in part and was cut in part (Multiplomacy prints the two parts apart)"""
    winner: list[str] = field(default_factory=list)
    players: list[CentreLine] = field(default_factory=list)
    waived: list[tuple[str, str]] = field(default_factory=list)
    happened: list[str] = field(default_factory=list)
    """the variant's own events of this phase, in words (`judge.render.happenings`)"""
    """after an adjustment phase, each power's builds left unused (waived, ordered or not), as players write them"""
    """each player's totals, where players hold several powers by the variant's rule"""
    finished: str | None = None
    victory: int | None = None
    """the supply centres a side needs to win (the map's, or the GM's `victory_centres`), for a variant's own
    words on its victory; None where the variant is not won by a count"""
    leaders: list[str] = field(default_factory=list)
    """the players holding the most centres when the game ended at its end year (`end.year`), by their sides'
    labels: one wins, more share the game"""
    last_year: str = ""
    """the end year that ended the game, as the variant writes it ("1905", "440 BC")"""
    leading: str = ""
    """the leaders' count of centres, as players write it ("6", "10½")"""
    late: list[str] = field(default_factory=list)
    note: str | None = None
    press: list[dict[str, Any]] = field(default_factory=list)
    """press held for these results and visible to this reader"""
    wanderings: list[dict[str, Any]] = field(default_factory=list)
    """a wandering centre's moves (Mad Diplomacy's Atlantis): the die, its table, the roll, from and to"""
    njudge: bool = False
    """orders and headings as njudge prints them (`results.orders=njudge`), which its mappers read"""
    link: str | None = None
    """the game's web page (`[web] base_url`), printed at the foot"""
    phase_link: str | None = None
    """the page of the phase these results are of (its map with its orders drawn), printed above `link`"""
    left_out: LeftOut | None = None
    """a reply's brief sheet (PREVIEW, PREDICT, HISTORY): what it leaves out and how to ask for it all"""

    @property
    def width(self) -> int:
        """The names' column: the zines' ten characters, wider where a name needs it (issue 27: `Anactorium:Build
        A Ana`, `1:Austria:A 1:vie - 1:gal`), so every name is followed by a space at least."""
        names = [*self.orders, *(c.power for c in self.centres)]
        names += (
            [d.power for d in self.dislodged] + [w[0] for w in self.waived] + [str(e["power"]) for e in self.disbanded]
        )
        return max([10, *(len(n) + 2 for n in names)])

    @property
    def players_width(self) -> int:
        """The names' column of the players' totals (`Sparta + Elatea:`), apart from the powers' column."""
        return max([self.width, *(len(c.power) + 2 for c in self.players)])


def phase_code(phase: dict[str, Any]) -> str:
    """The njudge phase code (S1901M, F1901R, W1901A) that mappers and scripts read."""
    return Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"])).code


@cache
def _provinces(variant: str) -> frozenset[str]:
    try:
        return frozenset(get_variant(variant).rules().board.provinces)
    except UnknownVariant:
        return frozenset()


_COASTS = {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}


def zine_case(location: str, variant: str) -> str:
    """A location id as the zines printed it: `Nth`, `Stp/nc`, and on a variant of several boards `3:Par` (issue
    28: a board's prefix kept Heptadiplomacy's ids from being capitalised); what is not one of the variant's
    provinces, as it is. A namer of ids: nothing is looked for in words."""
    province, slash, coast = location.partition("/")
    board, colon, word = province.rpartition(":")
    provinces = _provinces(variant)
    if province in provinces or word in provinces:
        return f"{board}{colon}{word.capitalize()}{slash}{coast}"
    return location


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


def _public(line: dict[str, Any], reasons: list[Reason], retreats: bool) -> bool:
    """Whether an order line belongs in the results everyone reads (`printed_in_results`)."""
    return printed_in_results(line.get("result") == "illegal", bool(line.get("order")), reasons, retreats)


def _has_line(outcome: dict[str, Any], power: str, at: str) -> bool:
    """Whether a power's orders already tell of the unit at `at` (so its disbanding needs no line of its own)."""
    where = at.split("/")[0]
    return any(
        line["power"] == power and str(line.get("at") or "").split("/")[0] == where
        for line in outcome.get("orders", [])
    )


def _victory(variant: str, options: dict[str, Any] | None) -> int | None:
    """The victory count of a variant won by a count (`victory_centres`), as its rules with these options say."""
    rules = rules_for(variant, options)
    return rules.victory_centres() if rules is not None and "victory_centres" in rules.OPTIONS else None


def _winner_text(winner: Any, label: Callable[[str], str]) -> str:
    """A winner as the results name it: a power, or a side with its kind of win (CW Heptadiplomacy:
    `{"side": "England", "win": "two-way"}` is "England (two-way win)")."""
    if isinstance(winner, dict):
        return f"{label(str(winner['side']))} ({winner.get('win', '')} win)"
    return label(str(winner))


def _retreats(places: list[str], brief: bool) -> list[str]:
    """Where a dislodged unit may retreat: every place on a results mail, the first few and a count on a brief
    sheet (a Heptadiplomacy unit may have 35)."""
    return [some_of(places)] if brief and places else places


def _in_order(orders: dict[str, list[Annotated]], focus: set[str]) -> dict[str, list[Annotated]]:
    """The powers' orders as the sheet prints them: those of `focus` (a brief sheet's) first, then by name."""
    ranked = sorted(orders.items(), key=lambda item: (item[0] not in focus, item[0]))
    return {power: lines for power, lines in ranked if lines or power not in focus}


def _die_roll(event: dict[str, Any], zine: Callable[[str], str]) -> dict[str, Any]:
    """A die roll as the sheet prints it, from its values: why it was rolled and the orders in the order drawn,
    places as the zines wrote them in every style (an event stored before it had its values: its words)."""
    why = event.get("why")
    read = event.get("read")
    return {
        **event,
        "purpose": reason_from_json(why).text(zine) if why else event["purpose"],
        "order": [render_order(order_from_json(o), ZINE.named(zine)) for o in read] if read else event["order"],
    }


def build_sheet(
    game: str,
    outcome: dict[str, Any],
    next_phase: dict[str, Any] | None,
    *,
    judge: str = "judge",
    deadline: datetime | None = None,
    played_deadline: datetime | None = None,
    late: list[str] | None = None,
    note: str | None = None,
    finished: str | None = None,
    title: str = "results",
    options: dict[str, Any] | None = None,
    press: list[dict[str, Any]] | None = None,
    style: dict[str, str] | None = None,
    link: str | None = None,
    phase_link: str | None = None,
    brief: Brief | None = None,
    winners: list[str] | None = None,
    end_year: int | None = None,
) -> ResultSheet:
    """`style` is the game's `results.orders` and `results.names` (`judge.game.settings.results_style`); `brief`:
    a reply's sheet, shortened as `Brief` says (a results mail is never brief)."""
    variant = str(outcome.get("variant") or "standard")
    phase = outcome["phase"]
    chosen = style or {}
    place = place_namer(variant, chosen.get("names") == "full")
    zine = place_namer(variant, full=False)  # the reasons' words name places as the zines did, in every style
    form = (NJUDGE if chosen.get("orders") == "njudge" else ZINE).named(place)

    def printed_order(line: dict[str, Any]) -> Callable[[int | None], str]:
        """The order in the game's form, from the order as read (for `count` of its units: a part of a partly cut
        support); a line that was not read (an outcome stored before orders were written as values), as it
        came."""
        read = line.get("read")
        order = order_from_json(read) if read else None

        def printed(count: int | None) -> str:
            if order is None:
                return str(line.get("order") or line.get("input") or "")
            if count is not None and order.unit is not None:
                return render_order(replace(order, unit=replace(order.unit, count=count)), form)
            return render_order(order, form)

        return printed

    label = _labeller(variant, phase, options)
    sides = sides_for(variant, options)
    mine = [p for side in sides if brief and set(side.powers) & set(brief.focus) for p in side.powers]
    focus = {label(p) for p in [*brief.focus, *mine]} if brief else set()
    orders: dict[str, list[Annotated]] = {}
    holding = succeeded = 0
    for line in outcome.get("orders", []):
        reasons = reasons_from_json(line.get("reasons"))
        if not _public(line, reasons, phase["type"] == PhaseType.RETREAT.value):
            continue  # the sender's own reply lists it, with why
        if brief and label(line["power"]) not in focus and _quiet(line, reasons):
            holding += 1
            continue
        if brief and brief.failures and label(line["power"]) not in focus and _succeeded(line, reasons):
            succeeded += 1
            continue
        ordered = bool(line.get("input"))
        for printed in annotate(printed_order(line), line["result"], reasons, ordered, place=zine):
            orders.setdefault(label(line["power"]), []).append(printed)
    owned = outcome.get("supply_centers", {})
    held = holdings(variant, outcome, options)
    centres = []
    for power in sorted(set(owned) | set(held)):
        names = owned.get(power, [])
        have = held.get(power, Holding(0, 0))
        if not names and not have.units and not have.extra:
            continue
        centres.append(CentreLine(label(power), have, [place(n) for n in sorted(names)]))
    players = [CentreLine(name, total) for name, total in by_side(sides, held).items()]
    others = 0
    if brief and players:  # each player's totals stand for his powers' rows; his own powers' rows stay
        others = len([c for c in centres if c.power not in focus])
        centres = [c for c in centres if c.power in focus]
    # PREDICT passes no next phase (the game does not go on to it) but shows the same tables (issue 28)
    next_type = (next_phase or outcome.get("next_phase") or {}).get("type")
    # the builds the Winter left unmade, as the engine counted them (issue 40: not what the count left over); a
    # brief sheet keeps those of its own powers where each player's totals stand for the rest
    waived = sorted(
        (label(str(e["power"])), halves(int(e["halves"])))
        for e in outcome.get("events", [])
        if e["kind"] == "builds_waived" and not (brief and players and label(str(e["power"])) not in focus)
    )
    leaders = sides_holding(variant, options, winners or [])  # a game ended at its end year: its leaders' sides
    return ResultSheet(
        game=game,
        variant=variant,
        judge=judge,
        phase=phase,
        code=phase_code(phase),
        header_code=Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"])).njudge_code,
        title=title,
        orders=_in_order(orders, focus),
        dislodged=[
            Dislodgement(
                label(d["power"]),
                form.unit(d["unit"]),
                place(d["at"]),
                _attackers(d.get("attacker_from"), place),
                _retreats([place(r) for r in d["retreats"]], brief is not None),
            )
            for d in outcome.get("dislodged", [])
        ],
        standoffs=[place(p) for p in outcome.get("standoffs", [])],
        die_rolls=[_die_roll(e, zine) for e in outcome.get("events", []) if e["kind"] == "die_roll"],
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
        played=deadline_text(played_deadline) if played_deadline else None,
        due=when_text(deadline, chosen.get("zone")) if deadline else None,
        partial_cuts=any(
            isinstance(r, PartlyCut) for o in outcome.get("orders", []) for r in reasons_from_json(o.get("reasons"))
        ),
        winner=[_winner_text(w, label) for w in outcome.get("winner") or []],
        players=players,
        waived=waived,
        happened=happenings(outcome, label, place),
        finished=finished,
        victory=_victory(variant, options),
        leaders=[side.label for side in leaders],
        last_year=Calendar.year_name(end_year) if end_year is not None else "",
        leading=halves(max((side_total(side.powers, held).centres for side in leaders), default=0)),
        late=[label(p) for p in late or []],
        note=note,
        press=list(press or []),
        njudge=form.unit_words,
        link=link,
        phase_link=phase_link,
        left_out=LeftOut(holding, succeeded, others, brief.full)
        if brief and (holding or succeeded or others)
        else None,
    )
