"""Secret redaction for everything a capture keeps about a request or response.

Why it exists: captures are shared in bug reports, so API keys must never reach a file or a
screen. SPEC.md ("Capture files") names the secrets: the ``authorization``, ``x-api-key``,
``x-goog-api-key`` and ``api-key`` headers, cookies, and ``key=`` query parameters. Both the HAR
import and the recorder use these two functions; values are replaced by ``[redacted]`` so the
reader still sees that the field was there.
"""
from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit, urlunsplit

REDACTED = "[redacted]"

SECRET_HEADERS = frozenset({
    "authorization", "proxy-authorization", "x-api-key", "x-goog-api-key", "api-key",
    "cookie", "set-cookie", "x-auth-token", "x-amz-security-token",
})
"""Header names (lower case) whose values are secrets (SPEC.md, plus their proxy/cookie twins and
the AWS session token that rides beside a SigV4 ``authorization``)."""

SECRET_PARAMS = frozenset({"key", "api_key", "api-key", "apikey", "x-goog-api-key", "access_token",
                           "x-amz-security-token", "x-amz-signature"})
"""Query parameter names (lower case) whose values are secrets (SPEC.md: ``key=``; the others are
the same secret under other common spellings)."""

_PARAM = re.compile(r"(^|[&;])([^=&;]*)=([^&;]*)")


def redact_headers(headers: dict | None) -> dict:
    """Return a copy of ``headers`` (``{name: value}``) with secret values replaced by ``[redacted]``.

    Names keep their case; matching is case-insensitive. ``None`` gives ``{}``.
    """
    if not headers:
        return {}
    return {k: (REDACTED if str(k).lower() in SECRET_HEADERS else v) for k, v in headers.items()}


def redact_url(url: str) -> str:
    """Return ``url`` with secret query values and any userinfo password replaced by ``[redacted]``.

    Everything else is kept byte for byte (parameter order, encoding, fragment). A string that is
    not a URL comes back unchanged apart from ``key=…`` pairs after a ``?``.
    """
    if not isinstance(url, str) or not url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, _, host = netloc.rpartition("@")
        if ":" in userinfo:
            user = userinfo.split(":", 1)[0]
            netloc = f"{user}:{REDACTED}@{host}"
    query = parts.query
    if query:
        def sub(m: re.Match) -> str:
            name = m.group(2)
            if unquote(name).lower() in SECRET_PARAMS:
                return f"{m.group(1)}{name}={REDACTED}"
            return m.group(0)

        query = _PARAM.sub(sub, query)
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


_KEY_SHAPES = re.compile(
    r"\b(sk-ant-[A-Za-z0-9_-]{8,}|sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{30,})"
    r"|(?i:\b(Bearer)\s+)([A-Za-z0-9._~+/-]{16,}=*)")
"""Shapes of API keys (Anthropic ``sk-ant-…``, OpenAI ``sk-…``, Google ``AIza…``) and bearer tokens."""


def scrub_secrets(text: str) -> str:
    """Mask anything shaped like an API key inside free text (an error body that echoes the key).

    Keeps the first 7 characters so the reader can tell which key it was: ``sk-ant-[redacted]``.
    Text without such a shape comes back unchanged (the same object).
    """
    if not text or ("sk-" not in text and "AIza" not in text and "earer" not in text):
        return text

    def sub(m: re.Match) -> str:
        if m.group(1):
            return m.group(1)[:7] + REDACTED
        return f"{m.group(2)} {REDACTED}"

    return _KEY_SHAPES.sub(sub, text)
