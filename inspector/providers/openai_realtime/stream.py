"""openai-realtime dialect: the Realtime API's server events (``wss://…/v1/realtime``), one response at a time.

Why it exists: a voice agent's tool calls arrive on a WebSocket as Realtime events, the same output
items, content parts and argument deltas as the Responses API with other names around them
(PROTOCOLS.md §8). This dialect reads one response (``inspector.capture.websocket`` cuts the socket
into responses) with the Responses dialect's item bookkeeping and rules (R, J, V), and knows what is
Realtime's own:

- every server event carries an ``event_id`` (no ``sequence_number``); the response ends with
  ``response.done``, whose ``response.status`` (``completed``, ``cancelled``, ``failed``,
  ``incomplete``) is the stop reason;
- text comes as ``response.output_text.delta``/``.done`` or, for audio, as the transcript
  (``response.output_audio_transcript.delta``/``.done`` with ``transcript``); content parts are
  ``text`` or ``audio``; a message item's final content is ``output_text``/``output_audio``;
- ``response.output_audio.delta`` carries base64 audio: counted (bytes on the item's block, the
  ``audio_bytes`` note), never shown;
- events of the session rather than the response (``session.*``, ``conversation.*``,
  ``input_audio_buffer.*``, ``output_audio_buffer.*``, ``rate_limits.updated``, ``mcp_list_tools.*``)
  may come before, inside and after a response: shown, never judged.

Oracle: openai-python ``types/realtime/realtime_server_event.py`` and the event types it names.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from inspector.model.digits import digits_int
from inspector.providers.openai_realtime.sniff import SESSION_PREFIXES, URL_HINTS, sniff
from inspector.providers.openai_responses.stream import OpenAIResponses

if TYPE_CHECKING:
    from inspector.model.events import EventRecord

RESPONSE_EVENTS = frozenset({
    "error", "response.created", "response.done",
    "response.output_item.added", "response.output_item.done",
    "response.content_part.added", "response.content_part.done",
    "response.output_text.delta", "response.output_text.done",
    "response.output_audio.delta", "response.output_audio.done",
    "response.output_audio_transcript.delta", "response.output_audio_transcript.done",
    "response.function_call_arguments.delta", "response.function_call_arguments.done",
    "response.mcp_call_arguments.delta", "response.mcp_call_arguments.done",
    "response.mcp_call.in_progress", "response.mcp_call.completed", "response.mcp_call.failed",
    # The beta API's names (openai-python ``types/beta/realtime``), still served to beta clients.
    "response.text.delta", "response.text.done", "response.audio.delta", "response.audio.done",
    "response.audio_transcript.delta", "response.audio_transcript.done",
})
"""The response events of ``RealtimeServerEvent`` (openai-python @e43b422); others are S008 info."""

_DONE_OF = {
    "response.output_text.delta": "response.output_text.done",
    "response.output_audio_transcript.delta": "response.output_audio_transcript.done",
    "response.text.delta": "response.text.done",
    "response.audio_transcript.delta": "response.audio_transcript.done",
}
"""Text deltas and the ``.done`` event carrying their part's whole text (``text`` or ``transcript``)."""
AUDIO_DELTAS = frozenset({"response.output_audio.delta", "response.audio.delta"})
_PLACEHOLDER = re.compile(r"^<audio: (\d+) bytes>$")
"""How ``inspector.capture.websocket`` leaves an audio payload it did not keep."""


class OpenAIRealtime(OpenAIResponses):
    """Realtime events -> one block per output item; the Responses rules, Realtime's names (module docstring)."""

    name = "openai-realtime"
    accepts_done = False
    url_hints = URL_HINTS
    known_events = RESPONSE_EVENTS
    text_deltas = frozenset(_DONE_OF)
    done_of = _DONE_OF
    text_done = frozenset(_DONE_OF.values())
    part_types = frozenset({"text", "audio", "output_text", "output_audio"})

    @classmethod
    def sniff(cls, ev: "EventRecord") -> bool:
        return sniff(ev)

    def on_event(self, ev: "EventRecord") -> None:
        p = ev.payload
        typ = p.get("type") if isinstance(p, dict) else None
        if isinstance(typ, str) and typ.startswith(SESSION_PREFIXES):
            return
        if typ in AUDIO_DELTAS and isinstance(p, dict):
            self._audio(p)
            return
        super().on_event(ev)

    def next_response(self, ev: "EventRecord") -> bool:
        return False  # the reader gives each response its own session: nothing after response.done starts one

    def _audio(self, p: dict) -> None:
        """Count an audio delta's bytes on its item's block (R001 when no item was announced)."""
        if self.terminal is not None:
            self.w.after_end(f"event {p.get('type')!r} after the terminal event {self.terminal!r}")
            return
        item = self._resolve(p, p.get("type"))
        if item is None:
            return
        self.w.note_event_block(item.block)
        delta = p.get("delta")
        size = 0
        if isinstance(delta, str):
            m = _PLACEHOLDER.match(delta)
            size = (digits_int(m.group(1)) or 0) if m else len(delta) * 3 // 4 - len(delta) + len(delta.rstrip("="))
        self.w.note(item.block, "audio_bytes", int(item.block.extra.get("audio_bytes", 0)) + size)
