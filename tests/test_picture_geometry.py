"""The map pictures' geometry (maps/geometry/, docs/map-format.md "Geometry"): every shipped map has one; the
standard board is real Europe and Hoplite Wars' real Greece, each agreeing with its map; `judge map check` finds
what a GM could get wrong in a geometry of their own."""

from __future__ import annotations

import math
import os
import textwrap
from functools import cache
from pathlib import Path

import pytest

from judge.board import Terrain, load_map
from judge.board.geometry import geometry_path_for, load_geometry
from judge.board.geometry_check import TOLERANCE
from judge.board.loader import check_map_file, map_names, maps_dir
from judge.board.planar import inside, ring_area, shared_borders
from judge.cli import main
from judge.picture import draw_svg
from judge.variants import get_variant

GOLDEN = Path(__file__).parent / "golden" / "pictures"

# --- every shipped map -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", map_names())
def test_every_shipped_map_has_a_geometry_and_passes_the_check(name: str) -> None:
    """A map with no geometry cannot be drawn (`judge map draw` refuses it): every map the judge ships has one, its
    own or its base's, and it agrees with the map's adjacency."""
    path = maps_dir() / f"{name}.toml"
    assert geometry_path_for(path) is not None, f"{name} has no geometry: maps/geometry/{name}.toml"
    assert check_map_file(path) == []


@pytest.mark.parametrize("name", ["standard", "multiplomacy", "mad"])
def test_every_map_drawn_with_the_standard_geometry_passes_the_check(name: str) -> None:
    path = maps_dir() / f"{name}.toml"
    assert geometry_path_for(path) == maps_dir() / "geometry" / "standard.toml"
    assert check_map_file(path) == []


@pytest.mark.parametrize("name", map_names())
def test_judge_map_check_checks_the_geometry_of_every_shipped_map(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["map", "check", name]) == 0
    assert capsys.readouterr().out == f"{name}: ok\n"


# --- the standard board ------------------------------------------------------------------------------------------


def test_every_province_of_the_standard_board_has_a_shape_and_switzerland_too() -> None:
    board, geometry = load_map("standard"), load_geometry("standard")
    assert set(geometry.outlines) == set(board.provinces)
    assert len(geometry.outlines) == 76


def _area(name: str) -> float:
    return sum(abs(ring_area(r)) for r in load_geometry("standard").outlines[name].rings)


def _middle(name: str) -> tuple[float, float]:
    return load_geometry("standard").outlines[name].unit


def test_the_standard_board_is_europe_with_its_provinces_in_their_real_places() -> None:
    """Compass directions between real places, and sizes, as an atlas has them (x grows east, y south)."""
    east_of = [("ber", "lon"), ("mos", "war"), ("war", "ber"), ("vie", "mun"), ("con", "gre"), ("smy", "gre")]
    north_of = [("nwy", "den"), ("stp", "mos"), ("edi", "lon"), ("par", "mar"), ("bur", "mar"), ("den", "kie")]
    for a, b in east_of:
        assert _middle(a)[0] > _middle(b)[0], f"{a} should lie east of {b}"
    for a, b in north_of:
        assert _middle(a)[1] < _middle(b)[1], f"{a} should lie north of {b}"
    assert _area("mos") > 20 * _area("bel")  # Russia is vast, Belgium small
    assert _area("spa") > 3 * _area("por")
    assert _area("ska") > _area("hel")  # the Skagerrak and the Kattegat against the German Bight


def test_islands_and_the_real_coastline_are_there() -> None:
    """Naples has Sicily; Britain's coast is a real coastline, not a few corners."""
    geometry = load_geometry("standard")
    naples = geometry.outlines["nap"].rings
    assert len(naples) >= 2, "Naples is the mainland and Sicily"
    points = sum(len(r) for o in geometry.outlines.values() for r in o.rings)
    assert 3000 < points < 10000
    assert sum(len(r) for r in geometry.outlines["nwy"].rings) > 80  # the fjords
    assert any(s.kind == "land" for s in geometry.scenery)  # Ireland, Corsica, ...


