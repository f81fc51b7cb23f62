"""The SET commands: a game's settings and, before it starts, its rule options (the GM); a player's own choices
(SET WAIT, SET PICTURES, SET ABSENCE)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from judge.clock import as_utc
from judge.contract.adjudicate import CaseError, read_position
from judge.engine.phase import Phase
from judge.engine.supply import powers_to_order
from judge.game.attendance import AbsenceError, absence_of, absences, extended_deadline, stored
from judge.game.attendance import mode as absence_mode
from judge.game.end_rules import RUNNING_OPTIONS, check_end_year, check_refused, ending_changed
from judge.game.errors import GameError
from judge.game.events import DeadlineMoved, PressRulesChanged
from judge.game.house_rules import PressRules
from judge.game.settings import SettingError, apply_setting, is_gunboat, is_private, read_option, shown, shown_option
from judge.game.store import position_of, rules_of
from judge.game.timing import timing_from_settings
from judge.game.use_case import UseCase, audience_of, seat_of, side_of
from judge.store import GameStatus
from judge.variants import get_variant


@dataclass(frozen=True)
class Changed:
    """One setting or rule option SET changed, and its value as SET reads it back (`shown`, `shown_option`)."""

    name: str
    value: str
    rule_option: bool = False


@dataclass(frozen=True)
class Settled:
    """What `SET name=value ...` changed, for the GM's reply to word."""

    changed: tuple[Changed, ...]
    no_page_password: bool = False
    """the game's pages are private and no page password is set yet: they open to nobody until the GM sets one"""
    dropped_draws: tuple[str, ...] = ()
    """the sides whose draw votes were dropped as the GM turned draws off (his reply alone names them)"""
    dropped_concessions: tuple[str, ...] = ()
    """the sides whose concessions were dropped as the GM turned concessions off"""


