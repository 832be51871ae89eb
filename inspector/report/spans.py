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

Joining the agent's trace: a request carrying a W3C ``traceparent`` (w3c.org/TR/trace-context,
``00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>``) makes the span a child of that span
(``SpanRecord.parent``; ``tracestate`` kept beside it), so a trace viewer shows the wire under the
agent's own call. Content capture is opt-in, as the GenAI instrumentations do it: with
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`` the span also carries
``gen_ai.input.messages`` (the request's history) and ``gen_ai.output.messages`` (the assembled
blocks), as semconv JSON (``role``, ``parts`` of ``text``/``tool_call``/``tool_call_response``),
secrets masked (``scrub_value``).

This module builds a :class:`SpanRecord` (picklable: ``check --jobs`` builds them in worker
processes); ``inspector.net.otlp`` sends it with the OpenTelemetry SDK. No OpenTelemetry import here.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import orjson

from inspector.capture.redact import redact_url, scrub_secrets, scrub_value
from inspector.model.capture import normal_end
from inspector.model.urls import split_url, url_port
from inspector.providers import PROVIDERS, provider_for_dialect
from inspector.session.session import Session
from inspector.model.severity import WORST_FIRST

HOST_PROVIDERS = tuple((re.compile(host), p.otel_name) for p in PROVIDERS.values() for host in p.otel_hosts) + (
    (re.compile(r"\.openai\.azure\.com$"), "azure.ai.openai"),
    (re.compile(r"(\.services\.ai\.azure\.com|\.inference\.ai\.azure\.com|\.models\.ai\.azure\.com)$"),
     "azure.ai.inference"),
    (re.compile(r"aiplatform\.googleapis\.com$"), "gcp.vertex_ai"),
    (re.compile(r"(^|\.)api\.deepseek\.com$"), "deepseek"),
    (re.compile(r"(^|\.)api\.groq\.com$"), "groq"),
    (re.compile(r"(^|\.)api\.mistral\.ai$"), "mistral_ai"),
    (re.compile(r"(^|\.)api\.x\.ai$"), "x_ai"),
    (re.compile(r"(^|\.)api\.perplexity\.ai$"), "perplexity"),
)
"""Hosts whose ``gen_ai.provider.name`` is not their API's (semconv well-known values): each registered
provider's own hosts (``Provider.otel_hosts``: Claude or Llama on Bedrock is ``aws.bedrock``), then
services that speak another provider's dialect and are not registered providers (an OpenAI-compatible
stream from DeepSeek is ``deepseek``). Any other host gets its dialect's provider record's ``otel_name``."""
CONTENT_ENV = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"
"""The variable GenAI instrumentations read to opt in to message content on spans."""
_TRACEPARENT = re.compile(r"^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")
FINDING_EVENT = "stream_inspector.finding"

_USAGE_KEYS: dict[str, tuple[str, ...]] = {}
"""Semconv usage attribute -> the provider fields that report it (each record's ``usage_keys``, in registry
order), looked up in the usage object and its ``*_details`` objects (and Cohere's ``tokens``: the model's
counts, where ``billed_units`` are what was billed)."""
for _p in PROVIDERS.values():
    for _attr, _keys in _p.usage_keys.items():
        _USAGE_KEYS[_attr] = tuple(dict.fromkeys((*_USAGE_KEYS.get(_attr, ()), *_keys)))

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
    parent: tuple[int, int, int] | None = None
    """``(trace id, parent span id, trace flags)`` from the request's ``traceparent``, or None."""
    tracestate: str | None = None
    """The request's ``tracestate``, kept with the parent."""


def _header(request: dict, name: str) -> str | None:
    for k, v in ((request or {}).get("headers") or {}).items():
        if str(k).lower() == name:
            v = v[0] if isinstance(v, list) and v else v
            return v.strip() if isinstance(v, str) else None
    return None


def trace_parent(request: dict | None) -> tuple[int, int, int] | None:
    """The request's W3C ``traceparent`` (version 00) as ``(trace id, span id, flags)``; None when
    absent or invalid (malformed, or an all-zero id: Trace Context §3.2.2.3, §3.2.2.4)."""
    m = _TRACEPARENT.match((_header(request or {}, "traceparent") or "").lower())
    if m is None:
        return None
    trace_id, span_id = int(m.group(1), 16), int(m.group(2), 16)
    if not trace_id or not span_id:
        return None
    return trace_id, span_id, int(m.group(3), 16)


