"""``serve --match DIR --record-missing --upstream URL``: a request no recording matches is forwarded,
recorded into ``DIR`` and answered with the upstream's stream; later the same request is served
from the new recording.

Reuses the proxy (``inspector.net.proxy``): its endpoint forwards, relays chunk by chunk and
records with the same redaction as ``proxy --record`` (``NNN-METHOD-path.jsonl``, numbered on
after the files already in ``DIR``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from inspector.capture.load import CaptureError, load_path
from inspector.model.capture import End
from inspector.net.proxy.reports import Reports
from inspector.net.proxy.server import wire
from inspector.net.replay.recordings import Index


class Forwarder:
    """``await forwarder(scope, body, receive, send)`` answers one ASGI request from ``upstream``
    (the body already read). Raises ``ValueError`` for an upstream that is not an http(s) URL."""

    def __init__(self, upstream: str, folder: str | Path, index: Index, *, timeout: float = 600.0,
                 log: Callable[[str], None] | None = None) -> None:
        self.index = index
        self.log = log
        _, _, self.endpoint = wire(upstream, Reports(collect=False), timeout=timeout, record_dir=folder,
                                   dialect=None, stall_s=10.0)
        self.endpoint.log = log
        self.endpoint.on_recorded = self._recorded
        self.recorded: list[str] = []
        """Paths of the recordings added so far."""

    async def __call__(self, scope, body: bytes, receive, send) -> None:
        given = False

        async def replay():
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.endpoint(scope, replay, send)

    def _recorded(self, path: str, end: End) -> None:
        """A forwarded exchange is on disk: serve it from now on (unless the client or the server
        stopped it: a cut-off recording would answer the same request cut off forever)."""
        name = Path(path).name
        if end.kind == "cancelled":
            self._say(f"  {name}: recorded, not served (cancelled: {end.error})")
            return
        try:
            cap = load_path(path)
        except CaptureError as e:
            self._say(f"  {name}: recorded but unreadable ({e}); not served")
            return
        rec = self.index.add(cap, Path(path).stem, path)
        if rec is not None:
            self.recorded.append(path)
            self._say(f"  recorded {name} (turn {rec.turn}); served from the folder from now on")

    def _say(self, line: str) -> None:
        if self.log is not None:
            self.log(line)
