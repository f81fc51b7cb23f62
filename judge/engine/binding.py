"""Binding order lines to the forces they name, and turning them into detachments for the resolver.

Standard binding: one force per province, one order per force; a force given two different legal orders holds
(DATC 4.D.3); a force with no order holds and gets an added result line. Variants whose forces share
provinces or split and merge extend this through their rule module.
"""

from __future__ import annotations

from collections.abc import Sequence

from judge.board.model import province_of
from judge.engine.legality import Legal, check_movement_order
from judge.engine.orders import MOVEMENT_KINDS, Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Position, Result, result_rows
from judge.engine.reasons import NotYours
from judge.engine.refusals import (
    AndSo,
    CannotMerge,
    ConflictingOrders,
    DifferentOrders,
    MergeAcrossPowers,
    MergeCoasts,
    MergeNotAdjacent,
    MergeTooFew,
    NoMultiples,
    NothingLeft,
    NotThisPhase,
    NoUnitAt,
    PartCannot,
    PartsTooMany,
    Refusal,
    SplitPartsSupport,
    StackLacks,
    StackShort,
    StaysRule3,
    Then,
    WouldForm,
    unit_name,
)
from judge.engine.resolution import Detachment
from judge.engine.rules import Rules
from judge.engine.units import Composition, Force
from judge.value import Record, replace


class Binding(Record):
    """A phase's order lines bound to the troops they move: the detachments, the result rows, and those called
    off from the start."""

    detachments: list[Detachment]
    results: list[OrderResult]
    held: dict[int, Refusal]
    """detachments called off from the start, with why (a merging unit that cannot reach the merge, where the
    others go on: Multiplicity II rule 3); they stay where they are and are reported with the reason"""

    names = ("detachments", "results", "held")

    def __init__(
        self, detachments: list[Detachment], results: list[OrderResult], held: dict[int, Refusal] | None = None
    ) -> None:
        self.detachments = detachments
        self.results = results
        self.held = {} if held is None else held


def hold_order(force: Force) -> Order:
    return Order(OrderKind.HOLD, UnitRef(force.composition, force.at))


def _counts_in(rules: Rules, order: Order) -> NoMultiples | None:
    """A number of units in an order where every unit is single ("2 A Mun - Boh"): what was written, or None."""
    for ref in (order.unit, order.target):
        if ref is not None and ref.count is not None and ref.count != 1:
            return NoMultiples(rules.variant, ref.count, str(ref.composition or "units"))
    return None


