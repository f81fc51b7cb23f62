"""Rule editions and variant rules as small policy objects the resolver asks, instead of `if` branches.

`Edition` holds the points where the rulebooks (1971, 1982, 2000, 2023) differ and the DATC states a
preference; the default is the DATC v3 preference (the 2023 rulebook). `Rules` bundles the board, the edition
and the variant's own hooks; standard Diplomacy uses it as is.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import FunctionType
from typing import TYPE_CHECKING, Any, ClassVar

from judge.board.model import Board, Terrain
from judge.engine.calendar import STANDARD_CALENDAR, Calendar
from judge.engine.edition import DEFAULT_EDITION
from judge.engine.edition import EDITION_OPTION as EDITION_OPTION  # named here too, where the variants read it
from judge.engine.edition import EDITIONS as EDITIONS
from judge.engine.edition import VICTORY_OPTION as VICTORY_OPTION
from judge.engine.edition import Edition as Edition
from judge.engine.edition import RuleOption as RuleOption
from judge.engine.orders import OrderKind, Verb
from judge.engine.refusals import (
    ArmyOnCoast,
    BuiltAlready,
    CannotStand,
    FleetNeedsCoast,
    GarrisonNeverMoves,
    NotAUnit,
    NotHome,
    NotMultiple,
    NotOwned,
    Occupied,
    Refusal,
    unit_name,
)
from judge.engine.units import Composition, Force, stacking_problem

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

    from judge.engine.binding import Binding
    from judge.engine.orders import Order, Submitted
    from judge.engine.phase import Phase
    from judge.engine.position import Outcome, Position
    from judge.engine.resolution import Detachment
    from judge.engine.view import MovementView

CUT_ALL = 1 << 30
"""a cut amount that cuts every share of a support"""


class RuleOptionError(ValueError):
    """An unknown option name or value in a case or a game's settings."""


_BUILT: dict[tuple[object, ...], Rules] = {}
"""rules already built, by class, board, calendar and options; the board and calendar are keyed by identity, and
the rules kept here keep them alive, so an identity is never reused while its key is here"""
_BUILT_MOST = 64