def test_every_unit_anchor_label_and_centre_mark_of_the_standard_board_lies_in_its_province() -> None:
    board, geometry = load_map("standard"), load_geometry("standard")
    for pid, outline in geometry.outlines.items():
        spots = [outline.unit, outline.label, *outline.coasts.values()]
        if outline.centre is not None:
            spots.append(outline.centre)
        assert all(inside(p, outline.rings) for p in spots), pid
        # every land province has a place for a mark: Multiplomacy makes them all centres, Mad places its own
        assert (outline.centre is not None) == (board.provinces[pid].terrain is not Terrain.SEA), pid
    assert set(geometry.outlines["stp"].coasts) == {"nc", "sc"}
    nc, sc = geometry.outlines["stp"].coasts["nc"], geometry.outlines["stp"].coasts["sc"]
    assert nc[1] < sc[1] and math.dist(nc, sc) > 100  # the Barents coast far north of the Gulf of Finland


# --- the Hoplite Wars board ---------------------------------------------------------------------------------------

ISLANDS = ["agn", "cep", "chi", "cos", "cyt", "les", "rho", "sam"]
"""the map's eight one-province islands (maps/hoplite.toml: `army = []`)"""


def _city(name: str) -> tuple[float, float]:
    """Where the province's centre mark stands: at its city from the geography sheet wherever there is room."""
    centre = load_geometry("hoplite").outlines[name].centre
    assert centre is not None, name
    return centre


def _hoplite_area(name: str) -> float:
    return sum(abs(ring_area(r)) for r in load_geometry("hoplite").outlines[name].rings)


@cache
def _hoplite_borders() -> dict[frozenset[str], float]:
    """Every two provinces whose shapes share a border, and its length, as `judge map check` measures it."""
    geometry = load_geometry("hoplite")
    return shared_borders({k: o.rings for k, o in geometry.outlines.items()}, TOLERANCE)


def _hoplite_neighbours(name: str) -> set[str]:
    """The provinces whose shapes share a border with this one's (longer than a corner)."""
    touching = load_geometry("hoplite").touching
    pairs = [pair for pair, length in _hoplite_borders().items() if name in pair and length > touching]
    return {other for pair in pairs for other in pair}


def test_every_province_of_the_hoplite_board_has_a_shape_and_the_impassable_edges_too() -> None:
    board, geometry = load_map("hoplite"), load_geometry("hoplite")
    assert set(geometry.outlines) == set(board.provinces)
    assert {"pin", "mac", "lyd"} <= set(geometry.outlines)  # Pindus, Macedonia and Lydia are drawn as land
    assert geometry.straits == {frozenset(("aul", "cha")), frozenset(("cae", "seg"))}


def test_the_hoplite_board_is_greece_with_its_cities_in_their_real_places() -> None:
    """Compass directions between the sheet's sites, as an atlas has them (x grows east, y south)."""
    east_of = [("ath", "cor"), ("cor", "arg"), ("ath", "the"), ("tho", "ath"), ("pho", "les"), ("mil", "sam")]
    north_of = [("arg", "spa"), ("cor", "arg"), ("the", "ath"), ("lar", "phe"), ("pat", "eli"), ("mes", "pyl")]
    for a, b in east_of:
        assert _city(a)[0] > _city(b)[0], f"{a} should lie east of {b}"
    for a, b in north_of:
        assert _city(a)[1] < _city(b)[1], f"{a} should lie north of {b}"
    board = load_map("hoplite")
    cities = [p for p, prov in board.provinces.items() if prov.supply_centre and prov.centre_kind == "city"]
    assert min(cities, key=lambda p: _city(p)[1]) == "lar", "Larissa is the northernmost City"
    assert min(cities, key=lambda p: _city(p)[0]) == "ana", "Anactorium is the westernmost City"
    # the colonies lie across the Aegean, east of every City of the mainland
    colonies = ["chi", "cos", "les", "mil", "pho", "rho", "sam"]
    assert min(_city(c)[0] for c in colonies) > max(_city(c)[0] for c in cities)
    assert _hoplite_area("lyd") > 20 * _hoplite_area("meg")  # the Persian mainland is vast, the Megarid small
    assert _hoplite_area("cae") > _hoplite_area("gth")


