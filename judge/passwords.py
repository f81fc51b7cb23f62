"""Password hashing with the standard library's scrypt: players' and games' passwords are never stored."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections import OrderedDict

_N, _R, _P = 2**14, 8, 1


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${salt.hex()}${digest.hex()}"


_VERIFIED: OrderedDict[bytes, bool] = OrderedDict()
_VERIFIED_MAX = 10_000
_PEPPER = secrets.token_bytes(32)
"""a per-process key: the memo of checked passwords holds only keyed digests, useless outside this process"""


def _memo_key(password: str, stored: str) -> bytes:
    return hmac.new(_PEPPER, stored.encode() + b"\0" + password.encode("utf-8"), hashlib.sha256).digest()


def verify_password(password: str, stored: str) -> bool:
    """scrypt costs ~60 ms on purpose; a player who signs on with every order mail pays it once per process
    (the memo of checks), so the judge keeps up with a deadline's rush of mail. Refusals are remembered too: the
    outcome for one password and one stored hash never changes, and a player whose mail client keeps sending an
    old password would otherwise cost the judge 60 ms with every mail, while the mail's batch waits."""
    key = _memo_key(password, stored)
    known = _VERIFIED.get(key)
    if known is not None:
        _VERIFIED.move_to_end(key)
        return known
    outcome = _verify(password, stored)
    _VERIFIED[key] = outcome
    if len(_VERIFIED) > _VERIFIED_MAX:
        _VERIFIED.popitem(last=False)
    return outcome


def _verify(password: str, stored: str) -> bool:
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    candidate = hashlib.scrypt(
        password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=len(digest) // 2
    )
    return hmac.compare_digest(candidate.hex(), digest)
