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
from collections.abc import AsyncIterator, Iterator, Mapping
from urllib.parse import urlsplit

import httpx
import orjson

from inspector.providers import PROVIDERS
from inspector.providers.record import Provider
from inspector.model.capture import Chunk, End, Head, SourceItem
from inspector.capture.recorder import Recorder, redact_request, redact_response
from inspector.capture.redact import redact_url, remember_headers, remember_query_secrets
from inspector.net import sigv4
from inspector.net.limits import StreamLimits
from inspector.net.proxy.decode import ContentDecoder, DecodeError, DecodeLimit, NotDecodable, decoder_for

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


def join_url(base: str, path: str) -> str:
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
            headers: dict | None = None, env: Mapping[str, str] | None = None) -> LiveRequest:
    """Build the URL, headers and body for ``provider`` with streaming switched on.

    ``body`` is not modified; the provider folder's ``prepare`` (``inspector.providers``) switches
    streaming on, fills the path and sets its auth headers. The key comes from ``api_key`` or the
    provider's env var; it is required unless the base URL is local (``is_local_host``).
    Raises ``LiveError``.
    """
    if env is None:
        env = os.environ
    p = PROVIDERS.get(provider)
    if p is None:
        raise LiveError(f"unknown provider {provider!r} (known: {', '.join(PROVIDERS)})")
    if not isinstance(body, dict):
        raise LiveError("the request must be a JSON object (the provider's request body)")
    aws = p.endpoint.aws_service
    region = sigv4.region(env) if aws else None
    if aws and not base_url and not region:
        raise LiveError("no AWS region: set AWS_REGION (or a region in the AWS profile, or --base-url)")
    base = base_url or p.endpoint.default_base.format(region=region)
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise LiveError(f"--base-url must be an http:// or https:// URL, got {redact_url(base)!r}")
    local = is_local_host(parts.hostname)
    key_env = p.endpoint.key_env
    key = api_key if api_key is not None else (env.get(key_env) if key_env else None)
    if key_env and not key and not local and not aws:
        raise LiveError(f"no API key: set {key_env} (or point --base-url at a local server)")
    try:
        body, path, auth = p.prepare(body, key or None)
    except ValueError as e:
        raise LiveError(str(e)) from None
    hdrs: dict[str, str] = {"content-type": "application/json", "accept": p.endpoint.accept,
                            # identity: the chunks we time and record are the bytes the stream is made of.
                            "accept-encoding": "identity", **auth}
    for k, v in (headers or {}).items():
        hdrs[str(k).lower()] = str(v)
    url = join_url(base, path)
    if aws and not key:
        hdrs = _aws_signed(url, hdrs, body, service=aws, region=region or "us-east-1", local=local, env=env,
                           key_env=key_env)
    remember_headers(hdrs)  # whatever the server echoes back, these values never reach a file or the screen
    remember_query_secrets(url)
    return LiveRequest(p, url, hdrs, body, local)


def _aws_signed(url: str, headers: dict, body: dict, *, service: str, region: str, local: bool,
                env: Mapping[str, str],
                key_env: str | None) -> dict:
    """``headers`` signed with SigV4 over the exact body ``live_source`` sends (``orjson.dumps``).

    No credentials: a local base URL goes unsigned (a mock such as ``serve`` needs none), anything
    else is a ``LiveError`` saying where credentials come from.
    """
    try:
        creds = sigv4.credentials(env)
    except sigv4.SigningError as e:
        if local:
            return headers
        raise LiveError(str(e)) from None
    if creds is None:
        if local:
            return headers
        alt = f", or a Bedrock API key in {key_env}" if key_env else ""
        raise LiveError("no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE)"
                        f"{alt}")
    return sigv4.sign("POST", url, headers, orjson.dumps(body), service=service, region=region, creds=creds)


