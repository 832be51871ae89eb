"""``live``: send one request with streaming on to a provider and inspect the answer as it arrives.

Why it exists: a capture on disk says what a stream looked like; ``live`` shows what a provider
sends *now*, timed on arrival, through the same session as ``check`` and ``replay``
(DESIGN.md, "One direction of flow"). The network side is ``live_source``, a *source*: it yields one
``Head``, then one ``Chunk`` per network read (bytes exactly as received, ``t`` = seconds since the
request was sent), then one ``End`` saying how the body ended. Every fault becomes part of that
sequence rather than an exception, so the TUI, the headless report and the recorder all see it:

- no connection at all (refused, DNS failure, TLS error, connect timeout): ``Head(status=None)``
  then ``End(kind="reset"|"timeout", error=<one line>)``; ``cmd_live`` turns it into a one-line
  error (exit 2);
- HTTP 4xx/5xx (429, 500, 529 overloaded...): a normal ``Head`` with the status, the body chunks,
  ``End(eof)``; the session reports S007 with the body;
- connection reset or closed mid-body: ``End(kind="reset", error=...)`` (S012);
- no bytes for ``timeout`` seconds: ``End(kind="timeout")`` (S012);
- cancelled (Ctrl+C, the TUI stopping the worker): ``End(kind="cancelled")`` is yielded, then the
  ``CancelledError`` goes on (cancellation is never swallowed).
"""
from __future__ import annotations

import asyncio
import ipaddress
import os
import socket
import ssl
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncIterator
from urllib.parse import urlsplit

import httpx
import orjson

from inspector.model.capture import Capture, Chunk, End, Head, SourceItem
from inspector.capture.recorder import Recorder, redact_request, redact_response
from inspector.capture.redact import redact_url

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


@dataclass(frozen=True, slots=True)
class Provider:
    """How to reach one provider's streaming endpoint."""

    name: str
    default_base: str
    path: str
    """Appended to the base URL; ``{model}`` is filled from the body (Gemini)."""
    key_env: str | None
    dialect: str


PROVIDERS: dict[str, Provider] = {
    # docs.anthropic.com "Streaming Messages": POST /v1/messages, x-api-key, anthropic-version.
    "anthropic": Provider("anthropic", "https://api.anthropic.com", "/v1/messages", "ANTHROPIC_API_KEY",
                          "anthropic-messages"),
    # platform.openai.com "Chat Completions / Streaming": POST /v1/chat/completions, Bearer key.
    "openai": Provider("openai", "https://api.openai.com", "/v1/chat/completions", "OPENAI_API_KEY", "openai-chat"),
    # platform.openai.com "Responses / Streaming": POST /v1/responses.
    "openai-responses": Provider("openai-responses", "https://api.openai.com", "/v1/responses", "OPENAI_API_KEY",
                                 "openai-responses"),
    # ai.google.dev "generateContent / streamGenerateContent": alt=sse gives SSE frames (PROTOCOLS.md).
    "gemini": Provider("gemini", "https://generativelanguage.googleapis.com",
                       "/v1beta/models/{model}:streamGenerateContent?alt=sse", "GEMINI_API_KEY", "gemini"),
    # ollama docs/api.md: POST /api/chat streams NDJSON; a local server needs no key.
    "ollama": Provider("ollama", "http://localhost:11434", "/api/chat", None, "ollama"),
}

ANTHROPIC_VERSION = "2023-06-01"


class LiveError(Exception):
    """A problem found before anything is sent (bad request file, missing key); one line for the user."""


@dataclass(slots=True)
class LiveRequest:
    """Everything needed to send one streaming request (secrets included: never print or write it)."""

    provider: Provider
    url: str
    headers: dict[str, str]
    body: dict
    local: bool
    """The base URL is on this machine or a private network (no key required, no env proxy)."""

    @property
    def redacted(self) -> dict:
        """The request as a capture header stores it (secrets redacted)."""
        return redact_request({"method": "POST", "url": self.url, "headers": dict(self.headers), "body": self.body})

    @property
    def label(self) -> str:
        """A printable name for reports (the redacted URL)."""
        return redact_url(self.url) or self.url


