"""Every page of the site as HTML, made from the game layer's typed views. The server (`site`) and the static
export (`export`) both call these functions, so what a visitor reads on the judge and in an exported folder cannot
differ. Every link is relative (`root` is the way up to the site's top), so the exported folder works anywhere.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from html import escape
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, FileSystemLoader, StrictUndefined
from markupsafe import Markup

from judge.data import data_path
from judge.engine.supply import halves as half_text
from judge.game.end_rules import ending_terms
from judge.game.settings import shown, shown_option
from judge.game.views import (
    GamesPage,
    Opening,
    PublicEvent,
    PublicGame,
    PublicHistory,
    PublicPhase,
    PublicPress,
)
from judge.game.whois import PlayerCard
from judge.game.year_end import CENTRES
from judge.picture.key import Mark, key_style, marks
from judge.picture.palette import Palette
from judge.render import render_results
from judge.render.dates import machine_stamp, when_text
from judge.render.tally import holdings, side_total, sides_holding
from judge.web.docs import variant_html
from judge.web.frames import boards_of, map_colours, side_colour


@dataclass(frozen=True)
class SiteInfo:
    """What every page says of the judge itself."""

    judge: str
    """the judge's name"""
    address: str
    """where its mail goes (the help page names it: it is the judge's, not a player's)"""
    code: str
    """the judge's code in the results' header lines"""
    exported: bool = False
    """pages written by `judge web export` (a private game is listed, never linked)"""
    noindex: bool = False
    """`[web] search_engines = false`: every page asks robots not to index it or follow its links"""


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(data_path("templates") / "web")),
        undefined=StrictUndefined,
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
    )
    env.filters["when"] = when
    env.filters["isolated"] = isolated
    env.filters["setting"] = lambda pair: shown(*pair)  # a setting's value in a GM's words, as SET takes it
    env.filters["option"] = shown_option
    return env


STATIC = ("style.css", "stepper.js", "times.js", "mapview.js")
"""the files every page may load: the style sheet and the small scripts (the pages work without them)"""


def static_file(name: str) -> str:
    """The style sheet or a script, as shipped."""
    if name not in STATIC:
        raise KeyError(name)
    return (data_path("templates") / "web" / name).read_text(encoding="utf-8")


def when(moment: datetime | None) -> Markup | str:
    """A deadline as the pages print it: in UTC, in a `<time>` that `times.js` rewrites in the reader's own time
    zone, with the time left before it (a page has no one reader's zone; without scripts, UTC stays)."""
    if moment is None:
        return "none"
    return Markup('<time class="deadline" datetime="{}">{}</time>').format(machine_stamp(moment), when_text(moment))


def isolated(names: Iterable[str]) -> Markup:
    """Names people chose, listed: each in its own `<bdi>`, so that a right-to-left name (or one stored before
    issue 41's rules, with an override in it) moves neither the commas nor the next name. A single name is written
    `<bdi>{{ name }}</bdi>` in the template itself."""
    return Markup(", ").join(Markup("<bdi>{}</bdi>").format(name) for name in names)


@cache
def map_key(variant: str) -> tuple[Mark, ...]:
    """The key to the marks of the variant's map (`judge.picture.key`); none for a variant the judge does not
    know."""
    from judge.variants import UnknownVariant, get_variant

    try:
        return tuple(marks(get_variant(variant).rules(None).board))
    except (UnknownVariant, KeyError, ValueError):
        return ()


def _page(template: str, site: SiteInfo, root: str, **values: Any) -> str:
    return environment().get_template(template).render(judge=site.judge, root=root, noindex=site.noindex, **values)


def robots_text(site: SiteInfo) -> str:
    """`robots.txt`: every robot welcome, or, where the judge keeps search engines out, every robot refused."""
    return "User-agent: *\n" + ("Disallow: /\n" if site.noindex else "Disallow:\n")


# --- the list of games -------------------------------------------------------------------------------------------


GAMES_A_PAGE = 50
"""games on one page of the list"""
STATES = ("forming", "active", "paused", "finished")
"""the states the list may be filtered by (`GameStatus`), in a game's order of life"""