def _host_port(url: str) -> str:
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    host = parts.hostname or "?"
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, its causes and contexts and the members of exception groups, each once."""
    seen = set()
    stack: list[BaseException | None] = [exc]
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
                      transport: httpx.AsyncBaseTransport | None = None,
                      limits: StreamLimits | None = None) -> AsyncIterator[SourceItem]:
    """Send the request and yield ``Head``, ``Chunk``s, ``End`` as they arrive (see module docstring).

    ``timeout`` is the read timeout in seconds (no bytes for that long ends the stream with
    ``End(kind="timeout")``); connecting waits at most ``min(timeout, 30)`` s. ``record`` is a path
    for the native capture, written as the bytes arrive (``Recorder``). ``prepared`` skips
    ``prepare()`` (``cmd_live`` validates first, then streams). ``transport`` is for tests.
    ``limits`` (``--max-bytes``, ``--max-duration``; default: 64 MiB, no time limit): a body that
    passes one is cut there and ends ``cancelled`` with an error naming the limit.
    Raises ``LiveError`` only before sending (see ``prepare``).
    """
    req = prepared or prepare(provider, body, base_url=base_url, api_key=api_key, headers=headers)
    timeouts = httpx.Timeout(timeout, connect=min(timeout, 30.0))
    rec: Recorder | None = None
    t0 = time.monotonic()

    def now() -> float:
        # Microseconds, as the recording stores them: what is inspected is exactly what is recorded.
        return round(time.monotonic() - t0, 6)

    # trust_env off for local servers: a proxy from the environment must not intercept 127.0.0.1.
    async with httpx.AsyncClient(timeout=timeouts, trust_env=not req.local, transport=transport) as client:
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
            end = _unanswered(e, now(), req.url, timeout)
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
            # aiter_raw: the bytes exactly as they came off the socket (de-chunked by h11, nothing else).
            # If the server compressed anyway, decode here, bounded (a decompression bomb is cut, not inflated).
            limits = limits or StreamLimits()
            decoder = _body_decoder(response, limits)
            chunks = response.aiter_raw().__aiter__()
            received = 0
            while True:
                try:
                    if limits.max_duration is None:
                        data = await chunks.__anext__()
                    else:
                        data = await asyncio.wait_for(chunks.__anext__(), max(0.0, limits.max_duration - now()))
                    if decoder is not None:
                        data = decoder.decode(data)
                except (StopAsyncIteration, httpx.HTTPError, OSError, DecodeError) as e:  # TimeoutError is an OSError
                    end, tail = _at_end(decoder, _read_end(e, now(), limits, timeout=timeout, url=req.url))
                    if tail:
                        if rec is not None:
                            rec = _record(rec, rec.chunk, end.t, tail)
                        yield Chunk(end.t, tail)
                    break
                except asyncio.CancelledError as e:
                    cancelled = e
                    end = End(now(), "cancelled", "cancelled by the user")
                    break
                t = now()
                if not data:
                    continue
                received += len(data)
                if limits.max_bytes is not None and received > limits.max_bytes:
                    end = End(t, "cancelled", limits.bytes_reached(received - len(data)))
                    break
                if limits.max_duration is not None and t > limits.max_duration:
                    end = End(t, "cancelled", limits.duration_reached())
                    break
                if rec is not None:
                    rec = _record(rec, rec.chunk, t, data)
                yield Chunk(t, data)
            if rec is not None:
                rec = _record(rec, rec.write_end, end)
            yield end
            if cancelled is not None:
                raise cancelled
        finally:
            await _close(rec, response, now())


def _body_decoder(response: httpx.Response, limits: StreamLimits) -> ContentDecoder | None:
    """The decoder of the response's ``content-encoding``, bounded by ``limits.max_bytes``; None
    for an identity body or a coding nothing here decodes."""
    try:
        return decoder_for(response.headers.get("content-encoding", ""), max_bytes=limits.max_bytes)
    except NotDecodable:
        return None  # as httpx does with a coding it does not know: the bytes as they came


async def _close(rec: Recorder | None, response: httpx.Response, t: float) -> None:
    """Close the recording (at ``t`` s) and the response; neither failing to close adds anything."""
    if rec is not None:
        try:
            rec.close(t)
        except OSError:
            pass
    try:
        await response.aclose()
    except Exception:  # noqa: BLE001 (closing a broken connection may fail again; nothing to add)
        pass


def _unanswered(e: httpx.HTTPError | OSError, t: float, url: str, timeout: float) -> End:
    """The ``End`` at ``t`` s of a request that got no response head: ``timeout`` for a timeout
    (``--timeout`` named when the head did not come in time), else ``reset``."""
    kind = "timeout" if isinstance(e, httpx.TimeoutException) else "reset"
    error = describe_error(e, url)
    if isinstance(e, httpx.ReadTimeout):
        error = f"no response head within {timeout:g} s (--timeout)"
    return End(t, kind, error)


def _read_end(e: Exception, t: float, limits: StreamLimits, *, timeout: float, url: str) -> End:
    """The ``End`` at ``t`` s of a body whose next read raised ``e``: ``eof`` at its end (the
    decoder not yet flushed), ``timeout`` after ``timeout`` s of silence, ``cancelled`` at
    ``--max-duration`` or a decoding limit, ``reset`` for a transport or decoding error."""
    if isinstance(e, StopAsyncIteration):
        return End(t, "eof")
    if isinstance(e, httpx.ReadTimeout):
        return End(t, "timeout", f"no bytes for {timeout:g} s (--timeout)")
    if isinstance(e, asyncio.TimeoutError):  # only wait_for raises it here (--max-duration); before OSError, its base
        return End(t, "cancelled", limits.duration_reached())
    if isinstance(e, DecodeLimit):
        return End(t, "cancelled", f"cut: {e}")
    if isinstance(e, DecodeError):
        return End(t, "reset", f"content-encoding: cannot decode the body ({e})")
    return End(t, "reset", describe_error(e, url))


def _at_end(decoder: ContentDecoder | None, end: End) -> tuple[End, bytes]:
    """``(end, last bytes)`` once the body stopped with ``end``: at ``eof`` what the decoder still
    holds (or the ``End`` saying why it could not be had); any other end as it is, no bytes."""
    if end.kind != "eof":
        return end, b""
    tail = _flush(decoder, end)
    return (tail, b"") if isinstance(tail, End) else (end, tail)


def _flush(decoder: ContentDecoder | None, end: End) -> bytes | End:
    """What a decoder still holds at the end of the body (``b""`` without one), or the ``End`` that
    says why it could not be had (a bomb's last bytes, a corrupt end)."""
    if decoder is None:
        return b""
    try:
        return decoder.flush()
    except DecodeLimit as e:
        return End(end.t, "cancelled", f"cut: {e}")
    except DecodeError as e:
        return End(end.t, "reset", f"content-encoding: cannot decode the end of the body ({e})")


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


# ----------------------------------------------------------------------------------------- request files
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


def check_writable(path: str) -> None:
    """Raise ``LiveError`` unless ``--record PATH`` can be written."""
    p = Path(path)
    if p.is_dir():
        raise LiveError(f"--record {path}: is a directory")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise LiveError(f"--record {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise LiveError(f"--record {path}: not writable")
