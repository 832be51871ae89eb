"""The header line: which stream this is and how it is going, at a glance.

Why this module exists: dialect, model, stop_reason, elapsed stream time and the finding counts
by severity answer "is this stream OK?" before any panel is read. One line of styled text,
repainted (never re-laid out) only when one of those values changes.
"""
from __future__ import annotations

from textual.content import Content

from inspector.tui.widgets.text_line import TextLine


class StreamHeader(TextLine):
    """``capture.jsonl  ✖ 2 ▲ 1 ● 0  ·  anthropic-messages · claude-… · stop tool_use · t 3.9 s · ended``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._sig: tuple | None = None

    def show(self, *, label: str, dialect: str | None, model: str | None, stop_reason: str | None,
             elapsed: float | None, counts: dict[str, int], state: str) -> None:
        sig = (label, dialect, model, stop_reason, None if elapsed is None else round(elapsed, 1),
               tuple(sorted(counts.items())), state)
        if sig == self._sig:
            return
        self._sig = sig
        parts: list = [(label, "bold $primary"), ("  ", "")]
        for sev, mark, style in (("error", "✖", "$error"), ("warning", "▲", "$warning"), ("info", "●", "$primary")):
            n = counts.get(sev, 0)
            parts.append((f" {mark} {n} ", f"bold {style}" if n else "$text-muted"))
        parts.append(("  ·  ", "$text-muted"))
        parts.append((dialect or "detecting…", "$secondary" if dialect else "$text-muted"))
        if model:
            parts += [("  ·  ", "$text-muted"), (model, "")]
        parts += [("  ·  stop ", "$text-muted"), (stop_reason or "—", "bold" if stop_reason else "$text-muted")]
        if elapsed is not None:
            parts += [("  ·  t ", "$text-muted"), (f"{elapsed:.1f} s", "")]
        parts += [("  ·  ", "$text-muted"), (state, "$text-muted")]
        self.set(Content.assemble(*parts))
