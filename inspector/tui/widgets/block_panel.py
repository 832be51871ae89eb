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
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Label, Sparkline

from inspector.model.jsonprogress import INVALID, TRAILING
from inspector.tui.series import BlockSeries
from inspector.tui.widgets.schema_view import schema_content
from inspector.tui.widgets.argument_view import ArgumentView
from inspector.tui.widgets.text_line import SplitLine, TextLine
from inspector.tui.text import assemble, shown
from inspector.tui.themes import SEVERITY_STYLE
from inspector.model.severity import MARKS

SPARK_INTERVAL_S = 0.25
"""Sparklines are redrawn at most this often while a block streams (they are costly to render)."""


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


def status_label(block) -> tuple[str, str]:
    """The badge text and its state class for a block."""
    prog = block.progress
    if not block.tool or prog is None:
        return f"{block.kind} · {len(block.content):,} chars", "-status-text"
    if prog.state == INVALID:
        return f"invalid at {prog.error_offset}", "-status-invalid"
    if prog.state == TRAILING:
        return f"trailing data at {prog.trailing_offset}", "-status-invalid"
    status = block.status or "empty"
    if status == "complete" and not prog.length:
        # Anthropic: no input text means {} - but only once the block is closed.
        return ("complete {}", "-status-complete") if block.closed else ("empty", "-status-empty")
    return status, f"-status-{status}"


class BlockPanel(Vertical, can_focus=True):
    """Panel for one ``Block`` (collapsible with enter / ``c`` when focused)."""

    BINDINGS = [
        Binding("c,enter", "toggle_collapse", "Collapse", tooltip="Collapse or expand this block"),
    ]

    class Toggled(Message):
        """The panel was collapsed or expanded."""

    def __init__(self, position: int) -> None:
        super().__init__(classes="block-panel")
        self.position = position
        """Position of the block in ``session.blocks`` (panels are reused across rebuilds)."""
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
        yield SplitLine(classes="block-head")
        yield ArgumentView(classes="block-text")
        yield Label("", classes="block-schema")
        yield Label("", classes="block-findings")
        yield TextLine("", classes="block-stats")
        yield TextLine("", classes="block-stop")
        with Horizontal(classes="block-sparks"):
            yield Label("bytes/time", classes="spark-label")
            yield Sparkline([], classes="spark-bytes")
            yield Label("gaps", classes="spark-label")
            yield Sparkline([], classes="spark-gaps")

    @property
    def collapsed(self) -> bool:
        return self.has_class("-collapsed")

    def action_toggle_collapse(self) -> None:
        self.set_collapsed(not self.collapsed)

    def set_collapsed(self, collapsed: bool) -> None:
        self.set_class(collapsed, "-collapsed")
        self._sig = None
        self.post_message(self.Toggled())

    def on_click(self, event) -> None:
        if event.widget is not None and event.widget.has_class("block-head"):
            self.action_toggle_collapse()

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
               b.closed, b.replaced, b.stop_info, b.id, b.name, pretty, self.collapsed,
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
        arrow = "▸ " if self.collapsed else "▾ "
        state = "replaced" if b.replaced else ("closed" if b.closed else "open")
        text, cls = status_label(b)
        self.badge = text
        """The status badge text (tests read it)."""
        self.query_one(".block-head", SplitLine).set_parts(
            assemble((arrow + title, "bold")),
            assemble((state, STATE_STYLE[state]), ("  ", ""), (f" {text} ", BADGE_STYLE[cls])))
        self.set_class(cls == "-status-invalid", "-invalid")
        schema = self.query_one(".block-schema", Label)
        wanted = self.show_schema and b.tool and not self.collapsed
        if wanted:
            schema.update(schema_content(b.name, self.declared, self.violations, b.closed and b.status == "complete"))
        if schema.display != wanted:
            schema.display = wanted
        if self.collapsed and not first:
            return
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
        stats = [f"Δ {b.deltas:,}", f"first {fmt_s(b.first_delta_s)}", f"last {fmt_s(b.last_delta_s)}",
                 f"max gap {fmt_s(b.max_gap_s)}", f"{chars:,} chars"]
        self.query_one(".block-stats", TextLine).set(shown("  ·  ".join(stats)))
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
        labels = list(sparks.query(".spark-label"))
        if len(labels) < 2:
            return  # its children are not composed yet: a later frame fills them
        if self.series.update(b.fragment_times):
            bars, gaps = self.series.bytes_bars, self.series.gap_bars
            sparks.display = len(bars) > 1 or len(gaps) > 1
            untimed = self.series.timed is False
            labels[0].update("bytes/delta" if untimed else "bytes/time")
            labels[1].display = not untimed
            self.query_one(".spark-gaps", Sparkline).display = not untimed
            self.query_one(".spark-bytes", Sparkline).data = list(bars) if len(bars) > 1 else [0.0, 0.0]
            self.query_one(".spark-gaps", Sparkline).data = list(gaps) if len(gaps) > 1 else [0.0, 0.0]
