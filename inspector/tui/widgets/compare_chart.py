"""The comparison chart: both streams' tool blocks on one shared time axis, with a cursor.

Why this module exists: what ``eager_input_streaming`` changes is *where on the clock* the
argument bytes land. Drawing A and B on the same axis makes the buffered run's long empty
line and late burst sit right above the eager run's steady shading. Rows:

- one per stream: every body byte as it arrived (the wait for the first byte shows as blank);
- per tool pair (``inspector.compare.Pair``): a heading, then for A and for B the block's bar
  (``├`` opened, ``─`` open with no bytes, ``░▒▓█`` argument bytes in that slice of time, darker =
  more, the first argument byte's slice in the success colour, ``┤`` closed) and a line of numbers;
- the time axis.

The cursor (the scrubber's time) is a highlighted column through every row. Drawing reads only
the ``Comparison`` (computed once) and the captures' chunk times: nothing here is rebuilt while
scrubbing except the cursor column.
"""
from __future__ import annotations

from textual.widget import Widget

from inspector.tui.series import bucket_row, styled_runs
from inspector.tui.text import Content, assemble, join, shown

SHADES = " ░▒▓█"
LABEL_W = 22
STATS_INDENT = 7
EAGER_WORDS = {"on": "eager on", "off": "eager off", "default": "eager unset", "mixed": "eager mixed"}


def _shade(v: float, peak: float) -> str:
    if v <= 0 or peak <= 0:
        return ""
    return SHADES[max(1, min(4, int(v / peak * 4 + 0.999)))]


def _f(t: float | None) -> str:
    return "–" if t is None else f"{t:.2f}"


def nice_step(span: float, most: int) -> float:
    """The smallest of 1, 2, 5 × 10^k seconds that cuts ``span`` into at most ``most`` ticks."""
    step = 0.001
    while span / step > most:
        for m in (2, 2.5, 2):
            step *= m
            if span / step <= most:
                break
    return round(step, 6)


def stats_line(t) -> str:
    """The numbers under a tool row (a ``ToolTiming``)."""
    if t.started_s is None and t.first_arg_byte_s is None:
        return " · ".join(["no timing", f"{t.arg_bytes:,} B in {t.deltas} deltas"] + ([" ".join(t.findings)]
                                                                                     if t.findings else []))
    bits = [f"open {_f(t.started_s)}", f"bytes {_f(t.first_arg_byte_s)}–{_f(t.last_arg_byte_s)}",
            f"close {_f(t.closed_s)}", f"{t.arg_bytes:,} B in {t.deltas} deltas", f"longest silence {_f(t.max_gap_s)}"]
    if t.late_share is not None:
        bits.append(f"late {t.late_share:.0%}")
    if t.findings:
        bits.append(" ".join(t.findings))
    return " · ".join(bits)


