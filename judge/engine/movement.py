"""The movement phase: bind the orders to the forces, resolve, and derive the position after.

Three stages, as in every sound adjudicator: (1) every order line is bound to the force it names and checked
for legality (an illegal order is reported with its reason and the force holds; unordered forces hold); the
variant's binding turns the orders into detachments (`judge.engine.binding`); (2) the detachments' orders are
resolved by the equations in `resolution.py`; (3) the outcome -- new positions, dislodgements, stand-offs and a
reason for every order -- is derived from the resolutions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from judge.engine.binding import Binding
from judge.engine.events import Event, UnitDisbanded
from judge.engine.orders import Submitted
from judge.engine.position import Dislodged, Outcome, Position, Result
from judge.engine.reasons import (
    Beaten,
    Bounced,
    Cut,
    Failed,
    HeadToHead,
    HeldBy,
    NoConvoy,
    OwnUnit,
    Paradox,
    Part,
    PartlyCut,
    Reason,
    RouteBroken,
    UnitName,
    VoidConvoy,
    VoidSupport,
    WasDislodged,
    text_of,
)
from judge.engine.refusals import Refusal
from judge.engine.resolution import CONVOY, HOLD, MOVE, SUPPORT, MovementResolver
from judge.engine.resolver import file_under
from judge.engine.retreat import retreat_options
from judge.engine.rules import Rules
from judge.engine.supply import adjustments_needed, winners
from judge.engine.units import Force


def adjudicate_movement(rules: Rules, position: Position, submitted: Sequence[Submitted], seed: int = 0) -> Outcome:
    binding = rules.bind_movement(position, submitted)
    dets = binding.detachments
    overland: frozenset[int] = frozenset()
    held: dict[int, Refusal] = dict(binding.held)
    sides = rules.side_of(position.sides)
    while True:
        mv = MovementResolver(rules, dets, overland, seed, held, sides)
        for i in mv.decisions():
            if i >= len(dets) or mv.kind[i] is not HOLD:
                mv.resolve(i, True)
        changed = False
        if rules.edition.adjacent_convoy == "opposite_move":
            # 1971: an unwanted convoy to an adjacent province that is disrupted leaves the army its land route
            fallen = {
                i
                for i in range(len(dets))
                if mv.convoyed[i]
                and not dets[i].order.via_convoy
                and rules.board.army_can_move(mv.origin[i], mv.dest[i])
                and not mv.path(i, True)
            }
            if fallen - overland:
                overland = overland | fallen
                changed = True
        # the variant may call moves off that the first resolution shows impossible (and resolve again)
        for i, why in rules.called_off(mv).items():
            if i not in held:
                held[i] = why
                changed = True
        if not changed:
            break
    return _outcome(rules, position, mv, binding)


def _outcome(rules: Rules, position: Position, mv: MovementResolver, binding: Binding) -> Outcome:
    dets = mv.dets
    results = binding.results
    n = len(dets)
    moved = [mv.kind[i] is MOVE and mv.resolution[mv.leader[i]] and mv.path(i, True) for i in range(n)]

    winners_into: dict[str, int] = {}
    for g in mv.members:
        if mv.resolution[g]:
            held = mv._held_by(mv.dest[g])
            if held is not None and held != mv.power[g]:
                winners_into[mv.dest[g]] = g

    placed: list[Force] = []
    dislodged: list[Dislodged] = []
    for i, d in enumerate(dets):
        if moved[i]:
            assert d.order.destination is not None
            force = d.force
            placed.append(Force(force.power, force.composition, d.order.destination, force.facts))
            continue
        winner = winners_into.get(d.province)
        if winner is None:  # it stays
            placed.append(d.force)
            continue
        origins = tuple(dict.fromkeys(mv.origin[m] for m in mv.members[winner] if moved[m]))
        by_convoy = all(mv.convoyed[m] for m in mv.members[winner] if moved[m])
        dislodged.append(Dislodged(d.force, origins[0], by_convoy, None, origins[1:]))

    units = rules.assemble(placed)
    dislodged = _dislodged_whole(rules, dislodged)
    occupied = {f.province for f in units}
    standoffs = set()
    for province, groups in mv.moves_to.items():
        if province in occupied:
            continue
        if any(not mv.resolution[g] and mv.prevent_strength(g, True) > 0 for g in groups):
            standoffs.add(province)

    dislodged_at = {d.force.province for d in dislodged}
    parts_of_row: dict[int, list[int]] = {}
    for i, d in enumerate(dets):
        for r in d.entries:
            file_under(parts_of_row, r, i)
    for r, parts in parts_of_row.items():
        entry = results[r]
        if entry.result is Result.ILLEGAL:
            if any(dets[i].province in dislodged_at for i in parts):
                entry.reasons = [*entry.reasons, WasDislodged(dets[parts[0]].province)]
            continue
        if len(parts) == 1:  # the common case, kept lean: one detachment, one line
            i = parts[0]
            reasons, ok = _explain(mv, i, moved, dets[i].province in dislodged_at, winners_into)
            entry.result = Result.SUCCEEDS if ok else Result.FAILS
            entry.found = reasons
            entry.explain = partial(_why_move_failed, mv, i) if not ok and mv.kind[i] is MOVE else None
            continue
        told = [(i, *_explain(mv, i, moved, dets[i].province in dislodged_at, winners_into)) for i in parts]
        # one line for several detachments (a split, a merge): it succeeds if any part did what it was told
        entry.result = Result.SUCCEEDS if any(ok for _, _, ok in told) else Result.FAILS
        if all(mv.leader[i] == mv.leader[told[0][0]] and mv.kind[i] is MOVE for i, _, _ in told):
            if not told[0][2]:
                entry.explain = partial(_why_move_failed, mv, told[0][0])
            continue
        distinct = {text_of(reasons) for _, reasons, _ in told if reasons}
        explained = [
            (i, _why_move_failed(mv, i) if not ok and mv.kind[i] is MOVE else reasons) for i, reasons, ok in told
        ]
        explained = [(i, reasons) for i, reasons in explained if reasons]
        if len(distinct) == 1 and len({text_of(reasons) for _, reasons in explained}) == 1:
            entry.reasons = list(explained[0][1])  # the same reason for every part: say it once
            continue
        # each part its own reason (a merge whose part was dislodged, the others bounced: both are told)
        entry.reasons = [Part(str(dets[i].composition), mv.dest[i] or dets[i].province, tuple(r)) for i, r in explained]

    if "retreating" in rules.overrides:
        dislodged = _retreating(rules, dislodged, mv.events)
    with_options = tuple(
        Dislodged(
            d.force,
            d.attacker_from,
            d.by_convoy,
            retreat_options(rules, d, units, frozenset(standoffs)),
            d.also_from,
        )
        for d in dislodged
    )
    centres = dict(position.centres)
    phase = position.phase
    calendar = rules.calendar
    retreats = bool(with_options)
    year_over = calendar.ends_year(phase) and not retreats
    if calendar.ownership_changes(phase) and not retreats:
        centres = rules.take_ownership(centres, units, phase)
    following = calendar.next_phase(
        phase,
        retreats_needed=retreats,
        adjustments_needed=year_over and adjustments_needed(rules, centres, units, position.variant_state),
    )
    return Outcome(
        phase=phase,
        results=results,
        units=tuple(units),
        dislodged=with_options,
        standoffs=frozenset(standoffs),
        centres=centres,
        next_phase=following,
        winner=winners(rules, centres) if year_over else None,
        variant_state=dict(position.variant_state),
        events=mv.events,
    )


def _dislodged_whole(rules: Rules, dislodged: list[Dislodged]) -> list[Dislodged]:
    """The dislodged forces as the rules assemble them. The parts of a force dislodged in its province are one
    force again: a part that failed to leave never left (A/F rule 7: "the force never divided", the whole A/F is
    dislodged and retreats; Multiplicity II rule 7: it "will remain part of the multiple unit"). Where the rules
    do not assemble (standard, Multiplomacy's individuals), the list is as it was."""
    if "assemble" not in rules.overrides:
        return dislodged
    by_province: dict[str, list[Dislodged]] = {}
    for d in dislodged:
        by_province.setdefault(d.force.province, []).append(d)
    return [
        Dislodged(force, group[0].attacker_from, group[0].by_convoy, None, group[0].also_from)
        for group in by_province.values()
        for force in rules.assemble([d.force for d in group])
    ]


def _retreating(rules: Rules, dislodged: list[Dislodged], events: list[Event]) -> list[Dislodged]:
    """What of each dislodged force must retreat; the rest disbands now, an event each (Hoplite Wars' garrisons)."""
    kept = []
    for d in dislodged:
        part = rules.retreating(d.force)
        if part is not d.force:
            gone = d.force.composition.minus(part.composition) if part is not None else d.force.composition
            events.append(UnitDisbanded(d.force.power, str(gone), d.force.at, "a garrison forced to retreat disbands"))
        if part is not None:
            kept.append(Dislodged(part, d.attacker_from, d.by_convoy, d.retreats, d.also_from))
    return kept


_NOTHING: list[Reason] = []
"""the reasons of an order that did what it was told: shared, never changed (a row's reasons are replaced whole)"""


def _force_name(mv: MovementResolver, parts: list[int]) -> UnitName:
    """The force several detachments make up, as one name ("France 3A bur")."""
    total = mv.dets[parts[0]].composition
    for j in parts[1:]:
        total = total.plus(mv.dets[j].composition)
    return UnitName(mv.dets[parts[0]].power, str(total), mv.origin[parts[0]])


def _group_names(mv: MovementResolver, g: int) -> tuple[UnitName, ...]:
    """An attack group as a reason names it: its detachments from each province as one force ("France 2A bur"),
    a force for each province where it moves in unison from several (Multiplomacy) or merges (Multiplicity)."""
    by_origin: dict[str, list[int]] = {}
    for m in mv.members[g]:
        file_under(by_origin, mv.origin[m], m)
    if len(by_origin) == 1 and len(mv.members[g]) == 1:
        return (_unit_name(mv, g),)
    return tuple(_force_name(mv, parts) for parts in by_origin.values())


def _unit_name(mv: MovementResolver, j: int) -> UnitName:
    d = mv.dets[j]
    return UnitName(d.power, str(d.composition), d.at)


def _explain(
    mv: MovementResolver, i: int, moved: list[bool], was_dislodged: bool, winners_into: dict[str, int]
) -> tuple[list[Reason], bool]:
    kind = mv.kind[i]
    fate: list[Reason] = _NOTHING
    if i in mv.held:
        return ([mv.held[i]], False)
    if was_dislodged:
        here = mv.origin[i]
        winner = winners_into[here]
        origins = tuple(dict.fromkeys(mv.origin[m] for m in mv.members[winner] if moved[m]))
        convoyed = any(mv.convoyed[m] for m in mv.members[winner])
        fate = [WasDislodged(here, origins, convoyed)]
    if kind is HOLD:
        return (fate, not was_dislodged)
    if kind is MOVE:
        return (_NOTHING, True) if moved[i] else (fate, False)
    if kind is SUPPORT:
        return _explain_support(mv, i, fate)
    return _explain_convoy(mv, i, fate)


def _explain_support(mv: MovementResolver, i: int, fate: list[Reason]) -> tuple[list[Reason], bool]:
    if not mv.matched[i]:
        target, destination = mv.target[i], mv.dest[i]
        return ([VoidSupport(target, destination or None, not mv.holders.get(target)), *fate], False)
    shares = mv.shares[i]
    standing = [s for s in shares if mv.resolution[s]]
    if i in mv.paradox:
        return ([Paradox()], False)
    if fate:
        return (fate, False)
    if len(standing) == len(shares):
        return (_NOTHING, True)
    found = mv.cutters(i, True)
    by = tuple(_unit_name(mv, m) for ms in found.values() for m in ms)
    origins = tuple(mv.origin[m] for ms in found.values() for m in ms)
    if standing:
        # written out as the zines did: which part stood and which part was cut (Multiplomacy rule 5 ii)
        d = mv.dets[i]
        order = d.order
        supported = order.target
        assert supported is not None
        what = f"S {supported.composition or ''} {supported.location}".replace("  ", " ")
        if order.destination:
            what += f" - {order.destination}"
        kind = d.composition.kind
        return ([PartlyCut(kind, d.at, what, len(standing), len(shares) - len(standing), by, origins)], True)
    return ([Cut(by, origins)], False)


def _explain_convoy(mv: MovementResolver, i: int, fate: list[Reason]) -> tuple[list[Reason], bool]:
    if not mv.matched[i]:
        carried = [m for m in mv.holders.get(mv.target[i], ()) if mv.kind[m] is MOVE and mv.dest[m] == mv.dest[i]]
        return ([VoidConvoy(mv.target[i], mv.dest[i], bool(carried)), *fate], False)
    if i in mv.paradox:
        return ([Paradox(convoy=True)], False)
    if fate:
        return (fate, False)
    armies = [m for m in mv.holders.get(mv.target[i], ()) if mv.kind[m] is MOVE and i in mv.convoys_for[m]]
    if armies and not any(mv.path(m, True) for m in armies):
        return ([RouteBroken()], False)
    return (_NOTHING, True)


def _why_move_failed(mv: MovementResolver, i: int) -> list[Reason]:
    if not mv.path(i, True):
        return [NoConvoy(disrupted=bool(mv.convoys_for[i]))]
    g = mv.leader[i]
    attack = mv.attack_strength(g, True)
    destination = mv.dest[g]
    holders = mv.holders.get(destination, [])
    if attack == 0 and holders and mv.power[holders[0]] == mv.power[g]:
        return [OwnUnit(destination)]
    reasons: list[Reason] = []
    h = mv.head_to_head.get(g)
    if h is not None:
        defend = mv.defend_strength(h, True)
        if attack <= defend:
            reasons.append(HeadToHead(_unit_name(mv, h), attack, defend))
        elif mv.whole_defends(destination):
            hold = mv.hold_strength(destination, True, (), h)
            if attack <= hold:
                reasons.append(HeldBy(_force_name(mv, holders), attack, hold, False))
    elif holders and not (mv.may_share and mv.power[holders[0]] == mv.power[g]):
        hold = mv.hold_strength(destination, True, mv.staying_members.get(g, ()))  # as the resolution weighs it
        if attack <= hold:
            stayed = all(mv.kind[j] is MOVE for j in holders)
            reasons.append(HeldBy(_force_name(mv, holders), attack, hold, stayed))
    # the other attacks on the destination: each stronger one beat this move, the ones as strong stood it off
    standoff: list[UnitName] = []
    for k in mv.moves_to[destination]:
        if k == g:
            continue
        prevent = mv.prevent_strength(k, True)
        if prevent > attack:
            reasons.append(Beaten(_group_names(mv, k), attack, prevent))
        elif prevent == attack:
            standoff.extend(_group_names(mv, k))
    if standoff:
        reasons.append(Bounced(tuple(standoff), attack))
    return reasons or [Failed()]


__all__ = ["CONVOY", "SUPPORT", "adjudicate_movement"]