def bind_movement(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Binding:
    forces = list(position.units)
    index = {f.province: i for i, f in enumerate(forces)}
    results: list[OrderResult] = []
    chosen: list[list[tuple[int, Order]]] = [[] for _ in forces]
    about: list[list[int]] = [[] for _ in forces]
    """result lines that name each force, legal or not"""

    for entry, sub, order in result_rows(submitted, results):
        if order.unit is None or order.kind not in MOVEMENT_KINDS:
            entry.canonical = order
            entry.reasons = (NotThisPhase(order.kind, PhaseType.MOVEMENT),)
            continue
        i = index.get(province_of(order.unit.location))
        if i is None:
            entry.canonical = order
            entry.reasons = (NoUnitAt(province_of(order.unit.location)),)
            continue
        force = forces[i]
        if force.power != sub.power:
            entry.canonical = order
            entry.reasons = [NotYours(force.province, force.power)]
            continue
        counted = _counts_in(rules, order) if order.unit.count is not None or order.target is not None else None
        if counted is not None:
            entry.canonical = order
            about[i].append(len(results) - 1)
            entry.reasons = (AndSo(counted, Then.UNIT),)
            continue
        checked = check_movement_order(rules, forces, index, force, order)
        entry.canonical = checked.order
        about[i].append(len(results) - 1)
        if checked.ok:
            chosen[i].append((len(results) - 1, checked.order))
            entry.result = Result.FAILS  # until resolved
        else:
            entry.reasons = (AndSo(checked.refused, Then.UNIT),)

    dets: list[Detachment] = []
    for i, force in enumerate(forces):
        candidates = chosen[i]
        if len(candidates) > 1 and len({o for _, o in candidates}) > 1:
            for r, _ in candidates:
                results[r].result = Result.ILLEGAL
                results[r].reasons = (DifferentOrders(),)
            candidates = []
        if candidates:
            first = candidates[0][0]
            dets.append(Detachment(force, candidates[0][1], None, first, [r for r, _ in candidates]))
            continue
        hold = hold_order(force)
        if not about[i]:
            results.append(OrderResult(force.power, "", hold, Result.SUCCEEDS, added=True))
            entries = [len(results) - 1]
        else:
            entries = about[i]
        dets.append(Detachment(force, hold, None, 0, entries))
    return Binding(dets, results)


def _kind_of(ref: UnitRef) -> str | None:
    return ref.composition.kind if ref.composition is not None else None


def _stack_target(checked: Legal, named: UnitRef, stack: list[Force]) -> Legal:
    """A support or convoy naming several units of a stack ("S 1 A & 1 F Naf") is for all of them: the
    canonical order keeps every unit named, and naming units the stack does not hold is illegal."""
    wanted = named.composition
    assert wanted is not None and checked.order.target is not None
    if wanted.is_single:
        return checked  # "S A Naf", "S 2 A Mun": as the legality check read it
    total = Composition.of()
    for force in stack:
        total = total.plus(force.composition)
    wanted = wanted.times(named.count or 1)
    if total.minus(wanted) is None:
        where = province_of(named.location)
        return Legal(checked.order, False, StackLacks(where, wanted))
    return Legal(replace(checked.order, target=replace(checked.order.target, composition=wanted, count=None)), True)


def bind_stacks(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Binding:
    """Binding where one power's units stand together as individuals (Multiplomacy).

    A numbered order ("3 F Eng-Bre") takes that many units of the named type from the province's stack, in the
    order they stand; an unnumbered order takes one. Units left without an order hold, one hold per location
    and type. Asking for more units than are left is illegal, and so is an order that cannot be carried out.
    """
    forces = list(position.units)
    stacks: dict[str, list[int]] = {}
    for i, f in enumerate(forces):
        stacks.setdefault(f.province, []).append(i)
    index = {province: members[0] for province, members in stacks.items()}
    taken = [False] * len(forces)
    about: dict[str, list[int]] = {}
    results: list[OrderResult] = []
    dets: list[Detachment] = []

    for entry, sub, order in result_rows(submitted, results):
        row = len(results) - 1
        if order.unit is None or order.kind not in MOVEMENT_KINDS:
            entry.canonical = order
            entry.reasons = (NotThisPhase(order.kind, PhaseType.MOVEMENT),)
            continue
        province = province_of(order.unit.location)
        stack = stacks.get(province)
        entry.canonical = order
        if not stack:
            entry.reasons = (NoUnitAt(province),)
            continue
        if forces[stack[0]].power != sub.power:
            entry.reasons = [NotYours(province, forces[stack[0]].power, many=True)]
            continue
        about.setdefault(province, []).append(row)
        wanted = _kind_of(order.unit)
        coast = order.unit.location if "/" in order.unit.location else None
        free = [
            i
            for i in stack
            if not taken[i]
            and (wanted is None or forces[i].composition.kind == wanted)
            and (coast is None or forces[i].at == coast)
        ]
        count = order.unit.count or 1
        if free:
            free = [i for i in free if forces[i].at == forces[free[0]].at]
        if len(free) < count:
            what = f"{wanted or 'unit'}s" if wanted else "units"
            entry.reasons = (AndSo(StackShort(len(free), what, province, count), Then.UNITS),)
            continue
        chosen = free[:count]
        first = forces[chosen[0]]
        if order.kind is OrderKind.MOVE and order.destination and province_of(order.destination) == province:
            # a move to the province it stands in: where units share provinces, that is staying put
            order = Order(OrderKind.HOLD, order.unit)
        lookup = index
        if order.target is not None:
            target_kind = _kind_of(order.target)
            target_stack = stacks.get(province_of(order.target.location), [])
            matching = [i for i in target_stack if target_kind is None or forces[i].composition.kind == target_kind]
            if matching:
                lookup = {**index, province_of(order.target.location): matching[0]}
        checked = check_movement_order(rules, forces, lookup, first, order)
        if checked.ok and order.target is not None and order.target.composition is not None:
            checked = _stack_target(checked, order.target, [forces[i] for i in target_stack])
        entry.canonical = checked.order
        if not checked.ok:
            entry.reasons = (AndSo(checked.refused, Then.UNITS if count > 1 else Then.UNIT),)
            continue
        for i in chosen:
            taken[i] = True
        composition = first.composition.times(count)
        entry.result = Result.FAILS  # until resolved
        dets.append(Detachment(Force(first.power, composition, first.at), checked.order, None, row, [row]))

    leftovers: dict[tuple[str, str], list[int]] = {}
    for i, force in enumerate(forces):
        if not taken[i]:
            leftovers.setdefault((force.at, force.composition.kind), []).append(i)
    for (_, _), members in leftovers.items():
        first = forces[members[0]]
        together = Force(first.power, first.composition.times(len(members)), first.at)
        hold = Order(OrderKind.HOLD, UnitRef(first.composition, first.at, len(members) if len(members) > 1 else None))
        rows = [r for r in about.get(first.province, []) if results[r].result is Result.ILLEGAL]
        if not rows:
            # every unit of a stack appears in the results: the ones left behind by "2 A Mun - Boh" hold
            results.append(OrderResult(first.power, "", hold, Result.SUCCEEDS, added=True))
            rows = [len(results) - 1]
        dets.append(Detachment(together, hold, None, 0, rows))
    return Binding(dets, results)


class _Claim(Record):
    """Part of a force given an order by one line (the whole force, a split's part, a merging unit)."""

    row: int
    order: Order
    composition: Composition
    merge: str | None
    called_off: Refusal | None
    """why this part does not carry out its order (it stays where it is)"""
    rows: list[int]
    """every line this claim answers, where several lines became one (a fleet's several convoys)"""

    names = ("row", "order", "composition", "merge", "called_off", "rows")

    def __init__(
        self,
        row: int,
        order: Order,
        composition: Composition,
        merge: str | None = None,
        called_off: Refusal | None = None,
        rows: list[int] | None = None,
    ) -> None:
        self.row = row
        self.order = order
        self.composition = composition
        self.merge = merge
        self.called_off = called_off
        self.rows = [] if rows is None else rows


def _cargo(order: Order) -> tuple[str, str]:
    """A convoy's army and destination, as provinces."""
    assert order.target is not None and order.destination is not None
    return province_of(order.target.location), province_of(order.destination)


def _find_force(forces: list[Force], ref: UnitRef) -> int | None:
    """The force an order names: by its exact location where a province holds two (fleets on both coasts)."""
    province = province_of(ref.location)
    here = [i for i, f in enumerate(forces) if f.province == province]
    if len(here) > 1:
        exact = [i for i in here if forces[i].at == ref.location]
        if exact:
            return exact[0]
        if ref.composition is not None:
            fitting = [i for i in here if forces[i].composition.minus(ref.composition) is not None]
            if fitting:
                return fitting[0]
    return here[0] if here else None


def bind_multiples(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Binding:
    """Binding for the variants with multiple units (Multiplicity I and II, Mad Diplomacy, Hoplite Wars).

    An order may name the whole force ("3A Bur stands") or, for orders that do not move, a part of it
    ("A Bur stands; 2A Bur S A Par-Pic"); moving part of a force takes a SPLIT, joining forces a MERGE. The parts
    a force's orders do not name stay idle and hold. A force given two whole orders holds (DATC 4.D.3).
    """
    forces = list(position.units)
    index: dict[str, int] = {}
    for n, f in enumerate(forces):
        index.setdefault(f.province, n)
    results: list[OrderResult] = []
    claims: list[list[_Claim]] = [[] for _ in forces]
    about: list[list[int]] = [[] for _ in forces]
    split_by_lines: set[int] = set()

    def bad(entry: OrderResult, refusal: Refusal) -> None:
        entry.result = Result.ILLEGAL
        entry.reasons = (refusal,)

    for entry, sub, order in result_rows(submitted, results):
        row = len(results) - 1
        entry.canonical = order
        if order.kind not in MOVEMENT_KINDS:
            entry.reasons = (NotThisPhase(order.kind, PhaseType.MOVEMENT),)
            continue
        if order.kind is OrderKind.MERGE:
            found = _bind_merge(rules, forces, index, sub.power, order, row)
            if isinstance(found, Refusal):
                bad(entry, AndSo(found, Then.UNITS))
                continue
            for i, claim in found:
                claims[i].append(claim)
                about[i].append(row)
            entry.canonical = _canonical_merge(order, forces, [i for i, _ in found])
            entry.result = Result.FAILS
            continue
        assert order.unit is not None
        found_at = _find_force(forces, order.unit)
        if found_at is None:
            entry.reasons = (NoUnitAt(province_of(order.unit.location)),)
            continue
        i = found_at
        force = forces[i]
        if force.power != sub.power and not rules.may_order(sub.power, force):
            entry.reasons = [NotYours(force.province, force.power)]
            continue
        about[i].append(row)
        if order.kind is OrderKind.SPLIT:
            parts = _bind_split(rules, forces, index, force, order, row)
            if isinstance(parts, Refusal):
                bad(entry, AndSo(parts, Then.FORCE))
                continue
            claims[i].extend(parts)
            entry.canonical = Order(
                OrderKind.SPLIT, UnitRef(force.composition, force.at), parts=tuple(c.order for c in parts)
            )
            entry.result = Result.FAILS
            continue
        part = order.unit.composition.times(order.unit.count or 1) if order.unit.composition else force.composition
        if force.composition.minus(part) is None:
            part = force.composition  # a wrong unit type names the force all the same (DATC 4.C.2)
        checked = check_movement_order(rules, forces, index, force.part(part), order)
        if order.priority is not None:  # the player's number ranks the force's supports (A/F rule 11)
            checked = Legal(replace(checked.order, priority=order.priority), checked.ok, checked.refusal)
        entry.canonical = checked.order
        if not checked.ok:
            bad(entry, AndSo(checked.refused, Then.UNIT))
            continue
        if part != force.composition and order.kind is OrderKind.MOVE:
            # a part moving on a line of its own: a split written line by line ("A Bur - Par", "A Bur - Mun")
            claims[i].append(_Claim(row, checked.order, part, _split_move(force, checked.order)))
            split_by_lines.add(i)
        else:
            claims[i].append(_Claim(row, checked.order, part))
        entry.result = Result.FAILS

    for i in split_by_lines:  # the same checks as a SPLIT line's
        problem = _split_problem(rules, forces[i], claims[i])
        if problem:
            for c in claims[i]:
                bad(results[c.row], AndSo(problem, Then.FORCE))
            claims[i] = []

    # several merges (or a split's parts) of one power into one province form one force: it must be a unit
    formed: dict[tuple[str, str], list[tuple[int, _Claim]]] = {}
    for i, mine in enumerate(claims):
        for c in mine:
            if c.merge is not None:
                into = province_of(c.order.destination or forces[i].at)
                formed.setdefault((forces[i].power, into), []).append((i, c))
    for (_, into), members in formed.items():
        total = Composition.of()
        for _, c in members:
            total = total.plus(c.composition)
        if len({c.row for _, c in members}) > 1:
            problem = rules.merge_problem(total, into)
            if problem:
                for i, c in members:
                    bad(results[c.row], WouldForm(into, total, problem))
                    claims[i].remove(c)

    dets: list[Detachment] = []
    held: dict[int, Refusal] = {}
    for i, force in enumerate(forces):
        mine = claims[i]
        whole = [c for c in mine if c.composition == force.composition and c.merge is None]
        carries: tuple[tuple[str, str], ...] = ()
        if len(whole) > 1 and rules.convoys_several and all(c.order.kind is OrderKind.CONVOY for c in whole):
            # one fleet carrying several armies at once (Mad Diplomacy rule 4e): one convoy, several cargoes
            carries = tuple(_cargo(c.order) for c in whole[1:])
            whole[0].rows = [c.row for c in whole]
            mine = whole = whole[:1]
        if (len(whole) > 1 and len({c.order for c in whole}) > 1) or (whole and len(mine) > len(whole)):
            for c in mine:
                bad(results[c.row], ConflictingOrders())
            mine = []
        elif len(whole) > 1:
            mine = whole[:1]
        left = force.composition
        kept: list[_Claim] = []
        for c in mine:
            rest = left.minus(c.composition)
            if rest is None and c.order.kind is not OrderKind.MOVE:
                # the part a split left standing may get an order of its own ("A Bur S A Bur-Mun")
                resting = next(
                    (k for k in kept if k.order.kind is OrderKind.HOLD and k.composition == c.composition), None
                )
                if resting is not None:
                    kept.remove(resting)
                    left = left.plus(resting.composition)
                    rest = left.minus(c.composition)
            if rest is None:
                bad(results[c.row], NothingLeft(unit_name(force), c.composition))
                continue
            left = rest
            kept.append(c)
        rows_of: dict[int, list[int]] = {}
        pieces = rules.share_out(force, [c.composition for c in kept] + ([left] if left.size else []))
        for c, piece in zip(kept, pieces, strict=False):
            rows_of.setdefault(id(c.order), []).append(c.row)
            if c.called_off is not None:
                held[len(dets)] = c.called_off
            rows = c.rows or [c.row]
            dets.append(Detachment(piece, c.order, c.merge, c.row, rows, idle=False, carries=carries))
        if left.size:
            hold = Order(OrderKind.HOLD, UnitRef(left, force.at))
            rows = [r for r in about[i] if results[r].result is Result.ILLEGAL]
            if not about[i]:
                results.append(OrderResult(force.power, "", hold, Result.SUCCEEDS, added=True))
                rows = [len(results) - 1]
            dets.append(Detachment(pieces[-1], hold, None, 0, rows, idle=True))
    return Binding(dets, results, held)


def _bind_split(
    rules: Rules, forces: list[Force], index: dict[str, int], force: Force, order: Order, row: int
) -> list[_Claim] | Refusal:
    total = Composition.of()
    claims: list[_Claim] = []
    for part in order.parts:
        assert part.unit is not None
        composition = part.unit.composition or force.composition
        total = total.plus(composition)
        piece = Force(force.power, composition, force.at)
        checked = check_movement_order(rules, forces, index, piece, part)
        if not checked.ok:
            return PartCannot(composition, part.kind, checked.refused)
        merge = _split_move(force, checked.order) if part.kind is OrderKind.MOVE else None
        claims.append(_Claim(row, checked.order, composition, merge))
    if force.composition.minus(total) is None:
        return PartsTooMany(total, unit_name(force))
    problem = _split_problem(rules, force, claims)
    return problem if problem else claims


def _split_move(force: Force, order: Order) -> str:
    """The merge key of a split's moving part: parts of one force meeting in one place merge again."""
    assert order.destination is not None
    return f"split {force.at} {province_of(order.destination)}"


def _split_problem(rules: Rules, force: Force, claims: list[_Claim]) -> Refusal | None:
    """Why these orders for the parts of one force are not a split the variant allows, or None: the same
    check whether the parts were written as one SPLIT line or one line each."""
    moving = {province_of(c.order.destination or "") for c in claims if c.order.kind is OrderKind.MOVE}
    for c in claims:
        if c.order.kind is OrderKind.SUPPORT and c.order.target is not None and not rules.split_parts_support:
            supported = province_of(c.order.target.location)
            if supported == force.province and province_of(c.order.destination or "") in moving:
                return SplitPartsSupport()
    return rules.split_problem(force, [(c.composition, c.order) for c in claims])


def _adjacent(rules: Rules, force: Force, province: str) -> bool:
    board = rules.board
    if force.composition.is_army:
        return board.army_can_move(force.at, province)
    return board.fleet_reaches_province(force.at, province) or (
        bool(force.composition.armies) and board.army_can_move(force.province, province)
    )


def _bind_merge(
    rules: Rules, forces: list[Force], index: dict[str, int], power: str, order: Order, row: int
) -> list[tuple[int, _Claim]] | Refusal:
    assert order.destination is not None
    destination = order.destination
    province = province_of(destination)
    found: list[tuple[int, _Claim]] = []
    merged = Composition.of()
    for ref in order.merging:
        i = _find_force(forces, ref)
        if i is None:
            return NoUnitAt(province_of(ref.location))
        force = forces[i]
        if force.power != power and not rules.may_order(power, force):
            return MergeAcrossPowers(unit_name(force))
        merged = merged.plus(force.composition)
        key = f"merge {province}"
        if force.province == province:
            found.append(
                (i, _Claim(row, Order(OrderKind.HOLD, UnitRef(force.composition, force.at)), force.composition, key))
            )
            continue
        move = Order(OrderKind.MOVE, UnitRef(force.composition, force.at), destination=destination)
        if not rules.merges_by_convoy and not _adjacent(rules, force, province):
            return MergeNotAdjacent(unit_name(force), province)
        checked = check_movement_order(rules, forces, index, force, move)
        if not checked.ok and not rules.merge_may_enter(force, province, order):
            why = CannotMerge(unit_name(force), destination, checked.refused)
            if rules.merge_fails_whole:
                return why
            # Multiplicity II rule 3: the others follow their orders unaffected; this one stays
            found.append((i, _Claim(row, move, force.composition, key, called_off=StaysRule3(why))))
            continue
        found.append((i, _Claim(row, checked.order if checked.ok else move, force.composition, key)))
    if len({i for i, _ in found}) < 2:
        return MergeTooFew()
    coasts = {
        c.order.destination
        for _, c in found
        if c.order.kind is OrderKind.MOVE and c.order.destination and "/" in c.order.destination
    }
    if len(coasts) > 1:
        return MergeCoasts(province, tuple(sorted(coasts)))
    problem = rules.merge_problem(merged, province)
    return problem if problem else found


def _canonical_merge(order: Order, forces: list[Force], chosen: list[int]) -> Order:
    units = tuple(UnitRef(forces[i].composition, forces[i].at) for i in chosen)
    return Order(OrderKind.MERGE, None, target=order.target, destination=order.destination, merging=units)
