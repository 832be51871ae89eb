"""Exchanges mitmproxy saw, fed into the proxy's pipeline (``stream-inspector mitmproxy-sink``).

The mitmproxy addon (``inspector.integrations.mitm_addon``, run inside mitmproxy's Python) writes
one JSON object per line for each streamed response: ``begin`` (``id``, ``method``, ``url``,
``headers`` as ``[name, value]`` pairs, ``body`` base64, ``wall`` Unix seconds of the request),
``head`` (``status``, ``headers``), ``chunk`` (``t`` seconds since the request, ``data`` base64,
as received: still content-encoded), ``end`` (``t``, ``kind`` ``eof``/``reset``, ``error``). Here
each becomes an ``Exchange`` of an ``ExchangeLog``, its body going through the proxy's ``Tee``
(decoding, ``--record`` native recording, inspection), so the reports, findings, recordings and
spans are the proxy's own. A line that is not such a record is counted and skipped, never fatal.
"""
from __future__ import annotations

import base64
import binascii
import sys
import time
from pathlib import Path

import orjson

from inspector.capture.clock import seconds
from inspector.capture.recorder import redact_request, redact_response
from inspector.capture.redact import redact_url, remember_headers
from inspector.feeds.exchanges.log import ExchangeLog
from inspector.feeds.exchanges.record import Exchange
from inspector.model.capture import END_KINDS, Chunk, End
from inspector.model.jsondepth import loads as json_loads
from inspector.net.proxy.headers import headers_dict
from inspector.net.proxy.tap import Tee, first_free_number, open_recording, safe_name


class _Direct:
    """The sink interface ``Tee`` writes to, calling the log at once (this process only inspects)."""

    def __init__(self, log: ExchangeLog) -> None:
        self.log = log

    def begin(self, ex: Exchange) -> None:
        self.log.begin(ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        self.log.head(n, status, headers)

    def note(self, n: int, text: str) -> None:
        self.log.note(n, text)

    def chunk(self, n: int, chunk: Chunk) -> None:
        self.log.chunk(n, chunk)

    def chunks(self, n: int, items: list[tuple[float, bytes]]) -> None:
        for t, data in items:
            if data:
                self.log.chunk(n, Chunk(t, data))

    def finish(self, n: int, end: End) -> None:
        self.log.finish(n, end)


class MitmFeed:
    """Reads the addon's records (module docstring) into ``log``; ``record_dir``: ``--record``."""

    def __init__(self, log: ExchangeLog, record_dir: str | None = None) -> None:
        self.sink = _Direct(log)
        self.record_dir = Path(record_dir) if record_dir else None
        self.next_n = first_free_number(record_dir)
        self.open: dict[str, tuple[int, Tee | None, dict]] = {}
        self.skipped = 0
        """Lines that were no record of the protocol."""

    def take(self, line: bytes) -> None:
        """One line of the addon's output."""
        try:
            rec = orjson.loads(line)
            getattr(self, f"_{rec['ev']}")(rec)
        except (orjson.JSONDecodeError, KeyError, TypeError, AttributeError, binascii.Error, ValueError):
            self.skipped += 1

    def close(self) -> None:
        """The addon went away: every exchange still open ends as ``cancelled``."""
        for fid in list(self.open):
            self._end({"id": fid, "t": None, "kind": "cancelled", "error": "mitmproxy stopped"})

    def _begin(self, rec: dict) -> None:
        n, self.next_n = self.next_n, self.next_n + 1
        pairs = [(str(k), str(v)) for k, v in rec["headers"]]
        remember_headers(pairs)
        raw = base64.b64decode(rec.get("body") or "")
        try:
            parsed = json_loads(raw) if raw else None  # bounded depth (S019): redaction walks it
        except orjson.JSONDecodeError:
            parsed = None
        url, method = str(rec["url"]), str(rec["method"])
        request = redact_request({"method": method, "url": url, "headers": headers_dict(pairs),
                                  "body": parsed if parsed is not None else (raw.decode("utf-8", "replace") or None)})
        path = url.split("://", 1)[-1].partition("/")[2].partition("?")[0]
        record_path = str(self.record_dir / f"{n:03d}-{safe_name(method, '/' + path)}.jsonl") if self.record_dir else None
        ex = Exchange(n=n, method=method, path="/" + path, target=redact_url("/" + path), url=redact_url(url),
                      request=request, body=parsed, started_wall=_wall(rec.get("wall")),
                      t0=time.monotonic(), record_path=record_path, request_bytes=len(raw))
        self.sink.begin(ex)
        self.open[rec["id"]] = (n, None, request)

    def _head(self, rec: dict) -> None:
        n, _, request = self.open[rec["id"]]
        pairs = [(str(k), str(v)) for k, v in rec["headers"]]
        response = redact_response({"status": int(rec["status"]), "headers": headers_dict(pairs)})
        encoding = next((v for k, v in pairs if k.lower() == "content-encoding"), "")
        ex = self.sink.log.by_n[n]
        tee = Tee(n, self.sink, encoding, open_recording(ex.record_path, request, response))
        self.sink.head(n, int(rec["status"]), response["headers"])
        self.open[rec["id"]] = (n, tee, request)

    def _chunk(self, rec: dict) -> None:
        _, tee, _ = self.open[rec["id"]]
        if tee is None:  # a body record before its head: the addon writes the head first
            return
        t = float(rec["t"])
        tee.inspect(t, tee.record(t, base64.b64decode(rec["data"])))

    def _end(self, rec: dict) -> None:
        n, tee, _ = self.open.pop(rec["id"])
        t, kind, error = rec.get("t"), rec.get("kind") or "eof", rec.get("error")
        # Read as a capture's end record is read: a time that is no number is unknown, a kind
        # outside END_KINDS a reset, an error that is no text kept as its text.
        end = End(seconds(t) if isinstance(t, (int, float)) and not isinstance(t, bool) else None,
                  kind if kind in END_KINDS else "reset", None if error is None else str(error))
        if tee is None:
            self.sink.finish(n, end)
            return
        if end.kind == "eof":
            tee.complete(end.t)
        tee.close(end)


MAX_WALL = 1e11
"""Unix seconds beyond which a sent wall-clock time is taken as wrong (year 5138: ``time.localtime``
and OTLP's nanoseconds still hold it)."""


def _wall(value: object) -> float:
    """The addon's wall-clock time of a request, or now when it is no number or cannot be true."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        wall = seconds(value)
        if 0 < wall < MAX_WALL:
            return wall
    return time.time()


def run_sink(log: ExchangeLog, record_dir: str | None, stream=None) -> int:
    """Feed ``stream`` (default standard input, binary) to ``log`` until it ends; returns the number
    of lines skipped."""
    feed = MitmFeed(log, record_dir)
    for line in stream if stream is not None else sys.stdin.buffer:
        if line.strip():
            feed.take(line)
    feed.close()
    return feed.skipped
