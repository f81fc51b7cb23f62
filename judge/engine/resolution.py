"""The equations of a movement phase (DATC chapter 5.B), generalised to forces that share provinces,
attack together and are partly cut -- on top of the generic `Resolver`.

What the resolver sees:
- a **detachment** is a body of one power's troops with one order: a standard unit, a Multiplomacy stack's
  numbered order ("3 F Eng-Bre"), a part of a split, a merging unit;
- an **attack group** is the detachments that attack one province together and succeed or fail as one: in
  standard Diplomacy every move is its own group; merges are groups; Multiplomacy groups all of a power's moves
  into a province ("attacks are taken to be in unison"). The group's decision is taken by its first member;
- a support is split into **shares**, one per unit it weighs; an attack cuts shares in the variant's priority
  order (last written first), so a support can be partly cut. Standard supports have one share, cut whole.

The variant's rule module answers the questions that differ (`Rules`: grouping, sharing provinces, weights,
what an attack cuts); this module holds the one set of equations.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

from judge.board.model import Board, province_of
from judge.engine.events import DieRoll, Event
from judge.engine.orders import Order, OrderKind
from judge.engine.reasons import Reason
from judge.engine.refusals import Refusal
from judge.engine.resolver import Resolver, file_under
from judge.engine.rules import CUT_ALL, Rules
from judge.engine.units import Composition, Force
from judge.value import Record

HOLD, MOVE, SUPPORT, CONVOY = OrderKind.HOLD, OrderKind.MOVE, OrderKind.SUPPORT, OrderKind.CONVOY
ALL = CUT_ALL


class Detachment(Record):
    force: Force
    """the troops: a whole force, or the part of a force that has this order"""
    order: Order
    """its canonical order: hold, move, support or convoy"""
    merge: str | None
    """the merge it belongs to (detachments of one merge attack as one group)"""
    written: int
    """position of its order in its power's orders, for the priority of cuts"""
    entries: list[int]
    """the result lines that report on it"""
    idle: bool
    """the unordered rest of a force (it holds, but does not shield the force's supports)"""
    carries: tuple[tuple[str, str], ...]
    """a convoy's further cargoes (army's province, destination) besides its order's (Mad Diplomacy rule 4e)"""

    names = ("force", "order", "merge", "written", "entries", "idle", "carries")
    # as its dataclass had (`slots=True`): the pure-Python path reads these in every loop
    __slots__ = ("carries", "entries", "force", "idle", "merge", "order", "written")

    def __init__(
        self,
        force: Force,
        order: Order,
        merge: str | None = None,
        written: int = 0,
        entries: list[int] | None = None,
        idle: bool = False,
        carries: tuple[tuple[str, str], ...] = (),
    ) -> None:
        # written out, not generated: see `Force.__init__` (judge/engine/units.py)
        self.force = force
        self.order = order
        self.merge = merge
        self.written = written
        self.entries = [] if entries is None else entries
        self.idle = idle
        self.carries = carries

    @property
    def power(self) -> str:
        return self.force.power

    @property
    def composition(self) -> Composition:
        return self.force.composition

    @property
    def at(self) -> str:
        return self.force.at

    @property
    def province(self) -> str:
        return self.force.province


