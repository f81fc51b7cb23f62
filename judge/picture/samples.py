"""One position per variant that shows what its pictures must show, with the phase's orders adjudicated: the
standard board's moves, supports, a convoy, failures and a dislodgement; Multiplomacy's stacks; Multiplicity's
multiple units (`3A`, `A/2F`), merges and splits; Mad Diplomacy's placed centres, strong units and Atlantis;
Hoplite Wars' mixed forces, garrisons, Minors, Towns, the sacked Delphi and the declared colonies;
Heptadiplomacy's seven boards. The tests draw them (and keep their SVGs as golden files) and `make bench` times
them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from judge.contract.adjudicate import read_orders, read_position
from judge.engine import Phase, adjudicate
from judge.engine.phase import PhaseType
from judge.engine.position import OrderResult, Outcome, Position
from judge.engine.rules import Rules
from judge.variants import get_variant

SAMPLES: dict[str, dict[str, Any]] = {
    "standard": {
        "phase": {"season": "Fall", "year": 1901, "type": "Movement"},
        "units": [
            {"power": "England", "unit": "F", "at": "nth"},
            {"power": "England", "unit": "A", "at": "yor"},
            {"power": "England", "unit": "F", "at": "eng"},
            {"power": "France", "unit": "A", "at": "bur"},
            {"power": "France", "unit": "A", "at": "pic"},
            {"power": "France", "unit": "F", "at": "mao"},
            {"power": "Germany", "unit": "A", "at": "mun"},
            {"power": "Germany", "unit": "A", "at": "ruh"},
            {"power": "Germany", "unit": "F", "at": "den"},
            {"power": "Russia", "unit": "F", "at": "stp/nc"},
            {"power": "Russia", "unit": "F", "at": "bot"},
            {"power": "Russia", "unit": "A", "at": "war"},
            {"power": "Austria", "unit": "A", "at": "gal"},
            {"power": "Turkey", "unit": "F", "at": "bul/ec"},
            {"power": "Italy", "unit": "F", "at": "spa/sc"},
        ],
        "supply_centers": {
            "England": ["edi", "lon", "lvp"],
            "France": ["bre", "mar", "par"],
            "Germany": ["ber", "kie", "mun", "hol"],
            "Russia": ["mos", "sev", "stp", "war"],
            "Austria": ["bud", "tri", "vie", "ser"],
            "Turkey": ["ank", "con", "smy", "bul"],
            "Italy": ["nap", "rom", "ven", "spa"],
        },
        "orders": {
            "England": ["F nth C A yor - nwy", "A yor - nwy", "F eng - bel"],
            "France": ["A pic - bel", "A bur S A pic - bel", "F mao - spa/nc"],
            "Germany": ["A ruh - bur", "A mun S A ruh - bur", "F den - swe"],
            "Russia": ["F stp/nc - nwy", "F bot - swe", "A war - gal"],
            "Austria": ["A gal H"],
            "Turkey": ["F bul/ec - rum"],
            "Italy": ["F spa/sc H"],
        },
    },
    "multiplomacy": {
        "units": [
            *[{"power": "England", "unit": "A", "at": "lon"}] * 3,
            *[{"power": "England", "unit": "F", "at": "nth"}] * 2,
            {"power": "England", "unit": "F", "at": "edi"},
            *[{"power": "Germany", "unit": "A", "at": "mun"}] * 2,
            *[{"power": "Italy", "unit": "A", "at": "swi"}] * 3,
            *[{"power": "Russia", "unit": "F", "at": "sev"}] * 2,
            {"power": "Turkey", "unit": "F", "at": "ank"},
        ],
        "orders": {
            "England": ["2 A Lon-Wal", "2 F Nth-Nwy"],
            "Germany": ["2 A Mun stands"],
            "Italy": ["2 A Swi-Mun", "1 A Swi sup 2 A Swi-Mun"],
            "Russia": ["2 F Sev-Bla"],
            "Turkey": ["F Ank-Bla"],
        },
    },
    "multiplicity1": {
        "units": [
            {"power": "France", "unit": "A", "at": "pic"},
            {"power": "France", "unit": "A", "at": "par"},
            {"power": "France", "unit": "A", "at": "gas"},
            {"power": "France", "unit": "A", "at": "mar"},
            {"power": "France", "unit": "A/F", "at": "bre"},
            {"power": "Germany", "unit": "3A", "at": "bur"},
            {"power": "England", "unit": "2F", "at": "eng"},
            {"power": "Italy", "unit": "A/2F", "at": "nap"},
        ],
        "orders": {
            "France": ["A Pic + A Par + A Gas MERGE = 3A Bur", "A Mar S 3A's - Bur"],
            "Germany": ["3A Bur stands"],
            "England": ["2F Eng - MAO"],
        },
    },
    "multiplicity2": {
        "units": [
            {"power": "France", "unit": "4A", "at": "par"},
            {"power": "France", "unit": "A/2F", "at": "bre"},
            {"power": "Germany", "unit": "2A", "at": "mun"},
            {"power": "Italy", "unit": "3F", "at": "tys"},
        ],
        "orders": {
            "France": ["4A(Par) SPLIT A(Pic), 2A(Bur), A(Gas)", "A/2F(Bre)-MAO"],
            "Germany": ["2A(Mun) - Ruh"],
        },
    },
    "mad": {
        "units": [
            {"power": "France", "unit": "2A", "at": "bur"},
            {"power": "France", "unit": "F", "at": "pic"},
            {"power": "Germany", "unit": "3A", "at": "mun"},
            {"power": "Italy", "unit": "A/F", "at": "tys", "aboard": 1},
            {"power": "Russia", "unit": "2F", "at": "stp/sc"},
        ],
        "supply_centers": {
            "France": ["bur", "gas", "pic"],
            "Germany": ["mun", "ruh", "kie"],
            "Italy": ["tus", "rom", "nap"],
            "Russia": ["stp", "fin", "ukr", "sev"],
            "Austria": ["atlantis"],
        },
        "state": {"atlantis": "tyr", "homes": {"France": ["bur", "gas", "pic"]}},
        "orders": {"France": ["2A(Bur) - Mun", "F(Pic) - Bel"], "Germany": ["3A(Mun) St."]},
    },
    "hoplite": {
        "phase": {"season": "Spring", "year": -449, "type": "Movement"},
        "units": [
            {"power": "Athens", "unit": "2A", "at": "ath"},
            {"power": "Anactorium", "unit": "A", "at": "ath"},
            {"power": "Anactorium", "unit": "A", "at": "meg"},
            {"power": "Athens", "unit": "F", "at": "sar"},
            {"power": "Athens", "unit": "G", "at": "tho"},
            {"power": "Boeotia", "unit": "2A", "at": "the"},
            {"power": "Boeotia", "unit": "A", "at": "del"},
            {"power": "Elis", "unit": "A", "at": "pla"},
            {"power": "Mantinea", "unit": "A", "at": "pel"},
            {"power": "Aetolia", "unit": "F", "at": "gce"},
            {"power": "Achea", "unit": "A", "at": "aeg"},
            {"power": "Argolis", "unit": "2A", "at": "cor"},
            {"power": "Sparta", "unit": "A", "at": "pra"},
            {"power": "Elatea", "unit": "2G", "at": "ela"},
        ],
        "supply_centers": {
            "Athens": ["ath", "mar", "tho", "chi"],
            "Anactorium": ["ana", "meg"],
            "Boeotia": ["aul", "orc", "the", "pla", "sam"],
            "Elis": ["eli"],
            "Aetolia": ["agr", "cal", "thr", "les"],
            "Mantinea": ["man", "pel"],
            "Achea": ["aeg", "pat"],
            "Argolis": ["arg", "cor", "her", "rho"],
            "Sparta": ["pra", "spa", "zar", "mil"],
            "Elatea": ["ela"],
            "Thessaly": ["cie", "lar", "pln", "pho"],
            "Chalcis": ["cha"],
            "Messene": ["mes", "cos"],
            "Pherae": ["phe"],
        },
        "state": {
            "sacked_by": "Boeotia",
            "colonies_declared": {
                "chi": "Athens",
                "sam": "Boeotia",
                "les": "Aetolia",
                "rho": "Argolis",
                "mil": "Sparta",
                "pho": "Thessaly",
                "cos": "Sparta",
            },
        },
        "orders": {
            "Athens": ["3A(ath) - pla", "F(sar) S A(meg) - cor", "A(meg) - cor"],
            "Boeotia": ["2A(the) S A(pla)"],
            "Elis": ["A(pla) H"],
            "Argolis": ["2A(cor) H"],
            "Aetolia": ["F(gce) S 2A(cor)"],
            "Achea": ["A(aeg) - pel"],
        },
    },
    "hepta": {
        "options": {"module": 1, "assignment": "a"},
        "units": [
            {"power": "1:France", "unit": "A", "at": "1:par"},
            {"power": "1:France", "unit": "A", "at": "1:mar"},
            {"power": "3:Germany", "unit": "A", "at": "3:mun"},
            {"power": "3:Germany", "unit": "F", "at": "3:kie"},
            {"power": "5:Russia", "unit": "F", "at": "5:stp/sc"},
            {"power": "7:Turkey", "unit": "F", "at": "7:ank"},
        ],
        "orders": {"1:France": ["A(1:Par)-3:Par"], "3:Germany": ["A(3:Mun)-3:Bur"]},
    },
}


@dataclass(frozen=True)
class Sample:
    variant: str
    rules: Rules
    position: Position
    outcome: Outcome


def sample(variant: str) -> Sample:
    """The variant's sample position and its phase adjudicated."""
    case = {"variant": variant, **SAMPLES[variant]}
    rules = get_variant(variant).rules(case.get("options"))
    raw = case.get("phase") or {"season": "Spring", "year": 1901, "type": "Movement"}
    position = read_position(rules, case, Phase.parse(raw["season"], raw["year"], raw["type"]))
    outcome = adjudicate(rules, position, read_orders(rules, case))
    return Sample(variant, rules, position, outcome)


