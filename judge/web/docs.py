"""The variants' rules pages (docs/variants/*.md, shipped as judge.data.variant_docs) rendered as HTML with
markdown-it-py, CommonMark with its tables.

A picture the Markdown links to lies outside the package (docs/images); the web page shows the variant's own
starting map instead, drawn from its geometry (`pages.variant_page`), so the image is left out and its text kept.
"""

from __future__ import annotations

from functools import cache

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
