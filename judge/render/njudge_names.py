"""How njudge names things in its mails, for the layout (`judge.render.njudge`) and its reader (`reader`).

Places are the map's full names as njudge's map files spell them (njudge `data/map`: `St Petersburg`, `Helgoland
Bight`, where the judge's maps write `St. Petersburg` and `Heligoland Bight`), a coast after its province in
njudge's words (`St Petersburg (north coast)`, `mtype[]` in njudge's `st_movement.c`). A power is named by its
name and, where it owns a unit another power's order names, by its adjective (`owners[]`: `Austrian Army
Galicia`). A unit is `Army` or `Fleet` (`Utype()` in njudge's `lib.c`), and in a sentence `army`, `fleet`
(`utype()`), `an army`, `a fleet` (`autype()`); a unit stands `in` a land province and `in the` sea
(`mov_type()`). The game and variant names in the `::` header are capitalised as `strcap()` does: each letter
that opens the name or follows a space or punctuation.
"""

from __future__ import annotations

from functools import cache

from judge.board.model import Board, normalise_name
from judge.variants import UnknownVariant, get_variant

SPELLING = {"St. Petersburg": "St Petersburg", "Heligoland Bight": "Helgoland Bight"}
"""The judge's map names that njudge's map files (`data/map`) spell otherwise."""

COASTS = {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}
"""njudge's coast words (`mtype[]`)."""

UNIT_WORDS = {"A": "Army", "F": "Fleet", "G": "Garrison", "W": "Wing"}
"""njudge's unit words (`Utype()`); a multi-unit form (`2A`, `A/F`) is printed as the judge writes it."""

ARTICLES = {"A": "an army", "F": "a fleet", "G": "a garrison", "W": "a wing"}
"""njudge's unit with its article (`autype()`): `Builds an army in Vienna.`"""


@cache
def board(variant: str) -> Board | None:
    try:
        return get_variant(variant).rules().board
    except (UnknownVariant, KeyError, ValueError):
        return None


def capitalised(text: str) -> str:
    """As njudge's `strcap()`: a letter that opens the text or follows a space or punctuation in capitals."""
    out = []
    for i, letter in enumerate(text):
        before = text[i - 1] if i else " "
        out.append(letter.upper() if before.isspace() or not before.isalnum() else letter)
    return "".join(out)


def province_name(variant: str, province: str) -> str:
    """A province by its njudge name (`St Petersburg`); one the map does not know, capitalised as it is."""
    found = board(variant)
    named = found.provinces[province].name if found and province in found.provinces else capitalised(province)
    return SPELLING.get(named, named)


def place_name(variant: str, location: str) -> str:
    """A location by its njudge name with its coast (`St Petersburg (north coast)`)."""
    province, _, coast = location.partition("/")
    named = province_name(variant, province)
    return f"{named} ({COASTS.get(coast, coast)})" if coast else named


def is_sea(variant: str, location: str) -> bool:
    found = board(variant)
    province = location.partition("/")[0]
    return bool(found and province in found.provinces and found.provinces[province].is_sea)


def in_place(variant: str, location: str) -> str:
    """`in Vienna`, `in the North Sea` (njudge's `mov_type()`)."""
    return f"{'in the' if is_sea(variant, location) else 'in'} {place_name(variant, location)}"


def adjective(variant: str, power: str) -> str:
    found = board(variant)
    return found.powers[power].adjective if found and power in found.powers else power


def unit_word(kind: str) -> str:
    return UNIT_WORDS.get(kind, kind)


def location_of(variant: str, text: str) -> str | None:
    """The location a name in an njudge mail means (`St Petersburg (north coast)` is `stp/nc`), or None."""
    found = board(variant)
    if found is None:
        return None
    name, _, coast = text.strip().partition(" (")
    province = _by_name(variant).get(normalise_name(name)) or found.lookup(name)
    if province is None:
        return None
    province = province.partition("/")[0]
    if not coast:
        return province
    words = coast.rstrip(")").strip()
    short = next((code for code, said in COASTS.items() if said == words), words)
    return f"{province}/{short}"


@cache
def _by_name(variant: str) -> dict[str, str]:
    """Every province's njudge name and the judge's own, normalised, to its id."""
    found = board(variant)
    if found is None:
        return {}
    names: dict[str, str] = {}
    for province in found.provinces.values():
        names[normalise_name(province.name)] = province.id
        names[normalise_name(SPELLING.get(province.name, province.name))] = province.id
    return names


def power_of(variant: str, text: str) -> str | None:
    """The power a name or an adjective in an njudge mail means (`Austria`, `Austrian`)."""
    found = board(variant)
    if found is None:
        return None
    for power in found.powers.values():
        if normalise_name(text) in (normalise_name(power.name), normalise_name(power.adjective)):
            return power.name
    return found.lookup_power(text)
