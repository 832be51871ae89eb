"""URLs from captures split without raising.

Why it exists: ``urllib.parse.urlsplit`` raises ``ValueError`` on URLs that captures do hold: a
bracket anywhere in the authority is taken for an IPv6 host (``https://[REDACTED]@host/…``, a
userinfo another tool masked; ``https://user:[redacted]@host`` as our own redaction writes it) and
an unclosed one is "Invalid IPv6 URL". A capture's URL is untrusted text: every reader that needs
its parts (path, query, host) splits it here, by RFC 3986's own regular expression when ``urllib``
refuses it, so the parts are still there (and a password in it is still masked).
"""
from __future__ import annotations

import re
from urllib.parse import SplitResult, urlsplit

_RFC3986 = re.compile(r"^(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.DOTALL)
"""RFC 3986 Appendix B: matches every string."""


def split_url(url: str) -> SplitResult:
    """``urlsplit(url)``, or the RFC 3986 split when ``urllib`` refuses ``url``: never raises."""
    try:
        return urlsplit(url)
    except ValueError:
        m = _RFC3986.match(url)
        assert m is not None  # every part is optional: the pattern matches any string
        return SplitResult((m[1] or "").lower(), m[2] or "", m[3] or "", m[4] or "", m[5] or "")


def url_port(parts: SplitResult) -> int | None:
    """The port ``parts`` names, None when none or not a valid one (``:99999999``, ``:x``)."""
    try:
        return parts.port
    except ValueError:
        return None
