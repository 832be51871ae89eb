"""One OpenTelemetry span per exchange, as plain data: GenAI semantic conventions plus the findings.

Why it exists: teams that run many agents read traces in a collector (Langfuse, Phoenix, Tempo,
Datadog), not terminals. Each inspected stream becomes one span following the OpenTelemetry
GenAI semantic conventions for an inference call (opentelemetry.io/docs/specs/semconv/gen-ai/
gen-ai-spans, "Inference"): name ``{gen_ai.operation.name} {gen_ai.request.model}``, kind CLIENT,
``gen_ai.provider.name`` (and the older ``gen_ai.system``), ``gen_ai.request.model`` and the
request's sampling settings, ``gen_ai.response.model``/``id``/``finish_reasons``, usage tokens,
``gen_ai.response.time_to_first_chunk`` (to the first event carrying content, from the request),
``server.address``/``port``, ``error.type`` for an HTTP error or a broken transport. Every finding
is a span event ``stream_inspector.finding`` (code, name, severity, message, event, block index,
line) at the time it fired.

This module builds a :class:`SpanRecord` (picklable: ``check --jobs`` builds them in worker
processes); ``inspector.net.otlp`` sends it with the OpenTelemetry SDK. No OpenTelemetry import here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from inspector.capture.redact import redact_url, scrub_secrets, scrub_value
from inspector.session.session import Session

PROVIDER_NAMES = {"anthropic-messages": "anthropic", "openai-chat": "openai", "openai-responses": "openai",
                  "gemini": "gcp.gemini", "ollama": "ollama", "cohere-chat": "cohere"}
"""Dialect -> ``gen_ai.provider.name`` (semconv well-known values; ``ollama`` is not one, so it is
its own name). An OpenAI-compatible server is ``openai``: the convention names the API flavour."""
OPERATIONS = {"gemini": "generate_content"}
"""Dialect -> ``gen_ai.operation.name`` when not ``chat``."""
FINDING_EVENT = "stream_inspector.finding"

_USAGE_KEYS = {
    "gen_ai.usage.input_tokens": ("input_tokens", "prompt_tokens", "promptTokenCount", "prompt_eval_count"),
    "gen_ai.usage.output_tokens": ("output_tokens", "completion_tokens", "candidatesTokenCount", "eval_count"),
    "gen_ai.usage.cache_read.input_tokens": ("cache_read_input_tokens", "cachedContentTokenCount"),
    "gen_ai.usage.cache_creation.input_tokens": ("cache_creation_input_tokens",),
    "gen_ai.usage.reasoning.output_tokens": ("reasoning_tokens", "thoughtsTokenCount"),
}
"""Semconv usage attribute -> the provider fields that report it (Anthropic/Responses, Chat, Gemini
``usageMetadata``, Ollama, Cohere ``tokens``), looked up in the usage object and its ``*_details`` objects
(and Cohere's ``tokens``: the model's counts, where ``billed_units`` are what was billed)."""

_REQUEST_KEYS = {
    "gen_ai.request.max_tokens": ("max_tokens", "max_completion_tokens", "max_output_tokens", "maxOutputTokens",
                                  "num_predict"),
    "gen_ai.request.temperature": ("temperature",),
    "gen_ai.request.top_p": ("top_p", "topP"),
    "gen_ai.request.top_k": ("top_k", "topK"),
    "gen_ai.request.seed": ("seed",),
}
"""Semconv request attribute -> body fields (top level, Gemini ``generationConfig``, Ollama ``options``)."""


@dataclass(slots=True)
class SpanEvent:
    name: str
    t: float
    """Seconds after the span's start."""
    attributes: dict


@dataclass(slots=True)
class SpanRecord:
    """Everything one span needs; times are Unix seconds."""

    name: str
    start: float
    end: float
    attributes: dict
    events: list[SpanEvent] = field(default_factory=list)
    error: str | None = None
    """``error.type`` when the exchange failed (span status ERROR), else None."""


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _usage(s: Session) -> dict:
    """Usage as the stream reported it: the session's, else merged from the events' ``usage``
    objects (Anthropic ``message_start``/``message_delta``, Responses ``response.completed``) and
    Ollama's final counts; later reports win."""
    if s.usage:
        return dict(s.usage)
    merged: dict = {}
    for ev in s.events:
        if "usage" not in ev.data and "eval_count" not in ev.data:
            continue  # payloads are parsed again on demand: only the events that can hold usage
        p = ev.payload
        if not isinstance(p, dict):
            continue
        for holder in (p, p.get("message"), p.get("response")):
            if isinstance(holder, dict) and isinstance(holder.get("usage"), dict):
                merged.update({k: v for k, v in holder["usage"].items() if v is not None})
        merged.update({k: p[k] for k in ("prompt_eval_count", "eval_count") if _number(p.get(k))})
    return merged


def _usage_attributes(usage: dict) -> dict:
    flat = dict(usage)
    for k, v in usage.items():
        if (k.endswith("_details") or k == "tokens") and isinstance(v, dict):
            flat.update({kk: vv for kk, vv in v.items() if kk not in flat})
    out = {}
    for attr, keys in _USAGE_KEYS.items():
        value = next((flat[k] for k in keys if _number(flat.get(k))), None)
        if value is not None:
            out[attr] = int(value)
    return out


