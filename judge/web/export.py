"""`judge web export DIR`: the whole site as static files, for any web server (a GM whose judge has no port
facing the web). The pages are the server's own (`pages`), their links relative, so the folder can be put
anywhere; a private game is listed by name as private and nothing more of it is written.

An export into a folder that holds an earlier one leaves exactly the public site of now: whatever the earlier one
wrote that this one does not -- the pages of a game made private since, or deleted, or a phase rolled back -- is
removed (issue 41). So that this never deletes what is not the judge's, the folder must be empty or new, or hold
an export (marked by `MANIFEST`). Each file is written under a scratch name and renamed into place, so a web server
serving the folder meanwhile never sends half a page.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from judge.game import Games
from judge.web import pages
from judge.web.docs import variant_names
from judge.web.feed import SITE_ENTRIES, game_feed, site_feed
from judge.web.frames import boards_of, phase_svg, start_svg
from judge.web.pages import SiteInfo

MANIFEST = ".judge-web-export"
"""the file that marks a folder as a judge's export (what the next export may replace)"""
_EARLIER = ("index.html", "style.css", "stepper.js")
"""the files every export has written: a folder that holds them is an export from before `MANIFEST`"""


class ExportRefused(Exception):
    """The folder holds files that are no judge's export: nothing is written or removed."""


@dataclass
class Exported:
    games: int = 0
    private: int = 0
    files: int = 0
    removed: int = 0
    """files of an earlier export that the site no longer has"""
    written: set[Path] = field(default_factory=set, repr=False)


def _write(path: Path, text: str | bytes, done: Exported) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    scratch.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    os.replace(scratch, path)
    done.files += 1
    done.written.add(path)


def _check_folder(out: Path) -> None:
    if not out.exists():
        return
    if not out.is_dir():
        raise ExportRefused(f"{out} is a file, not a folder")
    if (out / MANIFEST).is_file() or all((out / name).is_file() for name in _EARLIER):
        return
    if any(out.iterdir()):
        raise ExportRefused(
            f"{out} holds files that are not a judge's web export: give an empty or new folder (an export removes "
            "whatever in its folder is not the site)"
        )


def _remove_stale(out: Path, done: Exported, public: set[str], only: str | None) -> None:
    """Remove what an earlier export left that this one did not write. With `only`, the other public games' pages
    are this export's too (it did not write them again), so they stay."""
    games = out / "games"
    for path in sorted(out.rglob("*"), reverse=True):
        if path.is_dir():
            if not any(path.iterdir()):
                path.rmdir()
            continue
        if path in done.written:
            continue
        inside = path.relative_to(games).parts if path.is_relative_to(games) else ()
        if only is not None and inside and inside[0] != only and inside[0] in public and len(inside) > 1:
            continue
        path.unlink()
        done.removed += 1


def export_site(games: Games, info: SiteInfo, out: Path, base_url: str = "", only: str | None = None) -> Exported:
    """Write every page under `out` (or, with `only`, the list, the players' pages and that one game's pages), and
    remove what an
    earlier export there wrote that the public site no longer has; ExportRefused for a folder that holds other
    files."""
    _check_folder(out)
    site = replace(info, exported=True)
    done = Exported()
    listed = games.reads.public_games()
    first = games.listing.page(1, pages.GAMES_A_PAGE)
    for page in range(1, first.pages + 1):
        shown = first if page == 1 else games.listing.page(page, pages.GAMES_A_PAGE)
        _write(out / pages.list_page_name(page), pages.games_page(site, shown), done)
    latest = games.listing.latest(SITE_ENTRIES)
    _write(out / "feed.atom", site_feed(site, latest, base_url), done)
    for name in pages.STATIC:
        _write(out / name, pages.static_file(name), done)
    _write(out / "help.html", pages.help_page(site), done)
    _write(out / "openings.html", pages.openings_page(site, games.openings.all()), done)
    _write(out / "robots.txt", pages.robots_text(site), done)
    from judge.variants import VARIANTS

    for variant in variant_names():
        _write(out / "variants" / f"{variant}.html", pages.variant_page(site, variant), done)
        if variant in VARIANTS:
            _write(out / "variants" / f"{variant}.svg", start_svg(variant), done)
    for game in listed:
        if only is not None and game.name != only:
            continue
        if game.private:
            done.private += 1
            continue
        done.games += 1
        here = out / "games" / game.name
        history = games.reads.public_history(game.name)
        _write(here / "index.html", pages.game_page(site, game, history, games.openings.of(game.name)), done)
        _write(here / "feed.atom", game_feed(site, game, history, base_url), done)
        boards = boards_of(game.variant)
        _write(here / "frames" / "start.svg", start_svg(game.variant), done)
        for board in boards:
            _write(here / "frames" / f"board{board}" / "start.svg", start_svg(game.variant, board), done)
        for phase in history.phases:
            _write(here / "phases" / f"{phase.index}.html", pages.phase_page(site, game, history, phase.index), done)
            _write(here / "frames" / f"{phase.index}.svg", phase_svg(game.name, game.variant, phase), done)
            for board in boards:
                svg = phase_svg(game.name, game.variant, phase, board)
                _write(here / "frames" / f"board{board}" / f"{phase.index}.svg", svg, done)
    for number in games.whois.player_ids():  # each player the site shows (records: docs/web.md)
        card = games.whois.page(number)
        if card is not None:
            _write(out / "players" / f"{number}.html", pages.player_page(site, card), done)
    _write(out / MANIFEST, "This folder is a judge's web export: the next export replaces all of it.\n", done)
    _remove_stale(out, done, {game.name for game in listed if not game.private}, only)
    return done
