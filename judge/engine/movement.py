"""The movement phase: clean the orders, resolve them, and derive the position after.

Three stages, as in every sound adjudicator: (1) every order line is bound to a unit and checked for
legality (an illegal order is reported with its reason and the unit holds; unordered units hold); (2) the
remaining legal orders are resolved by the equations of DATC chapter 5 on top of the generic `Resolver`;
(3) the outcome (new positions, dislodgements, stand-offs, reasons) is derived from the resolutions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from judge.board.model import Board, province_of
from judge.engine.legality import check_movement_order
from judge.engine.orders import MOVEMENT_KINDS, Order, OrderKind, Submitted, UnitRef
from judge.engine.phase import next_phase
from judge.engine.position import Dislodged, OrderResult, Outcome, Position, Result
from judge.engine.resolver import Resolver
from judge.engine.retreat import retreat_options
from judge.engine.rules import Rules
from judge.engine.supply import adjustments_needed, update_ownership, winners
from judge.engine.units import Force

HOLD, MOVE, SUPPORT, CONVOY = OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY


class _Movement(Resolver):
    """The equations of DATC 5.B over one phase's legal orders, one order per unit (index = unit)."""

    def __init__(
        self, rules: Rules, forces: list[Force], orders: list[Order], overland: frozenset[int] = frozenset()
    ) -> None:
        super().__init__(len(forces))
        self.overland = overland
        self.rules = rules
        self.board: Board = rules.board
        edition = rules.edition
        self.forces = forces
        self.orders = orders
        n = len(forces)
        self.paradox_rule = edition.paradox_rule
        self.any_route = edition.multi_route_disrupted_by_any
        kind = self.kind = [o.kind for o in orders]
        self.power = [f.power for f in forces]
        origin = self.origin = [f.province for f in forces]
        at = self.at = {p: i for i, p in enumerate(origin)}
        dest = self.dest = [""] * n
        target = self.target = [""] * n
        moves: list[int] = []
        supports: list[int] = []
        convoys: list[int] = []
        for i, o in enumerate(orders):
            k = o.kind
            if k is MOVE:
                moves.append(i)
            elif k is SUPPORT:
                supports.append(i)
            elif k is CONVOY:
                convoys.append(i)
            else:
                continue
            if o.destination:
                dest[i] = province_of(o.destination)
            if o.target is not None:
                target[i] = province_of(o.target.location)

        # convoys first: whether a move goes by convoy decides whether it is valid at all
        self.convoys_for: list[list[int]] = [[] for _ in range(n)]
        self.matched = [True] * n
        for i in convoys:
            t = at.get(target[i])
            if t is not None and kind[t] is MOVE and dest[t] == dest[i]:
                self.convoys_for[t].append(i)
            else:
                self.matched[i] = False
        self.convoyed = [False] * n
        self.routes: list[tuple[list[int], list[int], dict[int, list[int]]] | None] = [None] * n
        army_adjacency = self.board.army_adjacency
        moves_to: dict[str, list[int]] = {}
        self.moves_to = moves_to
        for i in moves:
            moves_to.setdefault(dest[i], []).append(i)
            if forces[i].composition.is_army and (
                orders[i].via_convoy or self.convoys_for[i] or dest[i] not in army_adjacency[origin[i]]
            ):
                self.convoyed[i] = self._is_convoyed(i)
        for i in convoys:
            if self.matched[i] and not self.convoyed[at[target[i]]]:
                self.matched[i] = False  # the army goes over land: the convoy is not used
        for i in moves:
            if self.convoyed[i]:
                self.convoys_for[i] = [c for c in self.convoys_for[i] if self.matched[c]]
                self.routes[i] = self._static_route(i)
            elif self.convoys_for[i]:
                self.convoys_for[i] = []

        # which supports match an actual order (a coast named in a support must be the move's coast)
        self.move_supports: list[list[int]] = [[] for _ in range(n)]
        self.hold_supports: list[list[int]] = [[] for _ in range(n)]
        for i in supports:
            t = at.get(target[i])
            if t is None:
                self.matched[i] = False
            elif dest[i]:
                wanted = orders[i].destination or ""
                if kind[t] is MOVE and dest[t] == dest[i] and ("/" not in wanted or wanted == orders[t].destination):
                    self.move_supports[t].append(i)
                else:
                    self.matched[i] = False
            elif kind[t] is not MOVE:
                self.hold_supports[t].append(i)
            else:
                self.matched[i] = False

        self.head_to_head = [-1] * n
        for i in moves:
            if not self.convoyed[i]:
                j = at.get(dest[i])
                if j is not None and kind[j] is MOVE and dest[j] == origin[i] and not self.convoyed[j]:
                    self.head_to_head[i] = j

        # strength of each unit where it acts (standard: one per unit; variants weigh compositions by terrain)
        if rules.weighs_compositions:
            strength = rules.force_strength
            provinces = self.board.provinces
            self.own_strength = [strength(f.composition, provinces[f.province].terrain) for f in forces]
            self.attack_weight = [
                strength(forces[i].composition, provinces[self.dest[i]].terrain) if self.kind[i] is MOVE else 0
                for i in range(n)
            ]
            self.support_weight = [
                strength(forces[i].composition, provinces[self.dest[i] or self.target[i]].terrain)
                if self.kind[i] is SUPPORT
                else 0
                for i in range(n)
            ]
        else:
            self.own_strength = self.attack_weight = self.support_weight = [f.composition.size for f in forces]

    # --- set-up helpers ---------------------------------------------------------------------------------

    def _is_convoyed(self, i: int) -> bool:
        order = self.orders[i]
        if order.via_convoy or self.dest[i] not in self.board.army_adjacency[self.origin[i]]:
            return True
        if i in self.overland:
            return False
        convoys = self.convoys_for[i]
        if not convoys:
            return False
        if self.rules.edition.adjacent_convoy == "via_or_own_fleet":
            return any(self.power[c] == self.power[i] for c in convoys)
        # 1971: the convoy is considered only for a swap with a unit moving the opposite way
        j = self.at.get(self.dest[i])
        return j is not None and self.kind[j] is MOVE and self.dest[j] == self.origin[i]

    def _static_route(self, i: int) -> tuple[list[int], list[int], dict[int, list[int]]]:
        """Convoying fleets next to the origin, next to the destination, and next to each other."""
        board = self.board
        fleets = self.convoys_for[i]
        starts = [c for c in fleets if board.fleet_reaches_province(self.forces[c].at, self.origin[i])]
        ends = [c for c in fleets if board.fleet_reaches_province(self.forces[c].at, self.dest[i])]
        links = {
            c: [d for d in fleets if d != c and board.fleet_reaches_province(self.forces[c].at, self.origin[d])]
            for c in fleets
        }
        return starts, ends, links

    # --- the equations ----------------------------------------------------------------------------------

    def path(self, i: int, high: bool) -> bool:
        """Does the move have a route? `high` reads unknown convoys in the route's favour."""
        if not self.convoyed[i]:
            return True
        route = self.routes[i]
        assert route is not None
        starts, ends, links = route
        if not starts or not ends:
            return False
        ends_set = set(ends)
        if self.any_route:
            reachable = self._reachable(starts, links, lambda c: True)
            if not reachable & ends_set:
                return False
            return all(self.resolve(c, high) for c in reachable)
        reachable = self._reachable(starts, links, lambda c: self.resolve(c, high))
        return bool(reachable & ends_set)

    @staticmethod
    def _reachable(starts: list[int], links: dict[int, list[int]], usable: Callable[[int], bool]) -> set[int]:
        seen: set[int] = set()
        stack = [c for c in starts if usable(c)]
        seen.update(stack)
        while stack:
            c = stack.pop()
            for d in links[c]:
                if d not in seen and usable(d):
                    seen.add(d)
                    stack.append(d)
        return seen

    def _supports(self, supports: list[int], high: bool, exclude_power: str | None = None) -> int:
        total = 0
        for s in supports:
            if exclude_power is not None and self.power[s] == exclude_power:
                continue
            if self.resolve(s, high):
                total += self.support_weight[s]
        return total

    def attack_strength(self, i: int, high: bool) -> int:
        if not self.path(i, high):
            return 0
        j = self.at.get(self.dest[i])
        if j is None or (self.head_to_head[i] < 0 and self.kind[j] is MOVE and self.resolve(j, high)):
            return self.attack_weight[i] + self._supports(self.move_supports[i], high)
        if self.power[j] == self.power[i]:
            return 0
        return self.attack_weight[i] + self._supports(self.move_supports[i], high, exclude_power=self.power[j])

    def hold_strength(self, province: str, high: bool) -> int:
        j = self.at.get(province)
        if j is None:
            return 0
        if self.kind[j] is MOVE:
            return 0 if self.resolve(j, not high) else self.own_strength[j]
        return self.own_strength[j] + self._supports(self.hold_supports[j], high)

    def defend_strength(self, i: int, high: bool) -> int:
        return self.attack_weight[i] + self._supports(self.move_supports[i], high)

    def prevent_strength(self, i: int, high: bool) -> int:
        if not self.path(i, high):
            return 0
        j = self.head_to_head[i]
        if j >= 0 and self.resolve(j, not high):
            return 0
        return self.attack_weight[i] + self._supports(self.move_supports[i], high)

    def adjudicate(self, i: int, optimistic: bool) -> bool:
        kind = self.kind[i]
        if kind is MOVE:
            return self._adjudicate_move(i, optimistic)
        if kind is SUPPORT:
            return self._adjudicate_support(i, optimistic)
        if kind is CONVOY:
            return self._adjudicate_convoy(i, optimistic)
        return True

    def _adjudicate_move(self, i: int, optimistic: bool) -> bool:
        attack = self.attack_strength(i, optimistic)
        if attack == 0:
            return False
        opposing = not optimistic
        j = self.head_to_head[i]
        if j >= 0:
            if attack <= self.defend_strength(j, opposing):
                return False
        elif attack <= self.hold_strength(self.dest[i], opposing):
            return False
        for k in self.moves_to[self.dest[i]]:
            if k != i and attack <= self.prevent_strength(k, opposing):
                return False
        return True

    def _support_protected(self, s: int, m: int) -> bool:
        """Is the support in s safe from being cut (not dislodged) by the move m?"""
        if self.dest[s]:
            if self.origin[m] == self.dest[s]:
                return True
        elif self.origin[m] == self.target[s]:
            return True
        if not self.convoyed[m] or self.paradox_rule == "szykman":
            return False
        return self._paradox_exception(s, m)

    def _paradox_exception(self, s: int, m: int) -> bool:
        """The rulebooks' own convoy-paradox rules (1971, 1982, 2000): the convoyed army does not cut."""
        fleet_provinces = {self.origin[c] for c in self.convoys_for[m]}
        if self.paradox_rule == "2000":
            return bool(self.dest[s]) and self.dest[s] in fleet_provinces
        supporter_is_fleet = self.forces[s].composition.is_fleet
        if not supporter_is_fleet:
            return False
        if self.paradox_rule == "1982":
            area = self.dest[s] or self.target[s]
            if not self.board.provinces[area].is_sea:
                return False
            j = self.at.get(area)
            return j is not None and self.kind[j] is CONVOY
        # 1971: a support for a fleet attacking one of the convoying fleets
        t = self.at.get(self.target[s])
        return (
            bool(self.dest[s])
            and t is not None
            and self.forces[t].composition.is_fleet
            and self.dest[s] in fleet_provinces
        )

    def _adjudicate_support(self, s: int, optimistic: bool) -> bool:
        if not self.matched[s]:
            return False
        here = self.origin[s]
        for m in self.moves_to.get(here, ()):
            if self.power[m] == self.power[s]:
                continue
            if self._support_protected(s, m):
                if self.resolve(m, not optimistic):
                    return False  # dislodged
            elif self.path(m, not optimistic):
                return False  # cut
        return True

    def _adjudicate_convoy(self, c: int, optimistic: bool) -> bool:
        if not self.matched[c]:
            return False
        return all(not self.resolve(m, not optimistic) for m in self.moves_to.get(self.origin[c], ()))

    def backup_rule(self, cycle: list[int]) -> None:
        convoys = [c for c in cycle if self.kind[c] is CONVOY]
        if convoys:
            for c in convoys:  # Szykman: the convoying fleets in the paradox hold
                self.settle(c, False)
                self.paradox.add(c)
        elif all(self.kind[c] is MOVE for c in cycle):
            for c in cycle:  # circular movement: everybody moves
                self.settle(c, True)
        else:
            for c in cycle:
                self.settle(c, False)
                self.paradox.add(c)

    paradox: set[int]


