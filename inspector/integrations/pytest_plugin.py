"""pytest plugin (entry point ``pytest11``, no conftest needed): streams a test used, linted.

- ``pytest --stream-inspector[=error|warning|info]``: every streamed interaction of every VCR
  cassette a test used (vcrpy's ``use_cassette``, pytest-recording's ``@pytest.mark.vcr``; what was
  played back and what was just recorded) is checked when the test body has run; findings at or
  above the level (default ``error``) fail the test, one line per finding naming the interaction
  (``cassettes/test_x.yaml#2``), the code and the event.
- the ``stream_inspector`` fixture: ``stream_inspector.client()`` / ``.async_client()`` are httpx
  clients that keep every response body as it arrived (pass one to an SDK as ``http_client=``);
  ``stream_inspector.check(x)`` checks ``x`` (an ``httpx.Response``, an SDK stream or response with
  a ``.response``, raw bytes) or, without ``x``, every response those clients received, and fails
  the test on findings at or above the level (``--stream-inspector``'s, else ``error``).

The cassettes are read from vcrpy's memory (``Cassette.data``: the same ``{request, response}``
shapes it writes), so a cassette being recorded is checked before vcrpy saves it.
"""
from __future__ import annotations

import sys
from types import ModuleType
from typing import Protocol, TypeGuard

import httpx
import pytest

from inspector.capture.cassette import interaction_capture, is_streamed_interaction
from inspector.capture.errors import CaptureError
from inspector.integrations.judge import Verdict, judge
from inspector.integrations.tee import AsyncTee, Received, Tee, head, streams
from inspector.model.capture import Capture, Chunk
from inspector.model.severity import SEVERITIES


class _Response(Protocol):
    """What is read of an httpx (or httpx2) ``Response``: the body and the request it answered."""

    content: bytes
    request: object
    """The client module's own ``Request`` (``tee.head`` reads its method, URL and headers)."""


def _is_response(obj: object, http: ModuleType) -> TypeGuard[_Response]:
    """``obj`` is a ``Response`` of the HTTP client module ``http`` (httpx, or a fork of it)."""
    return isinstance(obj, getattr(http, "Response", ()))


OPTION = "--stream-inspector"
_USED = pytest.StashKey[list]()
_current: list | None = None
"""The cassettes loaded since the running test's setup began (vcrpy's ``Cassette.load`` appends)."""


def pytest_addoption(parser) -> None:
    group = parser.getgroup("stream-inspector")
    # No ``choices``: argparse would reject ``--stream-inspector tests/`` (the path taken as the level)
    # before ``pytest_load_initial_conftests`` can tell the two apart; the level is checked in
    # ``pytest_configure``.
    group.addoption(OPTION, nargs="?", const="error", default=None, metavar="LEVEL",
                    help="fail a test on findings at or above LEVEL (error, warning, info; default error) in "
                         "the streamed interactions of the VCR cassettes it used")


def pytest_load_initial_conftests(early_config, parser, args: list[str]) -> None:
    """``--stream-inspector PATH``: the bare flag followed by a test path, not a level.

    ``nargs="?"`` makes argparse take the next word as the option's value; a word that is not a
    level is a path the user meant for pytest, so the flag is rewritten as ``--stream-inspector=error``
    in place (pytest parses this same list next)."""
    for i, word in enumerate(args[:-1]):
        if word == OPTION and args[i + 1] not in SEVERITIES and not args[i + 1].startswith("-"):
            args[i] = f"{OPTION}=error"


def pytest_configure(config) -> None:
    level = config.getoption(OPTION)
    if level is None:
        return
    if level not in SEVERITIES:
        raise pytest.UsageError(f"{OPTION}: unknown level {level!r} (choose from {', '.join(SEVERITIES)})")
    _watch_cassettes()


