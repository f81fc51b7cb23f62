"""Seeded random standard games, played through the engine: the workload of the engine benchmark.

Orders are chosen the way a careless but not absurd player writes them: most units move or hold, and
supports and convoys are given to what the other units were actually ordered to do, so that they match
often enough to exercise the resolver.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from judge.board.model import Board, province_of
from judge.engine import (
    ARMY,
    FLEET,
    Force,
    Order,
    OrderKind,
    Outcome,
    Phase,
    PhaseType,
    Position,
    Rules,
    Submitted,
    UnitRef,
    adjudicate,
)
from judge.engine.supply import balances, build_sites
from judge.engine.units import Composition
from judge.value import replace
from judge.variants import get_variant


@dataclass
class PlayedPhase:
    rules: Rules
    position: Position
    orders: list[Submitted]


def _ref(force: Force) -> UnitRef:
    return UnitRef(force.composition, force.at)


def _destinations(board: Board, force: Force) -> list[str]:
    if force.composition.is_army:
        return sorted(board.army_adjacency.get(force.province, ()))
    return sorted(board.fleet_adjacency.get(force.at, ()))


def movement_orders(board: Board, position: Position, rng: random.Random) -> list[Submitted]:
    units = list(position.units)
    rng.shuffle(units)
    chosen: dict[str, Order] = {}
    for force in units:
        roll = rng.random()
        options = _destinations(board, force)
        if roll < 0.55 and options:
            chosen[force.province] = Order(OrderKind.MOVE, _ref(force), destination=rng.choice(options))
        elif roll < 0.65 and force.composition.is_fleet and board.provinces[force.province].is_sea:
            armies = [
                u
                for u in units
                if u.composition.is_army
                and board.fleet_reaches_province(force.at, u.province)
                and u.province not in chosen
            ]
            landings = [province_of(t) for t in options if board.provinces[province_of(t)].terrain.value == "coast"]
            if armies and landings:
                army = rng.choice(armies)
                to = rng.choice([p for p in landings if p != army.province] or landings)
                if to != army.province:
                    chosen[army.province] = Order(OrderKind.MOVE, _ref(army), destination=to)
                    chosen[force.province] = Order(OrderKind.CONVOY, _ref(force), target=_ref(army), destination=to)
    by_province = {u.province: u for u in units}
    for force in units:
        if force.province in chosen:
            continue
        if rng.random() < 0.6:
            reach = {province_of(t) for t in _destinations(board, force)}
            friends = [by_province[p] for p in sorted(reach) if p in by_province]
            if friends:
                friend = rng.choice(friends)
                theirs = chosen.get(friend.province)
                if theirs is not None and theirs.kind is OrderKind.MOVE:
                    assert theirs.destination is not None
                    if province_of(theirs.destination) in reach:
                        chosen[force.province] = Order(
                            OrderKind.SUPPORT,
                            _ref(force),
                            target=_ref(friend),
                            destination=theirs.destination,
                        )
                        continue
                elif theirs is None or theirs.kind is not OrderKind.MOVE:
                    chosen[force.province] = Order(OrderKind.SUPPORT, _ref(force), target=_ref(friend))
                    continue
        chosen[force.province] = Order(OrderKind.HOLD, _ref(force))
    # each unit its own order (where a power's units share a province, each names its own type)
    return [Submitted(u.power, "", _for_unit(chosen[u.province], u)) for u in position.units]


def _for_unit(order: Order, unit: Force) -> Order:
    ref = _ref(unit)
    return order if order.unit == ref else replace(order, unit=ref)


def retreat_orders(position: Position, rng: random.Random) -> list[Submitted]:
    orders = []
    for d in position.dislodged:
        unit = _ref(d.force)
        if d.retreats and rng.random() < 0.8:
            orders.append(
                Submitted(d.force.power, "", Order(OrderKind.RETREAT, unit, destination=rng.choice(d.retreats)))
            )
        else:
            orders.append(Submitted(d.force.power, "", Order(OrderKind.DISBAND, unit)))
    return orders


def adjustment_orders(rules: Rules, position: Position, rng: random.Random) -> list[Submitted]:
    board = rules.board
    owed = balances(rules, position.centres, position.units)
    orders = []
    for power in board.powers:
        diff = owed.get(power, 0) // 2
        if diff > 0:
            sites = build_sites(rules, power, position.centres, position.units, position.variant_state)
            rng.shuffle(sites)
            for site in sites[:diff]:
                coasts = board.provinces[site].coasts
                if board.provinces[site].terrain.value == "coast" and rng.random() < 0.4:
                    where = f"{site}/{rng.choice(coasts)}" if coasts else site
                    unit = UnitRef(FLEET, where)
                else:
                    unit = UnitRef(ARMY, site)
                orders.append(Submitted(power, "", Order(OrderKind.BUILD, unit)))
        elif diff < 0:
            mine = [u for u in position.units if u.power == power]
            for victim in rng.sample(mine, min(-diff, len(mine))):
                orders.append(Submitted(power, "", Order(OrderKind.REMOVE, _ref(victim))))
    return orders


def placement_orders(rules: Rules, position: Position, rng: random.Random) -> list[Submitted]:
    """A placement phase's orders (Mad Diplomacy): where nothing is placed yet, each power's centres anywhere in
    its country; then units of random strengths there, up to its centres."""
    board = rules.board
    orders = []
    for power in sorted(board.powers):
        country = list(board.powers[power].country)
        rng.shuffle(country)
        owned = sum(1 for owner in position.centres.values() if owner == power)
        if not position.centres:
            for province in country[: board.powers[power].allocation]:
                orders.append(Submitted(power, "", Order(OrderKind.CENTRE, None, destination=province)))
            continue
        left = owned
        for province in country:
            if left <= 0:
                break
            size = rng.randint(1, left)
            spec = board.provinces[province]
            if spec.terrain.value == "coast" and rng.random() < 0.4:
                where = f"{province}/{rng.choice(spec.coasts)}" if spec.coasts else province
                unit = UnitRef(FLEET.times(size), where)
            else:
                unit = UnitRef(ARMY.times(size), province)
            orders.append(Submitted(power, "", Order(OrderKind.BUILD, unit)))
            left -= size
    return orders


def variant_movement_orders(rules: Rules, position: Position, rng: random.Random) -> list[Submitted]:
    """Orders in the variant's own forms: numbered stack orders (Multiplomacy), splits and merges of
    multiples (Multiplicity); standard orders otherwise."""
    orders = movement_orders(rules.board, position, rng)
    if rules.stacking == "power":
        return _numbered(orders)
    if rules.allows(Composition.of(armies=2)):
        return _with_splits_and_merges(rules, position, orders, rng)
    return orders


def _numbered(orders: list[Submitted]) -> list[Submitted]:
    """Identical orders for units of one stack become one numbered order ("3 F Eng-Bre")."""
    counted: dict[tuple[str, Order], int] = {}
    for sub in orders:
        assert sub.order is not None
        counted[(sub.power, sub.order)] = counted.get((sub.power, sub.order), 0) + 1
    out = []
    for (power, order), count in counted.items():
        assert order.unit is not None
        if count > 1:
            order = replace(order, unit=replace(order.unit, count=count))
        out.append(Submitted(power, "", order))
    return out


def _with_splits_and_merges(
    rules: Rules, position: Position, orders: list[Submitted], rng: random.Random
) -> list[Submitted]:
    board = rules.board
    by_province = {f.province: f for f in position.units}
    replaced: dict[str, Submitted] = {}
    for force in position.units:
        if force.province in replaced or rng.random() > 0.15:
            continue
        neighbours = sorted(province_of(t) for t in _destinations(board, force))
        if force.composition.size > 1 and neighbours:
            part = force.composition.singles()[0]
            moving = Order(OrderKind.MOVE, UnitRef(part, force.at), destination=rng.choice(neighbours))
            rest = force.composition.minus(part)
            assert rest is not None
            staying = Order(OrderKind.HOLD, UnitRef(rest, force.at))
            split = Order(OrderKind.SPLIT, _ref(force), parts=(moving, staying))
            replaced[force.province] = Submitted(force.power, "", split)
            continue
        for target in neighbours:
            partners = [
                f
                for p, f in by_province.items()
                if (f.power == force.power or rules.may_order(force.power, f))  # Hoplite Wars: Major with Minor
                and p not in replaced
                and p != force.province
                and target in {province_of(t) for t in _destinations(board, f)}
            ]
            if partners:
                partner = rng.choice(partners)
                merge = Order(OrderKind.MERGE, None, destination=target, merging=(_ref(force), _ref(partner)))
                replaced[force.province] = replaced[partner.province] = Submitted(force.power, "", merge)
                break
    kept = [
        s
        for s in orders
        if s.order is None or s.order.unit is None or province_of(s.order.unit.location) not in replaced
    ]
    return kept + list({id(s): s for s in replaced.values()}.values())


def phase_orders(rules: Rules, position: Position, rng: random.Random) -> list[Submitted]:
    """Random orders of whatever kind the phase takes (the demo's and the whole games' by mail)."""
    if position.phase.type is PhaseType.RETREAT:
        return retreat_orders(position, rng)
    if position.phase.type is PhaseType.ADJUSTMENT:
        return adjustment_orders(rules, position, rng)
    if position.phase.type is PhaseType.PLACEMENT:
        return placement_orders(rules, position, rng)
    return variant_movement_orders(rules, position, rng)


def next_position(position: Position, outcome: Outcome) -> Position:
    return Position(
        outcome.next_phase, outcome.units, outcome.centres, outcome.dislodged, outcome.standoffs, outcome.variant_state
    )


def play(rules: Rules, seed: int, years: int) -> Iterator[tuple[PlayedPhase, Outcome]]:
    """Yield every phase of one random game with the outcome the engine gave it."""
    rng = random.Random(seed)
    position = get_variant(rules.variant).starting_position()
    last_year = position.phase.year + years
    while position.phase.year < last_year:
        kind = position.phase.type
        if kind is PhaseType.MOVEMENT:
            orders = variant_movement_orders(rules, position, rng)
        elif kind is PhaseType.RETREAT:
            orders = retreat_orders(position, rng)
        elif kind is PhaseType.PLACEMENT:
            orders = placement_orders(rules, position, rng)
        else:
            orders = adjustment_orders(rules, position, rng)
        outcome = adjudicate(rules, position, orders, seed)
        yield PlayedPhase(rules, position, orders), outcome
        if outcome.winner:
            return
        position = next_position(position, outcome)


def random_position(board: Board, rng: random.Random, units: int) -> Position:
    """A random legal movement position: `units` units of random powers on random provinces."""
    powers = sorted(board.powers)
    provinces = sorted(p for p, prov in board.provinces.items() if prov.terrain.value != "impassable")
    rng.shuffle(provinces)
    forces = []
    for province in provinces[:units]:
        prov = board.provinces[province]
        if prov.holds_armies and (not prov.holds_fleets or rng.random() < 0.5):
            forces.append(Force(rng.choice(powers), ARMY, province))
        else:
            forces.append(Force(rng.choice(powers), FLEET, rng.choice(board.locations(province))))
    centres = {c: rng.choice(powers) for c in board.supply_centres if rng.random() < 0.7}
    season = rng.choice(["Spring", "Fall"])
    return Position(Phase(season, 1901 + rng.randrange(10), PhaseType.MOVEMENT), tuple(forces), centres)


def wild_orders(board: Board, position: Position, rng: random.Random) -> list[Submitted]:
    """Orders as careless players write them: mostly sensible, some illegal, some for the wrong unit."""
    orders = movement_orders(board, position, rng)
    provinces = sorted(board.provinces)
    extra = []
    for sub in orders:
        roll = rng.random()
        if roll < 0.1:
            assert sub.order is not None and sub.order.unit is not None
            extra.append(
                Submitted(sub.power, "", Order(OrderKind.MOVE, sub.order.unit, destination=rng.choice(provinces)))
            )
        elif roll < 0.15:
            someone = rng.choice(sorted(board.powers))
            extra.append(Submitted(someone, "", Order(OrderKind.HOLD, UnitRef(ARMY, rng.choice(provinces)))))
        elif roll < 0.2:
            assert sub.order is not None and sub.order.unit is not None
            target = UnitRef(None, rng.choice(provinces))
            extra.append(
                Submitted(
                    sub.power,
                    "",
                    Order(OrderKind.CONVOY, sub.order.unit, target=target, destination=rng.choice(provinces)),
                )
            )
    return orders + extra
