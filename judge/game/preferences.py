"""Power preferences as players give them at JOIN or SIGNON ?, and the assignment of places at the start.

A player names the powers (or sides) he would like, best first, by any name the judge prints (`France`, `F`,
`Player 2`, `Sparta + Elatea`). As on njudge, several may be equally liked: written in brackets (`[France Germany]
Italy`) or joined by `=` (`France=Germany Italy`). `ANY` (or `*`) alone says he has none; after some names it says
the rest is all one to him (the same as naming nothing more).

Stored in `Seat.preferences` best first, one entry a rank: a side's first power, or the list of those tied (a
list where several are tied, a name where one: the form JOIN kept before ties, read the same).

The assignment is njudge's idea made fair and repeatable: the players are taken in an order drawn from the game's
seed (never the order they joined: a late joiner is not worse placed), each given the best-ranked place still free,
a tie settled by the seed; whoever's wishes are all taken gets one of the places left, at random from the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from judge.game.errors import GameError
from judge.game.snapshot import Snapshot
from judge.game.use_case import sides_named
from judge.store import Game

ANY = ("ANY", "*")


def read_preferences(game: Game | Snapshot, words: Sequence[str]) -> list[str | list[str]]:
    """The ranks the words give, best first (each a side's first power, or those tied), as `Seat.preferences`
    keeps them; a GameError quoting a name that names no side, or a bracket left open."""
    spaced = " ".join(words).replace("[", " [ ").replace("]", " ] ").replace("=", " = ").split()
    groups: list[list[list[str]]] = []  # each rank: the names tied in it, each name its words
    inside = joining = False
    for word in spaced:
        if word.upper() in ANY and not inside:
            break
        if word == "[":
            if inside:
                raise GameError("a bracket of powers liked alike is opened twice: [France Germany] Italy")
            inside = True
            groups.append([])
        elif word == "]":
            if not inside:
                raise GameError("a bracket is closed that was never opened: [France Germany] Italy")
            inside = False
        elif word == "=":
            if inside or not groups or joining:
                raise GameError("= joins two powers liked alike: France=Germany Italy")
            joining = True
        elif groups and groups[-1] and not joining and _continues(groups[-1][-1], word):
            groups[-1][-1].append(word)  # a name of several words: `Player 2`, `Sparta + Elatea`
        elif inside or joining:
            groups[-1].append([word])
            joining = False
        else:
            groups.append([[word]])
    if inside or joining:
        raise GameError("a bracket or = of powers liked alike is left open: [France Germany] Italy")
    ranks: list[str | list[str]] = []
    seen: set[str] = set()
    for group in groups:
        powers: list[str] = []
        for name in group:
            for side in sides_named(game, name):
                if side.powers[0] not in seen:
                    seen.add(side.powers[0])
                    powers.append(side.powers[0])
        if len(powers) == 1:
            ranks.append(powers[0])
        elif powers:
            ranks.append(powers)
    return ranks


def _continues(name: list[str], word: str) -> bool:
    """Whether `word` goes on a name of several words (`Player` `2`, `Sparta` `+` `Elatea`)."""
    return word.isdigit() or word == "+" or (bool(name) and name[-1] == "+")


def ranks_of(preferences: Sequence[Any]) -> list[tuple[str, ...]]:
    """The stored preferences as ranks, each the powers tied in it."""
    return [tuple(rank) if isinstance(rank, list) else (str(rank),) for rank in preferences]


def first_choices(preferences: Sequence[Any]) -> set[str]:
    """The powers a player likes best (several where tied): LIST's "not yet asked for" reads them."""
    ranks = ranks_of(preferences)
    return set(ranks[0]) if ranks else set()


def shown_preferences(preferences: Sequence[Any]) -> str:
    """The preferences as a player writes them: `[France Germany] Italy`, or `any` where there are none."""
    ranks = ranks_of(preferences)
    if not ranks:
        return "any"
    return " ".join(rank[0] if len(rank) == 1 else "[" + " ".join(rank) + "]" for rank in ranks)


def assign(
    groups: Sequence[tuple[str, ...]], wishes: Sequence[Sequence[Any]], seed: int
) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """Each player (by `wishes`, his stored preferences, in the order of joining) gets a group of powers; returns
    the group of each, in the same order, and the groups nobody got (a game started short). The players, in an
    order drawn from `seed`, are each given the best-ranked free group, a tie settled by the seed; those left
    without get the free groups shuffled by `seed`, in the order they joined. Where no two wishes meet, nothing
    depends on the order drawn: a game whose players each asked for another power is assigned as it always was."""
    free = list(groups)
    order = list(range(len(wishes)))
    random.Random(f"{seed}:order").shuffle(order)
    ties = random.Random(f"{seed}:ties")
    given: dict[int, tuple[str, ...]] = {}
    for n in order:
        for rank in ranks_of(wishes[n]):
            liked = [g for g in free if set(rank) & set(g)]
            if liked:
                choice = liked[ties.randrange(len(liked))] if len(liked) > 1 else liked[0]
                free.remove(choice)
                given[n] = choice
                break
    random.Random(seed).shuffle(free)
    unplaced = [n for n in range(len(wishes)) if n not in given]
    given.update(zip(unplaced, free, strict=False))
    return [given[n] for n in range(len(wishes))], free[len(unplaced) :]
