"""A player's record, worked out from the games' own stored events (issue 46): the games he started, finished,
abandoned or resigned, the phases he ordered on time, late or not at all, the sides he took over, and the figures
njudge published from them (`data/dedsystems`: dedication, on-time ratio, the civil-disorder or "resignation"
ratio). Nothing of it is stored: it is read from the events and phases every game keeps, so games played before
the record existed count, and a rollback (which forgets the phases and events after the phase returned to) takes
back what it undid at once.

How a game is read (`read_game`; values in `judge.game.record_values`): its stored events in order say who held each
side -- `game started` names each side's player, `player replaced` a newcomer, `player resigned` and `player
ejected` a leaver -- and each `phase processed` is one phase for every side that owed orders in it, whoever held it
then:
- the side ordered **on time** when every power of it that owed orders had them on file by the deadline;
- **late** when all were on file when the phase was processed but one came after the deadline (in the grace);
- **missed** (an NMR) when one of its powers that owed orders had none (njudge's "going CD": the grace ran out);
- and the phase was one **in civil disorder** when the miss made `abandon_after` (the game's setting, 3 by default)
  in a row or more: the judge marks such a side abandoned, and the player's game counts as **abandoned**.
A side of several powers (a Hoplite Major and Minor, a Hepta player's board-nations) is one phase of its player's,
never one per power. A side nobody plays (civil disorder from the start) is nobody's record.

A game the GM unstarted (UNSTART, before its first phase: `game unstarted`) counts as never started: nothing before
that event counts for anyone.

A game is **finished** for the player who held a side when it ended (a victory, a draw, a concession; an eliminated
side is still his); a terminated game is nobody's finish (and one whose TERMINATE was taken back, UNTERMINATE, is
simply not over). A phase's deadline and the powers it awaited are in its
event (`PhaseProcessed.deadline`, `.due`); for phases processed before they were kept, every power that had to
order is taken as awaited and orders on file as on time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from judge.clock import as_utc
from judge.contract import position_from_json
from judge.engine.supply import powers_to_order
from judge.game.anonymity import names_hidden
from judge.game.names import as_shown
from judge.game.record_values import Figures, GameLine, PlayerRecord, SeatChange
from judge.game.store import GameStore, rules_of
from judge.game.use_case import sides_of
from judge.store import Game, GameEventRecord, GameStatus, OrderSet, PhaseRecord, Player
from judge.variants import Side

WALKED = ("game started", "player replaced", "player resigned", "player ejected", "phase processed", "game ended",
          "game unstarted")  # fmt: skip
"""the stored events a game's records are read from"""

DEFAULT_ABANDON_AFTER = 3


@dataclass
class GameWalk:
    """What one game gives its players' records and its rating (`judge.game.ratings`)."""

    figures: dict[int, Figures] = field(default_factory=dict)
    """player id -> his counts in this game"""
    lines: dict[int, GameLine] = field(default_factory=dict)
    holders: dict[str, int | None] = field(default_factory=dict)
    """side label -> who held it at the end (None: nobody)"""
    left: dict[int, str] = field(default_factory=dict)
    """player id -> the side he left before the end (resigned, ejected, replaced), scoring nothing in it"""
    sides: dict[str, Side] = field(default_factory=dict)
    changes: list[SeatChange] = field(default_factory=list)
    """who held each side at the start and every change of player since, in order (SUMMARY: judge.game.archive)"""
    held_by: dict[str, str] = field(default_factory=dict)
    """side label -> the name (`as_shown`) of who holds it now, for the changes"""

    def of(self, player: int) -> Figures:
        return self.figures.setdefault(player, Figures())


def seats_public(game: Game) -> bool:
    """Whether others may be told who played whom in the game: not in a gunboat game until its reveal (the GM's
    REVEAL, or its end where it reveals then): `judge.game.anonymity.names_hidden`, the one rule for names."""
    return not names_hidden(game)


Stamp = tuple[int, int]
"""a game's stored events as last read: the highest event id and how many (a new event or a rollback changes it)"""

WALKS_KEPT = 4096
"""games whose walk this process keeps between reads, each under its stamp"""
_WALKS: OrderedDict[tuple[Any, ...], GameWalk] = OrderedDict()
_WALKS_LOCK = threading.Lock()


def event_stamps(s: Session, ids: Iterable[int] | None = None) -> dict[int, Stamp]:
    """Each game's `Stamp` (of the games `ids`, or of every game), in one query."""
    query = select(GameEventRecord.game_id, func.max(GameEventRecord.id), func.count(GameEventRecord.id)).group_by(
        GameEventRecord.game_id
    )
    if ids is not None:
        query = query.where(GameEventRecord.game_id.in_(list(ids)))
    return {game_id: (int(top), int(count)) for game_id, top, count in s.execute(query)}


def forget_walks() -> None:
    """Drop every walk this process keeps: the next reads work every game out again (`judge records rebuild`; a
    test that edits stored events in place, as no use case does)."""
    with _WALKS_LOCK:
        _WALKS.clear()


