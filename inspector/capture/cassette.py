"""VCR cassettes: the streamed interactions a test suite recorded (vcrpy, pytest-recording, Ruby VCR).

Why it exists: agent test suites record their provider calls with vcrpy or pytest-recording, and
those cassettes keep each streamed response body whole. Each streamed interaction becomes one
``Capture`` (``source_format`` ``"cassette"``), chosen like a HAR entry: ``entry`` is the 0-based
index in ``interactions`` (``cassette.yaml#3`` on the command line), several streams without one
raise ``SeveralStreams``, and :func:`cassette_streams` gives them all (what ``check`` walks).

Shapes read (vcrpy ``serializers/yamlserializer.py`` and ``jsonserializer.py``; pytest-recording
writes through vcrpy; Ruby VCR's ``http_interactions`` for the same data):

- the file: ``{"interactions": [...], "version": 1}`` as YAML or JSON (Ruby: ``http_interactions``);
- ``request``: ``method``, ``uri`` (Ruby: ``uri``), ``headers`` as ``{name: [values]}`` or
  ``{name: value}``, ``body`` a string, bytes (YAML ``!!binary``) or null (Ruby: ``{string}``);
- ``response``: ``status`` as ``{code, message}`` or a number, ``headers`` as the request's, and
  ``body.string`` (Ruby also ``body.base64_string``): text, or bytes when the body was not UTF-8
  (YAML ``!!binary``: a gzip body that vcrpy kept encoded). A body whose ``content-encoding`` is
  ``gzip``/``deflate`` is decoded here; the header is then dropped, as the body is stored decoded.

A cassette has no timing: every body is one untimed chunk. Secrets in headers and URLs are
redacted (``inspector.capture.redact``). YAML is read with a safe loader: vcrpy's Python tags
(``!!python/str``, ``!!python/tuple``, a pickled ``BytesIO`` body) become plain values, never objects.
"""
from __future__ import annotations

import base64
import binascii
import zlib

import orjson

from inspector.capture.errors import CaptureError, SeveralStreams, listing
from inspector.capture import memory
from inspector.capture.har import describe_exchange, is_streamed_response
from inspector.capture.redact import redact_headers, redact_url
from inspector.model.capture import Capture, Chunk
from inspector.model.jsondepth import loads as json_loads
from inspector.model.sizes import human_size

MAX_DECODED = 1 << 30
"""Decoded bytes of all the compressed bodies of one cassette (1 GiB, the capture size cap): a cassette
of many bodies, each under the cap, must not decode to many times it."""
MAX_RATIO = 200
"""A compressed body decodes to at most this many times its coded size (past ``RATIO_FLOOR``), as the
proxy bounds one (``inspector.net.proxy.decode``): a 1 MB cassette holding a gzip bomb is refused
before it fills memory, not after."""
RATIO_FLOOR = 1 << 20
"""Decoded bytes allowed whatever the ratio: a small, very repetitive body is not a bomb."""


_LOADER: list = []


def _yaml():
    """PyYAML and its loader, imported on the first cassette (start-up: YAML is a fifth of ``check``'s
    imports otherwise). The loader is safe YAML, plus vcrpy's Python tags read as the plain data under
    them (module docstring)."""
    import yaml
    if not _LOADER:
        class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]  # base chosen at run time
            pass

        _Loader.add_multi_constructor("tag:yaml.org,2002:python/", _plain)
        _Loader.add_constructor("tag:yaml.org,2002:int", _int)
        _LOADER.append(_Loader)
    return yaml, _LOADER[0]


MAX_INT_CHARS = 40
"""A YAML whole number written longer than this is kept as its text: Python cannot even print one of
more than 4 300 digits (``str()`` raises), and no field of a cassette holds one."""


def _int(loader, node):
    text = loader.construct_scalar(node)
    if isinstance(text, str) and len(text) > MAX_INT_CHARS:
        return text
    return loader.construct_yaml_int(node)


def _plain(loader, suffix, node):
    import yaml
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    data = loader.construct_mapping(node, deep=True)
    # A pickled BytesIO body (older vcrpy): ``state`` holds the buffer first.
    state = data.get("state")
    if suffix.endswith("BytesIO") and isinstance(state, (list, tuple)) and state:
        return state[0]
    return data


