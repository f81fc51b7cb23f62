"""A player's card (`judge.game.whois.PlayerCard`) as WHOIS and INFO PLAYER print it: who he is as REGISTER's form
gave it, his record in all variants and in each, his ratings and his games. Never his address unless the card
carries it (he allows it)."""

from __future__ import annotations

from judge.game.record_values import Figures
from judge.game.whois import PlayerCard
from judge.render.dates import when_text

NOT_GIVEN = "(not given)"


def figures_line(figures: Figures) -> str:
    """One scope's figures on one line."""
    return (
        f"games {figures.started} started, {figures.finished} finished, {figures.abandoned} abandoned, "
        f"{figures.resigned} resigned, {figures.replacements} taken over; phases {figures.on_time} on time, "
        f"{figures.late} late, {figures.missed} missed, {figures.disorder} in civil disorder; dedication "
        f"{figures.dedication}, on-time ratio {figures.on_time_ratio:.2f}, civil-disorder ratio "
        f"{figures.resignation_ratio:.2f}"
    )


def card_lines(card: PlayerCard) -> list[str]:
    lines = [
        f"Name:       {card.name}",
        f"Registered: {when_text(card.registered)}",
        f"Country:    {card.country or NOT_GIVEN}",
        f"Timezone:   {card.zone or NOT_GIVEN}",
        f"Level:      {card.level.capitalize() if card.level else NOT_GIVEN}",
    ]
    if card.address:
        lines.append(f"Address:    {card.address}")
    lines.append(f"Record, all variants: {figures_line(card.record.total)}")
    for variant, figures in sorted(card.record.by_variant.items()):
        lines.append(f"  {variant}: {figures_line(figures)}")
    if card.ratings:
        shown = ", ".join(f"{r.family} {r.rating:.0f} ({r.games} rated)" for r in card.ratings)
        lines.append(f"Ratings: {shown}")
    else:
        lines.append("Ratings: no rated game yet")
    if card.record.games:
        lines.append("Games:")
        for game in card.record.games:
            side = f" as {game.side}" if game.side else ""
            end = f", {game.result}" if game.result and game.how != "playing" else ""
            won = " (won)" if game.won else ""
            lines.append(f"  {game.game} ({game.variant}){side}: {game.how}{end}{won}")
    return lines
