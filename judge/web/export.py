"""`judge web export DIR`: the whole site as static files, for any web server (a GM whose judge has no port
facing the web). The pages are the server's own (`pages`), their links relative, so the folder can be put
anywhere; a private game is listed by name as private and nothing more of it is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge.game import Games
from judge.web import pages
from judge.web.docs import variant_names
from judge.web.feed import game_feed
from judge.web.frames import phase_svg, start_svg
from judge.web.pages import SiteInfo


@dataclass
class Exported:
    games: int = 0
    private: int = 0
    files: int = 0


def _write(path: Path, text: str | bytes, done: Exported) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    done.files += 1


def export_site(games: Games, info: SiteInfo, out: Path, base_url: str = "", only: str | None = None) -> Exported:
    """Write every page under `out` (or, with `only`, the list and that one game's pages)."""
    site = SiteInfo(info.judge, info.address, info.code, exported=True)
    done = Exported()
    listed = games.reads.public_games()
    _write(out / "index.html", pages.games_page(site, listed), done)
    for name in ("style.css", "stepper.js"):
        _write(out / name, pages.static_file(name), done)
    _write(out / "help.html", pages.help_page(site), done)
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
        _write(here / "index.html", pages.game_page(site, game, history), done)
        _write(here / "feed.atom", game_feed(site, game, history, base_url), done)
        _write(here / "frames" / "start.svg", start_svg(game.variant), done)
        for phase in history.phases:
            _write(here / "phases" / f"{phase.index}.html", pages.phase_page(site, game, history, phase.index), done)
            _write(here / "frames" / f"{phase.index}.svg", phase_svg(game.name, game.variant, phase), done)
    return done