def read_interactions(raw: bytes, *, name: str) -> list:
    """The ``interactions`` list of a cassette. Raises ``CaptureError`` for YAML/JSON that does not
    parse or holds no interactions list."""
    if raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":
        memory.reserve_parse(raw, name)
        try:
            data = orjson.loads(raw.lstrip(b"\xef\xbb\xbf"))
        except orjson.JSONDecodeError as e:
            raise CaptureError(f"{name}: not a readable cassette: {str(e).splitlines()[0]}") from None
    else:
        data = _yaml_data(raw, name)
    if isinstance(data, dict):
        for key in ("interactions", "http_interactions"):
            if isinstance(data.get(key), list):
                return data[key]
    raise CaptureError(f"{name}: not a cassette (no interactions list)")


def _yaml_data(raw: bytes, name: str) -> object:
    memory.reserve_parse(raw, name, yaml=True)  # PyYAML: ~150 bytes of memory a byte of tiny items
    yaml, loader = _yaml()
    try:
        return yaml.load(raw, Loader=loader)  # noqa: S506 (a safe loader: see _yaml)
    except yaml.YAMLError as e:
        raise CaptureError(f"{name}: not a readable cassette: {str(e).splitlines()[0]}") from None


def cassette_streams(raw: bytes, *, name: str = "<input>") -> tuple[list[tuple[int, Capture]], int]:
    """Every streamed interaction of a cassette as ``(index, Capture)``, and how many interactions
    were not streamed (skipped). An interaction whose body cannot be decoded raises ``CaptureError``
    naming it."""
    interactions = read_interactions(raw, name=name)
    streams, left = [], MAX_DECODED
    for i, it in enumerate(interactions):
        if is_streamed_interaction(it):
            cap = interaction_capture(i, it, name, left=left)
            if _coded(it):  # the cap is on what decoding makes, not on bodies stored as they are
                left -= len(cap.body)
            streams.append((i, cap))
    return streams, len(interactions) - len(streams)


def load_cassette(raw: bytes, *, name: str = "<input>", entry: int | None = None) -> Capture:
    """One streamed interaction of a cassette (``entry``: its 0-based index in ``interactions``);
    without ``entry``, the only streamed one. Raises ``SeveralStreams`` listing them when there are
    several, ``CaptureError`` for no streamed interaction or an index out of range."""
    interactions = read_interactions(raw, name=name)
    if entry is not None:
        if not 0 <= entry < len(interactions):
            raise CaptureError(f"{name}: interaction {entry} is out of range (the cassette has "
                               f"{len(interactions)}, 0–{max(len(interactions) - 1, 0)})")
        return interaction_capture(entry, interactions[entry], name)
    cands = [i for i, it in enumerate(interactions) if is_streamed_interaction(it)]
    if not cands:
        raise CaptureError(f"{name}: no streamed response in the cassette ({len(interactions)} interactions, none "
                           "text/event-stream or NDJSON)")
    if len(cands) > 1:
        choices = [(i, _describe(i, interactions[i])) for i in cands]
        raise SeveralStreams(f"{name}: {len(cands)} streamed responses in the cassette:"
                             + listing([d for _, d in choices], sep="; ", start=" ")
                             + f"; pick one as {name}#N or with --entry N", choices)
    return interaction_capture(cands[0], interactions[cands[0]], name)


# ------------------------------------------------------------------ helpers
def _part(it, key: str) -> dict:
    part = it.get(key) if isinstance(it, dict) else None
    return part if isinstance(part, dict) else {}


def _headers(value) -> dict:
    """vcrpy ``{name: [values]}`` (or ``{name: value}``) -> ``{name: value}``, repeats as a list (the
    native capture's shape)."""
    out: dict = {}
    if not isinstance(value, dict):
        return out
    for k, v in value.items():
        vals = [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v)]
        if vals:
            out[str(k)] = vals[0] if len(vals) == 1 else vals
    return out


def _header(headers: dict, name: str) -> str:
    for k, v in headers.items():
        if k.lower() == name:
            return (v[-1] if isinstance(v, list) else v).lower()
    return ""


def _url(it) -> str:
    req = _part(it, "request")
    url = req.get("uri", req.get("url"))
    return url if isinstance(url, str) else ""


def _status(resp: dict) -> int | None:
    status = resp.get("status")
    code = status.get("code") if isinstance(status, dict) else status
    return code if isinstance(code, int) and not isinstance(code, bool) else None


def is_streamed_interaction(it) -> bool:
    """Whether one interaction (``{"request", "response"}`` as a cassette stores it) is a stream."""
    headers = _headers(_part(it, "response").get("headers"))
    return is_streamed_response(_header(headers, "content-type"), _url(it))


