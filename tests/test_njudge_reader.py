"""The judge reads its own results back as the hobby's tools read njudge's (issue 45, "Done when"): a whole standard
game, several years with retreats, builds and removals, played through the real processor on SQLite in njudge's
layout; its results mails, read by `judge.njudge.reader` with nothing else, give every phase's position (units,
dislodged units and their retreats, centres) exactly as the engine produced it."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from judge.board.model import Board
from judge.njudge.reader import Reader, ReadError, read_game, variant_of
from judge.store import Game, open_database
from judge.store.models import PhaseRecord
from judge.testing.mail_rig import Judge
from judge.variants import get_variant

PHASES = 14
SEED = 7
"""a game that has, by its 14th phase, a retreat phase, builds, a removal ordered and one by default (asserted)"""


def _near(board: Board, unit: dict[str, str]) -> list[str]:
    at = unit["at"]
    return sorted(board.army_adjacency.get(at, ()) if unit["unit"] == "A" else board.fleet_adjacency.get(at, ()))


def _movement(board: Board, units: list[dict[str, str]], rnd: random.Random) -> dict[str, list[str]]:
    """Moves, supports of those moves and holds, drawn by `rnd`: enough to bounce, cut and dislodge."""
    orders: dict[str, list[str]] = {}
    planned: dict[str, str] = {}
    for unit in units:
        near, roll = _near(board, unit), rnd.random()
        reach = {n.partition("/")[0] for n in near}
        helped = [(f, t) for f, t in planned.items() if t.partition("/")[0] in reach and f != unit["at"]]
        if near and roll < 0.6:
            planned[unit["at"]] = rnd.choice(near)
            orders.setdefault(unit["power"], []).append(f"{unit['unit']} {unit['at']}-{planned[unit['at']]}")
        elif helped and roll < 0.8:
            origin, to = rnd.choice(helped)
            kind = next(u["unit"] for u in units if u["at"] == origin)
            line = f"{unit['unit']} {unit['at']} S {kind} {origin}-{to.partition('/')[0]}"
            orders.setdefault(unit["power"], []).append(line)
    return orders


def _orders(board: Board, position: dict[str, Any], rnd: random.Random) -> dict[str, list[str]]:
    kind = position["phase"]["type"]
    if kind == "Movement":
        return _movement(board, position["units"], rnd)
    orders: dict[str, list[str]] = {}
    if kind == "Retreat":
        for d in position.get("dislodged", []):
            if d.get("retreats") and rnd.random() < 0.8:
                orders.setdefault(d["power"], []).append(f"{d['unit']} {d['at']} R {rnd.choice(d['retreats'])}")
        return orders
    occupied = {u["at"].partition("/")[0] for u in position["units"]}
    for power, owned in position["supply_centers"].items():
        units = [u for u in position["units"] if u["power"] == power]
        short = len(owned) - len(units)
        if short > 0:
            free = [c for c in board.powers[power].home if c in owned and c not in occupied][:short]
            orders[power] = [f"Build A {c}" for c in free]
        elif short < 0 and rnd.random() < 0.7:
            orders[power] = [f"Remove {u['unit']} {u['at']}" for u in rnd.sample(units, -short)]
    return orders


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[str], list[dict[str, Any]], str]]:
    """The game's results mails (the copy everyone reads), the engine's position after each phase, and a
    player's start mail."""
    db = open_database(f"sqlite:///{tmp_path_factory.mktemp('njudge') / 'judge.sqlite'}")
    judge = Judge(db)
    judge.mail("gm@example.org", "REGISTER Game Master gmpass")
    judge.mail("gm@example.org", "CREATE alpha standard joinpw\nSIGNON alpha MASTER gmpass\nSET results.layout=njudge")
    for power in ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"):
        address = f"{power.lower()}@example.org"
        judge.mail(address, f"REGISTER {power} Player {power.lower()}pw")
        judge.mail(address, f"JOIN alpha joinpw {power}")
    board = get_variant("standard").rules().board
    rnd = random.Random(SEED)
    for _ in range(PHASES):
        with db.transaction() as s:
            position = s.scalars(select(Game).where(Game.name == "alpha")).one().position
        assert position is not None
        for power, lines in _orders(board, position, rnd).items():
            judge.mail(f"{power.lower()}@example.org", f"SIGNON alpha {power} {power.lower()}pw\n" + "\n".join(lines))
        judge.mail("gm@example.org", "SIGNON alpha MASTER gmpass\nPROCESS")
    mails = [m.get_content() for m in judge.outbound(kind="result", to="gm@example.org")]
    with db.transaction() as s:
        after = [r.position_after for r in s.scalars(select(PhaseRecord).order_by(PhaseRecord.index))]
    start = judge.outbound(kind="notice", to="england@example.org")[0].get_content()
    yield mails, after, start
    db.dispose()


def _units(units: list[dict[str, str]]) -> list[tuple[str, str, str]]:
    return sorted((u["power"], u["unit"], u["at"]) for u in units)


