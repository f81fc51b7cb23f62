"""Every reason, refusal and remark is a value in the `judge adjudicate` contract (issue 42, item 1): its own
snake-case `kind`, its fields by name, and for refusals and remarks the sentence as `words`, so a reader of the
old `{"kind": "note", "words": ...}` still finds it; and every kind reads back to the engine's value.

The kinds are taken from the engine's modules, not listed here: a new kind is held to all of this at once, and a
kind with a field of a name this file has no sample for fails until one is given (a new kind of field may need a
reader in judge/engine/kinds.py too).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from judge.contract.adjudicate import run_case
from judge.engine.kinds import KINDS, all_kinds, reason_from_json, reasons_from_json
from judge.engine.orders import OrderKind
from judge.engine.phase import PhaseType
from judge.engine.reasons import (
    Bounced,
    DisbandCause,
    LostAs,
    Note,
    Reason,
    UnitName,
    text_of,
)
from judge.engine.refusals import (
    AndSo,
    MoveToOwnProvince,
    NoUnitAt,
    PartCannot,
    Supporting,
    Then,
    Worded,
)
from judge.engine.units import Composition

DOCS = Path(__file__).resolve().parent.parent / "docs" / "adjudicate.md"

FRANCE_2A = UnitName("France", "2A", "bur")
GERMANY_F = UnitName("Germany", "F", "hol")

SAMPLES: dict[str, Any] = {
    # places
    "province": "bur",
    "at": "par",
    "destination": "mun",
    "origin": "bre",
    "into": "ruh",
    "other": "pic",
    "place": "del",
    "sea": "nth",
    "fleet_at": "eng",
    "via": "mao",
    "coast": "nc",
    "target": "kie",
    "board": "east",
    "coasts": ("nc", "sc"),
    "choices": ("pic", "gas", "bre"),
    "country": ("ath", "spa", "meg"),
    "from_": ("bur", "pic"),
    # powers and players
    "power": "France",
    "owner": "Germany",
    "sacker": "Sparta",
    "players": ("France", "England"),
    "missing": ("Italy",),
    # words the kinds carry as they are
    "variant": "Multiplicity II",
    "error": "could not read this line",
    "why": "no such win",
    "what": "armies",
    "due": "two builds",
    "cost": "1 centre",
    "left": "one more",
    "condition": "if Italy builds",
    "until": "after the Winter builds",
    "win": "two-way",
    "support": "S F lon",  # the order supported, in words (the results print the part from the order's value)
    "unit": "A",
    # numbers
    "count": 2,
    "free": 1,
    "room": 1,
    "allocation": 3,
    "strength": 2,
    "size": 2,
    "rule": 4,
    "module": 2,
    "attack": 1,
    "prevent": 2,
    "defend": 2,
    "hold": 2,
    "stood": 1,
    "fell": 2,
    "lost": 1,
    "together": 30,
    "each": 12,
    "held": (18, 14),
    # yes or no
    "holds": False,
    "merge": True,
    "move": True,
    "single": True,
    "controls": True,
    "again": True,
    "others": True,
    "bounced": True,
    "stayed": True,
    "many": True,
    "disrupted": True,
    "convoyed": True,
    "no_unit": True,
    "convoy": True,
    "overland": True,
    # units and compositions
    "force": FRANCE_2A,
    "joined": GERMANY_F,
    "by": (FRANCE_2A, GERMANY_F),
    "with_": (GERMANY_F,),
    **dict.fromkeys(
        ("built", "cargo", "formed", "made", "new", "occupant", "old", "part", "parts", "rest", "stated", "taken"),
        Composition.of(1, 2),
    ),
    "composition": Composition.of(fleets=1),
    "staying": Composition.of(),
    "wanted": Composition.of(2),
    # choices among names
    "order": OrderKind.MOVE,
    "phase": PhaseType.RETREAT,
    "then": Then.UNITS,
    "supporting": Supporting.MERGE,
    "cause": DisbandCause.NOWHERE,
    # nested
    "refusal": NoUnitAt("mun"),
    "reasons": (Bounced((GERMANY_F,), 1),),
}
"""a value for each field name; the same name means the same thing in every kind, but for these"""

PLACES = frozenset(
    {"bur", "par", "mun", "bre", "ruh", "pic", "del", "nth", "eng", "mao", "kie", "gas", "ath", "spa", "meg", "hol"}
)
"""the sample places (`lon` is only in the words of `support`)"""

OVERRIDES: dict[str, Any] = {
    "HeadToHead.by": GERMANY_F,
    "HeldBy.by": GERMANY_F,
    "Occupied.by": "Germany",
    "PlacedAlready.unit": True,
    "PlacementWrongPhase.units": True,
    "RetreatClash.units": 2,
    "PlacementStrength.left": 1,
    "DelphiRaises.left": 1,
    "Lost.words": LostAs.REST,
    "Note.words": "some words",
}


def names_of(cls: type[Reason]) -> tuple[str, ...]:
    return cls.names


def example(cls: type[Reason]) -> Reason:
    args: dict[str, Any] = {}
    for name in names_of(cls):
        key = f"{cls.__name__}.{name}"
        if key not in OVERRIDES and name not in SAMPLES:
            pytest.fail(f"{cls.__name__}: no sample for its field {name!r} (add one to SAMPLES)")
        args[name] = OVERRIDES.get(key, SAMPLES.get(name))
    if issubclass(cls, Worded):
        return cls(*args.values())
    return cls(**args)


KIND_CLASSES = all_kinds()


@pytest.mark.parametrize("cls", KIND_CLASSES, ids=lambda cls: cls.__name__)
def test_every_kind_reads_back_to_the_value_the_engine_made(cls: type[Reason]) -> None:
    value = example(cls)
    stored = json.loads(json.dumps(value.json()))  # as the store and the contract keep it
    assert reason_from_json(stored) == value
    assert reason_from_json(stored).text() == value.text()


@pytest.mark.parametrize("cls", KIND_CLASSES, ids=lambda cls: cls.__name__)
def test_every_place_in_a_kinds_words_is_named_by_the_renderers_namer(cls: type[Reason]) -> None:
    """Issue 42: a medium names places its own way (`Nth`, `Norway`) by the namer it passes; none is left to be
    found in the words afterwards. Without a namer the words are the contract's `reason`, ids as they are."""
    value = example(cls)
    named = value.text(lambda location: f"<{location}>")
    assert re.sub(r"<([^<>]*)>", r"\1", named) == value.text()
    bare = re.sub(r"<[^<>]*>", "", named)
    assert not [p for p in PLACES if re.search(rf"\b{p}\b", bare)], named