def adjudicate_movement(rules: Rules, position: Position, submitted: Sequence[Submitted]) -> Outcome:
    board = rules.board
    forces = list(position.units)
    index = {f.province: i for i, f in enumerate(forces)}
    results: list[OrderResult] = []
    chosen: list[list[tuple[int, Order]]] = [[] for _ in forces]
    about: list[list[int]] = [[] for _ in forces]
    """result lines that name each unit, legal or not"""

    for sub in submitted:
        entry = OrderResult(sub.power, sub.text, None, Result.ILLEGAL)
        results.append(entry)
        order = sub.order
        if order is None:
            entry.reason = sub.error or "could not read this order"
            continue
        if order.unit is None or order.kind not in MOVEMENT_KINDS:
            entry.canonical = order
            entry.reason = f"a {order.kind.value} order is not possible in a movement phase"
            continue
        i = index.get(province_of(order.unit.location))
        if i is None:
            entry.canonical = order
            entry.reason = f"there is no unit in {province_of(order.unit.location)}"
            continue
        force = forces[i]
        if force.power != sub.power:
            entry.canonical = order
            entry.reason = f"the unit in {force.province} belongs to {force.power}"
            continue
        checked = check_movement_order(rules, forces, index, force, order)
        entry.canonical = checked.order
        about[i].append(len(results) - 1)
        if checked.ok:
            chosen[i].append((len(results) - 1, checked.order))
            entry.result = Result.FAILS  # until resolved
        else:
            entry.reason = checked.reason + "; the unit holds"

    final_orders: list[Order] = []
    entries_for: list[list[int]] = []
    for i, force in enumerate(forces):
        candidates = chosen[i]
        if len(candidates) > 1 and len({o for _, o in candidates}) > 1:
            for r, _ in candidates:
                results[r].result = Result.ILLEGAL
                results[r].reason = "the unit was given different orders; it holds (DATC 4.D.3)"
            candidates = []
        if candidates:
            final_orders.append(candidates[0][1])
            entries_for.append([r for r, _ in candidates])
            continue
        hold = _hold(force)
        final_orders.append(hold)
        if not about[i]:
            results.append(OrderResult(force.power, "", hold, Result.SUCCEEDS, added=True))
            entries_for.append([len(results) - 1])
        else:
            entries_for.append(about[i])

    overland: frozenset[int] = frozenset()
    while True:
        mv = _Movement(rules, forces, final_orders, overland)
        mv.paradox = set()
        for i in range(len(forces)):
            if mv.kind[i] is not HOLD:
                mv.resolve(i, True)
        if rules.edition.adjacent_convoy != "opposite_move":
            break
        # 1971: an unwanted convoy to an adjacent province that is disrupted leaves the army its land route
        fallen = {
            i
            for i in range(len(forces))
            if mv.convoyed[i]
            and not final_orders[i].via_convoy
            and board.army_can_move(mv.origin[i], mv.dest[i])
            and not mv.path(i, True)
        }
        if not fallen:
            break
        overland = overland | fallen

    return _outcome(rules, position, mv, results, entries_for)