@dataclass(frozen=True)
class Filter:
    """What a visitor asked the list of games for (`?state=active&variant=standard&page=2`): empty is any."""

    state: str = ""
    variant: str = ""
    page: int = 1

    def query(self, page: int) -> str:
        """The served list's address for another page of the same filter."""
        asked = {"state": self.state, "variant": self.variant, "page": str(page) if page > 1 else ""}
        return "?" + urlencode({key: value for key, value in asked.items() if value}) if any(asked.values()) else "./"


def list_page_name(page: int) -> str:
    """A page of the exported list (a folder has no query strings): `index.html`, `page-2.html`, ..."""
    return "index.html" if page == 1 else f"page-{page}.html"


def games_page(site: SiteInfo, listed: GamesPage, asked: Filter = Filter()) -> str:
    """`index.html`: a page of the games, each with its variant, state, phase, next deadline and players by name,
    a forming game's open places; a private game by its name alone (its own page asks for the password). The
    served list is filtered by state and variant (a form, without scripts); the export's is every game, paged."""
    from judge.variants import VARIANTS

    variants = [v for v in VARIANTS.values() if v.name in _documented()]

    def page_link(page: int) -> str:
        return list_page_name(page) if site.exported else asked.query(page)

    return _page("games.html.j2", site, "", games=listed.games, listed=listed, asked=asked, page_link=page_link,
                 states=STATES, variants=variants, playable=sorted(VARIANTS), exported=site.exported)  # fmt: skip


@cache
def _documented() -> frozenset[str]:
    from judge.web.docs import variant_names

    return frozenset(variant_names())


# --- one game ----------------------------------------------------------------------------------------------------


def game_page(site: SiteInfo, game: PublicGame, history: PublicHistory, openings: Sequence[Opening] = ()) -> str:
    """`games/NAME/index.html`: the map now and a stepper through every phase, the latest results, the centre
    chart, the players by name, the places open to volunteers, press to everybody, the settings and rule options."""
    frames = _frames(game, history)
    latest = history.phases[-1] if history.phases else None
    return _page(
        "game.html.j2",
        site,
        "../../",
        g=game,
        ending=ending_terms(game.variant, game.options, game.settings),
        frames=frames,
        frames_json=_json(frames),
        latest=latest,
        latest_text=results_text(site, game, latest) if latest else "",
        chart=centre_chart(game, history),
        players=player_lines(game, history),
        key=map_key(game.variant),
        key_style=key_style(),
        press=[_press_line(game, history, p) for p in history.press],
        events=[_event_line(game, history, e) for e in history.events],
        statements=list(history.statements),
        address=site.address,
        openings=[o for o in openings if o.why != "forming"],
    )


def openings_page(site: SiteInfo, openings: Sequence[Opening]) -> str:
    """`openings.html`: every advertised game's places open to volunteers (`judge.game.openings`), each with the
    line that takes it; never who played it."""
    return _page("openings.html.j2", site, "", openings=list(openings), address=site.address)


def player_lines(game: PublicGame, history: PublicHistory) -> list[dict[str, str]]:
    """The players' table: one line a player's side, its colour on the map now (`side_colour`, as the chart's), its
    centres and units now (counted as the results count them, by side: `judge.render.tally`), and whether its
    orders are in where the GM shows it."""
    if not game.players:
        return []
    held = holdings(game.variant, game.position or {}, game.options)
    try:
        palette = _map_now(game, history)
        colour = {p.side: side_colour(palette, p.powers) for p in game.players if p.powers}
    except (KeyError, ValueError):
        colour = {}
    lines = []
    for p in game.players:
        total = side_total(p.powers or (p.side,), held)
        lines.append(
            {
                "side": p.side,
                "player": p.player or "",
                "status": p.status,
                "colour": colour.get(p.side, ""),
                "centres": half_text(total.centres),
                "units": half_text(total.units),
                "orders": p.orders or "",
            }
        )
    return lines


