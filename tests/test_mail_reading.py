"""Reading incoming mail: what the judge takes from any mail, and that no mail can make it fail.

Well-formed mail is built with `EmailMessage`; the malformed corpus is raw bytes, as it would come off the wire.
"""

from __future__ import annotations

import base64
import os
from datetime import UTC, datetime, timedelta, timezone
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.mail.html_text import html_to_text
from judge.mail.reading import IncomingMail, MailKind, read_mail

JUDGE = "judge@example.org"
ORDERS = "A PAR - BUR\nF BRE - MAO\nA MAR S A PAR - BUR\n"
ORDER_LINES = ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR"]


def message(body: str = ORDERS, headers: dict[str, str | None] | None = None) -> EmailMessage:
    """A player's plain-text mail to the judge; `headers` adds or (with None) removes headers."""
    msg = EmailMessage()
    msg["From"] = "Jane Doe <Jane.Doe@Example.com>"
    msg["To"] = JUDGE
    msg["Subject"] = "Spring 1901 orders"
    msg["Message-ID"] = "<orders-1@example.com>"
    msg["Date"] = "Tue, 03 Mar 2026 10:00:00 +0100"
    for name, value in (headers or {}).items():
        del msg[name]
        if value is not None:
            msg[name] = value
    msg.set_content(body)
    return msg


def read(raw: bytes | EmailMessage, **options: int) -> IncomingMail:
    data = raw.as_bytes() if isinstance(raw, EmailMessage) else raw
    return read_mail(data, own_address=JUDGE, **options)


def raw_mail(headers: str, body: bytes) -> bytes:
    """Raw bytes: header lines separated by newlines, CRLF line endings on the wire."""
    head = "".join(f"{line}\r\n" for line in headers.strip().splitlines()).encode("utf-8")
    return head + b"\r\n" + body


def assert_well_formed(mail: IncomingMail, max_lines: int = 500) -> None:
    """What every caller may rely on, whatever came in."""
    assert isinstance(mail.kind, MailKind)
    for value in (mail.message_id, mail.sender, mail.sender_name, mail.reply_to, mail.subject, *mail.references):
        if value is not None:
            assert not any(c in value for c in "\r\n\x00\x0b\x0c\x85\u2028\u2029"), value
            value.encode("utf-8")  # no lone surrogates
    for line in mail.lines:
        assert line == line.rstrip()
        assert not any(c in line for c in "\r\n\x00")
        line.encode("utf-8")
    assert len(mail.lines) <= max_lines
    if mail.lines:
        assert mail.lines[0] and mail.lines[-1]
    assert all(ref.startswith("<") and ref.endswith(">") for ref in mail.references)
    assert mail.date is None or mail.date.tzinfo is not None


# --- headers ---------------------------------------------------------------------------------------------


def test_a_plain_text_mail_gives_its_sender_subject_ids_date_and_orders() -> None:
    mail = read(message(headers={"References": "<a@x> <b@x>", "In-Reply-To": "<b@x> (the judge's mail)"}))
    assert mail.kind is MailKind.ORDINARY
    assert mail.sender == "jane.doe@example.com"
    assert mail.sender_name == "Jane Doe"
    assert mail.reply_to is None
    assert mail.subject == "Spring 1901 orders"
    assert mail.message_id == "<orders-1@example.com>"
    assert mail.references == ["<a@x>", "<b@x>"]
    assert mail.date == datetime(2026, 3, 3, 10, 0, tzinfo=timezone(timedelta(hours=1)))
    assert mail.lines == ORDER_LINES
    assert not mail.truncated
    assert_well_formed(mail)


def test_reply_to_is_given_lower_cased() -> None:
    assert read(message(headers={"Reply-To": "Jane <JANE@Home.example>"})).reply_to == "jane@home.example"


def test_a_date_without_zone_is_utc_and_a_bad_date_is_none() -> None:
    assert read(message(headers={"Date": "Tue, 3 Mar 2026 10:00:00 -0000"})).date == datetime(
        2026, 3, 3, 10, tzinfo=UTC
    )
    assert read(message(headers={"Date": "the day after tomorrow"})).date is None


