"""Rendering the judge's mail text from the Jinja templates in `templates/` (variants may override one by
putting `<variant>/<name>` beside it)."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template

from judge.data import data_path
from judge.render.njudge_names import capitalised
from judge.render.results import Brief, build_sheet

TEMPLATES = data_path("templates")


def pad(text: str, width: int, right: bool = False) -> str:
    """Columns for a fixed-width mail: the zines' tables were typed, not typeset."""
    return text.rjust(width) if right else text.ljust(width)


@cache
def environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # plain-text mail, never HTML
        auto_reload=False,  # read once per process: a template changed on disk takes effect on restart
    )
    env.filters["pad"] = pad
    env.filters["capitalised"] = capitalised  # njudge's `strcap()`, for the `::` header's game and variant
    return env


def notice_template(name: str, variant: str | None = None) -> Template:
    """A notice's template, the variant's own (`<variant>/<name>`) where it has one. Its text is the file's output
    to the last character: a press message ends as its writer ended it, the file adding no line break of its own."""
    return environment().select_template([f"{variant}/{name}", name] if variant else [name])


def render(name: str, variant: str | None = None, /, **values: Any) -> str:
    env = environment()
    names = [f"{variant}/{name}", name] if variant else [name]
    return env.select_template(names).render(**values)


def render_results(game: str, outcome: dict[str, Any], next_phase: dict[str, Any] | None, **context: Any) -> str:
    """A phase's results as a zine would print them (see `judge.render.results.build_sheet` for the context)."""
    sheet = build_sheet(game, outcome, next_phase, **context)
    return render("results.txt.j2", sheet.variant, s=sheet)


def reply_results(
    game: str,
    outcome: dict[str, Any],
    next_phase: dict[str, Any] | None,
    brief: Brief | None,
    room: int,
    **context: Any,
) -> list[str]:
    """A phase's results as a reply (PREVIEW, PREDICT, HISTORY) prints them: brief as `brief` says, and briefer
    (`Brief.shorter`: the others' successful orders counted too) where that would not fit in `room` lines; whole
    where `brief` is None (the sender's FULL)."""
    lines = render_results(game, outcome, next_phase, brief=brief, **context).splitlines()
    if brief is not None and len(lines) > room:
        lines = render_results(game, outcome, next_phase, brief=brief.shorter, **context).splitlines()
    return lines


def render_njudge_results(game: str, outcome: dict[str, Any], next_phase: dict[str, Any] | None, **context: Any) -> str:
    """A phase's results in njudge's layout (`results.layout=njudge`; see `judge.render.njudge`)."""
    from judge.render.njudge import build_njudge_sheet

    return render("njudge/results.txt.j2", None, s=build_njudge_sheet(game, outcome, next_phase, **context))