def phase_page(site: SiteInfo, game: PublicGame, history: PublicHistory, index: int) -> str:
    """`games/NAME/phases/N.html`: one processed phase, its map with its orders, its results as the mail gave
    them, the press to everybody of that phase; KeyError for a phase not processed."""
    at = next((i for i, p in enumerate(history.phases) if p.index == index), None)
    if at is None:
        raise KeyError(index)
    phase = history.phases[at]
    mine = _frames(game, history)[at + 1]  # its map, from the phases/ folder
    frame = {**mine, "src": "../" + mine["src"], "boards": {n: "../" + src for n, src in mine["boards"].items()}}
    return _page(
        "phase.html.j2",
        site,
        "../../../",
        g=game,
        phase=phase,
        frame=frame,
        frames_json=_json([frame]),
        text=results_text(site, game, phase),
        prev=history.phases[at - 1] if at > 0 else None,
        next=history.phases[at + 1] if at + 1 < len(history.phases) else None,
        press=[p for p in history.press if p.phase_index == index],
        key=map_key(game.variant),
        key_style=key_style(),
    )


def locked_page(site: SiteInfo, name: str, root: str, action: str, *, opens: bool = True, failed: bool = False,
                wait: str = "", busy: bool = False) -> str:  # fmt: skip
    """A private game's page to a visitor without its pass: its name and the page password form (posted back to
    the page asked for, `action`, which it then opens), nothing else; where the game has no page password, only
    that it opens to nobody."""
    return _page("locked.html.j2", site, root, name=name, action=action, open=opens, failed=failed, wait=wait,
                 busy=busy)  # fmt: skip


def missing_page(site: SiteInfo, root: str, what: str, heading: str = "Not found") -> str:
    """The site's own answer to an address that names no page (a game, phase, variant or file that is not there,
    or a path the site never makes), or to a request it does not take."""
    return _page("missing.html.j2", site, root, what=what, heading=heading)


def variant_page(site: SiteInfo, name: str) -> str:
    """`variants/NAME.html`: the variant's rules page, with its starting map where it is a variant the judge plays
    (`variants/NAME.svg`); KeyError for a name without a page."""
    from judge.variants import VARIANTS

    picture = name if name in VARIANTS else ""
    return _page("text.html.j2", site, "../", heading=name, body=variant_html(name), pre="", address="",
                 picture=picture)  # fmt: skip


def player_page(site: SiteInfo, card: PlayerCard) -> str:
    """`players/N.html`: a player's record, ratings and games (`judge.game.whois.PlayerCard`): his address only
    where he allows it, no gunboat seat before its reveal, no private game."""
    scopes = [("all variants", card.record.total), *sorted(card.record.by_variant.items())]
    return _page("player.html.j2", site, "../", card=card, scopes=scopes)


def help_page(site: SiteInfo) -> str:
    """`help.html`: the commands, the text the judge's HELP reply gives."""
    from judge.commands.info import command_list

    return _page("text.html.j2", site, "", heading="The judge's commands", body="",
                 pre="\n".join(command_list()), address=site.address, picture="")  # fmt: skip


def _frames(game: PublicGame, history: PublicHistory) -> list[dict[str, Any]]:
    """The stepper's frames: the opening position, then the map after each processed phase, each named as the
    pages name its phase (the variant's `phase_name`: Spring 450 BC Movement); on a map of several boards, each
    frame's picture of each board (`boards`, by board number as text) beside the whole map's (`src`)."""
    boards = boards_of(game.variant)

    def frame(name: str, page: str, phase: str, label: str, alt: str, results: str) -> dict[str, Any]:
        return {
            "src": f"frames/{name}.svg",
            "boards": {str(n): f"frames/board{n}/{name}.svg" for n in boards},
            "page": page,
            "name": phase,
            "label": label,
            "alt": alt,
            "results": results,
        }

    opening = "The opening position"
    alt = f"Map of {game.name}: the opening position of {game.variant}"
    frames = [frame("start", "index.html", opening, opening, alt, "the game's page")]
    for phase in history.phases:
        frames.append(
            frame(str(phase.index), f"phases/{phase.index}.html", phase.name, f"After {phase.name}",
                  f"Map of {game.name} after {phase.name}, its orders drawn as arrows", f"the results of {phase.name}")
        )  # fmt: skip
    return frames


