"""Reading incoming mail: any bytes in, an `IncomingMail` out, never an exception.

The judge reads whatever arrives: mail from every client there is, bounces, vacation replies, list traffic,
spam and broken or hostile MIME. `read_mail` uses only the standard library, guards every header and body
access, and keeps only what the judge acts on: who sent it, what it answers, and the command lines.

Kind, first match wins:

OWN, so the judge never answers itself in a loop:
  - the loop header (`X-Judge-Loop` unless told otherwise) is present with any value: the judge stamps every
    mail it sends with it, so a copy that comes back (an alias, a list, a forward) is recognised;
  - a From address equal to the judge's own address, for copies that lost the header on the way.
BOUNCE, a delivery failure, handed to the bounce handling and never read as commands:
  - no usable From address and a Return-Path of "<>": the null envelope sender is what RFC 5321 prescribes for
    delivery reports (the empty From alone is not enough; RFC 3834 auto-replies also use "<>");
  - a From local part MAILER-DAEMON or postmaster (any case): the conventional senders of bounces;
  - Content-Type multipart/report with report-type=delivery-status: the RFC 3462 / 3464 report format;
  - a message/delivery-status (or RFC 6533 message/global-delivery-status) part anywhere: a report whose
    outer type some relay rewrote.
AUTO_REPLY, never answered, so two robots cannot mail each other forever:
  - Auto-Submitted present and not "no": RFC 3834, set by auto-responders and vacation programs;
  - Precedence bulk, junk or list: the older de facto marker that well-behaved responders honour;
  - X-Autoreply or X-Autorespond present: set by common vacation and autoresponder programs;
  - X-Auto-Response-Suppress with All or OOF: Exchange marks its automatic mail this way;
  - List-Id or List-Unsubscribe present: mailing-list traffic (RFC 2919 / 2369) is never a player's orders;
  - a Subject starting with a vacation marker ("Auto:", "Automatic reply:", "Out of Office",
    "Abwesenheitsnotiz", "Réponse automatique"): responders that set none of the headers above.
UNREADABLE: no header at all (not a mail), or the email package failed on it; whatever headers could be read
  are still filled in, the lines are empty.
ORDINARY: everything else.

The command lines come from the first text/plain part that is not an attachment (HTML only when there is no
non-blank text/plain), never from attached messages. Reading stops at a signature separator or at the start
of a quoted reply (attribution line, Outlook separators, "Sent from my ..."), quoted ">" lines are dropped,
and at most `max_bytes` of the part and `max_lines` lines are read (`truncated` says so). Orders written
below a quoted message (bottom-posting) are therefore not read: reading on past an attribution line would
read the judge's own quoted mail as orders whenever a client quotes without ">".

Keeping one mail from stalling or breaking the judge:
  - at most 4 * max_bytes + 256 KiB of the raw mail is parsed (the parser's cost grows with the line count);
  - header values are decoded with `policy.default` (encoded words, address lists), falling back to a
    `compat32` reading where its parser raises (it does on some hostile Content-Type parameters);
  - the MIME structure is parsed with `compat32`: policy.default builds a structured Content-Type header
    for every part while parsing, 15-50 times slower on many-part mail, and raises on hostile values;
  - at most 1000 MIME parts are looked at; attachments are never decoded;
  - a body is decoded with its declared charset if that fits, else UTF-8, else Latin-1; Python codecs that
    are no mail charset (punycode is quadratic) are ignored; NUL and other control characters are removed;
  - HTML goes through a linear tokenizer (judge.mail.html_text), not html.parser.
"""

from __future__ import annotations

import base64
import codecs
import re
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesHeaderParser, BytesParser
from email.utils import collapse_rfc2231_value, getaddresses, parseaddr, parsedate_to_datetime
from enum import StrEnum
from functools import lru_cache
from typing import Any

from judge.mail.html_text import html_to_text
from judge.mail.policies import READING, is_unstructured


class MailKind(StrEnum):
    ORDINARY = "ordinary"
    BOUNCE = "bounce"
    AUTO_REPLY = "auto_reply"
    OWN = "own"  # sent by this judge
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class IncomingMail:
    message_id: str | None  # the <...> of the Message-ID header, angle brackets kept
    sender: str | None  # the one From address, lower-cased; None if missing, unparseable or more than one
    sender_name: str
    reply_to: str | None  # the first valid Reply-To address, lower-cased
    subject: str
    date: datetime | None  # always timezone-aware
    references: list[str]  # the <...> ids of References then In-Reply-To, in order, without repeats
    lines: list[str]  # the command text
    truncated: bool  # the body was cut at max_bytes or max_lines
    kind: MailKind


