"""The variants' pages are written for players (issue 41: "The variant pages written for players ... today they
are developers' notes with file paths and test names"): each says the map and the powers, how to write each kind of
order, the rules that differ from standard and the rulings with the options a GM can set, and keeps the developers'
notes in a section of their own at the end.

Every order example a page gives (its ```orders blocks) is read here by the judge's own reader, the one a mail's
order lines go through (`judge.game.checking.read_orders`, with the variant's board and verbs), so a page never
teaches a line the judge would answer with "cannot read"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from judge.contract import run_case
from judge.game.checking import read_orders
from judge.notation import render_order
from judge.variants import VARIANTS, get_variant
from judge.web.docs import variant_html, variant_names

PAGES = Path(__file__).resolve().parent.parent / "docs" / "variants"
DEVELOPERS = "## For developers"
ORDERS = re.compile(r"^```orders\n(.*?)^```", re.M | re.S)
FOR_DEVELOPERS_ONLY = re.compile(r"judge/|tests/|maps/|docs/|\.py\b|\.toml\b|\btest_\w+|\bissue \d+|variant_state")
"""what a player's part of a page never holds: file paths (a player cannot open them from the site), test names,
issue numbers, the engine's field names"""


def _page(name: str) -> str:
    return (PAGES / f"{name}.md").read_text(encoding="utf-8")


def _players_part(name: str) -> str:
    return _page(name).split(DEVELOPERS)[0]


def _examples(name: str) -> list[str]:
    return [line for block in ORDERS.findall(_page(name)) for line in block.splitlines() if line.strip()]


def test_every_variant_the_judge_plays_has_a_page() -> None:
    assert set(VARIANTS) <= set(variant_names())


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_page_says_the_map_how_to_write_orders_and_the_rulings_then_the_developers_notes_last(name: str) -> None:
    headings = re.findall(r"^## (.+)$", _page(name), re.M)
    assert headings[0].startswith("The map"), headings
    assert "Writing orders" in headings, headings
    assert any(h.startswith("Rulings") for h in headings), headings
    assert headings[-1] == "For developers", headings


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_players_part_of_a_page_names_no_file_test_or_issue(name: str) -> None:
    found = FOR_DEVELOPERS_ONLY.findall(_players_part(name))
    assert not found, found


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_page_names_every_option_a_gm_can_set_with_its_values(name: str) -> None:
    """`judge variants --options NAME` lists them; the players' part of the page says each with every value."""
    part = _players_part(name)
    for option, spec in get_variant(name).options.items():
        assert f"`{option}`" in part, option
        for value in spec.choices:
            shown = str(value).lower() if isinstance(value, bool) else str(value)
            assert f"`{shown}`" in part, (option, shown)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_order_example_on_a_page_is_read_by_the_judges_reader(name: str) -> None:
    rules = get_variant(name).rules()
    lines = _examples(name)
    assert len(lines) >= 8, "a page shows each kind of order"
    for line in lines:
        read = [order for each in read_orders(rules, [line]) for order in each.orders]
        assert read and all(r.order is not None and not r.error for r in read), (line, [r.error for r in read])


def test_the_examples_mean_what_the_pages_say_they_mean() -> None:
    """A few examples whose reading a player relies on, as the judge writes them back."""

    def reads(name: str, line: str) -> list[str]:
        rules = get_variant(name).rules()
        read = [r for each in read_orders(rules, [line]) for r in each.orders]
        return [render_order(r.order) for r in read if r.order is not None]

    assert reads("multiplomacy", "2 F Wes sup 1 A & 1 F Naf") == ["1 F wes S A naf", "1 F wes S F naf"]
    assert reads("multiplomacy", "F Ank-Bla sup by F Con") == ["F ank - bla", "F con S F ank - bla"]
    assert reads("hepta", "A(1:Par)-3:Par") == ["A 1:par - 3:par"]


def test_the_web_page_of_a_variant_shows_its_examples_one_order_a_line_as_written() -> None:
    html = variant_html("multiplomacy")
    assert '<pre class="orders"><code><span class="order">3 F Eng-Bre\n</span>' in html
    assert '<span class="order">2 F Wes sup 1 A &amp; 1 F Naf\n</span>' in html


def test_the_claims_the_hepta_page_shows_are_judged_not_discounted() -> None:
    """Rule 7: "If any problems arise with any particular claims they will be discounted". Each claim line the page
    shows, sent with an Autumn's orders, is read and judged (it fails here: nobody holds the centres), never
    discounted as unreadable."""
    claims = [line for line in _examples("hepta") if line.startswith("CLAIM")]
    assert len(claims) >= 3
    case = {
        "variant": "hepta",
        "phase": {"season": "Fall", "year": 1901, "type": "Movement"},
        "units": [{"power": "4:Italy", "unit": "A", "at": "4:par"}],
        "orders": {"1:England": claims, "4:Italy": ["A 4:par - 4:bur"]},
    }
    rows = {row["input"]: row for row in run_case(case)["orders"]}
    for line in claims:
        assert rows[line]["result"] != "illegal", (line, rows[line]["reason"])
