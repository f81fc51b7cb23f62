"""What a player must read from the picture alone (issue 29): whose every unit and centre is (the legend, a
Minor striped in its Major's hue), a mixed force's two shares, the variant's own facts (a sacked Delphi, the
colonies, Atlantis and whom it credits, an army aboard a fleet), an order to another board, and every name
that a unit would hide written where it reads."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from judge.board import load_map
from judge.board.geometry import load_geometry
from judge.engine import Composition, Force, Phase, PhaseType, Position
from judge.picture import draw_svg
from judge.picture.facts import INK
from judge.picture.labels import label_box
from judge.picture.samples import sample
from judge.picture.units import HEIGHT, Chip, chip_width
from judge.variants import get_variant

SVG = "{http://www.w3.org/2000/svg}"


def _sample_svg(name: str, **more: object) -> str:
    s = sample(name)
    geometry = load_geometry(get_variant(name).map_name)
    return draw_svg(s.rules.board, geometry, s.position, orders=s.outcome.results, rules=s.rules, **more)  # type: ignore[arg-type]


def _texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def _titled(svg: str) -> dict[str, ET.Element]:
    return {
        (r.find(f"{SVG}title").text or ""): r  # type: ignore[union-attr]
        for r in ET.fromstring(svg).iter(f"{SVG}rect")
        if r.find(f"{SVG}title") is not None
    }


def test_a_mixed_force_is_one_chip_with_each_powers_share() -> None:
    """Hoplite Wars rule 3: a mixed force of a Major's and its Minor's units; 2A of Athens and A of Anactorium
    at Athens are one chip of two parts, the Minor's striped."""
    svg = _sample_svg("hoplite")
    chip = _titled(svg)["Athens 2A + Anactorium A"]
    assert chip.get("fill") == "#ffe14d"  # Athens' own colour (the side's first hue after the named ones)
    parts = re.findall(r'<rect class="u" x="([\d.]+)" y="[\d.]+" rx="1.5" width="([\d.]+)"[^>]*fill="([^"]+)"', svg)
    fills = [fill for _, _, fill in parts]
    assert "#ffe14d" in fills and any(f.startswith("url(#hs-") for f in fills)
    assert {"2A", "A"} <= set(_texts(svg))


def test_a_minors_centre_is_striped_in_its_majors_hue_and_the_legend_says_whose() -> None:
    """The issue: Megara held by Anactorium looked Argive. Anactorium's land is striped in Athens' hue."""
    svg = _sample_svg("hoplite")
    assert re.search(r'<use href="#p-meg" x="0" y="[\d.]+" fill="url\(#ht-\d+\)"/>', svg)
    texts = _texts(svg)
    # Athens, Marathon, Thoricus and the Town of Chios; 2A, F and a G, which costs half (rule 4; issue 40: the
    # legend counts as the results' chart does)
    assert "Athens: 3½ centres, 3½ units (in all 5½, 5½)" in texts  # with Anactorium's 2, 2
    assert "Anactorium: 2 centres, 2 units" in texts  # its A in the mixed force and its A at Megara


def test_a_sacked_delphi_is_ringed_with_its_sacker_named() -> None:
    """Hoplite Wars rule 7: Delphi may be sacked once."""
    svg = _sample_svg("hoplite")
    assert "sacked by Boeotia" in _texts(svg)
    assert 'class="sk"' in svg


def test_each_colony_is_tagged_with_the_major_it_declared_for() -> None:
    """Hoplite Wars rule 6: the seven colonies declare for Majors at the end of the first Autumn."""
    texts = _texts(_sample_svg("hoplite"))
    assert {"colony: Athens", "colony: Sparta", "colony: Thessaly"} <= set(texts)
    start = get_variant("hoplite")
    svg = draw_svg(start.rules().board, load_geometry("hoplite"), start.starting_position(), rules=start.rules())
    assert _texts(svg).count("colony") == 7


def test_a_facts_words_are_dark_on_white_and_the_power_they_name_is_a_square_of_its_colour() -> None:
    """Issue 29's readability: "colony: Athens" was written in Athens' yellow on the yellow of Chios, unreadable.
    Every tag is dark ink on its white halo (contrast well over WCAG's 4.5:1); the Major a colony declared for, and
    Delphi's sacker, stand beside it as a square of their colour."""
    svg = _sample_svg("hoplite")
    root = ET.fromstring(svg)
    tags = [t for t in root.iter(f"{SVG}text") if t.get("class") == "tg"]
    assert tags and {t.get("fill") for t in tags} == {INK}
    assert _contrast(INK, "#ffffff") > 4.5
    squares = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "tw"]
    athens = next(t for t in tags if t.text == "colony: Athens")
    beside = [r for r in squares if abs(float(r.get("y", 0)) + 5.5 - float(athens.get("y", 0))) < 0.01]
    assert "#ffe14d" in {r.get("fill") for r in beside}  # Athens' own colour
    assert len(squares) == len([t for t in tags if ":" in (t.text or "") or "by" in (t.text or "")])


def _contrast(one: str, other: str) -> float:
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_atlantis_names_whom_it_would_credit() -> None:
    """Mad Diplomacy rule 9: Atlantis, in Tyrolia with no unit there and no centre, is credited to the power
    whose country Tyrolia is: Austria."""
    assert "Atlantis: Austria" in _texts(_sample_svg("mad"))


def test_an_army_aboard_a_fleet_shows_its_moves_aboard() -> None:
    """Mad Diplomacy rule 4b: an army still aboard at the end of its fourth move is lost."""
    assert "aboard 1/4" in _texts(_sample_svg("mad"))


def test_a_move_to_a_board_not_drawn_is_a_link_naming_it() -> None:
    """Heptadiplomacy rule 3: A(1:Par)-3:Par, drawn on board 1 alone and on board 3 alone."""
    assert "to 3:Par" in _texts(_sample_svg("hepta", only_board=1))
    assert "from 1:Par" in _texts(_sample_svg("hepta", only_board=3))


def test_option_b_legend_names_each_player_with_the_nation_he_holds_on_the_board() -> None:
    s = sample("hepta")
    rules = get_variant("hepta").rules({"assignment": "b"})
    svg = draw_svg(rules.board, load_geometry("standard"), s.position, rules=rules, only_board=2)
    lines = [t for t in _texts(svg) if t.startswith("Player ")]
    assert len(lines) == 7
    assert "Player 1 (England): 3 centres, 0 units (all boards 22, 1)" in lines  # his F 7:ank


def test_a_name_a_unit_covers_is_written_again_clear_of_it() -> None:
    """Vienna's name lies under the chips of three forces standing there: it is written again below them."""
    board, geometry = load_map("standard"), load_geometry("standard")
    forces = tuple(Force(p, Composition.parse("A"), "vie") for p in ("Austria", "Italy", "Russia"))
    svg = draw_svg(board, geometry, Position(Phase("Spring", 1901, PhaseType.MOVEMENT), forces, {}))
    again = [t for t in ET.fromstring(svg).iter(f"{SVG}text") if "lh" in (t.get("class") or "") and t.text == "Vie"]
    assert len(again) == 1
    x, y = geometry.anchor("vie")
    width = sum(chip_width(Chip(((f.power, f.composition),), 1)) for f in forces) + 4
    chips = (x - width / 2, y - HEIGHT / 2, x + width / 2, y + HEIGHT / 2)
    box = label_box((float(again[0].get("x", 0)), float(again[0].get("y", 0)) - 3), "Vie")
    assert box[1] >= chips[3] or box[3] <= chips[1]  # wholly below or above the chips