_RAW_FACTOR, _RAW_HEADROOM = 4, 256 * 1024  # how much of a mail is parsed: 4 * max_bytes and room for headers
# Python codecs that are no mail charset: ascii (read as undeclared), punycode (quadratic: a 1 MB body would
# take minutes), idna, and the escape codecs (they turn "\n" in the text into line breaks).
_NOT_MAIL_CHARSETS = frozenset({"ascii", "punycode", "idna", "unicode-escape", "raw-unicode-escape"})
_MAX_PARTS = 1000  # a MIME tree bigger than this is not a player's mail; the rest is not looked at
_ATTRIBUTION_MAX = 400  # longer lines are not attribution lines (and keep the regex linear)

_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x9f]")  # C0 except tab and line breaks, DEL, C1
_HEADER_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")  # anything that could end a header line
_SURROGATES = re.compile("[\ud800-\udfff]")
_HEADER_END = re.compile(rb"\r?\n\r?\n")
_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
_ADDRESS = re.compile(r"[^@\s]+@[^@\s]+")
_DOT_ATOM = r"[A-Za-z0-9_%+-]+(?:\.[A-Za-z0-9_%+-]+)*"
_SIMPLE_MAILBOX = re.compile(
    rf"(?:(?P<name>[A-Za-z0-9]+(?: [A-Za-z0-9]+)*) )?<(?P<address>{_DOT_ATOM}@{_DOT_ATOM})>"
    rf"|(?P<bare>{_DOT_ATOM}@{_DOT_ATOM})"
)
"""one mailbox written in the plainest way: a display name of letters and digits (or none) and a dot-atom
address in angle brackets, or the bare address"""
_NULL_PATH = re.compile(r"<\s*>")
_ATTRIBUTION = re.compile(r"(?:On|Le|Am|El|Il|Op)\s.*\b(?:wrote|a\s+écrit|schrieb|escribió|ha\s+scritto|schreef)\b.*:")
_REPLY_START = re.compile(
    r"-{2,}\s*(?:Original Message|Forwarded message)\s*-{2,}|_{10,}|Sent from my\s.*|Get Outlook for\s.*",
    re.IGNORECASE,
)
_VACATION_SUBJECTS = tuple(
    s.casefold() for s in ("Auto:", "Automatic reply:", "Out of Office", "Abwesenheitsnotiz", "Réponse automatique")
)


def read_mail(
    raw: bytes,
    *,
    own_address: str,
    loop_header: str = "X-Judge-Loop",
    max_bytes: int = 1_000_000,
    max_lines: int = 500,
) -> IncomingMail:
    """Read one mail as it came off the wire. Never raises."""
    try:
        return _read(bytes(raw), own_address, loop_header, max_bytes, max_lines)
    except Exception:  # the last line of defence (seen: RecursionError on absurdly nested MIME)
        try:
            return _incoming(
                _Headers.of_block(_header_block(bytes(raw)[:_RAW_HEADROOM])), MailKind.UNREADABLE, [], truncated=False
            )
        except Exception:
            return IncomingMail(None, None, "", None, "", None, [], [], False, MailKind.UNREADABLE)


def _read(raw: bytes, own_address: str, loop_header: str, max_bytes: int, max_lines: int) -> IncomingMail:
    limit = _RAW_FACTOR * max_bytes + _RAW_HEADROOM
    raw_cut = len(raw) > limit
    if raw_cut:  # cut at a line end; the rest of a huge mail is never looked at
        raw = raw[: raw.rfind(b"\n", 0, limit) + 1 or limit]
    msg = BytesParser(policy=policy.compat32).parsebytes(raw)
    headers = _Headers(msg)
    if not msg.keys():
        return _incoming(headers, MailKind.UNREADABLE, [], truncated=False)
    text, cut = _body_text(msg, max_bytes, raw_cut)
    lines, capped = _command_lines(text, max_lines)
    return _incoming(headers, _kind(msg, headers, own_address, loop_header), lines, truncated=cut or capped)


# --- headers ---------------------------------------------------------------------------------------------


def _no_surrogates(value: str) -> str:
    """Text that can be encoded: raw bytes the parser smuggled through as surrogates are read as UTF-8, and
    lone surrogates a codec made (utf-7, unicode_escape in an encoded word) become U+FFFD."""
    if not _SURROGATES.search(value):
        return value
    try:
        return value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:
        return _SURROGATES.sub("\ufffd", value)


def _one_line(value: str) -> str:
    """A header value on one line: no CR, LF or other control character, whitespace runs collapsed."""
    return " ".join(_HEADER_BREAKS.sub(" ", _no_surrogates(value)).split())


