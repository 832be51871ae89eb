"""Secrets inside base64 ``"bytes"`` values: AWS Bedrock's InvokeModelWithResponseStream wraps each
provider event as ``{"bytes": "<base64 of the event's JSON>"}`` (``providers.bedrock_anthropic``).

Why a module of its own: a scrub of the text sees only base64 there, yet any reader (botocore, the
dialect, a person with ``base64 -d``) decodes it, so a key the model writes, or a credential a 401
echoes, would reach a recording, an export or the screen unmasked. Each value is decoded, its
bytes scrubbed as text (read as Latin-1: one character per byte, so every masked part keeps its
number of bytes) by the caller's ``Scrub`` (a ``redact.ChunkScrubber`` that follows the stream's
events in order: a key the stream splits across two events' deltas), and encoded again in the same
number of characters: an event-stream message keeps its lengths (only its CRC changes:
``records.EventStreamCrc``). This module knows base64 and the framing, not secrets: ``redact``
uses it (``EventMasks``), so it cannot use ``redact``.

- ``mask_b64_values``: the whole values in a text (an event's data; one message's bytes);
- ``StreamValues``: the values of an event-stream body arriving in chunks, cut anywhere.

A value that is not plain base64 (a JSON escape, a stray character: no real server writes one)
cannot be written again in its own length: when what it decodes to holds a secret, or (cut across
chunks) always from where it stops being plain, its base64 characters become ``A`` (zero bits),
which hides everything and keeps the JSON valid.
"""
from __future__ import annotations

from collections.abc import Callable

import orjson

from inspector.model.lazyre import lazy

Scrub = Callable[[str], str]
"""Masks the secrets of a text in the same number of characters (``redact.mask_in_place``, or a
stream's ``ChunkScrubber.scrub`` with ``keep_length``)."""

_OPENING = lazy(r'"bytes"\s*:\s*"')
_VALUE = lazy(r'"bytes"\s*:\s*"((?:[^"\\]|\\.)*)"')
"""A whole ``"bytes"`` string value; group 1 its body as written."""
_PLAIN = lazy(r"[A-Za-z0-9+/]*={0,2}")
_BASE64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")


def _scrubbed(raw: bytes, scrub: Scrub) -> bytes:
    """``raw`` (decoded bytes) with its secrets masked in the same number of bytes."""
    text = raw.decode("latin-1")
    out = scrub(text)
    return raw if out == text else out.encode("latin-1", "replace")


def _reencoded(plain: str, masked: bytes) -> str:
    """``masked`` in base64, in ``plain``'s length and padding (``plain``: the value it replaces,
    plain base64 whose decoding ``masked`` has the length of)."""
    import base64  # only for a ``"bytes"`` value (``keyshapes.is_basic_credential``: start-up)

    enc = base64.b64encode(masked).decode("ascii")[:len(plain)]
    return enc + plain[len(enc):]  # a last lone character (6 bits, no byte) stays as it was


def _blank(value: str, escaped: bool = False) -> tuple[str, bool]:
    """``value`` (part of a JSON string's body; ``escaped``: a backslash ends the part before it)
    with every base64 character but ``=`` and those an escape consists of written ``A`` (zero bits:
    the JSON stays valid, ``\\u0041`` becomes ``\\uAAAA``), and whether a backslash ends it."""
    out = []
    for c in value:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c in _BASE64 and c != "=":
            c = "A"
        out.append(c)
    return "".join(out), escaped


def _decoded(plain: str) -> bytes:
    """The bytes of plain base64 ``plain`` (a last lone character, which makes no byte, left out)."""
    import base64

    core = plain.rstrip("=")
    if len(core) % 4 == 1:
        core = core[:-1]
    return base64.b64decode(core + "=" * (-len(core) % 4))


def mask_b64(value: str, scrub: Scrub) -> str:
    """One ``"bytes"`` value as written (a JSON string's body) with the secrets of what it decodes
    to masked by ``scrub``, in the same number of characters; the same object when it holds none.
    Never raises (``binascii.Error`` is a ``ValueError``)."""
    if _PLAIN.fullmatch(value):
        return _masked_plain(value, scrub)
    try:  # escapes or stray characters
        plain = orjson.loads(f'"{value}"')
    except ValueError:  # ``orjson.JSONDecodeError`` too
        return value
    return _blank(value)[0] if isinstance(plain, str) and _hides_secret(plain, scrub) else value


def mask_b64_string(text: str, scrub: Scrub) -> str:
    """``mask_b64`` of a parsed string (no JSON escapes to read): a request's attachment."""
    if _PLAIN.fullmatch(text):
        return _masked_plain(text, scrub)
    return _blank(text)[0] if _hides_secret(text, scrub) else text


