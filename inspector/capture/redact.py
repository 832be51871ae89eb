"""What leaves the process: secrets redacted (made safe for a terminal: ``inspector.model.display``).

Why it exists: captures, reports and screens are shared in bug reports, so API keys must never
reach a file, stdout or the screen. One mechanism serves every sink (recordings, JSON/text/GitHub
reports, the TUI, logs, exports):

- by place: the ``authorization``, ``x-api-key``, ``x-goog-api-key`` and ``api-key`` headers,
  cookies, and ``key=`` query parameters (SPEC.md "Capture files") become ``[redacted]``;
- by shape: anything shaped like an API key or a bearer token, anywhere in any text or JSON value
  (``scrub_secrets``, ``scrub_value``; across the chunks of a stream, ``ChunkScrubber``);
- by value: the exact credentials this process sent or forwarded (``remember_secret``), whatever
  their shape (a 401 that echoes an unusual token);
"""
from __future__ import annotations

import re
import threading
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


_known: dict[str, str] = {}
"""Credentials this process sent or forwarded: value -> what to show instead."""
_known_lock = threading.Lock()
_known_pattern: re.Pattern | None = None
MIN_KNOWN = 8
"""Shorter values are not remembered (masking them would mangle ordinary text)."""


def remember_secret(value: object) -> None:
    """Mask this exact credential everywhere from now on (``live`` and ``proxy`` call it with the
    keys they send or forward). A ``Bearer`` prefix is dropped; short values are ignored."""
    global _known_pattern
    if not isinstance(value, str):
        return
    value = value.strip()
    if value.lower().startswith("bearer "):
        value = value[7:].strip()
    if len(value) < MIN_KNOWN or value in _known:
        return
    with _known_lock:
        # A key-shaped value is shown as its shape would be (``sk-ant-[redacted]``), whichever rule masks it.
        shaped = _KEY_SHAPES.sub(lambda m: m.group(1)[:7] + REDACTED if m.group(1) else m.group(0), value)
        _known[value] = shaped if shaped != value else value[:4] + REDACTED if len(value) >= 16 else REDACTED
        _known_pattern = re.compile("|".join(re.escape(v) for v in sorted(_known, key=len, reverse=True)))


def remember_headers(headers) -> None:
    """Remember the values of secret headers (``{name: value}`` or ``[(name, value)]``, str or bytes)."""
    items = headers.items() if isinstance(headers, dict) else headers or ()
    for k, v in items:
        k = k.decode("latin-1") if isinstance(k, bytes) else str(k)
        if k.lower() in SECRET_HEADERS:
            for one in v if isinstance(v, list) else [v]:
                remember_secret(one.decode("latin-1") if isinstance(one, bytes) else one)


def remember_query_secrets(url: str) -> None:
    """Remember the values of secret query parameters (``key=…``) in ``url``."""
    if not isinstance(url, str) or "?" not in url:
        return
    for m in _PARAM.finditer(url.split("?", 1)[1]):
        if unquote(m.group(2)).lower() in SECRET_PARAMS:
            remember_secret(unquote(m.group(3)))


def scrub_secrets(text: str) -> str:
    """Mask anything shaped like an API key, and every remembered credential, inside free text.

    Keeps the first 7 characters of a key shape so the reader can tell which key it was:
    ``sk-ant-[redacted]``. Text without a secret comes back unchanged (the same object).
    """
    if not text or not isinstance(text, str):
        return text
    known = _known_pattern
    if known is not None:
        text = known.sub(lambda m: _known[m.group()], text)
    if not _maybe_key(text):
        return text

    def sub(m: re.Match) -> str:
        if m.group(1):
            return m.group(1)[:7] + REDACTED
        return f"{m.group(2)} {REDACTED}"

    return _KEY_SHAPES.sub(sub, text)


def scrub_value(value: object) -> object:
    """``value`` (parsed JSON: dicts, lists, strings...) with every string scrubbed; a new
    structure when anything changed, else the same object."""
    if isinstance(value, str):
        return scrub_secrets(value)
    if isinstance(value, dict):
        out = {k: scrub_value(v) for k, v in value.items()}
        return value if all(out[k] is value[k] for k in value) else out
    if isinstance(value, list):
        out = [scrub_value(v) for v in value]
        return value if all(a is b for a, b in zip(out, value)) else out
    return value


class ChunkScrubber:
    """Scrubs a stream chunk by chunk, also a secret that a chunk boundary cuts in two.

    The end of the previous chunk is read again with the next one: a secret found across the
    boundary has its part in the new chunk masked. And a chunk that ends with what may be the
    start of a secret (``sk-…``, ``AIza…``, ``Bearer …``, or the start of a remembered credential)
    has that end masked at once, because the part before a boundary is written before the rest
    arrives: at most the key's type prefix (``sk-``) is ever written."""

    KEEP = 256
    """Characters of the previous chunk read again (longer than any key shape's prefix)."""

    def __init__(self) -> None:
        self._tail = ""

    def scrub(self, text: str) -> str:
        joined = self._tail + text
        n = len(self._tail)
        self._tail = joined[-self.KEEP:]
        spans = [m.span() for m in _KEY_SHAPES.finditer(joined)] if _maybe_key(joined) else []
        known = _known_pattern
        if known is not None:
            spans += [m.span() for m in known.finditer(joined)]
        cut = _open_secret(joined, n)
        if cut is not None:
            spans.append((cut, len(joined)))
        spans = sorted(span for span in spans if span[1] > n)
        if not spans:
            return text
        out, pos = [], n
        for a, b in spans:
            if b <= pos:
                continue
            start = max(a, pos)
            out.append(joined[pos:start])
            piece = joined[a:b] if a >= n else ""
            masked = scrub_secrets(piece) if piece else piece
            out.append(masked if masked != piece else REDACTED)
            pos = b
        out.append(joined[pos:])
        return "".join(out)


_OPEN_KEY = re.compile(r"(?:\bsk-[A-Za-z0-9_-]{3,}|\bAIza[0-9A-Za-z_-]{2,}|(?i:\bBearer)\s+[A-Za-z0-9._~+/-]{3,})\Z")
"""A chunk ending in what may be the first part of a key (it may go on in the next chunk)."""


def _open_secret(joined: str, n: int) -> int | None:
    """Where a possible secret starts at the very end of ``joined`` (within its last chunk, which
    starts at ``n``), else None. The type prefix (``sk-``, ``AIza``, ``Bearer ``) stays readable."""
    tail = joined[-200:]
    m = None
    if "sk-" in tail or "AIza" in tail or "earer" in tail.lower():  # the regex is the slow part
        m = _OPEN_KEY.search(joined, max(0, len(joined) - 200))
    if m is not None and m.end() > n:
        head = m.group()
        keep = 3 if head.startswith("sk-") else 4 if head.startswith("AIza") else len(head) - len(head.split()[-1])
        return max(m.start() + keep, n)
    # A remembered credential whose first k >= 4 characters end the text: find its first four
    # characters in the last len(value) - 1 characters, then compare once (no per-length loop).
    end = len(joined)
    for value in list(_known):
        head, p = value[:4], end - len(value) + 1
        while True:
            p = joined.find(head, max(p, 0), end)
            if p < 0:
                break
            if value.startswith(joined[p:]):
                return max(p, n)
            p += 1
    return None


def _maybe_key(text: str) -> bool:
    return "sk-" in text or "AIza" in text or "earer" in text or "EARER" in text