def _decode_words(value: str) -> str:
    """Decode RFC 2047 encoded words leniently; on any failure the value as it stands."""
    try:
        return str(make_header(decode_header(value)))
    except Exception:
        return value


def _header_block(raw: bytes) -> bytes:
    end = _HEADER_END.search(raw)
    return raw if end is None else raw[: end.end()]


class _Headers:
    """Header values of the top-level message, decoded and on one line. No method raises.

    The header block is split by the lenient `compat32` parser, which never fails on it; each value is then read
    as `policy.default` reads it (encoded words, address lists), and where that parser trips over a hostile
    value, leniently (`decode_header`, `getaddresses`) instead. Values are read once, when first asked for.
    """

    def __init__(self, message: Message | None) -> None:
        self._raw: dict[str, list[str]] = {}
        self._memo: dict[tuple[str, str], Any] = {}
        with suppress(Exception):
            for name, value in message.raw_items() if message is not None else ():
                self._raw.setdefault(name.lower(), []).append(str(value))

    @classmethod
    def of_block(cls, head: bytes) -> _Headers:
        message = None
        with suppress(Exception):
            message = BytesHeaderParser(policy=policy.compat32).parsebytes(head)
        return cls(message)

    def _structured(self, name: str) -> list[Any]:
        return list(self._remembered("structured", name, self._parse))

    def _parse(self, name: str) -> list[Any]:
        return [READING.header_fetch_parse(name, value) for value in self._raw.get(name, [])]

    def _remembered(self, kind: str, name: str, read: Any) -> Any:
        key = (kind, name.lower())
        if key not in self._memo:
            self._memo[key] = read(name.lower())
        return self._memo[key]

    def all(self, name: str) -> list[str]:
        if name.lower() not in self._raw:  # most headers asked for are absent (Auto-Submitted, List-Id, ...)
            return []
        return list(self._remembered("all", name, self._all))

    def _all(self, name: str) -> list[str]:
        values = self._raw.get(name, [])
        if all(_plain_text(value) for value in values) and is_unstructured(name):
            return [_one_line(value) for value in values]  # what the parser would give, without it
        with suppress(Exception):
            return [_one_line(str(v)) for v in self._structured(name)]
        with suppress(Exception):
            return [_one_line(_decode_words(v)) for v in self._raw.get(name, [])]
        return []

    def get(self, name: str) -> str | None:
        values = self.all(name)
        return values[0] if values else None

    def count(self, name: str) -> int:
        return len(self._raw.get(name.lower(), []))

    def written(self, name: str) -> str | None:
        """The first value as written, on one line: for the headers the judge reads with its own pattern
        (Message-ID) or date parser, where a structured reading first would only be thrown away."""
        values = self._raw.get(name.lower())
        return _one_line(values[0]) if values else None

    def addresses(self, name: str) -> list[tuple[str, str]]:
        """(display name, address) of every mailbox in every `name` header."""
        return list(self._remembered("addresses", name, self._addresses))

    def _addresses(self, name: str) -> list[tuple[str, str]]:
        values = self._raw.get(name, [])
        simple = [_SIMPLE_MAILBOX.fullmatch(value.strip()) for value in values]
        if all(simple):  # the usual "Name <a@b.c>" or "a@b.c": read as the parser would, without it
            return [(found["name"] or "", found["address"] or found["bare"]) for found in simple if found]
        with suppress(Exception):
            return [
                (_one_line(a.display_name), _one_line(a.addr_spec))
                for header in self._structured(name)
                for a in header.addresses
            ]
        with suppress(Exception):
            found = getaddresses(self._raw.get(name, []))
            return [(_one_line(_decode_words(n)), _one_line(a)) for n, a in found]
        return []


def plain_address(value: str) -> str | None:
    """The address of a mailbox written the plainest way (`_SIMPLE_MAILBOX`), as the parser would read it, without
    it; None for any other writing."""
    found = _SIMPLE_MAILBOX.fullmatch(value.strip())
    return (found["address"] or found["bare"]) if found else None


def _plain_text(value: str) -> bool:
    """Printable ASCII with no encoded word in it: a value an unstructured header's parser leaves as it is."""
    return value.isascii() and "=?" not in value


def _valid_address(address: str) -> str | None:
    return address.lower() if _ADDRESS.fullmatch(address) else None


def _date(value: str | None) -> datetime | None:
    if not value:
        return None
    try:
        moment = parsedate_to_datetime(value)
    except Exception:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)  # "-0000": UTC, zone unknown


