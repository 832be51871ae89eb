"""``serve`` over a WebSocket: the Responses API's WebSocket mode answered from captures.

Why: a client of ``wss://…/v1/responses`` (openai-python ``client.responses.connect()``, openai-agents
``responses_websocket_session()``) sends ``{"type": "response.create", …}`` on one socket and reads
that response's events, one per message, then sends the next (PROTOCOLS.md §8). ``serve`` answers
such a client on the same port and path as its HTTP clients, from:

- a WebSocket capture (README "WebSocket captures"): its responses as ``check`` cuts them
  (``inspector.capture.websocket.exchanges``, ``Served.responses``), each answering one
  ``response.create``, its server messages sent as recorded (text stays text);
- an SSE (or NDJSON) capture of the same events: each event's data one text message (no ``[DONE]``,
  no comments: a socket has neither), the same events on another carrier.

``serve --mutate`` works on both: event-level faults edit the events before they become messages,
and the faults of the carrier become the socket's own: ``reset`` drops the connection mid-call
without a close frame (the client sees 1006), ``stall`` holds the next message back. A recorded
socket that closed mid-response with a code closes so again; one that ended normally (1000/1001)
stays open until the client closes it.

Each ``response.create`` takes the next answer: from the capture its path names (``/NAME/…``: that
capture's responses in order, per socket), else the next of all captures' answers in turn (as HTTP
requests take the captures in turn). Other client messages get no answer. Times are seconds from the
``response.create``'s arrival (``--speed``, ``--instant``; a mutation's pauses kept under ``--instant``).

Imports: ``inspector.net.serve`` (the provider it shares its captures and settings with),
``inspector.capture.websocket``, ``inspector.framing``, ``inspector.model``.
"""
from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from inspector.capture.websocket import CREATE, TERMINAL, message_type
from inspector.framing import choose_decoder
from inspector.model.capture import NORMAL_CLOSE_CODES, Capture, End
from inspector.model.frames import Frame

if TYPE_CHECKING:  # serve.py mounts this module's app: no import back at run time
    from inspector.net.serve import MockProvider, Served

ABRUPT = ("reset", "timeout", "cancelled")
"""End kinds that drop the connection: a socket has no other way to break mid-message."""


@dataclass(slots=True)
class Answer:
    """One response to play on a socket: its messages (``(t, data)``: seconds from the ``response.create``),
    pauses (``{message index: seconds}`` kept under ``--instant``), and how it ends."""

    served: Served
    index: int
    """Which response of the capture (0, 1, …)."""
    messages: list[tuple[float | None, bytes]] = field(default_factory=list)
    pauses: dict[int, float] = field(default_factory=dict)
    end: End | None = None

    @property
    def complete(self) -> bool:
        """A terminal event (``response.completed``…) was among the messages."""
        return any(message_type(data)[0] in TERMINAL for _, data in self.messages)

    def closing(self) -> tuple[str, int | None] | None:
        """What the socket does after the last message: None (stays open), ``("drop", None)`` (no close
        frame: 1006 for the client) or ``("close", code)`` (None: a close frame without a code)."""
        end = self.end
        if end is None or end.kind == "eof":
            return None
        if end.kind == "close":
            if end.code in NORMAL_CLOSE_CODES:
                return None  # the recorded socket ended normally: the client closes it
            return ("drop", None) if end.code == 1006 else ("close", end.code)
        if end.kind in ABRUPT and not self.complete:
            return ("drop", None)
        return None


def answers_of(served: Served) -> list[Answer]:
    """The responses ``served`` answers ``response.create`` with (module docstring)."""
    if served.responses is not None:  # a recorded socket, as recorded
        return [Answer(served, i, [(c.t, c.data) for c in ex.chunks], {}, ex.end) for i, ex in
                enumerate(served.responses)]
    return [_events_answer(served, served.capture)]


def _events_answer(served: Served, cap: Capture) -> Answer:
    """An HTTP stream's events as messages, one per event (chunk ``i``'s pause before its first one)."""
    headers = (cap.response or {}).get("headers") or {}
    ctype = next((str(v).lower() for k, v in headers.items() if str(k).lower() == "content-type"), "")
    decoder = choose_decoder(ctype, cap.body.lstrip(b"\xef\xbb\xbf \t\r\n")[:1])
    answer = Answer(served, 0, end=cap.end)
    for i, chunk in enumerate(cap.chunks):
        if i in served.pauses:
            answer.pauses[len(answer.messages)] = answer.pauses.get(len(answer.messages), 0.0) + served.pauses[i]
        _add_frames(answer, decoder.feed(chunk.data, chunk.t))
    _add_frames(answer, decoder.close(cap.end.t if cap.end else None))
    return answer


def _add_frames(answer: Answer, items: list) -> None:
    for it in items:
        if isinstance(it, Frame) and it.data.strip() and it.data.strip() != "[DONE]":
            answer.messages.append((it.t, it.data.encode("utf-8")))