class MovementResolver(Resolver):
    def __init__(
        self,
        rules: Rules,
        dets: list[Detachment],
        overland: frozenset[int] = frozenset(),
        seed: int = 0,
        held: dict[int, Refusal] | None = None,
        side_of: dict[str, str] | None = None,
    ) -> None:
        n = len(dets)
        self.held = held or {}
        """moves the rules call off after a first resolution (a split at sea that would leave an unseaworthy
        remainder), with the reason"""
        self.seed = seed
        self.events: list[Event] = []
        self.rules = rules
        self.board: Board = rules.board
        self.dets = dets
        self.overland = overland
        edition = rules.edition
        self.paradox_rule = edition.paradox_rule
        self.any_route = edition.multi_route_disrupted_by_any
        self.may_share = rules.shares_provinces
        self.paradox: set[int] = set()

        forces = [d.force for d in dets]
        kind = self.kind = [HOLD if i in self.held else d.order.kind for i, d in enumerate(dets)]
        sides = side_of or {}
        self.power = [sides.get(f.power, f.power) for f in forces] if sides else [f.power for f in forces]
        """each detachment's side: the powers one player controls are one side for every "same power" rule"""
        self.cut_side = (
            [rules.cut_side(f.power, side) for f, side in zip(forces, self.power, strict=True)]
            if "cut_side" in rules.overrides
            else self.power
        )
        """whose attacks cannot cut a detachment's support: its side, unless the rules tell a side's units apart"""
        origin = self.origin = [f.province for f in forces]
        dest = self.dest = [""] * n
        target = self.target = [""] * n
        holders: dict[str, list[int]] = {}
        self.holders = holders
        moves: list[int] = []
        supports: list[int] = []
        convoys: list[int] = []
        for i, d in enumerate(dets):
            file_under(holders, origin[i], i)
            o = d.order
            k = kind[i]
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

        # convoys first: whether a move goes by convoy decides which convoys are used
        self.convoys_for: list[list[int]] = [[] for _ in range(n)]
        self.matched = [True] * n
        movers_from: dict[tuple[str, str], list[int]] = {}
        for i in moves:
            file_under(movers_from, (origin[i], dest[i]), i)
        for c in convoys:
            carried = movers_from.get((target[c], dest[c]), [])
            for cargo in dets[c].carries:
                carried = [*carried, *movers_from.get(cargo, [])]
            armies = [m for m in carried if forces[m].composition.is_army]
            if armies:
                for m in armies:
                    self.convoys_for[m].append(c)
            else:
                self.matched[c] = False
        # an army carried by its fleet's sail before it lands (Mad Diplomacy rule 4b): the fleet's move is its route
        self.carrier: list[int | None] = [None] * n
        self.carried = False
        for i in moves:
            via = dets[i].order.via
            if via:
                self.carried = True
                self.carrier[i] = next(
                    (
                        h
                        for h in holders.get(origin[i], ())
                        if kind[h] is MOVE and dest[h] == province_of(via) and forces[h].composition.fleets
                    ),
                    None,
                )
        self.convoyed = [False] * n
        army_adjacency = self.board.army_adjacency
        provinces = self.board.provinces
        for i in moves:
            if (
                forces[i].composition.is_army
                and not provinces[dest[i]].is_sea
                and not provinces[origin[i]].is_sea  # an army aboard at sea lands by itself (A/F rules)
                and (
                    dets[i].order.via_convoy or self.convoys_for[i] or dest[i] not in army_adjacency.get(origin[i], ())
                )
            ):
                self.convoyed[i] = self._is_convoyed(i)
        for c in convoys:
            cargoes = [(target[c], dest[c]), *dets[c].carries]
            if self.matched[c] and not any(self.convoyed[m] for k in cargoes for m in movers_from.get(k, [])):
                self.matched[c] = False  # the army goes over land: the convoy is not used
        self.routes: list[tuple[list[int], list[int], dict[int, list[int]]] | None] = [None] * n
        carry = rules.convoy_capacity
        self.capacity: list[int] | None = None
        if convoys and carry(forces[convoys[0]].composition) is not None:
            self.capacity = [carry(f.composition) or 0 if kind[i] is CONVOY else 0 for i, f in enumerate(forces)]
        for i in moves:
            if self.convoyed[i]:
                self.convoys_for[i] = [c for c in self.convoys_for[i] if self.matched[c]]
                self.routes[i] = self._static_route(i)
            elif self.convoys_for[i]:
                self.convoys_for[i] = []

        # attack groups: `leader[i]` takes the decision for every member
        self.leader = list(range(n))
        self.members: dict[int, list[int]] = {}
        self.moves_to: dict[str, list[int]] = {}
        keys: dict[object, int] = {}
        # the rule module's questions are asked only where it changes the standard answer (asking costs a call
        # into Python for every move and every support of every phase)
        group_key = rules.attack_group_key if "attack_group_key" in rules.overrides else None
        for i in moves:
            if group_key is not None:
                key = group_key(dets[i], i)
            else:  # standard: every move alone, a merge's moves together
                merge = dets[i].merge
                key = i if merge is None else ("merge", dets[i].power, merge)
            first = keys.get(key)
            if first is None:
                keys[key] = i
                self.members[i] = [i]
                file_under(self.moves_to, dest[i], i)
            else:
                self.leader[i] = first
                self.members[first].append(i)
        # a merging detachment already in the merge's province moves nowhere but is part of the group
        self.staying_members: dict[int, list[int]] = {}
        for i, d in enumerate(dets):
            if d.merge is not None and kind[i] is not MOVE and i not in self.held:
                key = ("merge", d.power, d.merge)
                first = keys.get(key)
                if first is not None:
                    file_under(self.staying_members, first, i)

        # supports: which group or province each one helps (a coast named in a support must match)
        self.move_supports: dict[int, list[int]] = {}
        self.hold_supports: dict[str, list[int]] = {}
        for s in supports:
            if dest[s]:
                helped = self._supported_group(s)
                if helped is None:
                    self.matched[s] = False
                else:
                    file_under(self.move_supports, helped, s)
            elif target[s] and any(kind[h] is not MOVE for h in holders.get(target[s], ())):
                file_under(self.hold_supports, target[s], s)
            else:
                self.matched[s] = False

        # head-to-head battles between groups of different powers (own units may swap where they share)
        self.head_to_head: dict[int, int] = {}
        for g, group in self.members.items():
            for m in group:
                if self.convoyed[m]:
                    continue
                for h in holders.get(dest[m], ()):
                    if kind[h] is MOVE and dest[h] == origin[m] and not self.convoyed[h]:
                        opposing = self.leader[h]
                        if self.may_share and self.power[opposing] == self.power[g]:
                            continue
                        self.head_to_head[g] = opposing
                        break
                if g in self.head_to_head:
                    break

        # weights: what each detachment counts where it acts
        if rules.weighs_compositions:
            strength = rules.force_strength
            provinces = self.board.provinces
            self.own_strength = [strength(d.composition, provinces[d.province].terrain) for d in dets]
            self.attack_weight = [
                strength(dets[i].composition, provinces[dest[i]].terrain) if kind[i] is MOVE else 0 for i in range(n)
            ]
            self.support_weight = [
                strength(dets[i].composition, provinces[dest[i] or target[i]].terrain) if kind[i] is SUPPORT else 0
                for i in range(n)
            ]
        else:
            self.own_strength = self.attack_weight = self.support_weight = [f.composition.size for f in forces]

        # shares: a support weighing k has k shares; extra shares get decision indices after the detachments
        self.shares: list[list[int]] = [[i] if kind[i] is SUPPORT else [] for i in range(n)]
        self.share_owner: list[int] = []
        self.share_rank: dict[int, int] = {}
        extra = n
        by_province: dict[str, list[int]] = {}
        for s in supports:
            for _ in range(self.support_weight[s] - 1):
                self.shares[s].append(extra)
                self.share_owner.append(s)
                extra += 1
            file_under(by_province, origin[s], s)
        standard_order = "cut_order" not in rules.overrides
        self.standard_cuts = "cut_amount" not in rules.overrides
        """the standard cut: any attack that cuts, cuts the whole support"""
        self.ranked_shares: dict[str, list[tuple[int, int]]] = {}
        """province -> its supports' (share, support) in the order an attack cuts them"""
        for province, standing in by_province.items():
            ranked = self.ranked_shares[province] = []
            order = standing if len(standing) == 1 and standard_order else rules.cut_order(self, standing)
            for s in order:
                for share in self.shares[s]:
                    self.share_rank[share] = len(ranked)
                    ranked.append((share, s))
        super().__init__(extra)

    # --- set-up helpers ---------------------------------------------------------------------------------

    def _is_convoyed(self, i: int) -> bool:
        order = self.dets[i].order
        if order.via_convoy or self.dest[i] not in self.board.army_adjacency.get(self.origin[i], ()):
            return True
        if i in self.overland:
            return False
        convoys = self.convoys_for[i]
        if not convoys:
            return False
        if self.rules.edition.adjacent_convoy == "via_or_own_fleet":
            return any(self.power[c] == self.power[i] for c in convoys)
        # 1971: the convoy is considered only for a swap with a unit moving the other way
        return any(self.kind[h] is MOVE and self.dest[h] == self.origin[i] for h in self.holders.get(self.dest[i], ()))

    def _static_route(self, i: int) -> tuple[list[int], list[int], dict[int, list[int]]]:
        """Convoying fleets next to the origin, next to the destination, and next to each other."""
        board = self.board
        fleets = self.convoys_for[i]
        dets = self.dets
        starts = [c for c in fleets if board.fleet_reaches_province(dets[c].at, self.origin[i])]
        ends = [c for c in fleets if board.fleet_reaches_province(dets[c].at, self.dest[i])]
        links = {
            c: [d for d in fleets if d != c and board.fleet_reaches_province(dets[c].at, self.origin[d])]
            for c in fleets
        }
        if "convoy_link" in self.rules.overrides:
            links = {
                c: [d for d in near if self.rules.convoy_link(dets[c].at, dets[d].at)] for c, near in links.items()
            }
        return starts, ends, links

    def _supported_group(self, s: int) -> int | None:
        """The attack group a move support helps: the one moving from the supported province to its
        destination (a coast named in the support must be the move's coast); a support naming no unit
        helps the merge into its destination."""
        if self.dets[s].order.target is None:
            for g in self.moves_to.get(self.dest[s], ()):
                if self.dets[g].merge is not None:
                    return g
            return None
        wanted = self.dets[s].order.destination or ""
        for h in self.holders.get(self.target[s], ()):
            if self.kind[h] is MOVE and self.dest[h] == self.dest[s]:
                if "/" in wanted and wanted != self.dets[h].order.destination:
                    return None
                return self.leader[h]
        return None

    # --- the equations ----------------------------------------------------------------------------------

    def path(self, i: int, high: bool) -> bool:
        """Does the detachment's move have a route? `high` reads unknown convoys in the route's favour."""
        if self.carried and self.dets[i].order.via:
            carrier = self.carrier[i]
            return carrier is not None and self.resolve(self.leader[carrier], high)
        if not self.convoyed[i]:
            return True
        route = self.routes[i]
        assert route is not None
        starts, ends, links = route
        if not starts or not ends:
            return False
        if self.capacity is not None:
            return self._carried(i, high)
        ends_set = set(ends)
        if self.any_route:
            reachable = self._reachable(starts, links, lambda c: True)
            if not reachable & ends_set:
                return False
            return all(self.resolve(c, high) for c in reachable)
        reachable = self._reachable(starts, links, lambda c: self.resolve(c, high))
        return bool(reachable & ends_set)

    def _carried(self, i: int, high: bool) -> bool:
        """With limited convoy capacity: the armies going the same way share the fleets' room, and are
        carried in the order they were written while room lasts (max flow through the standing fleets)."""
        route = self.routes[i]
        assert route is not None
        starts, ends, links = route
        capacity = self.capacity
        assert capacity is not None
        usable = {c: capacity[c] for c in self.convoys_for[i] if capacity[c] > 0 and self.resolve(c, high)}
        room = _max_flow(starts, ends, links, usable)
        same_way = [
            m for m in self.holders.get(self.origin[i], ()) if self.convoyed[m] and self.dest[m] == self.dest[i]
        ]
        before = 0
        for m in sorted(same_way, key=lambda m: self.dets[m].written):
            need = self.dets[m].composition.size
            if m == i:
                return before + need <= room
            before += need
        return False

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

    def support_total(self, supports: list[int], high: bool, exclude_power: str | None = None) -> int:
        total = 0
        for s in supports:
            if exclude_power is not None and self.power[s] == exclude_power:
                continue
            for share in self.shares[s]:
                if self.resolve(share, high):
                    total += 1
        return total

    def group_strength(self, g: int, high: bool, exclude_power: str | None = None) -> int:
        """The weight of a group's detachments that have a route, plus its supports (0 if none arrives)."""
        total = 0
        arrives = False
        for m in self.members[g]:
            if self.path(m, high) and (self.attack_weight[m] or g in self.staying_members):
                total += self.attack_weight[m]
                arrives = True
        if not arrives:
            return 0
        for m in self.staying_members.get(g, ()):
            total += self.own_strength[m]
        return total + self.support_total(self.move_supports.get(g, []), high, exclude_power)

    def attack_strength(self, g: int, high: bool) -> int:
        holders = self.holders.get(self.dest[g])
        if not holders:
            return self.group_strength(g, high)
        staying = [h for h in holders if h not in self.staying_members.get(g, ())]
        if not staying:
            return self.group_strength(g, high)
        if g not in self.head_to_head:
            for h in staying:
                if self.kind[h] is not MOVE or not self.resolve(self.leader[h], high):
                    break
            else:
                return self.group_strength(g, high)  # everybody there moves away
        occupant = self.power[staying[0]]
        if occupant == self.power[g]:
            return self.group_strength(g, high) if self.may_share else 0
        return self.group_strength(g, high, exclude_power=occupant)

    def hold_strength(self, province: str, high: bool, joining: Sequence[int] = (), beaten: int = -1) -> int:
        """What holds `province` against a move, not counting the units there `joining` the move (a merge's own
        staying members), and counting the attack group led by `beaten` as staying (it lost a head-to-head
        battle)."""
        holders = self.holders.get(province)
        if not holders:
            return 0
        total = 0
        staying = False
        for h in holders:
            if h in joining:
                continue
            if self.kind[h] is MOVE:
                if self.leader[h] == beaten or not self.resolve(self.leader[h], not high):
                    total += self.own_strength[h]
            else:
                total += self.own_strength[h]
                staying = True
        if staying:
            total += self.support_total(self.hold_supports.get(province, []), high)
        return total

    def defend_strength(self, g: int, high: bool) -> int:
        return self.group_strength(g, high)

    def prevent_strength(self, g: int, high: bool) -> int:
        opposing = self.head_to_head.get(g)
        if opposing is not None and self.resolve(opposing, not high):
            return 0
        return self.group_strength(g, high)

    def adjudicate(self, i: int, optimistic: bool) -> bool:
        if i >= len(self.dets):
            return self._adjudicate_share(self.share_owner[i - len(self.dets)], i, optimistic)
        kind = self.kind[i]
        if kind is MOVE:
            return self._adjudicate_move(i, optimistic)
        if kind is SUPPORT:
            return self._adjudicate_share(i, i, optimistic)
        if kind is CONVOY:
            return self._adjudicate_convoy(i, optimistic)
        return True

    def _adjudicate_move(self, g: int, optimistic: bool) -> bool:
        if self.leader[g] != g:
            return self.resolve(self.leader[g], optimistic)
        attack = self.attack_strength(g, optimistic)
        if attack == 0:
            return False
        opposing = not optimistic
        destination = self.dest[g]
        h = self.head_to_head.get(g)
        if h is not None:
            if attack <= self.defend_strength(h, opposing):
                return False
            if self.whole_defends(destination) and attack <= self.hold_strength(destination, opposing, (), h):
                return False  # beaten, the part that was to leave stays: the whole force defends
        elif not (self.may_share and self._held_by(destination) == self.power[g]) and attack <= self.hold_strength(
            destination, opposing, self.staying_members.get(g, ())
        ):
            return False
        for k in self.moves_to[destination]:
            if k != g and attack <= self.prevent_strength(k, opposing):
                return False
        return True

    def whole_defends(self, province: str) -> bool:
        """Does a force defend its province whole against a move that beats the part of it leaving the other way?
        Where one force holds a province (not Multiplomacy's stacks of individuals), its parts that fail to leave
        never left: "the force never divided" (A/F rule 7), a component that fails to split "is considered never
        to have split for the purpose of adjudicating any attacks on that multiple unit" (Multiplicity II rule 7).
        Only a force with parts has several detachments in one province; a standard unit has one."""
        return not self.may_share and len(self.holders[province]) > 1

    def _held_by(self, province: str) -> str | None:
        holders = self.holders.get(province)
        return self.power[holders[0]] if holders else None

    # --- supports and their cuts ------------------------------------------------------------------------

    def support_protected(self, s: int, m: int) -> bool:
        """Is the support s safe from being cut (not from being dislodged) by the moving detachment m?"""
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
        if not self.dets[s].composition.is_fleet:
            return False
        if self.paradox_rule == "1982":
            area = self.dest[s] or self.target[s]
            if not self.board.provinces[area].is_sea:
                return False
            return any(self.kind[h] is CONVOY for h in self.holders.get(area, ()))
        # 1971: a support for a fleet attacking one of the convoying fleets
        return (
            bool(self.dest[s])
            and self.dest[s] in fleet_provinces
            and any(self.dets[h].composition.is_fleet for h in self.holders.get(self.target[s], ()))
        )

    def cutters(self, s: int, high: bool) -> dict[int, list[int]]:
        """The detachments that cut support s (by group): foreign moves into its province with a route,
        not protected by the rules. `high` reads unknown routes as open."""
        found: dict[int, list[int]] = {}
        power = self.cut_side[s]
        cut_side = self.cut_side
        for g in self.moves_to.get(self.origin[s], ()):
            if cut_side[g] == power:
                continue
            for m in self.members[g]:
                if not self.support_protected(s, m) and self.path(m, high):
                    file_under(found, g, m)
        return found

    def dislodged(self, province: str, high: bool) -> bool:
        """Is the force standing in `province` dislodged? `high` reads unknown moves as succeeding."""
        owner = self._held_by(province)
        for g in self.moves_to.get(province, ()):
            if self.power[g] != owner and self.resolve(g, high):
                return True
        return False

    def _adjudicate_share(self, s: int, share: int, optimistic: bool) -> bool:
        if not self.matched[s]:
            return False
        pessimistic = not optimistic
        found = self.cutters(s, pessimistic)
        cut = (ALL if found else 0) if self.standard_cuts else self.rules.cut_amount(self, s, found, pessimistic)
        rank = self.share_rank.get(share, 0)
        if rank and found and cut < ALL:
            if self._cut_in_turn(s, share, cut, pessimistic):
                return False
        elif cut > rank:
            return False
        # dislodgement fails the whole support. A move that cuts it whole, or that has no route, needs no
        # further look: asking whether such a move succeeds would add a dependency the rules do not have.
        power = self.power[s]
        for g in self.moves_to.get(self.origin[s], ()):
            if self.power[g] == power:
                continue
            protected = any(self.support_protected(s, m) for m in self.members[g])
            if not protected and (cut >= ALL or g not in found):
                continue
            if self.resolve(g, pessimistic):
                return False
        return True

    def _cut_in_turn(self, s: int, share: int, cut: int, high: bool) -> bool:
        """Is this share of support s cut, the attacks cutting the province's shares in the rules' priority order?

        Each unit of strength of the attacks cuts one share, and only a share it can cut: a support into the
        province a unit attacks from is not cut by that unit (nor, Multiplicity II rule 4, by a support given from
        that province to the attack), so it is passed over and the cut falls on the next support in the order
        (Multiplomacy 7, Multiplicity II 4). A support's own cut amount (the rules' `cut_amount`, `cut` for s) is
        how much of the attacks can cut it; the most any support could be cut by is how much they cut in all.
        Taking the shares in order, a share is cut while the attacks have strength left that can cut it -- a
        matching of units to shares, greedy in the priority order. Counting per province supported into is exact
        because a unit is barred from the supports into one province (the one it attacks or supports from), or,
        supporting a lone attacker, also from those into the attacker's, which no unit of that attack cuts."""
        province = self.origin[s]
        everyone: dict[int, list[int]] = {}
        for g in self.moves_to.get(province, ()):
            if self.cut_side[g] != self.cut_side[s]:
                arriving = [m for m in self.members[g] if self.path(m, high)]
                if arriving:
                    everyone[g] = arriving
        amounts: dict[int, int] = {s: cut}
        total = cut
        for _, t in self.ranked_shares[province]:
            if t not in amounts:
                found = self.cutters(t, high)
                amounts[t] = self.rules.cut_amount(self, t, found, high) if found else 0
            total = max(total, amounts[t], self.rules.cut_amount(self, t, everyone, high))
        done = 0
        towards: dict[str, int] = {}
        for other, t in self.ranked_shares[province]:
            into = self.dest[t] or self.target[t]
            can = done < total and towards.get(into, 0) < amounts[t]
            if other == share:
                return can
            if can:
                done += 1
                towards[into] = towards.get(into, 0) + 1
        return False

    def _adjudicate_convoy(self, c: int, optimistic: bool) -> bool:
        """The fleet convoys unless it is dislodged. The attacks on it are adjudicated here rather than
        resolved, so that the fleet's decision does not join their cycles (DATC 5.D, Pandin's paradox):
        every cycle through a convoy then stays a clean single cycle."""
        if not self.matched[c]:
            return False
        owner = self.power[c]
        for g in self.moves_to.get(self.origin[c], ()):
            if self.power[g] != owner and self._adjudicate_move(g, not optimistic):
                return False
        return True

    def backup_rule(self, cycle: list[int]) -> None:
        n = len(self.dets)
        convoys = [c for c in cycle if c < n and self.kind[c] is CONVOY]
        if convoys:
            for c in convoys:  # Szykman: the convoying fleets in the paradox hold
                self.settle(c, False)
                self.paradox.add(c)
        elif all(c < n and self.kind[c] is MOVE for c in cycle):
            for c in cycle:  # circular movement: everybody moves
                self.settle(c, True)
        else:
            for c in cycle:
                self.settle(c, False)
                self.paradox.add(c if c < n else self.share_owner[c - n])

    # --- after resolution -------------------------------------------------------------------------------

    def shuffled(self, items: list[int], why: Reason) -> list[int]:
        """A die roll the rules call for: a seeded, repeatable shuffle (seeded by why it is rolled, in words),
        recorded in the events."""
        order = list(items)
        import random  # only here, for a die roll a variant's rules call for (few phases ever need one)

        random.Random(f"{self.seed}:{why.text()}").shuffle(order)
        self.events.append(DieRoll(why, tuple(self.dets[i].order for i in order)))
        return order

    def decisions(self) -> range:
        return range(len(self.resolved))