def _masked_plain(value: str, scrub: Scrub) -> str:
    try:
        raw = _decoded(value)
    except ValueError:
        return value
    masked = _scrubbed(raw, scrub)
    return value if masked == raw else _reencoded(value, masked)


def _hides_secret(text: str, scrub: Scrub) -> bool:
    """True when ``text``, read as a lenient decoder reads base64 (every other character left out),
    decodes to bytes with a secret in them."""
    try:
        raw = _decoded("".join(c for c in text if c in _BASE64 and c != "="))
    except ValueError:
        return False
    return bool(raw) and _scrubbed(raw, scrub) != raw


_DATA_URL = lazy(r"data:[^,;]*(?:;[^,;]*)*;base64,")
"""The head of a ``data:`` URL whose data is base64 (RFC 2397): OpenAI's ``file_data``, ``image_url``."""


def mask_b64_members(value: object, scrub: Scrub) -> object:
    """``value`` (a parsed request body: dicts, lists, strings...) with the secrets inside its base64
    attachments masked (``mask_b64_string``): Bedrock's ``source.bytes``, Anthropic's ``source``
    of ``"type": "base64"``, Gemini's ``inlineData.data``, ``data:…;base64,`` URLs. A new structure
    when anything changed, else the same object. A document or image sent to the model is no
    secret, but a ``.env`` file is."""
    if isinstance(value, list):
        items = [mask_b64_members(v, scrub) for v in value]
        return value if all(a is b for a, b in zip(items, value)) else items
    if isinstance(value, str):
        m = _DATA_URL.match(value) if value.startswith("data:") else None
        return value if m is None else value[:m.end()] + mask_b64_string(value[m.end():], scrub)
    if not isinstance(value, dict):
        return value
    out: dict[object, object] = {}
    for k, v in value.items():
        if isinstance(v, str) and (k == "bytes" or (k == "data" and (value.get("type") == "base64" or "mimeType" in value
                                                                       or "mime_type" in value))):
            out[k] = mask_b64_string(v, scrub)
        else:
            out[k] = mask_b64_members(v, scrub)
    return value if all(out[k] is value[k] for k in value) else out


def mask_b64_values(text: str, scrub: Scrub) -> str:
    """``text`` with each whole ``"bytes"`` value masked as ``mask_b64`` masks it, in order (the same
    length; the same object when none holds a secret). A value the text cuts off is not read."""
    if '"bytes"' not in text:
        return text
    parts: list[str] = []
    pos = 0
    for m in _VALUE.finditer(text):
        value = m.group(1)
        shown = mask_b64(value, scrub)
        if shown is not value:
            parts += (text[pos:m.start(1)], shown)
            pos = m.end(1)
    return "".join(parts) + text[pos:] if parts else text