def provider_name(dialect: str, url: str | None) -> str:
    """``gen_ai.provider.name`` for a stream of ``dialect`` from ``url`` (``HOST_PROVIDERS``, then the
    dialect's provider record; ``_OTHER`` when neither knows)."""
    host = (split_url(url or "").hostname or "").lower()
    for pattern, name in HOST_PROVIDERS:
        if host and pattern.search(host):
            return name
    provider = provider_for_dialect(dialect)
    return provider.otel_name if provider is not None else "_OTHER"


def capture_content(environ=None) -> bool:
    """Whether message content goes on spans (``CONTENT_ENV`` set to ``true``, any case)."""
    return (environ if environ is not None else os.environ).get(CONTENT_ENV, "").strip().lower() == "true"


def _parts(content) -> list[dict]:
    """A message's content (a string, or a list of provider blocks/parts) as semconv parts."""
    if isinstance(content, str):
        return [{"type": "text", "content": content}]
    out: list[dict] = []
    for part in content if isinstance(content, list) else []:
        if isinstance(part, str):
            out.append({"type": "text", "content": part})
        elif not isinstance(part, dict):
            continue
        elif isinstance(part.get("text"), str):
            out.append({"type": "text", "content": part["text"]})
        elif part.get("type") in ("tool_use", "function_call") or "functionCall" in part:
            fc = part.get("functionCall")
            call = fc if isinstance(fc, dict) else part
            out.append({"type": "tool_call", "id": call.get("id") or part.get("call_id"), "name": call.get("name"),
                        "arguments": call.get("input", call.get("args", call.get("arguments")))})
        elif part.get("type") in ("tool_result", "function_call_output") or "functionResponse" in part:
            out.append({"type": "tool_call_response", "id": part.get("tool_use_id") or part.get("call_id"),
                        "response": part.get("content", part.get("output", part.get("functionResponse")))})
    return out


def input_messages(body) -> list[dict]:
    """The request's history as semconv input messages (Anthropic/Chat ``system`` + ``messages``, Gemini
    ``contents``, Responses ``instructions`` + ``input``, Ollama ``messages``/``prompt``)."""
    if not isinstance(body, dict):
        return []
    out = []
    for key in ("system", "instructions"):
        if body.get(key):
            out.append({"role": "system", "parts": _parts(body[key])})
    items = body.get("messages") or body.get("contents") or body.get("input") or body.get("prompt")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    for m in items if isinstance(items, list) else []:
        if not isinstance(m, dict):
            continue
        role = m.get("role") or ("tool" if m.get("type") == "function_call_output" else "user")
        parts = _parts(m.get("content", m.get("parts")))
        if not parts and m.get("type") in ("function_call", "function_call_output"):
            parts = _parts([m])
        for call in m.get("tool_calls") or []:
            fn = call.get("function") if isinstance(call, dict) else None
            if isinstance(fn, dict):
                parts.append({"type": "tool_call", "id": call.get("id"), "name": fn.get("name"),
                              "arguments": fn.get("arguments")})
        out.append({"role": "model" if role == "model" else role, "parts": parts})
    return out


def output_messages(s: Session) -> list[dict]:
    """The assembled blocks as one semconv output message per choice, with its finish reason."""
    by_choice: dict = {}
    for b in s.blocks:
        parts = by_choice.setdefault(b.choice or 0, [])
        if b.tool:
            parts.append({"type": "tool_call", "id": b.id, "name": b.name, "arguments": b.content})
        elif b.content:
            parts.append({"type": "reasoning" if "think" in b.kind or "reason" in b.kind else "text",
                          "content": b.content})
    return [{"role": "assistant", "parts": parts, "finish_reason": str(s.stop_reason or "")}
            for _, parts in sorted(by_choice.items())]


def _json(value) -> str:
    return orjson.dumps(scrub_value(value), default=str).decode()


def _number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


INT64 = (-(2**63), 2**63 - 1)


def _int64(value: float) -> int:
    """``value`` as an OTLP integer (64-bit): a count or a ``max_tokens`` past it is sent as the largest
    one, not dropped by the exporter."""
    return max(INT64[0], min(INT64[1], int(value)))


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
            out[attr] = _int64(value)
    return out