def test_the_hoplite_islands_are_islands_and_euboea_is_reached_over_the_euripus() -> None:
    board = load_map("hoplite")
    seas = {p for p, prov in board.provinces.items() if prov.terrain is Terrain.SEA}
    for island in ISLANDS:
        assert _hoplite_neighbours(island) <= seas | {island}, f"{island} should touch only the sea"
        assert _hoplite_neighbours(island) & seas, island
    euboea = {"cha", "ere", "his"}
    for town in euboea:
        assert _hoplite_neighbours(town) <= seas | euboea, f"{town} should touch only Euboea and the sea"
    assert "aul" not in _hoplite_neighbours("cha")  # Aulis and Chalcis: a strait, not a land border
    assert "cor" in _hoplite_neighbours("meg")  # the Isthmus joins the Peloponnese to the mainland


def test_the_split_coasts_of_the_hoplite_board_face_their_own_gulfs() -> None:
    """Rule 11: Chalcis, Larissa and Megara have a north and a south coast; the north one stands to the north."""
    outlines = load_geometry("hoplite").outlines
    for name in ("cha", "lar", "meg"):
        assert set(outlines[name].coasts) == {"nc", "sc"}, name
        assert outlines[name].coasts["nc"][1] < outlines[name].coasts["sc"][1], name
    assert outlines["cor"].coasts == {}  # Corinth: one coast on both gulfs


