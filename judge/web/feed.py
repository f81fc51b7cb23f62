"""An Atom feed (RFC 4287) of a game's results: one entry a processed phase, its results as the mail gave them.

Built with the standard library's ElementTree, which escapes every text; the links are absolute when the judge
has a `base_url`, otherwise relative to the feed's own place (Atom resolves them against it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime

from judge.game.views import PublicGame, PublicHistory
from judge.web.pages import SiteInfo, results_text

ATOM = "http://www.w3.org/2005/Atom"


def _stamp(moment: datetime) -> str:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def game_feed(site: SiteInfo, game: PublicGame, history: PublicHistory, base_url: str = "") -> bytes:
    """`games/NAME/feed.atom`, newest phase first."""
    ET.register_namespace("", ATOM)
    here = f"{base_url.rstrip('/')}/games/{game.name}/" if base_url else ""
    feed = ET.Element(f"{{{ATOM}}}feed")
    ET.SubElement(feed, f"{{{ATOM}}}id").text = f"urn:judge:{site.code.lower()}:{game.name}"
    ET.SubElement(feed, f"{{{ATOM}}}title").text = f"{game.name}: results ({site.judge})"
    newest = history.phases[-1].processed_at if history.phases else datetime(2000, 1, 1, tzinfo=UTC)
    ET.SubElement(feed, f"{{{ATOM}}}updated").text = _stamp(newest)
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    ET.SubElement(author, f"{{{ATOM}}}name").text = site.judge
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=f"{here}index.html")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=f"{here}feed.atom")
    for phase in reversed(history.phases):
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        ET.SubElement(
            entry, f"{{{ATOM}}}id"
        ).text = f"urn:judge:{site.code.lower()}:{game.name}:{phase.index}:{_stamp(phase.processed_at)}"
        ET.SubElement(entry, f"{{{ATOM}}}title").text = f"{game.name}: {phase.name}"
        ET.SubElement(entry, f"{{{ATOM}}}updated").text = _stamp(phase.processed_at)
        ET.SubElement(
            entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=f"{here}phases/{phase.index}.html"
        )
        content = ET.SubElement(entry, f"{{{ATOM}}}content", type="text")
        content.text = results_text(site, game, phase)
    return bytes(ET.tostring(feed, encoding="utf-8", xml_declaration=True))
