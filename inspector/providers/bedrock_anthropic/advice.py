"""What to do about this provider's findings (shown in the TUI's explain screen): the events inside
the chunks are Anthropic's, so the Anthropic advice and explanations apply (registered once, by
the ``anthropic`` folder)."""
from __future__ import annotations

from inspector.providers.anthropic.advice import ADVICE as ANTHROPIC

ADVICE: dict[str, str] = dict(ANTHROPIC)