def test_header_values_with_encoded_words_are_decoded() -> None:
    mail = read(
        message(
            headers={
                "From": "=?utf-8?b?SsO8cmdlbiBNw7xsbGVy?= <jm@example.de>",
                "Subject": "=?iso-8859-1?q?Fr=FChjahr_1901?= =?utf-8?b?4oCUIEJlZmVobGU=?=",
            }
        )
    )
    assert mail.sender_name == "Jürgen Müller"
    assert mail.subject == "Frühjahr 1901— Befehle"


def test_a_subject_with_a_crlf_injection_attempt_comes_back_on_one_line() -> None:
    raw = raw_mail(
        "From: jane@example.com\n"
        "Subject: =?utf-8?q?orders=0D=0ABcc:_victim@example.net?= =?utf-8?b?IHNlZQ==?=\n"
        "Message-ID: <x@y>\n"
        "\tfolded",
        b"A PAR - BUR\r\n",
    )
    mail = read(raw)
    assert mail.subject == "orders Bcc: victim@example.net see"
    assert mail.message_id == "<x@y>"
    assert_well_formed(mail)


def test_a_folded_subject_is_unfolded() -> None:
    assert (
        read(raw_mail("From: jane@example.com\nSubject: Spring\n  1901 orders", b"x")).subject == "Spring 1901 orders"
    )


def test_two_from_addresses_give_no_sender() -> None:
    mail = read(message(headers={"From": "jane@example.com, mallory@example.net"}))
    assert mail.sender is None
    assert mail.kind is MailKind.ORDINARY


def test_an_unparseable_from_gives_no_sender() -> None:
    assert read(raw_mail("From: just some words\nSubject: x", b"A PAR - BUR")).sender is None


def test_a_hostile_content_type_parameter_does_not_stop_the_headers_or_the_body() -> None:
    # `charset*` without a value makes policy.default's parser raise IndexError (Python 3.11) while parsing.
    mail = read(
        raw_mail("From: Jane <jane@example.com>\nSubject: orders\nContent-Type: text/plain; charset*", b"A PAR H")
    )
    assert (mail.kind, mail.sender, mail.subject, mail.lines) == (
        MailKind.ORDINARY,
        "jane@example.com",
        "orders",
        ["A PAR H"],
    )


# --- body parts ------------------------------------------------------------------------------------------


def test_multipart_alternative_prefers_the_text_part_over_the_html() -> None:
    msg = message("A PAR - BUR\n")
    msg.add_alternative("<p>F BRE - MAO</p>", subtype="html")
    assert read(msg).lines == ["A PAR - BUR"]


def test_an_empty_text_part_gives_way_to_the_html_part() -> None:
    msg = message("\n\n")
    msg.add_alternative("<div>F BRE - MAO</div>", subtype="html")
    assert read(msg).lines == ["F BRE - MAO"]


def test_an_html_only_mail_is_read_as_text() -> None:
    html = (
        "<html><head><title>Orders</title><style>p { margin: 0 } A VIE - TRI</style></head><body>\n"
        "<div dir='ltr'>A PAR - BUR</div><p>F BRE&nbsp;-&nbsp;MAO</p>A MAR\n   S A PAR - BUR<br>"
        "F LON &amp; F EDI<br><br><div><b>F EDI</b> - NTH</div>"
        "<script>alert('A MUN - BER')</script></body></html>"
    )
    mail = read(_html_message(html))
    assert mail.lines == ["A PAR - BUR", "F BRE - MAO", "A MAR S A PAR - BUR", "F LON & F EDI", "", "F EDI - NTH"]


def _html_message(html: str) -> EmailMessage:
    msg = message()
    msg.set_content(html, subtype="html")
    return msg


def test_an_html_quoted_reply_is_dropped() -> None:
    html = (
        "<div dir='ltr'>A PAR - BUR</div><br><blockquote>Your orders?<br>A PAR H</blockquote><div>F BRE - MAO</div>"
        "<div class='gmail_quote'><div class='gmail_attr'>On Tue, 3 Mar 2026 at 10:00, Judge &lt;"
        "<a href='mailto:judge@example.org'>judge@example.org</a>&gt; wrote:<br></div>"
        "<blockquote class='gmail_quote'>Orders due Friday</blockquote></div>"
    )
    assert read(_html_message(html)).lines == ["A PAR - BUR", "", "F BRE - MAO"]


def test_html_pre_keeps_its_line_breaks_and_tables_keep_rows_together() -> None:
    text = html_to_text("<pre>A PAR - BUR\nF BRE - MAO</pre><table><tr><td>A</td><td>MUN H</td></tr></table>")
    assert text.splitlines() == ["A PAR - BUR", "F BRE - MAO", "A MUN H"]


