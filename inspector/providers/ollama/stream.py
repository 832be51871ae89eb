"""ollama dialect: Ollama's native NDJSON stream (``POST /api/chat``, also ``/api/generate``).

Why it exists: Ollama's native API streams one JSON object per line and ends with a
``done: true`` line; tool calls arrive whole with an *object* ``arguments``, errors arrive as an
``{"error": "…"}`` line with the HTTP status unchanged, and models without a working tool
template write the call as plain text. Clients that expect the OpenAI shape (string arguments,
``[DONE]``) or that never look at the error line hang or run nothing. This module turns the
lines into ``text``, ``thinking`` and ``tool_call`` blocks and judges S003, S004, S006, N001
and C015 (``shared/RULES.md``).

Protocol facts (``shared/PROTOCOLS.md`` §5): ollama ``docs/api/streaming.mdx``,
``docs/api/errors.mdx``, ``api/types.go`` (``ToolCall.Function.Arguments`` is an object),
``docs/api.md`` (``/api/generate`` streams ``response``; final line ``done: true``, ``done_reason``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from inspector.providers.base import Dialect
from inspector.providers.textcalls import looks_like_tool_call
from inspector.model.members import object_member, string_member

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord


class Ollama(Dialect):
    """Ollama NDJSON lines -> text/thinking/tool_call blocks; S003/S004/S006, N001, C015."""

    name = "ollama"
    json_content_type = True

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.text: Block | None = None
        self.thinking: Block | None = None
        self.calls: list[Block] = []
        self.positions = 0
        self.done = False
        self.errored = False
        self.c015_judged = False

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        if not isinstance(p, dict):
            return  # NOT_JSON (S002 already) or a stray [DONE]
        if self.done:
            self.w.after_end("line after the final 'done: true' line")
            return
        if "error" in p and p.get("error") is not None:
            err = p["error"]
            if isinstance(err, dict):
                err = err.get("message") or orjson.dumps(err).decode()
            self.errored = True
            self.w.report("S006", f"error inside the stream: {err}"[:400])
            return
        if isinstance(p.get("model"), str):
            self.w.set_model(p["model"])
        msg = p.get("message")
        if isinstance(msg, dict):
            self._text("thinking", msg.get("thinking"))
            self._text("text", msg.get("content"))
            calls = msg.get("tool_calls")
            if isinstance(calls, list):
                for tc in calls:
                    if isinstance(tc, dict):
                        self._tool_call(tc)
        else:
            # /api/generate: top-level ``thinking`` and ``response``
            self._text("thinking", p.get("thinking"))
            self._text("text", p.get("response"))
        if p.get("done") is True:
            self.done = True
            self.w.mark_ended()
            reason = p.get("done_reason")
            self.w.set_stop_reason(reason if isinstance(reason, str) else None)
            info = f"done_reason: {reason}" if isinstance(reason, str) else "done"
            for b in (self.thinking, self.text):
                if b is not None and not b.closed:
                    self.w.close_block(b, stop_info=info)
            self._judge_text(event=True)

    def on_end(self, end: "End") -> None:
        if not self.done:
            self._judge_text(event=False)
            if not self.errored:
                self.truncated("a 'done: true' line")

    # ---------------------------------------------------------------- helpers
    def _text(self, kind: str, value) -> None:
        if not isinstance(value, str) or not value:
            return
        b = self.text if kind == "text" else self.thinking
        if b is None:
            b = self.w.open_block(kind, index=self.positions)
            self.positions += 1
            if kind == "text":
                self.text = b
            else:
                self.thinking = b
        self.w.add_text(b, value)

    def _tool_call(self, tc: dict) -> None:
        fn = object_member(tc, "function")
        name = string_member(fn, "name")
        tid = tc.get("id") if isinstance(tc.get("id"), str) and tc.get("id") else None
        # Native arguments are an object; a missing one means no parameters ({}), not an empty call.
        b = self.w.open_block("tool_call", index=self.positions, id=tid, name=name, tool=True,
                              empty_is_object=True)
        self.positions += 1
        if isinstance(fn.get("index"), int):
            self.w.note(b, "function_index", fn["index"])
        args = fn.get("arguments")
        if isinstance(args, str):
            self.w.report("N001", f"function.arguments of {name!r} is a string ({len(args)} characters); "
                          "the native API sends an object", index=b.index)
            self.w.set_arguments(b, args)
        elif args is not None:
            self.w.set_object_arguments(b, args)
        self.calls.append(b)
        self.w.close_block(b, stop_info="tool call (arrives whole)")

    def _judge_text(self, *, event: bool) -> None:
        """C015: the assistant text is a tool call written as text and no structured call exists."""
        if self.c015_judged:
            return
        self.c015_judged = True
        if self.calls or self.text is None:
            return
        why = looks_like_tool_call(self.text.content)
        if why:
            self.w.report("C015", f"{why}, and no structured tool call was streamed: the client shows "
                          "it as text instead of running the tool (tool template missing?)",
                          index=self.text.index, event=event)
