"""The ``serve --match`` endpoint: each request answered with the recording it matches, or a 4xx
that says which recording came closest and where the request departs from it.

A miss is never answered with some other recording: the client gets HTTP 400 in its provider's
own error shape (``inspector.providers.errors``), and the log gets the same line. With a
``Forwarder`` (``--record-missing``), a miss is forwarded and recorded instead.
"""
from __future__ import annotations

import asyncio
from typing import Callable

import orjson

from inspector.model.capture import Capture, Chunk, End
from inspector.model.jsondepth import loads as json_loads
from inspector.net.replay.forward import Forwarder
from inspector.net.replay.match import DEFAULT_IGNORE, Ignore
from inspector.net.replay.recordings import Hit, Index, Miss, load_folder
from inspector.net.replay.targets import mutate_recordings, parse_targeted
from inspector.net.serve import MockProvider, Served, asgi_app, read_body
from inspector.net.servers import BackgroundServer
from inspector.providers.endpoints import api_of
from inspector.providers.errors import error_answer

MISS_STATUS = 400


def miss_line(method: str, path: str, miss: Miss) -> str:
    """``no recording matches POST /v1/chat/completions; closest 003-… (turn 3): $.messages[4].content: …``."""
    if miss.closest is None:
        return f"no recording matches {method} {path}: {miss.why}"
    return (f"no recording matches {method} {path}; closest {miss.closest.name} (turn {miss.closest.turn}) "
            f"departs at {miss.why}")


class MatchProvider(MockProvider):
    """``MockProvider`` answering by request content (module docstring).

    ``mutated``: ``{recording name: Served}`` answered instead of that recording (``targets``);
    ``forward``: a ``Forwarder`` for misses, or None to answer them 400. ``on_all_served``: called
    once every recording was answered in full at least once.
    """

    def __init__(self, index: Index, *, mutated: dict[str, Served] | None = None, forward: Forwarder | None = None,
                 speed: float = 1.0, instant: bool = False, log: Callable[[str], None] | None = None,
                 on_all_served: Callable[[], None] | None = None) -> None:
        super().__init__([r.served for r in index.recordings], speed=speed, instant=instant, log=log,
                         on_all_served=on_all_served, allow_empty=True)
        self.index = index
        self.mutated = dict(mutated or {})
        self.forward = forward
        self.misses: list[str] = []
        """One line per request no recording matched (what the client and the log were told)."""
        self._recording_of: dict[str, str] = {}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            return
        start = asyncio.get_running_loop().time()
        self.requests += 1
        body = await read_body(receive)
        if body is None:
            return
        method, path = scope.get("method", "GET"), scope.get("path", "/")
        try:
            parsed = json_loads(body) if body else None  # bounded depth (S019): the ignore walk recurses
        except orjson.JSONDecodeError:
            parsed = body.decode("utf-8", "replace")
        found = self.index.find(method, path, parsed)
        if isinstance(found, Hit):
            rec = found.recording
            served = self.mutated.get(rec.name, rec.served)
            self._recording_of[served.name] = rec.name
            await self.respond(scope, served, receive, send, start)
            return
        line = miss_line(method, path, found)
        self.misses.append(line)
        if self.forward is not None:
            if self.log:
                self.log(f"{line}: forwarding upstream (--record-missing)")
            await self.forward(scope, body, receive, send)
            return
        dialect = api_of(path) or (found.closest.api if found.closest else None)
        headers, payload = error_answer(dialect, f"stream-inspector serve --match: {line}", MISS_STATUS)
        answer = Capture(chunks=[Chunk(0.0, payload)], response={"status": MISS_STATUS}, end=End(0.0, "eof"))
        if self.log:  # logged before the 400 is sent: whoever reads the error can already find it in the log
            self.log(line)
        await self.respond(scope, Served("(no match)", "", answer, MISS_STATUS, headers), receive, send, start)

    def answered(self, served: Served, outcome: str) -> None:
        """Counts recordings answered in full (a mutated one counts for its recording; a miss not at all)."""
        name = self._recording_of.get(served.name)
        if name is None or "client left" in outcome or "aborted" in outcome:
            return
        self._done.add(name)
        if self.on_all_served is not None and len(self._done) >= len(self.index.recordings):
            self.on_all_served()
            self.on_all_served = None


def match_provider(folder, *, ignore=(), mutate: str | None = None, upstream: str | None = None,
                   speed: float = 1.0, instant: bool = False, log: Callable[[str], None] | None = None,
                   on_all_served: Callable[[], None] | None = None, max_bytes: int | None = None,
                   timeout: float = 600.0) -> tuple[MatchProvider, list[str]]:
    """``(provider, notes)`` for ``serve --match folder``: ``ignore`` adds ignore paths to
    ``DEFAULT_IGNORE``; ``mutate`` is ``--mutate`` (``NAME[=V][@TARGET],…``); ``upstream`` turns on
    ``--record-missing``. Raises ``CaptureError`` (folder), ``IgnoreError`` (a path),
    ``MutateError`` (a spec), ``ValueError`` (upstream URL, or nothing to serve without an upstream)."""
    matcher = Ignore((*DEFAULT_IGNORE, *ignore))
    recordings, notes = load_folder(folder, matcher, max_bytes=max_bytes)
    if not recordings and upstream is None:
        raise ValueError(f"{folder}: no recording with its request in this folder "
                         "(give --record-missing --upstream URL to record one)")
    mutated: dict[str, Served] = {}
    if mutate:
        mutated, more = mutate_recordings(recordings, parse_targeted(mutate))
        notes += more
    index = Index(recordings, matcher)
    forward = Forwarder(upstream, folder, index, timeout=timeout, log=log) if upstream else None
    provider = MatchProvider(index, mutated=mutated, forward=forward, speed=speed, instant=instant, log=log,
                             on_all_served=on_all_served)
    return provider, notes


class MatchServerThread(BackgroundServer):
    """``serve --match`` in a background thread on loopback (tests): ``MatchServerThread(folder,
    **match_provider keywords)``; ``.provider``, ``.notes``, ``.url``. Raises what ``match_provider``
    raises, ``OSError`` (bind), ``RuntimeError`` (not started within 10 s)."""

    label = "mock provider (--match)"

    def __init__(self, folder, host: str = "127.0.0.1", port: int = 0, **kw) -> None:
        self.provider, self.notes = match_provider(folder, **kw)
        super().__init__(asgi_app(self.provider), host, port)
