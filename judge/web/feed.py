"""Atom feeds (RFC 4287) of results: a game's, one entry a processed phase, its results as the mail gave them;
and the site's, the phases processed last in every public game (a private game's never among them).

Built with the standard library's ElementTree, which escapes every text; the links are absolute when the judge
has a `base_url`, otherwise relative to the feed's own place (Atom resolves them against it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime

from judge.game.views import PublicGame, PublicHistory, PublicPhase
from judge.web.pages import SiteInfo, results_text

ATOM = "http://www.w3.org/2005/Atom"
SITE_ENTRIES = 50
"""the phases the site's feed carries, newest first"""


def _stamp(moment: datetime) -> str:
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _feed(site: SiteInfo, key: str, title: str, here: str, newest: datetime | None) -> ET.Element:
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    ET.SubElement(feed, f"{{{ATOM}}}id").text = key
    ET.SubElement(feed, f"{{{ATOM}}}title").text = title
    ET.SubElement(feed, f"{{{ATOM}}}updated").text = _stamp(newest or datetime(2000, 1, 1, tzinfo=UTC))
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    ET.SubElement(author, f"{{{ATOM}}}name").text = site.judge
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=f"{here}index.html")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=f"{here}feed.atom")
    return feed


def _entry(feed: ET.Element, site: SiteInfo, game: PublicGame, phase: PublicPhase, page: str) -> None:
    """One processed phase: the same entry (its id) in the game's feed and the site's."""
    entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
    key = f"urn:judge:{site.code.lower()}:{game.name}:{phase.index}:{_stamp(phase.processed_at)}"
    ET.SubElement(entry, f"{{{ATOM}}}id").text = key
    ET.SubElement(entry, f"{{{ATOM}}}title").text = f"{game.name}: {phase.name}"
    ET.SubElement(entry, f"{{{ATOM}}}updated").text = _stamp(phase.processed_at)
    ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=page)
    content = ET.SubElement(entry, f"{{{ATOM}}}content", type="text")
    content.text = results_text(site, game, phase)


def game_feed(site: SiteInfo, game: PublicGame, history: PublicHistory, base_url: str = "") -> bytes:
    """`games/NAME/feed.atom`, newest phase first."""
    here = f"{base_url.rstrip('/')}/games/{game.name}/" if base_url else ""
    newest = history.phases[-1].processed_at if history.phases else None
    feed = _feed(site, f"urn:judge:{site.code.lower()}:{game.name}", f"{game.name}: results ({site.judge})", here,
                 newest)  # fmt: skip
    for phase in reversed(history.phases):
        _entry(feed, site, game, phase, f"{here}phases/{phase.index}.html")
    return bytes(ET.tostring(feed, encoding="utf-8", xml_declaration=True))


def site_feed(site: SiteInfo, latest: list[tuple[PublicGame, PublicPhase]], base_url: str = "") -> bytes:
    """`feed.atom`: the phases processed last in every public game (`Reads.public_latest`), newest first."""
    here = f"{base_url.rstrip('/')}/" if base_url else ""
    newest = latest[0][1].processed_at if latest else None
    feed = _feed(site, f"urn:judge:{site.code.lower()}", f"{site.judge}: results of every game", here, newest)
    for game, phase in latest:
        _entry(feed, site, game, phase, f"{here}games/{game.name}/phases/{phase.index}.html")
    return bytes(ET.tostring(feed, encoding="utf-8", xml_declaration=True))