def walk_game(
    s: Session, game: Game, names: Mapping[str, int], *, phases: bool = True, stamp: Stamp | None = None
) -> GameWalk:
    """One game's walk (`read_game`), kept by this process under the game's version and `stamp` (its events as
    they stand: given by a caller that read every game's at once, else read here): a game that has not changed
    since is not read again, and any change -- a phase, a replacement, a rollback, a setting -- reads it anew.
    Every process works it out from the database alike; nothing is stored."""
    if stamp is None:
        stamp = event_stamps(s, [game.id]).get(game.id, (0, 0))
    key = (str(s.get_bind().engine.url), game.id, game.version, stamp, phases, len(names))
    with _WALKS_LOCK:
        found = _WALKS.get(key)
        if found is not None:
            _WALKS.move_to_end(key)
            return found
    walk = read_game(s, game, names, phases=phases)
    with _WALKS_LOCK:
        _WALKS[key] = walk
        while len(_WALKS) > WALKS_KEPT:
            _WALKS.popitem(last=False)
    return walk


def read_game(s: Session, game: Game, names: Mapping[str, int], *, phases: bool = True) -> GameWalk:
    """Read one game's stored events and phases into its players' counts (module docstring); `names`: each
    player's name as events name him (`as_shown`) -> his id. `phases=False`: who held each side and who left,
    without reading a phase (all a rating needs)."""
    events = s.scalars(
        select(GameEventRecord)
        .where(GameEventRecord.game_id == game.id, GameEventRecord.kind.in_(WALKED))
        .order_by(GameEventRecord.id)
    )
    walk = GameWalk(sides={side.label: side for side in sides_of(game)})
    ordered: dict[int, set[str]] = {}
    times: dict[tuple[int, str], datetime] = {}
    if phases:  # the powers with orders in each phase, and when each set came: never the positions
        rows = s.execute(select(PhaseRecord.index, PhaseRecord.orders).where(PhaseRecord.game_id == game.id))
        ordered = {index: set(orders or {}) for index, orders in rows}
        sets = select(OrderSet.phase_index, OrderSet.power, OrderSet.submitted_at).where(OrderSet.game_id == game.id)
        times = {(index, power): as_utc(at) for index, power, at in s.execute(sets)}
    limit = int((game.settings or {}).get("abandon_after", DEFAULT_ABANDON_AFTER))
    in_a_row: dict[str, int] = {}
    abandoned: set[int] = set()
    last_side: dict[int, str] = {}
    started = False
    for event in events:
        data = event.data or {}
        if event.kind == "game started":
            started = True
            for seat in data.get("seats") or ():
                holder = names.get(as_shown(str(seat.get("player"))))
                walk.holders[str(seat.get("power"))] = holder
                _came(walk, str(seat.get("power")), "started", seat.get("player"), event.phase_index)
                if holder is not None:
                    walk.of(holder).started += 1
                    last_side[holder] = str(seat.get("power"))
        elif event.kind == "player replaced":
            side = str(data.get("side"))
            before, holder = walk.holders.get(side), names.get(as_shown(str(data.get("player"))))
            if before is not None and before != holder:
                walk.left[before] = side
            walk.holders[side] = holder
            in_a_row[side] = 0
            how = "took over" if data.get("volunteered") else "replaced"
            _came(walk, side, how, data.get("player"), event.phase_index)
            if holder is not None:
                walk.left.pop(holder, None)
                last_side[holder] = side
                if started:
                    walk.of(holder).replacements += 1
        elif event.kind in ("player resigned", "player ejected"):
            side = str(data.get("side"))
            before = walk.holders.get(side)
            walk.holders[side] = None
            left = walk.held_by.pop(side, None)
            walk.changes.append(SeatChange(side, event.kind.removeprefix("player "), left, event.phase_index))
            if before is not None:
                walk.left[before] = side
                if event.kind == "player resigned":
                    walk.of(before).resigned += 1
                else:
                    walk.of(before).ejected += 1
        elif event.kind == "phase processed":
            index = int(data.get("index", event.phase_index))
            if index in ordered:
                due = _due(s, game, index, data)
                _count_phase(walk, index, due, ordered[index], data, times, in_a_row, limit, abandoned)
            if data.get("finished"):
                _finish(walk)
        elif event.kind == "game ended" and data.get("how") != "terminated" and started:
            _finish(walk)
        elif event.kind == "game unstarted":  # the GM's UNSTART: the start (and all since) counts for nobody
            walk = GameWalk(sides=walk.sides)
            in_a_row.clear()
            abandoned.clear()
            last_side.clear()
            started = False
    for player in abandoned:
        walk.of(player).abandoned += 1
    winners = set(game.winners or ())
    for player, side in last_side.items():
        how = _how(game, player, walk)
        won = bool(winners & set(walk.sides.get(side, Side(side, (side,))).powers)) and player not in walk.left
        walk.lines[player] = GameLine(game.name, game.variant, side, how, game.result, won)
    return walk


def _came(walk: GameWalk, side: str, how: str, player: object, phase_index: int) -> None:
    """A player (or nobody, at the start) came to `side`: the change, and who holds it now."""
    name = as_shown(str(player)) if player else None
    if name is None:
        walk.held_by.pop(side, None)
    else:
        walk.held_by[side] = name
    walk.changes.append(SeatChange(side, how, name, phase_index))