def test_html_with_unclosed_tags_is_read() -> None:
    """html.parser needs minutes for this; the judge's tokenizer is linear (its speed is a benchmark matter)."""
    assert isinstance(html_to_text("<a b='" * 200_000 + "<!--" + "<" * 100_000 + "<![" * 10_000), str)


@pytest.mark.parametrize("cte", ["quoted-printable", "base64"])
def test_encoded_bodies_are_decoded(cte: str) -> None:
    body = "A PAR - BUR\nF BRE - MAO\nRügen, Łódź, Ελλάδα: " + "x" * 120 + "\n"
    msg = message()
    msg.set_content(body, cte=cte)
    assert f"Content-Transfer-Encoding: {cte}" in msg.as_string()
    assert read(msg).lines == body.splitlines()


def test_bad_base64_is_read_leniently() -> None:
    encoded = base64.b64encode(b"A PAR - BUR\nF BRE - MAO\n").decode()
    garbled = f"{encoded[:7]}*!{encoded[7:20]}\r\n {encoded[20:]}X".encode()  # junk, a split, a dangling char
    raw = raw_mail("From: jane@example.com\nContent-Transfer-Encoding: base64", garbled)
    assert read(raw).lines == ["A PAR - BUR", "F BRE - MAO"]


def test_bad_quoted_printable_is_read_leniently() -> None:
    raw = raw_mail("From: jane@example.com\nContent-Transfer-Encoding: quoted-printable", b"A PAR =3D=\r\n BUR =ZZ=4")
    assert read(raw).lines == ["A PAR = BUR =ZZ=4"]


@pytest.mark.parametrize(
    ("charset", "text"),
    [
        ("iso-8859-1", "Grüße aus Köln: A PAR - BUR"),
        ("windows-1252", "Don’t forget the €5 – A PAR - BUR"),
        ("utf-8", "Ελλάδα, Łódź, 東京: A PAR - BUR"),
        ("koi8-r", "Приказы: A PAR - BUR"),
    ],
)
def test_8bit_bodies_are_decoded_with_their_declared_charset(charset: str, text: str) -> None:
    raw = raw_mail(
        f"From: jane@example.com\nContent-Type: text/plain; charset={charset}\nContent-Transfer-Encoding: 8bit",
        text.encode(charset) + b"\r\n",
    )
    assert read(raw).lines == [text]


@pytest.mark.parametrize(
    ("body", "text"),
    [("Köln: A PAR - BUR".encode(), "Köln: A PAR - BUR"), ("Köln: A PAR - BUR".encode("latin-1"), "Köln: A PAR - BUR")],
)
def test_a_bogus_charset_name_falls_back_to_utf8_then_latin1(body: bytes, text: str) -> None:
    raw = raw_mail("From: jane@example.com\nContent-Type: text/plain; charset=x-no-such-charset", body)
    assert read(raw).lines == [text]


@pytest.mark.parametrize("charset", ["punycode", "unicode_escape", "base64", "rot13", "idna"])
def test_python_codecs_that_are_no_mail_charset_are_not_used(charset: str) -> None:
    body = b"A PAR - BUR\\nF BRE - MAO\r\n" + b"x" * 200_000 + b"-" + b"a" * 200_000  # punycode: quadratic
    raw = raw_mail(f"From: jane@example.com\nContent-Type: text/plain; charset={charset}", body)
    mail = read(raw)
    assert mail.lines[0] == "A PAR - BUR\\nF BRE - MAO"


def test_lone_surrogates_from_a_codec_become_replacement_characters() -> None:
    raw = raw_mail(
        "From: jane@example.com\nSubject: =?unicode_escape?q?A\\ud800B?=\nContent-Type: text/plain; charset=utf-7",
        b"A+2AA-B\r\n",  # utf-7 for a lone surrogate
    )
    mail = read(raw)
    assert (mail.subject, mail.lines) == ("A\ufffdB", ["A\ufffdB"])


@pytest.mark.parametrize("encoding", ["utf-8", "latin-1"])
def test_an_8bit_body_without_charset_is_read(encoding: str) -> None:
    raw = raw_mail("From: jane@example.com\nSubject: Bestellung", "Müller: A PAR - BUR".encode(encoding))
    assert read(raw).lines == ["Müller: A PAR - BUR"]


