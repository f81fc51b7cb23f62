"""Issue 40, "One count everywhere": every table, legend, chart and reply counts a side's centres and units in the
variant's terms (a Hoplite Wars Town half a City, a garrison half a unit, Delphi's two builds beyond the centres;
CW Heptadiplomacy's seven board-nations one player) from one function (`judge.engine.supply.adjustment_counts`),
BC years as BC; what a reply says of the orders and the builds due is what the results print. Played through the
mail rig (judge/testing/mail_rig.py: the real processor, commands and database) where the issue saw it in mail;
the counting function itself through the engine. Rules: Hoplite Wars 2 (Towns), 4 (garrisons), 7 (Delphi);
CW Heptadiplomacy 2 (a player's seven nations)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from test_players_not_powers import COUNTRIES, MAJORS, _game

from judge.board.geometry import load_geometry
from judge.clock import Clock
from judge.contract import position_from_json
from judge.contract.adjudicate import run_case
from judge.engine import Composition, Force, Phase, PhaseType
from judge.engine.position import Adjustment
from judge.engine.supply import adjustment_counts, balances
from judge.game import Games
from judge.picture.draw import scene
from judge.render import render_results
from judge.store import Database, Game, open_database
from judge.testing.mail_rig import Judge
from judge.variants import get_variant
from judge.web.pages import centre_chart

Count = dict[str, tuple[str, str | None]]
"""side (as lists name it) -> (centres, units) as a surface prints them; None where it prints no units"""


@pytest.fixture
def judge(tmp_path: Path) -> Iterator[Judge]:
    db = open_database(f"sqlite:///{tmp_path / 'counts.sqlite'}")
    yield Judge(db)
    db.dispose()


def _process(judge: Judge, game: str) -> None:
    judge.mail("gm@example.org", f"SIGNON {game} MASTER gmpass\nPROCESS")


def _results(judge: Judge, address: str) -> str:
    return str(judge.outbound(kind="result", to=address)[-1].get_content())


# --- reading each surface's counts, by side ------------------------------------------------------------------


def _results_by_player(sheet: str) -> Count:
    table = sheet.split("By player:\n", 1)[1].split("\n\n", 1)[0]
    return {m[1]: (m[2], m[3]) for m in re.finditer(r"^(.+?):\s+(\S+)\s+(\S+)$", table, re.M)}


def _list_by_player(listed: str) -> Count:
    table = listed.split("By player (centres, units):\n", 1)[1]
    return {m[1]: (m[2], m[3]) for m in re.finditer(r"^ +(\S.*?):\s+(\S+)\s+(\S+)$", table, re.M)}


def _summary_last_year(summary: str, labels: dict[str, str]) -> Count:
    """The last year's row of SUMMARY, its columns the sides' names (`labels`: name -> label)."""
    lines = summary.splitlines()
    years = [n for n, line in enumerate(lines) if re.match(r"^ +\d+( BC)? ", line)]
    names = re.split(r"\s{2,}", lines[years[0] - 1].strip())  # the header over the first year's row (`Player 2`)
    values = re.sub(r"^\d+( BC)?", "", lines[years[-1]].split("(")[0].strip()).split()
    return {labels[name]: (value, None) for name, value in zip(names, values, strict=True)}


def _halves(text: str) -> int:
    whole, half = text.removesuffix("½"), text.endswith("½")
    return 2 * int(whole or 0) + half


def _shown(halves: int) -> str:
    whole, half = divmod(halves, 2)
    return f"{whole or ''}½" if half else str(whole)


def _game_row(db: Database, name: str) -> Game:
    with db.transaction() as s:
        game = s.scalars(select(Game).where(Game.name == name)).one()
        s.expunge(game)
        return game


def _legend(db: Database, name: str, labels: dict[str, str] | None = None) -> Count:
    """The picture's legend of the position now, as the results' picture draws it: each side's lines (a Hoplite
    Major and, striped, its Minor) added up, which the first line gives as the side's (`in all`); an entry named
    by its first line (`labels`: that name -> the side's label as lists give it)."""
    game = _game_row(db, name)
    variant = get_variant(game.variant)
    rules = variant.rules(game.options)
    position = position_from_json(rules, game.position or {})
    drawn = scene(rules.board, load_geometry(variant.map_name), position, rules=rules)
    out: Count = {}
    for entry in drawn.entries:
        centres = units = 0
        for line in entry.lines:
            m = re.fullmatch(r"(\S+) centres?, (\S+) units?( \(in all (\S+), (\S+)\))?", line.figures)
            assert m is not None, line.figures
            centres, units = centres + _halves(m[1]), units + _halves(m[2])
        said = re.search(r"\(in all (\S+), (\S+)\)", entry.lines[0].figures)
        if len(entry.lines) > 1:  # the side's count, as the first line gives it, is its lines' added up
            assert said is not None and (said[1], said[2]) == (_shown(centres), _shown(units)), entry.lines
        first = entry.lines[0].name
        out[(labels or {}).get(first, first)] = (_shown(centres), _shown(units))
    return out


def _web_chart(db: Database, clock: Clock, name: str) -> tuple[Count, list[str]]:
    """The web site's centre chart: the last row of its table by side, and the years its rows are headed with."""
    reads = Games(db, clock).reads
    html = centre_chart(reads.public_game(name), reads.public_history(name))
    table = html.split("<table>", 1)[1]
    heads = [unescape(h) for h in re.findall(r'<th scope="col">([^<]*)</th>', table)][1:]
    rows = re.findall(r'<tr><th scope="row">([^<]*)</th>(.*?)</tr>', table)
    values = re.findall(r"<td>([^<]*)</td>", rows[-1][1])
    return {h: (v, None) for h, v in zip(heads, values, strict=True)}, [unescape(r[0]) for r in rows]


def _agree(surfaces: dict[str, Count]) -> Count:
    """Every surface gives every side the same centres, and those that give units the same units; the count."""
    first = next(iter(surfaces.values()))
    for name, counted in surfaces.items():
        assert set(counted) == set(first), (name, counted, first)
        for side, (centres, units) in counted.items():
            assert centres == first[side][0], (name, side, counted[side], first[side])
            if units is not None and first[side][1] is not None:
                assert units == first[side][1], (name, side, counted[side], first[side])
    return first


# --- Hoplite Wars: halves, garrisons, Delphi ------------------------------------------------------------------


def _hoplite_to_the_sack(judge: Judge) -> None:
    """Winter 451 BC: Sparta builds garrisons (and Elatea a double one); Boeotia an army next to Delphi, which it
    sacks in Autumn 450 BC, when the colonies (Towns) declare."""
    _game(judge, "hop", "hoplite", MAJORS)
    judge.mail(
        "boeotia@example.org", "SIGNON hop Boeotia pwboeotia\nBuild A orc\nBuild A aul\nBuild G the\nBuild A eli"
    )
    judge.mail("sparta@example.org", "SIGNON hop Sparta pwsparta\nBuild 2A spa\nBuild G pra\nBuild G zar\nBuild 2G ela")
    _process(judge, "hop")
    judge.mail("boeotia@example.org", "SIGNON hop Boeotia pwboeotia\nA orc - del")
    _process(judge, "hop")
    judge.mail("boeotia@example.org", "SIGNON hop Boeotia pwboeotia\nSACK Delphi")
    _process(judge, "hop")


def _hoplite_labels() -> dict[str, str]:
    return {side.name: side.label for side in get_variant("hoplite").sides() if len(side.powers) > 1}


def test_hoplite_counts_agree_in_the_results_list_summary_legend_and_web_chart(judge: Judge) -> None:
    """Issue 40: "The picture legends count units ("1 centre, 2 units" for one `2G`), the web site's centre chart
    counts provinces under negative years". After Autumn 450 BC every surface gives each side the same count:
    Sparta + Elatea 3 Cities, the Town of Chios and Elatea's City (4½), and 2A, two G and Elatea's 2G (4)."""
    _hoplite_to_the_sack(judge)
    surfaces = {
        "results": _results_by_player(_results(judge, "sparta@example.org")),
        "LIST": _list_by_player(judge.mail("sparta@example.org", "LIST hop")),
        "SUMMARY": _summary_last_year(judge.mail("sparta@example.org", "SUMMARY hop"), _hoplite_labels()),
        "legend": _legend(judge.db, "hop", _hoplite_labels()),
        "web": _web_chart(judge.db, judge.clock, "hop")[0],
    }
    counted = _agree(surfaces)
    assert counted["Sparta + Elatea"] == ("4½", "4")
    assert counted["Boeotia + Elis"] == ("4½", "3½")  # A aul, G the, A eli; the army at Delphi sacked it
    assert counted["Athens + Anactorium"] == ("4½", "0")


def test_the_legend_counts_a_double_garrison_as_one_unit_as_the_results_do(judge: Judge) -> None:
    """Issue 40: "1 centre, 2 units" for one Hoplite `2G`; rule 4: a garrison needs half a centre."""
    _hoplite_to_the_sack(judge)
    game = _game_row(judge.db, "hop")
    rules = get_variant("hoplite").rules(game.options)
    drawn = scene(rules.board, load_geometry("hoplite"), position_from_json(rules, game.position or {}), rules=rules)
    words = [line.words for entry in drawn.entries for line in entry.lines]
    assert "Elatea: 1 centre, 1 unit" in words
    assert re.search(r"^Elatea:\s+1\s+1\s", _results(judge, "sparta@example.org"), re.M)


def test_the_web_chart_writes_bc_years_as_bc_and_counts_a_town_half(judge: Judge) -> None:
    """Issue 40: "the web site's centre chart counts provinces under negative years (BC years must read as BC)"."""
    _hoplite_to_the_sack(judge)
    counted, years = _web_chart(judge.db, judge.clock, "hop")
    assert years == ["452 BC", "451 BC", "450 BC (so far)"]
    assert counted["Sparta + Elatea"] == ("4½", None)
    reads = Games(judge.db, judge.clock).reads
    html = centre_chart(reads.public_game("hop"), reads.public_history("hop"))
    assert "-45" not in html


def test_delphis_builds_are_the_same_in_the_results_chart_and_the_winter_reply(judge: Judge) -> None:
    """Issue 40: "the Delphi builds differ between the results chart and the Winter reply". Boeotia holds 3½
    (three Cities and the Town of Lesbos), pays 2½ (A aul, G the and the army that sacked Delphi), and Delphi
    raises two units beyond the centres (rule 7): 3 builds in the chart and in the reply."""
    _hoplite_to_the_sack(judge)
    autumn = _results(judge, "boeotia@example.org")
    assert re.search(r"^Boeotia:\s+3½\s+2½\s+builds 3$", autumn, re.M), autumn
    reply = judge.mail("boeotia@example.org", "SIGNON hop Boeotia pwboeotia\nBuild A orc")
    assert "Boeotia may build 3 (3 build(s) due" in reply
    _process(judge, "hop")
    winter = _results(judge, "boeotia@example.org")
    # one army raised by Delphi: the other raise (1) and the centres' build (1) are waived
    assert re.search(r"^Boeotia:\s+2 builds waived$", winter, re.M), winter
    assert "raised by the sack of Delphi" in winter


def test_a_removal_rounded_up_to_a_whole_army_waives_no_build() -> None:
    """Issue 40: a reply says "removes ½", then the results "½ build waived". A power of a City and a Town (1½)
    with two armies must remove ½; it removes an army (the smallest removal that will do), and nothing is
    waived: the half left over is no build it had."""
    winter = {"season": "Winter", "year": -449, "type": "Adjustment"}
    case: dict[str, Any] = {
        "variant": "hoplite",
        "phase": winter,
        "units": [{"power": "Sparta", "unit": "A", "at": "spa"}, {"power": "Sparta", "unit": "A", "at": "pra"}],
        "supply_centers": {"Sparta": ["spa", "teg"]},
        "orders": {"Sparta": ["Remove A pra"]},
    }
    rules = get_variant("hoplite").rules()
    assert rules.board.provinces["teg"].centre_kind == "town", "the case needs a Town"
    position = position_from_json(rules, case)
    assert balances(rules, position.centres, position.units) == {"Sparta": -1}
    outcome = run_case(case)
    sheet = render_results("hop", outcome, outcome["next_phase"], options={})
    assert re.search(r"^Sparta: +Remove A Pra$", sheet, re.M), sheet
    assert "waived" not in sheet
    assert not [e for e in outcome["events"] if e["kind"] == "builds_waived"]


# --- CW Heptadiplomacy: seven board-nations a player --------------------------------------------------------


def test_hepta_counts_agree_in_the_results_list_summary_legend_and_web_chart(judge: Judge) -> None:
    """Issue 40: the same count everywhere for CW Heptadiplomacy option A (rule 2: a player holds his country on
    every board), after a year played."""
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 1:vie - 1:gal\nA 2:bud - 2:ser")
    _process(judge, "hep")
    judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 2:ser H")
    _process(judge, "hep")
    labels = {c: c for c in COUNTRIES}
    surfaces = {
        "results": _results_by_player(_results(judge, "austria@example.org")),
        "LIST": _list_by_player(judge.mail("austria@example.org", "LIST hep")),
        "SUMMARY": _summary_last_year(judge.mail("austria@example.org", "SUMMARY hep"), labels),
        "legend": _legend(judge.db, "hep"),
        "web": _web_chart(judge.db, judge.clock, "hep")[0],
    }
    counted = _agree(surfaces)
    assert counted["Austria"] == ("22", "21")  # Serbia taken on board 2; a build due in the Winter
    assert counted["Russia"] == ("28", "28")


def test_hepta_option_b_counts_by_player_in_every_table(judge: Judge) -> None:
    """Option B: `Player 1` ... `Player 7` each hold a nation on every board (a Latin square); every table
    counts the player's seven."""
    players = tuple(f"Player {n}" for n in range(1, 8))
    _game(judge, "hepb", "hepta", players, "assignment=b")
    _process(judge, "hepb")
    _process(judge, "hepb")
    labels = {p: p for p in players}
    surfaces = {
        "results": _results_by_player(_results(judge, "player1@example.org")),
        "LIST": _list_by_player(judge.mail("player1@example.org", "LIST hepb")),
        "legend": _legend(judge.db, "hepb"),
        "web": _web_chart(judge.db, judge.clock, "hepb")[0],
    }
    surfaces["SUMMARY"] = _summary_last_year(judge.mail("player1@example.org", "SUMMARY hepb"), labels)
    counted = _agree(surfaces)
    assert counted["Player 1"] == ("22", "22")  # 3 centres on six boards, Russia's 4 on one


# --- the one function ----------------------------------------------------------------------------------------


def test_the_count_takes_towns_garrisons_and_delphi_in_the_variants_terms() -> None:
    """Rules 2, 4 and 7: a Town is worth half a City, a garrison costs half a unit, and the sack of Delphi
    grants two units beyond the centres; a side's count is its powers' added up."""
    rules = get_variant("hoplite").rules()
    centres = {"spa": "Sparta", "teg": "Sparta", "ela": "Elatea"}
    units = [
        Force("Sparta", Composition.of(armies=2), "spa"),
        Force("Sparta", Composition.of(garrisons=1), "teg"),
        Force("Elatea", Composition.of(garrisons=2), "ela"),
    ]
    counted = adjustment_counts(rules, centres, units, {"delphi_builds": {"Sparta": 2}})
    assert counted["Sparta"] == Adjustment(3, 5, 4)  # 1½ centres, 2½ units, Delphi's 2
    assert counted["Sparta"].change == 2  # one build
    assert counted["Elatea"] == Adjustment(2, 2)  # 1 centre, `2G` 1 unit
    assert counted["Sparta"] + counted["Elatea"] == Adjustment(5, 7, 4)
    assert adjustment_counts(rules, centres, units)["Sparta"].change == -2  # without Delphi: remove 1


def test_the_engines_adjustments_count_delphis_builds_as_the_winter_does() -> None:
    """The contract's `adjustments` (what `judge adjudicate` gives after a Fall) hold the builds Delphi grants,
    as the Winter that follows counts them (`balances`)."""
    autumn = {"season": "Autumn", "year": -449, "type": "Movement"}
    case = {
        "variant": "hoplite",
        "phase": autumn,
        "units": [{"power": "Boeotia", "unit": "A", "at": "del"}, {"power": "Boeotia", "unit": "A", "at": "the"}],
        "supply_centers": {"Boeotia": ["the", "orc", "aul"]},
        "orders": {"Boeotia": ["SACK A del"]},
    }
    outcome = run_case(case)
    assert outcome["next_phase"]["type"] == PhaseType.ADJUSTMENT.value
    rules = get_variant("hoplite").rules()
    winter = position_from_json(rules, {**outcome, "phase": outcome["next_phase"]})
    assert winter.phase == Phase("Winter", -449, PhaseType.ADJUSTMENT)
    due = balances(rules, winter.centres, winter.units, winter.variant_state)["Boeotia"]
    assert outcome["adjustments"]["Boeotia"]["change"] == due / 2 == 3  # 3 Cities, 2 armies, Delphi's 2


# --- what a reply says of the orders is what the results print ------------------------------------------------


def test_a_refused_hepta_build_is_void_in_the_reply_as_in_the_results(judge: Judge) -> None:
    """Issue 40: "a refused Hepta build: the reply said 'no orders', the results printed a void build". The
    reply's orders on file list what the results will print: the build, void."""
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 2:bud - 2:ser")
    _process(judge, "hep")
    judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 2:ser H")
    _process(judge, "hep")
    reply = judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nBuild A 2:ser")
    on_file = re.search(r"^ +(\d:Austria): Build A 2:ser \(void\)$", reply, re.M)
    assert on_file is not None, reply
    _process(judge, "hep")
    sheet = _results(judge, "austria@example.org")
    assert re.search(rf"^{on_file[1]}: +Build A 2:Ser  \(\*void\*\)$", sheet, re.M), sheet
    # the build that was due on board 2 and not made, as the reply said it was due
    assert "2:Austria may build 1" in reply
    assert re.search(r"^2:Austria: +1 build waived$", sheet, re.M), sheet


def test_an_order_for_another_players_unit_is_in_neither_the_reply_on_file_nor_the_results(judge: Judge) -> None:
    """The other half of the same rule (`judge.contract.public.printed_in_results`): an order for a unit not the
    player's is refused in the reply and printed nowhere in the results (issue 28: it would reveal plans), so the
    reply does not count it among the orders on file either."""
    _game(judge, "hep", "hepta", COUNTRIES, "assignment=a")
    reply = judge.mail("austria@example.org", "SIGNON hep Austria pwaustria\nA 1:ber - 1:kie\nA 1:vie - 1:gal")
    assert re.search(r"A 1:ber - 1:kie +\*\* ", reply), reply
    assert re.search(r"^ +1:Austria: A 1:vie - 1:gal$", reply, re.M), reply  # the refused line is not on file
    _process(judge, "hep")
    sheet = _results(judge, "austria@example.org")
    assert "1:Ber - 1:Kie" not in sheet
    assert re.search(r"^1:Austria: +A 1:Vie - 1:Gal$", sheet, re.M), sheet
