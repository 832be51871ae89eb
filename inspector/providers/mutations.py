"""Fault injection (``serve --mutate``): what a mutation is, and the byte-level faults every dialect shares.

A *mutation* rewrites a recorded stream into a broken shape a server or gateway was reported
sending, so that a client can be tested against it. Event-level mutations live with their
dialect (``inspector.providers.<name>.mutations``: drop an index, repeat a block start, send
cumulative arguments...); they edit framed events, never bytes at random. The byte-level faults
built here (a multi-byte character split across chunks, a BOM, a reset mid-stream, keep-alive
comments only, a stall) act on the rendered chunks; each dialect registers them with the place
they go (``Where``) and the rule codes they trigger on its streams.

Shapes (times are seconds, as in captures):

- :class:`Ev`: one framed item of a body: an SSE event (``name`` = its ``event:`` field or None,
  ``data``), an NDJSON line (``data``), or a comment (``comment``, ``data`` None), with ``t``.
- :class:`Stream`: a capture's items, its framing (``sse`` or ``ndjson``) and its ``End``.
- :class:`Mutated`: the chunks to send, how the body ends, ``pauses`` (``{chunk index: seconds}``
  to wait before that chunk even under ``--instant``: the fault *is* the timing), the stream the
  client should have assembled (``truth``: None means the original), where the fault sits, and the
  request the mutated capture records when the fault is about the request (``tool_faults``).
- :class:`Mutation`: ``name``, one-line ``summary``, the bug ``reports`` it reproduces
  (``owner/repo#N``), the rule ``codes`` ``check`` finds on the dialect's reference capture
  (exactly those: ``tests/unit/test_mutations.py``), and ``apply(stream, param) -> Mutated``,
  which raises :class:`NotApplicable` with one line when the stream has nothing to break
  (no tool call, no text...). ``param`` is the optional ``NAME=VALUE`` of ``--mutate``
  (``stall=30``: seconds), validated against ``param_range``.

Re-rendering writes one chunk per item (``event: NAME`` then ``data:`` lines and a blank line; an
NDJSON line and LF), so what a mutation did not touch keeps its events, order and times but not
its original chunk boundaries, CRLF line endings or ``id:`` fields.
Pure: no I/O. May import ``inspector.framing`` and ``inspector.model``.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

import orjson

from inspector.framing import choose_decoder
from inspector.model.capture import Capture, Chunk, End
from inspector.model.frames import Comment, Frame
from inspector.providers.tools import DeclaredTools, ToolChoice


class NotApplicable(Exception):
    """The stream has nothing this mutation can break (one line saying what is missing)."""


@dataclass(slots=True)
class Ev:
    """One framed item: an event or NDJSON line (``data``), or a comment (``data`` None)."""

    data: str | None
    name: str | None = None
    """The SSE ``event:`` field (None: the event had none; NDJSON lines never have one)."""
    t: float | None = None
    comment: str | None = None
    """Comment text (after the colon and one space), for comments only."""

    def json(self):
        """The data parsed as JSON (a fresh object each call), or None when it is not JSON."""
        if self.data is None:
            return None
        try:
            return orjson.loads(self.data)
        except orjson.JSONDecodeError:
            return None

    def with_json(self, value) -> "Ev":
        """The same event (name, time) carrying ``value`` as compact JSON."""
        return replace(self, data=orjson.dumps(value).decode())


@dataclass(slots=True)
class Stream:
    """A capture's body as items, ready to mutate."""

    items: list[Ev]
    format: str
    """``sse`` or ``ndjson``: how items are rendered back to bytes."""
    end: End
    request: dict | None = None
    """The body of the request the capture recorded (what declared its tools), when it has one."""

    @property
    def timed(self) -> bool:
        return any(e.t is not None for e in self.items)

    def derive(self, items: list[Ev], end: End | None = None) -> "Stream":
        return Stream(items, self.format, end if end is not None else self.end, self.request)


