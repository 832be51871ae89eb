"""``--otlp``: each inspected exchange sent as an OpenTelemetry span to an OTLP/HTTP collector.

The spans are built by ``inspector.report.spans`` (GenAI semantic conventions, one event per
finding) and sent here with the official OpenTelemetry SDK and its OTLP/HTTP exporter, from the
optional ``otel`` dependency group (``pip install 'stream-inspector[otel]'``): without it,
``--otlp`` is a one-line error and nothing else changes. Where to: the standard variables,
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (used as is) or ``OTEL_EXPORTER_OTLP_ENDPOINT`` (``/v1/traces``
appended), else ``http://localhost:4318/v1/traces``; headers from ``OTEL_EXPORTER_OTLP_HEADERS``
(e.g. ``authorization=Bearer …``), a timeout from ``OTEL_EXPORTER_OTLP_TIMEOUT`` (default here 3 s).

Never in the way: spans are exported from a background thread in batches; a collector that is
down or answers an error gives one warning line (once per run) and the inspection goes on; at the
end ``close`` waits at most a few seconds for what is queued, then gives up with one line.

Sources: ``check`` (one span per file, built in the worker processes), ``proxy`` and ``run``
(:class:`ExchangeSpans`, a listener on the exchange log), ``live`` (:func:`spans_tap` around the
source). Imports: ``inspector.report.spans``, ``inspector.feeds``; OpenTelemetry lazily.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from typing import Callable

from inspector import __version__
from inspector.feeds.base import Driver, Settings
from inspector.report.spans import SpanRecord, span_for

DEFAULT_ENDPOINT = "http://localhost:4318"
DEFAULT_TIMEOUT_S = 3.0
CLOSE_S = 5.0
"""How long ``close`` waits for queued spans before giving up."""
INSTALL_HINT = "pip install 'stream-inspector[otel]' (from a checkout: uv sync --extra otel)"


class OtlpUnavailable(RuntimeError):
    """``--otlp`` cannot work here (the SDK is missing, a bad endpoint); ``str(e)`` is one line."""


def traces_endpoint(environ: dict | None = None) -> str:
    """The URL spans are posted to (module docstring). Raises ``OtlpUnavailable`` for one that is
    not an http(s) URL."""
    env = os.environ if environ is None else environ
    url = env.get("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "").strip()
    if not url:
        base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip() or DEFAULT_ENDPOINT
        url = base.rstrip("/") + "/v1/traces"
    if not url.startswith(("http://", "https://")):
        raise OtlpUnavailable(f"--otlp: the OTLP endpoint must be an http:// or https:// URL (OTLP/HTTP), not {url!r}")
    return url


def _reasons_handler():
    """A logging handler that keeps the OpenTelemetry SDK's log lines off the terminal, remembering
    the last one in ``last`` (the why of a failed export)."""
    # Imported with the SDK, which loads it anyway: a command without --otlp never pays for it.
    import logging

    class Reasons(logging.Handler):
        def __init__(self) -> None:
            super().__init__(logging.DEBUG)
            self.last: str | None = None

        def emit(self, record: logging.LogRecord) -> None:
            try:
                self.last = record.getMessage().splitlines()[0][:300]
            except Exception:  # noqa: BLE001 - a log line that cannot be formatted is no reason to fail
                self.last = record.msg if isinstance(record.msg, str) else None

    return Reasons(), logging.getLogger("opentelemetry")


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class OtlpSender:
    """Sends ``SpanRecord``s; ``close()`` once at the end. Raises ``OtlpUnavailable`` without the SDK.

    ``warn(line)`` is told once when an export fails (default: a line on stderr; a TUI passes a
    notification).
    """

    def __init__(self, endpoint: str | None = None, *, warn: Callable[[str], None] | None = None,
                 timeout: float | None = None) -> None:
        try:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
            from opentelemetry.trace import SpanKind, Status, StatusCode
        except ImportError:
            raise OtlpUnavailable(f"--otlp needs the OpenTelemetry SDK and OTLP exporter: {INSTALL_HINT}") from None
        self.endpoint = endpoint or traces_endpoint()
        self.warn = warn or _stderr
        self.sent = 0
        """Spans handed to the SDK so far."""
        self.failed = False
        self._kind, self._status, self._error = SpanKind.CLIENT, Status, StatusCode.ERROR
        self._reasons, otel_log = _reasons_handler()
        otel_log.addHandler(self._reasons)
        otel_log.propagate = False
        if timeout is None:
            try:
                timeout = float(os.environ.get("OTEL_EXPORTER_OTLP_TIMEOUT", "") or DEFAULT_TIMEOUT_S)
            except ValueError:
                timeout = DEFAULT_TIMEOUT_S
        sender = self

        class Watched(SpanExporter):
            """The OTLP exporter, telling the sender when an export fails."""

            def __init__(self, inner) -> None:
                self.inner = inner

            def export(self, spans):
                try:
                    result = self.inner.export(spans)
                except Exception as e:  # noqa: BLE001 - whatever the exporter raises, the run goes on
                    sender._reasons.last = f"{type(e).__name__}: {e}"
                    result = SpanExportResult.FAILURE
                if result is not SpanExportResult.SUCCESS:
                    sender._failed(len(spans))
                return result

            def shutdown(self):
                self.inner.shutdown()

            def force_flush(self, timeout_millis: int = 30000) -> bool:
                return True

        self._provider = TracerProvider(
            resource=Resource.create({"service.name": "stream-inspector", "service.version": __version__}),
            shutdown_on_exit=False)  # ``close`` bounds the wait; an exit handler would not
        self._processor = BatchSpanProcessor(Watched(OTLPSpanExporter(endpoint=self.endpoint, timeout=timeout)),
                                             schedule_delay_millis=200)
        self._provider.add_span_processor(self._processor)
        self._tracer = self._provider.get_tracer("stream-inspector", __version__)
        self._closed = False

    def _failed(self, n: int) -> None:
        if not self.failed:
            self.failed = True
            why = f" ({self._reasons.last})" if self._reasons.last else ""
            self.warn(f"stream-inspector: warning: OTLP: could not send {n} span{'s' if n != 1 else ''} to "
                      f"{self.endpoint}{why}; the inspection goes on (further failures are not reported)")

    def send(self, rec: SpanRecord) -> None:
        """Queue one span (never blocks on the network; safe from any thread)."""
        if self._closed:
            return
        span = self._tracer.start_span(rec.name, kind=self._kind, attributes=rec.attributes,
                                       start_time=int(rec.start * 1e9))
        for ev in rec.events:
            span.add_event(ev.name, ev.attributes, timestamp=int((rec.start + ev.t) * 1e9))
        if rec.error:
            span.set_status(self._status(self._error, rec.error))
        span.end(end_time=int(rec.end * 1e9))
        self.sent += 1

    def close(self, wait_s: float = CLOSE_S) -> None:
        """Send what is queued, waiting at most ``wait_s`` (not at all after a failed export)."""
        if self._closed:
            return
        self._closed = True
        done = threading.Thread(target=self._provider.shutdown, name="otlp shutdown", daemon=True)
        done.start()
        done.join(0.0 if self.failed else wait_s)
        if done.is_alive() and not self.failed:
            self.warn(f"stream-inspector: warning: OTLP: {self.endpoint} did not take the last spans within "
                      f"{wait_s:g} s; they were dropped")


def open_sender(enabled: bool, *, warn: Callable[[str], None] | None = None) -> OtlpSender | None:
    """The sender for ``--otlp`` (None when not asked for). Raises ``OtlpUnavailable``."""
    return OtlpSender(traces_endpoint(), warn=warn) if enabled else None


class ExchangeSpans:
    """Exchange-log listener (``proxy``, ``run``): one span per exchange when it ends."""

    def __init__(self, sender: OtlpSender) -> None:
        self.sender = sender

    def __call__(self, event: str, ex) -> None:
        if event != "end" or ex.session is None:
            return
        self.sender.send(span_for(ex.session, start=ex.started_wall, status=ex.status,
                                  label=f"exchange #{ex.n} {ex.method} {ex.target}"))


async def spans_tap(source, sender: OtlpSender, settings: Settings, label: str):
    """``source`` (Head, Chunks, End) passed through unchanged while a session of its own is fed;
    when the source ends (or is cancelled), that session's span is sent (``live``)."""
    driver = Driver(settings)
    start = time.time()  # the request goes out when the source is first read
    try:
        async for item in source:
            driver.take(item)
            yield item
    finally:
        if not driver.session.closed:
            driver.cancel(reason="stopped before the stream ended")
        sender.send(span_for(driver.session, start=start, label=label))
