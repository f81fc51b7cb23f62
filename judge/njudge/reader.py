"""A reader of njudge's mails: a game's start mail and results mails turned back into its positions (units, the
units dislodged with where they may retreat, the centres each power owns), phase after phase, as jDip's judge
import and the archive scripts read them.

It reads what njudge writes (its source: `msg_header()` in `mail.c`, `st_movement.c`, `st_retreat.c`,
`st_build.c`, `ownership()` in `st_porder.c`, the footer in `dip.c`, the start mail in `ml_signon.c` and
`data/report.standard`), so it reads the judge's own results in njudge's layout (`results.layout=njudge`) the same
way: the judge checks its output as the hobby's tools do (tests/test_njudge_reader.py), and `judge import` starts a
game from a game's njudge mails (`judge.njudge.importer`). This module reads text, which is its job: it is not a
renderer (tests/test_no_words_parsed.py).

A movement's mail lists every unit (one line a unit, `No Order Processed` for a unit without orders), so it gives
the whole position before the phase; a retreat's and an adjustment's list only the units they touch, so the
reader carries the position from the mails before. Where no start mail is read, the reader starts from the
variant's own starting position.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from judge.render import njudge_names as names
from judge.variants import get_variant

HEADER = re.compile(r"^:: Judge: (?P<judge>\S+)(?:\s+Game: (?P<game>\S+)\s+Variant: (?P<variant>.+?))?\s*$")
DEADLINE = re.compile(r"^:: Deadline: (?P<code>\S+) (?P<when>.+?)\s*$")
HEADING = re.compile(
    r"^(?P<kind>Movement|Retreat|Adjustment) results for (?P<season>\w+) of (?P<year>-?\d+)\.\s+\((?P<game>[^.]+)\."
)
STARTING = re.compile(r"^Starting positions? for (?P<season>\w+) of (?P<year>-?\d+)\.")
UNIT_LINE = re.compile(r"^(?P<power>[A-Z][\w .'-]*?):\s+(?P<unit>Army|Fleet|Garrison|Wing|\S+)\s+(?P<rest>.+)$")
MARK = re.compile(r"^(?P<body>.*?)\.?\s*\(\*(?P<mark>[^*]+)\*\)\.?$")
DISLODGED = re.compile(
    r"^The (?P<adjective>.+?) (?P<unit>Army|Fleet|Garrison|Wing|\S+) (?:in|over)(?: the)? (?P<at>.+?) "
    r"(?:can retreat to (?P<retreats>.+)|with no valid retreats was destroyed)\.$"
)
BUILD = re.compile(r"^Builds (?:an? )?(?P<unit>[\w/]+) in (?P<at>.+)\.$")
REMOVE = re.compile(r"^(?:Removes|Defaults, removing) the (?P<unit>[\w/]+) in (?:the )?(?P<at>.+)\.$")
NEXT = re.compile(
    r"^The next phase of '(?P<game>[^']+)' will be (?P<kind>\w+) for (?P<season>\w+) of (?P<year>-?\d+)\.$"
)
OWNER = re.compile(r"^(?P<power>[A-Z][\w .'-]*?):\s+(?P<centres>.+)$")

KINDS = {"Movement": "Movement", "Retreats": "Retreat", "Adjustments": "Adjustment"}
UNIT_LETTERS = {word: letter for letter, word in names.UNIT_WORDS.items()}


class ReadError(ValueError):
    """A line the reader cannot make sense of, quoted with why."""


@dataclass
class Read:
    """The position after one phase, as its results mail gives it."""

    phase: dict[str, Any]
    """the phase the mail reports (season, year, type)"""
    units: list[dict[str, str]]
    dislodged: list[dict[str, Any]]
    supply_centers: dict[str, list[str]]
    next_phase: dict[str, Any] | None
    """the phase the footer names; None at the game's end"""
    code: str = ""
    """the `:: Deadline:` line's phase code"""