def _dislodged(dislodged: list[dict[str, Any]]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    return sorted((d["power"], d["unit"], d["at"], tuple(sorted(d.get("retreats") or []))) for d in dislodged)


def _centres(centres: dict[str, list[str]]) -> dict[str, list[str]]:
    return {power: sorted(owned) for power, owned in centres.items() if owned}


def test_the_game_has_every_phase_kind(played: tuple[list[str], list[dict[str, Any]], str]) -> None:
    mails, after, _ = played
    assert len(mails) == len(after) == PHASES
    text = "\n".join(mails)
    assert "Retreat results for " in text and "The following units were dislodged:" in text
    assert "Builds an army in " in text and "Removes the " in text and "Defaults, removing the " in text
    assert "Ownership of supply centers:" in text


def test_every_phase_is_read_back_into_the_engines_position(
    played: tuple[list[str], list[dict[str, Any]], str],
) -> None:
    mails, after, start = played
    reader = read_game([start, *mails])
    assert reader.variant == "standard" and reader.game == "alpha"
    assert len(reader.positions) == len(after)
    for read, position in zip(reader.positions, after, strict=True):
        where = f"{read.code} ({read.phase})"
        assert _units(read.units) == _units(position["units"]), where
        assert _dislodged(read.dislodged) == _dislodged(position.get("dislodged", [])), where
        assert _centres(read.supply_centers) == _centres(position["supply_centers"]), where
        assert read.next_phase == position["phase"], where


def test_the_start_mail_gives_the_starting_position(played: tuple[list[str], list[dict[str, Any]], str]) -> None:
    _, _, start = played
    assert variant_of(start) == ("alpha", "standard")
    reader = Reader("standard")
    assert reader.read(start) is None
    board = get_variant("standard").rules().board
    assert _units(reader.units) == sorted((p.name, u.kind, u.location) for p in board.powers.values() for u in p.units)


def test_the_reader_reads_njudges_own_lines() -> None:
    """Lines as njudge wrote them (docs/mail_format.html's examples: two spaces before a mark in its older
    versions, a dislodgement's sentence cut over two lines, a coast named in words)."""
    mail = "\n".join(
        [
            ":: Judge: USIN  Game: Demo  Variant: Standard",
            ":: Deadline: S1901M Mon Feb 25 2002 23:30:00 +0100  ",
            "",
            "Movement results for Spring of 1901.  (demo.001)",
            "",
            "Austria: Army Vienna -> Galicia.  (*bounce*)",
            "Austria: Army Budapest HOLD.",
            "Austria: Fleet Trieste, No Order Processed.",
            "",
            "Russia: Army Warsaw -> Galicia.  (*bounce*)",
            "Russia: Army Moscow -> Ukraine.",
            "Russia: Fleet Sevastopol -> Black Sea.",
            "Russia: Fleet St Petersburg (south coast) -> Gulf of Bothnia.",
            "",
            "The next phase of 'demo' will be Movement for Fall of 1901.",
            "The deadline for orders will be Wed Feb 27 2002 23:30:00 +0100.",
        ]
    )
    reader = Reader.starting("standard")
    read = reader.read(mail)
    assert read is not None and read.next_phase == {"season": "Fall", "year": 1901, "type": "Movement"}
    russia = sorted(u["at"] for u in read.units if u["power"] == "Russia")
    assert russia == ["bla", "bot", "ukr", "war"]
    assert ("Austria", "A", "vie") in _units(read.units)
    with pytest.raises(ReadError, match="no place 'Atlantis'"):
        reader.read(mail.replace("Army Moscow -> Ukraine", "Army Moscow -> Atlantis"))


def test_a_dislodgement_cut_over_two_lines_is_one_sentence() -> None:
    reader = Reader.starting("standard")
    read = reader.read(
        "\n".join(
            [
                "Movement results for Spring of 1901. (demo.001)",
                "",
                "Austria: Fleet Trieste HOLD. (*dislodged*)",
                "",
                "Italy: Army Venice -> Trieste.",
                "Italy: Army Tyrolia SUPPORT Army Venice -> Trieste.",
                "",
                "",
                "The following units were dislodged:",
                "",
                "The Austrian Fleet in Trieste can retreat to Albania or Adriatic Sea or",
                "Venice.",
                "",
                "The next phase of 'demo' will be Retreats for Spring of 1901.",
            ]
        )
    )
    assert read is not None
    assert read.dislodged == [{"power": "Austria", "unit": "F", "at": "tri", "retreats": ["alb", "adr", "ven"]}]
    assert ("Italy", "A", "tri") in _units(read.units) and ("Austria", "F", "tri") not in _units(read.units)


def test_a_line_of_no_power_among_the_orders_is_passed_over() -> None:
    """A judge writes more than njudge's lines in places (a variant's events, `Winning Centers changed ...`): the
    reader, as the tools do, reads the powers' lines and passes over the rest."""
    reader = Reader.starting("standard")
    read = reader.read(
        "Movement results for Spring of 1901. (demo.001)\n\nAustria: Army Vienna -> Galicia.\n\n"
        "Delphi is sacked: the units of the sacker may receive no support\nfrom another player.\n"
    )
    assert read is not None and ("Austria", "A", "gal") in _units(read.units)
