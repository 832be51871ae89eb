"""The session: the single owner of a stream's state, and the writer dialects write through.

Chunks go in (``feed``); the framing (``inspector.framing``) turns them into frames; each frame
becomes an ``EventRecord``; the dialect (``inspector.providers``), picked by
``inspector.session.detect`` from the first identifying event, turns events into block
operations and findings through this class's writer methods (the ``StreamWriter`` protocol of
``inspector.providers.base``); sinks (TUI, reports, recorder) only read ``events``, ``blocks`` and
``findings``. Pure and incremental: no I/O, no clocks (time arrives with each chunk), no
Textual. Chunk boundaries never change the result.
"""
from __future__ import annotations

import bisect
import copy
from array import array

import orjson

from inspector.capture import memory
from inspector.capture.redact import scrub_secrets
from inspector.framing import Decoder, MessageDecoder, SSEDecoder, choose_decoder
from inspector.model.blocks import Block, FragmentTimes
from inspector.model.capture import Chunk, End
from inspector.model.events import DONE, KEEPALIVE_TYPES, NOT_JSON, RELEASED, EventLog, EventRecord, EventRun, EventSpan, parse_payload
from inspector.model.findings import Finding
from inspector.model.severity import Severity
from inspector.model.frames import Comment, Frame, FrameRun, FramingIssue
from inspector.model.jsondepth import TOO_DEEP, loads
from inspector.model.jsonprogress import JsonProgress
from inspector.providers.base import Dialect
from inspector.session import detect
from inspector.session import deltas, groups, runs
from inspector.session.rules import arguments as argument_rules
from inspector.session.rules import declared as declared_rules
from inspector.session.rules import stream as stream_rules
from inspector.session.response import ResponseWriter
from inspector.session.shapes import wrong_type_fields
from inspector.session.rules import timing as timing_rules

__all__ = ["Session", "EventRecord", "DONE", "NOT_JSON"]

_SHARED_ON_COPY = frozenset({"request", "response", "severity_overrides"})
SLICE = 1 << 16
"""Largest piece of a chunk handed to the framing at once (chunk boundaries never change a result)."""


