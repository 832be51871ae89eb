"""One test over all the wire strings of a report: when it passes, none needs the secret scrub.

Why this module exists: a report scrubs every string that came from the wire (block kinds,
names, ids, texts, argument texts) with ``scrub_secrets``. A report of 5 000 tool calls makes
10 000 such calls that find nothing. Joined, the strings are tested once: ``clean_throughout``
says whether ``scrub_secrets`` leaves the joined text *and every piece of it* as they are; then
each string is shown as it came, with no further call. Otherwise each string is scrubbed on its
own, as before, so every mask stays what ``scrub_secrets`` makes of that string.

Why one test covers every piece: ``scrub_secrets`` (``inspector.capture.redact``) changes a text
in three ways only: a remembered credential (a literal, replaced wherever it occurs), a key
written with a JSON ``\\u00XX`` escape (only in a text that holds ``\\u00``), and a key shape
or credential scheme (only in a text where ``keyshapes.maybe_key`` finds one of its substrings).
All three need a substring of the piece, which the joined text holds too: with no ``\\u00``, no
``maybe_key`` substring and no credential anywhere in the joined text, no piece has one either.
"""
from __future__ import annotations

from collections.abc import Iterable

from inspector.capture.keyshapes import maybe_key
from inspector.capture.redact import scrub_remembered

SEPARATOR = " "
"""Between the joined strings: a character neither scrub nor ``display_text`` changes."""


def joined(strings: Iterable[object]) -> str | None:
    """The strings in one text, apart by ``SEPARATOR`` (None left out); None when one is anything
    else (not a ``str``: the test cannot vouch for what shows it)."""
    try:
        return SEPARATOR.join([s for s in strings if s is not None])  # type: ignore[misc]  # anything not a str raises TypeError, the answer below
    except TypeError:
        return None


def clean_throughout(text: str | None) -> bool:
    """True when ``scrub_secrets`` leaves ``text`` and every substring of it unchanged (the module
    docstring says why the test is enough); False when some part may hold a secret (then each
    part must be scrubbed on its own). Costs a few substring searches over ``text``, and with
    remembered credentials one search for them."""
    if text is None:
        return False
    # With neither of those, ``scrub_secrets`` changes a text only by its remembered credentials.
    return "\\u00" not in text and not maybe_key(text) and scrub_remembered(text) == text