def _max_flow(starts: list[int], ends: list[int], links: dict[int, list[int]], room: dict[int, int]) -> int:
    """How many armies can be carried at once through fleets with the given room: a maximum flow with node
    capacities (each fleet split into an in- and an out-node), by shortest augmenting paths. A convoy has a
    handful of fleets, so this is cheap."""
    infinite = 1 << 20
    residual: dict[object, dict[object, int]] = {}

    def edge(a: object, b: object, capacity: int) -> None:
        residual.setdefault(a, {})[b] = residual.setdefault(a, {}).get(b, 0) + capacity
        residual.setdefault(b, {}).setdefault(a, 0)

    for c, r in room.items():
        edge(("in", c), ("out", c), r)
        for d in links.get(c, ()):
            if d in room:
                edge(("out", c), ("in", d), infinite)
    for c in starts:
        if c in room:
            edge("source", ("in", c), infinite)
    for c in ends:
        if c in room:
            edge(("out", c), "sink", infinite)
    total = 0
    while True:
        parent: dict[object, object] = {"source": "source"}
        queue: deque[object] = deque(["source"])
        node: object
        while queue and "sink" not in parent:
            node = queue.popleft()
            for other, capacity in residual.get(node, {}).items():
                if capacity > 0 and other not in parent:
                    parent[other] = node
                    queue.append(other)
        if "sink" not in parent:
            return total
        bottleneck = infinite
        node = "sink"
        while node != "source":
            prev = parent[node]
            bottleneck = min(bottleneck, residual[prev][node])
            node = prev
        node = "sink"
        while node != "source":
            prev = parent[node]
            residual[prev][node] -= bottleneck
            residual[node][prev] += bottleneck
            node = prev
        total += bottleneck