def _hold(force: Force) -> Order:
    return Order(HOLD, UnitRef(force.composition, force.at))


def _outcome(
    rules: Rules,
    position: Position,
    mv: _Movement,
    results: list[OrderResult],
    entries_for: list[list[int]],
) -> Outcome:
    board = rules.board
    forces = mv.forces
    n = len(forces)
    succeeded = [mv.resolved[i] and mv.resolution[i] for i in range(n)]
    new_units: list[Force] = []
    dislodged: list[Dislodged] = []
    moved_in: dict[str, int] = {}
    for i in range(n):
        if mv.kind[i] is MOVE and succeeded[i]:
            moved_in[mv.dest[i]] = i
    for i in range(n):
        force = forces[i]
        if mv.kind[i] is MOVE and succeeded[i]:
            destination = mv.orders[i].destination
            assert destination is not None
            new_units.append(force.moved_to(destination))
            continue
        winner = moved_in.get(force.province)
        if winner is not None:
            dislodged.append(Dislodged(force, mv.origin[winner], mv.convoyed[winner]))
        else:
            new_units.append(force)

    occupied = {f.province for f in new_units}
    standoffs = set()
    for province, movers in mv.moves_to.items():
        if province in occupied:
            continue
        if any(not succeeded[m] and mv.prevent_strength(m, True) > 0 for m in movers):
            standoffs.add(province)

    dislodged_at = {d.force.province: d for d in dislodged}
    for i in range(n):
        reason, ok = _explain(mv, i, succeeded, dislodged_at)
        for r in entries_for[i]:
            entry = results[r]
            if entry.result is Result.ILLEGAL:
                if forces[i].province in dislodged_at:
                    entry.reason += f"; dislodged from {forces[i].province}"
                continue
            entry.result = Result.SUCCEEDS if ok else Result.FAILS
            entry.reason = reason
            if not ok and mv.kind[i] is MOVE:
                entry.explain = partial(_why_move_failed, mv, i)

    finished = tuple(Dislodged(d.force, d.attacker_from, d.by_convoy, None) for d in dislodged)

    with_options = tuple(
        Dislodged(d.force, d.attacker_from, d.by_convoy, retreat_options(rules, d, new_units, frozenset(standoffs)))
        for d in finished
    )
    centres = dict(position.centres)
    phase = position.phase
    retreats = bool(with_options)
    if phase.season == "Fall" and not retreats:
        centres = update_ownership(board, centres, new_units)
    following = next_phase(
        phase,
        retreats_needed=retreats,
        adjustments_needed=phase.season == "Fall" and adjustments_needed(rules, centres, new_units),
    )
    won = winners(rules, centres) if phase.season == "Fall" and not retreats else None
    outcome = Outcome(
        phase=phase,
        results=results,
        units=tuple(new_units),
        dislodged=with_options,
        standoffs=frozenset(standoffs),
        centres=centres,
        next_phase=following,
        winner=won,
    )
    return outcome