def _raw_body(body, *, name: str) -> bytes:
    """A body as stored: a string, bytes, null, or Ruby VCR's ``{string}``/``{base64_string}``."""
    if isinstance(body, dict):
        if isinstance(body.get("base64_string"), str):
            try:
                return base64.b64decode(body["base64_string"])
            except (binascii.Error, ValueError):
                raise CaptureError(f"{name}: body.base64_string is not valid base64") from None
        body = body.get("string")
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8", "surrogatepass")
    return b""


def _decoded(body: bytes, coding: str, *, name: str, left: int) -> bytes:
    """``body`` with its ``content-encoding`` undone (gzip RFC 1952, deflate RFC 1950 or raw 1951), bounded
    by ``MAX_RATIO`` and by ``left``, what the cassette's cap still allows. Raises ``CaptureError``."""
    if coding in ("gzip", "x-gzip"):
        wbits = 16 + zlib.MAX_WBITS
    elif coding == "deflate":
        wbits = zlib.MAX_WBITS if body[:1] == b"\x78" else -zlib.MAX_WBITS
    else:
        raise CaptureError(f"{name}: body is {coding}-encoded; only gzip and deflate are decoded "
                           "(record with vcrpy's decode_compressed_response=True)")
    by_ratio = max(RATIO_FLOOR, MAX_RATIO * len(body))
    limit = min(by_ratio, max(left, 0))
    d = zlib.decompressobj(wbits)
    try:
        out = d.decompress(body, limit + 1)  # one byte more than allowed tells "over" from "exactly"
    except zlib.error as e:
        raise CaptureError(f"{name}: {coding} body does not decode: {e}") from None
    if len(out) > limit:
        why = (f"{MAX_RATIO} times its {human_size(len(body))} coded bytes: a decompression bomb?" if limit == by_ratio
               else f"the cassette's decoded bodies are capped at {human_size(MAX_DECODED)} in all")
        raise CaptureError(f"{name}: {coding} body decodes to more than {human_size(limit)} ({why}); not read")
    return out


def _request(req: dict, name: str) -> dict | None:
    if not req:
        return None
    raw = _raw_body(req.get("body"), name=f"{name}: request")
    body: object = None
    if raw:
        try:
            body = json_loads(raw)  # bounded depth (S019): redaction and the V and Q rules walk it
        except orjson.JSONDecodeError:
            body = raw.decode("utf-8", "replace")
    return {"method": req.get("method"), "url": redact_url(_url({"request": req})),
            "headers": redact_headers(_headers(req.get("headers"))), "body": body}


def _coded(it) -> bool:
    """Whether interaction ``it``'s response body is stored compressed (``interaction_capture`` decodes it)."""
    coding = _header(_headers(_part(it, "response").get("headers")), "content-encoding")
    return bool(coding) and coding != "identity"


def interaction_capture(i: int, it, name: str, *, left: int | None = None) -> Capture:
    """Interaction ``i`` of cassette ``name`` (``{"request", "response"}`` as a cassette stores it,
    or as vcrpy holds it in memory) as a ``Capture``; ``left``: decoded bytes the cassette's cap still
    allows (default ``MAX_DECODED``). Raises ``CaptureError`` for a body that does not decode or
    decodes beyond its bounds."""
    where = f"{name}#{i}"
    if not isinstance(it, dict):
        raise CaptureError(f"{where}: interaction is not a mapping")
    resp = _part(it, "response")
    headers = _headers(resp.get("headers"))
    body = _raw_body(resp.get("body"), name=where)
    coding = _header(headers, "content-encoding")
    if coding and coding != "identity" and body:
        body = _decoded(body, coding, name=where, left=MAX_DECODED if left is None else left)
        headers = {k: v for k, v in headers.items() if k.lower() != "content-encoding"}
    cap = Capture(source_format="cassette", entry=_describe(i, it))
    cap.request = _request(_part(it, "request"), where)
    cap.response = {"status": _status(resp), "headers": redact_headers(headers)}
    cap.chunks = [Chunk(None, body)] if body else []
    if not body:
        cap.notes.append(f"{where}: the cassette kept no response body")
    return cap


def _describe(i: int, it) -> str:
    req, resp = _part(it, "request"), _part(it, "response")
    ctype = _header(_headers(resp.get("headers")), "content-type").split(";")[0].strip() or "?"
    try:
        size = len(_raw_body(resp.get("body"), name=""))
    except CaptureError:
        size = 0
    return describe_exchange(f"interaction {i}", req.get("method"), _url(it), _status(resp), ctype, size)
