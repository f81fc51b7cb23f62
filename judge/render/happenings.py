"""The variants' own events, announced in the results of the phase where they happen (issue 27): Delphi sacked
and who is shunned for it (Hoplite Wars rule 7), the colonies' declarations (rule 6), a centre captured for the
Minor (rule 5), where Atlantis is credited (Mad Diplomacy rule 9), each Hepta claim and its verdict. Written from
the engine's events (values, `Outcome.events`), never from the orders' words."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from judge.variants.mad_atlantis import ATLANTIS

Namer = Callable[[str], str]


def happenings(outcome: dict[str, Any], label: Namer, place: Namer) -> list[str]:
    """One paragraph a happening, in the order the engine raised them (the colonies together)."""
    events = outcome.get("events") or []
    said: list[str] = []
    colonies = [f"{place(e['colony'])} for {label(e['major'])}" for e in events if e["kind"] == "colony"]
    for e in events:
        kind = e["kind"]
        if kind == "sack":
            player = label(str(e["player"]))
            said.append(
                f"Delphi ({place(e['at'])}) is sacked by {label(e['power'])}: {player} raises two units more, beyond "
                f"the centres, in the coming Winter, and {player}'s units may receive support from no other player "
                "for the rest of the game (rule 7)."
            )
        elif kind == "capture":
            said.append(f"{place(e['centre'])} is captured for {label(e['power'])}, the Minor (rule 5).")
        elif kind == "claim":
            verdict = "granted" if e.get("granted") else "refused"
            why = f": {e['reason']}" if e.get("reason") else ""
            said.append(f"The claim of {e['player']} ({label(e['power'])}), {e['claim']}, is {verdict}{why}.")
        elif kind == "atlantis":
            holder = next((p for p, owned in (outcome.get("supply_centers") or {}).items() if ATLANTIS in owned), None)
            if holder is not None:
                said.append(f"S.C. Atlantis, now in {place(e['to'])}, is credited to {label(holder)}.")
    if colonies:
        said.insert(0, f"The colonies declare (rule 6): {', '.join(colonies)}.")
    return said