class StreamValues:
    """The ``"bytes"`` values of an AWS event-stream body masked as its chunks arrive, with the
    message framing followed so that no prelude or CRC is read as text (``inspector.framing.eventstream``;
    once a prelude's lengths are impossible, values are looked for anywhere: ``_unframed``).

    ``feed(data)`` gives back the bytes of ``data`` (after any kept before) that can be written now,
    masked; a chunk that ends inside a value in the middle of a base64 quantum (1 to 3 of its 4
    characters) keeps those characters for the next call, because the bytes they encode are not
    all there yet. No message ends inside a value, so no event's time changes when they move to
    the next record. ``flush()`` gives back what is kept (the body ended there).
    """

    OPENING_KEPT = 32
    """Payload bytes kept to find a ``"bytes":"`` that a chunk boundary cuts (longer than it)."""

    def __init__(self, scrub: Scrub) -> None:
        self.scrub = scrub
        """Scrubs the decoded events in order (a key split across two of them)."""
        self.kept = b""
        self._pos = 0
        """Bytes of the current message read (not counting ``kept``)."""
        self._head = b""
        self._total = self._end = 0
        self._look = ""
        self._in_value = False
        self._plain = True
        """False once the current value stopped being plain base64 (blanked from there)."""
        self._escaped = False
        self._off = False
        """True once the framing is lost (``_unframed``)."""
        self.spans: list[tuple[int, int]] = []
        """Where the values' characters are in what the last ``feed`` or ``flush`` gave back: a text
        scrub of the raw bytes must leave them as they are here (base64 is no text: every Bedrock
        value starts ``eyJ``, the beginning of a JSON Web Token to a scrub that sees only a chunk)."""

    def feed(self, data: bytes) -> bytes:
        """``kept`` and ``data`` masked, less what must wait for the next chunk (class docstring)."""
        buf = self.kept + data
        self.kept = b""
        return self._read(buf, final=False)

    def flush(self) -> bytes:
        """What ``feed`` kept, masked as far as it can be (the body ended inside a value)."""
        buf, self.kept = self.kept, b""
        return self._read(buf, final=True) if buf else b""

    def _read(self, buf: bytes, final: bool) -> bytes:
        self.spans = []
        if self._off:
            return self._unframed(buf, final, 0)
        out = bytearray()
        i, n = 0, len(buf)
        while i < n:
            pos = self._pos
            if pos < 12:  # the prelude: lengths, then where the payload starts
                take = min(12 - pos, n - i)
                self._head += buf[i:i + take]
                out += buf[i:i + take]
                if pos + take == 12:
                    self._total = int.from_bytes(self._head[:4], "big")
                    self._end = self._total - 4
                    if not 16 <= self._total or 12 + int.from_bytes(self._head[4:8], "big") > self._end:
                        self._off = True  # the framing is lost: values are looked for anywhere from here
                        self._look, self._in_value = "", False
                        return bytes(out) + self._unframed(buf[i + take:], final, len(out))
            elif pos < self._end:  # the headers and the payload (a header that lies about its length may hide a value)
                take = min(self._end - pos, n - i)
                ends = pos + take == self._end
                piece, held = self._payload_piece(buf[i:i + take], not ends and not final, len(out))
                out += piece
                if held:
                    self.kept = buf[i + take - held:]
                    self._pos += take - held
                    return bytes(out)
            else:  # the trailer (``EventStreamCrc`` writes it)
                take = min(self._total - pos, n - i)
                out += buf[i:i + take]
            i += take
            self._pos += take
            if self._pos == self._total:
                self._pos, self._head, self._look, self._in_value = 0, b"", "", False
        return bytes(out)

    def _unframed(self, buf: bytes, final: bool, at: int) -> bytes:
        """``buf`` read as one payload, once the framing is lost (a prelude with impossible lengths:
        a decoder looks for the next valid message, which may carry a secret). The CRCs of what it
        masks are not written anew: the body is broken there already."""
        piece, held = self._payload_piece(buf, not final, at)
        if held:
            self.kept = buf[len(buf) - held:]
        return piece

    def _payload_piece(self, piece: bytes, can_hold: bool, at: int) -> tuple[bytes, int]:
        """``piece`` of a message's headers and payload masked, and how many of its last bytes wait for the next chunk
        (``can_hold``: the payload and the body go on after it); ``at``: where it goes in the output."""
        text = piece.decode("latin-1")
        out: list[str] = []
        i, n = 0, len(text)
        spans = self.spans
        while i < n:
            if not self._in_value:
                joined = self._look + text[i:]
                m = _OPENING.search(joined)
                if m is None:
                    out.append(text[i:])
                    self._look = joined[-self.OPENING_KEPT:]
                    break
                start = i + m.end() - len(self._look)
                out.append(text[i:start])
                i, self._look, self._in_value, self._plain, self._escaped = start, "", True, True, False
            elif not self._plain:
                j = self._blanked(text, i, out)
                spans.append((at + i, at + (j if self._in_value else j - 1)))
                i = j
            else:
                j = _PLAIN.match(text, i).end()  # type: ignore[union-attr]  # ``*`` matches anywhere
                run = text[i:j]
                held = len(run) % 4 if j == n and can_hold else 0
                out.append(self._masked_run(run[:len(run) - held]))
                spans.append((at + i, at + j - held))
                if held:
                    return "".join(out).encode("latin-1"), held
                i = j
                if j < n:
                    if text[j] == '"':
                        out.append('"')
                        i += 1
                        self._in_value = False
                    else:  # not plain base64 from here (an escape, a stray character)
                        self._plain = False
        return "".join(out).encode("latin-1"), 0

    def _masked_run(self, run: str) -> str:
        """A run of plain base64 of the current value (whole quanta, or its last characters), its
        decoded bytes scrubbed as the stream's next piece."""
        if not run:
            return run
        try:
            raw = _decoded(run)
        except ValueError:  # ``=`` before the end
            self._plain = False
            return _blank(run)[0]
        masked = _scrubbed(raw, self.scrub)
        return run if masked == raw else _reencoded(run, masked)

    def _blanked(self, text: str, i: int, out: list[str]) -> int:
        """The rest of a value that is not plain base64, from ``text[i]``, blanked (``_blank``) up to
        the quote that closes it. Returns where reading goes on."""
        j, escaped = i, self._escaped
        while j < len(text) and (text[j] != '"' or escaped):
            escaped = text[j] == "\\" and not escaped
            j += 1
        shown, self._escaped = _blank(text[i:j], self._escaped)
        out.append(shown)
        if j == len(text):
            return j
        out.append('"')
        self._in_value = False
        return j + 1