def _request_attributes(body) -> dict:
    if not isinstance(body, dict):
        return {}
    places = [body] + [body[k] for k in ("generationConfig", "options") if isinstance(body.get(k), dict)]
    out: dict[str, object] = {}
    for attr, keys in _REQUEST_KEYS.items():
        value = next((p[k] for p in places for k in keys if _number(p.get(k))), None)
        if value is not None:
            out[attr] = _int64(value) if attr.endswith(("max_tokens", "seed")) else float(value)
    stops: object = next((p[k] for p in places for k in ("stop_sequences", "stop", "stopSequences") if k in p), None)
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
    parts = split_url(url or "")
    port = url_port(parts)
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


def span_for(s: Session, *, start: float, status: int | None = None, label: str | None = None,
             content: bool | None = None) -> SpanRecord:
    """The span of a closed session ``s`` whose request was sent at ``start`` (Unix seconds).

    ``status``: the HTTP status when the caller knows it better than the session's response head
    (the proxy); ``label``: the capture file or exchange, kept as ``stream_inspector.source``;
    ``content``: put the messages on the span (default: ``capture_content()``).
    """
    dialect = s.dialect_name or "unknown"
    request = s.request or {}
    model = _request_model(request)
    record = provider_for_dialect(dialect)
    operation = record.otel_operation if record is not None else "chat"
    status = status if status is not None else (s.response or {}).get("status")
    provider = provider_name(dialect, request.get("url"))
    attrs: dict = {"gen_ai.operation.name": operation,
                   "gen_ai.provider.name": provider,
                   "gen_ai.system": provider,
                   "stream_inspector.dialect": dialect, "stream_inspector.events": len(s.events)}
    if model:
        attrs["gen_ai.request.model"] = model
    attrs.update(_request_attributes(request.get("body")))
    attrs.update(_server(request.get("url")))
    attrs.update(_response_attributes(s))
    if status is not None:
        attrs["http.response.status_code"] = int(status)
    if label:
        attrs["stream_inspector.source"] = redact_url(label)
    counts: dict[str, int] = {}
    for f in s.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    for sev in WORST_FIRST:
        attrs[f"stream_inspector.findings.{sev}"] = counts.get(sev, 0)
    error = _error_type(s, status)
    if error:
        attrs["error.type"] = error
    duration = s.end.t if s.end is not None and s.end.t is not None and s.request_relative else s.duration_s
    events = _finding_events(s)
    if capture_content() if content is None else content:
        attrs["gen_ai.input.messages"] = _json(input_messages(request.get("body")))
        attrs["gen_ai.output.messages"] = _json(output_messages(s))
    name = scrub_secrets(f"{operation} {model}" if model else operation)
    # A span leaves the machine: every string in it (a model name, an id, a source path) is masked.
    return SpanRecord(name, start, start + max(duration or 0.0, 0.0), scrub_value(attrs), events, error,
                      trace_parent(request), _header(request, "tracestate"))


def _response_attributes(s: Session) -> dict:
    """The ``gen_ai.response.*`` attributes and the usage the session saw (only those it knows)."""
    attrs: dict = {}
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
    return attrs


def _error_type(s: Session, status: object) -> str | None:
    """``error.type``: the HTTP status of an error response, else how an abnormal end ended; None
    for a good answer."""
    if isinstance(status, int) and status >= 400:
        return str(status)
    if s.end is not None and not normal_end(s.end, s.ended):
        return s.end.kind
    return None


def _finding_events(s: Session) -> list[SpanEvent]:
    """One span event per finding (code, name, severity, message, where), at its request-relative
    time (0 when the session has none)."""
    events = []
    for f in s.findings:
        fa: dict[str, str | int] = {"stream_inspector.finding.code": f.code, "stream_inspector.finding.name": f.name,
                                    "stream_inspector.finding.severity": f.severity,
                                    "stream_inspector.finding.message": f.message}
        for key, value in (("event", f.event), ("block_index", f.index), ("line", f.line)):
            if value is not None:
                fa[f"stream_inspector.finding.{key}"] = int(value)
        count = getattr(f, "count", 1)
        if count and count > 1:
            fa["stream_inspector.finding.count"] = int(count)
        t = f.t if f.t is not None and s.request_relative else 0.0
        events.append(SpanEvent(FINDING_EVENT, max(t, 0.0), scrub_value(fa)))
    return events