class Setup(UseCase):
    def place_imported(self, name: str, position: dict[str, Any]) -> None:
        """The position a forming game starts from, read from another judge's mails (`judge import`, issue 45: a
        GM moving a running game here): checked against the variant's rules now, kept as the game's position
        until it starts (a forming game has none of its own)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status != GameStatus.FORMING:
                raise GameError(f"{name} has already started")
            phase = position.get("phase") or {}
            try:
                rules = get_variant(game.variant).rules(game.options)
                read_position(
                    rules, position, Phase.parse(str(phase["season"]), int(phase["year"]), str(phase["type"]))
                )
            except (CaseError, KeyError, ValueError) as exc:
                raise GameError(f"the imported position is not one of {game.variant}: {exc}") from None
            game.position = {**position, "variant": game.variant}

    def set_by_mail(self, name: str, pairs: Sequence[tuple[str, str]]) -> Settled:
        """`SET name=value ...` as written: each name a setting (`judge.game.settings`) or a rule option (before
        the start), each value read as its kind. All or nothing: a wrong name or value refuses the lot."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            options = dict(game.options)
            settings = dict(game.settings)
            variant = get_variant(game.variant)
            told: list[Changed] = []
            try:
                for key, text in pairs:
                    option = variant.options.get(key.strip().lower())
                    if option is not None:
                        if game.status != GameStatus.FORMING and key.strip().lower() not in RUNNING_OPTIONS:
                            raise GameError(f"the rule option {key} can only be changed before {name} starts")
                        options[key.strip().lower()] = read_option(key, option, text)
                        chosen = shown_option(options[key.strip().lower()])
                        told.append(Changed(key.strip().lower(), chosen, rule_option=True))
                        continue
                    check_refused(game.variant, key)
                    setting, value = apply_setting(settings, key, text)
                    told.append(Changed(setting, shown(setting, value)))
                variant.rules(options)
                check_end_year(game, settings)
            except (SettingError, ValueError) as exc:
                raise GameError(str(exc)) from None
            if is_gunboat(settings) and not is_gunboat(game.settings) and game.status != GameStatus.FORMING:
                raise GameError(f"{name} has started and its start named its players: gunboat is set before the start")
            before = PressRules.of(game.settings)
            ending = ending_changed(s, game, options, settings)
            game.options = options
            game.settings = settings
            press = tuple((c.name, c.value) for c in told if c.name.startswith("press."))
            if press and game.status != GameStatus.FORMING and PressRules.of(settings) != before:
                # the players are told the press rules, whether the GM reads their press above all: never silently
                self.raise_event(s, game, PressRulesChanged(game=name, changed=press, audience=audience_of(game)))
            if ending is not None:  # the players are told how the game may end now, and what votes no longer stand
                self.raise_event(s, game, ending)
            return Settled(
                tuple(told),
                is_private(settings) and game.page_password_hash is None,
                ending.dropped_draws if ending else (),
                ending.dropped_concessions if ending else (),
            )

    def set_comment(self, name: str, comment: str | None) -> None:
        """The GM's comment on the game (`SET COMMENT`; None clears it): the `comment` setting, as LIST shows it."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            settings = dict(game.settings)
            settings.pop("comment", None)
            if comment:
                apply_setting(settings, "comment", comment)
            game.settings = settings

    def set_note(self, name: str, note: str | None) -> None:
        """The GM's note, printed with every results mail until changed (`NOTE`; None clears it)."""
        with self.store.write() as s:
            self.store.lock(s, name).note = note or None

    def set_wait(self, name: str, power: str, wait: bool) -> None:
        with self.store.write() as s:
            seat_of(self.store.lock(s, name), power).wait = wait

    def set_pictures(self, name: str, powers: Sequence[str], wanted: bool) -> None:
        """A player's choice of map pictures on the results mails of these powers (`SET PICTURES ON|OFF`)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            off = set(game.pictures_off) - set(powers)
            if not wanted:
                off |= set(powers)
            game.pictures_off = sorted(off)

    def set_layout(self, name: str, powers: Sequence[str], njudge: bool) -> None:
        """A player's choice of njudge's layout for his results and start mails (`SET LAYOUT NJUDGE|ZINE`), beside
        the game's `results.layout` (issue 45)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            chosen = set(game.njudge_layout) - set(powers)
            if njudge:
                chosen |= set(powers)
            game.njudge_layout = sorted(chosen)

    def set_absence(self, name: str, power: str, first: date | None, last: date | None) -> datetime | None:
        """Record that the player of `power` is away from `first` to `last` (whole days in the game's zone), or
        (None) is not. Returns the current phase's deadline when the absence moved it. An absence is the player's:
        it is kept for every power of his side (a Hepta player away is away for his seven board-nations), so
        that what it does is reckoned per power owed (`judge.game.attendance`)."""
        with self.store.write() as s:
            game = self.store.lock(s, name)
            if game.status == GameStatus.FINISHED:
                raise GameError(f"{name} is over")
            seat_of(game, power)
            side = set(side_of(game, power).powers) | {power}
            now = self.clock.now()
            kept = {a.power: stored(a) for a in absences(game.absences) if a.power not in side and as_utc(a.end) > now}
            zone = timing_from_settings(game.settings).tz
            if first is not None and last is not None:
                try:
                    absence = absence_of(power, first, last, zone)
                except AbsenceError as exc:
                    raise GameError(str(exc)) from None
                if absence.end <= now:
                    raise GameError("that absence is over already")
                kept.update((each, stored(absence)) for each in sorted(side))
            game.absences = kept
            if game.status != GameStatus.ACTIVE or game.deadline is None or first is None:
                return None
            due = powers_to_order(rules_of(game), position_of(game))
            moved = extended_deadline(game.settings, game.absences, as_utc(game.deadline), due & side)
            if moved is not None:
                game.deadline = moved
                event = DeadlineMoved(
                    game=name, deadline=moved, zone=zone.key, why="absence", audience=audience_of(game)
                )
                self.raise_event(s, game, event)
            return moved

    def zone(self, name: str) -> ZoneInfo:
        """The game's time zone (its `timing.zone` setting), for deadlines written without one."""
        return timing_from_settings(self._settings(name)).tz

    def absence_mode(self, name: str) -> str:
        """What an absence does in a game (`absence.mode`): extend deadlines or hold the power's units."""
        return absence_mode(self._settings(name))

    def _settings(self, name: str) -> dict[str, Any]:
        with self.store.plain() as s:
            return dict(self.store.peek(s, name).settings)
