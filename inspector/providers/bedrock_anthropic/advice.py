"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

from inspector.providers.anthropic.advice import ADVICE as ANTHROPIC
from inspector.providers.bedrock import FRAMING_ADVICE

ADVICE: dict[str, str] = {**ANTHROPIC, **FRAMING_ADVICE}
"""The Anthropic advice (the events inside the chunks are Anthropic's), plus event-stream framing."""