def _how(game: Game, player: int, walk: GameWalk) -> str:
    figures = walk.figures.get(player, Figures())
    if player in walk.left:
        if figures.resigned:
            return "resigned"
        return "ejected" if figures.ejected else "replaced"
    if game.status == GameStatus.FINISHED:
        return "terminated" if game.result == "terminated" else "finished"
    return "playing"


def _finish(walk: GameWalk) -> None:
    for holder in walk.holders.values():
        if holder is not None:
            walk.of(holder).finished += 1


def _due(s: Session, game: Game, index: int, data: Mapping[str, Any]) -> set[str]:
    """The powers a phase awaited orders from: as its event kept them, or, for a phase processed before it kept
    them, every power that had to order in its position."""
    if "due" in data:
        return {str(power) for power in data["due"]}
    before = s.scalar(
        select(PhaseRecord.position_before).where(PhaseRecord.game_id == game.id, PhaseRecord.index == index)
    )
    rules = rules_of(game)
    return set(powers_to_order(rules, position_from_json(rules, before or {})))


def _count_phase(
    walk: GameWalk,
    index: int,
    due: set[str],
    ordered: set[str],
    data: Mapping[str, Any],
    times: Mapping[tuple[int, str], datetime],
    in_a_row: dict[str, int],
    limit: int,
    abandoned: set[int],
) -> None:
    """One phase for every held side that owed orders in it (module docstring)."""
    deadline = datetime.fromisoformat(data["deadline"]) if data.get("deadline") else None
    for label, holder in walk.holders.items():
        side = walk.sides.get(label, Side(label, (label,)))
        owed = due & set(side.powers)
        if not owed:
            continue
        if owed - ordered:
            in_a_row[label] = in_a_row.get(label, 0) + 1
            if holder is None:
                continue
            figures = walk.of(holder)
            figures.missed += 1
            if in_a_row[label] == limit:  # marked abandoned now: the place is open to a volunteer
                walk.changes.append(SeatChange(label, "abandoned", walk.held_by.get(label), index))
            if in_a_row[label] >= limit:
                figures.disorder += 1
                abandoned.add(holder)
            continue
        in_a_row[label] = 0
        if holder is None:
            continue
        came = [times.get((index, power)) for power in owed]
        late = deadline is not None and any(at is not None and at > as_utc(deadline) for at in came)
        if late:
            walk.of(holder).late += 1
        else:
            walk.of(holder).on_time += 1


def player_names(s: Session) -> dict[str, int]:
    """Every player's name as the events name him (`as_shown`) -> his id."""
    return {as_shown(name): player_id for player_id, name in s.execute(select(Player.id, Player.name))}


def games_of(s: Session, name: str) -> list[Game]:
    """The games a player (his name as events give it) held a side in, by the events that seat players."""
    rows = s.execute(
        select(GameEventRecord.game_id, GameEventRecord.data).where(
            GameEventRecord.kind.in_(("game started", "player replaced"))
        )
    ).all()
    ids = set()
    for game_id, data in rows:
        seated = [as_shown(str(seat.get("player"))) for seat in (data or {}).get("seats") or ()]
        if name in seated or as_shown(str((data or {}).get("player"))) == name:
            ids.add(game_id)
    found = GameStore.peek_ids(s, ids)
    return [found[game_id] for game_id in sorted(found)]


def record_of(s: Session, player: Player, *, hidden: bool = False) -> PlayerRecord:
    """One player's record from every game he held a side in (`hidden`: with gunboat games not yet revealed, for
    his own eyes only: never shown to another)."""
    names = player_names(s)
    shown = as_shown(player.name)
    record = PlayerRecord(shown)
    games = games_of(s, shown)
    stamps = event_stamps(s, [game.id for game in games])
    for game in games:
        if not hidden and not seats_public(game):
            continue
        walk = walk_game(s, game, names, stamp=stamps.get(game.id, (0, 0)))
        if player.id in walk.figures:
            record.in_variant(game.variant).add(walk.figures[player.id])
        if player.id in walk.lines:
            record.games.append(walk.lines[player.id])
    forming = s.execute(
        select(Game.name, Game.variant).where(Game.status == GameStatus.FORMING, Game.seats.any(player_id=player.id))
    ).all()
    record.games.extend(GameLine(name, variant, "", "forming") for name, variant in forming)
    return record


def all_records(s: Session) -> dict[int, PlayerRecord]:
    """Every player's record, each game read once (`judge records rebuild`)."""
    names = player_names(s)
    records = {pid: PlayerRecord(name) for name, pid in names.items()}
    started = [status for status in GameStatus if status != GameStatus.FORMING]
    stamps = event_stamps(s)
    for game in GameStore.games_in(s, started):
        if not seats_public(game):
            continue
        walk = walk_game(s, game, names, stamp=stamps.get(game.id, (0, 0)))
        for pid, figures in walk.figures.items():
            records[pid].in_variant(game.variant).add(figures)
        for pid, line in walk.lines.items():
            records[pid].games.append(line)
    return records