def _watch_cassettes() -> None:
    """Wrap vcrpy's ``Cassette.load`` (every ``use_cassette`` goes through it) to note each cassette."""
    try:
        from vcr.cassette import Cassette
    except ImportError:  # no vcrpy: no cassette to check
        return
    if getattr(Cassette.load, "_stream_inspector", False):
        return
    original = Cassette.load.__func__

    def load(cls, **kwargs):
        cassette = original(cls, **kwargs)
        if _current is not None:
            _current.append(cassette)
        return cassette

    load._stream_inspector = True  # type: ignore[attr-defined]  # a mark on the function: patched once
    Cassette.load = classmethod(load)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    global _current
    _current = item.stash.setdefault(_USED, [])
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    result = yield  # a test that failed already fails as it did
    level = item.config.getoption(OPTION)
    if level is not None:
        lines = [line for v in cassette_verdicts(item.stash.get(_USED, []), level) for line in v.lines()]
        if lines:
            pytest.fail(f"stream-inspector: {len(lines)} finding{'s' if len(lines) != 1 else ''} at or above "
                        f"{level} in the cassettes this test used:\n  " + "\n  ".join(lines), pytrace=False)
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    global _current
    try:
        return (yield)
    finally:
        _current = None


def cassette_verdicts(cassettes, level: str) -> list[Verdict]:
    """A ``Verdict`` per streamed interaction of each vcrpy ``Cassette`` (each cassette once)."""
    out, seen = [], set()
    for c in cassettes:
        path = str(getattr(c, "_path", "cassette"))
        if path in seen:
            continue
        seen.add(path)
        for i, (request, response) in enumerate(c.data):
            it = {"request": request._to_dict(), "response": response}
            if not is_streamed_interaction(it):
                continue
            try:
                cap = interaction_capture(i, it, path)
            except CaptureError as e:
                out.append(Verdict(f"{path}#{i}", None, [], str(e)))
                continue
            v = judge(f"{path}#{i}", cap, level)
            if v.over or v.problem:
                out.append(v)
    return out


# ------------------------------------------------------------------ the fixture
class StreamInspector:
    """The ``stream_inspector`` fixture (module docstring)."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.received: list[Received] = []
        """Every response the clients of this fixture received, in order."""

    def client(self, http=httpx, **kwargs):
        """A ``Client`` of ``http`` (the ``httpx`` module, or ``httpx2`` for the SDKs built on it: openai
        ≥ 3, anthropic ≥ 2) that keeps every response body as it arrives; ``kwargs`` go to the client."""
        inner = kwargs.pop("transport", None) or http.HTTPTransport()
        return http.Client(transport=Tee(inner, self, streams(http)[0]), **kwargs)

    def async_client(self, http=httpx, **kwargs):
        """``client`` for ``AsyncClient``."""
        inner = kwargs.pop("transport", None) or http.AsyncHTTPTransport()
        return http.AsyncClient(transport=AsyncTee(inner, self, streams(http)[1]), **kwargs)

    def check(self, source=None, *, level: str | None = None) -> list[Verdict]:
        """Check ``source`` (module docstring), or every response received; fail the test on findings
        at or above ``level`` (default: the fixture's). Returns every verdict, findings or not."""
        level = level or self.level
        caps = [self._capture(source)] if source is not None else [r.capture for r in self.received]
        verdicts = [judge(f"response {i}" if source is None else "response", cap, level) for i, cap in enumerate(caps)]
        lines = [line for v in verdicts for line in v.lines()]
        if lines:
            pytest.fail(f"stream-inspector: {len(lines)} finding{'s' if len(lines) != 1 else ''} at or above {level}:"
                        "\n  " + "\n  ".join(lines), pytrace=False)
        return verdicts

    def _capture(self, source) -> Capture:
        if isinstance(source, (bytes, bytearray)):
            return Capture(chunks=[Chunk(None, bytes(source))])
        response = getattr(source, "response", source)  # an SDK stream or raw response wraps httpx's
        for r in self.received:
            if r.response is response:
                return r.capture
        http = sys.modules.get(type(response).__module__.partition(".")[0])
        if http is None or not _is_response(response, http):
            raise TypeError(f"stream_inspector.check takes an httpx/httpx2 Response, an SDK stream or bytes, "
                            f"not {type(source).__name__}")
        try:
            body = response.content
        except http.ResponseNotRead:
            pytest.fail("stream-inspector: this response was streamed and its body is gone; make the request "
                        "with stream_inspector.client() so the body is kept as it arrives", pytrace=False)
        cap = head(response.request, response)
        cap.chunks = [Chunk(None, body)]
        return cap


@pytest.fixture()
def stream_inspector(request) -> StreamInspector:
    """Check streams the test made itself (module docstring)."""
    return StreamInspector(request.config.getoption(OPTION) or "error")