def _unit_name(mv: _Movement, j: int) -> str:
    f = mv.forces[j]
    return f"{f.power} {f.composition} {f.at}"


def _explain(mv: _Movement, i: int, succeeded: list[bool], dislodged_at: dict[str, Dislodged]) -> tuple[str, bool]:
    kind = mv.kind[i]
    here = mv.origin[i]
    fate = ""
    d = dislodged_at.get(here)
    if d is not None:
        via = " (convoyed)" if d.by_convoy else ""
        fate = f"dislodged by the attack from {d.attacker_from}{via}"
    if kind is HOLD:
        return (fate, d is None)
    if kind is MOVE:
        if succeeded[i]:
            return ("", True)
        return (fate, False)
    if kind is SUPPORT:
        if not mv.matched[i]:
            t = mv.at.get(mv.target[i])
            what = f"{mv.target[i]} did not move to {mv.dest[i]}" if mv.dest[i] else f"{mv.target[i]} did not hold"
            if t is None:
                what = f"no unit in {mv.target[i]}"
            return (f"void: {what}" + (f"; {fate}" if fate else ""), False)
        if succeeded[i]:
            return ("", True)
        if i in mv.paradox:
            return ("paradox: support fails", False)
        if fate:
            return (fate, False)
        cutters = [
            m
            for m in mv.moves_to.get(here, ())
            if mv.power[m] != mv.power[i] and not mv._support_protected(i, m) and mv.path(m, True)
        ]
        names = ", ".join(f"{_unit_name(mv, m)} from {mv.origin[m]}" for m in cutters)
        return (f"cut by {names}" if names else "cut", False)
    # convoy
    if not mv.matched[i]:
        t = mv.at.get(mv.target[i])
        if t is not None and mv.kind[t] is MOVE and mv.dest[t] == mv.dest[i]:
            return ("void: the army went over land" + (f"; {fate}" if fate else ""), False)
        return (
            f"void: no army moved from {mv.target[i]} to {mv.dest[i]}" + (f"; {fate}" if fate else ""),
            False,
        )
    if i in mv.paradox:
        return ("convoy paradox: the fleet holds (Szykman rule)", False)
    if fate:
        return (fate, False)
    army = mv.at[mv.target[i]]
    if not mv.path(army, True):
        return ("the convoy route was broken elsewhere", False)
    return ("", True)


