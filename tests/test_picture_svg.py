"""Map pictures as SVG (judge/picture/): every variant's position draws; units show their composition and stacks
their count; dislodged units stand beside their province; centres, towns and Atlantis are marked; seven boards
stand side by side; orders are arrows with failures marked; and each variant's sample picture is pinned as a
golden file (tests/golden/pictures/, rewritten with JUDGE_UPDATE_GOLDEN=1, then reviewed by eye)."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.board import load_map
from judge.board.geometry import GeometryError, load_geometry
from judge.engine import ARMY, Composition, Dislodged, Force, Phase, PhaseType, Position
from judge.picture import draw_svg
from judge.picture.centres import CITY_RADIUS
from judge.picture.samples import SAMPLES, sample
from judge.picture.units import DISLODGED_OFFSET
from judge.value import replace
from judge.variants import VARIANTS, get_variant

SVG = "{http://www.w3.org/2000/svg}"
GOLDEN = Path(__file__).parent / "golden" / "pictures"
SPRING = Phase("Spring", 1901, PhaseType.MOVEMENT)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in parse(svg).iter(f"{SVG}text")]


def chips(svg: str) -> list[ET.Element]:
    """The unit chips: their rectangles, with a tooltip naming power and composition."""
    return [r for r in parse(svg).iter(f"{SVG}rect") if r.find(f"{SVG}title") is not None]


def chip_titles(svg: str) -> list[str]:
    return [r.find(f"{SVG}title").text or "" for r in chips(svg)]  # type: ignore[union-attr]


def drawable_variants() -> list[str]:
    names = []
    for name, variant in VARIANTS.items():
        try:
            load_geometry(variant.map_name)
        except GeometryError:
            continue
        names.append(name)
    return names


@pytest.mark.parametrize("name", drawable_variants())
def test_every_variant_draws_its_starting_position(name: str) -> None:
    variant = get_variant(name)
    rules = variant.rules()
    position = variant.starting_position()
    svg = draw_svg(rules.board, load_geometry(variant.map_name), position, title=variant.phase_name(position.phase))
    root = parse(svg)
    assert root.tag == f"{SVG}svg"
    assert variant.phase_name(position.phase) in texts(svg)
    assert len(chips(svg)) == len(position.units)


def test_every_variant_can_be_drawn_and_a_map_without_a_geometry_is_refused() -> None:
    """Every variant's map has a geometry, its own or its base's: Hoplite Wars' too (maps/geometry/hoplite.toml)."""
    assert sorted(drawable_variants()) == sorted(VARIANTS)
    with pytest.raises(GeometryError, match="has no geometry"):
        load_geometry("nosuch")


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_position_draws_with_its_orders(name: str) -> None:
    s = sample(name)
    svg = draw_svg(s.rules.board, load_geometry(get_variant(name).map_name), s.position, orders=s.outcome.results)
    parse(svg)
    drawn = [r for r in s.outcome.results if r.result.value != "illegal" and r.canonical is not None]
    assert drawn and svg.count('class="a') + svg.count('class="l') >= 1


def _standard(units: list[Force], centres: dict[str, str] | None = None, **kw: object) -> str:
    board = load_map("standard")
    return draw_svg(board, load_geometry("standard"), Position(SPRING, tuple(units), centres or {}), **kw)  # type: ignore[arg-type]


def test_a_unit_is_written_with_its_composition_at_its_anchor() -> None:
    svg = _standard([Force("France", ARMY, "par")])
    (chip,) = chips(svg)
    x, y = load_geometry("standard").anchor("par")
    width, height = float(chip.get("width", 0)), float(chip.get("height", 0))
    assert float(chip.get("x", 0)) + width / 2 == pytest.approx(x, abs=0.1)
    assert float(chip.get("y", 0)) + height / 2 == pytest.approx(y, abs=0.1)
    assert "A" in texts(svg)


def test_a_fleet_on_a_split_coast_stands_at_that_coasts_anchor() -> None:
    geometry = load_geometry("standard")
    north = _standard([Force("Russia", Composition.parse("F"), "stp/nc")])
    (chip,) = chips(north)
    assert float(chip.get("y", 0)) + 7 == pytest.approx(geometry.outlines["stp"].coasts["nc"][1], abs=0.1)


