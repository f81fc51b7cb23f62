"""The settings a GM may change by mail (`SET name=value`, `CREATE ... name=value`), each with its kind and what it
does: one place that says which names exist, so that a misspelt name is refused instead of confirmed and ignored,
and a value is read as the setting's kind (an edition `1982` is a name, not a number).

A game's settings are nested as docs/deadlines.md shows them (`timing.manual`, `timing.movement.hours`); the
short forms the judge has always read (`manual`, `grace_hours`) stay, so both spellings mean the same.
Rule options (`edition`, a variant's own) come from the variant and are read against their choices.
"""

from __future__ import annotations

import re
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from judge.engine.rules import RuleOption
from judge.game.setting_table import SETTINGS, Setting


class SettingError(ValueError):
    """A name or value that is not a setting; the message says what would be."""


_ALIASES = {
    "grace": "grace_hours",
    "zone": "timing.zone",
    "reminder_hours": "timing.reminder_hours",
    "delay": "timing.delay",
    "reminders": "timing.reminders",
}
# records (issue 46): njudge's names for the entry limits (`SET DEDICATION`, `SET ONTIMERAT`, `SET RESRAT`)
_ALIASES.update({"dedication": "entry.dedication", "ontimerat": "entry.on_time", "resrat": "entry.resignation"})
_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_DAYS = tuple(day[:3] for day in _DAY_NAMES)
_SPAN = re.compile(r"^(\d+(?:\.\d+)?)\s*(h|hours?|m|mins?|minutes?|d|days?)?$")
_IN_HOURS = {"h": 1, "d": 24}


def _whole(value: float) -> int | float:
    """A number as stored: whole where it is (36, not 36.0), so that it is shown as it was written."""
    return int(value) if float(value).is_integer() else value


def _span(name: str, text: str, unit: str) -> int | float:
    """A duration as a GM writes it (`36h`, `36`, `90m`, `2d`; `5d` or `5` for days), in `unit` (h or d)."""
    found = _SPAN.match(text)
    if found is None:
        example = "36h, 90m or 2d" if unit == "h" else "5d"
        raise SettingError(f"{name} is a length of time such as {example}, not {text!r}")
    written, per = float(found[1]), (found[2] or unit)[0]
    hours = written / 60 if per == "m" else written * _IN_HOURS[per]
    return _whole(hours / 24 if unit == "d" else hours)


def _year(text: str) -> int:
    """A year as a GM writes it: `1905`, or `440 BC`, stored as the calendar stores years before Christ (-440)."""
    found = re.fullmatch(r"(\d+)\s*(bc|ad)?", text.replace(".", "").strip())
    if found is None:
        raise ValueError(text)
    return -int(found[1]) if found[2] == "bc" else int(found[1])


def _weekday(text: str) -> int:
    """A day as written: `mon`, `monday`, or its number (0 is Monday)."""
    for number, day in enumerate(_DAY_NAMES):
        if len(text) >= 3 and day.startswith(text):
            return number
    return int(text)


def _read(name: str, setting: Setting, text: str) -> Any:
    lowered = text.strip().lower()
    try:
        if setting.kind == "bool":
            if lowered in _TRUE | _FALSE:
                return lowered in _TRUE
            raise SettingError(f"{name} is on or off, not {text!r}")
        if setting.kind == "int":
            return int(lowered)
        if setting.kind == "year":
            return None if lowered in ("none", "off") else _year(lowered)
        if setting.kind == "number":
            return float(lowered) if "." in lowered else int(lowered)
        if setting.kind in ("hours", "days"):
            return _span(name, lowered, setting.kind[0])
        if setting.kind == "spans":
            parts = [part for part in lowered.replace(" ", "").split(",") if part]
            spans = [_span(name, part, "h") for part in parts if _SPAN.match(part)]
            if not spans or len(spans) < len(parts) or any(span <= 0 for span in spans):
                raise SettingError(f"{name} is {_KIND_WORDS['spans']}, not {text!r}")
            return sorted(set(spans), reverse=True)
        if setting.kind == "choice":
            if lowered not in setting.choices:
                raise SettingError(f"{name} is one of {', '.join(setting.choices)}, not {text!r}")
            return lowered
        if setting.kind == "zone":
            ZoneInfo(text.strip())
            return text.strip()
        if setting.kind == "time":
            hours, _, minutes = lowered.partition(":")
            if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60):
                raise SettingError(f"{name} is a time of day like 18:00, not {text!r}")
            return f"{int(hours):02d}:{int(minutes):02d}"
        if setting.kind == "weekdays":
            days = [_weekday(d) for d in lowered.replace(" ", "").split(",") if d]
            if not days or any(d < 0 or d > 6 for d in days):
                raise SettingError(f"{name} is a list of days (mon,tue,wed or 0-6, 0 is Monday), not {text!r}")
            return days
    except (ValueError, ZoneInfoNotFoundError) as exc:
        if isinstance(exc, SettingError):
            raise
        raise SettingError(f"{name} is {_KIND_WORDS[setting.kind]}, not {text!r}") from None
    return text.strip()


