"""Rendering the judge's mail text from the Jinja templates in `templates/` (variants may override one by
putting `<variant>/<name>` beside it)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"


@cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # plain-text mail, never HTML
    )


def render(name: str, variant: str | None = None, **values: Any) -> str:
    env = environment()
    names = [f"{variant}/{name}", name] if variant else [name]
    return env.select_template(names).render(**values)


def render_results(game: str, outcome: dict[str, Any], next_phase: dict[str, Any] | None) -> str:
    """A phase's results as a zine would print them: each power's orders with what became of them."""
    by_power: dict[str, list[dict[str, Any]]] = {}
    for line in outcome.get("orders", []):
        by_power.setdefault(line["power"], []).append(line)
    centres = outcome.get("supply_centers", {})
    return render(
        "results.txt.j2",
        outcome.get("variant"),
        game=game,
        phase=outcome["phase"],
        orders=dict(sorted(by_power.items())),
        dislodged=outcome.get("dislodged", []),
        centres={p: len(c) for p, c in sorted(centres.items())},
        events=outcome.get("events", []),
        winner=outcome.get("winner"),
        next_phase=next_phase,
    )


def render_reply(judge: str, sections: list[Any], footer: list[str]) -> str:
    return render("reply.txt.j2", None, judge=judge, sections=sections, footer=footer)