def test_declared_utf8_with_one_bad_byte_keeps_the_rest() -> None:
    raw = raw_mail("From: jane@example.com\nContent-Type: text/plain; charset=utf-8", "Köln: A PAR".encode() + b"\xff")
    assert read(raw).lines == ["Köln: A PAR\ufffd"]


def test_a_5mb_attachment_is_ignored_and_the_body_still_read() -> None:
    msg = message()
    msg.add_attachment(os.urandom(5_000_000), maintype="image", subtype="png", filename="board.png")
    raw = msg.as_bytes()
    mail = read(raw)
    assert mail.lines == ORDER_LINES
    assert not mail.truncated


def test_attached_text_files_and_forwarded_messages_are_not_read() -> None:
    text_file = EmailMessage()
    text_file.set_content("F KIE - DEN\n", disposition="attachment", filename="orders.txt")
    forwarded = EmailMessage()
    forwarded.set_content(message("A MUN - BER\n"))  # message/rfc822, inline
    own_text = EmailMessage()
    own_text.set_content("orders: see the text below\n")
    msg = EmailMessage()
    msg["From"] = "jane@example.com"
    msg.make_mixed()
    for part in (text_file, forwarded, own_text):
        msg.attach(part)
    assert read(msg).lines == ["orders: see the text below"]


def test_a_body_beyond_max_bytes_is_cut_at_a_whole_line() -> None:
    mail = read(message("A PAR - BUR\n" * 1000), max_bytes=1000)
    assert mail.truncated
    assert 0 < len(mail.lines) <= 1000 // len("A PAR - BUR\n")
    assert set(mail.lines) == {"A PAR - BUR"}