def test_every_kind_has_its_own_snake_case_name() -> None:
    kinds = [cls.kind for cls in KIND_CLASSES]
    assert len(set(kinds)) == len(kinds)
    assert all(re.fullmatch(r"[a-z][a-z0-9]*(_[a-z0-9]+)*", kind) for kind in kinds), kinds
    assert set(KINDS) == set(kinds)


@pytest.mark.parametrize("cls", [c for c in KIND_CLASSES if issubclass(c, Worded)], ids=lambda cls: cls.__name__)
def test_a_refusal_keeps_its_sentence_as_words_beside_its_fields(cls: type[Worded]) -> None:
    value = example(cls)
    written = value.json()
    assert written["kind"] == cls.kind != "note"
    assert written["words"] == value.text()
    assert list(written) == ["kind", *cls.names, "words"]


def test_a_part_that_cannot_names_its_part_its_order_and_the_refusal_within() -> None:
    refusal = PartCannot(Composition.of(1, 1), OrderKind.MOVE, NoUnitAt("mun"))
    assert refusal.json() == {
        "kind": "part_cannot",
        "part": "A/F",
        "order": "move",
        "refusal": {"kind": "no_unit_at", "province": "mun", "words": "there is no unit in mun"},
        "words": refusal.text(),
    }


def test_the_contract_writes_a_refusal_as_its_kind_and_the_reason_as_before() -> None:
    words = "a unit cannot move to the province it stands in; the unit holds"
    outcome = run_case(
        {
            "variant": "standard",
            "units": [{"power": "France", "unit": "A", "at": "par"}],
            "orders": {"France": ["A par - par"]},
        }
    )
    (line,) = outcome["orders"]
    assert line["reason"] == words
    assert line["reasons"] == [
        {
            "kind": "and_so",
            "refusal": {"kind": "move_to_own_province", "words": words.split(";")[0]},
            "then": "unit",
            "words": words,
        }
    ]
    assert reasons_from_json(line["reasons"]) == [AndSo(MoveToOwnProvince(), Then.UNIT)]


def test_a_refusal_stored_as_a_note_before_issue_42_still_reads_with_its_words() -> None:
    stored = [{"kind": "note", "words": "there is no unit in bur; the unit holds"}]
    (value,) = reasons_from_json(stored)
    assert value == Note("there is no unit in bur; the unit holds")
    assert text_of([value]) == "there is no unit in bur; the unit holds"


def test_docs_adjudicate_lists_every_kind_with_its_fields() -> None:
    """The contract's page names each kind and each of its keys (a renamed class renames its kind: the page
    must say so)."""
    page = DOCS.read_text(encoding="utf-8").split("## Reasons and refusals, kind by kind\n", 1)[1].split("\n## ")[0]
    for cls in KIND_CLASSES:
        entry = re.search(rf"^- `{cls.kind}`(.*?)(?=\n- |\n\n|\Z)", page, re.MULTILINE | re.DOTALL)
        assert entry is not None, f"docs/adjudicate.md does not list the kind {cls.kind!r}"
        for name in names_of(cls):
            assert f"`{name.rstrip('_')}`" in entry.group(1), f"{cls.kind}: its key {name!r} is not listed"
