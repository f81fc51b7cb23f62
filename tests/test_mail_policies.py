"""The judge's shortcuts through the `email` package give exactly what the package itself gives, and keep its
refusal of header values that could start a new header."""

from __future__ import annotations

from email import policy
from email.message import EmailMessage

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.config import Config
from judge.mail.compose import reply
from judge.mail.policies import READING, WRITING, message_bytes, set_text, written_directly
from judge.mail.reading import _Headers, read_mail

ATOM = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_%+-", min_size=1, max_size=12)
DOT_ATOM = st.lists(ATOM, min_size=1, max_size=3).map(".".join)
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=1, max_size=10)
PLAIN_NAME = st.lists(WORD, min_size=1, max_size=3).map(" ".join)


def _by_the_library(name: str, value: str) -> list[tuple[str, str]]:
    header = READING.header_fetch_parse(name, value)
    return [(" ".join(a.display_name.split()), a.addr_spec) for a in header.addresses]


def _read(name: str, value: str) -> list[tuple[str, str]]:
    return _Headers.of_block(f"{name}: {value}\n\n".encode()).addresses(name)


@settings(max_examples=300, deadline=None)
@given(local=DOT_ATOM, domain=DOT_ATOM, display=st.none() | PLAIN_NAME)
def test_a_plainly_written_mailbox_is_read_as_the_library_reads_it(
    local: str, domain: str, display: str | None
) -> None:
    value = f"{local}@{domain}" if display is None else f"{display} <{local}@{domain}>"
    assert _read("From", value) == _by_the_library("From", value)


@pytest.mark.parametrize(
    "value",
    [
        "a..b@example.org",
        ".a@example.org",
        "Joe  Bloggs <j@example.org>",
        "Name<x@example.org>",
        "x@example.org (a comment)",
        '"Bloggs, Joe" <j@example.org>',
        "Joe Bloggs <joe@example.org>, x@example.org",
        "=?utf-8?q?J=C3=B6rg?= <j@example.org>",
        "<x@example.org>",
    ],
)
def test_any_other_mailbox_is_read_by_the_library(value: str) -> None:
    assert _read("From", value) == _by_the_library("From", value)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=120))
def test_a_plain_subject_is_read_as_the_library_reads_it(text: str) -> None:
    library = " ".join(str(READING.header_fetch_parse("Subject", text)).split())
    assert _Headers.of_block(f"Subject: {text}\n\n".encode()).get("subject") == (library if text.strip() else "")


def _composed(message_policy: policy.Policy, subject: str, to: str) -> bytes:
    message = EmailMessage(policy=message_policy)
    message["From"] = "Judge <judge@example.org>"
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = "Sun, 22 Nov 2026 07:13:52 +0000"
    message["Message-ID"] = "<1@example.org>"
    message["X-Judge-Loop"] = "Judge"
    message.set_content("Orders for England:\n  F Lon - Nth\nÉcrit à Londres\n")
    message["Auto-Submitted"] = "auto-replied"
    message["References"] = " ".join(f"<ref{n}@example.org>" for n in range(12))
    return bytes(message)


@pytest.mark.parametrize(
    "subject",
    [
        "Re: orders [alpha Spring 1901 Movement]",
        "Re: ordres pour l'été",
        "Re: " + "long " * 30,
        "",
        "Re: =?utf-8?b?w6k=?= (an encoded word written by hand)",
    ],
)
def test_mail_written_by_the_judge_is_byte_for_byte_what_policy_default_writes(subject: str) -> None:
    to = "France Player <france@example.org>"
    assert _composed(WRITING, subject, to) == _composed(policy.default, subject, to)


