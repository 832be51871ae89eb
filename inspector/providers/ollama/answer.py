"""Ollama native as the conformance tools read it: the non-streamed request and answer, the turn a
client sends back, stop-reason classes (``inspector.providers.conformance``).

A non-streamed answer is one line's object with ``done: true``: ``{"message": {content,
tool_calls}, "done_reason"}`` (docs/api.md "Generate a chat completion"); history keeps
Chat-shaped messages with object arguments.
"""
from __future__ import annotations

from inspector.providers.conformance import Turn
from inspector.providers.ollama.request import ENDPOINT
from inspector.providers.openai_chat.answer import message_turn, sent_back

STOP_CLASSES = {"stop": "end", "length": "length"}


def stop_class(reason: str | None) -> str | None:
    return STOP_CLASSES.get(reason or "")


def plain(body: dict) -> tuple[dict, str]:
    return {**body, "stream": False}, ENDPOINT.path


__all__ = ["plain", "read", "sent_back", "stop_class"]  # sent_back: history is Chat-shaped (tool messages by tool_name)


def read(answer) -> Turn:
    if not isinstance(answer, dict) or not isinstance(answer.get("message"), dict):
        raise ValueError("not an Ollama chat answer (no message)")
    return message_turn(answer["message"], answer.get("done_reason"))

