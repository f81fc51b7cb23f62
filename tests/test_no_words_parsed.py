"""No fact is recovered from text by a renderer (issue 42, "Done when"): the results, replies, notices and web
pages are written from values (reasons, refusals, orders, events), each place named by the namer the renderer
passes, so none of them applies a regular expression to words, or cuts a prefix off a sentence.

Before issue 42 `judge/render/results.py` found province ids in the judge's sentences with a regular expression
and skipped a list of English words (Hoplite Wars' Thebes is `the`), and `render/annotations.py` cut "void: " off
the reasons' words. The files that read what comes in (mail parsing, headers, the web's paths) are not renderers
and are not held to this: they read text, which is their job.
"""

from __future__ import annotations

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
