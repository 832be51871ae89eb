"""What leaves the process: secrets redacted (made safe for a terminal: ``inspector.model.display``).

Why it exists: captures, reports and screens are shared in bug reports, so API keys must never
reach a file, stdout or the screen. One mechanism serves every sink (recordings, JSON/text/GitHub
reports, the TUI, logs, exports):

- by place: headers and query parameters whose *name* has a word saying it holds a secret (``key``,
  ``...token``, ``auth...``, ``secret``, ``password``, ``cookie``, ``signature``, ``credential``:
  ``authorization``, ``x-api-key``, ``x-portkey-api-key``, ``cf-aig-authorization``, ``?token=``;
  ``tokens`` is a count and ``monkey`` a word, not secrets) become ``[redacted]`` (SPEC.md "Capture files");
- by shape: anything shaped like a credential (``keyshapes.SHAPES``: OpenAI, Anthropic, Google,
  AWS, GitHub, GitLab, Slack, Hugging Face, OpenRouter, JWTs; ``Bearer``/``Basic`` credentials),
  anywhere in any text or JSON value (``scrub_secrets``, ``scrub_value``); across the chunks or
  events of a stream, also a key that a boundary cuts in two, or that a stream sends in two
  deltas (``ChunkScrubber``; for sinks that show events one by one, ``EventMasks``);
- by value: the exact credentials this process sent or forwarded (``remember_secret``), whatever
  their shape (a 401 that echoes an unusual token);
"""
from __future__ import annotations

import re
from _thread import allocate_lock  # ``threading.Lock`` itself, without importing ``threading`` (start-up)
from bisect import bisect_right
from functools import cache, lru_cache
from itertools import repeat
from operator import itemgetter
from inspector.model.static import TypeVar, overload

import orjson

from inspector.model.events import EventRecord, parse_payload
from inspector.model.lazyre import lazy
from inspector.capture.keyshapes import (BEARER_END, HEAD_STARTS, HEADS, OPEN, TRAIL, basic_open, key_matches, maybe_key,
                                        open_keep, readable, sub_keys)

try:
    from inspector.capture import _runscan  # the recurring cut in C (hatch_build.py), when it was built
except ImportError:  # no C compiler at install: the same cut in Python (``recurring_cut``)
    _runscan = None  # type: ignore[assignment]  # the module is optional

K = TypeVar("K")
V = TypeVar("V")

REDACTED = "[redacted]"

SECRET_HEADERS = frozenset({
    "authorization", "proxy-authorization", "x-api-key", "x-goog-api-key", "api-key",
    "cookie", "set-cookie", "x-auth-token", "x-amz-security-token",
})
"""Header names (lower case) whose values are secrets (SPEC.md, plus their proxy/cookie twins and
the AWS session token that rides beside a SigV4 ``authorization``)."""

SECRET_PARAMS = frozenset({"key", "api_key", "api-key", "apikey", "x-goog-api-key", "access_token",
                           "x-amz-security-token", "x-amz-signature", "sig"})
"""Query parameter names (lower case) whose values are secrets (SPEC.md: ``key=``; the others are
the same secret under other common spellings). Any name of a secret's shape counts too (``is_secret_name``)."""

_NAME_PARTS = lazy(r"[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])")
"""Where a name splits into words: ``x-portkey-api-key`` -> x, portkey, api, key; ``pageToken`` -> page, token."""

_SECRET_WORD = lazy(r"(?:api|access|secret|private|auth)?key|.*token|auth.*|.*secret.*|.*passw.*|.*cookie.*"
                          r"|.*signature.*|.*credential.*|sig")
"""A word of a name that says the value is a secret (whole word: ``monkey`` is not a key, ``tokens``
is a count, ``authorization``, ``xsrftoken`` and ``set-cookie`` are secrets)."""


_PARAM = lazy(r"(^|[&;])([^=&;]*)=([^&;]*)")


def is_secret_name(name: object) -> bool:
    """True when a header or query parameter called ``name`` holds a secret (module docstring, "by place")."""
    text = str(name)
    lower = text.lower()
    if lower in SECRET_HEADERS or lower in SECRET_PARAMS:
        return True
    return any(_SECRET_WORD.fullmatch(word.lower()) for word in _NAME_PARTS.split(text) if word)


def redact_headers(headers: dict | None) -> dict:
    """Return a copy of ``headers`` (``{name: value}``) with secret values replaced by ``[redacted]``.

    Names keep their case; matching is case-insensitive and by the name's shape (``is_secret_name``).
    ``None`` gives ``{}``.
    """
    if not headers:
        return {}
    return {k: (REDACTED if is_secret_name(k) else v) for k, v in headers.items()}


@overload
def redact_url(url: str) -> str: ...
@overload
def redact_url(url: None) -> None: ...
def redact_url(url: str | None) -> str | None:
    """Return ``url`` with secret query values and any userinfo password replaced by ``[redacted]``.

    Anything key-shaped anywhere in it is masked too (``scrub_secrets``: a key in the path, or in a
    parameter whose name does not say it is a secret). Everything else is kept byte for byte
    (parameter order, encoding, fragment). A string that is not a URL comes back unchanged apart
    from ``key=…`` pairs after a ``?`` and key shapes.
    """
    if not isinstance(url, str) or not url:
        return url
    return scrub_secrets(_redact_url_places(url))


def _redact_url_places(url: str) -> str:
    """``redact_url`` by place only: secret query values and a userinfo password."""
    from urllib.parse import unquote, urlunsplit  # only for a URL: ``check`` of a body needs none
    from inspector.model.urls import split_url
    parts = split_url(url)  # one urllib refuses (a bracket in the userinfo) still has its password masked
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
            if is_secret_name(unquote(name)):
                return f"{m.group(1)}{name}={REDACTED}"
            return m.group(0)

        query = _PARAM.sub(sub, query)
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def _masked(m: re.Match) -> str:
    """What a ``keyshapes.KEY`` match is shown as: its type prefix (or scheme word) then ``[redacted]``;
    ``m`` comes from ``key_matches``, so a ``Basic`` word is followed by a credential."""
    if m.group(1):
        return m.group(1)[:readable(m.group(1))] + REDACTED
    if m.group(2):
        return f"{m.group(2)} {REDACTED}"
    return f"{m.group(4)} {REDACTED}"


_known: dict[str, str] = {}
"""Credentials this process sent or forwarded: value -> what to show instead."""
_known_lock = allocate_lock()
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
        shaped = sub_keys(value, lambda m: _masked(m) if m.group(1) else m.group(0))
        _known[value] = shaped if shaped != value else value[:4] + REDACTED if len(value) >= 16 else REDACTED
        _known_pattern = re.compile("|".join(re.escape(v) for v in sorted(_known, key=len, reverse=True)))


def remember_headers(headers) -> None:
    """Remember the values of secret headers (``{name: value}`` or ``[(name, value)]``, str or bytes)."""
    items = headers.items() if isinstance(headers, dict) else headers or ()
    for k, v in items:
        k = k.decode("latin-1") if isinstance(k, bytes) else str(k)
        if is_secret_name(k):
            for one in v if isinstance(v, list) else [v]:
                remember_secret(one.decode("latin-1") if isinstance(one, bytes) else one)


def remember_query_secrets(url: str) -> None:
    """Remember the values of secret query parameters (``key=…``) in ``url``."""
    if not isinstance(url, str) or "?" not in url:
        return
    from urllib.parse import unquote
    for m in _PARAM.finditer(url.split("?", 1)[1]):
        if is_secret_name(unquote(m.group(2))):
            remember_secret(unquote(m.group(3)))


