"""Hoplite Wars (Stephen Agar; comments by Dylan O'Donnell), played with the Multiplicity II rules.

What departs from Multiplicity II (rule numbers of the Hoplite Wars text; rulings in docs/variants/hoplite.md):
- the map of ancient Greece (maps/hoplite.toml): 29 Cities and 23 Towns, a Town worth half a City (rule 2);
- each player a Major and its Minor, separate powers on one side: one power for self-dislodgement, mixed forces
  of both, separate centre charts and adjustments (rules 1, 3, 5); a mixed force is one force of the Major with
  the per-unit fact `minor` (the Minor's units in it), written as two entries;
- garrisons (`G`): half a centre, never move, support only units combining with them, disband when dislodged,
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
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from judge.board.model import Terrain, province_of
from judge.engine.adjustment import check_build
from judge.engine.binding import Binding
from judge.engine.events import BuildsWaived, Captured, ColonyDeclared, Event, Sacked
from judge.engine.orders import Order, OrderKind, Submitted, UnitRef, Verb
from judge.engine.phase import Phase, PhaseType
from judge.engine.position import OrderResult, Outcome, Position, Result
from judge.engine.reasons import UnitName
from judge.engine.refusals import (
    AndSo,
    BuiltAlready,
    CityInSpring,
    ConvertsArmyOrFleet,
    ConvertsInCentre,
    ConvertWhat,
    ConvertWhichCoast,
    DelphiRaises,
    GarrisonOffCentre,
    GarrisonsOnly,
    GarrisonSupport,
    MinorOpening,
    NoOwnUnitAt,
    NotACentre,
    NotOwned,
    NotYourMinor,
    Occupied,
    RaisedByDelphi,
    Refusal,
    SackedOnce,
    SackerShunned,
    SackFailed,
    SackOnlyDelphi,
    SacksWhereItStands,
    Then,
    unit_name,
)
from judge.engine.resolution import Detachment
from judge.engine.rules import EDITION_OPTION, VICTORY_OPTION, RuleOption
from judge.engine.units import Composition, Force, facts_of
from judge.value import replace
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


def _with_raises_waived(events: list[Event], raising: Mapping[str, int]) -> list[Event]:
    """The Winter's waived builds with the Delphi raises not made (rule 7: they are built "in the next adjustment
    phase", or not at all), in half centres like every other build (`Rules.extra_builds`)."""
    left = {power: 2 * n for power, n in raising.items() if n > 0}
    out: list[Event] = []
    for event in events:
        if isinstance(event, BuildsWaived) and event.power in left:
            event = BuildsWaived(event.power, event.halves + left.pop(event.power))
        out.append(event)
    out.extend(BuildsWaived(power, halves) for power, halves in sorted(left.items()))
    return out


