"""``--otlp``: each inspected exchange sent as an OpenTelemetry span to an OTLP/HTTP collector.

The spans are built by ``inspector.report.spans`` (GenAI semantic conventions, one event per
finding) and sent here with the official OpenTelemetry SDK and its OTLP/HTTP exporter, from the
optional ``otel`` dependency group (``pip install 'stream-inspector[otel]'``): without it,
``--otlp`` is a one-line error and nothing else changes. Where to: the standard variables,
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` (used as is) or ``OTEL_EXPORTER_OTLP_ENDPOINT`` (``/v1/traces``
appended), else ``http://localhost:4318/v1/traces``; headers from ``OTEL_EXPORTER_OTLP_HEADERS``
(e.g. ``authorization=Bearer …``), a timeout from ``OTEL_EXPORTER_OTLP_TIMEOUT`` (default here 3 s).

Each span is the child of the agent's span when the request carried a W3C ``traceparent``
(``SpanRecord.parent``; the parent's sampled flag is obeyed, as the SDK's default sampler does).
Metrics go beside the spans through the OpenTelemetry metrics API, to ``/v1/metrics`` (or
``OTEL_EXPORTER_OTLP_METRICS_ENDPOINT``): ``stream_inspector.findings`` (a counter by ``code``,
``severity`` and provider), ``stream_inspector.stalls`` (T001 stalls by provider),
``stream_inspector.time_to_first_content`` (seconds from the request to the first content, a
histogram) and the semconv ``gen_ai.client.operation.duration``; exported when the run closes and
every 10 s meanwhile.

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


def _endpoint(environ: dict | None, signal: str) -> str:
    env = os.environ if environ is None else environ
    url = env.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_ENDPOINT", "").strip()
    if not url:
        base = env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip() or DEFAULT_ENDPOINT
        url = base.rstrip("/") + f"/v1/{signal}"
    if not url.startswith(("http://", "https://")):
        raise OtlpUnavailable(f"--otlp: the OTLP endpoint must be an http:// or https:// URL (OTLP/HTTP), not {url!r}")
    return url


def traces_endpoint(environ: dict | None = None) -> str:
    """The URL spans are posted to (module docstring). Raises ``OtlpUnavailable`` for one that is
    not an http(s) URL."""
    return _endpoint(environ, "traces")


def metrics_endpoint(environ: dict | None = None) -> str:
    """Where metrics are posted: ``OTEL_EXPORTER_OTLP_METRICS_ENDPOINT``, else the base endpoint with
    ``/v1/metrics``. Raises ``OtlpUnavailable`` as ``traces_endpoint`` does."""
    return _endpoint(environ, "metrics")


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
            from opentelemetry import trace
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            from opentelemetry.sdk.metrics import MeterProvider
            from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader
            from opentelemetry.sdk.resources import Resource
            from opentelemetry.sdk.trace import TracerProvider
            from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
            from opentelemetry.trace import SpanKind, Status, StatusCode
            from opentelemetry.trace.span import TraceState
        except ImportError:
            raise OtlpUnavailable(f"--otlp needs the OpenTelemetry SDK and OTLP exporter: {INSTALL_HINT}") from None
        self.endpoint = endpoint or traces_endpoint()
        self.warn = warn or _stderr
        self.sent = 0
        """Spans handed to the SDK so far."""
        self.failed = False
        self._kind, self._status, self._error = SpanKind.CLIENT, Status, StatusCode.ERROR
        self._trace, self._trace_state = trace, TraceState
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

        resource = Resource.create({"service.name": "stream-inspector", "service.version": __version__})
        self._provider = TracerProvider(resource=resource,
                                        shutdown_on_exit=False)  # ``close`` bounds the wait; an exit handler would not
        self._meters = MeterProvider(resource=resource, shutdown_on_exit=False, metric_readers=[
            PeriodicExportingMetricReader(OTLPMetricExporter(endpoint=metrics_endpoint(), timeout=timeout),
                                          export_interval_millis=10_000)])
        self._metrics = _Metrics(self._meters.get_meter("stream-inspector", __version__))
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
        context = None
        if rec.parent is not None:
            trace_id, span_id, flags = rec.parent
            state = self._trace_state.from_header([rec.tracestate]) if rec.tracestate else None
            parent = self._trace.SpanContext(trace_id, span_id, is_remote=True,
                                             trace_flags=self._trace.TraceFlags(flags), trace_state=state)
            context = self._trace.set_span_in_context(self._trace.NonRecordingSpan(parent))
        span = self._tracer.start_span(rec.name, context=context, kind=self._kind, attributes=rec.attributes,
                                       start_time=int(rec.start * 1e9))
        for ev in rec.events:
            span.add_event(ev.name, ev.attributes, timestamp=int((rec.start + ev.t) * 1e9))
        if rec.error:
            span.set_status(self._status(self._error, rec.error))
        span.end(end_time=int(rec.end * 1e9))
        self._metrics.record(rec)
        self.sent += 1

    def close(self, wait_s: float = CLOSE_S) -> None:
        """Send what is queued, waiting at most ``wait_s`` (not at all after a failed export)."""
        if self._closed:
            return
        self._closed = True
        def shutdown() -> None:
            self._provider.shutdown()
            self._meters.shutdown(timeout_millis=wait_s * 1000)  # a last collection and export

        done = threading.Thread(target=shutdown, name="otlp shutdown", daemon=True)
        done.start()
        done.join(0.0 if self.failed else wait_s)
        if done.is_alive() and not self.failed:
            self.warn(f"stream-inspector: warning: OTLP: {self.endpoint} did not take the last spans within "
                      f"{wait_s:g} s; they were dropped")


class _Metrics:
    """The instruments (module docstring), fed from each span's record."""

    def __init__(self, meter) -> None:
        self.findings = meter.create_counter("stream_inspector.findings", unit="{finding}",
                                             description="Findings by rule code")
        self.stalls = meter.create_counter("stream_inspector.stalls", unit="{stall}",
                                           description="Stalls (T001): silences over the --stall threshold")
        self.first_content = meter.create_histogram("stream_inspector.time_to_first_content", unit="s",
                                                    description="Seconds from the request to the first content")
        self.duration = meter.create_histogram("gen_ai.client.operation.duration", unit="s",
                                               description="GenAI operation duration")

    def record(self, rec: SpanRecord) -> None:
        a = rec.attributes
        common = {k: a[k] for k in ("gen_ai.provider.name", "gen_ai.operation.name", "gen_ai.request.model")
                  if k in a}
        for ev in rec.events:
            code = ev.attributes.get("stream_inspector.finding.code")
            self.findings.add(1, {**common, "code": code,
                                  "severity": ev.attributes.get("stream_inspector.finding.severity")})
            if code == "T001":
                self.stalls.add(1, common)
        if "gen_ai.response.time_to_first_chunk" in a:
            self.first_content.record(a["gen_ai.response.time_to_first_chunk"], common)
        self.duration.record(max(rec.end - rec.start, 0.0),
                             {**common, **({"error.type": rec.error} if rec.error else {})})


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
