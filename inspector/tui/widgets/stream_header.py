"""The header line: which stream this is and how it is going, at a glance.

Why this module exists: dialect, model, stop_reason, elapsed stream time, the time to the first
byte and to the first content (TTFB, TTFC: request-timed captures only) and the finding counts by
severity answer "is this stream OK?" before any panel is read. One line of styled text,
repainted (never re-laid out) only when one of those values changes; the app hands it a
``HeaderState`` each frame (``inspector.tui.frame``). When the line is wider than
the terminal (80 columns), what matters most stays: the counts, the model, the stop reason and
the state, then TTFB / TTFC; the file name is shortened and the dialect and elapsed time go first.
"""
from __future__ import annotations


from inspector.tui.frame import HeaderState
from inspector.tui.widgets.text_line import TextLine
from inspector.tui.text import Content, assemble, shown
from inspector.tui.themes import SEVERITY_STYLE
from inspector.model.severity import MARKS, WORST_FIRST

SEP = ("  ·  ", "$text-muted")
TIGHT = (" · ", "$text-muted")


class StreamHeader(TextLine):
    """``capture.jsonl  ✖ 2 ▲ 1 ● 0  ·  anthropic-messages · claude-… · stop tool_use · t 3.9 s · ended``.

    ``content`` is the full line; a narrow terminal shows :meth:`compact` instead."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._sig: HeaderState | None = None
        self._compact = shown("")
        self._compact_timed = self._compact
        self._label = ""

    def receive(self, state: HeaderState) -> None:
        """Draw ``state`` (``inspector.tui.frame``); an error ``http_status`` is shown instead of
        the dialect and the stop reason, which such a response does not have; unknown TTFB / TTFC
        (a capture without request time) are not shown. Repaints only when a shown value changed."""
        label, dialect, model, stop_reason, elapsed, counts_, state_word, http_status, ttfb, ttfc = state
        sig = state._replace(elapsed=None if elapsed is None else round(elapsed, 1))
        if sig == self._sig:
            return
        self._sig = sig
        counts = dict(counts_)
        parts: list = [(label, "bold $primary"), ("  ", "")]
        tight: list = []
        for sev, mark, style in ((s, MARKS[s], SEVERITY_STYLE[s]) for s in WORST_FIRST):
            n = counts.get(sev, 0)
            parts.append((f" {mark} {n} ", f"bold {style}" if n else "$text-muted"))
            tight.append((f"{mark}{n} ", f"bold {style}" if n else "$text-muted"))
        if http_status is not None:
            parts += [SEP, (f"HTTP {http_status}", "bold $error")]
            stop = [("no stream", "$text-muted")]
        else:
            parts += [SEP, (dialect or "detecting…", "$secondary" if dialect else "$text-muted")]
            stop = [("stop ", "$text-muted"), (stop_reason or "—", "bold" if stop_reason else "$text-muted")]
        if model:
            parts += [SEP, (model, "")]
            tight += [TIGHT, (model, "")]
        parts += [SEP, *stop]
        if http_status is not None:
            tight += [TIGHT, (f"HTTP {http_status}", "bold $error")]
        tight += [TIGHT, *stop]
        if elapsed is not None:
            parts += [("  ·  t ", "$text-muted"), (f"{elapsed:.1f} s", "")]
        timing: list = []
        for name, value in (("TTFB", ttfb), ("TTFC", ttfc)):
            if value is not None:
                timing += [TIGHT if timing else ("", ""), (f"{name} ", "$text-muted"), (f"{value:.2f} s", "")]
        if timing:
            parts += [SEP, *timing]
        parts += [SEP, (state_word, "$text-muted")]
        tight += [TIGHT, (state_word, "$text-muted")]
        self._label = label
        self._compact = assemble(*tight)
        self._compact_timed = assemble(*tight[:-2], TIGHT, *timing, *tight[-2:]) if timing else self._compact
        self.set(assemble(*parts))

    def compact(self, width: int) -> Content:
        """The line in ``width`` cells: counts, model, stop reason and state, after as much of the
        file name as fits (the model is shortened only when nothing else is left to give)."""
        rest = self._compact_timed
        if width - rest.cell_length < 8:  # the times go before the file name does
            rest = self._compact
        room = width - rest.cell_length
        if room >= 8:
            name = shown(self._label, "bold $primary")
            if name.cell_length > room - 1:
                name = name.truncate(room - 1, ellipsis=True)
            return assemble(name, " ", rest)
        return rest.truncate(max(0, width), ellipsis=True)

    def render(self) -> Content:
        width = self.size.width
        if width and self._content.cell_length > width:
            return self.compact(width)
        return self._content