@dataclass(slots=True)
class Mutated:
    """What ``serve`` sends for one mutated capture."""

    chunks: list[Chunk]
    end: End
    pauses: dict[int, float] = field(default_factory=dict)
    """``{chunk index: seconds}`` waited before that chunk even under ``--instant``."""
    truth: Stream | None = None
    """What a correct client assembles (None: the original stream)."""
    where: str = ""
    """Where the fault sits, for people (``after event 12, t=1.72 s``)."""
    request: dict | None = None
    """The request body the mutated capture records, when the fault lies in what the answer does with
    the request (the V rules: tools declared, a tool forced, parallel calls refused); None: the
    original's."""


Apply = Callable[[Stream, "float | None"], Mutated]


@dataclass(frozen=True)
class Mutation:
    """One named fault (see the module docstring)."""

    name: str
    summary: str
    codes: frozenset[str]
    reports: tuple[str, ...]
    apply: Apply
    param: str | None = None
    """What ``NAME=VALUE`` sets (``seconds``), or None when the mutation takes no value."""
    default: float | None = None
    param_range: tuple[float, float] = (0.0, 3600.0)


# ------------------------------------------------------------------------------------------- streams
def stream_of(cap: Capture) -> Stream:
    """The capture's body as items (framing issues dropped: the mutated body is re-rendered)."""
    headers = (cap.response or {}).get("headers") or {}
    ctype = next((str(v).lower() for k, v in headers.items() if str(k).lower() == "content-type"), "")
    body = cap.body
    decoder = choose_decoder(ctype, body.lstrip(b"\xef\xbb\xbf \t\r\n")[:1])
    out: list = []
    for chunk in cap.chunks:
        out += decoder.feed(chunk.data, chunk.t)
    out += decoder.close(cap.end.t if cap.end else None)
    fmt = "sse" if type(decoder).__name__ == "SSEDecoder" else "ndjson"
    items: list[Ev] = []
    for it in out:
        if isinstance(it, Frame):
            items.append(Ev(it.data, it.event if it.named else None, it.t))
        elif isinstance(it, Comment):
            items.append(Ev(None, None, it.t, comment=it.text))
    last = next((e.t for e in reversed(items) if e.t is not None), None)
    end = cap.end or End(last, "eof")
    request_body = (cap.request or {}).get("body")
    return Stream(items, fmt, end, request_body if isinstance(request_body, dict) else None)


def encode(ev: Ev, fmt: str) -> bytes:
    """One item as bytes on the wire."""
    if ev.data is None:
        return f": {ev.comment or ''}\n\n".encode() if fmt == "sse" else b"\n"
    if fmt == "ndjson":
        return ev.data.encode() + b"\n"
    head = f"event: {ev.name}\n" if ev.name else ""
    return (head + "".join(f"data: {line}\n" for line in ev.data.split("\n")) + "\n").encode()


def render(stream: Stream) -> list[Chunk]:
    """One chunk per item, at the item's time."""
    return [Chunk(e.t, encode(e, stream.format)) for e in stream.items]


def unchanged(stream: Stream, where: str = "") -> Mutated:
    """The stream rendered as it is (an event-level mutation's result once its items are edited)."""
    return Mutated(render(stream), stream.end, where=where)


def _time(e: Ev) -> float:
    """The time of an item of a ``retimed`` stream (there, every item has one)."""
    assert e.t is not None
    return e.t


def retimed(stream: Stream) -> Stream:
    """The stream with every item timed (untimed input: all at t=0), so timing faults can be placed."""
    if stream.timed and all(e.t is not None for e in stream.items):
        return stream
    last = 0.0
    items = []
    for e in stream.items:
        last = e.t if e.t is not None else last
        items.append(replace(e, t=last))
    end = stream.end.copy_with(t=stream.end.t if stream.end.t is not None else last)
    return stream.derive(items, end)


def describe(stream: Stream, i: int) -> str:
    """``after event N (t=…)``: the place after item ``i``, counted in events as ``check`` counts them."""
    n = sum(1 for e in stream.items[: i + 1] if e.data is not None) - 1
    t = stream.items[i].t if 0 <= i < len(stream.items) else None
    return f"after event {n}" + (f" (t={t:.3f} s)" if t is not None else "")


# ---------------------------------------------------------------------------------- byte-level faults
Where = Callable[[Stream], int]
"""``where(stream) -> i``: the fault goes right after item ``i`` (e.g. the first argument delta);
raises ``NotApplicable``."""

