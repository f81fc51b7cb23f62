"""Reading a case (JSON object) into engine values and writing the outcome back as JSON.

A case that cannot be read (unknown variant, unknown province in `units`, a unit the rules do not allow where
it stands) raises `CaseError`; orders that cannot be read are not case errors, they are reported inside the
outcome as a judge would.
"""

from __future__ import annotations

import re
from typing import Any

from judge.board.model import Board, province_of
from judge.contract.orders import order_json
from judge.engine import (
    Composition,
    Dislodged,
    Force,
    OrderResult,
    Outcome,
    Phase,
    Position,
    RuleOptionError,
    Rules,
    Submitted,
    adjudicate,
)
from judge.engine.calendar import STANDARD_CALENDAR, Calendar
from judge.engine.events import DieRoll, Event
from judge.engine.phase import PhaseType
from judge.engine.reasons import text_of
from judge.engine.units import facts_of
from judge.notation import read_line
from judge.variants import UnknownVariant, get_variant


class CaseError(ValueError):
    """The case itself is malformed (exit status 2)."""


_SPELLED_COAST = re.compile(r"^(.*?)\s*[\s/(]\s*([nsew]c)\s*\)?$", re.IGNORECASE)


def read_location(board: Board, text: str) -> str:
    """A location id from any common spelling: `stp/nc`, `stp(nc)`, `stp nc`, `St. Petersburg (nc)`."""
    if isinstance(text, str) and text in board.provinces:
        return text  # already an id: what the judge itself writes, the common case
    if not isinstance(text, str) or not text.strip():
        raise CaseError(f"bad location {text!r}")
    raw = text.strip()
    found = board.lookup(raw)
    if found is not None:
        return found
    match = _SPELLED_COAST.match(raw)
    if match:
        province = board.lookup(match.group(1))
        coast = match.group(2).lower()
        if province is not None and "/" not in province:
            if coast in board.provinces[province].coasts:
                return f"{province}/{coast}"
            return province
    raise CaseError(f"unknown location {text!r} on the {board.name} map")


def _power(board: Board, text: Any, where: str) -> str:
    power = board.lookup_power(str(text)) if isinstance(text, str) else None
    if power is None:
        raise CaseError(f"{where}: unknown power {text!r}")
    return power


def _memo(rules: Rules, name: str) -> dict[Any, Any]:
    """One of the contract's memos kept with the rules (`Rules.known`), made on first use: what is read from a case
    and depends on the rules alone, remembered for the next case."""
    key = (name,)
    memo = rules.known.get(key)
    if memo is None:
        memo = rules.known[key] = {}
    return memo