def test_a_body_cut_where_a_huge_mail_is_cut_off_is_flagged() -> None:
    head = (
        b'From: jane@example.com\r\nContent-Type: multipart/mixed; boundary="b"\r\n\r\n'
        b"--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment\r\n\r\n"
    )
    text_head = b"\r\n--b\r\nContent-Type: text/plain\r\n\r\n"
    parsed = 4 * 1000 + 256 * 1024  # how much of the mail is read, with max_bytes=1000
    filler = (b"z" * 70 + b"\r\n") * ((parsed - 300 - len(head) - len(text_head)) // 72)
    mail = read(head + filler + text_head + b"A PAR H\r\n" * 100 + b"--b--\r\n", max_bytes=1000)
    assert mail.truncated
    assert 0 < len(mail.lines) < 100
    assert set(mail.lines) == {"A PAR H"}


def test_truncated_mime_with_the_boundary_never_closed_is_read() -> None:
    raw = raw_mail(
        'From: jane@example.com\nContent-Type: multipart/mixed; boundary="b1"',
        b"--b1\r\nContent-Type: text/plain\r\n\r\nA PAR - BUR\r\nF BRE - MAO\r\n"
        b"--b1\r\nContent-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK",
    )
    mail = read(raw)
    assert (mail.kind, mail.lines) == (MailKind.ORDINARY, ["A PAR - BUR", "F BRE - MAO"])


def test_a_mail_of_twenty_thousand_parts_is_read() -> None:
    parts = b"--x\r\nContent-Type: image/png\r\n\r\nzz\r\n" * 20_000
    raw = raw_mail('From: jane@example.com\nContent-Type: multipart/mixed; boundary="x"', parts + b"--x--\r\n")
    assert read(raw).kind is MailKind.ORDINARY


def test_absurdly_nested_mime_is_unreadable_but_keeps_its_headers() -> None:
    nesting = b"".join(b"Content-Type: multipart/mixed; boundary=b%d\r\n\r\n--b%d\r\n" % (i, i) for i in range(3000))
    mail = read(b"From: Jane <jane@example.com>\r\nSubject: deep\r\n" + nesting + b"\r\nA PAR H\r\n")
    assert (mail.kind, mail.sender, mail.subject, mail.lines) == (MailKind.UNREADABLE, "jane@example.com", "deep", [])


def test_an_empty_body_gives_no_lines() -> None:
    mail = read(message(""))
    assert (mail.kind, mail.lines, mail.truncated) == (MailKind.ORDINARY, [], False)


def test_only_headers_gives_no_lines() -> None:
    mail = read(b"From: jane@example.com\r\nSubject: orders\r\n")
    assert (mail.kind, mail.sender, mail.lines) == (MailKind.ORDINARY, "jane@example.com", [])


@pytest.mark.parametrize("raw", [b"", b"\r\n\r\n", b"A PAR - BUR\r\nF BRE - MAO\r\n", b"\x00\xff\xfe garbage \x89PNG"])
def test_no_headers_at_all_is_unreadable(raw: bytes) -> None:
    mail = read(raw)
    assert mail.kind is MailKind.UNREADABLE
    assert (mail.sender, mail.subject, mail.lines) == (None, "", [])


def test_nul_bytes_are_dropped() -> None:
    raw = raw_mail("From: jane@example.com\nSubject: spring\x00 orders", b"A PAR\x00 - BUR\r\n\x00\r\nF BRE - MAO")
    mail = read(raw)
    assert mail.subject == "spring orders"
    assert mail.lines == ["A PAR - BUR", "", "F BRE - MAO"]
    assert_well_formed(mail)


# --- lines -----------------------------------------------------------------------------------------------


def test_blank_lines_in_the_middle_are_kept_and_at_the_ends_dropped() -> None:
    assert read(message("\n\n  \nA PAR - BUR   \n\nF BRE - MAO\t\n\n\n")).lines == ["A PAR - BUR", "", "F BRE - MAO"]


def test_any_line_ending_splits_lines() -> None:
    raw = raw_mail("From: jane@example.com", b"A PAR - BUR\rF BRE - MAO\nA MAR H\r\nF LON H")
    assert read(raw).lines == ["A PAR - BUR", "F BRE - MAO", "A MAR H", "F LON H"]


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_reading_stops_at_the_signature_separator(separator: str) -> None:
    assert read(message(f"A PAR - BUR\n{separator}\nJane Doe\nA MUN - BER\n")).lines == ["A PAR - BUR"]


def test_a_line_of_three_dashes_is_not_a_signature() -> None:
    assert read(message("A PAR - BUR\n---\nF BRE - MAO\n")).lines == ["A PAR - BUR", "---", "F BRE - MAO"]


def test_quoted_lines_are_dropped_wherever_they_are() -> None:
    body = "> Your orders for Spring 1901?\nA PAR - BUR\n  > > A PAR H\nF BRE - MAO\n>\n"
    assert read(message(body)).lines == ["A PAR - BUR", "F BRE - MAO"]


QUOTED_REPLIES = {
    "gmail": "On Tue, 3 Mar 2026 at 10:00, Judge <judge@example.org> wrote:\n> Orders are due.\n> A PAR H\n",
    "gmail wrapped": "On Tue, Mar 3, 2026 at 10:00 AM The Judge of Example Org <\njudge@example.org> wrote:\n\n> x\n",
    "apple": "Sent from my iPhone\n\n> On 3 Mar 2026, at 10:00, Judge <judge@example.org> wrote:\n> A PAR H\n",
    "apple mail": "On 3 Mar 2026, at 10:00, Judge <judge@example.org> wrote:\n\nOrders are due.\nA PAR H\n",
    "outlook": "________________________________\nFrom: Judge <judge@example.org>\nSent: Tuesday\n\nA PAR H\n",
    "outlook desktop": "-----Original Message-----\nFrom: Judge\nSent: Tuesday\nSubject: due\n\nA PAR H\n",
    "outlook header block": "From: Judge <judge@example.org>\nSent: Tuesday, 3 March 2026 10:00\nA PAR H\n",
    "forward": "---------- Forwarded message ---------\nFrom: Judge\nA PAR H\n",
    "french": "Le mar. 3 mars 2026 à 10:00, Judge <judge@example.org> a écrit :\nOrders are due.\nA PAR H\n",
    "german": "Am 03.03.2026 um 10:00 schrieb Judge <judge@example.org>:\nA PAR H\n",
}


@pytest.mark.parametrize("reply", QUOTED_REPLIES.values(), ids=QUOTED_REPLIES.keys())
def test_the_quoted_reply_below_the_orders_is_ignored(reply: str) -> None:
    assert read(message(ORDERS + "\n" + reply)).lines == ORDER_LINES


def test_lines_beyond_max_lines_are_cut_and_flagged() -> None:
    mail = read(message("A PAR H\n" * 12), max_lines=10)
    assert (len(mail.lines), mail.truncated) == (10, True)
    assert_well_formed(mail, max_lines=10)


def test_exactly_max_lines_and_trailing_blanks_are_not_truncated() -> None:
    mail = read(message("A PAR H\n" * 10 + "\n\n\n"), max_lines=10)
    assert (len(mail.lines), mail.truncated) == (10, False)


def test_a_cut_at_max_lines_does_not_end_on_a_blank_line() -> None:
    mail = read(message("A PAR H\n" * 9 + "\nF BRE H\n"), max_lines=10)
    assert (mail.lines[-1], len(mail.lines), mail.truncated) == ("A PAR H", 9, True)


# --- kind ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "headers",
    [
        {"X-Judge-Loop": "1"},
        {"x-judge-loop": ""},
        {"From": JUDGE},
        {"From": "The Judge <JUDGE@Example.ORG>"},
        {"From": JUDGE, "Auto-Submitted": "auto-generated"},  # own mail wins over every other sign
    ],
)
def test_our_own_mail_is_own(headers: dict[str, str | None]) -> None:
    assert read(message(headers=headers)).kind is MailKind.OWN