class Session:
    """State of one streamed response. See the module docstring for the flow.

    Not a dataclass: its generated ``__init__``, ``__repr__`` and ``__eq__`` were compiled when the
    module was imported, ~5 M of the ~180 M instructions of a one-event ``check``. Sessions compare
    by identity."""

    def __init__(self, dialect_name: str | None = None, stall_s: float = 10.0, request_relative: bool = False,
                 response: dict | None = None, request: dict | None = None, line_base: int = 0,
                 severity_overrides: dict[str, Severity] | None = None, messages: bool = False) -> None:
        self.dialect_name = dialect_name
        """Forced dialect (``--dialect``); None detects it from the first identifying event."""
        self.stall_s = stall_s
        """T001/T002/T003 threshold in seconds (``--stall``)."""
        self.request_relative = request_relative
        """True when ``t`` counts from the request (native captures), so the wait for byte one counts."""
        self.response = response
        self.request = request
        self.line_base = line_base
        self.severity_overrides: dict[str, Severity] = {} if severity_overrides is None else severity_overrides
        self.messages = messages
        """Each chunk is one whole WebSocket message, framed as one event (``inspector.framing.messages``);
        also set by a response head that upgraded to a WebSocket (status 101, ``upgrade: websocket``)."""
        self.events = EventLog()
        """Every event in stream order (a sequence of ``EventRecord``; runs of deltas kept packed)."""
        self.blocks: list[Block] = []
        """Every block of every response, in opening order (``Block.response`` says whose)."""
        self.findings: list[Finding] = []
        self.end: End | None = None
        self.closed = False
        self.first_byte_t: float | None = None
        self.last_byte_t: float | None = None
        self.bytes_received = 0
        self.http_error = False
        """S007 fired: framing rules are not judged on this body."""
        self.json_body = False
        """The body is ``application/json`` from a dialect that streams SSE (part of S007)."""
        self.open_stall: Finding | None = None
        """T001 in progress: the open stream has been silent for at least ``stall_s`` up to the last
        :meth:`tick`, its message giving the gap so far. Not in ``findings``: when bytes come back or
        the stream ends, the stall's T001 is appended there as on a recorded capture (same place,
        same words), and this goes back to None."""
        self.first_content_t: float | None = None
        """Arrival time of the first event that carried content or opened a block (``ttfc_s``)."""
        self.dialect: Dialect | None = None
        """The current response's dialect instance (a fresh one per response)."""
        self.responses: list[ResponseWriter] = []
        """One writer per response in the body, in order (see ``inspector.session.response``)."""
        self.current_response: ResponseWriter | None = None
        """The response being read now."""
        self._fold: dict[tuple, Finding] = {}
        """Findings by cause: a repeat of the same cause counts on the first one (RULES.md preamble)."""
        self._decoder: Decoder | None = None
        self._pending: list[EventRecord] = []
        self._sniff: list[bytes] = []
        """The chunks taken before a decoder is chosen: blank ones (BOM, spaces, line breaks) so far."""
        self._unchecked = 0
        """Body bytes framed since the memory limit was last checked (``inspector.capture.memory``)."""
        self._body_head = bytearray()
        self.current: EventRecord | None = None
        """The event being handled (the writer's default place for findings)."""
        self._s004 = False
        self._chunk_starts = array("q")
        """Body offset where each chunk with a file line starts (``_chunk_lines`` beside it)."""
        self._chunk_lines = array("q")
        self._body_pos = 0
        self.argument_rules = argument_rules.ArgumentRules(self)
        """The J rules (``add_arguments`` hands them each argument fragment)."""
        self._timing = timing_rules.StallWatch(self)
        self.declared = declared_rules.DeclaredRules(self)
        """The V rules: the request's declared tools, and what the calls did with them."""
        self._reports = 0
        """Findings reported so far, repeats included (a run is taken whole only after a clean event)."""
        self._clean = False
        """The last frame was dispatched and reported nothing (see ``inspector.session.runs``)."""
        self._run_gate = runs.RunGate()
        """Whether the framing looks for runs of deltas now (off where they do not form)."""
        self.messages = self.messages or stream_rules.upgraded(self)
        if self.dialect_name:
            self._set_dialect(self.dialect_name)
        stream_rules.check_response_head(self)

    def __deepcopy__(self, memo: dict) -> "Session":
        """A snapshot for replay checkpoints: everything copied but the event records, which never
        change once dispatched and are shared (a new list holding the same records), and the
        request/response heads and severity overrides, which are read only."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            if key == "events":
                value = value.copy()
            elif key not in _SHARED_ON_COPY:
                value = copy.deepcopy(value, memo)
            new.__dict__[key] = value
        return new

    # ------------------------------------------------------------------ input
    def feed(self, chunk: Chunk) -> None:
        """Take one network chunk (the events it completed are appended to ``events``)."""
        if self.closed:
            return
        if chunk.data:
            if chunk.line is not None:
                self._chunk_starts.append(self._body_pos)
                self._chunk_lines.append(chunk.line)
            self._body_pos += len(chunk.data)
            self._timing.on_bytes(chunk.t)
            if self.first_byte_t is None:
                self.first_byte_t = chunk.t
            self.last_byte_t = chunk.t if chunk.t is not None else self.last_byte_t
            self.bytes_received += len(chunk.data)
            if len(self._body_head) < 4096:
                self._body_head += chunk.data[: 4096 - len(self._body_head)]
        if self._decoder is None and self.messages:
            self._decoder = MessageDecoder()
        if self._decoder is None:
            # What came before is blank (else a decoder would be chosen): only this chunk is looked at,
            # and the blanks are joined once (a body of blank chunks was quadratic in them).
            self._sniff.append(chunk.data)
            probe = chunk.data.lstrip(b"\xef\xbb\xbf \t\r\n")
            if not probe:
                return
            self._decoder = choose_decoder(stream_rules.content_type(self), probe)
            self._arm_runs()
            data, self._sniff = b"".join(self._sniff), []
        else:
            data = chunk.data
        if len(data) <= SLICE or self.messages:  # a message is one event: never cut it
            self._take(self._decoder.feed(data, chunk.t))
            if not self._run_gate.armed:
                self._look_for_runs()
            self._unchecked += len(data)
            if self._unchecked >= memory.CHECK_BYTES:
                self._unchecked = 0
                memory.check()
        else:  # a pasted capture is one huge chunk: never hold all its lines at once
            view = memoryview(data)
            for i in range(0, len(data), SLICE):
                self._take(self._decoder.feed(bytes(view[i:i + SLICE]), chunk.t))
                if not self._run_gate.armed:
                    self._look_for_runs()
                self._unchecked += SLICE
                if self._unchecked >= memory.CHECK_BYTES:
                    self._unchecked = 0
                    memory.check()

    def close(self, end: End | None = None) -> None:
        """The body ended (``end`` says how; None is a clean EOF). Runs the end-of-stream rules."""
        if self.closed:
            return
        if end is None:
            end = End(t=self.last_byte_t, kind="eof")
        self.end = end
        if self._decoder is None and any(self._sniff):
            data, self._sniff = b"".join(self._sniff), []
            self._decoder = choose_decoder(stream_rules.content_type(self), data)
            self._take(self._decoder.feed(data, self.last_byte_t))
        if self._decoder is not None:
            self._take(self._decoder.close(end.t if end.t is not None else self.last_byte_t))
        if self.dialect is None:
            self._set_dialect(detect.fallback(self.request))
            if self.events and self.dialect_name == "unknown" and not self.http_error:
                self.report("S008", "no event identified a known dialect; its event types: "
                            f"{detect.describe_types(self.events)} (pass --dialect to read it as one)", event=False)
        stream_rules.decide_json_body(self)
        self.current = None
        self._timing.on_end(end)
        self._finish_response(end)
        stream_rules.check_end(self, end)
        self._point_at_real_events()
        self.closed = True

    def tick(self, now: float) -> None:
        """The stream's clock reads ``now`` (seconds, the chunks' time base) and no byte arrived
        since the last chunk: report a stall in progress as :attr:`open_stall` (live sources call
        this while they wait; a recorded capture never needs it)."""
        if not self.closed:
            self._timing.tick(now)

    def _point_at_real_events(self) -> None:
        """Framing findings name "the next event" when they are reported; when none came (a
        trailing comment, an unterminated last event, a BOM before nothing) they name the last
        event there is, or none, never an index the stream does not have."""
        last = len(self.events) - 1
        for f in self.findings:
            if f.event is not None and f.event > last:
                f.event = last if last >= 0 else None
            if f.last_event is not None and f.last_event > last:
                f.last_event = last if last >= 0 else None

    def close_unjudged(self, end: End) -> None:
        """End a session that only holds findings (an exchange whose body is not a stream): no
        framing, dialect or end-of-stream rule runs."""
        self.end, self.closed = end, True

    # ------------------------------------------------- StreamWriter: read back
    @property
    def transport_failed_early(self) -> bool:
        """The transport failed before any byte arrived (S012 alone says it; no S003)."""
        return not self.bytes_received and self.end is not None and self.end.kind != "eof"

    @property
    def ended_cleanly(self) -> bool:
        """The body ended at EOF with its last event terminated (no S010, S012): nothing was cut."""
        return (self.end is not None and self.end.kind == "eof"
                and not any(f.code in ("S010", "S012") for f in self.findings))

    # ------------------------------------------------- StreamWriter: findings
    def report(self, code: str, message: str, *, index: int | None = None,
               event: EventRecord | None | bool = True, severity: Severity | None = None,
               cause: object = None) -> Finding:
        """Record a finding at ``event`` (default: the event being handled; False: stream-level).

        ``severity`` replaces the catalog's default where the rule itself grades the case (C014's
        info case); a ``--severity`` override still wins. ``cause`` names what the finding is about
        when the message varies between repeats of the same cause (see ``report_at``).
        """
        ev = self.current if event is True else (event or None)
        return self.report_at(code, message, index=index, event=ev.index if ev else None,
                              line=ev.line if ev else None, t=ev.t if ev else self._stream_t(),
                              severity=severity, cause=cause)

    def report_at(self, code: str, message: str, *, event: int | None, line: int | None,
                  t: float | None, index: int | None = None, severity: Severity | None = None,
                  cause: object = None) -> Finding:
        """Record a finding at an explicit place (framing and timing rules).

        One cause, one finding (RULES.md preamble): the same code for the same cause in the same
        response (same ``cause``, else same block index and message) counts on the first finding
        (``count``, ``last_event``) instead of adding another.
        """
        self._reports += 1
        response = self.current_response.index if self.current_response is not None else 0
        key = (code, response, index, message if cause is None else cause)
        first = self._fold.get(key)
        if first is not None:
            first.count += 1
            if event is not None:
                first.last_event = event
            return first
        # Messages quote stream content (error bodies, in-band errors): never show a key in them.
        f = Finding.make(code, scrub_secrets(message), event=event, line=line, t=t, index=index,
                         severity=self.severity_overrides.get(code) or severity)
        f.response = response
        self._fold[key] = f
        self.findings.append(f)
        return f

    def take_findings(self, first: int) -> list[Finding]:
        """Remove and return the findings from position ``first`` on, forgotten for folding too: they
        belong to another report (the proxy judges each request's history against the answer this
        session holds and keeps the findings for the request's exchange), so the same finding for
        the next request (a retry) is that request's own, not a repeat counted on this one's."""
        taken = self.findings[first:]
        del self.findings[first:]
        gone = {id(f) for f in taken}
        self._fold = {key: f for key, f in self._fold.items() if id(f) not in gone}
        return taken

    def after_end(self, what: str, *, event: "EventRecord | None | bool" = True, line: int | None = None,
                  t: float | None = None) -> None:
        """S004 event-after-end, once per stream (dialects and the session both call it)."""
        if self._s004:
            return
        self._s004 = True
        if event is None:
            self.report_at("S004", what, event=len(self.events), line=line, t=t)
        else:
            self.report("S004", what, event=event)

    # ------------------------------------------------- the responses
    @property
    def ended(self) -> bool:
        """The current response's end marker has been seen (``message_stop``, ``[DONE]``...)."""
        return self.current_response is not None and self.current_response.ended

    @property
    def stop_reason(self) -> str | None:
        """The first response's stop reason (SPEC: top-level fields describe the first response)."""
        return self.responses[0].stop_reason if self.responses else None

    @property
    def model(self) -> str | None:
        """The first response's model, when the stream states one (shown in the TUI header)."""
        return self.responses[0].model if self.responses else None

    @property
    def usage(self) -> dict | None:
        """The first response's token usage, as the provider last reported it."""
        return self.responses[0].usage if self.responses else None

    # ------------------------------------------------- StreamWriter: blocks
    def open_block(self, kind: str, *, index: int | None = None, choice: int | None = None,
                   id: str | None = None, name: str | None = None, tool: bool = False,
                   empty_is_object: bool = False, attribution: str | None = None) -> Block:
        """Start a block at the current event."""
        ev = self.current
        # Positional: a block opens once per call, and keywords cost twice as much here (short calls).
        b = self.open_block_at(ev.index if ev else None, kind, index, choice, id, name, tool, empty_is_object,
                               ev.t if ev else None)
        b.attribution = attribution
        if ev is not None:
            ev.block = b.pos
            if self.first_content_t is None:  # the first event that opened a block (``ttfc_s``)
                self.first_content_t = ev.t
        return b

    def open_block_at(self, at: int | None, kind: str, index: int | None = None, choice: int | None = None,
                      id: str | None = None, name: str | None = None, tool: bool = False,
                      empty_is_object: bool = False, t: float | None = None) -> Block:
        """Start a block at event ``at`` (arrived at ``t``). No event is linked to it here: ``open_block``
        links the current one; an untimed start taken whole (``Dialect.open_call``) is recorded afterwards."""
        response = self.current_response
        assert response is not None  # a dialect opens blocks only once its response began
        b = Block(kind, index, choice, id, name, tool, empty_is_object, at, t)
        b.pos, b.response = len(self.blocks), response.index
        if tool:
            b.progress = JsonProgress()
        self.blocks.append(b)
        response.blocks.append(b)
        return b

    def open_call_at(self, at: int, kind: str, index: int, choice: int | None, id: str, name: str) -> Block:
        """``open_block_at`` for a tool block (no text means no ``{}``, untimed) and then its first delta, an
        empty fragment added with no event current, as ``add_delta`` adds it: one delta, one untimed entry
        of 0 bytes (a Chat call's opening taken whole, ``Dialect.open_call``)."""
        response = self.current_response
        assert response is not None  # a dialect opens blocks only once its response began
        b = Block(kind, index, choice, id, name, True, False, at, None, deltas=1,
                  fragment_times=FragmentTimes(*FragmentTimes.EMPTY_DELTA))
        b.pos, b.response, b.progress = len(self.blocks), response.index, JsonProgress()
        self.blocks.append(b)
        response.blocks.append(b)
        return b

    def add_text(self, block: Block, text: str) -> None:
        """Append a text/reasoning fragment (one delta)."""
        self.add_delta(block, text)

    def add_arguments(self, block: Block, fragment: str) -> None:
        """Append an argument fragment (one delta) and judge it: J006 resend, J001 invalid, J003 trailing."""
        self.argument_rules.fragment(block, fragment)

    def set_arguments(self, block: Block, text: str, *, t: float | None | bool = True) -> None:
        """Arguments that arrived whole (not as a delta), e.g. Responses ``.done`` with no deltas.

        ``t``: when their bytes arrived (T003); default the current event's time.
        """
        if t is True:
            t = self.current.t if self.current else None
        block.replace(text)
        block.fragment_times.set([(t, len(text.encode("utf-8")))] if text else [])
        self.argument_rules.whole(block, text)

    def prepend_text(self, block: Block, prefix: str) -> None:
        """Text that was streamed before a resumed stream's cursor (RULES.md R012), known only from a
        final event: put in front of what the deltas brought, as one untimed fragment."""
        if not prefix:
            return
        times = list(block.fragment_times)
        block.replace(prefix + block.content)
        block.fragment_times.set([(None, len(prefix.encode("utf-8"))), *times])

    def set_object_arguments(self, block: Block, value: object) -> None:
        """Arguments that arrived as a JSON value, not text (Gemini ``args``, Ollama ``arguments``):
        kept in ``whole_input`` and judged as their JSON text."""
        block.whole_input = value
        try:
            text = orjson.dumps(value).decode()
        except TypeError:
            text = str(value)
        self.set_arguments(block, text)

    def close_block(self, block: Block, stop_info: str | None = None) -> None:
        """The block was closed (``content_block_stop``, ``finish_reason``, ``.done``): J002/J004/J007."""
        ev = self.current
        block.closed = True
        block.closed_event = ev.index if ev else None
        block.closed_t = ev.t if ev else None
        if stop_info:
            block.stop_info = stop_info
        if ev is not None and ev.block is None:
            ev.block = block.pos
        if block.tool:
            self.argument_rules.at_close(block)
            if block.opened_t is not None and block.closed_t is not None:  # T003 needs both (hot: untimed calls)
                timing_rules.check_buffered(self, block, block.closed_t)
            self.declared.at_close(block)

    def close_block_at(self, block: Block, stop_info: str, at: int) -> bool:
        """``close_block`` at the untimed event ``at``, which is not being handled (``Dialect.close_call``:
        the session records it afterwards), when none of its rules could report there (J002, J004,
        J007, S019, the V rules; T003 needs times): True, closed; False: nothing changed."""
        if block.tool and not (self.argument_rules.silent_at_close(block) and self.declared.declared is None):
            return False
        block.closed = True
        block.closed_event = at
        block.closed_t = None
        if stop_info:
            block.stop_info = stop_info
        return True

    def replace_block(self, block: Block) -> None:
        block.replaced = True

    def set_identity(self, block: Block, *, id: str | None = None, name: str | None = None,
                     call_id: str | None = None) -> None:
        if id is not None:
            block.id = id
        if name is not None:
            block.name = name
        if call_id is not None:
            block.call_id = call_id

    def set_signature(self, block: Block, signature: str, *, keep: bool = False) -> None:
        if not (keep and block.signature):
            block.signature = signature

    def set_attribution(self, block: Block, how: str) -> None:
        block.attribution = how

    def note(self, block: Block, key: str, value: object) -> None:
        block.extra[key] = value

    def note_event_block(self, block: Block) -> None:
        """Link the current event to a block (for the TUI) without changing the block."""
        if self.current is not None:
            self.current.block = block.pos

    # -------------------------------------------------------------- reading
    @property
    def framing(self) -> str | None:
        """How the body was framed: ``sse``, ``json`` (NDJSON, JSON documents, arrays), ``websocket``
        (one event per message), or None
        before the first non-blank byte."""
        if self._decoder is None:
            return None
        if self.messages:
            return "websocket"
        return "sse" if isinstance(self._decoder, SSEDecoder) else "json"

    def block_of(self, ev: EventRecord) -> Block | None:
        """The block ``ev`` touched, if any."""
        return self.blocks[ev.block] if ev.block is not None and ev.block < len(self.blocks) else None

    # -------------------------------------------------------------- internals
    def _stream_t(self) -> float | None:
        if self.end is not None and self.end.t is not None:
            return self.end.t
        return self.last_byte_t

    def _line(self, body_line: int | None, offset: int | None) -> int | None:
        """The line a finding points at: in a native capture, the file line of the chunk record
        holding ``offset``; elsewhere the body line (shifted past any prose the import skipped)."""
        if self._chunk_starts and offset is not None:
            i = bisect.bisect_right(self._chunk_starts, offset) - 1
            return self._chunk_lines[max(i, 0)]
        return body_line + self.line_base if body_line is not None else None

    def _take(self, items: list) -> None:
        i, n = 0, len(items)
        kinds: frozenset | None = None
        starts: frozenset = frozenset()
        while i < n:
            item = items[i]
            i += 1
            if isinstance(item, Frame):
                # A block's start, deltas and stop in one pass; consecutive deltas of one block in one
                # step (a named event that is neither goes alone: its name must be its type). Once the
                # dialect is known it stays (a new response's instance is of the same class).
                if kinds is None and self.dialect is not None and not self._pending:
                    kinds, starts = self.dialect.delta_types, self.dialect.group_starts
                if starts and (not item.named or item.event in starts):
                    taken = groups.take(self, items, i - 1)
                    if taken:
                        i += taken - 1
                        continue
                if kinds and (not item.named or item.event in kinds):
                    taken = deltas.take(self, items, i - 1)
                    if taken > 0:
                        i += taken - 1
                        continue
                    if taken < 0:  # looked at, to be taken one by one
                        for k in range(i - 1, i - 1 - taken):
                            self.take_frame(items[k])
                        i += -taken - 1
                        continue
                self.take_frame(item)
            elif item.__class__ is FrameRun:
                runs.take(self, item)
            elif isinstance(item, Comment):
                self._timing.on_keepalive(item.t, item.line)
                if self.ended:
                    self.after_end("a comment line after the end marker", event=None,
                                   line=self._line(item.line, item.offset), t=item.t)
            elif isinstance(item, FramingIssue):
                if self.http_error and item.code in stream_rules.FRAMING_SILENCED_BY_HTTP_ERROR:
                    continue
                line = self._line(item.line, item.offset)
                nxt = len(self.events) + len(self._pending)
                self.report_at(item.code, item.message, event=nxt, line=line, t=item.t)

    def take_frame(self, frame: Frame) -> None:
        """Dispatch one frame: its event recorded, then judged by the dialect (hot: once per event)."""
        self._clean = False
        payload = frame.payload
        if payload is None:
            payload = parse_payload(frame.data)
        else:
            frame.payload = None  # the event holds it now, and gives it back once dispatched
        typ = payload.get("type") if payload.__class__ is dict else None
        if typ.__class__ is not str:
            typ = None
        named = frame.named
        name = frame.event if named else (typ or "message")
        line = frame.line
        if self._chunk_starts:
            line = self._line(line, frame.offset)
        elif line is not None:  # None: a binary body (AWS event-stream) has no lines
            line += self.line_base
        ev = EventRecord(len(self.events) + len(self._pending), name, frame.data, payload, line, frame.t,
                         named, name in KEEPALIVE_TYPES, None, 0, frame.offset)
        if self.dialect is None:
            detected = detect.from_event(ev)
            if detected is None:
                self._pending.append(ev)
                return
            self._set_dialect(detected)
        reports = self._reports
        self._dispatch(ev, payload, typ)
        self._clean = self._reports == reports

    def take_direct(self, frame: Frame, payload: dict, typ: str, handler) -> None:
        """``take_frame`` for a frame whose parsed ``payload`` has the string ``type`` ``typ`` that
        its SSE name (if any) agrees with, no keep-alive, opening no response, while the dialect is
        known, nothing pending, the response under way: recorded, seen by the timing rules and
        handed to ``handler``, the dialect's direct handler for it (``inspector.session.groups``)."""
        response = self.current_response
        assert response is not None  # called once the dialect is known
        line = frame.line
        if self._chunk_starts:
            line = self._line(line, frame.offset)
        elif line is not None:
            line += self.line_base
        ev = EventRecord(len(self.events), typ, frame.data, payload, line, frame.t, frame.named, False, None,
                         response.index, frame.offset)
        self.events.append(ev)
        self.current = ev
        reports = self._reports
        if ev.t is not None or self._timing.pending_stall is not None:
            self._timing.on_event(ev)
        try:
            handler(payload)
        except (TypeError, AttributeError) as e:  # a list or an object where the dialect reads a scalar
            self._wrong_type(ev, e)
        self.current = None
        ev.release()
        self._clean = self._reports == reports

    def _dispatch(self, ev: EventRecord, payload: object, typ: str | None = None) -> None:
        """Judge ``ev`` (its parsed ``payload``, its ``type`` when a string) by the dialect."""
        self.events.append(ev)
        self.current = ev
        dialect = self.dialect
        response = self.current_response
        assert dialect is not None and response is not None  # dispatched once the dialect is known
        if (response.ended or typ in dialect.starts_response) and dialect.next_response(ev):
            if response.ended:
                self.after_end("a new response starts after the end marker: judged as a response of its own")
            self._finish_response(End(ev.t, "eof"), superseded=not response.ended)
            self.current = ev
            self._begin_response()
            dialect, response = self.dialect, self.current_response
            assert dialect is not None and response is not None
        ev.response = response.index
        if payload is NOT_JSON or payload is DONE:
            self._not_an_object(ev, payload)
        elif ev.named and typ is not None and typ != ev.name:
            stream_rules.check_event_name(self, ev)
        if ev.t is not None or self._timing.pending_stall is not None:
            self._timing.on_event(ev)
        try:
            handler = dialect.direct.get(typ) if typ is not None and not response.ended else None
            if handler is not None:  # what ``on_event`` would call (``Dialect.direct``): its ``type`` is a string
                handler(payload)  # type: ignore[arg-type]  # a string ``type``: the payload is a dict
            else:
                kind = payload.get("type") if payload.__class__ is dict and dialect.typed_events else None
                if kind is not None and kind.__class__ is not str:
                    raise TypeError(f"its type is {'an object' if isinstance(kind, dict) else 'a ' + type(kind).__name__}, "
                                    "not a string")
                dialect.on_event(ev)
        except (TypeError, AttributeError) as e:  # a list or an object where the dialect reads a scalar
            self._wrong_type(ev, e)
        self.current = None
        ev.release()

    def _wrong_type(self, ev: EventRecord | None, error: Exception) -> None:
        """S018: the dialect could not read ``ev`` (None: the end of the stream) because a value has
        the wrong JSON type; the event is skipped and the stream goes on."""
        fields = wrong_type_fields(ev.payload) if ev is not None else []
        where = f"{', '.join(fields)}: " if fields else ""
        what = f"the {ev.name!r} event" if ev is not None else "the end of the stream"
        self.report("S018", f"{what} could not be read: {where}a value of the wrong JSON type "
                    f"({type(error).__name__}: {error}); skipped, the rest of the stream is read",
                    event=ev if ev is not None else False, cause=(type(error).__name__, str(error)))

    def _not_an_object(self, ev: EventRecord, payload: object) -> None:
        """S002 for data that is not JSON, or ``[DONE]`` outside OpenAI; S004 when it follows the end."""
        # An unknown dialect judges no end marker: [DONE] ends OpenAI Assistants and other streams too.
        accepted = payload is DONE and (self.dialect is not None and self.dialect.accepts_done
                                        or self.dialect_name == "unknown")
        if not accepted and not self.http_error:
            if payload is NOT_JSON:
                why = _json_error(ev.data)
                if why == TOO_DEEP:  # valid JSON, perhaps, but too deep to read safely
                    self.report("S019", f"event data is {why}: kept as text, not parsed: {ev.data[:60]!r}", cause=why)
                else:
                    self.report("S002", f"event data is not valid JSON ({why}): {ev.data[:120]!r}", cause=why)
            else:
                self.report("S002", f"data: [DONE] is OpenAI's end marker, not JSON; {self.dialect_name} streams "
                            "never send it")
        if self.ended and not accepted:
            self.after_end(f"{ev.data[:40]!r} after the end marker")

    def _set_dialect(self, name: str) -> None:
        detect.dialect_class(name)  # raises ValueError for an unknown name before anything changes
        self.dialect_name = name
        self._begin_response()
        self._arm_runs()
        pending, self._pending = self._pending, []
        for ev in pending:
            self._dispatch(ev, ev.payload)

    def _arm_runs(self) -> None:
        """Tell an SSE decoder which string values may vary along a run of deltas in this dialect
        (none while ``runs.RunGate`` has the search off)."""
        if isinstance(self._decoder, SSEDecoder) and self.dialect is not None:
            self._decoder.on_run = self._saw_run
            if self._run_gate.armed:
                self._decoder.set_run_keys(self.dialect.run_keys, self.dialect.run_noise)
            else:
                self._decoder.set_run_keys({})

    def _saw_run(self, length: int) -> None:
        """The framing made a run of ``length`` events: the search goes off at once (the rest of the
        chunk framed an event at a time) when ``runs.RunGate`` says so."""
        if self._run_gate.saw_run(length, len(self.events)):
            self._arm_runs()

    def _look_for_runs(self) -> None:
        """The search for runs is off: turn it back on when ``runs.RunGate`` says so."""
        last = self.blocks[-1] if self.blocks else None
        if self._run_gate.rearm(len(self.events), last.pos if last else -1, last.deltas if last else 0):
            self._arm_runs()

    # ------------------------------------------------- runs.RunWriter
    @property
    def last_frame_clean(self) -> bool:
        """The last frame was dispatched (the dialect known, nothing pending) and reported nothing."""
        return self._clean and self.dialect is not None and not self._pending

    @property
    def untimed_calls(self) -> bool:
        """A block's start and stop may be taken whole (``inspector.session.groups``): the body has no
        lines of its own (a native capture's records need theirs) and no stall awaits the next event."""
        return not self._chunk_starts and self._timing.pending_stall is None

    @property
    def stall_pending(self) -> bool:
        """A silence long enough for T001 awaits the next event."""
        return self._timing.pending_stall is not None

    def arguments_resent(self, block: Block) -> bool:
        """J006 already fired for ``block``."""
        return self.argument_rules.resent(block)

    def record_deltas(self, frames: list, payloads: list, name: str, block: Block, t: float | None,
                      head: "tuple[Frame, str] | None" = None) -> EventSpan | None:
        """``frames`` (``payloads``: their data parsed), each an event named ``name`` adding a delta
        to ``block``, all arrived at ``t``, into the event log as ``take_frame`` records them, each
        seen by the timing rules when timed (``inspector.session.deltas``; no stall is pending there).
        Untimed in a body with lines of its own: one ``EventSpan`` (the records made when asked),
        returned; ``head``: the frame and name of the block's start, untimed, recorded first in it."""
        events, pos, response = self.events, block.pos, block.response
        index = events.size()
        if t is None and not self._chunk_starts:
            for frame in frames:
                frame.payload = None  # the span keeps the frame: its text, not the parsed value
            if head is None:
                span = EventSpan(index, frames, name, self.line_base, pos, response)
            else:
                span = EventSpan(index, [head[0], *frames], name, self.line_base, pos, response, head[1])
            events.add_run(span)
            self._clean = True
            return span
        assert head is None  # a start is recorded with its deltas only in a span
        append, timing, native, base = events.append, self._timing, bool(self._chunk_starts), self.line_base
        reports = self._reports
        for frame, payload in zip(frames, payloads):
            line = frame.line
            if native:
                line = self._line(line, frame.offset)
            elif line is not None:
                line += base
            reports = self._reports
            ev = EventRecord(index, name, frame.data, RELEASED if t is None else payload, line, t, frame.named, False,
                             pos, response, frame.offset)
            append(ev)
            if t is not None:
                timing.on_event(ev)
                ev.release()
            index += 1
        self._clean = self._reports == reports
        return None

    def record_lead_deltas(self, frames: list, fragments: list, text: str, name: str, block: Block,
                           head: tuple[Frame, str]) -> None:
        """``record_deltas`` and ``add_deltas`` for the deltas of a call its dialect opened whole (``head``: its
        start's frame and name; ``inspector.session.deltas``), read from their text: ``frames`` untimed and
        unparsed, in a body with no lines of its own (what ``groups`` asks before a start is taken whole);
        ``fragments`` their strings, ``text`` them joined."""
        events = self.events
        span = EventSpan(events.size(), [head[0], *frames], name, self.line_base, block.pos, block.response, head[1])
        events.add_run(span)
        self._clean = True
        block.deltas += len(fragments)
        block.last_fragment = fragments[-1]
        if text:  # untimed: the first content's time stays None
            block.append(text)
        block.fragment_times.extend(None, map(len, fragments if text.isascii() else map(str.encode, fragments)))

    def take_call(self, kind: str, index: int, id: str, name: str, fragments: list, frames: list,
                  names: tuple[str, str, str]) -> Block | None:
        """A short tool call taken whole by its dialect (``Dialect.take_calls``): ``frames``, untimed and
        unparsed, are its start, one delta per string of ``fragments`` and its stop, the next events;
        ``names`` their types (start, deltas, stop; the stop's is the block's ``stop_info``). What
        ``open_block_at``, ``add_deltas`` and ``close_block_at`` do with the events recorded in one
        ``EventSpan``, when the J rules (``ArgumentRules.fresh_call``) and the V rules (nothing declared)
        would report nothing: the block, closed; None: nothing changed (the dialect takes the start
        the usual way). The dialect checked the rest: the body untimed with no lines of its own, no
        stall pending, the response under way."""
        text = "".join(fragments)
        progress = argument_rules.ArgumentRules.fresh_call(fragments, text)
        if progress is None or self.declared.declared is not None:
            return None
        response = self.current_response
        assert response is not None  # a dialect takes calls only once its response began
        at, count = self.events.size(), len(fragments)
        b = Block(kind, index, None, id, name, True, True, at, None, True, at + count + 1, None)
        b.pos, b.response, b.progress, b.deltas, b.last_fragment = len(self.blocks), response.index, progress, count, fragments[-1]
        b.stop_info = names[2]
        b.replace(text)  # ``add_deltas``'s content, its text joined already (a report reads it)
        # ``add_deltas``: each fragment's UTF-8 bytes (its characters when ASCII, as all of them mostly are)
        b.fragment_times.extend(None, map(len, fragments if text.isascii() else map(str.encode, fragments)))
        self.blocks.append(b)
        response.blocks.append(b)
        span = EventSpan(at, frames, names[1], self.line_base, b.pos, response.index, names[0])
        span.tail = names[2]
        self.events.extend([span] * len(frames))
        self._clean = True
        return b

    def record_run(self, run: FrameRun, a: int, b: int, name: str, block: Block) -> None:
        """Events ``a``..``b - 1`` of ``run`` go into the event log as one packed ``EventRun``."""
        if self._chunk_starts:  # a native capture: every event of the run is on its chunk's file line
            line, base = self._line(run.line, run.offset), None
        else:
            line, base = None, self.line_base
        self.events.add_run(EventRun(len(self.events), run, a, b - a, name, line, base, block.pos, block.response))

    def _begin_response(self) -> None:
        """A response starts: a fresh writer and a fresh dialect instance judge it on its own."""
        response = self.current_response = ResponseWriter(self, len(self.responses))
        self.responses.append(response)
        assert self.dialect_name is not None  # a response begins once the dialect is named
        self.dialect = detect.make(self.dialect_name, response)

    def _finish_response(self, end: End, *, superseded: bool = False) -> None:
        """The current response is over (the body ended, or another response starts): its dialect's
        end rules, then J005 and T003 for its tool blocks still open. ``superseded``: a retry
        started before this response's end marker (the dialect says so, e.g. A017); no S003."""
        current, self.current = self.current, None
        dialect, response = self.dialect, self.current_response
        assert dialect is not None and response is not None  # only a response that began ends
        dialect.superseded = superseded
        try:
            dialect.on_end(end)
        except (TypeError, AttributeError) as e:  # state built from an event with a wrong type
            self._wrong_type(None, e)
        for block in response.blocks:
            if block.tool and not block.closed and not block.replaced:
                self.argument_rules.at_end(block)
        timing_rules.check_buffered_blocks(self, end, response.blocks)
        self.declared.at_response_end(response)
        self.current = current

    def add_deltas(self, block: Block, fragments: list, length: int, t: float | None, text: str | None = None) -> None:
        """Many deltas of ``block`` at once, all arrived at ``t`` (``length``: their characters
        together): the outcome of ``add_delta`` once per fragment, each at its own event. ``text``:
        their joined text when the caller has it (the content gets it as one part: the same text)."""
        block.deltas += len(fragments)
        block.last_fragment = fragments[-1]
        if length:
            if text is None:
                block.extend(fragments, length)
            else:
                block.append(text)
            if self.first_content_t is None:
                self.first_content_t = t
        text_ascii = length == 0 or (text.isascii() if text is not None else all(map(str.isascii, fragments)))
        block.fragment_times.extend(t, map(len, fragments if text_ascii else map(str.encode, fragments)))
        if t is None:
            return
        for _ in range(min(len(fragments), 2)):  # from the third on, nothing changes: each gap is 0
            block.delta_at(t)

    def add_delta(self, block: Block, fragment: str) -> None:
        """One delta of ``block`` at the current event: content, counts, timing (hot: once per delta)."""
        ev = self.current
        block.deltas += 1
        block.last_fragment = fragment
        if fragment:
            block.append(fragment)
            if self.first_content_t is None and ev is not None:  # the first content (``ttfc_s``)
                self.first_content_t = ev.t
        if ev is None:
            block.fragment_times.append(None, len(fragment.encode("utf-8")))
            return
        ev.block = block.pos
        t = ev.t
        block.fragment_times.append(t, len(fragment) if fragment.isascii() else len(fragment.encode("utf-8")))
        if t is not None:
            block.delta_at(t)

    # --------------------------------------------------------------- summary
    @property
    def ttfb_s(self) -> float | None:
        """Seconds from the request to the first byte (request-relative captures only)."""
        return self.first_byte_t if self.request_relative else None

    @property
    def ttfc_s(self) -> float | None:
        """Seconds from the request to the first event that carried content or opened a block."""
        return self.first_content_t if self.request_relative else None

    @property
    def duration_s(self) -> float | None:
        t = self._stream_t()
        if t is None:
            return None
        if self.request_relative or self.first_byte_t is None:
            return t
        return t - self.first_byte_t

    @property
    def body_head(self) -> bytes:
        """The first 4 KiB of the body (shown with S007)."""
        return bytes(self._body_head)


def _json_error(data: str) -> str:
    """Why ``data`` is not JSON, without the position (repeats of one malformed shape are one cause)."""
    try:
        loads(data)
    except orjson.JSONDecodeError as e:
        return e.msg
    return "not JSON"