def test_multiplicity_units_show_their_composition() -> None:
    three, mixed = Composition.parse("3A"), Composition.parse("A/2F")
    svg = _standard([Force("France", three, "bur"), Force("Italy", mixed, "nap")])
    assert {"3A", "A/2F"} <= set(texts(svg))
    assert sorted(chip_titles(svg)) == ["France 3A", "Italy A/2F"]


def test_a_garrison_is_drawn_as_g() -> None:
    svg = _standard([Force("Austria", Composition.parse("G"), "vie"), Force("Austria", Composition.parse("2G"), "bud")])
    assert {"G", "2G"} <= set(texts(svg))


def test_a_stack_of_three_armies_shows_its_count() -> None:
    """Multiplomacy: three individual armies of one power in one province are one chip, piled, with 3 on it."""
    s = sample("multiplomacy")
    svg = draw_svg(s.rules.board, load_geometry("multiplomacy"), s.position)
    assert "England A x3" in chip_titles(svg)
    assert "England F x2" in chip_titles(svg)
    assert "3" in texts(svg) and "2" in texts(svg)
    behind = len(re.findall(r'<rect class="u"[^>]*/>', svg))  # the pile behind each stack's chip: one or two
    assert behind == 2 + 1 + 1 + 2 + 1  # England 3 A and 2 F, Germany 2 A, Italy 3 A, Russia 2 F


def test_different_compositions_in_one_province_stand_side_by_side() -> None:
    fleet = Composition.parse("F")
    svg = _standard([Force("England", ARMY, "lon"), Force("England", ARMY, "lon"), Force("England", fleet, "lon")])
    a, f = sorted(chips(svg), key=lambda r: float(r.get("x", 0)))
    assert float(a.get("x", 0)) + float(a.get("width", 0)) < float(f.get("x", 0))


def test_dislodged_units_stand_beside_their_province_outlined_in_red() -> None:
    board = load_map("standard")
    retreat = Phase("Spring", 1901, PhaseType.RETREAT)
    dislodged = Dislodged(Force("France", ARMY, "bur"), "ruh", retreats=("par",))
    position = Position(retreat, (Force("Germany", ARMY, "bur"),), {}, (dislodged,))
    svg = draw_svg(board, load_geometry("standard"), position)
    (red,) = [r for r in chips(svg) if "dis" in (r.get("class") or "")]
    x, y = load_geometry("standard").anchor("bur")
    assert float(red.get("x", 0)) + float(red.get("width", 0)) / 2 == pytest.approx(x + DISLODGED_OFFSET[0], abs=0.1)
    assert float(red.get("y", 0)) + 7 == pytest.approx(y + DISLODGED_OFFSET[1], abs=0.1)


def test_owned_centres_tint_their_province_and_fill_their_mark() -> None:
    svg = _standard([], {"par": "France", "bel": "Germany"})
    assert re.search(r'<use href="#p-par" [^>]*fill="#', svg)
    assert re.search(r'<use href="#p-bel" [^>]*fill="#', svg)
    marks = [c for c in parse(svg).iter(f"{SVG}circle") if c.get("class") == "sc"]
    assert len(marks) == 34
    titles = {c.find(f"{SVG}title").text for c in marks}  # type: ignore[union-attr]
    assert "Par: France" in titles and "Bel: Germany" in titles and "Hol: unowned" in titles
    assert all(float(c.get("r", 0)) == CITY_RADIUS for c in marks)


def test_a_town_is_marked_apart_from_a_city() -> None:
    """Hoplite Wars' towns (half a centre) get a diamond, cities a round mark."""
    board = load_map("standard")
    provinces = dict(board.provinces)
    provinces["bel"] = replace(provinces["bel"], centre_kind="town")
    towns = board.changed(provinces=provinces)
    svg = draw_svg(towns, load_geometry("standard"), Position(SPRING, (), {"bel": "France"}))
    diamonds = [p for p in parse(svg).iter(f"{SVG}path") if p.get("class") == "sc"]
    assert [d.find(f"{SVG}title").text for d in diamonds] == ["Bel: France"]  # type: ignore[union-attr]
    assert len([c for c in parse(svg).iter(f"{SVG}circle") if c.get("class") == "sc"]) == 33