def test_the_loop_header_name_can_be_chosen() -> None:
    raw = message(headers={"X-Other-Judge": "yes"}).as_bytes()
    assert read_mail(raw, own_address=JUDGE, loop_header="X-Other-Judge").kind is MailKind.OWN
    assert read_mail(raw, own_address=JUDGE).kind is MailKind.ORDINARY


BOUNCE_HEADERS = {
    "null return path, no from": {"From": None, "Return-Path": "<>"},
    "null return path, empty from": {"From": "", "Return-Path": "< >"},
    "null return path, null from": {"From": "<>", "Return-Path": "<>"},
    "mailer-daemon": {"From": "Mail Delivery System <MAILER-DAEMON@mx.example.net>"},
    "mailer-daemon without domain": {"From": "MAILER-DAEMON (Mail Delivery Subsystem)"},
    "postmaster": {"From": "PostMaster@example.net"},
    "mailer-daemon with auto-submitted": {"From": "mailer-daemon@mx.example.net", "Auto-Submitted": "auto-replied"},
}


@pytest.mark.parametrize("headers", BOUNCE_HEADERS.values(), ids=BOUNCE_HEADERS.keys())
def test_bounce_signs_in_the_headers(headers: dict[str, str | None]) -> None:
    assert read(message(headers=headers)).kind is MailKind.BOUNCE


def test_a_multipart_report_of_delivery_status_is_a_bounce() -> None:
    raw = raw_mail(
        'From: "Mail System" <mail@mx.example.net>\n'
        'Content-Type: multipart/report; report-type="Delivery-Status"; boundary="r"',
        b"--r\r\nContent-Type: text/plain\r\n\r\nYour message could not be delivered.\r\n--r--\r\n",
    )
    assert read(raw).kind is MailKind.BOUNCE


@pytest.mark.parametrize("part_type", ["message/delivery-status", "message/global-delivery-status"])
def test_a_delivery_status_part_anywhere_is_a_bounce(part_type: str) -> None:
    raw = raw_mail(
        'From: relay@mx.example.net\nContent-Type: multipart/mixed; boundary="r"',
        b"--r\r\nContent-Type: text/plain\r\n\r\nFailed.\r\n--r\r\nContent-Type: "
        + part_type.encode()
        + b"\r\n\r\nReporting-MTA: dns; mx.example.net\r\n\r\nFinal-Recipient: rfc822; judge@example.org\r\n"
        b"Action: failed\r\nStatus: 5.1.1\r\n--r--\r\n",
    )
    assert read(raw).kind is MailKind.BOUNCE


def test_a_null_return_path_with_a_from_is_not_a_bounce() -> None:
    assert read(message(headers={"Return-Path": "<>"})).kind is MailKind.ORDINARY  # RFC 3834 replies do this