def scrub_secrets(text: str) -> str:
    """Mask anything shaped like an API key, and every remembered credential, inside free text.

    Keeps a key's type prefix so the reader can tell which key it was: ``sk-ant-[redacted]``,
    ``AKIA[redacted]``. Text without a secret comes back unchanged (the same object).
    """
    if not text or not isinstance(text, str):
        return text
    known = _known_pattern
    if known is not None:
        text = known.sub(lambda m: _known[m.group()], text)
    if "\\u00" in text and _ESCAPE.search(text) is not None:
        return _scrub_escaped(text)
    if not maybe_key(text):
        return text
    return sub_keys(text, _masked)


def scrub_remembered(text: str) -> str:
    """``text`` with every remembered credential masked, and nothing else: the first of
    ``scrub_secrets``'s steps alone (the same object when none occurs). For a caller that has
    ruled the other steps out already (``report.unmasked``: no ``\\u00``, no ``maybe_key`` substring)."""
    known = _known_pattern
    return text if known is None else known.sub(lambda m: _known[m.group()], text)


_ESCAPE = lazy(r"\\+u00([2-7][0-9A-Fa-f])")
"""A JSON ``\\uXXXX`` escape of a printable ASCII character (key characters are all such), at any
depth of nesting: ``\\u0061`` in a tool call's arguments is ``\\\\u0061`` in the event that streams them.
RFC 8259 §7 lets a writer escape any character, so a key may reach us as ``sk-\\u0061nt-…``."""


def _unescaped(text: str) -> tuple[str, list[int], list[tuple[int, int]]]:
    """``text`` with each ``_ESCAPE`` written as its character, and where each escape was:
    ``(decoded, at, raw)``: the escape that became ``decoded[at[i]]`` is ``text[raw[i][0]:raw[i][1]]``."""
    out, at, raw = [], [], []
    pos = d = 0
    for m in _ESCAPE.finditer(text):
        a = m.start()
        out.append(text[pos:a])
        d += a - pos
        out.append(chr(int(m.group(1), 16)))
        at.append(d)
        raw.append((a, m.end()))
        d += 1
        pos = m.end()
    out.append(text[pos:])
    return "".join(out), at, raw


def _raw_offset(at: list[int], raw: list[tuple[int, int]], d: int, end: bool = False) -> int:
    """Where decoded character ``d`` begins in the text (``end``: where decoded character ``d - 1`` ends)."""
    if end:
        i = bisect_right(at, d - 1) - 1
        if i >= 0 and at[i] == d - 1:
            return raw[i][1]
        return d if i < 0 else raw[i][1] + (d - at[i] - 1)
    i = bisect_right(at, d) - 1
    if i < 0:
        return d
    return raw[i][0] if at[i] == d else raw[i][1] + (d - at[i] - 1)


def escaped_key_spans(text: str, start: int = 0) -> list[tuple[int, int, str]] | None:
    """The secrets of ``keyshapes.KEY`` (and the remembered credentials) in ``text[start:]`` read
    with its JSON ``\\u00XX`` escapes decoded (``_ESCAPE``), as ``(begin, end, shown)`` offsets in
    ``text``; ``shown``: what the key is written as masked (``sk-ant-[redacted]``). None when ``text[start:]`` holds no
    such escape (then the plain ``KEY`` scan finds everything: the common, cheap case)."""
    if text.find("\\u00", start) < 0 or _ESCAPE.search(text, start) is None:
        return None
    decoded, at, raw = _unescaped(text[start:])
    found = []
    known = _known_pattern
    if known is not None:
        found += [(m.start(), m.end(), _known[m.group()]) for m in known.finditer(decoded)]
    if maybe_key(decoded):
        found += [(m.start(), m.end(), shown) for m in key_matches(decoded) if (shown := _masked(m)) != m.group(0)]
    return _apart([(start + _raw_offset(at, raw, a), start + _raw_offset(at, raw, b, end=True), shown)
                   for a, b, shown in found])