def test_judge_map_draw_draws_hoplite_wars(tmp_path: Path) -> None:
    out = tmp_path / "hoplite.png"
    assert main(["map", "draw", "hoplite", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_hoplite_starting_position_matches_its_golden_svg() -> None:
    """What `judge map draw hoplite` draws, pinned (rewritten with JUDGE_UPDATE_GOLDEN=1, then reviewed by eye).
    The sample pictures of tests/test_picture_svg.py are one per variant with orders; Hoplite Wars has none there
    yet, so its picture is pinned here."""
    variant = get_variant("hoplite")
    position = variant.starting_position()
    svg = draw_svg(
        variant.rules().board, load_geometry(variant.map_name), position, title=variant.phase_name(position.phase)
    )
    path = GOLDEN / "hoplite-start.svg"
    if os.environ.get("JUDGE_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.is_file(), f"no golden file {path.name}; run with JUDGE_UPDATE_GOLDEN=1 and review it"
    assert svg == path.read_text(encoding="utf-8")


# --- the checker, on a small map of its own ---------------------------------------------------------------------

MAP = """
[map]
id = "tiny"
name = "Tiny"
victory_centres = 1

[powers.Red]
home = ["a"]
units = ["A a"]

[provinces.a]
name = "Alpha"
terrain = "coast"
supply_centre = true
army = ["b"]
fleet = ["b", "s"]

[provinces.b]
name = "Beta"
terrain = "coast"
army = ["a"]
fleet = ["a", "s"]

[provinces.s]
name = "Sea"
terrain = "sea"
fleet = ["a", "b"]
"""

# a and b side by side on land, the sea s below both
GEOMETRY = """
[geometry]
width = 40
height = 30

[provinces.a]
unit = [5, 5]
label = [5, 8]
centre = [3, 3]
shape = ["0,0 10,0 10,10 0,10"]

[provinces.b]
unit = [15, 5]
label = [15, 8]
shape = ["10,0 20,0 20,10 10,10"]

[provinces.s]
unit = [10, 15]
label = [10, 18]
shape = ["0,10 10,10 20,10 20,20 0,20"]
"""


def _check(tmp_path: Path, geometry: str, map_text: str = MAP) -> list[str]:
    (tmp_path / "geometry").mkdir(exist_ok=True)
    (tmp_path / "tiny.toml").write_text(map_text, encoding="utf-8")
    (tmp_path / "geometry" / "tiny.toml").write_text(textwrap.dedent(geometry), encoding="utf-8")
    return check_map_file(tmp_path / "tiny.toml")


def test_a_sound_geometry_passes(tmp_path: Path) -> None:
    assert _check(tmp_path, GEOMETRY) == []


def test_a_map_without_a_geometry_is_still_a_sound_map(tmp_path: Path) -> None:
    (tmp_path / "tiny.toml").write_text(MAP, encoding="utf-8")
    assert check_map_file(tmp_path / "tiny.toml") == []


def test_a_province_without_a_shape_is_reported(tmp_path: Path) -> None:
    without_b = GEOMETRY.split("[provinces.b]")[0] + "[provinces.s]" + GEOMETRY.split("[provinces.s]")[1]
    assert _check(tmp_path, without_b) == ["geometry: province b has no shape"]


def test_overlapping_shapes_are_reported(tmp_path: Path) -> None:
    overlapping = GEOMETRY.replace('shape = ["10,0 20,0 20,10 10,10"]', 'shape = ["6,0 20,0 20,10 6,10"]')
    problems = _check(tmp_path, overlapping)
    assert any("provinces a and b overlap" in p for p in problems), problems


def test_adjacent_land_provinces_that_do_not_touch_need_a_declared_strait(tmp_path: Path) -> None:
    apart = GEOMETRY.replace('shape = ["10,0 20,0 20,10 10,10"]', 'shape = ["12,0 20,0 20,10 12,10"]')
    sea = 'shape = ["0,10 10,10 10,0 12,0 12,10 20,10 20,20 0,20"]'  # the sea reaches up between them
    apart = apart.replace('shape = ["0,10 10,10 20,10 20,20 0,20"]', sea)
    problems = _check(tmp_path, apart)
    assert problems == [
        "geometry: a and b are adjacent but their shapes share no border "
        '(draw one, or declare a strait: straits = [["a", "b"]])'
    ]
    with_strait = apart.replace("height = 30", 'height = 30\nstraits = [["a", "b"]]')
    assert _check(tmp_path, with_strait) == []


def test_a_strait_between_provinces_the_map_does_not_join_is_reported(tmp_path: Path) -> None:
    map_text = MAP.replace('army = ["b"]\nfleet = ["b", "s"]', 'army = []\nfleet = ["s"]', 1)
    map_text = map_text.replace('army = ["a"]\nfleet = ["a", "s"]', 'army = []\nfleet = ["s"]', 1)
    problems = _check(tmp_path, GEOMETRY.replace("height = 30", 'height = 30\nstraits = [["a", "b"]]'), map_text)
    assert "geometry: the strait a-b joins provinces the map does not join" in problems
    assert "geometry: a and b share a border of 10.0 units but are not adjacent on the map" in problems


def test_anchors_labels_and_marks_outside_their_shape_are_reported(tmp_path: Path) -> None:
    moved = GEOMETRY.replace("unit = [5, 5]", "unit = [15, 5]").replace("centre = [3, 3]", "centre = [30, 3]")
    problems = _check(tmp_path, moved.replace("label = [10, 18]", "label = [35, 25]"))
    assert "geometry: province a: its unit anchor (15, 5) lies outside its shape" in problems
    assert "geometry: province a: its supply-centre mark (30, 3) lies outside its shape" in problems
    assert "geometry: province s: its label (35, 25) lies outside its shape" in problems


def test_a_centre_needs_its_mark_and_a_split_coast_its_anchors(tmp_path: Path) -> None:
    map_text = MAP.replace('fleet = ["b", "s"]', "", 1).replace(
        'fleet = ["a", "s"]', 'fleet = ["a/nc", "s"]', 1
    )  # fmt: skip
    map_text = map_text.replace('fleet = ["a", "b"]', 'fleet = ["a/nc", "b"]')
    map_text += '\n[provinces.a.coasts.nc]\nname = "North Coast"\nfleet = ["b", "s"]\n'
    problems = _check(tmp_path, GEOMETRY.replace("centre = [3, 3]\n", ""), map_text)
    assert "geometry: province a: a supply centre needs its mark (centre = [x, y])" in problems
    assert "geometry: province a: coast nc needs an anchor (coasts = { nc = [x, y] })" in problems


def test_a_badly_written_geometry_is_reported_not_raised(tmp_path: Path) -> None:
    problems = _check(tmp_path, GEOMETRY.replace('shape = ["0,0 10,0 10,10 0,10"]', 'shape = ["0,0 ten,0 10,10"]'))
    assert "geometry: province a: ring 1 is not a list of points 'x,y x,y ...'" in problems


def test_judge_map_check_prints_the_geometry_problems_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _check(tmp_path, GEOMETRY.replace("label = [15, 8]", "label = [25, 8]"))
    assert main(["map", "check", str(tmp_path / "tiny.toml")]) == 1
    assert "geometry: province b: its label (25, 8) lies outside its shape" in capsys.readouterr().out
