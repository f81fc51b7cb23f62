"""The `email` policies the judge reads and writes mail with: the standard library's `policy.default`, with two
costs taken out that made header handling most of the time a deadline's rush of order mail took.

1. `HeaderRegistry` builds a new class for every header it makes (`type(...)` on each lookup); the registry here
   builds each once. The header objects and what they parse are the library's own.
2. When writing, a value that is already a plain single line of printable ASCII short enough not to need folding
   is stored as it is, instead of being parsed into a structured header only to be written back out unchanged.
   Anything else -- non-ASCII text, long values, and every Content-* header, which the generator reads back --
   takes the library's path. A CR, LF or any other control character never takes the short path, so the
   library's refusal of header values that could start a new header still stands for all of them.
3. `set_text` gives a body of plain ASCII lines short enough for 7bit the headers `set_content` would give it,
   as header objects made once, instead of building and re-parsing the Content-Type for every mail.
4. `message_bytes` writes a mail made only of such values -- every header a value stored by 2., or one of 3.'s --
   as the generator would, without it: the generator's header folding and its nine readings of the Content-Type were
   a sixth of the time a rush's order mail took to answer. Any other mail is the generator's.

Each shortcut is checked against the library by tests that compare the bytes written and the values read.
"""

from __future__ import annotations

import re
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import EmailPolicy
from typing import Any

_CONTROLS = re.compile(r"[\x00-\x1f\x7f]")


class _CachedRegistry(HeaderRegistry):
    def __init__(self) -> None:
        super().__init__()
        self._classes: dict[str, type[BaseHeader]] = {}

    def __getitem__(self, name: str) -> type[BaseHeader]:
        key = name.lower()
        found = self._classes.get(key)
        if found is None:
            found = self._classes[key] = super().__getitem__(name)
        return found


def _short(name: str, value: str, max_line_length: int = 78) -> bool:
    """A value stored as it stands (2. of the module's docstring): one short line of printable ASCII that no
    parser would change, written by the generator as "name: value"."""
    return (
        bool(value)
        and value.isascii()
        and "=?" not in value  # what looks like an encoded word is re-encoded by the library
        and not name.lower().startswith("content-")
        and len(name) + len(value) + 2 <= max_line_length
        and not _CONTROLS.search(value)
    )


class _WritingPolicy(EmailPolicy):
    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if isinstance(value, str) and _short(name, value, self.max_line_length or 998):
            return name, value
        return super().header_store_parse(name, value)


_READING_HEADERS = _CachedRegistry()
READING = EmailPolicy(header_factory=_READING_HEADERS)
"""`policy.default` for reading headers"""
WRITING = _WritingPolicy(header_factory=_CachedRegistry())
"""`policy.default` for the mail the judge builds (`EmailMessage(policy=WRITING)`)"""


def is_unstructured(name: str) -> bool:
    """Whether `policy.default` reads this header as plain text (Subject, Precedence, X-..., any unknown name)
    rather than as addresses, a date, an id or parameters."""
    return issubclass(_READING_HEADERS[name], UnstructuredHeader)


_TEXT_PLAIN = WRITING.header_factory("Content-Type", 'text/plain; charset="utf-8"')
_SEVEN_BIT = WRITING.header_factory("Content-Transfer-Encoding", "7bit")


_FOLDED = {id(header): WRITING.fold_binary(header.name, header) for header in (_TEXT_PLAIN, _SEVEN_BIT)}
"""3.'s header objects as the generator writes them (a header object is folded the same way every time)"""


def message_bytes(message: EmailMessage) -> bytes:
    """`bytes(message)`, written directly where the mail is one plain 7bit text part whose every header value took
    a short path (2. or 3. of the module's docstring); by the generator otherwise."""
    written = written_directly(message)
    return written if written is not None else bytes(message)


def written_directly(message: EmailMessage) -> bytes | None:
    """The mail's bytes as the generator writes them, written without it; None where it takes the generator."""
    payload = message.get_payload()  # the text itself: no transfer encoding is undone without decode=True
    if message.policy is not WRITING or not isinstance(payload, str) or not payload.isascii() or "\r" in payload:
        return None
    if message.get("Content-Transfer-Encoding") is not _SEVEN_BIT:
        return None
    written = []
    for name, value in message.raw_items():
        if type(value) is str:  # (a header object is a str too)
            if not _short(name, value):
                return None
            written.append(f"{name}: {value}\n".encode("ascii"))
            continue
        folded = _FOLDED.get(id(value))  # (the two objects live as long as the module: their ids are theirs)
        if folded is None:
            return None
        written.append(folded)
    written.append(b"\n")
    written.append(payload.encode("ascii"))
    return b"".join(written)


def set_text(message: EmailMessage, body: str) -> None:
    """`message.set_content(body)`, as a text/plain UTF-8 part."""
    lines = body.encode("utf-8").splitlines()
    if not body.isascii() or any(len(line) > (message.policy.max_line_length or 998) for line in lines):
        message.set_content(body)  # quoted-printable or base64: the library decides
        return
    message["Content-Type"] = _TEXT_PLAIN
    message["Content-Transfer-Encoding"] = _SEVEN_BIT
    if "MIME-Version" not in message:
        message["MIME-Version"] = "1.0"
    message.set_payload(b"\n".join(lines).decode("ascii") + "\n")