class HopliteRules(Multiplicity2Rules):
    variant = "hoplite"
    OPTIONS: ClassVar[dict[str, RuleOption]] = {"edition": EDITION_OPTION, "victory_centres": VICTORY_OPTION}
    unit_facts: ClassVar[tuple[str, ...]] = ("minor", "delphi")
    verbs: ClassVar[Mapping[str, Verb]] = {
        "sack": Verb(OrderKind.SACK, "unit", "SACK Delphi, or A(Del) SACK Delphi"),
        "capture": Verb(
            OrderKind.CAPTURE, "place for power", "CAPTURE <centre> FOR <your Minor>, e.g. CAPTURE Meg FOR Anactorium"
        ),
        "convert": Verb(OrderKind.CONVERT, "unit becomes", "CONVERT A <centre> TO F (or CONVERT F <centre> TO A)"),
        "transform": Verb(OrderKind.CONVERT, "unit becomes", "Transform A(Cor) to F (or Transform F(Cor) to A)"),
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

    def check_force(self, force: Force) -> Refusal | None:
        """A garrison stands only in a City or Town (where it was built, rule 4); the rest of a force as usual."""
        composition = force.composition
        if not composition.garrisons:
            return super().check_force(force)
        province = self.board.provinces[force.province]
        if not province.supply_centre:
            return GarrisonOffCentre(province.id)
        rest = Composition.of(composition.armies, composition.fleets)
        return super().check_force(replace(force, composition=rest)) if rest.size else None

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """Multiplicity II's strengths, a garrison counting as an army (rule 4: "the same as regular armies in all
        respects")."""
        if terrain is Terrain.LAND:
            return composition.armies + composition.garrisons
        return super().force_strength(composition, terrain)

    def order_problem(self, force: Force, order: Order) -> Refusal | None:
        """A garrison never moves; it supports only units merging with it (rule 4), which it does by being named in
        their MERGE (Multiplicity II rule 3: merging forces support each other). A mixed force with a garrison
        supports elsewhere by naming its other units."""
        refused = super().order_problem(force, order)
        if refused or not force.composition.garrisons or order.kind is not OrderKind.SUPPORT:
            return refused
        into = order.destination or (order.target.location if order.target else "")
        if order.destination is not None and province_of(into) == force.province:
            return None
        return GarrisonSupport(unit_name(force), force.composition.size != force.composition.garrisons)

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
        refused: dict[int, Refusal] = {}
        sacks: dict[int, Order] = {}
        lines: list[Submitted] = []
        for k, sub in enumerate(submitted):
            order = sub.order
            if order is not None and order.kind is OrderKind.SACK:
                sack = self._sacking(position, sub.power, order)
                if isinstance(sack, Refusal):
                    refused[k] = sack
                    lines.append(replace(sub, order=None))  # its row is answered below
                else:
                    sacks[k] = sack
                    lines.append(replace(sub, order=Order(OrderKind.HOLD, sack.unit)))
                continue
            if sacker and order is not None and order.kind is OrderKind.SUPPORT and order.target is not None:
                target = next((f for f in position.units if f.province == province_of(order.target.location)), None)
                if target is not None and major_of(target.power) == sacker != major_of(sub.power):
                    refused[k] = AndSo(SackerShunned(sacker), Then.UNIT)
                    lines.append(replace(sub, order=None))  # its row is answered below
                    continue
            lines.append(sub)
        binding = super().bind_movement(position, lines)
        for k, sub in enumerate(submitted):
            row = binding.results[k]
            if k in refused:
                row.canonical, row.reasons = sub.order, (refused[k],)
            elif k in sacks:
                row.canonical = sacks[k]
                if row.result is not Result.ILLEGAL:
                    self._check_sack(position, sacks[k], row)
            elif sub.order is not None and sub.order.kind is OrderKind.CAPTURE:
                self._check_capture(position, sub.power, sub.order, row)
        return binding

    def _sacking(self, position: Position, power: str, order: Order) -> Order | Refusal:
        """The SACK order as the unit it concerns (rule 7: "The specific order 'SACK Delphi' must be written"; "Any
        occupying unit may sack Delphi"): `SACK Delphi` names the unit there, `A(Del) SACK Delphi` names it and
        the place again, which must be where it stands."""
        assert order.unit is not None
        if order.destination is not None and province_of(order.destination) != province_of(order.unit.location):
            named = UnitName(power, str(order.unit.composition or ""), order.unit.location)
            return AndSo(SacksWhereItStands(named, province_of(order.destination)), Then.UNIT)
        return Order(OrderKind.SACK, order.unit)

    def _check_sack(self, position: Position, order: Order, row: OrderResult) -> None:
        assert order.unit is not None
        if province_of(order.unit.location) != DELPHI:
            row.result, row.reasons = Result.ILLEGAL, [AndSo(SackOnlyDelphi(), Then.UNIT)]
        elif position.variant_state.get("sacked_by"):
            row.result, row.reasons = Result.ILLEGAL, [AndSo(SackedOnce(), Then.UNIT)]
        else:
            row.result, row.reasons = Result.FAILS, []  # until the phase is resolved

    def _check_capture(self, position: Position, power: str, order: Order, row: OrderResult) -> None:
        found = self._capture(power, order)
        if isinstance(found, Refusal):
            row.result, row.reasons = Result.ILLEGAL, [found]
            return
        row.result, row.reasons = Result.SUCCEEDS, []
        if position.phase.season == "Spring" and self.board.provinces[found[0]].centre_kind != "town":
            row.result = Result.ILLEGAL
            row.reasons = [CityInSpring(found[0])]

    def _capture(self, power: str, order: Order) -> tuple[str, str] | Refusal:
        """`CAPTURE Meg FOR Anactorium`, as the reader read it: the centre and the Minor that takes it, or why the
        line is refused."""
        province = province_of(order.destination or "")
        minor = order.for_power or ""
        if province not in self.board.provinces or not self.board.provinces[province].supply_centre:
            return NotACentre(province)
        if minor not in MAJOR_OF or MAJOR_OF[minor] != major_of(power):
            return NotYourMinor(minor)
        return province, minor

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
    ) -> Refusal | None:
        """Rule 9: any City or Town the power controls, one build a province, held by no other player's unit (a
        build onto the player's own units there makes a multiple, rule 3)."""
        if centres.get(province) != power:
            return NotOwned(power, province, controls=True)
        if province in built_at:
            return BuiltAlready(province)
        side = major_of(power)
        if any(f.province == province and major_of(f.power) != side for f in units):
            return Occupied(province, "player")
        return None

    def build_problem(self, built: Force, units: Sequence[Force], phase: Phase) -> Refusal | None:
        """The opening (rule 1): a Major builds what it likes on its home centres, multiples and garrisons too,
        and may leave some empty; a Minor starts with a single unit, or a double garrison."""
        if phase not in self.calendar.opening or built.power not in MAJOR_OF:
            return None
        composition = built.composition
        if not (composition.is_single or composition == Composition.of(garrisons=2)):
            return MinorOpening(built.power, composition)
        if any(f.power == built.power for f in units):
            return MinorOpening(built.power, composition, again=True)
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
        outcome.events = _with_raises_waived(outcome.events, raising)
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
            assert why is not None
            row.reasons = [why]
            return row
        if built.composition.size > raising[sub.power]:
            row.reasons = [DelphiRaises(raising[sub.power], built.composition)]
            return row
        problem = self.check_force(built)
        if problem:
            row.reasons = [problem]
            return row
        raising[sub.power] -= built.composition.size
        units.append(Force(sub.power + RAISED, built.composition, built.at))
        row.canonical = Order(OrderKind.BUILD, UnitRef(built.composition, built.at))
        row.result = Result.SUCCEEDS
        row.reasons = [RaisedByDelphi()]
        return row

    def _convert(self, sub: Submitted, units: list[Force], centres: Mapping[str, str]) -> OrderResult:
        """`CONVERT A ath TO F`, `Transform A(Cor) to F`, as the reader read them (the unit, and what it becomes in
        `target`): an army in a City or Town becomes a fleet, or a fleet an army (rule 9)."""
        order = sub.order
        assert order is not None
        row = OrderResult(sub.power, sub.text, order, Result.ILLEGAL)
        named, becomes = order.unit, order.target
        if named is None or named.composition is None or becomes is None or becomes.composition is None:
            row.reasons = [ConvertWhat()]
            return row
        old, new = named.composition, becomes.composition
        province = province_of(named.location)
        if not old.is_single or old.garrisons or not new.is_single or new.garrisons or old == new:
            row.reasons = [ConvertsArmyOrFleet(old, new)]
            return row
        if not self.board.provinces[province].supply_centre:
            row.reasons = [ConvertsInCentre(province)]
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
            row.reasons = [NoOwnUnitAt(sub.power, province, old)]
            return row
        force = units[at]
        location = force.at if _minus(force.composition, old).fleets else province  # an army names no coast
        if new.fleets and "/" not in location:  # a fleet joining fleets on a coast stands on that coast
            coasts = self.board.provinces[province].coasts
            if coasts:
                coast = becomes.location.partition("/")[2]
                if coast not in coasts:
                    row.reasons = [ConvertWhichCoast(province, coasts)]
                    return row
                location = f"{province}/{coast}"
        converted = Force(force.power, _minus(force.composition, old).plus(new), location, force.facts)
        problem = self.check_force(converted)
        if problem:
            row.reasons = [problem]
            return row
        units[at] = converted
        row.canonical = Order(OrderKind.CONVERT, UnitRef(old, force.at), target=UnitRef(new, location))
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
            row.reasons = [GarrisonsOnly(sub.power)]
            return row
        at = next((i for i, f in enumerate(units) if f.province == province and f.power == sub.power), None)
        if at is None or units[at].composition.minus(wanted) is None:
            row.reasons = [NoOwnUnitAt(sub.power, province, wanted)]
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
                row.result, row.reasons = Result.FAILS, [SackFailed()]
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
                found = self._capture(row.power, order)
                if not isinstance(found, Refusal):
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
        centres together (a Town half a City); where the GM set a count (`victory_centres`), that many Cities'
        worth, the side's powers together still."""
        from judge.engine.supply import centre_values

        worth: dict[str, int] = {}
        for power, halves in centre_values(self, centres).items():
            worth[major_of(power)] = worth.get(major_of(power), 0) + halves
        need = 2 * self.victory_centres() if self.options.get("victory_centres") else VICTORY_HALVES + 1
        return sorted(p for p, n in worth.items() if n >= need) or None
