"""What the gunboat tests search (issue 44 item 1): every page of a served site, every file of an export, and the
names and addresses none of them may hold while a game hides its players."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urljoin, urlparse

PAGES_LIMIT = 400
"""more pages than a few games' sites hold: a crawl that reaches it has found a loop"""


def crawl(root: str, starts: tuple[str, ...] = ()) -> dict[str, str]:
    """Every page of the served site reachable from its front page (and from `starts`, paths of pages no link
    leads to: an unlisted game's), by its links: URL -> text. Pictures (.png, .gif) are left out; SVG, Atom, HTML,
    text and JSON are read."""
    seen: dict[str, str] = {}
    queue = [root, *(urljoin(root, start) for start in starts)]
    while queue and len(seen) < PAGES_LIMIT:
        url = queue.pop().split("#")[0]
        if url in seen or not url.startswith(root) or url.endswith((".png", ".gif")):
            continue
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                text = answer.read().decode("utf-8", "replace")
        except urllib.error.HTTPError as refused:
            text = refused.read().decode("utf-8", "replace")
        seen[url] = text
        for link in re.findall(r'(?:href|src)="([^"]+)"', text):
            target = urljoin(url, link.replace("&amp;", "&"))
            if urlparse(target).netloc == urlparse(root).netloc:
                queue.append(target)
    assert len(seen) < PAGES_LIMIT, "the crawl found no end"
    return seen


def exported(folder: Path) -> dict[str, str]:
    """Every text file of a web export: path -> text."""
    return {
        str(path.relative_to(folder)): path.read_text("utf-8", "replace")
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix not in (".png", ".gif")
    }


def leaks(texts: dict[str, str], secrets: tuple[str, ...]) -> list[tuple[str, str]]:
    """Each (place, secret) where a secret is found, case aside."""
    return [(place, secret) for place, text in texts.items() for secret in secrets if secret.lower() in text.lower()]
