"""Report formatting: one report per exchange, ``--format json`` (one line) or ``text``.

A report is the ``check`` report of the exchange's session plus what only the proxy knows
(exchange number, method, status, upstream URL, whether it was streamed, which exchange it
continues, the body of an answer that was not linted, a decoding note, the capture file).

Imports: ``exchange``; ``inspector.report``; ``model.writes.write_whole`` (each report whole,
whatever interrupts the write). Never the endpoint, the log or the TUI.
"""
from __future__ import annotations

import orjson

from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import end_word, normal_end
from inspector.report import text
from inspector.model.writes import write_whole
from inspector.report.json import report_dict
from inspector.model.display import display_text, json_safe

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class Reports:
    """Listener printing (or collecting) one report per exchange when it ends.

    ``fmt``: ``"json"`` or ``"text"``; ``out``: a text stream (None: print nothing); ``collect``:
    keep each JSON report in ``collected``. ``worst`` is the exit status so far: ``EXIT_FINDINGS``
    once any exchange had an error finding, else ``EXIT_OK``.
    """

    def __init__(self, fmt: str = "json", out=None, collect: bool = False) -> None:
        self.fmt = fmt
        self.out = out
        self.collected: list[dict] = []
        self.collect = collect
        self.worst = EXIT_OK

    def __call__(self, event: str, ex: Exchange) -> None:
        if event != "end" or (self.out is None and not self.collect):
            return
        d = report_for(ex)
        if any(f["severity"] == "error" for f in d["findings"]):
            self.worst = EXIT_FINDINGS
        if self.collect:
            self.collected.append(d)
        if self.out is None:
            return
        if self.fmt == "json":
            write_whole(self.out, json_safe(orjson.dumps(d).decode()) + "\n")
        else:
            write_whole(self.out, display_text(text_for(ex)) + "\n\n")


class EndLines:
    """Listener: one line (``METHOD /path -> status, end kind (error), N bytes forwarded``) per
    relayed exchange whose body ended abnormally, or per every one with ``clean=True``.

    Judged once the exchange is inspected, so a client that hangs up after the end marker
    (``[DONE]``, ``message_stop``: what the SDKs do) is a normal end and prints nothing.
    """

    def __init__(self, out, clean: bool = False) -> None:
        self.out = out
        self.clean = clean

    def __call__(self, event: str, ex: Exchange) -> None:
        if event != "end" or ex.status is None or ex.end is None:
            return
        after_marker = ex.session is not None and ex.session.ended
        if not self.clean and normal_end(ex.end, after_marker):
            return
        word = end_word(ex.end, after_marker)
        error = f" ({ex.end.error})" if ex.end.error and word == ex.end.kind else ""
        self.out(f"{ex.method} {ex.path} -> {ex.status}, {word}{error}, {ex.bytes_received} bytes forwarded")


def report_for(ex: Exchange) -> dict:
    """The ``check --format json`` object for ``ex`` plus ``exchange``, ``method``, ``status``, … (one JSON line)."""
    d = report_dict(ex.target, ex.held_session)
    if not ex.linted:
        d["duration_s"] = ex.duration_s
        d["ttfb_s"] = ex.first_byte_t
    d.update({"exchange": ex.n, "method": ex.method, "path": ex.target, "status": ex.status,
              "url": ex.url, "content_type": ex.content_type or None, "streamed": ex.linted,
              "continues": ex.continues})
    if not ex.linted and ex.status is not None:
        d["body"] = ex.body_text[:2000]
    if ex.note:
        d["note"] = ex.note
    if ex.record_path:
        d["record"] = ex.record_path
    return d


def text_for(ex: Exchange) -> str:
    """Linter text for one exchange: a heading line, then ``check --format text``."""
    status = ex.status if ex.status is not None else "no response"
    dur = f", {ex.duration_s:.3f} s" if ex.duration_s is not None else ""
    head = f"#{ex.n} {ex.method} {ex.target} -> {status} {ex.content_type or ''}".rstrip() + dur
    if ex.continues is not None:
        head += f" (continues #{ex.continues})"
    lines = [head]
    if ex.note:
        lines.append(f"  note: {ex.note}")
    if ex.linted:
        lines.append(text.render(f"#{ex.n} {ex.target}", ex.held_session))
    else:
        lines.append(f"  not a stream; body: {ex.body_text[:500]!r}")
        for f in ex.held_session.findings:
            lines.append(f"  {f.code} {f.name} ({f.severity}) {f.message}")
    return "\n".join(lines)
