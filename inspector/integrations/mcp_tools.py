"""What ``stream-inspector mcp`` answers, as plain functions over a recording folder (testable without
the MCP SDK; ``mcp_server`` registers them as tools).

Every answer is text in the stream's terms, safe to show: findings as ``J002 args-incomplete-at-close
(error) at event 4, index 0: closed while the arguments are an incomplete JSON prefix (…): do not
execute``, blocks by index and kind, secrets masked and control characters escaped
(``inspector.report.text.safe``). Errors are one line, returned as the answer (a tool never raises
for bad input). The folder is read afresh on each call, so a ``proxy --record DIR`` that is running
shows its new exchanges at once.
"""
from __future__ import annotations

import os
from pathlib import Path

from inspector.capture.errors import CaptureError
from inspector.capture.load import load_all
from inspector.compare.diff import DiffInputError, diff_captures as diff_files, render_text as diff_text
from inspector.feeds.run import not_a_stream, run_capture
from inspector.model.catalog import RULES
from inspector.report.text import counts_text, finding_sentence, render, safe
from inspector.session.advice import advice_for, rule_text
from inspector.session.session import Session

TEXT_LIMIT = 2000
"""Characters of a block's text or arguments shown by ``get_exchange`` (the rest is counted)."""
CAPTURE_SUFFIXES = (".jsonl", ".sse", ".ndjson", ".har", ".yaml", ".yml", ".json", ".txt", ".bin")


class Folder:
    """The recording folder the server answers about."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()

    def _path(self, name: str) -> Path:
        """``name`` (relative to the folder, or absolute) as a path; a ``#N`` suffix is kept. Raises
        ``CaptureError`` for a name no file can have (a NUL character in it)."""
        if "\x00" in name:
            raise CaptureError(f"{name!r}: not a file name (it holds a NUL character)")
        p = Path(os.path.expanduser(name))
        return p if p.is_absolute() else self.root / p

    def _recordings(self) -> list[Path]:
        found = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            found += [Path(folder) / f for f in files if f.endswith(CAPTURE_SUFFIXES) and not f.startswith(".")]
        return sorted(found)

    def _name(self, label: str) -> str:
        """A stream's label (``/abs/dir/run.yaml#2``) as the folder names it (``run.yaml#2``)."""
        prefix = str(self.root) + os.sep
        return label[len(prefix):] if label.startswith(prefix) else label

    def list_exchanges(self, only_with_findings: bool = False, limit: int = 50) -> str:
        """One line per recorded stream (newest recordings last): dialect, events, stop reason, counts,
        and its first three findings."""
        lines, shown, total = [], 0, 0
        for path in self._recordings():
            try:
                streams, _ = load_all(path)
            except CaptureError:
                continue
            for label, cap in streams:
                s = run_capture(cap)
                if not_a_stream(s, cap) or (only_with_findings and not s.findings):
                    continue
                total += 1
                if shown < limit:
                    shown += 1
                    lines.append(_summary(self._name(label), s))
        if not lines:
            return f"no recorded stream{' with findings' if only_with_findings else ''} in {self.root}"
        more = f"\n… and {total - shown} more (raise limit)" if total > shown else ""
        return "\n".join(lines) + more

    def get_exchange(self, name: str) -> str:
        """One stream's report: head, each finding with what to do, each block (text or arguments)."""
        loaded = self._load(name)
        if isinstance(loaded, str):
            return loaded
        label, cap = loaded
        s = run_capture(cap)
        req = cap.request or {}
        out = [_summary(label, s)]
        if req:
            model = (req.get("body") or {}).get("model") if isinstance(req.get("body"), dict) else None
            out.append(f"request: {safe(req.get('method') or '?')} {safe(req.get('url') or '?')}"
                       + (f" model {safe(model)}" if model else ""))
        status = (cap.response or {}).get("status")
        if status is not None:
            out.append(f"response status: {status}")
        out.append("findings:" if s.findings else "findings: none")
        for f in s.findings:
            out.append(f"  {finding_sentence(f)}")
            out.append(f"    what to do: {' '.join(advice_for(f.code).split())}")
        out.append("blocks:" if s.blocks else "blocks: none")
        for b in s.blocks:
            head = f"  [{b.index if b.index is not None else '-'}] {safe(b.kind)}"
            head += f" {safe(b.name)}" if b.name else ""
            head += f" id={safe(b.id)}" if b.id else ""
            head += f" status={b.status}" if b.tool else ""
            head += " closed" if b.closed else " OPEN (never closed)"
            content = b.content
            cut = f" … ({len(content) - TEXT_LIMIT} more characters)" if len(content) > TEXT_LIMIT else ""
            out.append(f"{head}: {'arguments' if b.tool else 'text'} {safe(content[:TEXT_LIMIT])}{cut}")
        return "\n".join(out)

    def check_capture(self, path: str) -> str:
        """``check``'s text report for every stream in a capture file (a cassette gives each
        streamed interaction)."""
        try:
            streams, skipped = load_all(self._path(path))
        except CaptureError as e:
            return f"cannot read: {safe(e)}"
        out = []
        for label, cap in streams:
            s = run_capture(cap)
            why = not_a_stream(s, cap)
            out.append(f"{safe(label)}: not a stream capture ({why})" if why else render(label, s))
        if skipped:
            out.append(f"{skipped} recorded exchange{'s' if skipped != 1 else ''} not streamed, skipped")
        return "\n".join(out) or "no stream in this file"

    def diff_captures(self, a: str, b: str) -> str:
        """``diff``'s text: whether two streams of the same answer are equivalent, and how they differ."""
        try:
            return diff_text(diff_files(str(self._path(a)), str(self._path(b))))
        except (DiffInputError, CaptureError) as e:
            return f"cannot compare: {safe(e)}"

    def _load(self, name: str):
        try:
            streams, _ = load_all(self._path(name))
        except CaptureError as e:
            return f"cannot read {safe(name)}: {safe(e)}"
        if len(streams) != 1:
            return (f"{safe(name)} holds {len(streams)} streams; name one: "
                    + ", ".join(safe(self._name(label)) for label, _ in streams))
        return self._name(streams[0][0]), streams[0][1]


def explain_rule(code: str) -> str:
    """A rule in the user's terms: name, severity, when it fires, what happened, what breaks, what to do."""
    rule = RULES.get(code.strip().upper())
    if rule is None:
        return f"no rule {safe(code)} (codes look like J002; list them with `stream-inspector rules`)"
    out = [f"{rule.code} {rule.name} ({rule.severity}, {rule.family}): {rule.explain}"]
    text = rule_text(rule.code)
    if text is not None:
        out += [f"what happened: {text.happened}", f"what breaks: {text.breaks}"]
    out.append(f"what to do: {' '.join(advice_for(rule.code).split())}")
    return "\n".join(out)


def _summary(label: str, s: Session) -> str:
    counts: dict = {}
    for f in s.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    head = f"{safe(label)}: {s.dialect_name or 'unknown'}, {len(s.events)} events"
    head += f", stop_reason {safe(s.stop_reason)}" if s.stop_reason else ", no stop reason"
    head += f"; {counts_text(counts)}"
    firsts = "; ".join(finding_sentence(f) for f in s.findings[:3])
    return head + (f" — {firsts}" if firsts else "") + (f"; and {len(s.findings) - 3} more" if len(s.findings) > 3 else "")
