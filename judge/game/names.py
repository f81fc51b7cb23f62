"""The names people choose that other people read: a player's name (REGISTER) and a game's name (CREATE).

A name is read by everyone else in the games list, a game's page, LIST and the game-start mail, so what it may hold
is the judge's business (issue 41):

- it is normalised: NFKC (a full-width `ａｌｐｈａ` is `alpha`, a ligature its letters), its spaces collapsed;
- it holds nothing invisible or that moves other text: no control, format (zero-width, soft hyphen, byte-order
  mark), bidi embedding, override or isolate, private-use or unassigned character; a right-to-left override
  would reverse the rest of the line that shows it, a zero-width space would make a second `alpha` that is not
  `alpha`. Such a name is refused (naming the character), not quietly mended: the player learns what was wrong;
- it is bounded (`PLAYER_NAME_LIMIT`, `GAME_NAME_LIMIT`; at most `MARKS_LIMIT` combining marks on one letter);
- it may not look like a name already taken: two names whose confusable skeletons (Unicode UTS #39, through
  ICU's spoof checker) are equal, case aside, are one name (`look_alike_key`).

A game's name is also typed in every SIGNON and JOIN and is part of the site's addresses: it is ASCII letters and
digits, as njudge's and DPjudge's are, which any keyboard and any mail client writes.

Names stored before these rules keep working: no name is changed (migration 0009 only stores each one's key, and
two old names alike keep theirs), so a running game's players sign on as before; `as_shown` is what they show as,
so an old name's override or zero-width characters move nothing in a page or a mail either.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from typing import Any

from judge.game.errors import GameError

PLAYER_NAME_LIMIT = 40
"""characters in a player's name: room for "Anna Maria de la Cruz Fernández" and more, not for a paragraph"""
GAME_NAME_LIMIT = 32
"""characters in a game's name (CREATE's rule before issue 41; njudge's are 8)"""
MARKS_LIMIT = 3
"""combining marks on one letter: ordinary writing needs fewer after NFKC; more stack over the lines around"""

KEY_LIMIT = 480
"""the stored key's length (`players.name_key`, `games.name_key`): a skeleton may be longer than its name"""

_INVISIBLE = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""the general categories a name may not hold, and what the refusal calls them"""
_BIDI_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})
"""the bidi classes of the embeddings, overrides and isolates (all of them format characters, refused as such)"""


class NameRefused(GameError):
    """A name the judge will not take; the message says why and what to do."""


def player_name(text: str) -> str:
    """A player's name as REGISTER stores it, or NameRefused saying why not."""
    name = _normalised(text, "your name")
    if "@" in name:
        raise NameRefused("give your name, not an address: the name is shown to the other players")
    if len(name) > PLAYER_NAME_LIMIT:
        raise NameRefused(f"a name is at most {PLAYER_NAME_LIMIT} characters; yours has {len(name)}")
    if not any(unicodedata.category(c)[0] in "LN" for c in name):
        raise NameRefused("a name needs a letter or a digit")
    return name


def game_name(text: str) -> str:
    """A game's name as CREATE stores it (lower case), or NameRefused saying why not."""
    name = _normalised(text, "the game's name").lower()
    if len(name) > GAME_NAME_LIMIT:
        raise NameRefused(f"a game's name is at most {GAME_NAME_LIMIT} characters; this one has {len(name)}")
    odd = next((c for c in name if not (c.isascii() and c.isalnum())), None)
    if odd is not None:
        raise NameRefused(f"a game's name is letters a-z and digits 0-9 only, and {_code_point(odd)} is neither")
    return name


def _normalised(text: str, what: str) -> str:
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not name:
        raise NameRefused(f"{what} is empty")
    for c in name:
        kind = _INVISIBLE.get(unicodedata.category(c))
        if unicodedata.bidirectional(c) in _BIDI_CONTROLS:
            kind = "a character that changes the direction of the text after it"
        if kind is not None:
            raise NameRefused(f"{what} holds {kind}, {_code_point(c)}: write it without")
    marks = 0
    for c in name:
        marks = marks + 1 if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me") else 0
        if marks > MARKS_LIMIT:
            raise NameRefused(f"{what} stacks more than {MARKS_LIMIT} accents on one letter")
    return name


def _code_point(c: str) -> str:
    return f"U+{ord(c):04X} {unicodedata.name(c, 'without a name')}"


def as_shown(name: str) -> str:
    """A stored name as others read it, in a page or a mail: what the rules above refuse today dropped (a name
    stored before them may hold a right-to-left override or a zero-width space), its spaces collapsed, and cut
    at `PLAYER_NAME_LIMIT` characters. A name stored under today's rules is shown as it is."""
    kept = "".join(c for c in name if unicodedata.category(c) not in _INVISIBLE or c.isspace())
    shown = " ".join(kept.split())
    return shown if len(shown) <= PLAYER_NAME_LIMIT else shown[: PLAYER_NAME_LIMIT - 1] + "…"


UNNAMED = "a player"
"""what the public pages show for a name that holds an address"""


def shown_name(name: str) -> str:
    """A player's name as the public pages show it: never an address. REGISTER refuses a name with an `@` in it,
    but a name given before that rule, or written in by an operator, may still hold one -- the player's own or
    someone else's -- and addresses are never shown to another person. Otherwise the name as anyone sees it
    (judge.game.names.as_shown: an old name's invisible characters dropped, its length bounded)."""
    return UNNAMED if "@" in name else as_shown(name)


def look_alike_key(name: str) -> str:
    """What two names that look alike share: the UTS #39 skeleton (ICU's) of the name as shown, with case folded
    between two skeletons -- so `GM`, `GМ` (a Cyrillic Em), `gm` and `Gm` share one, and so do `alpha`, `аlpha`
    (a Cyrillic a), `a1pha` and `ALPHA`. A capital I is an l to the skeleton (`AIice` is `Alice`) and an i to
    case folding (`SMITH` is `Smith`): both are right, so i and l are one letter here, and two names that differ
    only there count as alike."""
    checker = _spoof_checker()
    shown = as_shown(unicodedata.normalize("NFKC", name))
    folded = str(checker.getSkeleton(0, str(checker.getSkeleton(0, shown)).casefold()))
    return folded.replace("i", "l")[:KEY_LIMIT]


@lru_cache(maxsize=1)
def _spoof_checker() -> Any:
    """ICU's spoof checker, loaded on the first name checked (REGISTER and CREATE only: nothing else pays for it)."""
    import icu

    return icu.SpoofChecker()