@settings(max_examples=300, deadline=None)
@given(
    subject=st.text(
        alphabet=st.characters(min_codepoint=1, max_codepoint=126, exclude_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85"),
        max_size=100,
    ),
    to=st.sampled_from(["france@example.org", "France <france@example.org>", '"Bloggs, Joe" <j@example.org>']),
)
def test_any_ascii_subject_is_written_as_policy_default_writes_it(subject: str, to: str) -> None:
    assert _composed(WRITING, subject, to) == _composed(policy.default, subject, to)


@pytest.mark.parametrize(
    "value",
    [
        "orders\nBcc: victim@example.org",
        "orders\rBcc: x@example.org",
        "orders\x0bBcc: x@example.org",
        "été\nBcc: x@example.org",
    ],
)
def test_a_header_value_that_could_start_a_new_header_is_refused(value: str) -> None:
    message = EmailMessage(policy=WRITING)
    with pytest.raises(ValueError):
        message["Subject"] = value


def test_an_order_mail_is_read_the_same_through_the_short_paths() -> None:
    raw = (
        b"From: France Player <france@example.org>\nTo: judge@example.org\nSubject: orders\n"
        b"Message-ID: <m1@example.org>\nDate: Sun, 22 Nov 2026 07:13:52 +0000\n\nSIGNON alpha France pw\nA par - bur\n"
    )
    mail = read_mail(raw, own_address="judge@example.org")
    assert (mail.sender, mail.sender_name, mail.subject, mail.message_id) == (
        "france@example.org",
        "France Player",
        "orders",
        "<m1@example.org>",
    )
    assert mail.date is not None and mail.date.isoformat() == "2026-11-22T07:13:52+00:00"
    assert mail.lines == ["SIGNON alpha France pw", "A par - bur"]


def _with_body(body: str, shortcut: bool) -> bytes:
    message = EmailMessage(policy=WRITING if shortcut else policy.default)
    message["Subject"] = "results"
    if shortcut:
        set_text(message, body)
    else:
        message.set_content(body)
    return bytes(message)


@settings(max_examples=300, deadline=None)
@given(
    body=st.lists(
        st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=126), max_size=90)
        | st.text(max_size=40)
        | st.just(""),
        max_size=12,
    ).map("\n".join)
)
def test_a_body_is_set_as_set_content_sets_it(body: str) -> None:
    assert _with_body(body, shortcut=True) == _with_body(body, shortcut=False)


HEADER_TEXT = st.text(
    alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FF, exclude_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85"),
    max_size=120,
)


@settings(max_examples=300, deadline=None)
@given(
    subject=HEADER_TEXT,
    body=st.lists(st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x2FF), max_size=100), max_size=8).map(
        "\n".join
    ),
    in_reply_to=st.none() | st.sampled_from(["<m1@example.org>", "<" + "x" * 90 + "@example.org>", "no brackets"]),
    references=st.lists(st.sampled_from(["<r1@example.org>", "<r2@example.org>", "<é@example.org>"]), max_size=30),
    to=st.sampled_from(["france@example.org", "France Player <france@example.org>", '"Bloggs, Joe" <j@example.org>']),
)
def test_a_reply_is_written_byte_for_byte_as_the_generator_writes_it(
    subject: str, body: str, in_reply_to: str | None, references: list[str], to: str
) -> None:
    """`message_bytes` writes plain replies itself and leaves every other mail to the generator: either way the
    bytes are the generator's."""
    message = reply(Config(address="judge@example.org"), to, subject, body, in_reply_to, references)
    assert message_bytes(message) == bytes(message)


def test_a_mail_with_a_picture_is_written_by_the_generator() -> None:
    message = reply(Config(address="judge@example.org"), "france@example.org", "Re: map", "The map.\n", None, [])
    message.add_attachment(b"\x89PNG...", maintype="image", subtype="png", filename="map.png")
    assert message_bytes(message) == bytes(message)


def test_a_plain_reply_is_written_without_the_generator() -> None:
    message = reply(Config(address="judge@example.org"), "france@example.org", "Re: orders", "Orders.\n", "<m@x>", [])
    assert written_directly(message) == bytes(message)