@dataclass(frozen=True)
class Stage:
    """A position to draw with the orders given in it: one of a variant's golden pictures."""

    position: Position
    orders: list[OrderResult]
    title: str


def stages(variant: str, seeds: range = range(1, 9), years: int = 6) -> dict[str, Stage]:
    """The variant's golden pictures (tests/golden/pictures/): its start, its sample mid-game position with the
    sample's orders, and the first retreat and the first adjustment with orders of a seeded random game (the
    position before the phase, its orders drawn over it)."""
    from judge.testing.random_games import play

    described = get_variant(variant)
    start = described.starting_position()
    mid = sample(variant)
    found = {
        "start": Stage(start, [], described.phase_name(start.phase)),
        "mid": Stage(mid.position, mid.outcome.results, described.phase_name(mid.position.phase)),
    }
    wanted = {PhaseType.RETREAT: "retreat", PhaseType.ADJUSTMENT: "adjustment"}
    rules = described.rules(SAMPLES[variant].get("options"))
    for seed in seeds:
        for played, outcome in play(rules, seed, years):
            name = wanted.get(played.position.phase.type)
            if name and name not in found and played.orders:
                title = described.phase_name(played.position.phase)
                found[name] = Stage(played.position, outcome.results, title)
            if len(found) == 4:
                return found
    return found
