"""The variants the judge knows: each is a map plus a rule module, selected by name.

A rule module is a `Rules` subclass: it answers the questions where the variant departs from standard
Diplomacy (strength of a force, who attacks together, what a cut removes, how orders bind to forces, builds,
victory). The engine has one resolver; variants never add `if variant ==` branches to it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping

from judge.engine import Phase, PhaseType
from judge.engine.calendar import Calendar
from judge.engine.rules import Rules
from judge.variants.descriptor import Side, Variant, side_named

__all__ = ["VARIANTS", "Side", "UnknownVariant", "Variant", "VariantRegistry", "get_variant", "side_named"]

MULTIPLICITY_CALENDAR = Calendar(opening=(Phase("Winter", 1900, PhaseType.ADJUSTMENT),))
"""Multiplicity's rule 9 (and Multiplicity II's rule 1): the powers place their units in a Winter 1900."""


MAD_CALENDAR = Calendar(
    opening=(Phase("Spring", 1900, PhaseType.PLACEMENT), Phase("Fall", 1900, PhaseType.PLACEMENT)),
    season_names={"Fall": "Autumn"},
)
"""Mad Diplomacy's rules 2 and 3: centres placed in Spring 1900, units in Autumn 1900; the text says Autumn."""


HOPLITE_CALENDAR = Calendar(
    season_names={"Fall": "Autumn"},
    opening=(Phase("Winter", -451, PhaseType.ADJUSTMENT),),
    ownership_seasons=frozenset({"Spring", "Fall"}),
)
"""Hoplite Wars' rules 12 and 8: initial builds in Winter 451 BC, then Spring 450 BC; centres may change hands
after Spring moves too (Towns only: `HopliteRules.take_ownership`)."""


class VariantRegistry(MutableMapping[str, Variant]):
    """The variants by name, each made on first use by the function that declares it.

    Why: a descriptor names its rule class, and importing every variant's rule module up front made
    `judge adjudicate` on a standard case load the rules of six variants it never runs. The names are known at
    once, so `sorted(VARIANTS)`, `len` and `in` import nothing; `VARIANTS[name]` (and so `.values()`, `.items()`,
    `get_variant`) imports that variant's rule module the first time and keeps the descriptor. An entry can be
    set or deleted as on a dict (tests add variants with `monkeypatch.setitem`). Two threads asking for the same
    new variant at once may each make it: the descriptors are equal values, and either one is kept."""

    def __init__(self, makers: dict[str, Callable[[], Variant]]) -> None:
        self._entries: dict[str, Variant | Callable[[], Variant]] = dict(makers)

    def __getitem__(self, name: str) -> Variant:
        entry = self._entries[name]
        if isinstance(entry, Variant):
            return entry
        variant = self._entries[name] = entry()
        return variant

    def __setitem__(self, name: str, variant: Variant) -> None:
        self._entries[name] = variant

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __contains__(self, name: object) -> bool:
        return name in self._entries  # without making the variant, as Mapping's own would

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _standard() -> Variant:
    return Variant("standard", "Standard Diplomacy (1971 rules as clarified by the DATC)", "standard", Rules)


def _multiplomacy() -> Variant:
    from judge.variants.multiplomacy import MultiplomacyRules

    return Variant("multiplomacy", "Multiplomacy (C. H. Hemming, 1973)", "multiplomacy", MultiplomacyRules)


def _multiplicity1() -> Variant:
    from judge.variants.multiplicity import MultiplicityRules

    return Variant(
        "multiplicity1",
        "Multiplicity I with the A/F rules (R. J. Walkerdine)",
        "standard",
        MultiplicityRules,
        MULTIPLICITY_CALENDAR,
        starts_with_units=False,
    )


def _multiplicity2() -> Variant:
    from judge.variants.multiplicity import Multiplicity2Rules

    return Variant(
        "multiplicity2",
        "Multiplicity II (R. J. Walkerdine, revised K. Black)",
        "standard",
        Multiplicity2Rules,
        MULTIPLICITY_CALENDAR,
        starts_with_units=False,
    )


def _mad() -> Variant:
    from judge.variants.mad import MadRules

    return Variant(
        "mad",
        "Mad Diplomacy (Jon Lovibond, 1974)",
        "mad",
        MadRules,
        MAD_CALENDAR,
        starts_with_units=False,
        opening_help=(
            "The game opens with two placements. Spring 1900: each power places its normal number of supply "
            "centres (3, Russia 4) anywhere within its country, one order each (Centre Bur); they are its home "
            "centres. Autumn 1900: it places units of any strength anywhere within its country, their total "
            "strength at most its centres (Place 2A Bur, Place F Bre, Place 2F StP/sc)."
        ),
    )


def _hoplite() -> Variant:
    from judge.variants.hoplite import HopliteRules

    return Variant(
        "hoplite",
        "Hoplite Wars (Stephen Agar), with the Multiplicity II rules",
        "hoplite",
        HopliteRules,
        HOPLITE_CALENDAR,
        starts_with_units=False,
        opening_help=(
            "The game opens with the initial builds of Winter 451 BC: each Major builds what it likes on its "
            "home Cities (Build 2F Ath, Build A Mar, Build G Pra; home centres may stay empty); each Minor "
            "one unit or a double garrison (Build A Ana, Build 2G Ana)."
        ),
    )


def _hepta() -> Variant:
    from judge.variants.hepta import HeptaRules

    return Variant(
        "hepta",
        "CW Heptadiplomacy (Mark Nelson, 1990)",
        "standard",
        HeptaRules,
        draws=False,
        power_noun="board-nation",
        draws_instead=(
            "the game ends in a solo win (70 centres at the end of an Autumn) or a two- or three-way win claimed "
            "with the Autumn orders: CLAIM 2-way win with PLAYER (rule 7)"
        ),
        opening_help=(
            "Seven standard boards: write every location with its board, A 1:par - 3:par, F 2:nth C A 1:lon - "
            "2:bel. Claim a joint win with the Autumn orders: CLAIM 2-way win with PLAYER [if ...]."
        ),
    )


VARIANTS = VariantRegistry(
    {
        "standard": _standard,
        "multiplomacy": _multiplomacy,
        "multiplicity1": _multiplicity1,
        "multiplicity2": _multiplicity2,
        "mad": _mad,
        "hoplite": _hoplite,
        "hepta": _hepta,
    }
)
"""every variant the judge plays, in the order `judge variants` lists them"""


class UnknownVariant(KeyError):
    pass


def get_variant(name: str) -> Variant:
    try:
        return VARIANTS[name.strip().lower()]
    except KeyError:
        raise UnknownVariant(f"unknown variant {name!r} (known: {', '.join(sorted(VARIANTS))})") from None