def _json(frames: list[dict[str, Any]]) -> str:
    """The frames for the page's script, safe inside its `<script>` element."""
    return json.dumps(frames).replace("</", "<\\/")


def _during(game: PublicGame, history: PublicHistory, index: int) -> str:
    """The phase a game was in at `index`, as players read it ("" once the game is over)."""
    found = next((p.name for p in history.phases if p.index == index), None)
    return found or ("" if game.status == "finished" else game.phase)


def event_text(event: PublicEvent) -> Markup:
    """What happened, in a sentence as the game's players were told it; a person's name isolated (`<bdi>`)."""
    said = {
        "game started": Markup("The game started."),
        "players revealed": Markup("Who played whom was made known (see the players)."),
        "game paused": Markup("The GM paused the game."),
        "game resumed": Markup("The GM resumed the game."),
        "game rolled back": Markup("The GM rolled the game back to {}.").format(event.phase),
        "player ejected": Markup("The GM ejected the player of {}.").format(event.side),
        "player resigned": Markup("The player of {} resigned.").format(event.side),
        "player replaced": Markup("<bdi>{}</bdi> took over {}.").format(event.player, event.side),
        "game unstarted": Markup("The GM took back the start (UNSTART): the game formed again."),
        "game unterminated": Markup("The GM took back the termination: the game went on."),
        "eliminated": Markup("{} was eliminated{}.").format(
            event.power, f" ({event.side})" if event.side != event.power else ""
        ),
    }
    if event.kind == "game ended":
        winners = Markup(": {}").format(", ".join(event.winners)) if event.winners else ""
        return Markup("The game ended ({}{}).").format(event.how, winners)
    return said[event.kind]


def _event_line(game: PublicGame, history: PublicHistory, event: PublicEvent) -> dict[str, Any]:
    return {"at": event.at, "phase": _during(game, history, event.phase_index), "text": event_text(event)}


def _press_line(game: PublicGame, history: PublicHistory, press: PublicPress) -> dict[str, Any]:
    names = {p.index: p.name for p in history.phases}
    phase = names.get(press.phase_index) or ("before the start" if press.phase_index == 0 else game.phase)
    return {"sender": press.sender, "body": press.body, "phase": phase}


# --- the results as the mail gave them ----------------------------------------------------------------------------

_RESULTS_KEPT = 8192
_results: OrderedDict[tuple[str, int, datetime, str, str], str] = OrderedDict()
_results_lock = threading.Lock()


def results_text(site: SiteInfo, game: PublicGame, phase: PublicPhase) -> str:
    """A phase's results as the mail printed them (without the press, the late list and the GM's note, which went
    to the game's players only), in the game's results style; kept once made (a processed phase never changes)."""
    style = {
        "orders": str(game.settings.get("results.orders", "zine")),
        "names": str(game.settings.get("results.names", "short")),
    }
    key = (game.name, phase.index, phase.processed_at, style["orders"], style["names"])
    with _results_lock:
        found = _results.get(key)
    if found is not None:
        return found
    text = render_results(
        game.name,
        phase.outcome,
        phase.outcome.get("next_phase"),
        judge=site.code,
        style=style,
        options=game.options,
        **_year_end(game, phase),
    )
    with _results_lock:
        _results[key] = text
        while len(_results) > _RESULTS_KEPT:
            _results.popitem(last=False)
    return text


def _year_end(game: PublicGame, phase: PublicPhase) -> dict[str, Any]:
    """The end a phase's results told where it was the last of a game ended at its end year (`end.year`, result
    `centres`): the engine's outcome names the next year's phase, which the game never played."""
    year = game.settings.get("end.year")
    after = phase.outcome.get("next_phase") or {}
    if game.result != CENTRES or not isinstance(year, int) or int(after.get("year", year)) <= year:
        return {}
    if int(phase.outcome["phase"]["year"]) > year:
        return {}
    return {"finished": CENTRES, "winners": list(game.winners), "end_year": year}


def _map_now(game: PublicGame, history: PublicHistory) -> Palette:
    """The colours of the map the game's page shows now: after the phase last processed, else the opening."""
    return map_colours(game.variant, history.phases[-1].outcome if history.phases else None)


