"""The variants' rules pages (docs/variants/*.md, shipped as judge.data.variant_docs) rendered as HTML with
markdown-it-py, CommonMark with its tables.

A picture the Markdown links to lies outside the package (docs/images); the web page shows the variant's own
starting map instead, drawn from its geometry (`pages.variant_page`), so the image is left out and its text kept.

A page's order examples (its ```orders blocks, which tests/test_variant_pages.py reads through the judge's order
reader) are shown one order a line, each line its own block with a hanging indent: on a phone's screen a long order
wraps under itself instead of widening the page or reading as two orders.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

from judge.data import data_path


def variant_names() -> list[str]:
    """The variants that have a rules page (every shipped variant has one)."""
    return sorted(p.stem for p in data_path("variant_docs").glob("*.md"))


@cache
def variant_html(name: str) -> str:
    """The rules page of a variant as HTML; KeyError for a name that has none."""
    path = data_path("variant_docs") / f"{name}.md"
    if name not in variant_names() or not path.is_file():
        raise KeyError(name)
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.add_render_rule("fence", _fence)
    tokens = md.parse(path.read_text(encoding="utf-8"))
    for token in tokens:
        if token.children:
            token.children = [_without_outside_images(child) for child in token.children]
    return str(md.renderer.render(tokens, md.options, {}))


def _without_outside_images(token: Token) -> Token:
    """An image of docs/images as its alternative text; a link to another variant's page to that page's HTML."""
    if token.type == "image":
        text = Token("text", "", 0)
        text.content = f"[{token.content}]" if token.content else ""
        return text
    if token.type == "link_open":
        href = str(token.attrs.get("href", ""))
        if href.endswith(".md") and "/" not in href:
            token.attrs["href"] = href[:-3] + ".html"
    return token


def _fence(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    """A fenced block as CommonMark renders it; an `orders` block one order a line (module docstring)."""
    token = tokens[idx]
    if token.info.strip() != "orders":
        return str(self.fence(tokens, idx, options, env))
    lines = "".join(f'<span class="order">{escape(line)}\n</span>' for line in token.content.splitlines() if line)
    return f'<pre class="orders"><code>{lines}</code></pre>\n'