def test_mad_diplomacy_marks_placed_centres_and_shows_atlantis_where_it_stands() -> None:
    s = sample("mad")
    svg = draw_svg(s.rules.board, load_geometry("mad"), s.position)
    titles = {t.text for t in parse(svg).iter(f"{SVG}title")}
    assert "Atlantis (Austria)" in titles
    assert "Gas: France" in titles  # a centre France placed (not a centre on the map)
    assert "Par: unowned" not in titles and not any(t and t.startswith("Par:") for t in titles)
    x, y = load_geometry("standard").outlines["tyr"].centre or (0.0, 0.0)
    ring = next(c for c in parse(svg).iter(f"{SVG}circle") if c.get("class") == "atl")
    assert abs(float(ring.get("cx", 0)) - x) < 20 and abs(float(ring.get("cy", 0)) - 26 - y) < 20


def test_seven_boards_stand_side_by_side_with_one_geometry() -> None:
    hepta = get_variant("hepta")
    rules = hepta.rules()
    position = hepta.starting_position()
    geometry = load_geometry(hepta.map_name)
    svg = draw_svg(rules.board, geometry, position, title="Spring 1901")
    root = parse(svg)
    assert float(root.get("width", 0)) > 3 * geometry.width
    assert [f"Board {k}" for k in range(1, 8)] == [t for t in texts(svg) if t.startswith("Board")]
    assert svg.count('<path id="p-par"') == 1  # the outlines are written once and used seven times
    assert svg.count('<use href="#under"') == 7
    assert len(chips(svg)) == 7 * 22


def test_one_of_the_seven_boards_can_be_drawn_alone() -> None:
    hepta = get_variant("hepta")
    svg = draw_svg(hepta.rules().board, load_geometry("standard"), hepta.starting_position(), only_board=3)
    assert [t for t in texts(svg) if t.startswith("Board")] == ["Board 3"]
    assert len(chips(svg)) == 22
    assert all(t.startswith("3:") for t in chip_titles(svg))
    assert float(parse(svg).get("width", 0)) == load_geometry("standard").width


def test_seven_boards_in_a_row_when_asked() -> None:
    hepta = get_variant("hepta")
    geometry = load_geometry("standard")
    svg = draw_svg(hepta.rules().board, geometry, hepta.starting_position(), columns=7)
    assert float(parse(svg).get("width", 0)) > 7 * geometry.width


def test_orders_are_arrows_and_failed_ones_are_marked() -> None:
    s = sample("standard")
    svg = draw_svg(s.rules.board, load_geometry("standard"), s.position, orders=s.outcome.results)
    moves = [r for r in s.outcome.results if r.canonical is not None and r.canonical.kind.value == "move"]
    failed_moves = [r for r in moves if r.result.value == "fails"]
    assert svg.count('<g class="a">') == len(moves) - len(failed_moves)  # moves that succeeded
    assert svg.count('<g class="a of">') == len(failed_moves)  # faded, with a red cross
    supports = [r for r in s.outcome.results if r.canonical is not None and r.canonical.kind.value == "support"]
    assert svg.count('class="os"') >= len(supports)
    assert 'class="oc"' in svg  # the convoy
    assert svg.count('<path class="x"') >= len(failed_moves)


def test_without_orders_no_arrows_are_drawn() -> None:
    s = sample("standard")
    svg = draw_svg(s.rules.board, load_geometry("standard"), s.position)
    assert 'class="a' not in svg and 'class="x"' not in svg


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_each_variants_sample_picture_matches_its_golden_svg(name: str) -> None:
    s = sample(name)
    variant = get_variant(name)
    svg = draw_svg(
        s.rules.board,
        load_geometry(variant.map_name),
        s.position,
        orders=s.outcome.results,
        title=f"{variant.title}: {variant.phase_name(s.position.phase)}",
    )
    path = GOLDEN / f"{name}.svg"
    if os.environ.get("JUDGE_UPDATE_GOLDEN"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(svg, encoding="utf-8")
    assert path.is_file(), f"no golden file {path.name}; run with JUDGE_UPDATE_GOLDEN=1 and review it"
    assert svg == path.read_text(encoding="utf-8")
