"""Full standard games with a player at every power: the table the mail tests and the mail benchmark sit at."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select

from judge.game import Games
from judge.game.names import look_alike_key, player_name
from judge.game.settings import DEFAULT_SETTINGS, apply_setting
from judge.passwords import hash_password
from judge.store import Game, GameStatus, Player

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


def full_games(
    layer: Games,
    games: int,
    password: str = "pw",
    *,
    settings: Sequence[tuple[str, str]] = (),
    hashed_once: bool = False,
) -> list[Seat]:
    """`games` started standard games g0, g1, ... run by gm@example.org, each power's player registered as
    <power><n>@example.org under the name "<Power> <n>"; every password (the players', the GM's and the games') is
    `password`. `settings`: what the GM would SET at CREATE (`("timing.manual", "on")`), in every game.

    `hashed_once`: the players and the games are stored with one scrypt digest of `password`, shared, as
    bench/deadlines.py stores its tables -- for a test of hundreds of players, which would otherwise spend a
    deliberate 60 ms of CPU a player on registering (and as much again in the judge that checks each one's first
    SIGNON) on something it does not test. The players still join through the game layer, which starts the games."""
    chosen = dict(DEFAULT_SETTINGS)
    for name, text in settings:
        apply_setting(chosen, name, text)
    if hashed_once:
        _store_hashed_once(layer, games, password, chosen)
    else:
        layer.accounts.register("gm@example.org", "GM", password)
    seats = []
    for g in range(games):
        game = f"g{g}"
        if not hashed_once:
            layer.seating.create_game(game, "standard", "gm@example.org", password, settings=chosen, seed=g)
        for power in POWERS:
            address = f"{power.lower()}{g}@example.org"
            if not hashed_once:
                layer.accounts.register(address, f"{power} {g}", password)
            layer.seating.join(game, address, password, [power])
            seats.append(Seat(game, power, address))
    return seats


def _store_hashed_once(layer: Games, games: int, password: str, settings: dict[str, Any]) -> None:
    """The rows `Accounts.register` and `Seating.create_game` would store for `full_games`, with one digest."""
    digest = hash_password(password)
    now = layer.clock.now()
    names = {"gm@example.org": "GM"} | {
        f"{power.lower()}{g}@example.org": f"{power} {g}" for g in range(games) for power in POWERS
    }
    with layer.db.transaction() as s:
        s.execute(
            insert(Player),
            [
                {
                    "address": a,
                    "name": player_name(n),
                    "name_key": look_alike_key(player_name(n)),
                    "password_hash": digest,
                    "created_at": now,
                }
                for a, n in names.items()
            ],
        )
        gm = s.scalar(select(Player.id).where(Player.address == "gm@example.org"))
        s.execute(
            insert(Game),
            [
                {
                    "name": f"g{g}",
                    "name_key": look_alike_key(f"g{g}"),
                    "variant": "standard",
                    "options": {},
                    "settings": settings,
                    "status": GameStatus.FORMING,
                    "gm_id": gm,
                    "password_hash": digest,
                    "seed": g,
                    "created_at": now,
                }
                for g in range(games)
            ],
        )
