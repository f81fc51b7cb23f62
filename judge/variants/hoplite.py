"""Hoplite Wars (Stephen Agar; comments by Dylan O'Donnell), played with the Multiplicity II rules.

What departs from Multiplicity II (rule numbers of the Hoplite Wars text; rulings in docs/variants/hoplite.md):
- the map of ancient Greece (maps/hoplite.toml): 29 Cities and 23 Towns, a Town worth half a City (rule 2);
- each player a Major and its Minor, separate powers on one side: one power for self-dislodgement, mixed forces
  of both, separate centre charts and adjustments (rules 1, 3, 5); a mixed force is one force of the Major with
  the per-unit fact `minor` (the Minor's units in it), written as two entries;
- garrisons (`G`): half a centre, never move, support only units merging with them, disband when dislodged,
  may be disbanded in a Winter to free builds (rule 4);
- Towns change hands after every Spring and Autumn move, Cities after the Autumn (rule 8); a Minor's home City
  retaken by its Major goes back to the Minor (rule 5); builds in any owned City or Town, an army turned into a
  fleet (or back) in a Winter (rule 9);
- the colonies declare for random Majors at the end of the first Autumn (rule 6);
- Delphi may be sacked once: two units more in the next Winter, and no support from other players ever after
  (rule 7);
- the opening: initial builds in Winter 451 BC, multiples and garrisons allowed, home centres may stay empty,
  each Minor one unit or a double garrison (rules 1, 12); victory past 20 Cities' worth (rule 13).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from judge.board.model import Terrain, province_of
from judge.engine.adjustment import check_build
from judge.engine.binding import Binding
from judge.engine.events import Captured, ColonyDeclared, Sacked
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef, Verb
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import OrderResult, Outcome, Position, Result
from judge.engine.reasons import Note
from judge.engine.resolution import Detachment
from judge.engine.rules import EDITION_OPTION, RuleOption
from judge.engine.units import Composition, Force, facts_of
from judge.variants.multiplicity import Multiplicity2Rules

MINOR_OF = {
    "Achea": "Chalcis",
    "Aetolia": "Mantinea",
    "Argolis": "Pherae",
    "Athens": "Anactorium",
    "Boeotia": "Elis",
    "Sparta": "Elatea",
    "Thessaly": "Messene",
}
"""rule 1: each Major State controls one Minor State"""
MAJOR_OF = {minor: major for major, minor in MINOR_OF.items()}
COLONIES = ("chi", "pho", "cos", "rho", "les", "sam", "mil")
"""rule 6: Chios, Phocaea, Cos, Rhodes, Lesbos, Samos, Miletos"""
DELPHI = "del"
DELPHI_UNITS = 2
"""rule 7: the sacker raises two extra units"""
VICTORY_HALVES = 40
"""rule 13: the winner controls more than the equivalent of 20 Cities (in half centres, a Town 1, a City 2)"""
FIRST_AUTUMN_YEAR = -450
"""rules 6 and 12: the colonies declare at the end of the first Autumn move, Autumn 450 BC"""
NOTHING = Composition.of()


RAISED = " (Delphi)"
"""while a Winter is played, the units Delphi raised stand apart as a power of their own (`Athens (Delphi)`), so
that no removal, civil disorder or count of centres ever touches them (rule 7: "not dependent on supply
centres")"""


def major_of(power: str) -> str:
    """The Major of a power's side (a Minor's Major; the Major itself; the Major whose Delphi units these are)."""
    base = power.removesuffix(RAISED)
    return MAJOR_OF.get(base, base)


def _share(force: Force, key: str) -> Composition:
    text = force.fact(key)
    return Composition.parse(str(text)) if text else NOTHING


def _raised(force: Force) -> Composition:
    """The units of a force that Delphi raised."""
    return force.composition if force.power.endswith(RAISED) else _share(force, "delphi")


def _least(a: Composition, b: Composition) -> Composition:
    return Composition.of(min(a.armies, b.armies), min(a.fleets, b.fleets), min(a.garrisons, b.garrisons))


def _minus(a: Composition, b: Composition) -> Composition:
    return a.minus(b) or NOTHING


def _force(major: str, composition: Composition, at: str, minor: Composition, delphi: Composition) -> Force:
    """A force of one player, normalised: all the Minor's units make a force of the Minor; none, of the Major."""
    if minor.size and minor == composition:
        return Force(MINOR_OF[major], composition, at)
    facts = {"minor": str(minor) if minor.size else None, "delphi": str(delphi) if delphi.size else None}
    return Force(major, composition, at, facts_of({k: v for k, v in facts.items() if v is not None}))


class HopliteRules(Multiplicity2Rules):
    variant = "hoplite"
    OPTIONS: ClassVar[dict[str, RuleOption]] = {"edition": EDITION_OPTION}
    unit_facts: ClassVar[tuple[str, ...]] = ("minor", "delphi")
    verbs: ClassVar[Mapping[str, Verb]] = {
        "sack": Verb(OrderKind.SACK, "unit"),
        "capture": Verb(OrderKind.CAPTURE, "line"),
        "convert": Verb(OrderKind.CONVERT, "line"),
    }
    sides_stand_together = True

    # --- sides and mixed forces (rules 1, 3, 5) -------------------------------------------------------

    def fixed_sides(self) -> dict[str, tuple[str, ...]]:
        return {major: (major, minor) for major, minor in MINOR_OF.items()}

    def may_order(self, power: str, force: Force) -> bool:
        """A player orders his Major's and his Minor's units, and their mixed forces, from either power."""
        return major_of(power) == major_of(force.power)

    def gather(self, forces: Sequence[Force]) -> list[Force]:
        """A Major's and its Minor's units listed in one place are one mixed force (rule 3)."""
        out: list[Force] = []
        where: dict[tuple[str, str], int] = {}
        for force in forces:
            key = (major_of(force.power), force.province)
            if key not in where:
                where[key] = len(out)
                out.append(force)
                continue
            out[where[key]] = self._join(out[where[key]], force, None)
        return [_force(major_of(f.power), f.composition, f.at, NOTHING, f.composition) if f.power.endswith(RAISED)
                else f for f in out]  # fmt: skip

    @classmethod
    def written_as(cls, force: Force) -> tuple[Force, ...]:
        minor = _share(force, "minor")
        if not minor.size:
            return (force,)
        major = Force(force.power, _minus(force.composition, minor), force.at, facts_of(
            {k: v for k, v in force.facts if k != "minor"}
        ))  # fmt: skip
        return (major, Force(MINOR_OF[force.power], minor, force.at)) if major.composition.size else (major,)

    def _join(self, a: Force, b: Force, at: str | None) -> Force:
        """Two forces of one player in one place as one: where the place is not given, the coast one of them
        stands on (an army entry names no coast)."""
        major = major_of(a.power)
        minor = self._minor_part(a).plus(self._minor_part(b))
        delphi = _raised(a).plus(_raised(b))
        where = at or (b.at if "/" in b.at and "/" not in a.at else a.at)
        return _force(major, a.composition.plus(b.composition), where, minor, delphi)

    @staticmethod
    def _minor_part(force: Force) -> Composition:
        return force.composition if force.power in MAJOR_OF else _share(force, "minor")

    def share_out(self, force: Force, parts: Sequence[Composition]) -> list[Force]:
        """A mixed force's Minor units go with the parts in the order written (a SPLIT's parts, then what stays),
        as far as each part holds them; so do the units Delphi raised."""
        minor, delphi = self._minor_part(force), _share(force, "delphi")
        if not minor.size and not delphi.size:
            return [force.part(part) for part in parts]
        major = major_of(force.power)
        pieces = []
        for part in parts:
            mine = _least(minor, part)
            minor = _minus(minor, mine)
            raised = _least(delphi, _minus(part, mine))
            delphi = _minus(delphi, raised)
            pieces.append(_force(major, part, force.at, mine, raised))
        return pieces

    def _owner(self, force: Force) -> str:
        return major_of(force.power)  # a Major's and its Minor's detachments join as one mixed force (rule 3)

    def _joined(self, force: Force, other: Force, at: str) -> Force:
        return self._join(force, other, at)

    def attack_group_key(self, detachment: Detachment, index: int) -> object:
        """A merge of a Major's and its Minor's units attacks as one (rule 3)."""
        if detachment.merge is not None:
            return ("merge", major_of(detachment.power), detachment.merge)
        return index

    def costs(self, force: Force) -> list[tuple[str, int]]:
        """The Minor pays for its units in a mixed force (its own centre chart, rule 5); the units Delphi raised
        cost nothing (rule 7: "not dependent on supply centres")."""
        if force.power.endswith(RAISED):
            return []  # the units Delphi raised, while a Winter is played
        minor = self._minor_part(force)
        if force.power in MAJOR_OF:
            return [(force.power, minor.halves)]
        free = _share(force, "delphi")
        own = _minus(_minus(force.composition, minor), free)
        out = [(force.power, own.halves)]
        if minor.size:
            out.append((MINOR_OF[force.power], minor.halves))
        return out

    # --- units (rules 3 and 4) -----------------------------------------------------------------------

    def allows(self, composition: Composition) -> bool:
        return composition.size > 0

    def check_force(self, force: Force) -> str | None:
        """A garrison stands only in a City or Town (where it was built, rule 4); the rest of a force as usual."""
        composition = force.composition
        if not composition.garrisons:
            return super().check_force(force)
        province = self.board.provinces[force.province]
        if not province.supply_centre:
            return f"a garrison stands only in a City or Town, not in {province.id}"
        rest = Composition.of(composition.armies, composition.fleets)
        return super().check_force(replace(force, composition=rest)) if rest.size else None

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """Multiplicity II's strengths, a garrison counting as an army (rule 4: "the same as regular armies in all
        respects")."""
        if terrain is Terrain.LAND:
            return composition.armies + composition.garrisons
        return super().force_strength(composition, terrain)

    def order_problem(self, force: Force, order: Order) -> str | None:
        """A garrison never moves; it supports only units merging with it (rule 4), which it does by being named in
        their MERGE (Multiplicity II rule 3: merging forces support each other). A mixed force with a garrison
        supports elsewhere by naming its other units."""
        refused = super().order_problem(force, order)
        if refused or not force.composition.garrisons or order.kind is not OrderKind.SUPPORT:
            return refused
        into = order.destination or (order.target.location if order.target else "")
        if order.destination is not None and province_of(into) == force.province:
            return None
        return (
            f"a garrison supports only units merging with it (rule 4); {force.describe()} cannot give this support"
            + ("" if force.composition.size == force.composition.garrisons else " (name the units that can)")
        )

    def retreating(self, force: Force) -> Force | None:
        """Rule 4: "If a garrison unit is forced to retreat it disbands"; the rest of its force retreats."""
        if not force.composition.garrisons:
            return force
        rest = Composition.of(force.composition.armies, force.composition.fleets)
        if not rest.size:
            return None
        minor = _least(self._minor_part(force), rest)
        return _force(major_of(force.power), rest, force.at, minor, _least(_share(force, "delphi"), rest))

    # --- orders in a movement phase (rules 5 and 7) --------------------------------------------------

    def bind_movement(self, position: Position, submitted: Sequence[Submitted]) -> Binding:
        """Multiplicity II's binding, with a SACK read as the unit holding, and supports from other players for
        the units of the player who sacked Delphi refused (rule 7)."""
        sacker = position.variant_state.get("sacked_by")
        shunned: dict[int, str] = {}
        lines: list[Submitted] = []
        for k, sub in enumerate(submitted):
            order = sub.order
            if order is not None and order.kind is OrderKind.SACK and order.unit is not None:
                lines.append(replace(sub, order=Order(OrderKind.HOLD, order.unit)))
                continue
            if sacker and order is not None and order.kind is OrderKind.SUPPORT and order.target is not None:
                target = next((f for f in position.units if f.province == province_of(order.target.location)), None)
                if target is not None and major_of(target.power) == sacker != major_of(sub.power):
                    shunned[k] = (
                        f"{sacker} sacked Delphi: its units may not receive support from any other player (rule 7); "
                        "the unit holds"
                    )
                    lines.append(replace(sub, order=None, error=shunned[k]))
                    continue
            lines.append(sub)
        binding = super().bind_movement(position, lines)
        for k, sub in enumerate(submitted):
            row = binding.results[k]
            if k in shunned:
                row.canonical = sub.order
            elif sub.order is not None and sub.order.kind is OrderKind.SACK:
                row.canonical = sub.order
                if row.result is not Result.ILLEGAL:
                    self._check_sack(position, sub, row)
            elif sub.order is not None and sub.order.kind is OrderKind.CAPTURE:
                self._check_capture(position, sub, row)
        return binding

    def _check_sack(self, position: Position, sub: Submitted, row: OrderResult) -> None:
        assert sub.order is not None and sub.order.unit is not None
        if province_of(sub.order.unit.location) != DELPHI:
            row.result, row.reasons = Result.ILLEGAL, [Note("only Delphi can be sacked (rule 7); the unit holds")]
        elif position.variant_state.get("sacked_by"):
            row.result, row.reasons = Result.ILLEGAL, [Note("Delphi may only be sacked once; the unit holds")]
        else:
            row.result, row.reasons = Result.FAILS, []  # until the phase is resolved

    def _check_capture(self, position: Position, sub: Submitted, row: OrderResult) -> None:
        found = self._capture(sub)
        if isinstance(found, str):
            row.result, row.reasons = Result.ILLEGAL, [Note(found)]
            return
        row.result, row.reasons = Result.SUCCEEDS, []
        if position.phase.season == "Spring" and self.board.provinces[found[0]].centre_kind != "town":
            row.result = Result.ILLEGAL
            row.reasons = [Note(f"{found[0]} is a City: Cities change hands only after the Autumn (rule 8)")]

    def _capture(self, sub: Submitted) -> tuple[str, str] | str:
        """`CAPTURE Meg FOR Anactorium`: the centre and the Minor that takes it, or why the line is refused."""
        assert sub.order is not None
        match = re.fullmatch(r"\s*(.+?)\s+for\s+(.+?)\s*", sub.order.words, flags=re.I)
        if match is None:
            return "write CAPTURE <centre> FOR <your Minor>, e.g. CAPTURE Meg FOR Anactorium"
        place = self.board.lookup(match[1])
        power = self.board.lookup_power(match[2])
        if place is None or not self.board.provinces[province_of(place)].supply_centre:
            return f"{match[1]} is not a City or Town"
        if power is None or power not in MAJOR_OF or MAJOR_OF[power] != major_of(sub.power):
            return f"{match[2]} is not your Minor State"
        return province_of(place), power

    # --- ownership (rules 5, 6, 8) ------------------------------------------------------------------

    def take_ownership(self, centres: dict[str, str], units: Sequence[Force], phase: Phase) -> dict[str, str]:
        """Towns change hands after every Spring and Autumn move, Cities after the Autumn (rule 8); a Minor's home
        City retaken by its Major returns to the Minor (rule 5)."""
        updated = dict(centres)
        provinces = self.board.provinces
        spring = phase.season == "Spring"
        for force in units:
            province = provinces[force.province]
            if not province.supply_centre or (spring and province.centre_kind != "town"):
                continue
            owner = force.power
            minor = MINOR_OF.get(owner)
            if minor is not None and province.id in self.board.powers[minor].home:
                owner = minor
            updated[province.id] = owner
        return updated

    # --- builds (rules 1, 4, 7, 9) -----------------------------------------------------------------

    def home_centres(self, power: str, state: Mapping[str, Any], centres: Mapping[str, str]) -> tuple[str, ...]:
        """Rule 9: builds in any City or Town the power controls (a declared colony included)."""
        return tuple(sorted(c for c, owner in centres.items() if owner == power))

    def build_site_problem(
        self,
        power: str,
        province: str,
        centres: dict[str, str],
        units: Sequence[Force],
        built_at: set[str],
        state: Mapping[str, Any] | None = None,
    ) -> str | None:
        """Rule 9: any City or Town the power controls, one build a province, held by no other player's unit (a
        build onto the player's own units there makes a multiple, rule 3)."""
        if centres.get(province) != power:
            return f"{power} does not control {province}"
        if province in built_at:
            return f"a unit was already built in {province} (one build a province)"
        side = major_of(power)
        if any(f.province == province and major_of(f.power) != side for f in units):
            return f"{province} is held by another player's unit"
        return None

    def build_problem(self, built: Force, units: Sequence[Force], phase: Phase) -> str | None:
        """The opening (rule 1): a Major builds what it likes on its home centres, multiples and garrisons too,
        and may leave some empty; a Minor starts with a single unit, or a double garrison."""
        if phase not in self.calendar.opening or built.power not in MAJOR_OF:
            return None
        composition = built.composition
        if not (composition.is_single or composition == Composition.of(garrisons=2)):
            return f"a Minor State starts with a single unit or a double garrison (rule 1), not {composition}"
        if any(f.power == built.power for f in units):
            return f"{built.power} already has its unit: a Minor State starts with a single unit (rule 1)"
        return None

    def extra_builds(self, state: Mapping[str, Any]) -> dict[str, int]:
        due = state.get("delphi_builds")
        if not isinstance(due, dict):
            return {}
        return {str(power): 2 * int(n) for power, n in due.items()}

    def winter_always(self, centres: dict[str, str], state: dict[str, Any]) -> bool:
        return bool(state.get("delphi_builds"))

    def adjudicate_adjustment(self, position: Position, submitted: Sequence[Submitted]) -> Outcome:
        """The Winter: the units Delphi raises, conversions between army and fleet and voluntary garrison
        disbands first (rules 7, 9 and 4), then builds and removals as usual, each power on its own chart. While it
        is played the Minor's units of a mixed force stand as the Minor's, and Delphi's units as a power of their
        own that owes nothing and is owed nothing."""
        from judge.engine.adjustment import adjudicate_adjustment
        from judge.engine.supply import balances

        units = [unit for force in position.units for unit in self._winter_units(force)]
        state = {k: v for k, v in position.variant_state.items() if k != "delphi_builds"}
        raising = {str(p): int(n) for p, n in (position.variant_state.get("delphi_builds") or {}).items()}
        owed = balances(self, position.centres, units, state)
        early: dict[int, OrderResult] = {}
        rest: list[Submitted] = []
        for k, sub in enumerate(submitted):
            order = sub.order
            if order is not None and order.kind is OrderKind.CONVERT:
                early[k] = self._convert(sub, units, position.centres)
            elif order is not None and order.kind is OrderKind.BUILD and raising.get(sub.power):
                early[k] = self._raise(sub, units, position, raising)
            elif (
                order is not None
                and order.kind in (OrderKind.DISBAND, OrderKind.REMOVE)
                and order.unit is not None
                and owed.get(sub.power, 0) >= 0
            ):
                early[k] = self._disband_garrison(sub, units)
            else:
                rest.append(sub)
        outcome = adjudicate_adjustment(self, replace(position, units=tuple(units), variant_state=state), rest)
        results: list[OrderResult] = []
        later = iter(outcome.results)
        for k in range(len(submitted)):
            results.append(early[k] if k in early else next(later))
        results.extend(later)  # civil-disorder removals the judge added
        outcome.results = results
        outcome.units = tuple(self.gather(outcome.units))
        return outcome

    def _winter_units(self, force: Force) -> list[Force]:
        """A force as the Winter sees it: the Major's, the Minor's and Delphi's units apart."""
        out = []
        for unit in self.written_as(force):
            raised = _share(unit, "delphi")
            rest = _minus(unit.composition, raised)
            if rest.size:
                out.append(Force(unit.power, rest, unit.at))
            if raised.size:
                out.append(Force(major_of(unit.power) + RAISED, raised, unit.at))
        return out

    def _raise(self, sub: Submitted, units: list[Force], position: Position, raising: dict[str, int]) -> OrderResult:
        """Rule 7: the first units the sacker builds in the Winter after the sack are the two Delphi raises, beyond
        his centres (refused like any build that cannot stand where it is ordered)."""
        assert sub.order is not None and sub.order.unit is not None
        row = OrderResult(sub.power, sub.text, sub.order, Result.ILLEGAL)
        built, why = check_build(self, sub.power, sub.order, position, units, set())
        if built is None:
            row.reasons = [Note(why)]
            return row
        if built.composition.size > raising[sub.power]:
            row.reasons = [Note(f"Delphi raises {raising[sub.power]} more unit(s), not {built.composition}")]
            return row
        problem = self.check_force(built)
        if problem:
            row.reasons = [Note(problem)]
            return row
        raising[sub.power] -= built.composition.size
        units.append(Force(sub.power + RAISED, built.composition, built.at))
        row.canonical = Order(OrderKind.BUILD, UnitRef(built.composition, built.at))
        row.result = Result.SUCCEEDS
        row.reasons = [Note("raised by the sack of Delphi, beyond the centres (rule 7)")]
        return row

    def _convert(self, sub: Submitted, units: list[Force], centres: Mapping[str, str]) -> OrderResult:
        """`CONVERT A ath TO F`: an army in a City or Town becomes a fleet, or a fleet an army (rule 9)."""
        assert sub.order is not None
        row = OrderResult(sub.power, sub.text, sub.order, Result.ILLEGAL)
        match = re.fullmatch(r"\s*(.+?)\s+(?:to|into|->|=)\s+(\w)\s*(\S*)\s*", sub.order.words, flags=re.I)
        if match is None:
            row.reasons = [Note("write CONVERT A <centre> TO F (or CONVERT F <centre> TO A)")]
            return row
        from judge.notation.parse import OrderSyntaxError, parse_order

        try:
            named = parse_order(self.board, match[1])
        except OrderSyntaxError as refused:
            row.reasons = [Note(refused.why)]
            return row
        wanted = match[2].lower()
        if named.unit is None or named.unit.composition is None or wanted not in ("a", "f"):
            row.reasons = [Note("name one army or fleet and what it becomes: CONVERT A ath TO F")]
            return row
        old = named.unit.composition
        new = Composition.of(armies=1) if wanted == "a" else Composition.of(fleets=1)
        province = province_of(named.unit.location)
        if not old.is_single or old.garrisons or old == new:
            row.reasons = [Note(f"an army becomes a fleet or a fleet an army, not {old} into {new}")]
            return row
        if not self.board.provinces[province].supply_centre:
            row.reasons = [Note(f"a unit converts only in a City or Town (rule 9), not in {province}")]
            return row
        mine = (sub.power, sub.power + RAISED)  # its own units, and the units Delphi raised for it
        at = next(
            (
                i
                for i, f in enumerate(units)
                if f.province == province and f.power in mine and f.composition.minus(old) is not None
            ),
            None,
        )
        if at is None:
            row.reasons = [Note(f"{sub.power} has no {old} in {province}")]
            return row
        force = units[at]
        location = force.at if _minus(force.composition, old).fleets else province  # an army names no coast
        if new.fleets and "/" not in location:  # a fleet joining fleets on a coast stands on that coast
            coast = (match[3] or "").strip("()/").lower()
            coasts = self.board.provinces[province].coasts
            if coasts:
                coast = coast.rpartition("/")[2]
                if coast not in coasts:
                    row.reasons = [Note(f"say on which coast of {province} the fleet stands: {', '.join(coasts)}")]
                    return row
                location = f"{province}/{coast}"
        converted = Force(force.power, _minus(force.composition, old).plus(new), location, force.facts)
        problem = self.check_force(converted)
        if problem:
            row.reasons = [Note(problem)]
            return row
        units[at] = converted
        row.canonical = Order(OrderKind.CONVERT, None, words=f"{old} {force.at} to {new}")
        row.result, row.reasons = Result.SUCCEEDS, []
        return row

    def _disband_garrison(self, sub: Submitted, units: list[Force]) -> OrderResult:
        """Rule 4: a power may disband any number of garrisons in a Winter, and build with what that frees."""
        assert sub.order is not None and sub.order.unit is not None
        ref = sub.order.unit
        row = OrderResult(sub.power, sub.text, replace(sub.order, kind=OrderKind.DISBAND), Result.ILLEGAL)
        wanted = (ref.composition or Composition.of(garrisons=1)).times(ref.count or 1)
        province = province_of(ref.location)
        if wanted.armies or wanted.fleets:
            row.reasons = [
                Note(f"{sub.power} has no removals to make; only garrisons may be disbanded at will (rule 4)")
            ]
            return row
        at = next((i for i, f in enumerate(units) if f.province == province and f.power == sub.power), None)
        if at is None or units[at].composition.minus(wanted) is None:
            row.reasons = [Note(f"{sub.power} has no {wanted} in {province}")]
            return row
        force = units[at]
        left = _minus(force.composition, wanted)
        if left.size:
            units[at] = Force(force.power, left, force.at, force.facts)
        else:
            del units[at]
        row.canonical = Order(OrderKind.DISBAND, UnitRef(wanted, force.at))
        row.result = Result.SUCCEEDS
        return row

    # --- what changes after a phase (rules 5, 6, 7) and victory (rule 13) ----------------------------

    def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
        kind = position.phase.type
        state = outcome.variant_state
        if kind is PhaseType.MOVEMENT:
            self._sacks(position, outcome)
            captures = [c for c in self._captures(outcome.results)]
            if outcome.next_phase.type is PhaseType.RETREAT:
                if captures:
                    state["captures"] = [list(c) for c in captures]
            elif self.calendar.ownership_changes(position.phase):
                self._apply_captures(outcome, captures)
        elif kind is PhaseType.RETREAT:
            captures = [(str(a), str(b)) for a, b in state.pop("captures", [])]
            if self.calendar.ownership_changes(position.phase):
                self._apply_captures(outcome, captures)
        autumn_over = (
            kind in (PhaseType.MOVEMENT, PhaseType.RETREAT)
            and self.calendar.ends_year(position.phase)
            and outcome.next_phase.type is not PhaseType.RETREAT
        )
        if autumn_over and position.phase.year == FIRST_AUTUMN_YEAR and "colonies_declared" not in state:
            self._colonies_declare(outcome, rng)
            from judge.engine.supply import adjustments_needed

            if outcome.next_phase.type is PhaseType.MOVEMENT and adjustments_needed(
                self, outcome.centres, outcome.units, state
            ):  # a colony is half a build: its Major may build this Winter
                outcome.next_phase = Phase(self.calendar.adjustment_season, position.phase.year, PhaseType.ADJUSTMENT)

    def _sacks(self, position: Position, outcome: Outcome) -> None:
        for row in outcome.results:
            order = row.canonical
            if order is None or order.kind is not OrderKind.SACK or row.result is Result.ILLEGAL:
                continue
            dislodged = any(d.force.province == DELPHI for d in outcome.dislodged)
            if dislodged:
                row.result, row.reasons = Result.FAILS, [Note("dislodged from Delphi: the sack fails")]
                continue
            sacker = major_of(row.power)
            row.result, row.reasons = Result.SUCCEEDS, []
            outcome.variant_state["sacked_by"] = sacker
            outcome.variant_state["delphi_builds"] = {sacker: DELPHI_UNITS}
            outcome.events.append(Sacked(row.power, sacker, DELPHI))
            following = outcome.next_phase.type
            if following is PhaseType.MOVEMENT and self.calendar.ends_year(position.phase):
                # the two units are built "in the next adjustment phase": this winter is played for them
                outcome.next_phase = Phase(self.calendar.adjustment_season, position.phase.year, PhaseType.ADJUSTMENT)

    def _captures(self, results: Iterable[OrderResult]) -> list[tuple[str, str]]:
        out = []
        for row in results:
            order = row.canonical
            if order is not None and order.kind is OrderKind.CAPTURE and row.result is Result.SUCCEEDS:
                found = self._capture(Submitted(row.power, row.input, order))
                if not isinstance(found, str):
                    out.append(found)
        return out

    def _apply_captures(self, outcome: Outcome, captures: list[tuple[str, str]]) -> None:
        """Rule 5's comment: a centre a mixed force captures is the Major's unless the player says otherwise."""
        for province, minor in captures:
            major = MAJOR_OF[minor]
            if outcome.centres.get(province) == major and any(
                f.province == province and major_of(f.power) == major for f in outcome.units
            ):
                outcome.centres[province] = minor
                outcome.events.append(Captured(minor, province))

    def _colonies_declare(self, outcome: Outcome, rng: random.Random) -> None:
        """Rule 6: each colony declares for a different Major, drawn at random, and the Major controls it."""
        majors = sorted(MINOR_OF)
        rng.shuffle(majors)
        declared = dict(zip(COLONIES, majors, strict=True))
        for colony, major in declared.items():
            outcome.centres[colony] = major
            outcome.events.append(ColonyDeclared(colony, major))
        outcome.variant_state["colonies_declared"] = declared

    def winners_after_fall(self, centres: dict[str, str]) -> list[str] | None:
        """Rule 13: the first player to control more than the equivalent of 20 Cities, his Major's and Minor's
        centres together (a Town half a City)."""
        from judge.engine.supply import centre_values

        worth: dict[str, int] = {}
        for power, halves in centre_values(self, centres).items():
            worth[major_of(power)] = worth.get(major_of(power), 0) + halves
        return sorted(p for p, n in worth.items() if n > VICTORY_HALVES) or None
