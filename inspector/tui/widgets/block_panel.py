"""One panel per content block: what the block is, how far its JSON got, and how its bytes arrived.

Why this module exists: the question a person asks of a broken stream is "what happened to *this*
tool call": its identity (index · kind · id · name), its status (empty / partial / complete /
invalid at offset N / trailing data), the assembled text with the newest fragment lit, its
timing (first/last delta, max gap, a sparkline of bytes over time and one of inter-delta
gaps), its stop info and the findings about it. The panel reads the ``Block`` owned by the
session once per frame and skips all work when the block did not change.
"""
from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Label, Sparkline

from inspector.tui.series import BlockSeries
from inspector.tui.view_state import status_label
from inspector.tui.widgets.schema_view import schema_content
from inspector.tui.widgets.argument_view import ArgumentView
from inspector.tui.widgets.text_line import PartsLine, SplitLine, TextLine
from inspector.tui.text import assemble, shown
from inspector.tui.themes import SEVERITY_STYLE
from inspector.model.severity import MARKS

SPARK_INTERVAL_S = 0.25
"""Sparklines are redrawn at most this often while a block streams (they are costly to render)."""


def bytes_scale(bars, bucket: float, timed: bool) -> str:
    """The bytes sparkline's scale: its tallest bar, in bytes per bar (``bucket`` seconds when
    ``timed``, else ``bucket`` deltas): ``max 312 B/50 ms``, ``max 80 B/delta``."""
    peak = max(bars, default=0)
    if not timed:
        per = "delta" if bucket == 1 else f"{bucket:g} deltas"
    else:
        per = f"{bucket * 1000:.0f} ms" if bucket < 1 else f"{bucket:g} s"
    return f"max {peak:,.0f} B/{per}"


def fmt_s(t: float | None) -> str:
    """Seconds for display: ``3.912 s``, ``—`` when unknown."""
    return "—" if t is None else f"{t:.3f} s"


BADGE_STYLE = {
    "-status-text": "$text-muted",
    "-status-empty": "bold $foreground on $panel-lighten-1",
    "-status-partial": "bold $background on $warning",
    "-status-complete": "bold $background on $success",
    "-status-invalid": "bold $background on $error",
}
STATE_STYLE = {"open": "$success", "closed": "$text-muted", "replaced": "$warning"}


