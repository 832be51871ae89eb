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

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord

FINISH_REASONS = frozenset({
    "STOP", "MAX_TOKENS", "SAFETY", "RECITATION", "LANGUAGE", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT",
    "SPII", "MALFORMED_FUNCTION_CALL", "IMAGE_SAFETY", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS",
    "IMAGE_PROHIBITED_CONTENT", "NO_IMAGE", "IMAGE_RECITATION", "IMAGE_OTHER", "FINISH_REASON_UNSPECIFIED",
})
"""google-genai ``FinishReason`` (PROTOCOLS.md §4); other values are S008 info."""

FAILED_CALL = frozenset({"MALFORMED_FUNCTION_CALL", "UNEXPECTED_TOOL_CALL", "TOO_MANY_TOOL_CALLS"})
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


class _Candidate:
    """Per-candidate state: the open text block, positions, calls, finish."""

    __slots__ = ("index", "text_block", "positions", "calls", "finish", "last_block", "early_sig")

    def __init__(self, index: int) -> None:
        self.index = index
        self.text_block: Block | None = None
        self.positions = 0
        self.calls: list[Block] = []
        self.finish: str | None = None
        self.last_block: Block | None = None
        self.early_sig: str | None = None
        """Kind of the non-call part that carried a signature before any call of the turn."""


class Gemini(Dialect):
    """Gemini chunks -> text/thought/function_call blocks per candidate; G001/G002, S003/S004/S006/S008."""

    name = "gemini"
    url_hints = ('generativelanguage.googleapis.com', 'streamGenerateContent')

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.cands: dict[int, _Candidate] = {}
        self.blocked: str | None = None
        self.unknown_reported: set = set()

    @classmethod
    def sniff(cls, ev: "EventRecord") -> bool:
        """A ``GenerateContentResponse`` chunk, or Google's error object as the first event.

        Google APIs report errors as ``{"error": {"code": int, "message": str, "status": "UPPER_CASE"}}``
        (google.rpc.Status JSON mapping, cloud.google.com/apis/design/errors); no other provider
        here uses the ``status`` string.
        """
        p = ev.payload
        if not isinstance(p, dict) or "choices" in p:
            return False
        if "candidates" in p or "promptFeedback" in p:
            return True
        err = p.get("error")
        return (len(p) == 1 and isinstance(err, dict) and isinstance(err.get("code"), int)
                and isinstance(err.get("status"), str) and err["status"].isupper())

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
        fb = p.get("promptFeedback")
        if isinstance(fb, dict) and isinstance(fb.get("blockReason"), str):
            self.blocked = fb["blockReason"]
            if self.w.stop_reason is None:
                self.w.set_stop_reason(self.blocked)
            self.w.mark_ended()
        cands = p.get("candidates")
        if not isinstance(cands, list):
            return
        for pos, cand in enumerate(cands):
            if isinstance(cand, dict):
                self._candidate(pos, cand)

    def on_end(self, end: "End") -> None:
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

    def _after_end(self, c: _Candidate, what: str) -> None:
        self.w.after_end(f"{what} for candidate {c.index} after its finishReason {c.finish!r}")

    def _candidate(self, pos: int, cand: dict) -> None:
        idx = cand.get("index", pos)
        idx = idx if isinstance(idx, int) and not isinstance(idx, bool) else pos
        c = self.cands.get(idx)
        if c is None:
            c = self.cands[idx] = _Candidate(idx)
        content = cand.get("content")
        parts = content.get("parts") if isinstance(content, dict) else None
        if isinstance(parts, list):
            for part in parts:
                if isinstance(part, dict):
                    self._part(c, part)
        finish = cand.get("finishReason")
        if isinstance(finish, str) and finish:
            self._finish(c, finish, cand)

    def _part(self, c: _Candidate, part: dict) -> None:
        sig = part.get("thoughtSignature")
        sig = sig if isinstance(sig, str) and sig else None
        for key in part:
            if key not in KNOWN_PART_KEYS:
                self._unknown("part field", key)
        fc = part.get("functionCall")
        text = part.get("text")
        if c.finish is not None and (isinstance(fc, dict) or (isinstance(text, str) and text)):
            self._after_end(c, "content")
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

    def _close_text(self, c: _Candidate, stop_info: str | None = None) -> None:
        b = c.text_block
        if b is not None and not b.closed:
            self.w.close_block(b, stop_info=stop_info)
        c.text_block = None

    def _function_call(self, c: _Candidate, fc: dict, sig: str | None) -> None:
        self._close_text(c)
        name = fc.get("name") if isinstance(fc.get("name"), str) else None
        fid = fc.get("id") if isinstance(fc.get("id"), str) and fc.get("id") else None
        # A call with no ``args`` is a call with no parameters: ``{}`` (types.FunctionCall.args is optional).
        b = self._open(c, "function_call", id=fid, name=name, tool=True, empty_is_object=True)
        args = fc.get("args")
        if args is not None:
            self.w.set_object_arguments(b, args)
        c.calls.append(b)
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
        self.w.close_block(b, stop_info="functionCall (arrives whole)")

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
                self.w.set_signature(c.last_block, sig, keep=True)
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

    def _finish(self, c: _Candidate, finish: str, cand: dict) -> None:
        if c.finish is not None:
            self._after_end(c, f"a second finishReason {finish!r}")
            return
        c.finish = finish
        self._close_text(c, stop_info=f"finishReason: {finish}")
        if c.early_sig is not None and not c.calls:
            # RULES.md G002: a signature on a part other than the first functionCall; with no call in
            # the turn it stays with that part.
            self.w.report("G002", f"thoughtSignature arrived on a {c.early_sig} part and this turn has no function "
                          "call: send it back with that part")
        if not self.cands or c.index == min(self.cands):
            self.w.set_stop_reason(finish)
        if all(x.finish is not None for x in self.cands.values()):
            self.w.mark_ended()
        if finish not in FINISH_REASONS:
            self._unknown("finishReason", finish)
        if finish in FAILED_CALL:
            detail = cand.get("finishMessage")
            detail = f": {detail}" if isinstance(detail, str) and detail else ""
            self.w.report("G001", f"finishReason {finish}{detail}: the model's function call was rejected "
                          "and no call is returned to execute", index=None)