_KIND_WORDS = {
    "int": "a whole number",
    "year": "a year such as 1905 or 440 BC",
    "number": "a number",
    "hours": "a length of time such as 36h, 90m or 2d",
    "spans": "lengths of time such as 24h,6h,1h",
    "days": "a number of days such as 5d",
    "zone": "a time zone such as Europe/London",
    "time": "a time of day like 18:00",
    "weekdays": "a list of days such as mon,tue,wed,thu,fri",
    "bool": "on or off",
    "choice": "one of its choices",
    "text": "text",
}


def read_option(name: str, option: RuleOption, text: str) -> Any:
    """A rule option's value as written, matched against its choices: `edition=1982` is the choice "1982"; an
    option without choices is a whole number (`victory_centres=17`), which the rules bound."""
    if not option.choices:
        if text.strip().isdigit():
            return int(text.strip())
        raise SettingError(f"the rule option {name} is a whole number, not {text!r}")
    for choice in option.choices:
        if str(choice).lower() == text.strip().lower():
            return choice
    if isinstance(option.default, bool) or (option.choices and isinstance(option.choices[0], bool)):
        lowered = text.strip().lower()
        if lowered in _TRUE | _FALSE:
            return lowered in _TRUE
    choices = ", ".join(str(c).lower() for c in option.choices)
    raise SettingError(f"the rule option {name} is one of {choices}, not {text!r}")


def setting_name(name: str) -> str:
    """The setting a name means (`timing.manual`, `manual`, `grace`), or SettingError listing the real ones."""
    key = _ALIASES.get(name.strip().lower(), name.strip().lower())
    if key not in SETTINGS:
        raise SettingError(f"there is no setting {name!r}; the settings are: {', '.join(sorted(SETTINGS))}")
    return key


def apply_setting(settings: dict[str, Any], name: str, text: str) -> tuple[str, Any]:
    """Set `name` (dotted for nested settings) in `settings` from its written value; return the name and value."""
    key = setting_name(name)
    value = _read(key, SETTINGS[key], text)
    if key == "timing.manual":  # one switch, under both names
        settings.pop("manual", None)
    if key == "manual":
        timing = dict(settings.get("timing") or {})
        timing.pop("manual", None)
        settings["timing"] = timing
    parts = key.split(".")
    here = settings
    for part in parts[:-1]:
        nested = dict(here.get(part) or {})
        here[part] = nested
        here = nested
    if value is None:  # a setting cleared (`end.year=none`): its default again
        here.pop(parts[-1], None)
    else:
        here[parts[-1]] = value
    return key, value


def section(settings: dict[str, Any], name: str) -> dict[str, Any]:
    """One group of nested settings (`press`, `draw`, `absence`, `results`), empty where none is set."""
    value = settings.get(name)
    return value if isinstance(value, dict) else {}


def results_style(settings: dict[str, Any]) -> dict[str, str]:
    """How a game's results print orders and places (`results.orders`, `results.names`) and moments (in the
    game's zone, `timing.zone`), defaults filled in."""
    chosen = section(settings, "results")
    zone = str(section(settings, "timing").get("zone", "UTC"))
    return {
        "orders": str(chosen.get("orders", "zine")),
        "names": str(chosen.get("names", "short")),
        "zone": zone,
        "layout": str(chosen.get("layout", "zine")),
    }


def shows_orders_in(settings: dict[str, Any]) -> bool:
    """`web.orders_in`: the game's page tells whether each player's orders are in, as DPjudge's and webDiplomacy's
    pages do where the game allows it; off by default, since even that tells rivals who is still deciding."""
    return bool(section(settings, "web").get("orders_in", False))


def is_gunboat(settings: dict[str, Any]) -> bool:
    """`gunboat`: the players' names are kept from everyone but the GM (`judge.game.anonymity` reads it)."""
    return bool(settings.get("gunboat", False))