class CompareChart(Widget):
    """Renders a ``Comparison`` across the widget's width; :meth:`set_cursor` moves the cursor."""

    DEFAULT_CSS = """
    CompareChart {
        height: auto;
        width: 1fr;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    def __init__(self, comparison, stream_times: dict, fragments: dict, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cmp = comparison
        self.stream_times = stream_times
        """``"A"``/``"B"`` -> ``[(t, bytes)]`` per body chunk, on the shared axis."""
        self.fragments = fragments
        """``("A"|"B", tool position)`` -> ``[(t, bytes)]`` per argument fragment, on the shared axis."""
        self.end = comparison.axis_end
        self.cursor: float | None = None
        self.selected = 0

    def set_cursor(self, t: float | None) -> None:
        if t != self.cursor:
            self.cursor = t
            self.refresh()

    def select(self, n: int) -> None:
        if n != self.selected:
            self.selected = n
            self.refresh()

    # ------------------------------------------------------------ geometry
    def _columns(self) -> int:
        return max(10, self.size.width - LABEL_W - 1)

    def column_of(self, t: float, columns: int) -> int:
        return min(columns - 1, max(0, int(t / self.end * columns)))

    def get_content_height(self, container, viewport, width: int) -> int:
        return 2 + 1 + 5 * len(self.cmp.pairs) + 2 + (1 if not self.cmp.pairs else 0)

    # ------------------------------------------------------------ rows
    def _label(self, text: str) -> str:
        text = text if len(text) <= LABEL_W - 1 else text[:LABEL_W - 2] + "…"
        return text.ljust(LABEL_W)

    def _cells(self, cells: list[tuple[str, str]], columns: int) -> list[tuple[str, str]]:
        """Add the cursor's background to its column."""
        if self.cursor is None:
            return cells
        x = self.column_of(self.cursor, columns)
        ch, st = cells[x]
        cells[x] = (ch if ch != " " else "│", f"{st} on $accent 45%".strip() if ch != " " else "$accent")
        return cells

    def _assemble(self, label: str, label_style: str, cells: list[tuple[str, str]]) -> Content:
        return assemble((self._label(label), label_style), *styled_runs(cells))

    @staticmethod
    def _note(text: str, columns: int) -> list[tuple[str, str]]:
        text = text[:columns].ljust(columns)
        return [(c, "$text-muted") for c in text]

    def _stream_row(self, name: str, columns: int) -> Content:
        side = self.cmp.a if name == "A" else self.cmp.b
        eager = EAGER_WORDS.get(side.eager or "", "")
        label = f"{name} stream {eager}".rstrip()
        if not side.timed:
            return self._assemble(label, "bold", self._cells(self._note("(no timing: pasted text?)", columns),
                                                             columns))
        times = self.stream_times[name]
        buckets = bucket_row(times, 0.0, self.end, columns)
        peak = max(buckets) if buckets else 0.0
        end_col = self.column_of(side.duration_s, columns) if side.duration_s is not None else columns - 1
        cells = []
        for x, v in enumerate(buckets):
            ch = _shade(v, peak)
            if ch:
                cells.append((ch, "$secondary"))
            elif x <= end_col:
                cells.append(("·", "$text-muted"))
            else:
                cells.append((" ", ""))
        return self._assemble(label, "bold", self._cells(cells, columns))

    def _tool_row(self, name: str, tool, columns: int) -> Content:
        if tool is None:
            cells = [(" ", "")] * columns
            return self._assemble(f"{name} (no counterpart)", "$text-muted", self._cells(list(cells), columns))
        if tool.started_s is None and tool.first_arg_byte_s is None:
            return self._assemble(f"{name} #{tool.index}", "bold", self._cells(self._note("(no timing)", columns),
                                                                              columns))
        times = self.fragments.get((name, tool.index), [])
        buckets = bucket_row(times, 0.0, self.end, columns)
        peak = max(buckets) if buckets else 0.0
        lo = self.column_of(tool.started_s, columns) if tool.started_s is not None else None
        close = tool.closed_s if tool.closed_s is not None else (
            tool.started_s + tool.stream_s if tool.started_s is not None and tool.stream_s is not None else None)
        hi = self.column_of(close, columns) if close is not None else None
        first = self.column_of(tool.first_arg_byte_s, columns) if tool.first_arg_byte_s is not None else None
        bad = tool.status == "invalid" or (tool.status == "partial" and tool.closed_s is not None)
        cells = []
        for x, v in enumerate(buckets):
            ch = _shade(v, peak)
            if ch:
                st = "$error" if bad else ("bold $success" if x == first else "$primary")
            elif lo is not None and x == lo:
                ch, st = "├", "$text-muted"
            elif hi is not None and x == hi and tool.closed_s is not None:
                ch, st = "┤", "$text-muted"
            elif lo is not None and hi is not None and lo < x < hi:
                ch, st = "─", "$text-muted"
            else:
                ch, st = " ", ""
            cells.append((ch, st))
        style = "bold $warning" if tool.buffered else "bold"
        return self._assemble(f"  {name} #{tool.index}", style, self._cells(cells, columns))

    def _stats(self, tool) -> Content:
        if tool is None:
            return shown("")
        return assemble((" " * STATS_INDENT, ""), (stats_line(tool), "$text-muted"))

    def _axis(self, columns: int) -> list[Content]:
        step = nice_step(self.end, max(2, columns // 10))
        axis = ["─"] * columns
        labels = [" "] * (columns + 12)
        k = 0
        while k * step <= self.end + 1e-9:
            t = k * step
            x = self.column_of(t, columns)
            axis[x] = "┬"
            lab = f"{t:g}s"
            pos = max(0, min(x - len(lab) // 2, columns - len(lab)))
            for i, c in enumerate(lab):
                labels[pos + i] = c
            k += 1
        cells = self._cells([(c, "$text-muted") for c in axis], columns)
        return [self._assemble("time", "bold", cells),
                assemble((" " * LABEL_W, ""), ("".join(labels[:columns]), "$text-muted"))]

    def render(self) -> Content:
        columns = self._columns()
        lines = [self._stream_row("A", columns), self._stream_row("B", columns), shown("")]
        if not self.cmp.pairs:
            lines.append(assemble((" " * LABEL_W, ""), ("no tool blocks in either stream", "$text-muted")))
        for n, p in enumerate(self.cmp.pairs):
            mark = "▸ " if n == self.selected and len(self.cmp.pairs) > 1 else ""
            name = p.name or "(unnamed tool)"
            if p.matched_by == "position":
                name = f"{p.a.name or '(unnamed)'} / {p.b.name or '(unnamed)'} (paired by position)"
            head = f"{mark}{name}"
            lines.append(assemble((head, "bold $primary" if n == self.selected else "bold")))
            lines += [self._tool_row("A", p.a, columns), self._stats(p.a),
                      self._tool_row("B", p.b, columns), self._stats(p.b)]
        lines += self._axis(columns)
        return join("\n", lines)
