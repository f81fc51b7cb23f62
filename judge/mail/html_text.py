"""HTML mail bodies to plain text, for players whose mail program sends only HTML.

Block elements and <br> end lines, entities are decoded, whitespace collapses as a browser would (except in
<pre>), the cells of a table row share a line, <script>, <style>, <title> and <template> are dropped, and
<blockquote> content comes out with a leading "> " so the reader drops it like any quoted text.

This is a small linear tokenizer plus `html.unescape`, not `html.parser`: on Python 3.11 `HTMLParser`
takes quadratic time on unclosed tags (120 KB of `<a b='` took 46 s) and raises AssertionError on `<![`,
and a judge must not be stalled by one hostile mail.
"""

from __future__ import annotations

import html
import re

# A comment (closed or running to the end), a start or end tag with its name, or any other markup
# (<!DOCTYPE>, <?xml?>, </ followed by junk). A tag without its ">" runs to the end, as in a browser.
_TOKEN = re.compile(r"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][A-Za-z0-9:-]*)[^>]*>?|<[!?/][^>]*>?", re.DOTALL)
_DROPPED = frozenset({"script", "style", "title", "template"})
_BLOCK_NAMES = """address article aside blockquote caption center dd details dir div dl dt fieldset figcaption figure
footer form h1 h2 h3 h4 h5 h6 header hr li main menu nav ol p pre section summary table tbody tfoot thead tr ul"""
_BLOCKS = frozenset(_BLOCK_NAMES.split())
_SPACES = re.compile(r"\s+")


class _Text:
    """The lines written so far and the line being written."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.current: list[str] = []
        self.pre = 0
        self.quote = 0

    def add(self, data: str) -> None:
        data = html.unescape(data).replace("\xa0", " ")
        if self.pre:
            first, *rest = data.replace("\r\n", "\n").replace("\r", "\n").split("\n")
            self._put(first)
            for piece in rest:
                self.newline()
                self._put(piece)
            return
        data = _SPACES.sub(" ", data)
        if not self.current or self.current[-1].endswith(" "):
            data = data.lstrip(" ")
        self._put(data)

    def _put(self, data: str) -> None:
        if data and not self.current and self.quote:
            self.current.append(">" * self.quote + " ")
        if data:
            self.current.append(data)

    def newline(self) -> None:
        self.lines.append("".join(self.current).rstrip())
        self.current = []

    def end_block(self) -> None:
        """End the current line unless it is empty: nested blocks make one line break, not several."""
        if self.current:
            self.newline()

    def tag(self, name: str, closing: bool) -> None:
        if name == "br":  # <br>, <br/> and the </br> browsers also read as <br>
            self.newline()
            return
        if name in _BLOCKS:
            self.end_block()
        elif name in ("td", "th") and not closing and self.current:
            self.current.append(" ")  # cells of one row stay on one line
        step = -1 if closing else 1
        if name == "pre":
            self.pre = max(0, self.pre + step)
        elif name == "blockquote":
            self.quote = max(0, self.quote + step)

    def text(self) -> str:
        self.end_block()
        return "\n".join(self.lines)


def html_to_text(markup: str) -> str:
    """The text of an HTML document, one line per line a reader would see. Never raises; linear time."""
    out = _Text()
    pos = 0
    while pos < len(markup):
        token = _TOKEN.search(markup, pos)
        if token is None:
            out.add(markup[pos:])
            break
        out.add(markup[pos : token.start()])
        pos = token.end()
        closing, name = token.group(1) == "/", (token.group(2) or "").lower()
        if not name:
            continue
        if name in _DROPPED and not closing:
            end = re.compile(rf"</{name}\b[^>]*>?", re.IGNORECASE).search(markup, pos)
            pos = end.end() if end else len(markup)
            continue
        out.tag(name, closing)
    return out.text()
