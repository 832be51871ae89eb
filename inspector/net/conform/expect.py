"""The mock provider of ``serve --mutate … --expect-next``: serves mutated streams and grades what follows.

Each mutation is one conversation: a request is answered with the next mutated stream; the
request that follows it is graded against that stream (``verdict.grade``) and answered with a
short clean text answer in the same dialect (``Conformance.closing``), so an agent loop ends
there; the request after that starts the next mutated stream. When no request follows a mutated
stream within ``next_timeout`` seconds of its end, or the request that comes continues no answer
(a new conversation: ``verdict.starts_anew``), the verdict is ``crashed`` and that request starts
the next mutated stream (a client that crashed is simply run again). Requests
after the last verdict get the closing answer. ``on_verdict`` is called for each verdict, and
``on_finished`` once every mutated stream has one.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable

from inspector.capture.redact import remember_headers
from inspector.model.capture import Capture, Chunk
from inspector.net.conform.mutate import MutatedCapture
from inspector.net.conform.verdict import Verdict, crashed, grade, starts_anew
from inspector.net.serve import MockProvider, Served, load_served
from inspector.providers.conformers import CONFORMANCE


class ExpectNextProvider(MockProvider):
    """``MockProvider`` whose answers follow the mutated streams in order (module docstring)."""

    def __init__(self, variants: list[tuple[Served, MutatedCapture]], *, next_timeout: float = 30.0,
                 on_verdict: Callable[[Verdict], None] | None = None,
                 on_finished: Callable[[list[Verdict]], None] | None = None, **kw) -> None:
        if not variants:
            raise ValueError("nothing to serve")
        closing = {}
        for _, mc in variants:
            if mc.provider not in closing:
                name = f"closing-{mc.provider}"
                cap = load_served([(name, _closing_capture(mc))])[0]
                closing[mc.provider] = cap
        super().__init__([s for s, _ in variants] + list(closing.values()), **kw)
        self.variants = variants
        self.closing = closing
        self.next_timeout = next_timeout
        self.on_verdict = on_verdict
        self.on_finished = on_finished
        self.verdicts: list[Verdict] = []
        self._k = 0
        self._pending: tuple[int, bytes] | None = None
        """``(variant position, the request it answered)`` awaiting the next request."""
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def finished(self) -> bool:
        return len(self.verdicts) == len(self.variants)

    @property
    def waiting(self) -> bool:
        """A mutated stream was answered and its next request has not come yet."""
        return self._pending is not None

    def choose(self, scope, body: bytes) -> Served:
        remember_headers(scope.get("headers"))  # the client's credentials: masked wherever they are quoted
        if self._pending is not None:
            k, first = self._pending
            self._pending = None
            self._cancel_timer()
            _, mc = self.variants[k]
            if not starts_anew(first, body):
                self._record(grade(mc, first, body))
                return self.closing[mc.provider]
            # It continues nothing: the client dropped that stream's conversation and began another.
            self._record(crashed(mc, "no next request: the client began a new conversation instead"))
        if self._k < len(self.variants):
            served, mc = self.variants[self._k]
            self._pending = (self._k, body)
            self._k += 1
            return served
        return self.closing[self.variants[-1][1].provider]

    def answered(self, served: Served, outcome: str) -> None:
        self._loop = asyncio.get_running_loop()
        if self._pending is not None and self.variants[self._pending[0]][0] is served:
            self._cancel_timer()
            k = self._pending[0]
            self._timer = asyncio.get_running_loop().call_later(self.next_timeout, self._timed_out, k)

    def give_up(self, detail: str, outcome: str = "crashed") -> None:
        """No next request will come (the client process ended): the pending verdict is ``outcome``
        (``crashed``, ``dropped`` after a clean exit, ``hung`` after a stop)."""
        if self._pending is not None:
            k, _ = self._pending
            self._pending = None
            self._cancel_timer()
            self._record(crashed(self.variants[k][1], detail, outcome))

    def give_up_threadsafe(self, detail: str, outcome: str = "crashed") -> None:
        """``give_up`` from another thread (the server runs in its own)."""
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self.give_up, detail, outcome)

    def _timed_out(self, k: int) -> None:
        if self._pending is not None and self._pending[0] == k:
            self._pending = None
            self._timer = None
            self._record(crashed(self.variants[k][1], f"no next request within {self.next_timeout:g} s"))

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _record(self, verdict: Verdict) -> None:
        self.verdicts.append(verdict)
        if self.on_verdict is not None:
            self.on_verdict(verdict)
        if self.finished and self.on_finished is not None:
            self.on_finished(self.verdicts)
            self.on_finished = None


def _closing_capture(mc: MutatedCapture) -> Capture:
    """The closing answer as a capture, with the mutated capture's content type."""
    headers = (mc.capture.response or {}).get("headers") or {}
    ctype = next((str(v) for k, v in headers.items() if str(k).lower() == "content-type"), "") or \
        ("application/x-ndjson" if mc.capture.source_format == "ndjson" else "text/event-stream")
    return Capture(chunks=[Chunk(0.0, CONFORMANCE[mc.provider].closing())],
                   response={"status": 200, "headers": {"content-type": ctype}},
                   source_format=mc.capture.source_format, request_relative=True)