def _request_attributes(body) -> dict:
    if not isinstance(body, dict):
        return {}
    places = [body] + [body[k] for k in ("generationConfig", "options") if isinstance(body.get(k), dict)]
    out = {}
    for attr, keys in _REQUEST_KEYS.items():
        value = next((p[k] for p in places for k in keys if _number(p.get(k))), None)
        if value is not None:
            out[attr] = int(value) if attr.endswith(("max_tokens", "seed")) else float(value)
    stops = next((p[k] for p in places for k in ("stop_sequences", "stop", "stopSequences") if k in p), None)
    if isinstance(stops, str):
        stops = [stops]
    if isinstance(stops, list) and stops and all(isinstance(x, str) for x in stops):
        out["gen_ai.request.stop_sequences"] = stops
    if isinstance(body.get("stream"), bool):
        out["gen_ai.request.stream"] = body["stream"]
    return out


def _request_model(request: dict | None) -> str | None:
    body = (request or {}).get("body")
    if isinstance(body, dict) and isinstance(body.get("model"), str) and body["model"]:
        return body["model"]
    m = re.search(r"/models/([^/:?]+)", (request or {}).get("url") or "")  # Gemini puts it in the URL
    return m.group(1) if m else None


def _response_id(s: Session) -> str | None:
    """The id the first identifying event carries (``message.id``, ``response.id``, ``id``, ``responseId``)."""
    for ev in s.events[:8]:
        p = ev.payload
        if not isinstance(p, dict):
            continue
        for holder, key in ((p.get("message"), "id"), (p.get("response"), "id"), (p, "id"), (p, "responseId")):
            if isinstance(holder, dict) and isinstance(holder.get(key), str) and holder[key]:
                return holder[key]
    return None


def _server(url: str | None) -> dict:
    try:
        parts = urlsplit(url or "")
        port = parts.port
    except ValueError:
        return {}
    if not parts.hostname:
        return {}
    return {"server.address": parts.hostname,
            "server.port": port or (443 if parts.scheme == "https" else 80)}


def _first_chunk(s: Session) -> float | None:
    """Seconds from the request to the first event that carried content or opened a block."""
    if not s.request_relative:
        return None
    ttfc = getattr(s, "ttfc_s", None)
    if ttfc is not None:
        return ttfc
    return next((ev.t for ev in s.events if ev.block is not None and ev.t is not None), None)


def span_for(s: Session, *, start: float, status: int | None = None, label: str | None = None) -> SpanRecord:
    """The span of a closed session ``s`` whose request was sent at ``start`` (Unix seconds).

    ``status``: the HTTP status when the caller knows it better than the session's response head
    (the proxy); ``label``: the capture file or exchange, kept as ``stream_inspector.source``.
    """
    dialect = s.dialect_name or "unknown"
    request = s.request or {}
    model = _request_model(request)
    operation = OPERATIONS.get(dialect, "chat")
    status = status if status is not None else (s.response or {}).get("status")
    attrs: dict = {"gen_ai.operation.name": operation,
                   "gen_ai.provider.name": PROVIDER_NAMES.get(dialect, "_OTHER"),
                   "gen_ai.system": PROVIDER_NAMES.get(dialect, "_OTHER"),
                   "stream_inspector.dialect": dialect, "stream_inspector.events": len(s.events)}
    if model:
        attrs["gen_ai.request.model"] = model
    attrs.update(_request_attributes(request.get("body")))
    attrs.update(_server(request.get("url")))
    if s.model:
        attrs["gen_ai.response.model"] = s.model
    rid = _response_id(s)
    if rid:
        attrs["gen_ai.response.id"] = rid
    if s.stop_reason:
        attrs["gen_ai.response.finish_reasons"] = [str(s.stop_reason)]
    attrs.update(_usage_attributes(_usage(s)))
    ttfc = _first_chunk(s)
    if ttfc is not None:
        attrs["gen_ai.response.time_to_first_chunk"] = float(ttfc)
    if status is not None:
        attrs["http.response.status_code"] = int(status)
    if label:
        attrs["stream_inspector.source"] = redact_url(label)
    counts: dict[str, int] = {}
    for f in s.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    for sev in ("error", "warning", "info"):
        attrs[f"stream_inspector.findings.{sev}"] = counts.get(sev, 0)
    error = None
    if isinstance(status, int) and status >= 400:
        error = str(status)
    elif s.end is not None and s.end.kind != "eof":
        error = s.end.kind
    if error:
        attrs["error.type"] = error
    duration = s.end.t if s.end is not None and s.end.t is not None and s.request_relative else s.duration_s
    events = []
    for f in s.findings:
        fa = {"stream_inspector.finding.code": f.code, "stream_inspector.finding.name": f.name,
              "stream_inspector.finding.severity": f.severity, "stream_inspector.finding.message": f.message}
        for key, value in (("event", f.event), ("block_index", f.index), ("line", f.line)):
            if value is not None:
                fa[f"stream_inspector.finding.{key}"] = int(value)
        count = getattr(f, "count", 1)
        if count and count > 1:
            fa["stream_inspector.finding.count"] = int(count)
        t = f.t if f.t is not None and s.request_relative else 0.0
        events.append(SpanEvent(FINDING_EVENT, max(t, 0.0), scrub_value(fa)))
    name = scrub_secrets(f"{operation} {model}" if model else operation)
    # A span leaves the machine: every string in it (a model name, an id, a source path) is masked.
    return SpanRecord(name, start, start + max(duration or 0.0, 0.0), scrub_value(attrs), events, error)