def _incoming(headers: _Headers, kind: MailKind, lines: list[str], *, truncated: bool) -> IncomingMail:
    froms = headers.addresses("from")
    sender_name, sender = "", None
    if len(froms) == 1 and headers.count("from") == 1:  # two From addresses: nobody to trust
        sender_name, sender = froms[0][0], _valid_address(froms[0][1])
    reply_to = next((a for a in (_valid_address(a) for _, a in headers.addresses("reply-to")) if a), None)
    message_id = headers.written("message-id") or None
    if message_id is not None and (bracketed := _MESSAGE_ID.search(message_id)):
        message_id = bracketed.group()
    cited = _MESSAGE_ID.findall(" ".join(headers.all("references") + headers.all("in-reply-to")))
    return IncomingMail(
        message_id=message_id,
        sender=sender,
        sender_name=sender_name,
        reply_to=reply_to,
        subject=headers.get("subject") or "",
        date=_date(headers.written("date")),
        references=list(dict.fromkeys(cited)),
        lines=lines,
        truncated=truncated,
        kind=kind,
    )


# --- kind ------------------------------------------------------------------------------------------------


def _kind(msg: Message, headers: _Headers, own_address: str, loop_header: str) -> MailKind:
    froms = [address.lower() for _, address in headers.addresses("from")]
    own = _own(own_address)
    if loop_header in msg or (own and own in froms):
        return MailKind.OWN
    if _is_bounce(msg, headers, froms):
        return MailKind.BOUNCE
    if _is_auto_reply(headers):
        return MailKind.AUTO_REPLY
    return MailKind.ORDINARY


@lru_cache(maxsize=16)
def _own(own_address: str) -> str:
    """The judge's own address as a From would give it (read once: it is the same for every mail)."""
    return (parseaddr(own_address)[1] or own_address).strip().lower()


def _is_bounce(msg: Message, headers: _Headers, froms: list[str]) -> bool:
    if not any(map(_valid_address, froms)) and _NULL_PATH.fullmatch(headers.get("return-path") or "-"):
        return True
    if any(address.rsplit("@", 1)[0] in ("mailer-daemon", "postmaster") for address in froms):
        return True
    if _content_type(msg) == "multipart/report" and _param(msg, "report-type") == "delivery-status":
        return True
    return any(
        _content_type(part) in ("message/delivery-status", "message/global-delivery-status") for part in _parts(msg)
    )


def _is_auto_reply(headers: _Headers) -> bool:
    submitted = headers.get("auto-submitted")
    if submitted is not None and submitted.split(";")[0].strip().lower() != "no":
        return True
    if (headers.get("precedence") or "").strip().lower() in ("bulk", "junk", "list"):
        return True
    if any(headers.get(name) is not None for name in ("x-autoreply", "x-autorespond", "list-id", "list-unsubscribe")):
        return True
    suppress = {token.strip().lower() for token in (headers.get("x-auto-response-suppress") or "").split(",")}
    if suppress & {"all", "oof"}:
        return True
    return (headers.get("subject") or "").casefold().startswith(_VACATION_SUBJECTS)


# --- body ------------------------------------------------------------------------------------------------


def _parts(msg: Message) -> Iterator[Message]:
    """Every part in document order, containers included, never looking inside attached messages."""
    stack = [msg]
    for _ in range(_MAX_PARTS):
        if not stack:
            return
        part = stack.pop()
        yield part
        children = part.get_payload() if part.is_multipart() else None
        if isinstance(children, list) and not _content_type(part).startswith("message/"):
            stack.extend(child for child in reversed(children) if isinstance(child, Message))


def _content_type(part: Message) -> str:
    try:
        return part.get_content_type()
    except Exception:
        return "application/octet-stream"


def _param(part: Message, name: str) -> str:
    """A Content-Type parameter, lower-cased; "" when absent or unreadable."""
    try:
        return str(collapse_rfc2231_value(part.get_param(name, ""))).strip().lower()
    except Exception:
        return ""


def _charset(part: Message) -> str:
    try:
        return part.get_content_charset("")
    except Exception:
        return ""


def _is_attachment(part: Message) -> bool:
    try:
        return part.get_content_disposition() == "attachment"
    except Exception:
        return True  # cannot tell: do not read it


def _body_text(msg: Message, max_bytes: int, raw_cut: bool) -> tuple[str, bool]:
    """The text the commands are in, and whether it was cut (at max_bytes, or where the raw mail was cut)."""
    leaves = [part for part in _parts(msg) if not part.is_multipart()]
    readable = [part for part in leaves if not _is_attachment(part)]
    chosen = next((part for part in readable if _content_type(part) == "text/plain"), None)
    text, cut = _part_text(chosen, max_bytes) if chosen is not None else ("", False)
    html = next((part for part in readable if _content_type(part) == "text/html"), None)
    if not text.strip() and html is not None:
        chosen = html
        markup, cut = _part_text(html, max_bytes)
        text = html_to_text(markup)
    return text, cut or (raw_cut and chosen is not None and chosen is leaves[-1])