Inject = Callable[[Stream], Stream]
"""``inject(stream) -> stream``: the dialect puts a multi-byte character into the content (a text
delta), for streams that carry none; raises ``NotApplicable``."""


def utf8_split(codes, reports, inject: Inject) -> Mutation:
    """A multi-byte UTF-8 character split across two network chunks, 50 ms apart (legal: clients
    must decode bytes across chunk boundaries; per-chunk decoders produce U+FFFD)."""

    def apply(stream: Stream, param: float | None) -> Mutated:
        truth = stream
        chunks = render(retimed(stream))
        at = _first_multibyte(chunks)
        if at is None:
            truth = inject(stream)
            chunks = render(retimed(truth))
            at = _first_multibyte(chunks)
            if at is None:
                raise NotApplicable("no text to put a multi-byte character in")
        i, cut = at
        c = chunks[i]
        t2 = None if c.t is None else round(c.t + 0.05, 6)
        # The rest moves 50 ms later too: record times never go backwards (S017).
        later = [k if k.t is None else Chunk(round(k.t + 0.05, 6), k.data, k.line) for k in chunks[i + 1:]]
        chunks[i:] = [Chunk(c.t, c.data[:cut]), Chunk(t2, c.data[cut:]), *later]
        end = stream.end if stream.end.t is None else stream.end.copy_with(t=round(stream.end.t + 0.05, 6))
        return Mutated(chunks, end, {i + 1: 0.05}, truth if truth is not stream else None,
                       f"chunk {i} ends inside a {len(_char_at(c.data, cut))}-byte character")

    return Mutation("utf8-split", "a multi-byte UTF-8 character split across two network chunks",
                    frozenset(codes), tuple(reports), apply)


def _first_multibyte(chunks: list[Chunk]) -> tuple[int, int] | None:
    """``(chunk index, byte offset)`` just after the lead byte of the first multi-byte character."""
    for i, c in enumerate(chunks):
        for k, b in enumerate(c.data):
            if b >= 0xC0:
                return i, k + 1
    return None


def _char_at(data: bytes, cut: int) -> bytes:
    lead = data[cut - 1]
    n = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    return data[cut - 1: cut - 1 + n]


def bom(codes, reports) -> Mutation:
    """U+FEFF before the first byte: spec-following decoders skip it; many clients lose the first event."""

    def apply(stream: Stream, param: float | None) -> Mutated:
        chunks = render(stream)
        if not chunks:
            raise NotApplicable("empty body")
        chunks[0] = Chunk(chunks[0].t, b"\xef\xbb\xbf" + chunks[0].data)
        return Mutated(chunks, stream.end, where="before the first byte")

    return Mutation("bom", "a UTF-8 byte-order mark (U+FEFF) before the first event",
                    frozenset(codes), tuple(reports), apply)


def reset(codes, reports, where: Where) -> Mutation:
    """The connection dies right after item ``where(stream)``: the chunked body is cut short."""

    def apply(stream: Stream, param: float | None) -> Mutated:
        i = where(stream)
        kept = stream.derive(stream.items[: i + 1])
        t = kept.items[-1].t if kept.items else None
        end = End(None if t is None else round(t + 0.01, 6), "reset", "connection reset mid-stream (mutation)")
        return Mutated(render(kept), end, where=describe(stream, i))

    return Mutation("reset", "the connection is reset in the middle of the tool arguments",
                    frozenset(codes), tuple(reports), apply)


def keepalive_only(codes, reports, where: Where) -> Mutation:
    """After item ``where(stream)`` only keep-alive comments arrive for ``param`` seconds (default 12;
    about one a second, paced even under ``--instant``), then the body ends."""

    def apply(stream: Stream, param: float | None) -> Mutated:
        seconds = param if param is not None else 12.0
        s = retimed(stream)
        i = where(s)
        t0 = s.items[i].t or 0.0
        n = max(1, int(seconds))
        pings = [Ev(None, None, round(t0 + seconds * (k + 1) / n, 6), comment="keep-alive") for k in range(n)]
        items = s.items[: i + 1] + pings
        end = End(round(t0 + seconds + 0.01, 6), "eof")
        pauses = {i + 1 + k: seconds / n for k in range(n)}
        return Mutated(render(s.derive(items, end)), end, pauses, where=describe(s, i))

    return Mutation("keepalive-only",
                    "from the middle of the tool arguments on, only keep-alive comments, then the body ends",
                    frozenset(codes), tuple(reports), apply, param="seconds", default=12.0)


