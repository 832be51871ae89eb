"""Whole numbers written as digits in a capture, read without a crash.

Why it exists: Python refuses to convert a string of more than 4 300 digits (``ValueError``, CVE-2020-10735
hardening), and ``str.isdigit`` is true for digits ``int`` does not take (``"²"``). A stranger's capture
may hold either where a number is written as text (SSE ``retry:``, a Realtime audio placeholder, a
Gemini schema's ``"maxItems": "5"``): every such place reads it here, capped at ``CAP``.
"""
from __future__ import annotations

CAP = 2**63 - 1
"""The largest value kept (what a 64-bit client stores); a longer number reads as this."""


def digits_int(text: str) -> int | None:
    """``text`` (ASCII digits only) as an int, at most ``CAP``; None when it is not only ASCII digits."""
    if not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 19 and int(digits) <= CAP else CAP