def _apart(found: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """``found`` sorted, spans that overlap an earlier one merged into it."""
    found.sort()
    out: list[tuple[int, int, str]] = []
    for span in found:
        if out and span[0] < out[-1][1]:
            if span[1] > out[-1][1]:
                out[-1] = (out[-1][0], span[1], out[-1][2])
            continue
        out.append(span)
    return out


def _scrub_escaped(text: str) -> str:
    """``scrub_secrets`` of a text holding JSON ``\\u00XX`` escapes: every key, escaped or not, masked."""
    spans = escaped_key_spans(text) or []
    if not spans:
        return text
    out, pos = [], 0
    for a, b, shown in spans:
        out.append(text[pos:a])
        out.append(shown)
        pos = b
    out.append(text[pos:])
    return "".join(out)


def masked_as(a: int, b: int, shown: str) -> str:
    """What characters ``a:b`` of ``text`` holding a secret are written as when offsets must hold
    (a view, an excerpt): ``shown`` (``sk-ant-[redacted]``) padded with ``*`` to the same length; a
    span shorter than that keeps what it can of the readable prefix, then ``*``."""
    n = b - a
    if len(shown) <= n:
        return shown + "*" * (n - len(shown))
    prefix = shown[:-len(REDACTED)] if shown.endswith(REDACTED) else ""
    return (prefix[:n] + "*" * n)[:n]


def mask_in_place(text: str) -> str:
    """``text`` with each secret (``secret_spans``) written as ``masked_as`` gives it: the same
    length, so an offset into the text (a first difference, a window to quote) still points right.
    The same object when ``text`` holds no secret."""
    spans = secret_spans(text)
    if not spans:
        return text
    out, pos = [], 0
    for a, b, shown in spans:
        out += [text[pos:a], masked_as(a, b, shown)]
        pos = b
    out.append(text[pos:])
    return "".join(out)


def secret_spans(text: str, start: int = 0) -> list[tuple[int, int, str]]:
    """Where the secrets of ``text[start:]`` are, for a view that marks them in place: ``(begin,
    end, shown)`` offsets in ``text``, sorted and apart, ``shown`` what ``scrub_secrets`` writes
    instead (``sk-ant-[redacted]``). Key shapes (also written in JSON escapes) and remembered
    credentials; a key that begins before ``start`` is not found (start at or before its beginning)."""
    found: list[tuple[int, int, str]] = []
    known = _known_pattern
    if known is not None:
        found += [(m.start(), m.end(), _known[m.group()]) for m in known.finditer(text, start)]
    escaped = escaped_key_spans(text, start)
    if escaped is not None:
        found += escaped
    elif maybe_key(text[start:] if start else text):
        found += [(m.start(), m.end(), shown) for m in key_matches(text, start)
                  if (shown := _masked(m)) != m.group(0)]
    return _apart(found)


def clipped(text: str, n: int) -> str:
    """The first ``n`` characters of ``text`` (then ``…`` when it was longer), secrets masked
    before the cut: a key cut short no longer looks like one (a finding that quotes arguments)."""
    text = scrub_secrets(text)
    return text if len(text) <= n else text[:n] + "…"


@overload
def scrub_value(value: dict[K, V]) -> dict[K, V]: ...


@overload
def scrub_value(value: object) -> object: ...


def scrub_value(value: object) -> object:
    """``value`` (parsed JSON: dicts, lists, strings...) with every string scrubbed, member names
    too (``{"sk-ant-…": 1}``: a model or a client may use a key as a name); a new structure when
    anything changed, else the same object. Two names that mask alike keep the last value."""
    return _scrubbed(value, {})


_NEW = object()


def _scrubbed(value: object, names: dict) -> object:
    """``scrub_value``; ``names``: member names scrubbed so far in this walk, and what they became
    (None: unchanged; a body repeats a few names thousands of times)."""
    if isinstance(value, str):
        return scrub_secrets(value)
    if isinstance(value, dict):
        pairs = []
        for k, v in value.items():
            k2 = names.get(k, _NEW)
            if k2 is _NEW:
                masked = scrub_secrets(k) if k.__class__ is str else k
                k2 = names[k] = None if masked is k else masked
            pairs.append((k, k if k2 is None else k2, v, _scrubbed(v, names)))
        if all(k is k2 and v is v2 for k, k2, v, v2 in pairs):
            return value
        return {k2: v2 for _, k2, _, v2 in pairs}
    if isinstance(value, list):
        items = [_scrubbed(v, names) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else items
    return value


STREAMED_FIELDS = ("text", "partial_json", "thinking", "content", "arguments", "reasoning_content", "reasoning",
                   "refusal", "delta", "input", "tool_plan")
"""The JSON fields streams cut text into, one piece per event (SPEC.md's dialects): Anthropic
``text_delta.text``, ``input_json_delta.partial_json``, ``thinking_delta.thinking``; OpenAI Chat
``delta.content``, ``function.arguments``, ``reasoning_content``/``reasoning``, ``refusal``;
Responses ``*.delta``; Gemini ``parts[].text``; Ollama ``message.content``/``thinking``; Cohere
``text``, ``arguments``, ``tool_plan``; Bedrock ConverseStream ``delta.text``, ``toolUse.input``,
``reasoningContent.text``. A key the model writes is split across events only there; identifiers
and types are whole in each event. Every dialect's ``run_keys`` is here (a test holds it)."""



def _trie(words: list[str]) -> str:
    """An alternation matching exactly ``words``, common beginnings factored out: the regex engine
    tries one branch per first character instead of every word at every quote of a chunk."""
    if "" in words:
        rest = [w for w in words if w]
        return f"(?:{_trie(rest)})?" if rest else ""
    heads: dict[str, list[str]] = {}
    for w in words:
        heads.setdefault(w[0], []).append(w[1:])
    branches = [re.escape(c) + _trie(tails) for c, tails in heads.items()]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


@cache
def _streamed_name() -> str:
    """An alternation matching exactly the names in ``STREAMED_FIELDS`` (built once, when one of the
    three patterns using it is first used)."""
    return _trie(list(STREAMED_FIELDS))


_STREAMED_VALUE = lazy(lambda: r'"(' + _streamed_name() + r')"\s*:\s*"')
"""The opening of a value of one of ``STREAMED_FIELDS`` (``"text":"``)."""
_VALUE = lazy(lambda: r'"(' + _streamed_name() + r')"\s*:\s*"([^"\\]*(?:\\.[^"\\]*)*\\?)("?)')
"""A whole value of one of ``STREAMED_FIELDS``: its name, its body as it is written (escapes kept),
and its closing quote (empty when the text ends inside it)."""
_NAME = itemgetter(0)
_BODY = itemgetter(1)


def _streamed_values(joined: str, start: int, n: int) -> list[tuple[str, str, str]]:
    """Each value of ``STREAMED_FIELDS`` found from ``start`` whose body begins at or after ``n`` (one
    begun before is followed as ``ChunkScrubber._inside``), in order: its name, its body as written
    (escapes kept) and its closing quote (``""``: the text ends inside it). One ``findall``: no
    Python per value (stream deltas are short: a token or two)."""
    first = _VALUE.search(joined, start)
    if first is None:
        return []
    rest = _VALUE.findall(joined, first.end())
    return rest if first.start(2) < n else [(first[1], first[2], first[3]), *rest]


def _plain(found: list[tuple[str, str, str]]) -> bool:
    """True when the streamed values of a piece with no key prefix (``maybe_key``), no remembered
    credential and no value followed from earlier pieces leave nothing to mask and no state: one
    value per name, each closed and not ending in what may begin a key (the common piece: one event)."""
    if len({name for name, _, _ in found}) != len(found):
        return False
    return all(closed and _key_begun(body, 0, len(body), False) is None for _, body, closed in found)


def _key_spans(text: str) -> list[tuple[int, int]]:
    """Where the secrets of ``keyshapes.KEY`` are in ``text`` (a ``Basic`` word before anything but a
    credential is not one), also those written with JSON escapes (``escaped_key_spans``)."""
    escaped = escaped_key_spans(text)
    if escaped is not None:
        return [(a, b) for a, b, _ in escaped]
    return [m.span() for m in key_matches(text)]


def _value_end(text: str, start: int, floor: int | None = None) -> int:
    """The position of the quote that closes the JSON string starting at ``start``, or -1. ``floor``:
    where the string's body began, when before ``start`` (a value the previous piece ended inside: a
    backslash ending that piece escapes a quote opening this one)."""
    i = start
    lo = start if floor is None else floor
    while True:
        q = text.find('"', i)
        if q < 0:
            return -1
        k = q
        while k > lo and text[k - 1] == "\\":
            k -= 1
        if (q - k) % 2 == 0:
            return q
        i = q + 1


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~+/=-")
"""Characters a key or token is made of: a value ending in one may have begun a key."""
_WORD_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
"""What ``keyshapes.KEY`` takes for the word a key would be the tail of (no key begins after one)."""


class ChunkScrubber:
    """Scrubs a stream piece by piece (network chunks, or events' data in order), also a secret
    that a boundary cuts in two, and one that the stream sends in two deltas.

    - A boundary: the end of the previous piece is read again with the next one, so a secret found
      across it has its part in the new piece masked; and a piece that ends with what may be the
      start of a secret (``sk-…``, ``AKIA…``, ``Bearer …``, ``Basic …``, or the start of a remembered
      credential) has that end masked at once, because the part before a boundary is written before
      the rest arrives: at most the key's type prefix (``sk-``, the scheme word) is ever written.
    - Two deltas (issue 23 item 11): a key streamed as ``"text":"…sk"`` in one event and
      ``"text":"-ant-api03-…"`` in the next is one key in the assembled block, but neither event
      holds all of it. So each value of the fields streams cut text into (``STREAMED_FIELDS``:
      ``text``, ``partial_json``, ``arguments``, ``delta``...) is read after the end of the last
      value of the same name when that one ended in what may begin a key (a type prefix, or any
      start of one: ``s``, ``sk``, ``github_p``): whatever part of a key it continues is masked,
      and a value ending in what may be a key's first part has that end masked at once (the next
      value, which may finish it, comes later). Key characters never need escaping in JSON, so the
      raw text is read as it is. A value ending in a scheme word (``Basic``, ``bearer``) is read on
      with the next too (the token boundary ``Basic`` | `` dXNl…``); a word a delta cuts inside
      itself (``Bas`` | ``ic dXNl…``) is not followed: tokenizers write it whole, and following
      every value that ends in ``b`` or ``be`` would read in full the piece holding it and the next
      (2.4 % of the pieces of an English-like stream whose deltas end in `` be`` 1.2 % of the time).

    The trade-off of the scheme words (``Bearer``, ``Basic``, in any case: RFC 9110 §11.1): they are
    also English (``Basic usage``, ``BASIC programs``), yet a piece ending in the word, white space
    and base64 characters may end in a credential's first part, which nothing can tell from an
    ordinary word before the rest arrives. So that end is masked whenever a boundary falls right
    there (``Basic us`` | ``age``: ``Basic [redacted]age``; rare, a boundary inside that run), and
    never otherwise. After a spelling other than ``Basic`` the whole credential is masked only
    when it decodes to printable ``user:password`` (``keyshapes.is_basic_credential``: ``basic``
    before a word is common prose), so its open end is masked only while its bytes so far may still
    begin printable text (``keyshapes.basic_open``: ``basic us`` decodes to 0xBA and is kept,
    ``BASIC PR`` to ``=`` and is masked): masking what can no longer become a credential the whole
    rule masks would cost prose and protect nothing. ``Bearer`` at a chunk boundary masks its open
    end once it holds three token characters (``keyshapes.OPEN``: two may be written), at a delta
    boundary from the first.
    """

    KEEP = 256
    """Characters of the previous piece read again (longer than any key shape's prefix), and of a
    value kept as the context of the next value of its name."""

    NAMES = 64
    """Most value names whose last value is kept (a stream inventing names cannot grow it)."""

    def __init__(self) -> None:
        self._tail = ""
        self._last: dict[str, str] = {}
        """Value name -> the end of its last value, when that ended in a key character."""
        self._inside: tuple[str, str] | None = None
        """The value the previous piece ended inside: its name and its content so far."""
        self._opening: str | None = None
        """The opening (``"text":"``) of the streamed field the last pieces were runs of (``_run``)."""
        self._between: set[str] = set()
        """Texts seen between one value of that field and the next (``"}}\n\nevent: …"type":"text_delta",``)
        that hold no key prefix, ``\\u00`` escape, remembered credential or opening of a streamed field."""
        self._between_for: re.Pattern | None = None
        """The remembered credentials (``_known_pattern``) ``_between`` was checked against."""
        self._frames: set[tuple[str, str]] = set()
        """Frames ``_framed`` found clean (their head and tail), checked against ``_between_for``."""
        self._after: str | None = None
        """The text between one value and the next that recurs in the last run (``_cut``)."""
        self._skip = 0
        """Pieces still to leave to the full reading (``SKIP_VARYING``)."""
        self.cut: tuple[str, bytes, bytes, bytes | None, str] | None = None
        """How ``_run`` cut the piece ``scrub`` returned last (unchanged) when it was a recurring
        run (``_recurring``), else None: ``(head, opening, between, middle, end)``, the piece being
        ``head``, the field's opening (``"text":"``), the values' bodies each followed by the text
        between two values (a value's closing quote, the text after it that recurs, the next
        opening), then ``end``. ``opening`` and ``between`` as a JSON string holds them (bytes,
        without its quotes), ``middle`` the bodies but the last joined by ``between`` as a JSON
        string holds them, when JSON escapes nothing in them (else None): the piece's record is
        ``head`` escaped, ``opening``, ``middle``, ``between``, ``end`` escaped, and
        ``records.chunk_line`` writes it so without reading the text again."""
        self.frames: object = None
        """Set by ``records.chunk_record`` on the stream's first piece: False for a text body, else
        (an AWS event-stream body) what re-frames its masked messages (``records.EventStreamCrc``)."""

    def scrub(self, text: str, keep_length: bool = False) -> str:
        """``text`` (the stream's next piece) with its secrets masked (class docstring).
        ``keep_length``: each masked part is written as ``masked_as`` gives it, the same number of
        characters (a binary body, whose framing counts bytes: the piece's key characters are ASCII)."""
        joined = self._tail + text
        n = len(self._tail)
        self.cut = None
        if self._skip:
            self._skip -= 1
        elif len(text) >= self.RUN_MIN and self._inside is None and not self._last and self._run(joined, n, text):
            self._tail = joined[-self.KEEP:]
            return text
        self._tail = joined[-self.KEEP:]
        hot = maybe_key(joined)
        known = _known_pattern
        found = None
        if (not hot and "\\u00" not in joined and self._inside is None and not self._last
                and (known is None or known.search(joined) is None)
                and (not _known or _open_secret(joined, n, False) is None)):
            found = _streamed_values(joined, n - 32 if n > 32 else 0, n)
            if _plain(found):  # nothing to mask, no state: the common piece
                return text
        spans = _key_spans(joined) if hot or "\\u00" in joined else []
        if known is not None:
            spans += [m.span() for m in known.finditer(joined)]
        cut = _open_secret(joined, n, hot)
        if cut is not None:
            spans.append((cut, len(joined)))
        self._across_values(joined, n, spans, hot, found)
        return _render(joined, n, text, spans, keep_length)

    RUN_MIN = 1024
    """Shortest piece ``_run`` is tried on: a piece of one or two events (a few hundred bytes) is
    settled cheaper by ``_plain`` (``bench/bench_scrub.py``)."""

    SKIP_VARYING = 16
    """Pieces left to the full reading after a run whose texts between values all differed (a
    per-event ``obfuscation`` or ``sequence_number``): checking each is the value regex again, so
    ``_run`` would only add its own passes (``bench/bench_scrub.py``)."""

    BETWEEN_KEPT = 256
    """Most texts kept in ``_between`` (a stream whose events all differ cannot grow it)."""

    def _run(self, joined: str, n: int, text: str) -> bool:
        """True, with ``_inside`` set as ``scrub`` would set it, when ``text`` (``joined[n:]``) is
        provably a piece ``scrub`` returns unchanged: a run of values of one streamed field
        (``"text":"…"``), no key prefix, escape or remembered credential anywhere, no opening of
        another streamed value, no value beginning a key. False (``_tail``, ``_last`` and ``_inside``
        untouched; only what ``_run`` learns may change): ``scrub`` reads the piece in full. The common piece of a fast stream (64 deltas: a few C passes, no regex
        over the whole text, no Python per value).

        Why it is the same: the piece is cut (``_cut``) into the head (what comes before the
        first opening; with the previous piece's tail), each value's body up to its closing quote
        (escapes read as ``_VALUE`` reads them) and the text after it. Every cut is next to a raw
        ``"``, which no key prefix, ``\\u00`` or remembered credential (checked) holds, so
        ``maybe_key(joined)`` and the rest are their union over the parts; the bodies of one name
        read as one text are what ``_settle`` reads. ``_VALUE.finditer`` over ``joined`` finds
        exactly these values when no opening of a streamed field starts in a text between
        (checked on each with a ``"`` after it: an opening ends at the latest at the quote that
        begins the next one), and its own scan of the head reaches the first of them."""
        known = _known_pattern
        if known is not self._between_for:
            if known is not None and any('"' in v for v in list(_known)):
                return False
            self._between, self._between_for, self._opening, self._after = set(), known, None, None
            self._frames = set()
        cut = self._cut(text)
        if cut is None:
            return False
        start, values, new, closed, end, pieces = cut
        head = joined[:n + start]
        key = maybe_key if _runscan is None else _runscan.maybe_key  # the same test, in C when it was built
        # ``"\\" in``: one ``memchr``; most pieces hold no backslash, and no escape without one.
        if key(head) or ("\\" in head and "\\u00" in head) or (known is not None and known.search(head) is not None):
            return False
        if (key(values) or ("\\" in values and ("\\u00" in values or "\\\n" in values))
                or (known is not None and known.search(values) is not None)):
            return False
        framed = False
        if new:
            # The text after the last value runs to the piece's end: it is read on its own.
            framed = len(new) > 8 and self._framed(new - {end}, known) and _clean({end}, known)
            if not framed and not _clean(new, known):
                return False
        if _known and _open_secret(joined, n, False) is not None:
            return False
        if closed and _key_begun(values, 0, len(values), False) is not None:
            return False
        # The head: ``_VALUE``'s own scan from where ``_streamed_values`` starts reaches the first value
        # (the previous piece's last value, whose body began before ``n``, dropped as it drops it).
        first = n + start
        m = _VALUE.search(joined, n - 32 if n > 32 else 0)
        if m is not None and m.start() < first and m.start(2) < n:
            m = _VALUE.search(joined, m.end())
        if m is None or m.start() != first:
            return False
        if len(new) > 8:  # texts between values that every event changes: not worth keeping, nor ``_run``
            if not framed:  # ... when no frame shared by all of them spares reading each whole
                self._skip = self.SKIP_VARYING
        elif new:
            if len(self._between) + len(new) > self.BETWEEN_KEPT:
                self._between = set()
            self._between |= new
        self._inside = None if closed else (m.group(1), values[-self.KEEP:])
        self.cut = pieces
        return True

    FRAMES_KEPT = 16
    """Most frames kept in ``_frames`` (a stream whose frames all differ cannot grow it)."""

    def _framed(self, new: set[str], known: re.Pattern | None) -> bool:
        """True when ``new`` (texts between values, each followed in the piece by the opening of the
        next value, so read as ``_clean`` reads them: each after a ``"`` and with one appended) holds
        no key prefix, ``\\u00``, remembered credential or opening of a streamed value, proven from
        the frame they share: the stream's common case where one field changes per event (OpenAI's
        ``obfuscation``, a time). False: ``_clean`` decides, reading each whole.

        Each text is ``head + middle + tail``, ``head`` their common beginning up to its last
        ``"``, ``tail`` what follows the first ``"`` after it (the same in all of them), ``middle``
        without a ``"``. None of those can be cut by a ``"`` (no prefix, escape or remembered
        credential holds one), so the middles read as one text (joined by ``"``) and the frame
        (read once: ``_frames``) stand for all of them. An opening (``"name"\\s*:\\s*"``) not
        within the head or the tail (with its ``"`` appended) would span a middle: its three
        quotes on either side of it, so the head ending in ``"name"`` and the middle ``\\s*:\\s*``
        (ruled out: ``_NAME_ENDS``), or the middle being the name and the tail going on ``"\\s*:``
        (ruled out: ``_NAME_CLOSE``)."""
        texts = list(new)
        low, high = min(texts), max(texts)  # the common beginning of all is that of these two
        a, b = 0, min(len(low), len(high))
        while a < b:  # the longest k with low[:k] == high[:k]
            k = (a + b + 1) // 2
            if low[:k] == high[:k]:
                a = k
            else:
                b = k - 1
        head = low[:low.rfind('"', 0, a) + 1]
        q = low.find('"', len(head))
        tail = low[q:] if q >= 0 else ""
        lh, lt = len(head), len(tail)
        if min(map(len, texts)) < lh + lt or not all(map(str.endswith, texts, repeat(tail))):
            return False
        frame = (head, tail)
        if frame not in self._frames:
            if (maybe_key(head) or maybe_key(tail) or "\\u00" in head or "\\u00" in tail
                    or _STREAMED_VALUE.search(head) is not None or _STREAMED_VALUE.search(tail + '"') is not None
                    or _NAME_ENDS.search(head) is not None or _NAME_CLOSE.match(tail) is not None
                    or (known is not None and (known.search(head) is not None or known.search(tail) is not None))):
                return False
            if len(self._frames) >= self.FRAMES_KEPT:
                self._frames.clear()
            self._frames.add(frame)
        middles = '"'.join([t[lh:len(t) - lt] for t in texts])
        return (middles.count('"') == len(texts) - 1 and not maybe_key(middles) and "\\u00" not in middles
                and (known is None or known.search(middles) is None))

    def _cut(self, text: str) -> tuple[int, str, set[str], str, str, tuple[str, bytes, bytes, bytes | None, str] | None] | None:
        """``text`` as ``_run`` reads it: where its first opening starts, the bodies of the values
        of that field as one text, the texts after them not yet in ``_between``, whether the
        last value closed (``'"'``) or runs on (``""``), the text after the last value, and the
        cut as ``self.cut`` keeps it (None unless recurring); None when it is no such run. Learns the
        opening (``"text":"``) and the text between values once it recurs, after which each value's
        body is its part less that text (``_cut_at_recurring``: no tuple, set or hash per value)."""
        opening, after_text = self._opening, self._after
        between = self._between
        if opening is not None and after_text is not None and after_text in between:
            recurring = _recurring(text, opening, after_text, between)
            if recurring is not None:
                return recurring
        parts = text.split(opening) if opening is not None else []
        if opening is None or len(parts) < 2:
            m = _STREAMED_VALUE.search(text)
            if m is None:
                return None
            opening, self._opening, self._after = m.group(), m.group(), None
            if _known_pattern is not None and _known_pattern.search(opening) is not None:
                return None
            parts = text.split(opening)
            if after_text is not None and len(parts) > 3 and after_text in between:  # the new opening, the old text
                recurring = _recurring(text, opening, after_text, between)
                if recurring is not None:
                    return recurring
        cut = _cut_at_openings(parts)
        if cut is None:
            return None
        bodies, after, closed = cut
        y = after[0]
        new = set(after) - between
        if len(after) > 2 and after.count(y) >= len(after) - 1:
            self._after = y
        return len(parts[0]), "".join(bodies), new, closed, after[-1], None

    def _across_values(self, joined: str, n: int, spans: list, hot: bool,
                       found: list[tuple[str, str, str]] | None = None) -> None:
        """Add the spans of ``joined`` (past ``n``) that continue a key begun in an earlier value of
        the same name, or that may begin one (class docstring). The values of one name in this
        piece are read as one text, after the end of that name's last value. Most pieces hold no
        such key: ``_nothing_across`` proves that from the values alone (one regex pass, no Python
        per value) and updates the state; else every value's place is found (``_value_spans``)."""
        if not self._nothing_across(joined, n, hot, found):
            self._value_spans(joined, n, spans, hot)

    def _nothing_across(self, joined: str, n: int, hot: bool, found: list[tuple[str, str, str]] | None = None) -> bool:
        """True, with the state updated as ``_value_spans`` would, when no value of this piece
        continues or begins a key; False (the state untouched) when ``_value_spans`` must run.
        ``found``: the piece's ``_streamed_values`` when the caller has them (no value was open)."""
        pos, inside = 0, None
        name, ctx = self._inside if self._inside is not None else ("", "")
        if self._inside is not None:
            q = _value_end(joined, n, 0)
            inside = [joined[n:q if q >= 0 else len(joined)]]
            if q < 0:  # the whole piece is inside one value
                return self._settle({name: inside}, name, hot, ctx, name)
            pos = q + 1
        if found is None or inside is not None:
            found = _streamed_values(joined, max(pos, n - 32), n)  # an opening may straddle the boundary
        names = set(map(_NAME, found))
        if len(names) == 1:
            values: dict[str, list[str]] = {found[0][0]: list(map(_BODY, found))}
        else:
            values = {}
            for field, body, _ in found:
                values.setdefault(field, []).append(body)
        left_open = found[-1][0] if found and not found[-1][2] else None
        if inside is not None:
            values[name] = inside + values.get(name, [])
            return self._settle(values, left_open, hot, ctx, name)
        return self._settle(values, left_open, hot)

    def _settle(self, values: dict[str, list[str]], left_open: str | None, hot: bool, inside_ctx: str = "",
                inside_name: str | None = None) -> bool:
        """``_nothing_across``'s verdict on the values of each name (in piece order): True, and the
        state updated, when none can hold part of a key that another value holds or ends in one."""
        known = _known_pattern
        texts = {}
        for name, parts in values.items():
            ctx = inside_ctx if name == inside_name else self._last.get(name, "")
            text = ctx + "".join(parts)
            if ctx or len(parts) > 1:
                if hot or maybe_key(text) or "\\u00" in text or (
                        known is not None and known.search(text) is not None):
                    return False
            if name != left_open and _key_begun(text, 0, len(text), hot) is not None:
                return False
            texts[name] = text
        self._inside = None
        for name, text in texts.items():
            self._last.pop(name, None)
            if name == left_open:
                self._inside = (name, text[-self.KEEP:])
        return True

    def _value_spans(self, joined: str, n: int, spans: list, hot: bool) -> None:
        """``_across_values`` with every value's place in ``joined``: the values of one name read
        as one text, the Python work per value a slice."""
        parts: dict[str, list[tuple[int, int]]] = {}
        left_open = None
        pos = 0
        if self._inside is not None:  # the previous piece ended inside a value: it goes on here
            name, ctx = self._inside
            self._inside = None
            self._last[name] = ctx  # the value's part so far is what its rest is read after
            q = _value_end(joined, n, 0)
            end = q if q >= 0 else len(joined)
            parts[name] = [(n, end)]
            if q < 0:
                left_open = name
            pos = end + 1 if q >= 0 else len(joined)
        for m in _STREAMED_VALUE.finditer(joined, max(pos, n - 32)):  # an opening may straddle the boundary
            start = m.end()
            if start < n:
                continue  # a value the previous piece began was followed as ``_inside``
            q = joined.find('"', start)
            if q > 0 and joined[q - 1] == "\\":
                q = _value_end(joined, start)
            end = q if q >= 0 else len(joined)
            parts.setdefault(m.group(1), []).append((start, end))
            if q < 0:
                left_open = m.group(1)
        for name, where in parts.items():
            self._read(name, self._last.pop(name, ""), joined, where, name == left_open, spans, hot)

    def _read(self, name: str, ctx: str, joined: str, where: list[tuple[int, int]], left_open: bool,
              spans: list, hot: bool) -> None:
        """The values of ``name`` at ``where`` (in ``joined``), read as one text after ``ctx``: mask
        what of a key crosses from one to the next, and what begins one at the end."""
        text = ctx + "".join(joined[a:b] for a, b in where)
        starts, o = [], len(ctx)
        for a, b in where:
            starts.append(o)
            o += b - a

        def mask(x: int, y: int) -> None:  # text[x:y] -> the parts of it in each value
            for (a, b), s in zip(where, starts):
                lo, hi = max(x, s), min(y, s + b - a)
                if lo < hi:
                    spans.append((a + lo - s, a + hi - s))

        if ctx or len(where) > 1:
            hot = maybe_key(text)
            found = _key_spans(text) if hot or "\\u00" in text else []
            known = _known_pattern
            if known is not None:
                found += [m.span() for m in known.finditer(text)]
            bounds = starts[1:] if not ctx else starts
            for x, y in found:
                # one value alone does not hold it, or what comes before it (``KEY``'s look-behind, up to a
                # ``\\uXXXX``) is in an earlier one: the raw scan missed it
                if any(x - 6 < s < y for s in bounds):
                    mask(x, y)
        if left_open:
            self._inside = (name, text[-self.KEEP:])
            # A key begun in an earlier value and going on in the open one: the piece's end alone does not
            # look like a key's start (``_open_secret``), yet what of the key this piece holds is written now
            # (``hot``: a key's type prefix is there; without one nothing of a secret is).
            begun = _key_begun(text, 0, len(text), hot) if hot and (len(starts) > 1 or ctx) else None
            if begun is not None and begun < len(text):
                mask(begun, len(text))
            return
        begun = _key_begun(text, 0, len(text), hot)
        if begun is None:
            return
        if begun < len(text):  # what there is of the key is masked now: the rest comes with the next value
            mask(begun, len(text))
        if len(self._last) >= self.NAMES:
            self._last.pop(next(iter(self._last)))
        self._last[name] = text[-self.KEEP:]


def _clean(new: set[str], known: re.Pattern | None) -> bool:
    """True when no text of ``new`` (texts between values, each after a ``"`` and followed by one)
    holds a key prefix, ``\\u00``, remembered credential or opening of a streamed value."""
    seen = '"'.join(new) + '"'
    return not (maybe_key(seen) or "\\u00" in seen or _STREAMED_VALUE.search(seen) is not None
                or (known is not None and known.search(seen) is not None))


_NAME_ENDS = lazy(lambda: r'"(' + _streamed_name() + r')"\Z')
"""Text ending in a streamed field's name in quotes (an opening may go on after it)."""
_NAME_CLOSE = lazy(r'"\s*:')
"""Text going on as the closing quote of a name and its colon."""


def _cut_at_openings(parts: list[str]) -> tuple[list[str], list[str], str] | None:
    """``text.split(opening)`` (``parts``) read as ``ChunkScrubber._cut`` reads it: each value's
    body, the text after it, and the last value's closing quote (``""``: open); None when a value
    other than the last does not close within its part (an opening inside a value)."""
    cut = list(map(str.partition, parts[1:], repeat('"')))
    body_parts, quotes, after_parts = zip(*cut)
    if "" in quotes[:-1]:
        return None  # a value that does not close before the next opening (``"text":"a"text":"``)
    bodies, after = list(body_parts), list(after_parts)
    if not any(map(str.endswith, bodies, repeat("\\"))):
        return bodies, after, quotes[-1]
    closed = _unescaped_ends(parts, bodies, after, quotes[-1])
    return None if closed is None else (bodies, after, closed)


def _recurring(text: str, opening: str, after: str, between: set[str]
               ) -> tuple[int, str, set[str], str, str, tuple[str, bytes, bytes, bytes | None, str]] | None:
    """``ChunkScrubber._cut`` of ``text`` when every value but the last is followed by the same text
    (``after``, known from earlier pieces): cut by ``recurring_cut`` (in C when it was built), the last
    value read as ``_cut_at_openings`` reads one; None when it is no such run."""
    closing, first, escaped = _escaped(opening, after)
    found = (_runscan.recurring_cut if _runscan is not None else recurring_cut)(text, opening, closing, escaped)
    if found is None:
        return None
    start, joined, end, middle = found
    last, closed, rest = end.partition('"')
    if last.endswith("\\"):  # its quote may be escaped: read as ``_cut_at_openings`` reads a last value
        cut = _cut_at_openings(["", end])
        if cut is None:
            return None
        (last,), (rest,), closed = cut
    pieces = (text[:start], first, escaped, middle, end)
    return start, joined + last, {rest} - between if rest else set(), closed, rest, pieces


@lru_cache(maxsize=16)
def _escaped(opening: str, after: str) -> tuple[str, bytes, bytes]:
    """The closing of a value (``'"' + after``), and ``opening`` and the text between two values
    (``'"' + after + opening``) as a JSON string holds them, without its quotes (what orjson writes).
    Escaping goes character by character, so the escaped pieces of a text join to the escaped text
    (``records.chunk_line``)."""
    return '"' + after, orjson.dumps(opening)[1:-1], orjson.dumps('"' + after + opening)[1:-1]


def recurring_cut(text: str, opening: str, closing: str, between: bytes | None) -> tuple[int, str, str, bytes | None] | None:
    """``_runscan.recurring_cut`` in Python (its docstring; the one used when the C was not built):
    ``text.split(opening)`` read by ``_cut_at_recurring``: where the first opening is, the bodies of
    the values but the last as one text, the last part, and the bodies joined by ``between`` as
    UTF-8 when JSON escapes nothing in them (else None); None when it is no such run."""
    if closing.endswith("\\"):  # it would escape the next opening's quote: no stream's recurring text does
        return None
    parts = text.split(opening)
    if len(parts) < 4:
        return None
    cut = _cut_at_recurring(text, parts, opening, closing)
    if cut is None:
        return None
    joined, bodies = cut
    middle = None
    if between is not None:
        try:
            escaped = orjson.dumps(joined)
        except orjson.JSONEncodeError:  # a surrogate (a text read with ``surrogateescape``): no UTF-8
            return len(parts[0]), joined, parts[-1], None
        # orjson adds bytes to what it escapes and writes every other character as its UTF-8.
        if len(escaped) == (len(joined) if joined.isascii() else len(joined.encode("utf-8"))) + 2:
            middle = between.decode("utf-8").join(bodies).encode("utf-8")  # one encode, not one per body
    return len(parts[0]), joined, parts[-1], middle


def _cut_at_recurring(text: str, parts: list[str], opening: str, closing: str) -> tuple[str, list[str]] | None:
    """``text.split(opening)`` (``parts``) read as ``ChunkScrubber._cut`` reads it when every value
    but the last is followed by the same text (``closing``: ``"`` and that text): the bodies of the
    values but the last (each part less ``closing``), as one text and each; None when a part does not end in ``closing``,
    or a body holds a quote it does not escape or ends in a backslash (which may escape its closing quote).

    The proofs are whole-text passes in C, none per value: each part less ``closing``
    (``str.removesuffix``) is exactly ``len(closing)`` shorter only when it ends in ``closing``, so
    the bodies' total length tells whether every part did (the parts' own total is what ``split``
    took out of ``text``); no body ends in ``\\`` when ``\\`` and the start of ``closing`` never
    meet in ``text`` (every body is followed by ``closing``); and with escaped backslashes
    (``\\\\``) taken out, a body's quote is escaped exactly when a backslash comes right before it,
    pairs read from the left as JSON reads them (no body ends in a backslash: no pair spans two)."""
    middle = parts[1:-1]
    size = len(text) - len(parts[0]) - len(parts[-1]) - (len(parts) - 1) * len(opening)  # of the middle parts
    bodies = list(map(str.removesuffix, middle, repeat(closing)))
    joined = "".join(bodies)
    if len(joined) != size - len(middle) * len(closing):
        return None  # some part does not end in ``closing``
    if "\\" in joined:
        if "\\" + closing[:8] in text:
            return None  # a body may end in a backslash that escapes its closing quote
        if '"' in joined:
            plain = joined.replace("\\\\", "") if "\\\\" in joined else joined
            if plain.count('"') != plain.count('\\"'):
                return None  # a quote no backslash escapes: the value ends there
    elif '"' in joined:
        return None
    return joined, bodies


def _unescaped_ends(parts: list[str], bodies: list[str], after: list[str], closed: str) -> str | None:
    """``ChunkScrubber._run``'s bodies, cut at each part's first ``"``, moved past quotes their own
    backslashes escape (``a\\"b``), in place: the last body's closing quote (``""``: open), or None
    when a body other than the last does not close within its part (an opening inside a value)."""
    last = len(bodies) - 1
    for i, body in enumerate(bodies):
        if body.endswith("\\") and (len(body) - len(body.rstrip("\\"))) % 2:
            part = parts[i + 1]
            q = _value_end(part, 0)
            if q >= 0:
                bodies[i], after[i] = part[:q], part[q + 1:]
            elif i != last:
                return None
            else:
                bodies[i], after[i], closed = part, "", ""
    return closed


def _key_begun(text: str, lo: int, hi: int, hot: bool) -> int | None:
    """If ``text[lo:hi]`` ends in what may be the beginning of a key: where its secret part starts
    (``hi`` when only a type prefix or part of one is there yet), else None. ``hot``: the text may
    hold a key prefix (``maybe_key``); when it does not, only a short start of one (``sk``,
    ``github_p``) or a bare ``Bearer`` or ``Basic`` can end it, which is cheaper to look for. A key's beginning
    written with JSON escapes (``sk-\\u0061nt-``, or cut inside an escape: ``sk-\\u00``) counts."""
    w = max(lo, hi - 300)
    last = text[hi - 1] if hi > lo else ""
    if last == "\\" or (last in _KEY_CHARS and text.find("\\", w, hi) >= 0 and (
            text.find("\\u00", w, hi) >= 0 or _OPEN_ESCAPE.search(text, w, hi) is not None)):
        return _escaped_begun(text, w, hi)
    return _plain_begun(text, lo, hi, hot)


_OPEN_ESCAPE = lazy(r"\\+(?:u[0-9A-Fa-f]{0,3})?\Z")
"""An escape cut short at the end of a value (its rest comes with the next one)."""


def _escaped_begun(text: str, w: int, hi: int) -> int | None:
    """``_key_begun`` of ``text[w:hi]`` read with its JSON escapes decoded (and an escape cut short
    at its end dropped): the offset in ``text``. An escape cut short may be one a key follows (``\\`` then
    ``n``, ``\\u20`` then ``28``: the key comes with the rest): ``hi``, nothing to mask yet, read on."""
    cut = _OPEN_ESCAPE.search(text, w, hi)
    end = cut.start() if cut is not None else hi
    decoded, at, raw = _unescaped(text[w:end])
    d = _plain_begun(decoded, 0, len(decoded), True)
    if d is None:
        return hi if cut is not None else None
    if d < len(decoded):
        return w + _raw_offset(at, raw, d)
    # only a key's start so far: the escape cut short is masked (it may write a key's character), not a
    # whole escaped backslash (``\\\\``: none, and masking it would change a stream with no key)
    return end if end == hi or text.count("\\", end, hi) % 2 or text[hi - 1] != "\\" else hi


def _plain_begun(text: str, lo: int, hi: int, hot: bool) -> int | None:
    """``_key_begun`` of a text read as it is written."""
    if hi <= lo:
        return None
    last = text[hi - 1]
    if last in _SPACES:  # ``Bearer`` or ``Basic`` in any case (``KEY``: RFC 9110 §11.1), its credential still to come
        return hi if text[max(lo, hi - 32):hi].rstrip(_SPACES).lower().endswith(("bearer", "basic")) else None
    if last not in _KEY_CHARS:
        return None
    if not hot:
        m = TRAIL.search(text, max(lo, hi - _LONGEST_START - 7), hi)  # room for a ``\\uXXXX`` before it
        if m is None:
            return None
        run, start = _after_escape(text, lo, m.group(), m.start())
        dot = run.rfind(".") + 1  # a key begins a word: after a full stop (as below)
        run, start = run[dot:], start + dot
        # before the run: no character ``KEY`` reads as part of a word (``=``, ``/``, ``+`` are not: ``KEY=sk``)
        ok = run in HEAD_STARTS and (start == lo or start > m.start() or text[start - 1] not in _WORD_CHARS)
        return hi if ok else None
    m = TRAIL.search(text, max(lo, hi - 256), hi)
    if m is not None:
        run, start = _after_escape(text, lo, m.group(), m.start())
        if not run.startswith("eyJ") and "." in run:  # a key begins a word: after a sentence's full stop
            dot = run.rindex(".") + 1
            run, start = run[dot:], start + dot
        if run.startswith(HEADS):
            return start + open_keep(run)
        if run in HEAD_STARTS:
            return hi
    m = BEARER_END.search(text, max(lo, hi - 300), hi)
    if m is not None:
        return m.start(1)
    begun = basic_open(text, max(lo, hi - 300), hi)
    if begun is None and text[max(lo, hi - 6):hi].lower().endswith(("bearer", "basic")):
        return hi  # the scheme word alone: its white space and credential may come with the next value
    return begun


def _after_escape(text: str, lo: int, run: str, start: int) -> tuple[str, int]:
    """A run of key characters at ``text[start:]`` less the end of a JSON escape it begins with: that
    of a control character or a ``\\uXXXX`` (``\\nsk-ant-``: a key that starts a line, ``keyshapes.KEY``)."""
    if start > lo and text[start - 1] == "\\":
        if run[0] in "bfnrt":
            return run[1:], start + 1
        if run[0] == "u" and len(run) >= 5 and all(c in _HEX for c in run[1:5]):
            return run[5:], start + 5
    return run, start


_HEX = frozenset("0123456789abcdefABCDEF")


_SPACES = " \t\n\r\f\v"
_LONGEST_START = max(map(len, HEAD_STARTS))


def _render(joined: str, n: int, text: str, spans: list[tuple[int, int]], keep_length: bool = False) -> str:
    """``text`` (``joined[n:]``) with the parts of ``spans`` past ``n`` masked: a whole key as its
    type prefix and ``[redacted]``, any other part (a key's continuation or open end) as ``[redacted]``;
    ``keep_length``: each part as ``masked_as`` writes that in its own length."""
    spans = sorted(span for span in spans if span[1] > n)
    if not spans:
        return text
    merged: list[list[int]] = []
    for a, b in spans:
        if merged and a < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    out, pos = [], n
    for a, b in merged:
        start = max(a, n)
        out.append(joined[pos:start])
        piece = joined[start:b]
        masked = scrub_secrets(piece) if a >= n else piece
        shown = masked if masked != piece else REDACTED
        out.append(masked_as(start, b, shown) if keep_length else shown)
        pos = b
    out.append(joined[pos:])
    return "".join(out)


def open_secret(text: str) -> int | None:
    """Where what may be the first part of a key ends ``text`` (``sk-ant-api0``, ``Bearer ab…``,
    ``Basic dXNl…``, the start of a remembered credential): the offset after its readable type prefix, else None.
    A view of text still arriving masks from there (the next fragment may finish the key). A
    beginning written with JSON escapes counts (``sk-\\u0061nt-api0``, or cut inside an escape)."""
    cut = _open_secret(text, max(0, len(text) - 200))
    if cut is None and text.find("\\", max(0, len(text) - 300)) >= 0:
        begun = _key_begun(text, max(0, len(text) - 300), len(text), True)
        cut = begun if begun is not None and begun < len(text) else None
    return cut


def _open_secret(joined: str, n: int, hot: bool = True) -> int | None:
    """Where a possible secret starts at the very end of ``joined`` (within its last piece, which
    starts at ``n``), else None. The type prefix (``sk-``, ``AIza``, ``Bearer ``, ``Basic ``) stays readable.
    ``hot``: False when ``joined`` holds no key prefix at all (``maybe_key``)."""
    end = len(joined)
    if hot and maybe_key(joined[-200:]):
        m = OPEN.search(joined, max(0, end - 200))
        if m is not None and m.end() > n:
            return max(m.start() + open_keep(m.group()), n)
        basic = basic_open(joined, max(0, end - 200), end)
        if basic is not None and basic < end:  # some of the credential (``hi``: only the word, nothing to mask)
            return max(basic, n)
    # A remembered credential whose first k >= 4 characters end the text: find its first four
    # characters in the last len(value) - 1 characters, then compare once (no per-length loop).
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


class EventMasks:
    """What sinks that show a stream's events one at a time (the HTML export's events table, the
    TUI's event log and event detail) show of each event: its data with the secrets a
    ``ChunkScrubber`` finds masked, also those split across events.

    ``events``: the session's events (anything indexable and sized whose items have ``data``; an
    ``inspector.model.events.EventLog``). ``data(i)`` and ``shown(i)`` may be asked in any order and
    cost at most ``2 * WINDOW`` events of scrubbing: events are scrubbed in windows of ``WINDOW``,
    each warmed up on the window before it (a key split across more than ``WINDOW`` events is not
    followed: a key is at most ~200 characters, a delta at least a token). Windows already complete
    are remembered (only their changed events).
    """

    WINDOW = 128

    def __init__(self, events) -> None:
        self.events = events
        self._windows: dict[int, dict[int, str]] = {}
        self._partial: tuple[int, int, dict[int, str]] | None = None
        """The last window still growing: its number, its end, its changed events."""

    def _window(self, k: int) -> dict[int, str]:
        done = self._windows.get(k)
        if done is not None:
            return done
        w, events = self.WINDOW, self.events
        stop = min((k + 1) * w, len(events))
        partial = self._partial
        if partial is not None and partial[0] == k and partial[1] == stop:
            return partial[2]
        scrubber, inner, changed = ChunkScrubber(), ChunkScrubber(), {}
        for i in range(max(0, (k - 1) * w), stop):
            data = events[i].data
            out = _event_masked(data, scrubber, inner)
            if i >= k * w and out != data:
                changed[i] = out
        if stop == (k + 1) * w:  # complete: the events after it cannot change it
            self._windows[k] = changed
        else:
            self._partial = (k, stop, changed)
        return changed

    def data(self, i: int) -> str:
        """Event ``i``'s data as it may be shown (the same string when nothing in it is secret)."""
        return self._window(i // self.WINDOW).get(i, self.events[i].data)

    def shown(self, i: int):
        """Event ``i`` as it may be shown: the same record, or a copy whose data (and payload) are masked."""
        ev = self.events[i]
        masked = self._window(i // self.WINDOW).get(i)
        return ev if masked is None else _masked_record(ev, masked)

    def each(self):
        """Every event as ``shown`` gives it, in order, scrubbed in one pass (half the work of
        asking ``shown`` for each: no window is read twice); a key split across any number of
        events is followed."""
        scrubber, inner = ChunkScrubber(), ChunkScrubber()
        for ev in self.events:
            masked = _event_masked(ev.data, scrubber, inner)
            yield ev if masked == ev.data else _masked_record(ev, masked)


def _event_masked(data: str, scrubber: ChunkScrubber, inner: ChunkScrubber) -> str:
    """An event's ``data`` as ``EventMasks`` shows it: scrubbed by the stream's ``scrubber``, and the
    events inside its base64 ``"bytes"`` values (AWS Bedrock's chunks) by ``inner``, which reads
    them in order (``b64values``)."""
    out = scrubber.scrub(data)
    if '"bytes"' not in out:
        return out
    from inspector.capture.b64values import mask_b64_values  # a Bedrock stream only: not check's start-up

    return mask_b64_values(out, lambda text: inner.scrub(text, True))


def _masked_record(ev, masked: str) -> EventRecord:
    """A copy of record ``ev`` whose data (and payload) is ``masked``."""
    return EventRecord(ev.index, ev.name, masked, parse_payload(masked), ev.line, ev.t, ev.named, ev.keepalive,
                       ev.block, ev.response, ev.offset)
