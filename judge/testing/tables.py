"""Full standard games with a player at every power: the table the mail tests and the mail benchmark sit at."""

from __future__ import annotations

from dataclasses import dataclass

from judge.game import Games

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

OPENING_ORDERS = {
    "Austria": "A vie - gal\nA bud - ser\nF tri - alb",
    "England": "F lon - nth\nF edi - nwg\nA lvp - yor",
    "France": "A par - bur\nA mar - spa\nF bre - mao",
    "Germany": "A ber - kie\nA mun - ruh\nF kie - den",
    "Italy": "A rom - apu\nA ven H\nF nap - ion",
    "Russia": "A mos - ukr\nA war - gal\nF sev - bla\nF stp/sc - bot",
    "Turkey": "A con - bul\nA smy - con\nF ank - bla",
}
"""a legal Spring 1901 order set for each power, as a player would type it"""


@dataclass(frozen=True)
class Seat:
    game: str
    power: str
    address: str


def full_games(layer: Games, games: int, password: str = "pw") -> list[Seat]:
    """`games` started standard games g0, g1, ... run by gm@example.org, each power's player registered as
    <power><n>@example.org under the name "<Power> <n>"; every password (the players', the GM's and the games') is
    `password`."""
    layer.accounts.register("gm@example.org", "GM", password)
    seats = []
    for g in range(games):
        game = f"g{g}"
        layer.seating.create_game(game, "standard", "gm@example.org", password, seed=g)
        for power in POWERS:
            address = f"{power.lower()}{g}@example.org"
            layer.accounts.register(address, f"{power} {g}", password)
            layer.seating.join(game, address, password, [power])
            seats.append(Seat(game, power, address))
    return seats