AUTO_REPLY_HEADERS = {
    "auto-submitted": {"Auto-Submitted": "auto-replied"},
    "auto-submitted with a parameter": {"Auto-Submitted": "auto-generated; owner-email=x@example.com"},
    "precedence bulk": {"Precedence": "bulk"},
    "precedence junk": {"Precedence": "Junk"},
    "precedence list": {"Precedence": "list"},
    "x-autoreply": {"X-Autoreply": "yes"},
    "x-autorespond": {"X-Autorespond": "vacation"},
    "exchange all": {"X-Auto-Response-Suppress": "All"},
    "exchange oof": {"X-Auto-Response-Suppress": "DR, OOF, AutoReply"},
    "list-id": {"List-Id": "Diplomacy players <players.example.org>"},
    "list-unsubscribe": {"List-Unsubscribe": "<mailto:leave@example.org>"},
    "lotus notes subject": {"Subject": "AUTO: Jane Doe is out of the office"},
    "outlook subject": {"Subject": "Automatic reply: Spring 1901 orders"},
    "out of office subject": {"Subject": "Out of Office: back on Monday"},
    "german subject": {"Subject": "Abwesenheitsnotiz: Spring 1901 orders"},
    "french subject": {"Subject": "Réponse automatique : Spring 1901 orders"},
}


@pytest.mark.parametrize("headers", AUTO_REPLY_HEADERS.values(), ids=AUTO_REPLY_HEADERS.keys())
def test_auto_reply_signs(headers: dict[str, str | None]) -> None:
    assert read(message(headers=headers)).kind is MailKind.AUTO_REPLY


@pytest.mark.parametrize(
    "headers",
    [
        {"Auto-Submitted": "no"},
        {"Auto-Submitted": " No ; comment"},
        {"Precedence": "first-class"},
        {"X-Auto-Response-Suppress": "DR, RN"},
        {"Subject": "Re: Automatic reply: is a phrase in my subject"},
    ],
)
def test_not_auto_reply_signs(headers: dict[str, str | None]) -> None:
    assert read(message(headers=headers)).kind is MailKind.ORDINARY


# --- properties ------------------------------------------------------------------------------------------


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=3000))
def test_read_mail_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    assert_well_formed(read_mail(raw, own_address=JUDGE))


def _corpus() -> list[bytes]:
    alternative = message()
    alternative.add_alternative("<p>A PAR - BUR</p>", subtype="html")
    alternative.add_attachment(b"\x89PNG" * 50, maintype="image", subtype="png", filename="=?utf-8?q?x?=.png")
    return [
        alternative.as_bytes(),
        raw_mail(
            'From: =?bogus?q?M=FCller?= <"odd local"@x>, b@c\nReply-To: undisclosed-recipients:;\n'
            "Content-Type: multipart/report; report-type=delivery-status; boundary=r\nSubject: =?utf-8?b?w6k?=",
            b"--r\r\nContent-Type: message/delivery-status\r\n\r\nAction: failed\r\n--r\r\n"
            b"Content-Type: message/rfc822\r\n\r\nFrom: a@b\r\n\r\nhi\r\n--r--\r\n",
        ),
        raw_mail(
            "Content-Type: text/plain; charset*=us-ascii'en'%e9%ff; format=flowed\n"
            "Content-Disposition: attachment; filename*=bogus''%ff\nDate: 31 Feb 99999 25:61 +9999",
            b"Content-Transfer-Encoding: base64\r\n\r\nQUJD=\x00=",
        ),
    ]


@settings(max_examples=500, deadline=None)
@given(
    st.sampled_from(_corpus()),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 12), st.binary(max_size=6)), max_size=8),
)
def test_read_mail_never_raises_on_damaged_mail(raw: bytes, damage: list[tuple[int, int, bytes]]) -> None:
    data = bytearray(raw)
    for at, cut, insert in damage:
        at %= len(data) + 1
        data[at : at + cut] = insert
    assert_well_formed(read_mail(bytes(data), own_address=JUDGE, max_lines=20), max_lines=20)


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(exclude_categories=["Cs"])))
def test_any_text_in_a_simple_mail_is_an_ordinary_mail(text: str) -> None:
    mail = read(message(text))
    assert mail.kind is MailKind.ORDINARY
    assert mail.sender == "jane.doe@example.com"
    assert_well_formed(mail)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.from_regex(r"[AF] [A-Z]{3}( - [A-Z]{3}| H| S [AF] [A-Z]{3}( - [A-Z]{3})?)?", fullmatch=True)))
def test_order_lines_come_back_as_written(orders: list[str]) -> None:
    assert read(message("\n".join(orders) + "\n")).lines == orders


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_html_to_text_never_raises(markup: str) -> None:
    assert isinstance(html_to_text(markup), str)