class Rules:
    """Standard Diplomacy's answers to the questions the engine asks; variants subclass and override.

    Not a `Value` (judge/value.py), though written in its manner (fields named in `names`, set once by a
    written-out `__init__`, compared over them): the rules are the variant's rule module, which the variants
    subclass, and this module stays interpreted for that (judge/speedups.py), where a class cannot subclass the
    compiled `Value`. Rules are built once and shared (`build`) and never changed."""

    board: Board
    edition: Edition
    options: dict[str, Any]
    """every option of the variant, with defaults filled in"""
    calendar: Calendar
    """the variant's phases and how they are written (its descriptor gives it)"""
    known: dict[tuple[str, ...], Any]
    """what callers work out from these rules alone and ask again and again, by the caller's own key (the
    contract's forces read from a case's units): rules are built once and shared (`build`), so this lives as
    long as they do; not compared nor shown"""

    names: ClassVar[tuple[str, ...]] = ("board", "edition", "options", "calendar")
    """the fields that make the rules what they are (compared and shown), in the order `__init__` takes them"""

    def __init__(
        self,
        board: Board,
        edition: Edition,
        options: dict[str, Any] | None = None,
        calendar: Calendar = STANDARD_CALENDAR,
        known: dict[tuple[str, ...], Any] | None = None,
    ) -> None:
        self.board = board
        self.edition = edition
        self.options = {} if options is None else options
        self.calendar = calendar
        self.known = {} if known is None else known

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Rules):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.names)

    __hash__ = None  # type: ignore[assignment]  # its options are a dict: never a key, as the dataclass was not

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.names)
        return f"{self.__class__.__qualname__}({fields})"

    variant: ClassVar[str] = "standard"
    OPTIONS: ClassVar[dict[str, RuleOption]] = {"edition": EDITION_OPTION, "victory_centres": VICTORY_OPTION}
    refused_options: ClassVar[Mapping[str, str]] = {}
    """options other variants take that this one refuses, each with why (CW Heptadiplomacy is won by claims, not
    by a count of centres: `victory_centres`): the refusal says so rather than calling the name unknown"""
    overrides: ClassVar[frozenset[str]] = frozenset()
    """The hooks (methods of `Rules`) this variant's module answers otherwise than standard Diplomacy: worked
    out once, when the class is made (`__init_subclass__`), by finding which class of its lineage defines each
    hook. The engine asks a module only the questions it overrides where asking costs (a call into Python for
    every move of every phase) or where a standard answer is known without asking: `"may_enter" in
    rules.overrides`. Nothing is set by hand, so an override is never skipped for a forgotten flag."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.overrides = _overridden(cls)

    weighs_compositions: ClassVar[bool] = False
    """True where a force's strength depends on its composition and terrain (the multi-unit variants)."""
    shares_provinces: ClassVar[bool] = False
    """True where one power's units may stand together in a province and swap places (Multiplomacy)."""

    @classmethod
    def shape_board(cls, board: Board, options: Mapping[str, Any]) -> Board:
        """The board the game is played on, made from the variant's map and its options. Standard: the map as it
        is (CW Heptadiplomacy: seven copies, linked as its chosen movement module says)."""
        return board

    @classmethod
    def build(
        cls, board: Board, options: dict[str, Any] | None = None, calendar: Calendar = STANDARD_CALENDAR
    ) -> Rules:
        """The rules of this variant on this board with these options: built once and shared (rules are values,
        and what they work out once, such as every centre's worth, is then worked out once a process rather than
        once a phase)."""
        given = dict(options or {})
        key: tuple[object, ...] | None = None
        built: Rules | None = None
        try:
            key = (cls, id(board), id(calendar), tuple(sorted(given.items())))
            built = _BUILT.get(key)
        except TypeError:  # an option value that cannot be a key: built afresh
            key = None
        if built is not None:
            return built
        rules = cls._build(board, given, calendar)
        if key is not None:
            if len(_BUILT) >= _BUILT_MOST:
                _BUILT.clear()  # a test making boards by the hundred; a judge has a few variants
            _BUILT[key] = rules
        return rules

    @classmethod
    def _build(cls, board: Board, given: dict[str, Any], calendar: Calendar) -> Rules:
        refused = sorted(set(given) & set(cls.refused_options))
        if refused:
            why = "; ".join(f"{name}: {cls.refused_options[name]}" for name in refused)
            raise RuleOptionError(f"{cls.variant} refuses the option(s) {', '.join(refused)} ({why})")
        unknown = sorted(set(given) - set(cls.OPTIONS))
        if unknown:
            known = ", ".join(sorted(cls.OPTIONS))
            raise RuleOptionError(f"unknown option(s) for {cls.variant}: {', '.join(unknown)} (known: {known})")
        chosen: dict[str, Any] = {}
        for name, option in cls.OPTIONS.items():
            value = given.get(name, option.default)
            if not option.choices:  # a whole number (victory_centres), bounded by the board below
                chosen[name] = _whole_number(name, value)
                continue
            if isinstance(value, str) and option.choices and isinstance(option.choices[0], str):
                value = value.strip().lower()
            elif isinstance(value, str) and value.strip().isdigit() and int(value) in option.choices:
                value = int(value)  # a number written as text ("module": "3")
            if option.choices and value not in option.choices:
                choices = ", ".join(str(c) for c in option.choices)
                raise RuleOptionError(f"option {name} must be one of {choices}, not {value!r}")
            chosen[name] = value
        board = cls.shape_board(board, chosen)
        count = chosen.get("victory_centres")
        if count:
            most = sum(2 if p.centre_kind != "town" else 1 for p in board.provinces.values() if p.supply_centre) // 2
            if not 1 <= count <= most:
                raise RuleOptionError(
                    f"option victory_centres must be from 1 to the board's {most} centres (or 0: the map's "
                    f"{board.victory_centres}), not {count}"
                )
        return cls(board, EDITIONS[str(chosen.get("edition", DEFAULT_EDITION))], chosen, calendar)

    # --- sides: which powers one player controls -------------------------------------------------------

    def fixed_sides(self) -> dict[str, tuple[str, ...]]:
        """The sides the variant itself fixes (Hoplite Wars: each Major with its Minor). Standard: none, every
        power is its own side."""
        return {}

    def side_of(self, sides: Mapping[str, Sequence[str]] | None = None) -> dict[str, str]:
        """power -> the side it plays on, named by the side's first power in alphabetical order (so a side is
        always named by a power and never collides with one). The rules about "the same player" (no
        self-dislodgement, own support not cut, no merge between players) compare these names."""
        given = sides or self.fixed_sides()
        out: dict[str, str] = {}
        for powers in given.values():
            if not powers:
                continue
            first = min(powers)
            for power in powers:
                out[power] = first
        return out

    # --- what centres are worth and what units cost, in half centres ---------------------------------

    def centre_value(self, province: str) -> int:
        """What a supply centre is worth, in halves: a city 2, a town 1 (Hoplite Wars' towns are worth half a
        city). Counting in halves keeps every count an integer."""
        return 1 if self.board.provinces[province].centre_kind == "town" else 2

    @cached_property
    def centre_values(self) -> dict[str, int]:
        """`centre_value` of every supply centre, worked out once: counts are taken after every phase."""
        return {p.id: self.centre_value(p.id) for p in self.board.provinces.values() if p.supply_centre}

    @cached_property
    def all_centres_whole(self) -> bool:
        """Every centre worth one: a power's worth is twice its count of centres (standard, the common case)."""
        return all(v == 2 for v in self.centre_values.values())

    def may_be_centre(self, province: str) -> bool:
        """May `province` be a supply centre in a position of this variant? Standard: the map's centres (Mad
        Diplomacy's powers place theirs within their countries)."""
        return self.board.provinces[province].supply_centre

    def upkeep(self, composition: Composition) -> int:
        """What a force costs in centres, in halves: an army or fleet 2 each, a garrison 1 (Hoplite Wars)."""
        return composition.halves

    # --- what the variant does beyond the orders -----------------------------------------------------

    verbs: ClassVar[Mapping[str, Verb]] = {}
    """order words the variant adds to the notation (lower case: `{"boards": Verb(BOARD, "unit target")}`); the
    reader knows them only in this variant's games, and the variant's binding decides what they do"""
    unit_facts: ClassVar[tuple[str, ...]] = ()
    """the per-unit facts the variant keeps (`Force.facts`), read and written as extra keys of a unit's entry"""

    def after_phase(self, position: Position, outcome: Outcome, rng: random.Random) -> None:
        """Apply what changes by rule after any phase (a wandering centre moves, colonies declare, towns change
        hands after Spring), into `outcome`: its centres, state, events. `rng` is seeded by the case's seed and
        the phase. The engine calls it only where a variant overrides it (`overrides`)."""

    def power_label(self, power: str, phase: Phase) -> str:
        """How results and mails name a power in this phase: presentation only, never stored (Mad Diplomacy's
        optional rule 11 rotates the names). Standard: its name."""
        return power

    def adjudicate_placement(self, position: Position, submitted: Sequence[Submitted], seed: int) -> Outcome:
        """A placement phase (Mad Diplomacy opens with two). Variants without one refuse the phase."""
        raise RuleOptionError(f"{self.variant} has no placement phases")

    def victory_centres(self) -> int:
        """The supply centres a side needs to win: the GM's count (the `victory_centres` option, njudge's SET
        CENTERS) where he set one, else the map's."""
        return int(self.options.get("victory_centres") or 0) or self.board.victory_centres

    # --- what may stand where -------------------------------------------------------------------------

    stacking: ClassVar[str] = "province"
    """how forces share the board: "province" (one force a province), "location" (one force a location:
    fleets of one power on both coasts, A/F rules), or "power" (any number of one power's units)"""

    def allows(self, composition: Composition) -> bool:
        """Is this composition a unit of the variant? Standard: single armies and fleets."""
        return composition.is_single and composition.garrisons == 0

    def check_force(self, force: Force) -> Refusal | None:
        """Why this force cannot stand where it stands, or None."""
        composition = force.composition
        province = self.board.provinces[force.province]
        coast = force.at.partition("/")[2]
        if not self.allows(composition):
            return NotAUnit(composition, self.variant)
        if composition.is_army:
            if not province.holds_armies:
                return CannotStand(composition, province.id)
            if coast:
                return ArmyOnCoast(province.id)
        elif composition.is_fleet:
            if not province.holds_fleets:
                return CannotStand(composition, province.id)
            if province.coasts and coast not in province.coasts:
                return FleetNeedsCoast(province.id)
        elif not province.holds_fleets:
            return CannotStand(composition, province.id)
        else:
            return self.may_enter(composition, province.id)  # an A/F stands only where it may go (seaworthiness)
        return None

    sides_stand_together: ClassVar[bool] = False
    """may the powers of one side stand together where one power's units may (Hoplite Wars' mixed Major and
    Minor forces)? Otherwise only one power's units share a place."""

    def check_stacking(self, forces: Sequence[Force], side_of: Mapping[str, str] | None = None) -> str | None:
        """Why these forces cannot share the board like this, or None. `side_of` (power -> side) lets the powers
        of one side stand together where the variant allows it."""
        return stacking_problem(forces, self.stacking, side_of if self.sides_stand_together and side_of else {})

    def may_order(self, power: str, force: Force) -> bool:
        """May `power` order `force`, which is another power's? Standard: never (Hoplite Wars: a player orders
        his Major's and his Minor's units, and a force mixing both, from either power)."""
        return False

    def share_out(self, force: Force, parts: Sequence[Composition]) -> list[Force]:
        """The force's detachments for a phase, one for each part (the parts its orders name, then what stays
        idle), with the per-unit facts each part takes. Standard: every part keeps the force's facts."""
        return [force.part(part) for part in parts]

    def retreating(self, force: Force) -> Force | None:
        """The part of a dislodged force that must retreat; the rest disbands at once (Hoplite Wars: a garrison
        forced to retreat disbands). None: nothing retreats."""
        return force

    def take_ownership(self, centres: dict[str, str], units: Sequence[Force], phase: Phase) -> dict[str, str]:
        """Ownership after a movement season that changes it (with its retreats): every centre with a unit on it
        goes to the unit's power (standard, after the Fall). Hoplite Wars: towns after Spring too, cities only
        after Autumn, and a Minor's home city retaken by its Major goes back to the Minor."""
        from judge.engine.supply import update_ownership

        return update_ownership(self.board, centres, units)

    def adjudicate_adjustment(self, position: Position, submitted: Sequence[Submitted]) -> Outcome:
        """An adjustment phase: builds, removals, waivers, civil disorder (Hoplite Wars adds conversions between
        army and fleet and voluntary garrison disbands)."""
        from judge.engine.adjustment import adjudicate_adjustment

        return adjudicate_adjustment(self, position, submitted)

    def extra_builds(self, state: Mapping[str, Any]) -> dict[str, int]:
        """Builds beyond the centres this winter, in half centres by power (Hoplite Wars: the two units the sack
        of Delphi raises). Standard: none."""
        return {}

    def costs(self, force: Force) -> list[tuple[str, int]]:
        """Who pays for a force, in half centres (Hoplite Wars: a mixed force's Minor units are the Minor's to
        pay, the units Delphi raised nobody's). Standard: its power, its upkeep."""
        return [(force.power, self.upkeep(force.composition))]

    def gather(self, forces: Sequence[Force]) -> list[Force]:
        """The forces of a position as the engine keeps them, from the units a case or the store lists (Hoplite
        Wars: a Major's and its Minor's units in one place are one mixed force). Standard: as listed."""
        return list(forces)

    @classmethod
    def written_as(cls, force: Force) -> tuple[Force, ...]:
        """How a force is written in an outcome or a stored position, as units by power (Hoplite Wars: a mixed
        force as its Major's and its Minor's entries). Standard: itself."""
        return (force,)

    def order_problem(self, force: Force, order: Order) -> Refusal | None:
        """Why this force may not be given this kind of order at all, or None: a garrison (`G`) never moves
        and never convoys; a variant may restrict its support too (Hoplite Wars: only to units merging with it)."""
        if force.composition.garrisons and order.kind in (OrderKind.MOVE, OrderKind.CONVOY):
            return GarrisonNeverMoves(unit_name(force))
        return None

    def bind_movement(self, position: Position, submitted: Sequence[Submitted]) -> Binding:
        """Turn a movement phase's order lines into detachments. Standard: one force, one order."""
        from judge.engine.binding import bind_movement

        return bind_movement(self, position, submitted)

    def attack_group_key(self, detachment: Detachment, index: int) -> object:
        """Moves with the same key attack as one group. Standard: every move alone; a merge together."""
        if detachment.merge is not None:
            return ("merge", detachment.power, detachment.merge)
        return index

    def cut_side(self, power: str, side: str) -> str:
        """Whose attacks cannot cut a support: units of one side never cut each other's support (1971 rules,
        "same country"); CW Heptadiplomacy's rule 6 lets a player's units of another nationality cut it."""
        return side

    def cut_order(self, resolver: MovementView, supports: list[int]) -> list[int]:
        """The supports of one province in the order their shares are cut: the last written first."""
        return sorted(supports, key=lambda s: -resolver.dets[s].written)

    def cut_amount(self, resolver: MovementView, support: int, cutters: dict[int, list[int]], high: bool) -> int:
        """How many shares of a province's supports the attacks in `cutters` cut. Standard: any attack cuts all."""
        return CUT_ALL if cutters else 0

    builds_beside_own_units: ClassVar[bool] = False
    """may a power build in a home centre its own units hold (Multiplomacy rule 10, Multiplicity rule 5)?"""

    def home_centres(self, power: str, state: Mapping[str, Any], centres: Mapping[str, str]) -> tuple[str, ...]:
        """Where `power` builds: its home centres, the map's (Mad Diplomacy's are those it placed, kept in the
        game's state)."""
        return self.board.powers[power].home if power in self.board.powers else ()

    def build_site_problem(
        self,
        power: str,
        province: str,
        centres: dict[str, str],
        units: Sequence[Force],
        built_at: set[str],
        state: Mapping[str, Any] | None = None,
    ) -> Refusal | None:
        """Why `power` may not build in `province` this winter, or None: an owned home centre, one build a
        province, vacant (or, where `builds_beside_own_units`, held by no other power)."""
        home = self.home_centres(power, state or {}, centres)
        if province not in home:
            return NotHome(province, power)
        if centres.get(province) != power:
            return NotOwned(power, province)
        if province in built_at:
            return BuiltAlready(province)
        if self.builds_beside_own_units:
            if any(f.province == province and f.power != power for f in units):
                return Occupied(province, "power")
        elif any(f.province == province for f in units):
            return Occupied(province)
        return None

    def build_problem(self, built: Force, units: Sequence[Force], phase: Phase) -> Refusal | None:
        """Why this build may not be made in this phase, beyond the site and the count, or None (Multiplicity
        II's opening allows only single units, one on each home centre)."""
        return None

    def build_onto_problem(self, occupant: Composition, built: Composition) -> Refusal | None:
        """Why `built` may not be added onto the power's own `occupant` of a home centre, or None (only asked
        where `builds_beside_own_units`)."""
        return None

    def winners_after_fall(self, centres: dict[str, str]) -> list[str] | None:
        """Powers that won with the Fall's ownership: standard, the victory count of centres."""
        from judge.engine.supply import centre_values

        need = 2 * self.victory_centres()
        return sorted(p for p, n in centre_values(self, centres).items() if n >= need) or None

    def winter_always(self, centres: dict[str, str], state: dict[str, Any]) -> bool:
        """Must the winter be played even if nobody adjusts (to keep a count the victory rule needs)?"""
        return False

    def end_of_winter(self, position: Position) -> tuple[list[str] | None, dict[str, Any]]:
        """Winners declared at the end of the winter, and the variant state carried on. Standard: victory is
        checked after the Fall, nothing is carried."""
        return None, dict(position.variant_state)

    split_parts_support: ClassVar[bool] = False
    """May the part of a split that stays support a part that moves away (Multiplicity I: yes; II: no)?"""

    def split_problem(self, force: Force, parts: list[tuple[Composition, Order]]) -> Refusal | None:
        """Why a SPLIT of `force` into these parts is not allowed, or None. Standard has no multiples."""
        return NotMultiple(unit_name(force))

    def merge_problem(self, merged: Composition, province: str) -> Refusal | None:
        """Why the force a MERGE forms may not stand in `province`, or None."""
        if not self.allows(merged):
            return NotAUnit(merged, self.variant)
        return None

    merge_fails_whole: ClassVar[bool] = True
    """a merge with a unit that cannot reach the province is refused whole (Multiplicity I, the GM's answer 4);
    where False the others go on as ordered (Multiplicity II rule 3)"""
    merges_by_convoy: ClassVar[bool] = True
    """may a merging army reach the merge by convoy (Multiplicity II, Mad Diplomacy's merges in transit)? Not in
    Multiplicity I, whose rule 6 wants every merging unit adjacent to, or already on, the province."""

    def merge_may_enter(self, force: Force, province: str, merge: Order) -> bool:
        """May a merging unit enter a province it could not enter alone (an army joining a fleet at sea)?"""
        return False

    def may_enter(self, composition: Composition, province: str) -> Refusal | None:
        """Why a force of this composition may not move into `province`, or None (seaworthiness, ...)."""
        return None

    def called_off(self, resolver: MovementView) -> dict[int, Refusal]:
        """Moves to call off after a resolution, with why (then everything is resolved again). Standard: none."""
        return {}

    def support_problem(self, force: Force, into: str) -> Refusal | None:
        """Why this force may not support into the province `into` although it reaches it, or None (CW
        Heptadiplomacy's modules 1 and 2: only units on the board moved to support)."""
        return None

    def fleet_chain(self, forces: Sequence[Force], origin: str, destination: str) -> bool:
        """Could fleets at sea (any power's) carry an army from `origin` to `destination` (provinces)? Decides
        whether a move or a support naming such a move is legal before the orders are known."""
        from judge.engine.legality import fleet_chain_exists

        return fleet_chain_exists(self.board, list(forces), origin, destination)

    def convoy_through(self, origin: str, destination: str, sea: str) -> bool:
        """Could a fleet in `sea` be part of a convoy from `origin` to `destination` (DATC 6.G.19)?"""
        from judge.engine.legality import convoy_possible

        return convoy_possible(self.board, origin, destination, through=sea)

    def convoy_link(self, fleet_at: str, next_at: str) -> bool:
        """May the fleet at `fleet_at` pass a convoyed army on to the fleet at `next_at` (they are adjacent)?
        CW Heptadiplomacy's module 2: the fleets of one convoy are on one board."""
        return True

    convoys_several: ClassVar[bool] = False
    """may one fleet convoy several armies at once, each its own convoy order (Mad Diplomacy rule 4e)?"""

    def can_convoy(self, composition: Composition) -> bool:
        """May a force of this composition convoy? Standard: fleets."""
        return composition.is_fleet

    def settle_retreats(self, arrivals: list[list[Force]]) -> list[int]:
        """Retreat orders meeting in one province (each a list of the units it moves): how many units of each
        arrive. Standard: two or more retreats to one province are all disbanded."""
        if len(arrivals) > 1:
            return [0] * len(arrivals)
        return [len(arrivals[0])]

    def convoy_capacity(self, composition: Composition) -> int | None:
        """How many armies a convoying force can carry; None where it does not matter (standard: one army,
        one fleet)."""
        return None

    def assemble(self, forces: list[Force]) -> list[Force]:
        """The forces after a movement phase, from the detachments' new places. Standard: as they are;
        variants with multiples merge a power's detachments that end on one location."""
        return forces

    def force_strength(self, composition: Composition, terrain: Terrain) -> int:
        """How much a force counts where it stands or moves (its support weighs the same).

        Standard: one per unit. The multi-unit variants weigh compositions by terrain (an A/F at sea
        counts its fleets); their rule modules override this.
        """
        return composition.size


def _whole_number(name: str, value: Any) -> int:
    """A choice-less option's value: a whole number, from a case's JSON (17) or a GM's words ("17")."""
    if isinstance(value, bool) or not (isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit())):
        raise RuleOptionError(f"option {name} must be a whole number, not {value!r}")
    return int(value)


def _overridden(cls: type[Rules]) -> frozenset[str]:
    """The hooks `cls` defines otherwise than `Rules`: for each, the first class of its lineage that defines it
    (a classmethod or a cached property compared as what the class holds, never as the object a lookup builds)."""
    out = set()
    for name in HOOKS:
        owner = next(c for c in cls.__mro__ if name in vars(c))
        if owner is not Rules:
            out.add(name)
    return frozenset(out)


HOOKS: frozenset[str] = frozenset(
    name
    for name, value in vars(Rules).items()
    if not name.startswith("_") and isinstance(value, (FunctionType, classmethod, staticmethod, cached_property))
)
"""every hook a variant may override: the public methods (and class methods, cached properties) of `Rules`"""