class SocketAnswers:
    """The ASGI app for ``websocket`` scopes of ``serve``: plays an answer per ``response.create``.

    Shares ``provider``'s captures, ``speed``, ``instant`` and ``log``. ``answered``: answers played
    in full so far.
    """

    def __init__(self, provider: MockProvider) -> None:
        self.provider = provider
        self._answers: dict[str, list[Answer]] = {}
        self._rotation = itertools.count()
        self.answered = 0
        self._played: dict[str, set[int]] = {}
        """Per capture, the answers played in full so far (any socket)."""
        self._told: set[str] = set()

    def answers(self, served: Served) -> list[Answer]:
        got = self._answers.get(served.name)
        if got is None:
            got = self._answers[served.name] = answers_of(served)
        return got

    def next_answer(self, path: str, per_socket: dict[str, int]) -> Answer | None:
        """The answer to the next ``response.create`` on a socket opened at ``path`` (module docstring)."""
        provider = self.provider
        first = path.lstrip("/").split("/", 1)[0]
        if first in provider.by_name:
            answers = self.answers(provider.by_name[first])
            k = per_socket.get(first, 0)
            per_socket[first] = k + 1
            return answers[k % len(answers)] if answers else None
        flat = [a for s in provider.served for a in self.answers(s)]
        return flat[next(self._rotation) % len(flat)] if flat else None

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "websocket" or (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        path = scope.get("path", "/")
        per_socket: dict[str, int] = {}
        gone = asyncio.Event()
        creates: asyncio.Queue[float] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def listen() -> None:
            while True:
                msg = await receive()
                if msg["type"] == "websocket.disconnect":
                    gone.set()
                    return
                data = msg.get("text")
                raw = data.encode("utf-8") if data is not None else msg.get("bytes") or b""
                if message_type(raw)[0] == CREATE:
                    creates.put_nowait(loop.time())

        listener = asyncio.create_task(listen())
        try:
            while not gone.is_set():
                waiter = asyncio.create_task(creates.get())
                stopper = asyncio.create_task(gone.wait())
                done, _ = await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                stopper.cancel()
                if waiter not in done:
                    waiter.cancel()
                    return
                answer = self.next_answer(path, per_socket)
                if answer is None:
                    return
                outcome, keep_open = await self._play(answer, waiter.result(), send, gone)
                self._log(path, answer, outcome)
                if not keep_open:
                    return
        except asyncio.CancelledError:  # the server is stopping
            return
        finally:
            listener.cancel()
            self._tell_answered()

    def _tell_answered(self) -> None:
        """Once a socket has ended, tell the provider of each capture whose answers have all been played
        (``serve`` without ``--loop`` stops when every capture was answered: never under an open socket)."""
        for name, played in self._played.items():
            served = self.provider.by_name.get(name)
            if served is not None and name not in self._told and len(played) >= len(self.answers(served)):
                self._told.add(name)
                self.provider.answered(served, f"{len(played)} responses over a WebSocket")

    async def _play(self, answer: Answer, start: float, send, gone: asyncio.Event) -> tuple[str, bool]:
        """Send ``answer``'s messages on time; returns (what happened, whether the socket stays open)."""
        loop = asyncio.get_running_loop()
        provider = self.provider
        sent = 0
        for i, (t, data) in enumerate(answer.messages):
            if provider.instant and i in answer.pauses and not await _wait(gone, answer.pauses[i]):
                return f"client left after {sent} messages", False
            if not provider.instant and t is not None:
                if not await _wait(gone, start + t / provider.speed - loop.time()):
                    return f"client left after {sent} messages", False
            if gone.is_set():
                return f"client left after {sent} messages", False
            try:
                await send({"type": "websocket.send", "text": data.decode("utf-8")})
            except UnicodeDecodeError:
                await send({"type": "websocket.send", "bytes": data})
            sent += 1
        closing = answer.closing()
        end = answer.end
        if closing is not None and end is not None and end.t is not None and not provider.instant:
            if not await _wait(gone, start + end.t / provider.speed - loop.time()):
                return f"client left after {sent} messages", False
        self._played.setdefault(answer.served.name, set()).add(answer.index)
        if closing is None:
            self.answered += 1
            return f"{sent} messages", True
        kind, code = closing
        if kind == "drop":
            return f"{sent} messages, connection dropped (no close frame: 1006)", False
        # code None: uvicorn's websockets protocol sends a close frame without a code.
        await send({"type": "websocket.close", "code": code, "reason": (end.error if end else None) or ""})
        return f"{sent} messages, closed {code if code is not None else '(no code)'}", False

    def _log(self, path: str, answer: Answer, outcome: str) -> None:
        log = self.provider.log
        if log is not None:
            log(f"WS {path} -> {answer.served.name} response {answer.index} ({outcome})")


async def _wait(gone: asyncio.Event, seconds: float) -> bool:
    """Sleep ``seconds`` (nothing when <= 0); False if the client left meanwhile."""
    if gone.is_set():
        return False
    if seconds <= 0:
        return True
    try:
        await asyncio.wait_for(gone.wait(), timeout=seconds)
    except asyncio.TimeoutError:
        return True
    return False
