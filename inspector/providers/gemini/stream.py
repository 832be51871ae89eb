"""gemini dialect: the native Gemini API stream (``…:streamGenerateContent?alt=sse``).

Why it exists: each SSE frame is a whole ``GenerateContentResponse`` chunk; text arrives as
``parts[].text`` pieces, function calls arrive whole (``parts[].functionCall`` with an ``args``
object) and the thought signature that Gemini 3 requires back rides as a *sibling* of the part
(``thoughtSignature``), sometimes in a later empty-text part. There is no ``[DONE]``: a
candidate ends with its ``finishReason``. Clients that miss a late signature, or read
``MALFORMED_FUNCTION_CALL`` as a normal stop, fail on the next turn. This module turns the
chunks into blocks (``text``, ``thought``, ``function_call``) per candidate and judges S003,
S004, S006, S008, G001 and G002 (``shared/RULES.md``).

Protocol facts (``shared/PROTOCOLS.md`` §4): google-genai ``types.Part`` / ``FinishReason``;
ai.google.dev/gemini-api/docs/thought-signatures; python-genai ``_api_client.py`` (a chunk
starting ``{"error":`` raises ``APIError``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from inspector.providers.base import Dialect
from inspector.providers.gemini.partial_args import VALUE_KEYS, PartialArgs, parse_path

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord

FINISH_REASONS = frozenset({
    "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT",
    "SPII", "MALFORMED_FUNCTION_CALL", "IMAGE_SAFETY", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS",
    "IMAGE_PROHIBITED_CONTENT", "NO_IMAGE", "IMAGE_RECITATION", "IMAGE_OTHER", "FINISH_REASON_UNSPECIFIED",
    "MODEL_ARMOR",
})
"""google-genai ``FinishReason`` (PROTOCOLS.md §4); other values are S008 info."""
FINISH_REASON_NUMBERS = (
    "FINISH_REASON_UNSPECIFIED", "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "OTHER", "BLOCKLIST",
    "PROHIBITED_CONTENT", "SPII", "MALFORMED_FUNCTION_CALL", "MODEL_ARMOR", "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT", "IMAGE_RECITATION", "IMAGE_OTHER", "UNEXPECTED_TOOL_CALL", "NO_IMAGE",
)
"""``finishReason`` as an integer (Vertex's REST transport asks ``enum-encoding=int``, PROTOCOLS.md §8): the
protobuf ``Candidate.FinishReason`` numbering of googleapis ``google/cloud/aiplatform/v1/content.proto``,
by position. A number past the end is shown as it came and reported as unknown (S008)."""

FAILED_CALL = frozenset({"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"})

RESPONSE_KEYS = frozenset({"candidates", "promptFeedback", "usageMetadata", "modelVersion", "responseId",
                           "createTime", "trafficType", "modelStatus", "automaticFunctionCallingHistory",
                           "sdkHttpResponse", "parsed"})
"""Fields of google-genai ``GenerateContentResponse`` (and Vertex's ``createTime``/``trafficType``)."""
CANDIDATE_KEYS = frozenset({"content", "finishReason", "index", "safetyRatings", "citationMetadata",
                            "groundingMetadata", "urlContextMetadata", "avgLogprobs", "logprobsResult",
                            "tokenCount", "finishMessage", "groundingAttributions"})
"""Fields of google-genai ``types.Candidate``."""
FUNCTION_CALL_KEYS = frozenset({"name", "args", "id", "partialArgs", "willContinue"})
"""Fields of google-genai ``types.FunctionCall``."""
PARTIAL_ARG_KEYS = frozenset({"jsonPath", "willContinue", *VALUE_KEYS})
"""Fields of google-genai ``types.PartialArg``."""
"""G001: finish reasons that mean the model's function call was rejected."""

KNOWN_PART_KEYS = frozenset({
    "text", "thought", "thoughtSignature", "functionCall", "functionResponse", "inlineData", "fileData",
    "executableCode", "codeExecutionResult", "videoMetadata", "partMetadata", "mediaResolution",
    "toolCall", "toolResponse",
})
"""Fields of google-genai ``types.Part``; parts with other fields are S008 info."""

_SHOWN_PARTS = ("functionResponse", "inlineData", "fileData", "executableCode", "codeExecutionResult",
                "toolCall", "toolResponse")
"""Part payloads shown as a block of their own (kind = the field name), text = their JSON."""


def _carries_content(part: dict) -> bool:
    """Text, a function call, or a shown payload (code, results, files); a bare signature is not content."""
    text = part.get("text")
    return bool(isinstance(text, str) and text) or "functionCall" in part or any(k in part for k in _SHOWN_PARTS)


class _Candidate:
    """Per-candidate state: the open text block, positions, calls, the latest finish."""

    __slots__ = ("index", "text_block", "positions", "calls", "finish", "finish_event", "last_block", "early_sig",
                 "content_seen", "early_finish", "streaming")

    def __init__(self, index: int) -> None:
        self.index = index
        self.text_block: Block | None = None
        self.positions = 0
        self.calls: list[Block] = []
        self.finish: str | None = None
        """The latest ``finishReason`` (the last one is the candidate's; earlier ones: G003/G004)."""
        self.finish_event: EventRecord | None = None
        self.last_block: Block | None = None
        self.early_sig: str | None = None
        """Kind of the non-call part that carried a signature before any call of the turn."""
        self.content_seen = False
        self.early_finish: EventRecord | None = None
        """A ``finishReason`` on a frame with no parts before any content (G004 if content follows)."""
        self.streaming: tuple[Block, PartialArgs] | None = None
        """The streamed function call whose ``partialArgs`` are arriving (G005 if it never ends)."""


class Gemini(Dialect):
    """Gemini chunks -> text/thought/function_call blocks per candidate; G001/G002, S003/S004/S006/S008."""

    name = "gemini"
    array_body = True

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.cands: dict[int, _Candidate] = {}
        self.blocked: str | None = None
        self.unknown_reported: set = set()
        self.g003 = False

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        if not isinstance(p, dict):
            return  # NOT_JSON (S002 already) or a stray [DONE]
        if p.get("error") is not None:
            self._error(p["error"])
            return
        if isinstance(p.get("modelVersion"), str):
            self.w.set_model(p["modelVersion"])
        if isinstance(p.get("usageMetadata"), dict):
            self.w.set_usage(p["usageMetadata"])
        for key in p:
            if key not in RESPONSE_KEYS:
                self._unknown("response field", key)
        fb = p.get("promptFeedback")
        if isinstance(fb, dict) and isinstance(fb.get("blockReason"), str):
            self.blocked = fb["blockReason"]
            if self.w.stop_reason is None:
                self.w.set_stop_reason(self.blocked)
        cands = p.get("candidates")
        if not isinstance(cands, list):
            return
        for pos, cand in enumerate(cands):
            if isinstance(cand, dict):
                self._candidate(pos, cand)

    def on_end(self, end: "End") -> None:
        """The last ``finishReason`` of each candidate is its end (RULES.md S003, G003): text
        blocks close here; a streamed call still waiting for its final part is G005."""
        for c in self.cands.values():
            if c.streaming is not None:
                self.G005_streamed_call_unfinished(c)
            if c.finish is not None:  # without one the text never ended (S003): it stays open
                self._close_text(c, stop_info=f"finishReason: {c.finish}", event=c.finish_event)
        open_ = [c.index for c in self.cands.values() if c.finish is None]
        if open_:
            which = ", ".join(str(i) for i in open_)
            self.truncated(f"a finishReason for candidate {which}")
        elif not self.cands and self.blocked is None:
            self.truncated("a finishReason (no candidate arrived)")

    # ---------------------------------------------------------------- helpers
    def _error(self, err) -> None:
        if isinstance(err, dict):
            kind = err.get("status") or err.get("code") or "error"
            msg = err.get("message") or "(no message)"
            text = f"{kind}: {msg}"
        else:
            text = str(err)
        self.w.report("S006", f"error inside the stream: {text}"[:400])
        self.errored = True

    def _unknown(self, what: str, value) -> None:
        key = (what, value)
        if key not in self.unknown_reported:
            self.unknown_reported.add(key)
            self.w.report("S008", f"unknown {what} {value!r} (shown, not judged)")

    def _candidate(self, pos: int, cand: dict) -> None:
        idx = cand.get("index", pos)
        idx = idx if isinstance(idx, int) and not isinstance(idx, bool) else pos
        c = self.cands.get(idx)
        if c is None:
            c = self.cands[idx] = _Candidate(idx)
        for key in cand:
            if key not in CANDIDATE_KEYS:
                self._unknown("candidate field", key)
        content = cand.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        parts = [part for part in parts if isinstance(part, dict)] if isinstance(parts, list) else []
        if parts and any(_carries_content(part) for part in parts):
            self._content_follows(c)
        for part in parts:
            self._part(c, part)
        finish = finish_reason_name(cand.get("finishReason"))
        if finish:
            self._finish(c, finish, cand, empty=not parts)

    def _content_follows(self, c: _Candidate) -> None:
        """Content arrives for ``c``: an earlier ``finishReason`` was not the end (G004, G003)."""
        if c.early_finish is not None:
            self.G004_finish_before_content(c)
        elif c.finish is not None:
            self.G003_intermediate_finish(c)
        c.finish = None
        c.content_seen = True

    def _part(self, c: _Candidate, part: dict) -> None:
        sig = part.get("thoughtSignature")
        sig = sig if isinstance(sig, str) and sig else None
        for key in part:
            if key not in KNOWN_PART_KEYS:
                self._unknown("part field", key)
        fc = part.get("functionCall")
        text = part.get("text")
        if isinstance(fc, dict):
            self._function_call(c, fc, sig)
            return
        if isinstance(text, str):
            kind = "thought" if part.get("thought") is True else "text"
            if text:
                b = c.text_block
                if b is None or b.kind != kind or b.closed:
                    self._close_text(c)
                    b = c.text_block = self._open(c, kind)
                self.w.add_text(b, text)
            if sig is not None:
                self._text_signature(c, sig, kind, empty=not text)
            return
        for key in _SHOWN_PARTS:
            if key in part:
                self._close_text(c)
                b = self._open(c, key)
                try:
                    shown = orjson.dumps(part[key]).decode()
                except TypeError:
                    shown = str(part[key])
                self.w.add_text(b, shown)
                self.w.close_block(b)
                break
        if sig is not None:
            self._text_signature(c, sig, "part", empty=True)

    def _open(self, c: _Candidate, kind: str, **kw) -> "Block":
        b = self.w.open_block(kind, index=c.positions, choice=c.index, **kw)
        c.positions += 1
        c.last_block = b
        return b

    def _close_text(self, c: _Candidate, stop_info: str | None = None, event: "EventRecord | None" = None) -> None:
        b = c.text_block
        if b is not None and not b.closed:
            self.w.close_block(b, stop_info=stop_info)
            if event is not None:
                self.w.note(b, "closed by", f"event {event.index}")
        c.text_block = None

    def _function_call(self, c: _Candidate, fc: dict, sig: str | None) -> None:
        """A ``functionCall`` part: a whole call, the start of a streamed one (``willContinue``),
        or the next part of the streamed call (``partialArgs``; its final part has no
        ``willContinue``)."""
        for key in fc:
            if key not in FUNCTION_CALL_KEYS:
                self._unknown("functionCall field", key)
        name = fc.get("name") if isinstance(fc.get("name"), str) and fc.get("name") else None
        more = fc.get("willContinue") is True
        if c.streaming is not None and name is None:
            self._streamed_part(c, fc, more)
            return
        if c.streaming is not None:
            self.G005_streamed_call_unfinished(c)
        self._close_text(c)
        fid = fc.get("id") if isinstance(fc.get("id"), str) and fc.get("id") else None
        # A call with no ``args`` is a call with no parameters: ``{}`` (types.FunctionCall.args is optional).
        b = self._open(c, "function_call", id=fid, name=name, tool=True, empty_is_object=True)
        c.calls.append(b)
        self._call_signature(c, b, name, sig)
        if name is None:
            self.w.report("S008", "functionCall part with no name and no streamed call open (its arguments "
                          "belong to no call)", index=b.index, cause="nameless functionCall")
        args = fc.get("args")
        if args is not None:
            self.w.set_object_arguments(b, args)
        if more and args is None:
            c.streaming = (b, PartialArgs())
            self.w.note(b, "streamed", "partialArgs (willContinue)")
            self._streamed_part(c, fc, more)
            return
        self.w.close_block(b, stop_info="functionCall (arrives whole)")

    def _streamed_part(self, c: _Candidate, fc: dict, more: bool) -> None:
        """``partialArgs`` of the streamed call: written as JSON text as they come (G005 if the
        final part never arrives)."""
        assert c.streaming is not None  # called once the call is streaming
        block, args = c.streaming
        entries = fc.get("partialArgs")
        if entries is not None and not isinstance(entries, list):
            self.w.report("S008", f"functionCall.partialArgs is a {type(entries).__name__}, not a list",
                          index=block.index, cause="partialArgs not a list")
            entries = []
        text = []
        for entry in entries or ():
            fragment = self._partial_arg(block, args, entry)
            if fragment:
                text.append(fragment)
        if not more:
            text.append(args.finish())
        if text:
            self.w.add_arguments(block, "".join(text))
        else:
            self.w.note_event_block(block)
        if more:
            return
        c.streaming = None
        if not args.in_order:
            self.w.note(block, "assembled", "partialArgs out of document order: written whole at the end")
            self.w.set_arguments(block, orjson.dumps(args.value).decode())
        self.w.close_block(block, stop_info="functionCall (streamed, final part)")

    def _partial_arg(self, block: Block, args: PartialArgs, entry: object) -> str:
        if not isinstance(entry, dict):
            self.w.report("S008", f"partialArgs entry is a {type(entry).__name__}, not an object",
                          index=block.index, cause="partialArgs entry")
            return ""
        tokens = parse_path(entry.get("jsonPath"))
        if tokens is None:
            self.w.report("S008", f"partialArgs jsonPath {entry.get('jsonPath')!r} is not a path like "
                          "$.a.b[0] (the value is shown in the event, not assembled)", index=block.index,
                          cause="jsonPath")
            return ""
        for key in entry:
            if key not in PARTIAL_ARG_KEYS:
                self._unknown("partialArgs field", key)
        kind = next((k for k in VALUE_KEYS if k in entry), None)
        if kind is None:
            self.w.report("S008", f"partialArgs entry for {entry.get('jsonPath')} carries no value "
                          f"({', '.join(VALUE_KEYS)})", index=block.index, cause="partialArgs value")
            return ""
        value = None if kind == "nullValue" else entry[kind]
        return args.add(tokens, value, is_string=kind == "stringValue", more=entry.get("willContinue") is True)

    def _call_signature(self, c: _Candidate, b: Block, name: str | None, sig: str | None) -> None:
        if sig is None and len(c.calls) == 1 and c.early_sig is not None:
            self.w.report("G002", f"the first function call {name!r} carries no thoughtSignature; one arrived "
                          f"earlier on a {c.early_sig} part: send it back on that part", index=b.index)
        if sig is not None:
            self.w.set_signature(b, sig)
            if len(c.calls) > 1:
                first = c.calls[0]
                self.w.report("G002", f"thoughtSignature on function call #{len(c.calls)} {name!r}, not on the "
                              f"first call of the turn ({first.name!r}): it belongs to this call; send it back "
                              "on this same part", index=b.index)

    def _text_signature(self, c: _Candidate, sig: str, kind: str, *, empty: bool) -> None:
        """A signature on a text/thought part: fine on a turn's last part, G002 when it belongs to a call."""
        if c.calls:
            first = c.calls[0]
            where = "a later empty-text part" if empty else f"a later {kind} part"
            if first.signature is None:
                self.w.set_signature(first, sig)
                self.w.note(first, "thoughtSignature_from", where)
                belongs = f"it belongs to the first function call {first.name!r}"
            else:
                belongs = f"the first function call {first.name!r} already has one; keep it with this part"
                last = c.last_block
                assert last is not None  # c.calls holds a call, so a part (a block) came
                self.w.set_signature(last, sig, keep=True)
            self.w.report("G002", f"thoughtSignature arrived in {where}: {belongs}", index=first.index)
            return
        target = c.text_block if c.text_block is not None else c.last_block
        if empty:
            self.w.report("G002", "thoughtSignature arrived in an empty-text part: it belongs to the "
                          "turn's last part; send it back with it",
                          index=target.index if target is not None else None)
        elif c.early_sig is None:
            c.early_sig = kind
        if target is not None:
            self.w.set_signature(target, sig, keep=True)

    def _finish(self, c: _Candidate, finish: str, cand: dict, *, empty: bool) -> None:
        """A ``finishReason``: the candidate's end unless parts follow (G003, G004); blocks stay
        open until the stream ends, so one candidate's text stays one block."""
        c.finish = finish
        c.finish_event = self.w.current
        if empty and not c.content_seen and c.early_finish is None:
            c.early_finish = self.w.current
        if c.early_sig is not None and not c.calls:
            # RULES.md G002: a signature on a part other than the first functionCall; with no call in
            # the turn it stays with that part.
            self.w.report("G002", f"thoughtSignature arrived on a {c.early_sig} part and this turn has no function "
                          "call: send it back with that part", cause="signature without call")
        if not self.cands or c.index == min(self.cands):
            self.w.set_stop_reason(finish)
        if finish not in FINISH_REASONS:
            self._unknown("finishReason", finish)
        if finish in FAILED_CALL:
            detail = cand.get("finishMessage")
            detail = f": {detail}" if isinstance(detail, str) and detail else ""
            self.w.report("G001", f"finishReason {finish}{detail}: the model's function call was rejected "
                          "and no call is returned to execute", index=None)

    # ------------------------------------------------------------------- rules
    def G003_intermediate_finish(self, c: _Candidate) -> None:
        """G003 intermediate-finish (info): a ``finishReason`` on a frame followed by more parts
        (code-execution rounds; older Vertex sends ``STOP`` on every frame). Once per stream."""
        if self.g003:
            return
        self.g003 = True
        ev = c.finish_event
        self.w.report("G003", f"finishReason {c.finish!r} on event {ev.index if ev else '?'} is followed by more "
                      f"parts for candidate {c.index}: clients that stop at the first finishReason lose the rest "
                      "(reported once per stream)")

    def G004_finish_before_content(self, c: _Candidate) -> None:
        """G004 finish-before-content (warning): a ``finishReason`` on a frame with no parts,
        before any content, and content follows: clients end the turn empty."""
        ev, c.early_finish = c.early_finish, None
        self.w.report("G004", f"a {c.finish!r} finishReason with no parts arrived before any content (event "
                      f"{ev.index if ev else '?'}), and content follows: clients that stop at the first "
                      "finishReason end the turn empty", index=None)

    def G005_streamed_call_unfinished(self, c: _Candidate) -> None:
        """G005 streamed-call-unfinished (error): a streamed ``functionCall`` (``willContinue``)
        never received its final part."""
        assert c.streaming is not None  # judged only while a call streams
        block, _ = c.streaming
        c.streaming = None
        self.w.report("G005", f"streamed function call {block.name!r} never received its final part (a "
                      "functionCall without willContinue): its arguments are incomplete; do not execute it",
                      index=block.index, event=False)


def finish_reason_name(value: object) -> str | None:
    """A ``finishReason`` by its name, whether it came as a name or as its protobuf number
    (``1`` -> ``STOP``, PROTOCOLS.md §8); None when there is none."""
    if isinstance(value, str):
        return value or None
    if isinstance(value, int) and not isinstance(value, bool):
        return FINISH_REASON_NUMBERS[value] if 0 <= value < len(FINISH_REASON_NUMBERS) else str(value)
    return None