class _Unfit(CaseError):
    """An entry whose unit may not stand where it is on its own: raised with the unit read, since it may be part
    of a force the case lists in parts (a Hoplite Wars mixed A/F at sea: its Major's fleet, its Minor's army)."""

    def __init__(self, where: str, force: Force, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.force = force


def _units(rules: Rules, listed: list[Any], memo: dict[str, list[tuple[str, str, Force]]]) -> list[Force]:
    """The forces a case lists under `units`, gathered as the engine keeps them (`Rules.gather`) and checked as
    gathered: an entry that could not stand alone stands as part of its force, and a force made of entries must
    stand as a whole."""
    entries: list[Force] = []
    unfit: dict[str, _Unfit] = {}
    for n, entry in enumerate(listed):
        try:
            entries.append(_force(rules, entry, "units", n, memo))
        except _Unfit as refused:
            entries.append(refused.force)
            unfit.setdefault(refused.force.province, refused)
    units = rules.gather(entries)
    if units == entries and not unfit:
        return units  # each entry a force of its own, each checked as read (every variant but Hoplite Wars)
    listed_ids = {id(force) for force in entries}
    for force in units:
        if id(force) in listed_ids and force.province not in unfit:
            continue  # read and checked as it was listed
        part = unfit.get(force.province)
        if part is not None and part.force is force:
            raise part  # listed alone: refused as read
        problem = rules.check_force(force)
        if problem:
            raise CaseError(f"{part.where if part else f'units ({force.composition} at {force.at})'}: {problem.text()}")
    return units


def _force(rules: Rules, entry: Any, listed: str, n: int, memo: dict[str, list[tuple[str, str, Force]]]) -> Force:
    """The force a case lists as `listed[n]` (the name says where a problem is, and is written only then)."""
    if not isinstance(entry, dict):
        raise CaseError(f"{listed}[{n}]: expected an object with power, unit and at")
    if len(entry) != 3:  # facts beside power, unit and at: read afresh
        return _read_force(rules, entry, f"{listed}[{n}]")
    power, unit, at = entry.get("power"), entry.get("unit"), entry.get("at")
    if not (isinstance(power, str) and isinstance(unit, str) and isinstance(at, str)):
        return _read_force(rules, entry, f"{listed}[{n}]")
    # a batch of cases lists the same units in the same places phase after phase: each is read and checked once.
    # Remembered by place, then told apart by power and unit: every string of a case is new, and hashing one
    # costs more than comparing it (a place sees a few powers' armies and fleets in a batch)
    here = memo.get(at)
    if here is not None:
        for known_power, known_unit, known in here:
            if known_power == power and known_unit == unit:
                return known
    known = _read_force(rules, entry, f"{listed}[{n}]")
    if here is None:
        if len(memo) < _PLACES_MOST:
            memo[at] = [(power, unit, known)]
    elif len(here) < _AT_ONE_PLACE_MOST:
        here.append((power, unit, known))
    return known


_PLACES_MOST = 1 << 12
"""places remembered for one set of rules (a standard board has 81 locations; a bound against a batch of typos)"""
_AT_ONE_PLACE_MOST = 32
"""forces remembered at one place (standard: seven powers' armies and fleets; more would be read afresh)"""


def _read_force(rules: Rules, entry: dict[str, Any], where: str) -> Force:
    board = rules.board
    power = _power(board, entry.get("power"), where)
    try:
        composition = Composition.parse(str(entry.get("unit", "")))
    except ValueError as exc:
        raise CaseError(f"{where}: {exc}") from None
    location = read_location(board, entry.get("at", ""))
    province = board.provinces[province_of(location)]
    if composition.is_army or not province.holds_fleets:
        location = province.id  # a coast on an army means nothing
    facts = facts_of({key: entry[key] for key in rules.unit_facts if key in entry})
    force = Force(power, composition, location, facts)
    problem = rules.check_force(force)
    if problem:
        raise _Unfit(where, force, problem.text())
    return force


def read_position(rules: Rules, case: dict[str, Any], phase: Phase) -> Position:
    board = rules.board
    forces = _memo(rules, "forces")
    listed = case.get("units") or []
    units = _units(rules, listed, forces)
    sides = _sides(board, case.get("sides"))
    problem = rules.check_stacking(units, rules.side_of(sides))
    if problem:
        raise CaseError(f"units: {problem}")
    dislodged: list[Dislodged] = []
    for n, entry in enumerate(case.get("dislodged") or []):
        force = _force(rules, entry, "dislodged", n, forces)
        attacker = entry.get("attacker_from")
        origins = [attacker] if isinstance(attacker, str) else list(attacker or [])
        froms = [province_of(read_location(board, o)) for o in origins]
        attacker_from = froms[0] if froms else None
        retreats = entry.get("retreats")
        dislodged.append(
            Dislodged(
                force,
                attacker_from,
                bool(entry.get("by_convoy", False)),
                tuple(read_location(board, r) for r in retreats) if retreats is not None else None,
                tuple(froms[1:]),
            )
        )
    standoffs = frozenset(province_of(read_location(board, s)) for s in case.get("standoffs") or [])
    raw_centres = case.get("supply_centers")
    may_be_centre: dict[str, bool] = _memo(rules, "centres")
    centres: dict[str, str] = {}
    if raw_centres is None:
        for starting in board.powers.values():
            for home in starting.home:
                centres[home] = starting.name
    elif isinstance(raw_centres, dict):
        for key, provinces in raw_centres.items():
            power = _power(board, key, "supply_centers")
            for text in provinces or []:
                province = province_of(read_location(board, text))
                may_be = may_be_centre.get(province)
                if may_be is None:  # asked once a province for a set of rules: every case lists every owned centre
                    may_be = may_be_centre[province] = rules.may_be_centre(province)
                if not may_be:
                    raise CaseError(f"supply_centers: {province} is not a supply centre")
                centres[province] = power
    else:
        raise CaseError("supply_centers must map powers to lists of centres")
    if phase.type is not PhaseType.RETREAT and dislodged:
        raise CaseError("dislodged units are only given in a retreat phase")
    state = case.get("state", case.get("variant_state")) or {}
    if not isinstance(state, dict):
        raise CaseError("state must be an object")
    return Position(phase, tuple(units), centres, tuple(dislodged), standoffs, dict(state), sides)


def _sides(board: Board, raw: Any) -> dict[str, tuple[str, ...]]:
    """`sides`: player -> the powers that player controls; each power on one side at most."""
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise CaseError("sides must map each player to a list of powers")
    sides: dict[str, tuple[str, ...]] = {}
    seen: dict[str, str] = {}
    for player, powers in raw.items():
        if not isinstance(powers, list) or not powers:
            raise CaseError(f"sides: {player!r} must have a list of powers")
        named = tuple(_power(board, p, f"sides[{player!r}]") for p in powers)
        for power in named:
            if power in seen:
                raise CaseError(f"sides: {power} is on the sides of both {seen[power]!r} and {player!r}")
            seen[power] = str(player)
        sides[str(player)] = named
    return sides


def read_orders(rules: Rules, case: dict[str, Any]) -> list[Submitted]:
    board = rules.board
    raw = case.get("orders") or {}
    if not isinstance(raw, dict):
        raise CaseError("orders must map powers to lists of order lines")
    submitted: list[Submitted] = []
    for key, lines in raw.items():
        power = _power(board, key, "orders")
        if isinstance(lines, str):
            lines = [lines]
        if not isinstance(lines, list):
            raise CaseError(f"orders for {power} must be a list of lines")
        for line in lines:
            for read in read_line(board, str(line), rules.verbs):  # a line may hold several orders
                submitted.append(Submitted(power, read.text, read.order, read.error))
    return submitted


def _phase_json(phase: Phase, calendar: Calendar = STANDARD_CALENDAR) -> dict[str, Any]:
    """A phase as the variant names it: `Autumn` where its text says Autumn; years before Christ negative."""
    return {"season": calendar.season_name(phase.season), "year": phase.year, "type": phase.type.value}


def _units_json(variant: str, forces: tuple[Force, ...]) -> list[dict[str, Any]]:
    """The units by power, as the variant writes its forces (a Hoplite Wars mixed force: two entries)."""
    try:
        rules_class = get_variant(variant).rules_class
    except UnknownVariant:
        return [_unit_json(f) for f in forces]
    if "written_as" not in rules_class.overrides:
        return [_unit_json(f) for f in forces]  # each force is one unit (the standard way, the common case)
    written_as = rules_class.written_as
    return [_unit_json(unit) for f in forces for unit in written_as(f)]


def _unit_json(force: Force) -> dict[str, Any]:
    if force.facts:
        return {"power": force.power, "unit": str(force.composition), "at": force.at, **dict(force.facts)}
    return {"power": force.power, "unit": str(force.composition), "at": force.at}


def _dislodged_json(d: Dislodged) -> dict[str, Any]:
    return {
        **_unit_json(d.force),
        "attacker_from": [d.attacker_from, *d.also_from] if d.also_from else d.attacker_from,
        **({"by_convoy": True} if d.by_convoy else {}),
        "retreats": list(d.retreats or ()),
    }


def _centres_json(centres: dict[str, str]) -> dict[str, list[str]]:
    by_power: dict[str, list[str]] = {}
    for province, power in centres.items():
        by_power.setdefault(power, []).append(province)
    return {p: sorted(c) for p, c in sorted(by_power.items())}


def _calendar(variant: str) -> Calendar:
    try:
        return get_variant(variant).calendar
    except UnknownVariant:
        return STANDARD_CALENDAR


def _winner_json(outcome: Outcome) -> Any:
    """The winners: power or side names, or, where the variant tells kinds of win apart (CW Heptadiplomacy),
    each winning side with its kind of win: `[{"side": "England", "win": "two-way"}, ...]`."""
    if not outcome.winner or not outcome.wins:
        return outcome.winner
    return [{"side": side, "win": outcome.wins.get(side, "")} for side in outcome.winner]


def _sides_json(sides: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    return {"sides": {player: list(powers) for player, powers in sides.items()}} if sides else {}


def position_json(variant: str, position: Position) -> dict[str, Any]:
    """A position as a contract case without orders: what the store keeps, and a valid input to adjudicate."""
    return {
        "variant": variant,
        "phase": _phase_json(position.phase, _calendar(variant)),
        "units": _units_json(variant, position.units),
        "dislodged": [_dislodged_json(d) for d in position.dislodged],
        "standoffs": sorted(position.standoffs),
        "supply_centers": _centres_json(position.centres),
        **({"state": position.variant_state} if position.variant_state else {}),
        **_sides_json(position.sides),
    }


def position_from_json(rules: Rules, data: dict[str, Any]) -> Position:
    raw = data.get("phase") or {}
    phase = Phase.parse(str(raw["season"]), int(raw["year"]), str(raw["type"]))
    return read_position(rules, data, phase)


def _order_json(r: OrderResult) -> dict[str, Any]:
    """One order's result: the contract's keys, then the reasons as values and where the ordered unit stands
    (what the results mail needs, so it never reads the words back)."""
    reasons = r.reasons
    canonical = r.canonical
    out: dict[str, Any] = {
        "power": r.power,
        "input": r.input,
        "order": r.order,
        "result": str(r.result),
        "reason": text_of(reasons) if reasons else "",
        "reasons": [reason.json() for reason in reasons] if reasons else [],
        "at": canonical.unit.location if canonical is not None and canonical.unit is not None else None,
    }
    if canonical is not None:
        out["read"] = order_json(canonical)
    return out


def _event_json(event: Event) -> dict[str, Any]:
    """An event as the engine writes it; a die roll also with its orders as values (`read`), as an order line
    has, so the results print them without reading their words."""
    out = event.json()
    if isinstance(event, DieRoll):
        out["read"] = [order_json(o) for o in event.order]
    return out


def outcome_json(variant: str, outcome: Outcome) -> dict[str, Any]:
    calendar = _calendar(variant)
    return {
        "variant": variant,
        "phase": _phase_json(outcome.phase, calendar),
        "orders": [_order_json(r) for r in outcome.results],
        "units": _units_json(variant, outcome.units),
        "dislodged": [_dislodged_json(d) for d in outcome.dislodged],
        "standoffs": sorted(outcome.standoffs),
        "supply_centers": _centres_json(outcome.centres),
        "next_phase": _phase_json(outcome.next_phase, calendar),
        "events": [_event_json(e) for e in outcome.events],
        "winner": _winner_json(outcome),
        **({"state": outcome.variant_state} if outcome.variant_state else {}),
        **_sides_json(outcome.sides),
        "ownership_changes": [{"centre": c.centre, "from": c.before, "to": c.after} for c in outcome.ownership_changes],
        **(
            {
                "adjustments": {
                    power: {"centres": _count(a.centres), "units": _count(a.units), "change": _count(a.change)}
                    for power, a in outcome.adjustments.items()
                }
            }
            if outcome.adjustments
            else {}
        ),
    }


def _count(halves: int) -> int | float:
    """A count in half centres as JSON: whole numbers stay integers, a half is .5."""
    return halves // 2 if halves % 2 == 0 else halves / 2


def run_case(case: Any, variant_override: str | None = None) -> dict[str, Any]:
    """Adjudicate one case (a decoded JSON object) and return the outcome as a JSON-ready dict."""
    if not isinstance(case, dict):
        raise CaseError("a case is a JSON object")
    name = variant_override or str(case.get("variant", "standard"))
    try:
        variant = get_variant(name)
        options = case.get("options") or {}
        if not isinstance(options, dict):
            raise CaseError("options must be an object")
        rules: Rules = variant.rules(options)
    except (UnknownVariant, RuleOptionError) as exc:
        raise CaseError(str(exc).strip("'\"")) from None
    board = rules.board
    raw_phase = case.get("phase") or {}
    try:
        phase = Phase.parse(
            str(raw_phase.get("season", board.start_season)),
            int(raw_phase.get("year", board.start_year)),
            str(raw_phase.get("type", "Movement")),
        )
    except (ValueError, TypeError, AttributeError) as exc:
        raise CaseError(f"phase: {exc}") from None
    position = read_position(rules, case, phase)
    submitted = read_orders(rules, case)
    seed = case.get("seed", 0)
    if not isinstance(seed, int):
        raise CaseError("seed must be an integer")
    try:
        outcome = adjudicate(rules, position, submitted, seed)
    except RuleOptionError as exc:  # a phase the variant does not have (a placement phase in standard)
        raise CaseError(str(exc)) from None
    return outcome_json(variant.name, outcome)
