"""How a ConverseStream answer ends, in the diff's terms (no non-streamed reader or conformance tools yet).

Imports: nothing.
"""
from __future__ import annotations

STOP_CLASSES = {"end_turn": "end", "stop_sequence": "end", "tool_use": "tool", "max_tokens": "length",
                "model_context_window_exceeded": "length", "guardrail_intervened": "refusal",
                "content_filtered": "refusal", "malformed_model_output": "error", "malformed_tool_use": "error"}
"""Bedrock ConverseStream ``stopReason`` (PROTOCOLS.md, Bedrock) → class."""


def stop_class(reason: str | None) -> str | None:
    return STOP_CLASSES.get(reason or "")
