"""What a player tells the judge about himself beyond his name (njudge's registration form, `data/form`): the
fields a GM uses to balance a game -- where he plays from, his time zone, his experience -- and whether others may
see his address. Read from REGISTER's form lines (`Country: Norway`), each optional, each changeable by sending the
form again; a field left out is left as it was.
"""

from __future__ import annotations

from dataclasses import dataclass
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from judge.game.errors import GameError

LEVELS = ("novice", "amateur", "intermediate", "advanced", "expert")
"""njudge's experience levels, as its form names them (`Level: Novice, Amateur, Intermediate, Advanced or Expert`)"""

FIELDS = {
    "country": "country",
    "timezone": "zone",
    "time zone": "zone",
    "zone": "zone",
    "level": "level",
    "show address": "show_address",
}
"""a form line's key (as players write it, any case) -> the field it sets"""

_YES = {"yes", "on", "true"}
_NO = {"no", "off", "false"}


@dataclass(frozen=True)
class ProfileChange:
    """The fields one REGISTER form sets (None: left as it was; "" clears a text field)."""

    country: str | None = None
    zone: str | None = None
    level: str | None = None
    show_address: bool | None = None

    def empty(self) -> bool:
        return self == ProfileChange()


def form_key(line: str) -> str | None:
    """The field a form line sets (`Country: Norway` -> country), or None for a line that is not one."""
    key, colon, _ = line.partition(":")
    return FIELDS.get(" ".join(key.lower().split())) if colon else None


def read_form(lines: list[str]) -> ProfileChange:
    """The fields of REGISTER's form lines, each checked: a time zone the judge knows, one of njudge's levels,
    yes or no for the address; a GameError quoting the line otherwise."""
    found: dict[str, str | bool] = {}
    for line in lines:
        field = form_key(line)
        if field is None:
            raise GameError(f"{line!r} is not a line of the form: Country, Timezone, Level, Show address")
        value = " ".join(line.partition(":")[2].split())
        if field == "zone" and value:
            try:
                ZoneInfo(value)
            except (ZoneInfoNotFoundError, ValueError):
                raise GameError(f"{value!r} is not a time zone the judge knows (write it as Europe/Oslo)") from None
        elif field == "level" and value:
            value = value.lower()
            if value not in LEVELS:
                raise GameError(f"Level is one of {', '.join(LEVELS)}, not {value!r}")
        elif field == "country" and len(value) > 80:
            raise GameError("Country is at most 80 characters")
        if field == "show_address":
            if value.lower() not in _YES | _NO:
                raise GameError(f"Show address is yes or no, not {value!r}")
            found[field] = value.lower() in _YES
        else:
            found[field] = value
    text = {key: str(value) for key, value in found.items() if key != "show_address"}
    shown = found.get("show_address")
    return ProfileChange(
        country=text.get("country"),
        zone=text.get("zone"),
        level=text.get("level"),
        show_address=shown if isinstance(shown, bool) else None,
    )