class BlockPanel(Vertical):
    """The detail of one ``Block`` (the one highlighted in the blocks list); rebound, never rebuilt,
    when another block is highlighted. Its arguments (``ArgumentView``) take the focus and scroll."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="block-panel")
        self.block = None
        self.findings: list = []
        """Findings about this block (code, severity), newest last."""
        self.series = BlockSeries()
        self._sig: tuple | None = None
        self._findings_sig = 0
        self._spark_at = 0.0
        self.declared = None
        """The declared tool this call names (``DeclaredTool``), or None."""
        self.violations: tuple = ()
        """Its V002 violations (``Violation``: path, keyword, message)."""
        self.show_schema = False

    def compose(self) -> ComposeResult:
        # What a short pane clips comes last (a 1fr view gets its least height first).
        yield SplitLine(classes="block-head")
        yield PartsLine(classes="block-stats")
        yield Label("", classes="block-findings")
        yield ArgumentView(classes="block-text")
        yield Label("", classes="block-schema")
        yield TextLine("", classes="block-stop")
        with Horizontal(classes="block-sparks"):
            # Fixed-width lines: a new block's numbers repaint them, never the screen's layout.
            yield TextLine("bytes/time", classes="spark-label")
            yield Sparkline([], classes="spark-bytes")
            yield TextLine("", classes="spark-scale")
            yield TextLine("gaps", classes="spark-label -gaps")
            yield Sparkline([], classes="spark-gaps")
            yield TextLine("", classes="spark-scale -gaps")

    # ------------------------------------------------------------ feeding
    def bind(self, block) -> None:
        """Show ``block`` (a new one after a rebuild resets the series)."""
        if block is not self.block:
            self.block = block
            self.series.reset()
            self.series.t0 = block.opened_t
            self.findings = []
            self._findings_sig = -1
            self._sig = None

    def bind_declared(self, tool, violations, show: bool) -> None:
        """What the request declared for this call and how its arguments break it (shown with ``d``)."""
        self.declared, self.violations, self.show_schema = tool, tuple(violations), show

    def add_finding(self, finding) -> None:
        self.findings.append(finding)

    def sync(self, pretty: bool, throttle: bool = False) -> None:
        """Update from the block; does nothing when the block did not change since the last frame.

        ``throttle``: the stream is moving, so sparklines are redrawn at most every ``SPARK_INTERVAL_S``.
        """
        b = self.block
        if b is None:
            return
        prog = b.progress
        sig = (b.deltas, b.length, prog.state if prog else None,
               b.closed, b.replaced, b.stop_info, b.id, b.name, pretty,
               self.show_schema, self.declared is not None, len(self.violations))
        if sig == self._sig and self._findings_sig == len(self.findings):
            return
        first = self._sig is None
        self._sig = sig
        where = f"#{b.index}" if b.index is not None else "#?"
        if b.choice is not None:
            where = f"choice {b.choice} · {where}"
        # The tool name first and the id last: a narrow panel cuts the title from the right.
        parts = [b.name] if b.name else []
        parts += [where, b.kind]
        if b.id:
            parts.append(b.id)
        title = " · ".join(parts)
        if b.attribution:
            title += f"  (keyed {b.attribution})"
        state = "replaced" if b.replaced else ("closed" if b.closed else "open")
        text, cls = status_label(b)
        self.badge = text
        """The status badge text (tests read it)."""
        self.query_one(".block-head", SplitLine).set_parts(
            assemble((title, "bold")),
            assemble((state, STATE_STYLE[state]), ("  ", ""), (f" {text} ", BADGE_STYLE[cls])))
        self.set_class(cls == "-status-invalid", "-invalid")
        schema = self.query_one(".block-schema", Label)
        wanted = bool(self.show_schema and b.tool)
        if wanted:
            schema.update(schema_content(b.name, self.declared, self.violations, b.closed and b.status == "complete"))
        if schema.display != wanted:
            schema.display = wanted
        self.query_one(ArgumentView).show(b, pretty, self.violations)
        if self._findings_sig != len(self.findings):
            self._findings_sig = len(self.findings)
            fl = self.query_one(".block-findings", Label)
            if self.findings:
                pieces: list = []
                for f in self.findings[-6:]:
                    if pieces:
                        pieces.append(("  ", ""))
                    pieces.append((f"{MARKS[f.severity]} {f.code} {f.name}", SEVERITY_STYLE[f.severity]))
                if len(self.findings) > 6:
                    pieces.insert(0, (f"+{len(self.findings) - 6} more  ", "$text-muted"))
                fl.update(assemble(*pieces))
                fl.display = True
            else:
                fl.display = False
        chars = len(b.content)
        # Most telling first: a narrow pane leaves out whole parts from the end.
        stats = [f"Δ {b.deltas:,}", f"max gap {fmt_s(b.max_gap_s)}", f"first {fmt_s(b.first_delta_s)}",
                 f"last {fmt_s(b.last_delta_s)}", f"{chars:,} chars"]
        self.query_one(".block-stats", PartsLine).set_parts([shown(p) for p in stats])
        stop = [f"stop: {b.stop_info}"] if b.stop_info else []
        extra = {k: v for k, v in b.extra.items() if not k.startswith("_")}
        for k, v in list(extra.items())[:3]:
            v = str(v)
            stop.append(f"{k}: {v[:32]}{'…' if len(v) > 32 else ''}")
        stop_line = self.query_one(".block-stop", TextLine)
        stop_line.set(shown("  ·  ".join(stop)))
        if stop_line.display != bool(stop):
            stop_line.display = bool(stop)
        if self.series.t0 is None and b.opened_t is not None:
            self.series.t0 = b.opened_t
        now = time.monotonic()
        if not throttle or now - self._spark_at >= SPARK_INTERVAL_S or b.closed or first:
            self._spark_at = now
            self._sync_sparks(b)

    def _sync_sparks(self, b) -> None:
        sparks = self.query_one(".block-sparks")
        labels = list(sparks.query(".spark-label").results(TextLine))
        scales = list(sparks.query(".spark-scale").results(TextLine))
        if len(labels) < 2 or len(scales) < 2:
            return  # its children are not composed yet: a later frame fills them
        if self.series.update(b.fragment_times):
            bars, gaps = self.series.bytes_bars, self.series.gap_bars
            sparks.display = len(bars) > 1 or len(gaps) > 1
            untimed = self.series.timed is False
            labels[0].set("bytes/delta" if untimed else "bytes/time")
            labels[1].display = scales[1].display = not untimed
            scales[0].set(shown(bytes_scale(bars, self.series.bucket_s, not untimed)))
            scales[1].set(shown(f"max {fmt_s(max(gaps))}" if gaps else ""))
            self.query_one(".spark-gaps", Sparkline).display = not untimed
            self.query_one(".spark-bytes", Sparkline).data = list(bars) if len(bars) > 1 else [0.0, 0.0]
            self.query_one(".spark-gaps", Sparkline).data = list(gaps) if len(gaps) > 1 else [0.0, 0.0]