def stall(codes, reports, where: Where) -> Mutation:
    """No byte for ``param`` seconds (default 12) after item ``where(stream)``, then the rest as recorded."""

    def apply(stream: Stream, param: float | None) -> Mutated:
        seconds = param if param is not None else 12.0
        s = retimed(stream)
        i = where(s)
        items = s.items[: i + 1] + [replace(e, t=round(_time(e) + seconds, 6)) for e in s.items[i + 1:]]
        end = s.end.copy_with(t=round(s.end.t + seconds, 6)) if s.end.t is not None else s.end
        pauses = {i + 1: seconds} if i + 1 < len(items) else {}
        return Mutated(render(s.derive(items, end)), end, pauses, where=describe(s, i))

    return Mutation("stall", "no byte for N seconds (stall=N, default 12) in the middle of the tool arguments",
                    frozenset(codes), tuple(reports), apply, param="seconds", default=12.0)


# ------------------------------------------------------------------------------------------- helpers
def middle(positions: list[int]) -> int:
    """The middle one of the item positions of a block's deltas (raises ``NotApplicable`` when none)."""
    if not positions:
        raise NotApplicable("no tool-call arguments streamed in deltas")
    return positions[(len(positions) - 1) // 2]


def with_accent(stream: Stream, token: str) -> Stream:
    """Every occurrence of ``token`` in the events' data followed by ``é`` (U+00E9), so a stream with
    no multi-byte character gets one in a value it repeats consistently (deltas, ``.done``, the
    final item). Raises ``NotApplicable`` when ``token`` is nowhere."""
    if not token or not any(e.data and token in e.data for e in stream.items):
        raise NotApplicable("no string value to carry a multi-byte character")
    items = [replace(e, data=e.data.replace(token, token + "\u00e9")) if e.data else e for e in stream.items]
    return stream.derive(items)


def unsplit_part(value: str, fragments: list[str]) -> str | None:
    """The longest piece of ``value`` (at least 2 characters) found whole in one of ``fragments``, or None.

    A value the deltas split (``"Bei"`` + ``"jing"``) cannot be accented as a whole: the ``.done`` event
    and the final item would say ``Beijingé`` while the deltas still join to ``Beijing``. Accenting a
    piece that one delta holds keeps every copy of the value consistent."""
    for size in range(len(value), 1, -1):
        for start in range(len(value) - size + 1):
            piece = value[start:start + size]
            if any(piece in f for f in fragments):
                return piece
    return None


def first_string_value(json_text: str) -> str | None:
    """The first string value (not key) of a JSON object's text, when it parses; else None."""
    try:
        value = orjson.loads(json_text)
    except orjson.JSONDecodeError:
        return None
    stack = [value]
    while stack:
        v = stack.pop(0)
        if isinstance(v, str) and v:
            return v
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


def edited(stream: Stream, edits: Mapping[int, "Ev | None"], where: str,
           after: dict[int, list[Ev]] | None = None) -> Mutated:
    """The stream with items replaced (``edits``: position -> new item, None drops it) and items
    inserted after positions (``after``), rendered."""
    return unchanged(with_edits(stream, edits, after), where)


def with_edits(stream: Stream, edits: Mapping[int, "Ev | None"], after: dict[int, list[Ev]] | None = None) -> Stream:
    """The stream ``edited`` renders."""
    items: list[Ev] = []
    for i, ev in enumerate(stream.items):
        new = edits.get(i, ev)
        if new is not None:
            items.append(new)
        items += (after or {}).get(i, [])
    return stream.derive(items)


def choice_of(declared: DeclaredTools | None) -> ToolChoice | None:
    """The forced tool call of a request's declared tools (None: no tools, or none forced)."""
    return declared.choice if declared is not None else None


def forcing(choice: ToolChoice | None) -> str:
    """How a request that a mutation made force a tool call says so (``ToolChoice.spelled``);
    ``NotApplicable`` if it forces none after all."""
    if choice is None:
        raise NotApplicable("the request forces no tool call")
    return choice.spelled


def well_formed(stream: Stream, request: dict, where: str) -> Mutated:
    """A fault in what the answer does with the request (``tool_faults``), not in its framing: the
    stream is sent as ``stream`` says, a correct client assembles exactly that (``truth``), and the
    mutated capture records ``request``."""
    return Mutated(render(stream), stream.end, truth=stream, where=where, request=request)


def accent_in_arguments(fragments: list[str]) -> tuple[int, str] | None:
    """Put ``é`` inside the first string *value* (not a key) of the JSON the fragments concatenate
    to: ``(fragment position, that fragment with it)``, or None when there is no such string."""
    stack: list[str] = []
    in_string = escaped = is_value = False
    prev = ""
    for k, frag in enumerate(fragments):
        for i, ch in enumerate(frag):
            if in_string:
                if escaped:
                    escaped = False
                elif ch == "\\":
                    escaped = True
                elif ch == '"':
                    in_string = False
                    prev = '"'
                elif is_value:
                    return k, frag[:i] + "\u00e9" + frag[i:]
                continue
            if ch == '"':
                in_string = True
                is_value = prev == ":" or (bool(stack) and stack[-1] == "[" and prev in ("[", ","))
            elif ch in "{[":
                stack.append(ch)
            elif ch in "}]" and stack:
                stack.pop()
            if not ch.isspace() and ch != '"':
                prev = ch
    return None


# ------------------------------------------------------------------ the wrong tool chosen
CalledTools = Callable[[Stream], list[tuple[int, str]]]
"""``called(stream) -> [(item position of the call's first event, tool name)]`` in stream order."""
ReadTools = Callable[[dict], "object | None"]
"""A dialect's ``tools.read(body)``: the declared tools (``.tools``: name -> tool) or None."""

_CALL_KEYS = ("arguments", "input", "args", "id", "call_id")
"""A dict naming a tool call carries one of these beside its ``name`` (a Chat/Ollama/Cohere
``function``, an Anthropic ``tool_use`` block, a Responses ``function_call`` item)..."""
_CALL_PARENTS = ("functionCall", "function")
"""...or is the value of one of these keys (a Gemini ``functionCall`` frame may carry the name alone)."""


def wrong_tool_choice(reports: tuple[str, ...], called: CalledTools, read: ReadTools) -> Mutation:
    """Every call of the first called tool names another tool: another one the request declares when it
    declares several, else the tool of another call in the answer (the two names swap). The arguments
    stay, so they now fit the wrong tool; the stream is legal, so a correct client runs what it says
    (``truth``). The rename is done on every copy of the name (a start event, a ``.done`` item, the
    final response) so the copies agree. Raises ``NotApplicable`` with one tool to choose from."""

    def apply(stream: Stream, param: float | None) -> Mutated:
        calls = called(stream)
        if not calls:
            raise NotApplicable("no named tool call")
        at, old = calls[0]
        declared = read(stream.request) if stream.request else None
        others = [n for n in (getattr(declared, "tools", None) or ()) if n != old]
        if others:
            swaps = {old: others[0]}
        else:
            other = next((n for _, n in calls if n != old), None)
            if other is None:
                raise NotApplicable("one tool declared and called: no other tool to choose instead")
            swaps = {old: other, other: old}
        sent = stream.derive([_renamed(ev, swaps) for ev in stream.items])
        out = unchanged(sent, f"{old} called as {swaps[old]}, {describe(stream, at)}")
        out.truth = sent
        return out

    return Mutation("wrong-tool-choice", "the first called tool replaced by another declared one (else its name "
                    "swapped with another call's)", frozenset(), reports, apply)


def _renamed(ev: Ev, swaps: dict[str, str]) -> Ev:
    p = ev.json()
    if not isinstance(p, (dict, list)):
        return ev
    changed = False
    stack: list = [(None, p)]
    while stack:
        key, v = stack.pop()
        if isinstance(v, dict):
            name = v.get("name")
            if isinstance(name, str) and name in swaps and (key in _CALL_PARENTS or any(k in v for k in _CALL_KEYS)):
                v["name"] = swaps[name]
                changed = True
            stack.extend(v.items())
        elif isinstance(v, list):
            stack.extend((None, x) for x in v)
    return ev.with_json(p) if changed else ev