def is_local_host(host: str | None) -> bool:
    """True for loopback, private-network and ``localhost``/``.local``/``.internal`` names (no key needed)."""
    if not host:
        return False
    h = host.strip("[]").lower().rstrip(".")
    if h == "localhost" or h.endswith((".localhost", ".local", ".internal")):
        return True
    try:
        ip = ipaddress.ip_address(h)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local or ip.is_unspecified


def _join(base: str, path: str) -> str:
    """``base`` + ``path``, without doubling a version segment the base already carries.

    OpenAI-compatible servers are usually given as ``http://host:8000/v1`` (the SDK convention);
    ``{base}/v1/chat/completions`` would then be ``/v1/v1/...``.
    """
    base = base.rstrip("/")
    first = "/" + path.lstrip("/").split("/", 1)[0]
    if first in ("/v1", "/v1beta", "/api") and base.endswith(first):
        base = base[: -len(first)]
    return base + path


def prepare(provider: str, body: dict, *, base_url: str | None = None, api_key: str | None = None,
            headers: dict | None = None, env: dict | None = None) -> LiveRequest:
    """Build the URL, headers and body for ``provider`` with streaming switched on.

    ``body`` is not modified. Anthropic/OpenAI/Ollama get ``"stream": true`` (OpenAI Chat also
    ``stream_options.include_usage``); Gemini's ``model`` moves from the body into the URL.
    The key comes from ``api_key`` or the provider's env var; it is required unless the base URL is
    local (``is_local_host``). Raises ``LiveError``.
    """
    env = os.environ if env is None else env
    p = PROVIDERS.get(provider)
    if p is None:
        raise LiveError(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
    if not isinstance(body, dict):
        raise LiveError("the request must be a JSON object (the provider's request body)")
    body = dict(body)
    base = base_url or p.default_base
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LiveError(f"--base-url must be an http:// or https:// URL, got {redact_url(base)!r}")
    local = is_local_host(parts.hostname)
    path = p.path
    if p.name == "gemini":
        model = body.pop("model", None)
        if not isinstance(model, str) or not model.strip():
            raise LiveError('gemini: the request needs a "model" field (e.g. "gemini-2.5-flash"); it goes in the URL')
        model = model.strip()
        path = path.format(model=model.removeprefix("models/"))
        body.pop("stream", None)
    else:
        body["stream"] = True
        if p.name == "openai":
            opts = body.get("stream_options")
            body["stream_options"] = {**(opts if isinstance(opts, dict) else {}), "include_usage": True}
    url = _join(base, path)
    hdrs: dict[str, str] = {"content-type": "application/json",
                            "accept": "application/x-ndjson" if p.name == "ollama" else "text/event-stream",
                            # identity: the chunks we time and record are the bytes the stream is made of.
                            "accept-encoding": "identity"}
    key = api_key if api_key is not None else (env.get(p.key_env) if p.key_env else None)
    if p.key_env and not key and not local:
        raise LiveError(f"no API key: set {p.key_env} (or point --base-url at a local server)")
    if p.name == "anthropic":
        hdrs["anthropic-version"] = ANTHROPIC_VERSION
        if key:
            hdrs["x-api-key"] = key
    elif p.name in ("openai", "openai-responses"):
        if key:
            hdrs["authorization"] = f"Bearer {key}"
    elif p.name == "gemini":
        if key:
            hdrs["x-goog-api-key"] = key
    for k, v in (headers or {}).items():
        hdrs[str(k).lower()] = str(v)
    return LiveRequest(p, url, hdrs, body, local)


def _host_port(url: str) -> str:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = parts.hostname or "?"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _chain(exc: BaseException):
    seen = set()
    stack = [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        yield e
        stack.extend([e.__cause__, e.__context__])
        if isinstance(e, BaseExceptionGroup):
            stack.extend(e.exceptions)


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0][:300]


def describe_error(exc: BaseException, url: str) -> str:
    """One line for a transport failure talking to ``url`` (host and port only; never the query)."""
    where = _host_port(url)
    chain = list(_chain(exc))
    for e in chain:
        if isinstance(e, ConnectionRefusedError):
            return f"connection refused by {where}"
    for e in chain:
        if isinstance(e, socket.gaierror):
            return f"DNS lookup failed for {urlsplit(url).hostname} ({e.strerror or e})"
    if isinstance(exc, httpx.ConnectTimeout):
        return f"timed out connecting to {where}"
    for e in chain:
        if isinstance(e, ssl.SSLError):
            reason = getattr(e, "verify_message", None) or e.reason or _first_line(str(e))
            if reason == "WRONG_VERSION_NUMBER":
                reason += " (does the server speak plain http://?)"
            return f"TLS error talking to {where}: {reason}"
    for e in chain:
        if isinstance(e, ConnectionResetError):
            return f"connection reset by {where}"
    msg = _first_line(str(exc)) or type(exc).__name__
    lowered = msg.lower()
    if isinstance(exc, httpx.ConnectError) and ("name" in lowered and "resol" in lowered or "nodename" in lowered):
        return f"DNS lookup failed for {urlsplit(url).hostname} ({msg})"
    if isinstance(exc, httpx.ConnectError) and ("ssl" in lowered or "tls" in lowered or "certificate" in lowered):
        return f"TLS error talking to {where}: {msg}"
    if isinstance(exc, httpx.ConnectError):
        return f"cannot connect to {where}: {msg}"
    return msg


async def live_source(provider: str, body: dict, *, base_url: str | None = None, timeout: float = 600.0,
                      record: str | os.PathLike | None = None, api_key: str | None = None,
                      headers: dict | None = None, prepared: LiveRequest | None = None,
                      transport: httpx.AsyncBaseTransport | None = None) -> AsyncIterator[SourceItem]:
    """Send the request and yield ``Head``, ``Chunk``s, ``End`` as they arrive (see module docstring).

    ``timeout`` is the read timeout in seconds (no bytes for that long ends the stream with
    ``End(kind="timeout")``); connecting waits at most ``min(timeout, 30)`` s. ``record`` is a path
    for the native capture, written as the bytes arrive (``Recorder``). ``prepared`` skips
    ``prepare()`` (``cmd_live`` validates first, then streams). ``transport`` is for tests.
    Raises ``LiveError`` only before sending (see ``prepare``).
    """
    req = prepared or prepare(provider, body, base_url=base_url, api_key=api_key, headers=headers)
    limits = httpx.Timeout(timeout, connect=min(timeout, 30.0))
    rec: Recorder | None = None
    t0 = time.monotonic()

    def now() -> float:
        # Microseconds, as the recording stores them: what is inspected is exactly what is recorded.
        return round(time.monotonic() - t0, 6)

    # trust_env off for local servers: a proxy from the environment must not intercept 127.0.0.1.
    async with httpx.AsyncClient(timeout=limits, trust_env=not req.local, transport=transport) as client:
        request = client.build_request("POST", req.url, headers=req.headers, content=orjson.dumps(req.body))
        sent = redact_request({"method": "POST", "url": str(request.url),
                               "headers": dict(request.headers), "body": req.body})
        t0 = time.monotonic()
        try:
            response = await client.send(request, stream=True)
        except asyncio.CancelledError:
            end = End(now(), "cancelled", "cancelled before the response arrived")
            _record_failure(record, sent, end)
            yield Head(None, {}, sent)
            yield end
            raise
        except (httpx.HTTPError, OSError) as e:
            kind = "timeout" if isinstance(e, httpx.TimeoutException) else "reset"
            error = describe_error(e, req.url)
            if isinstance(e, httpx.ReadTimeout):
                error = f"no response head within {timeout:g} s (--timeout)"
            end = End(now(), kind, error)
            _record_failure(record, sent, end)
            yield Head(None, {}, sent)
            yield end
            return
        cancelled: BaseException | None = None
        try:
            resp_head = redact_response({"status": response.status_code,
                                         "headers": _headers(response.headers)})
            if record is not None:
                rec = _open_recorder(record, sent, resp_head)
            yield Head(response.status_code, resp_head["headers"], sent)
            encoded = response.headers.get("content-encoding", "identity").lower() not in ("", "identity")
            # aiter_raw: the bytes exactly as they came off the socket (de-chunked by h11, nothing else).
            # If the server compressed anyway, decode (aiter_bytes) so the stream stays readable.
            chunks = (response.aiter_bytes() if encoded else response.aiter_raw()).__aiter__()
            while True:
                try:
                    data = await chunks.__anext__()
                except StopAsyncIteration:
                    end = End(now(), "eof")
                    break
                except httpx.ReadTimeout:
                    end = End(now(), "timeout", f"no bytes for {timeout:g} s (--timeout)")
                    break
                except (httpx.HTTPError, OSError) as e:
                    end = End(now(), "reset", describe_error(e, req.url))
                    break
                except asyncio.CancelledError as e:
                    cancelled = e
                    end = End(now(), "cancelled", "cancelled by the user")
                    break
                t = now()
                if not data:
                    continue
                if rec is not None:
                    rec = _record(rec, rec.chunk, t, data)
                yield Chunk(t, data)
            if rec is not None:
                rec = _record(rec, rec.write_end, end)
            yield end
            if cancelled is not None:
                raise cancelled
        finally:
            if rec is not None:
                try:
                    rec.close(now())
                except OSError:
                    pass
            try:
                await response.aclose()
            except Exception:  # noqa: BLE001 (closing a broken connection may fail again; nothing to add)
                pass


def _headers(h: httpx.Headers) -> dict:
    """Response headers as ``{lower-case name: value}``; repeated names keep every value (a list)."""
    out: dict = {}
    for k, v in h.multi_items():
        if k in out:
            out[k] = (out[k] if isinstance(out[k], list) else [out[k]]) + [v]
        else:
            out[k] = v
    return out


def _open_recorder(record, sent: dict, response: dict) -> Recorder | None:
    """A ``Recorder``, or None (and one line on stderr) when the file cannot be written: the stream goes on."""
    try:
        return Recorder(record, sent, response)
    except OSError as e:
        print(f"stream-inspector: cannot record to {record}: {e.strerror or e}", file=sys.stderr)
        return None


def _record(rec: Recorder, write, *args) -> Recorder | None:
    """Write one record; on a write error (disk full...) say so once and stop recording."""
    try:
        write(*args)
        return rec
    except OSError as e:
        print(f"stream-inspector: recording to {rec.path} stopped: {e.strerror or e}", file=sys.stderr)
        rec.abandon()
        return None


def _record_failure(record, sent: dict, end: End) -> None:
    """A request that never got a response still leaves a capture saying why (``response: null``)."""
    if record is None:
        return
    try:
        with Recorder(record, sent, None) as rec:
            rec.write_end(end)
    except OSError as e:
        print(f"stream-inspector: cannot write {record}: {e.strerror or e}", file=sys.stderr)


# ----------------------------------------------------------------------------------------- CLI
def load_request(path: str) -> dict:
    """Read ``--request REQ.json``; raises ``LiveError`` with one line."""
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise LiveError(f"{path}: no such file") from None
    except OSError as e:
        raise LiveError(f"{path}: cannot read: {e.strerror or e}") from None
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        raise LiveError(f"{path}: not JSON: {e}") from None
    if not isinstance(body, dict):
        raise LiveError(f"{path}: the request must be a JSON object")
    return body


def _check_writable(path: str) -> None:
    p = Path(path)
    if p.is_dir():
        raise LiveError(f"--record {path}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise LiveError(f"--record {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise LiveError(f"--record {path}: not writable")


@dataclass(slots=True)
class Sink:
    """Feeds a ``Session`` from a source (what the headless modes do; the TUI does the same)."""

    dialect: str | None = None
    stall_s: float = 10.0
    session: object = None
    head: Head | None = None
    end: End | None = None

    def take(self, item: SourceItem) -> None:
        from inspector.feeds.run import session_for

        if isinstance(item, Head):
            self.head = item
            response = {"status": item.status, "headers": item.headers} if item.status is not None else None
            self.session = session_for(Capture(request=item.request, response=response, request_relative=True),
                                       dialect=self.dialect, stall_s=self.stall_s)
        elif isinstance(item, Chunk):
            self.session.feed(item)
        elif isinstance(item, End):
            self.end = item
            if self.session is not None:
                self.session.close(item)

    def cancel(self) -> None:
        """Close an unfinished session as cancelled (the source was stopped without an ``End``)."""
        if self.session is not None and not self.session.closed:
            t = self.session.last_byte_t
            self.end = End(t, "cancelled", "cancelled by the user")
            self.session.close(self.end)

    @property
    def connected(self) -> bool:
        return self.head is not None and self.head.status is not None


async def consume(source: AsyncIterator[SourceItem], sink: Sink) -> Sink:
    """Drain ``source`` into ``sink``; a cancellation closes the session as ``cancelled`` and returns."""
    try:
        async for item in source:
            sink.take(item)
    except asyncio.CancelledError:
        sink.cancel()
    return sink


def cmd_live(args) -> int:
    """``stream-inspector live``: see the module docstring. Exit 0 clean, 1 errors found, 2 no stream.

    ``--compare-eager`` is ``inspector.net.eager.run_compare_eager`` (two requests, one comparison).
    """
    if getattr(args, "compare_eager", False):
        from inspector.net.eager import run_compare_eager

        return run_compare_eager(args)
    try:
        body = load_request(args.request)
        req = prepare(args.provider, body, base_url=args.base_url)
        if args.record is not None:
            _check_writable(args.record)
    except LiveError as e:
        print(f"stream-inspector: live: {e}", file=sys.stderr)
        return EXIT_USAGE
    sources = [live_source(args.provider, req.body, timeout=args.timeout, record=args.record, prepared=req)]
    labels = [req.label]
    if args.format == "tui":
        return _run_tui(args, sources, labels)
    return _run_headless(args, sources, labels)


def _run_headless(args, sources, labels) -> int:
    from inspector.report import json as json_report, text as text_report
    from inspector.model.catalog import severity_rank

    sinks = [Sink(dialect=args.dialect, stall_s=args.stall) for _ in sources]

    async def main():
        await asyncio.gather(*(consume(src, sink) for src, sink in zip(sources, sinks)))

    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # a second Ctrl+C: close what we have
        for sink in sinks:
            sink.cancel()
    renderer = json_report if args.format == "json" else text_report
    code = EXIT_OK
    for label, sink in zip(labels, sinks):
        if not sink.connected:
            err = sink.end.error if sink.end else "no response"
            print(f"stream-inspector: live: {err}", file=sys.stderr)
            code = EXIT_USAGE
            continue
        out = renderer.render(label, sink.session)
        if out:
            print(out, flush=True)
        if code == EXIT_OK and any(severity_rank(f.severity) >= severity_rank("error") for f in sink.session.findings):
            code = EXIT_FINDINGS
    return code


def _run_tui(args, sources, labels) -> int:
    """The inspector TUI (``inspector.tui.app.make_app``) over one ``LiveFeed`` per request.

    The feeds get the source iterators themselves, not factories: a live request is never re-sent
    by a restart key (it would cost a second call and overwrite the recording).
    """
    try:
        from inspector.tui.app import make_app
        from inspector.feeds.live import LiveFeed
    except ImportError:
        print("stream-inspector: live: the TUI is not available in this build; use --format json or text",
              file=sys.stderr)
        return EXIT_USAGE
    feeds = [LiveFeed(src, label=label, dialect=args.dialect, stall_s=args.stall)
             for src, label in zip(sources, labels)]
    title = "live: " + " | ".join(labels)
    try:
        app = make_app(*feeds, title=title, theme=args.theme)
    except ValueError as e:  # unknown theme
        print(f"stream-inspector: live: {str(e).splitlines()[0]}", file=sys.stderr)
        return EXIT_USAGE
    result = app.run()
    return result if isinstance(result, int) else EXIT_OK