def _part_text(part: Message, max_bytes: int) -> tuple[str, bool]:
    """A part's text, decoded, at most max_bytes of it; and whether it was cut."""
    try:
        encoding = str(part.get("content-transfer-encoding", "")).strip().lower()
    except Exception:
        encoding = ""
    sliced = False
    try:
        if encoding == "base64":  # decoded here: the library gives up on one stray character too many
            encoded = str(part.get_payload())
            sliced = len(encoded) > 2 * max_bytes  # 2 * max_bytes of base64 is more than max_bytes decoded
            data = _base64(encoded[: 2 * max_bytes])
        else:  # quoted-printable, 7bit, 8bit, binary, unknown: the library is lenient enough
            payload = part.get_payload(decode=True)
            data = payload if isinstance(payload, bytes) else b""
    except Exception:
        data = b""
    cut = sliced or len(data) > max_bytes
    if cut:  # drop the partial last line rather than hand on half an order
        data = data[:max_bytes]
        data = data[: data.rfind(b"\n") + 1] or data
    return _decode(data, _codec(_charset(part))), cut


def _base64(encoded: str) -> bytes:
    """Lenient base64: characters outside the alphabet are ignored, a dangling last character is dropped."""
    data = re.sub(r"[^A-Za-z0-9+/]", "", encoded)
    data = data[: len(data) - len(data) % 4] if len(data) % 4 == 1 else data
    return base64.b64decode(data + "=" * (-len(data) % 4))


def _codec(charset: str) -> str | None:
    """The codec for a declared charset; None when unknown, us-ascii, or one of Python's own codecs."""
    try:
        name = codecs.lookup(charset).name if charset else None
    except (LookupError, ValueError):
        return None
    return None if name in _NOT_MAIL_CHARSETS else name


def _decode(data: bytes, codec: str | None) -> str:
    """Bytes to text: the declared charset if it fits, else UTF-8, else Latin-1 (which always fits).

    A declared UTF-8 that does not fit is read as UTF-8 with replacement characters instead: one bad byte
    should not turn every accented letter into two. Undeclared and us-ascii bodies with 8-bit bytes are
    usually Latin-1 from an old client, or UTF-8 from a client that forgot to say.
    """
    for candidate in (codec, "utf-8"):
        if candidate:
            try:
                return data.decode(candidate)
            except (LookupError, ValueError):  # a codec that is not for text, bytes that do not fit
                pass
    return data.decode("utf-8", "replace") if codec == "utf-8" else data.decode("latin-1")


# --- lines -----------------------------------------------------------------------------------------------


def _starts_quoted_reply(line: str, following: str) -> bool:
    """Whether `line` (stripped) opens the quoted message of a reply: everything from here on is not ours."""
    if _REPLY_START.fullmatch(line):
        return True
    if line.startswith("From:") and following.startswith(("Sent:", "Date:")):  # Outlook's header block
        return True
    if not line.startswith(("On", "Le", "Am", "El", "Il", "Op")) or len(line) > _ATTRIBUTION_MAX:
        return False
    # Gmail wraps a long attribution line: "On Tue, 3 Mar 2026 at 10:00, Jane Doe <\njane@example.com> wrote:"
    return bool(_ATTRIBUTION.fullmatch(line) or _ATTRIBUTION.fullmatch(f"{line} {following}"[:_ATTRIBUTION_MAX]))


def _command_lines(text: str, max_lines: int) -> tuple[list[str], bool]:
    """The lines the judge reads as commands, and whether there were more than `max_lines` of them."""
    lines = _no_surrogates(text).removeprefix("\ufeff").splitlines()
    kept: list[str] = []
    for index, line in enumerate(lines):
        if line in ("--", "-- "):  # signature separator
            break
        line = _CONTROLS.sub("", line).rstrip()
        following = lines[index + 1].strip() if index + 1 < len(lines) else ""
        if _starts_quoted_reply(line.strip(), following):
            break
        if line.lstrip().startswith(">") or (not line and not kept):
            continue  # quoted text; leading blank lines
        kept.append(line)
        if len(kept) > max_lines and line:
            break  # one line too many is enough to know
    while kept and not kept[-1]:
        kept.pop()
    if len(kept) <= max_lines:
        return kept, False
    kept = kept[:max_lines]
    while kept and not kept[-1]:
        kept.pop()
    return kept, True