def reveals_at_end(settings: dict[str, Any]) -> bool:
    """`reveal_at_end`: a gunboat game names its players once it is over, as njudge's gunboat games do; off, as
    DPjudge's NO_REVEAL, the names stay hidden until the GM's REVEAL."""
    return bool(settings.get("reveal_at_end", True))


def is_unlisted(settings: dict[str, Any]) -> bool:
    """`unlisted`: left out of LIST, the site's list and its feed, as njudge's NOLIST; reachable by its name."""
    return bool(settings.get("unlisted", False))


def draws_allowed(settings: dict[str, Any]) -> bool:
    """`draw.allowed`: the players may draw the game by vote (njudge and DPjudge games always could: on)."""
    return bool(section(settings, "draw").get("allowed", True))


def concessions_allowed(settings: dict[str, Any]) -> bool:
    """`concede.allowed`: the players may concede the game (njudge's SET CONCEDE: on)."""
    return bool(section(settings, "concede").get("allowed", True))


def end_year(settings: dict[str, Any]) -> int | None:
    """`end.year`: the year whose last phase ends the game by centres (judge.game.year_end); None: no such year."""
    year = section(settings, "end").get("year")
    return int(year) if isinstance(year, int) and not isinstance(year, bool) else None


def is_private(settings: dict[str, Any]) -> bool:
    """`web.private`: the game's web pages are closed to whoever does not give its page password (which is not its
    join password: judge.game.web_access)."""
    return bool(section(settings, "web").get("private", False))


def shown(name: str, value: Any) -> str:
    """A setting's value as a GM writes it, and as SET reads it back unchanged (issue 40: `auto_start=True` was
    Python's): on/off, `36h`, `90m`, `5d`, `mon,tue,wed`, `18:00`."""
    kind = SETTINGS[name].kind if name in SETTINGS else type(value).__name__
    if isinstance(value, bool):
        return "on" if value else "off"
    if kind in ("hours", "days") and isinstance(value, int | float):
        return _shown_span(name, value, kind[0])
    if kind == "spans" and isinstance(value, list):
        return ",".join(_shown_span(name, span, "h") for span in value)
    if kind == "year" and value is None:
        return "none"
    if kind == "year" and isinstance(value, int):
        return f"{-value} BC" if value < 0 else str(value)
    if kind == "weekdays" and isinstance(value, list):
        return ",".join(_DAYS[d] if isinstance(d, int) and 0 <= d < 7 else str(d) for d in value)
    return str(value)


def _shown_span(name: str, value: float, unit: str) -> str:
    """A length of time as a GM writes it: `36h`, `5d`, or `90m` where hours would not be whole."""
    written = f"{value:g}{unit}"
    if unit == "h" and _span(name, written, unit) != value:
        written = f"{round(value * 60)}m"
    return written


def shown_option(value: Any) -> str:
    """A rule option's value as a GM writes it at CREATE or SET (`edition=1982`, `bonus=on`)."""
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def shown_pairs(options: dict[str, Any], settings: dict[str, Any]) -> tuple[str, str]:
    """The rule options and the given settings (`given_settings`) as `name=value, ...` in a GM's words, each
    empty where there is none: CREATE's reply, LIST, STATUS and the web page show them so."""
    chosen = ", ".join(f"{k}={shown_option(v)}" for k, v in sorted(options.items()))
    given = ", ".join(f"{k}={shown(k, v)}" for k, v in settings.items())
    return chosen, given


def help_lines() -> list[str]:
    """Every setting with how it is written and what it does, for HELP SET."""
    lines = []
    for key, s in sorted(SETTINGS.items()):
        what = ", ".join(s.choices) if s.choices else _KIND_WORDS[s.kind]
        lines.append(f"  {key} ({what}): {s.description}")
    return lines


DEFAULT_SETTINGS: dict[str, Any] = {
    "abandon_after": 3,  # consecutive phases without orders before a power is marked abandoned
    "auto_start": True,  # start (and assign powers) when the last player joins
}


def given_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The settings a GM gave (those not the judge's defaults), flat (`timing.zone`). Only what SET takes is kept
    in the settings (the judge's marks and the players' state have columns of their own: `Game.marks`,
    `Game.absences` ...); a name SET does not know, put there by hand, is shown too, for the GM to see it."""
    flat: dict[str, Any] = {}

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), inner)
        else:
            flat[prefix] = value

    for key, value in settings.items():
        if DEFAULT_SETTINGS.get(key, _NONE) == value:
            continue
        walk(key, value)
    return dict(sorted(flat.items()))


_NONE = object()