@dataclass
class Reader:
    """Reads one game's mails in order (`read`), keeping the position between them."""

    variant: str
    game: str = ""
    units: list[dict[str, str]] = field(default_factory=list)
    dislodged: list[dict[str, Any]] = field(default_factory=list)
    centres: dict[str, list[str]] = field(default_factory=dict)
    positions: list[Read] = field(default_factory=list)

    @classmethod
    def starting(cls, variant: str) -> Reader:
        """A reader at the variant's starting position (its units and the home centres each power owns)."""
        rules = get_variant(variant).rules()
        board = rules.board
        units = [{"power": p.name, "unit": u.kind, "at": u.location} for p in board.powers.values() for u in p.units]
        centres = {p.name: sorted(p.home) for p in board.powers.values() if p.home}
        return cls(variant, units=units, centres=centres)

    # --- names ------------------------------------------------------------------------------------------------

    def _place(self, text: str, line: str) -> str:
        found = names.location_of(self.variant, text)
        if found is None:
            raise ReadError(f"{line!r}: no place {text!r} on the {self.variant} map")
        return found

    def _power(self, text: str, line: str) -> str:
        found = names.power_of(self.variant, text.strip())
        if found is None:
            raise ReadError(f"{line!r}: no power {text!r} in {self.variant}")
        return found

    # --- a mail -----------------------------------------------------------------------------------------------

    def read(self, text: str) -> Read | None:
        """One mail's body: a start mail sets the starting position (None); a results mail moves the position on
        and gives it (`Read`); any other mail, None."""
        lines = text.splitlines()
        code = ""
        for line in lines:
            found = DEADLINE.match(line)
            if found:
                code = found.group("code")
        for n, line in enumerate(lines):
            start = STARTING.match(line)
            if start:
                self._starting(lines[n + 1 :])
                return None
            heading = HEADING.match(line)
            if heading:
                self.game = self.game or heading.group("game")
                phase = {
                    "season": heading.group("season"),
                    "year": int(heading.group("year")),
                    "type": heading.group("kind"),
                }
                read = self._results(phase, lines[n + 1 :])
                read.code = code
                self.positions.append(read)
                return read
        return None

    def _starting(self, lines: list[str]) -> None:
        units: list[dict[str, str]] = []
        for line in lines:
            if line.startswith("The deadline for the first"):
                break
            found = UNIT_LINE.match(line.strip())
            if not found:
                continue
            at = found.group("rest").rstrip(".")
            units.append(
                {
                    "power": self._power(found.group("power"), line),
                    "unit": UNIT_LETTERS.get(found.group("unit"), found.group("unit")),
                    "at": self._place(at.strip(), line),
                }
            )
        if units:
            self.units = units
            self.dislodged = []

    def _results(self, phase: dict[str, Any], lines: list[str]) -> Read:
        kind = phase["type"]
        section = "orders"
        moved: list[dict[str, str]] = []
        stood: list[dict[str, str]] = []
        dislodged: list[dict[str, Any]] = []
        sentence = ""
        owners: dict[str, list[str]] = {}
        owner_line = ""
        next_phase: dict[str, Any] | None = None
        for line in lines:
            if line.startswith("The following units were dislodged"):
                section = "dislodged"
                continue
            if line.startswith("Ownership of supply centers"):
                section = "ownership"
                continue
            upcoming = NEXT.match(line)
            if upcoming:
                next_phase = {
                    "season": "Winter" if upcoming.group("kind") == "Adjustments" else upcoming.group("season"),
                    "year": int(upcoming.group("year")),
                    "type": KINDS.get(upcoming.group("kind"), upcoming.group("kind")),
                }
                break
            if line.startswith("The game is over"):
                break
            if section == "orders" and line.strip():
                self._order_line(kind, line, moved, stood)
            elif section == "dislodged":
                if line.strip():
                    sentence = f"{sentence} {line.strip()}".strip()
                    if sentence.endswith("."):
                        dislodged.append(self._dislodgement(sentence))
                        sentence = ""
            elif section == "ownership":
                if not line.strip():
                    if owner_line:
                        self._owner(owner_line, owners)
                        owner_line = ""
                        section = "chart"
                    continue
                if line.startswith(" ") and owner_line:
                    owner_line = f"{owner_line} {line.strip()}"
                else:
                    if owner_line:
                        self._owner(owner_line, owners)
                    owner_line = line
        if owner_line:
            self._owner(owner_line, owners)
        if kind == "Movement":
            gone = {d["at"].partition("/")[0] for d in dislodged}
            self.units = [u for u in moved + stood if u["at"].partition("/")[0] not in gone or u in moved]
            self.dislodged = dislodged
        elif kind == "Retreat":
            self.units = self.units + moved
            self.dislodged = []
        else:
            removed = {(u["power"], u["at"].partition("/")[0]) for u in stood}
            self.units = [u for u in self.units if (u["power"], u["at"].partition("/")[0]) not in removed] + moved
        if owners:
            self.centres = {power: sorted(held) for power, held in owners.items() if power != "Unowned"}
        return Read(
            phase,
            [dict(u) for u in self.units],
            [dict(d) for d in self.dislodged],
            {p: list(c) for p, c in self.centres.items()},
            next_phase,
        )

    def _order_line(self, kind: str, line: str, moved: list[dict[str, str]], stood: list[dict[str, str]]) -> None:
        """One line of a phase's orders: where the unit is after it (`moved`, `stood`; an adjustment's removals
        in `stood`)."""
        head, colon, said = line.partition(":")
        power = names.power_of(self.variant, head.strip()) if colon else None
        if power is None:
            return  # not a power's line: what a judge added among njudge's (a variant's events, a notice)
        said = said.strip()
        if kind == "Adjustment":
            build = BUILD.match(said)
            remove = REMOVE.match(said)
            if build:
                unit = UNIT_LETTERS.get(build.group("unit").capitalize(), build.group("unit"))
                moved.append({"power": power, "unit": unit, "at": self._place(build.group("at"), line)})
            elif remove:
                unit = UNIT_LETTERS.get(remove.group("unit").capitalize(), remove.group("unit"))
                stood.append({"power": power, "unit": unit, "at": self._place(remove.group("at"), line)})
            elif not said.startswith("Build waived") and "build" not in said:
                raise ReadError(f"{line!r}: not an adjustment njudge writes")
            return
        found = UNIT_LINE.match(f"{head}: {said}")
        if not found:
            raise ReadError(f"{line!r}: not a unit's line")
        unit = UNIT_LETTERS.get(found.group("unit"), found.group("unit"))
        rest = found.group("rest")
        marked = MARK.match(rest)
        mark = marked.group("mark") if marked else ""
        body = (marked.group("body") if marked else rest).rstrip(".").strip()
        at_text, destination = self._split(body)
        at = self._place(at_text, line)
        if kind == "Retreat":
            if destination and not mark:
                moved.append({"power": power, "unit": unit, "at": self._place(destination, line)})
            return
        if destination and not mark:
            moved.append({"power": power, "unit": unit, "at": self._place(destination, line)})
        else:
            stood.append({"power": power, "unit": unit, "at": at})

    @staticmethod
    def _split(body: str) -> tuple[str, str]:
        """A unit's place and, for a move or retreat, where it went (the last place of a convoy's route)."""
        for word in (", No Order Processed", " HOLD", " SUPPORT ", " CONVOY ", " DISBAND"):
            if word in body:
                return body.partition(word)[0].strip(), ""
        if " -> " in body:
            route = body.split(" -> ")
            return route[0].strip(), route[-1].strip()
        return body.strip(), ""

    def _dislodgement(self, sentence: str) -> dict[str, Any]:
        found = DISLODGED.match(sentence)
        if not found:
            raise ReadError(f"{sentence!r}: not a dislodgement njudge writes")
        adjective = found.group("adjective")
        retreats = found.group("retreats")
        return {
            "power": self._power(adjective, sentence),
            "unit": UNIT_LETTERS.get(found.group("unit"), found.group("unit")),
            "at": self._place(found.group("at"), sentence),
            "retreats": [self._place(r, sentence) for r in retreats.split(" or ")] if retreats else [],
        }

    def _owner(self, line: str, owners: dict[str, list[str]]) -> None:
        found = OWNER.match(line)
        if not found:
            raise ReadError(f"{line!r}: not a line of supply centres")
        power_text = found.group("power")
        power = "Unowned" if power_text == "Unowned" else self._power(power_text, line)
        listed = found.group("centres").strip().rstrip(".")
        owners[power] = [self._place(c.strip().strip("()"), line).partition("/")[0] for c in listed.split(",")]


def variant_of(text: str) -> tuple[str, str] | None:
    """The game and variant an njudge mail's `:: Judge:` line names (`Alpha`, `Standard Gunboat` -> alpha,
    standard), or None."""
    for line in text.splitlines():
        found = HEADER.match(line)
        if found and found.group("variant"):
            return str(found.group("game")).lower(), str(found.group("variant")).split()[0].lower()
    return None


def read_game(texts: Iterable[str], variant: str | None = None) -> Reader:
    """Every mail of one game, in the order they came: the reader after the last, its `positions` one a results
    mail. The variant is the mails' own (`:: Judge:` line) unless given."""
    bodies = list(texts)
    if variant is None:
        named = next((found for found in map(variant_of, bodies) if found), None)
        if named is None:
            raise ReadError("no mail names its variant (no `:: Judge: ... Variant: ...` line)")
        variant = named[1]
    reader = Reader.starting(variant)
    for body in bodies:
        reader.read(body)
    return reader
