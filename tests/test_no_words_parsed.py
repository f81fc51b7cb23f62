"""No fact is recovered from text by a renderer (issue 42, "Done when"): the results, replies, notices and web
pages are written from values (reasons, refusals, orders, events), each place named by the namer the renderer
passes, so none of them applies a regular expression to words, or cuts a prefix off a sentence.

Before issue 42 `judge/render/results.py` found province ids in the judge's sentences with a regular expression
and skipped a list of English words (Hoplite Wars' Thebes is `the`), and `render/annotations.py` cut "void: " off
the reasons' words. The files that read what comes in (mail parsing, headers, the web's paths) are not renderers
and are not held to this: they read text, which is their job.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RENDERERS = sorted(
    [
        *(ROOT / "judge" / "render").glob("*.py"),
        *(ROOT / "judge" / "mail" / name for name in ("notifier.py", "announce.py", "compose.py", "answer.py")),
        *(ROOT / "judge" / "web" / name for name in ("pages.py", "frames.py", "feed.py", "export.py")),
        ROOT / "judge" / "game" / "checking.py",
        ROOT / "judge" / "game" / "on_file.py",
    ]
)
"""the modules that write what a player or a GM reads: results, replies, notices, web pages"""
TEMPLATES = sorted((ROOT / "templates").rglob("*.j2"))

PYTHON_PARSING = re.compile(
    r"^\s*(import re\b|from re import|import regex\b)|\bre\.(compile|sub|subn|search|match|fullmatch|findall|"
    r"finditer|split)\(|\.removeprefix\(|\.removesuffix\(",
    re.MULTILINE,
)
TEMPLATE_PARSING = re.compile(r"\|\s*(replace|regex\w*)\b|\.(replace|split|startswith|endswith)\(")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_renderers_are_all_there() -> None:
    """A renderer renamed or moved is not silently left out of the test below."""
    assert all(path.is_file() for path in RENDERERS), [_name(p) for p in RENDERERS if not p.is_file()]
    assert ROOT / "judge" / "render" / "results.py" in RENDERERS
    assert TEMPLATES


@pytest.mark.parametrize("path", RENDERERS, ids=_name)
def test_a_renderer_applies_no_regular_expression_to_words(path: Path) -> None:
    found = [m.group(0).strip() for m in PYTHON_PARSING.finditer(path.read_text(encoding="utf-8"))]
    assert not found, f"{_name(path)} reads words: {found}"


@pytest.mark.parametrize("path", TEMPLATES, ids=_name)
def test_a_template_rewrites_no_words(path: Path) -> None:
    found = [m.group(0) for m in TEMPLATE_PARSING.finditer(path.read_text(encoding="utf-8"))]
    assert not found, f"{_name(path)} rewrites words: {found}"


# --- words made outside the templates, facts read back from words (issue 42's leftovers) --------------------------


def _function(path: Path, name: str) -> ast.FunctionDef:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name]
    assert len(found) == 1, f"{name} not found once in {_name(path)}"
    return found[0]


def _fstring_texts(node: ast.AST) -> list[str]:
    """The constant parts of every f-string under `node`: the words it would write."""
    return [
        part.value
        for joined in ast.walk(node)
        if isinstance(joined, ast.JoinedStr)
        for part in joined.values
        if isinstance(part, ast.Constant) and isinstance(part.value, str)
    ]


def test_a_checked_line_is_stored_as_values_and_worded_by_its_template() -> None:
    """The reply's line for an order (`templates/check_lines.txt.j2`) is the template's; the check stores the
    refusal as the engine's values, and a check stored as words before reads back as those words."""
    from judge.engine.reasons import Note, UnitName
    from judge.engine.refusals import CannotRetreat
    from judge.game.checking import LineCheck

    assert not hasattr(LineCheck, "reply_line")
    refusal = (CannotRetreat(UnitName("France", "A", "par"), "mos", ("bur", "pic")),)
    check = LineCheck("A Par - Mos", "A par R mos", True, refusal, False)
    stored = check.as_json()
    assert "error" not in stored and stored["refusal"] == [r.json() for r in refusal]
    assert LineCheck.from_json(stored) == check
    old = LineCheck.from_json({"input": "F Bre - Kie", "order": "F bre - kie", "error": "kie is not next to bre"})
    assert old.refused and old.refusal == (Note("kie is not next to bre"),)


def test_the_interpreter_and_the_game_layer_write_no_reply_words() -> None:
    """ "Orders for X in game, phase:" is the orders report's template; who plays a seat is a value the game-start
    template words; the results subject's phase is the template's."""
    flush = _function(ROOT / "judge" / "commands" / "interpreter.py", "flush_orders")
    assert not any("Orders for" in text for text in _fstring_texts(flush))
    seating = (ROOT / "judge" / "game" / "seating.py").read_text(encoding="utf-8")
    assert '"civil disorder"' not in seating and '"(no player)"' not in seating
    results = _function(ROOT / "judge" / "mail" / "announce.py", "_results")
    assert not [text for text in _fstring_texts(results) if text.strip() and text.strip() != "results"]


def test_a_sides_lines_are_routed_by_the_values_read_never_by_the_line() -> None:
    """`route_lines` routes a waive by the power the reader kept (`3:England: Waive`), not by cutting the line."""
    route = _function(ROOT / "judge" / "game" / "checking.py", "route_lines")
    read = {n.attr for n in ast.walk(route) if isinstance(n, ast.Attribute)}
    assert not read & {"line", "rpartition", "partition"}, read & {"line", "rpartition", "partition"}


def test_a_hepta_claim_is_read_with_its_line_and_judged_from_the_values() -> None:
    """A claim's words are read once, when its line is read (the CLAIM verb's `read`, `hepta_claims.read_terms`,
    the orders its conditions name with it); judging it (`claim_of`, `_judge_orders`) reads no words, and the
    terms are stored with the order and read back the same (`judge.contract.orders`)."""
    from judge.contract.orders import order_from_json, order_json
    from judge.engine.orders import OrderKind
    from judge.notation.parse import parse_order
    from judge.variants.hepta import HeptaRules
    from judge.variants.hepta_board import hepta_board
    from judge.variants.hepta_terms import ClaimTerms

    claims = ROOT / "judge" / "variants" / "hepta_claims.py"
    hepta = ROOT / "judge" / "variants" / "hepta.py"
    for node in (_function(claims, "claim_of"), _function(claims, "_partners"), _function(hepta, "_judge_orders")):
        calls = {ast.unparse(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
        assert not {c for c in calls if c.startswith("re.") or c in ("parse_order", "read_line", "read_claim")}
    board = hepta_board(2)
    order = parse_order(board, "CLAIM 2-way with France if A 4:par - 4:bur succeeds", HeptaRules.verbs)
    assert order.kind is OrderKind.CLAIM and isinstance(order.terms, ClaimTerms)
    (proviso,) = order.terms.provisos
    assert proviso.order is not None and proviso.order.unit is not None and proviso.order.destination == "4:bur"
    assert order_from_json(order_json(order)) == order
    assert order.terms.places() == ("4:par",)