def _why_move_failed(mv: _Movement, i: int) -> str:
    if not mv.path(i, True):
        if not mv.convoys_for[i]:
            return "no convoy"
        return "convoy disrupted"
    attack = mv.attack_strength(i, True)
    dest = mv.dest[i]
    j = mv.at.get(dest)
    if attack == 0 and j is not None and mv.power[j] == mv.power[i]:
        return f"cannot dislodge its own unit in {dest}"
    reasons = []
    h = mv.head_to_head[i]
    if h >= 0:
        defend = mv.defend_strength(h, True)
        if attack <= defend:
            reasons.append(f"beaten head to head by {_unit_name(mv, h)} ({attack} against {defend})")
    elif j is not None:
        hold = mv.hold_strength(dest, True)
        if attack <= hold:
            if mv.kind[j] is MOVE:
                reasons.append(f"bounced off {_unit_name(mv, j)}, which did not move away")
            else:
                reasons.append(f"held by {_unit_name(mv, j)} ({attack} against {hold})")
    bouncers = [k for k in mv.moves_to[dest] if k != i and attack <= mv.prevent_strength(k, True)]
    if bouncers:
        names = ", ".join(f"{_unit_name(mv, k)}" for k in bouncers)
        reasons.append(f"bounced with {names}")
    return "; ".join(reasons) or "failed"


__all__ = ["adjudicate_movement"]