# --- the centre chart ---------------------------------------------------------------------------------------------


def centre_chart(game: PublicGame, history: PublicHistory) -> str:
    """The centres each player's side held at the end of each year, as an inline SVG plot, its key (a line a
    side, in the side's colour on the map now: `map_colours`) as a list under it that wraps on a narrow screen, and
    the counts as a table for a reader who cannot see the lines; counted as every table of the judge counts them
    (by the variant's worth and by side: `judge.render.tally`), the years as the variant writes them (`450 BC`).
    Empty before a year has been played."""
    centres = history.centres
    if len(centres) < 2:
        return ""
    from judge.variants import get_variant

    variant = get_variant(game.variant)
    counted = [holdings(game.variant, {"supply_centers": year.owned}, game.options) for year in centres]
    present = {p for held in counted for p in held}
    sides = sides_holding(game.variant, game.options, present)
    halves = [{s.label: side_total(s.powers, held).centres for s in sides} for held in counted]
    powers = [s.label for s in sides]
    palette = _map_now(game, history)
    colour_of = {s.label: side_colour(palette, s.powers) for s in sides}
    top = max(1, -(-max(max(year.values(), default=0) for year in halves) // 2))
    width, height, left, bottom, right, upper = 640, 260, 34, 26, 16, 10
    plot_w, plot_h = width - left - right, height - bottom - upper
    span = max(1, len(centres) - 1)

    def x(i: int) -> float:
        return left + plot_w * i / span

    def y(count: float) -> float:
        """`count` in half centres."""
        return upper + plot_h * (1 - count / 2 / top)

    parts = [
        f'<svg class="chart" viewBox="0 0 {width} {height}" role="img" aria-labelledby="chart-title">',
        f'<title id="chart-title">Supply centres of each player in {escape(game.name)}, year by year</title>',
        f'<line x1="{left}" y1="{y(0)}" x2="{left + plot_w}" y2="{y(0)}" stroke="#4a4640"/>',
        f'<line x1="{left}" y1="{upper}" x2="{left}" y2="{y(0)}" stroke="#4a4640"/>',
    ]
    for tick in sorted({0, top // 2, top}):
        parts.append(f'<text x="{left - 4}" y="{y(2 * tick) + 4:.1f}" text-anchor="end">{tick}</text>')
    step = max(1, len(centres) // 6)
    for i, year in enumerate(centres):
        if i % step == 0 or i == len(centres) - 1:
            anchor = "start" if i == 0 else "end" if i == len(centres) - 1 else "middle"
            parts.append(
                f'<text x="{x(i):.1f}" y="{height - 8}" text-anchor="{anchor}">'
                f"{escape(variant.calendar.year_name(year.year))}</text>"
            )
    for power in powers:
        points = " ".join(f"{x(i):.1f},{y(year.get(power, 0)):.1f}" for i, year in enumerate(halves))
        parts.append(
            f'<polyline data-side="{escape(power)}" points="{points}" fill="none" stroke="{colour_of[power]}" '
            'stroke-width="2.5"/>'
        )
    parts.append("</svg>")
    key = "".join(
        f'<li><svg class="swatch" viewBox="0 0 10 10" width="14" height="14" aria-hidden="true">'
        f'<rect width="10" height="10" fill="{colour_of[p]}"/></svg> {escape(p)}</li>'
        for p in powers
    )
    head = "".join(f'<th scope="col">{escape(p)}</th>' for p in powers)
    rows = "".join(
        f'<tr><th scope="row">{escape(variant.calendar.year_name(year.year))}'
        f"{'' if year.finished else ' (so far)'}</th>"
        + "".join(f"<td>{half_text(counts.get(p, 0))}</td>" for p in powers)
        + "</tr>"
        for year, counts in zip(centres, halves, strict=True)
    )
    table = (
        f'<details><summary>The counts as a table</summary><div class="wide"><table><thead><tr><th scope="col">Year'
        f"</th>{head}</tr></thead><tbody>{rows}</tbody></table></div></details>"
    )
    return "".join(parts) + f'<ul class="plain chart-key" aria-label="Key to the lines">{key}</ul>' + table
