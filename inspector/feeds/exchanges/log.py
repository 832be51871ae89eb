"""The exchange log: the exchanges seen so far, their sessions and the Q-rule history checks.

Single-threaded: every call runs on one event loop (``sink.LoopSink`` puts it there), after the
forwarding step that produced it. It decides which responses are linted (``exchange.should_lint``),
feeds each linted response's chunks to its ``Session``, runs the Q rules on each request and tells
listeners (the JSON/text printers, the TUI, tests) when an exchange begins, moves and ends.

Request history (RULES.md section Q): a request that carries history is checked with
:func:`inspector.session.history.check_request` against the exchange whose answer it continues
(:func:`pairing.continued_exchange`: by the evidence the answer left in the history, never by
recency). When none matches only the history-only rules are kept (Q001, Q002, Q005: Q003 would
call every id unknown), and a history that continues some answer (an assistant turn, a tool
result) gets one Q007 saying it was judged against nothing. **The Q findings belong to the new
exchange's report** (the request is what is wrong, and the earlier report has already been
printed); each message starts with ``vs exchange #K (how it was matched)``, ``t`` is 0 (they are
known when the request arrives) and ``index`` is the block index in exchange K's response. They
come first in the exchange's session, before what its stream gets.

A verdict waits for the answers the request may continue. An SDK sends its next request as soon
as it has read ``[DONE]``, and the relay hands the previous exchange's end to this log after that
(``inspector.net.proxy.sink``), so the answer the history repeats may still be open here when the
request begins. Such a request is judged once the earlier exchanges on its path that were open
and streaming when it began, and whose answer it may continue (``pairing.answers_in_question``:
what they had streamed shows in its history, or they began its conversation; all of them when
only an earlier turn shows an answer), have ended here (``finish``), against the answers ended by then
(the verdict the calls in order give: Q006 where it is due, Q007 only where no answer matches).
Another agent's stream, however long, holds nothing back. Its own end waits for its verdict (an exchange is
reported once, with its Q findings); ``close`` gives every verdict still waiting with what is
there (the proxy stopped before the earlier end came).

Imports: ``record``, ``pairing``, ``inspector.feeds.run`` and the session's Q rules.
"""
from __future__ import annotations

import collections
import sys
import threading
from typing import Callable

from inspector.feeds.exchanges.pairing import answers_in_question, claims_an_answer, continued_exchange
from inspector.feeds.exchanges.record import BODY_EXCERPT, KEEP, KEEP_BYTES, Exchange, should_lint
from inspector.feeds.base import Driver, Settings
from inspector.feeds.run import session_for
from inspector.model.capture import Capture, Chunk, End, Head
from inspector.session.history import check_request, has_history

REQUEST_BODY_KEEP = 1024 * 1024
"""A request body larger than this is dropped from memory once its exchange has ended (the Q rules
read it when the request arrived; the recording keeps it)."""

HISTORY_ONLY_RULES = frozenset({"Q001", "Q002", "Q005"})
"""Q rules that judge the request alone; the others need the streamed answer it continues."""

UNMATCHED = ("the history continues an answer that no earlier exchange of this session streamed (a "
             "conversation begun before the proxy, another agent's, or assistant turns the client wrote "
             "itself): judged against nothing")
"""Q007's message: the request's history matches no earlier answer (``pairing.continued_exchange``)."""


def _content_type(headers: dict) -> str:
    for k, v in headers.items():
        if str(k).lower() == "content-type":
            return (v[0] if isinstance(v, list) else str(v)).lower()
    return ""


class ExchangeLog:
    """The exchanges seen so far and their sessions. Single-threaded: every call on one loop.

    Listeners are callables ``f(event, exchange)`` with ``event`` one of ``"begin"``, ``"update"``
    (head or body bytes arrived, or a verdict that waited: module docstring), ``"end"``,
    ``"release"``, ``"forget"``.

    Memory is bounded (issue 17): after each end, the oldest ended exchanges are released
    (``Exchange.release``: session, events and bodies dropped, a summary kept for the list; the
    recording, when there is one, keeps everything) until at most ``keep`` ended exchanges and at
    most ``keep_bytes`` of their bodies are held; a request body over ``REQUEST_BODY_KEEP`` is
    dropped as soon as its exchange ends. Exchanges still streaming are never released (``--max-bytes``
    bounds them). Listeners hear ``"end"`` before anything is released.

    ``rows``: how many released exchanges keep their row (None: all, for the TUI's list). Beyond
    it the oldest are forgotten: gone from ``exchanges`` and ``by_n``, listeners hear ``"forget"``.
    The headless proxy keeps none (issue 24 item 7: each released row still held ~2 KB, its
    request, headers and summary, so memory grew with every exchange for as long as it ran).
    """

    def __init__(self, *, dialect: str | None = None, stall_s: float = 10.0, keep: int = KEEP,
                 keep_bytes: int = KEEP_BYTES, rows: int | None = None) -> None:
        self.dialect = dialect
        self.keep = keep
        self.keep_bytes = keep_bytes
        self.rows = rows
        self._open = 0
        self._held: collections.deque[Exchange] = collections.deque()
        """Ended exchanges not released yet, oldest first."""
        self._rows: collections.deque[Exchange] = collections.deque()
        """Released exchanges still listed, oldest first (only counted when ``rows`` bounds them)."""
        self.stall_s = stall_s
        self.settings = Settings(dialect, stall_s)
        self._drivers: dict[int, Driver] = {}
        """The driver feeding each exchange still in flight."""
        self.exchanges: list[Exchange] = []
        self.by_n: dict[int, Exchange] = {}
        self.listeners: list[Callable[[str, Exchange], None]] = []
        self.changed = threading.Condition()
        """Notified after every end, once the log is bounded again (tests wait on it from another thread)."""
        self.keep_tapes = False
        """Keep each exchange's response as relayed (``Exchange.tape``), so a viewer can save it
        (until the exchange is released)."""
        self._waiting: dict[int, tuple[Exchange, set[int]]] = {}
        """Requests whose history verdict waits (module docstring), oldest first: the exchange and the
        numbers of the earlier exchanges whose end it still waits for."""
        self._ends_due: dict[int, End] = {}
        """The ends of waiting exchanges, taken once their verdict is given."""

    @property
    def running(self) -> int:
        """Exchanges whose response is still being fed (begun, not ended)."""
        return self._open

    def _emit(self, event: str, ex: Exchange) -> None:
        for fn in list(self.listeners):
            try:
                fn(event, ex)
            except Exception as e:  # noqa: BLE001 - a broken listener must not stop the proxy
                print(f"stream-inspector: proxy: listener failed: {type(e).__name__}: {e}", file=sys.stderr)

    # ---- fed by the endpoint (through a LoopSink)
    def begin(self, ex: Exchange) -> None:
        self._open += 1
        self.exchanges.append(ex)
        self.by_n[ex.n] = ex
        try:
            waits = self._answers_open(ex)
        except Exception:  # noqa: BLE001 - an odd body: judged at once, where the failure is said
            waits = set()
        if waits:
            self._waiting[ex.n] = (ex, waits)
        else:
            self._check_history(ex)
        self._emit("begin", ex)

    def head(self, n: int, status: int, headers: dict) -> None:
        ex = self.by_n[n]
        ex.status = status
        ex.response_headers = headers
        ex.content_type = _content_type(headers)
        ex.linted = should_lint(ex) and ex.note is None
        response = {"status": status, "headers": headers}
        self._make_session(ex, response if ex.linted else None)
        self._emit("update", ex)

    def note(self, n: int, text: str) -> None:
        self.by_n[n].note = text

    def chunk(self, n: int, chunk: Chunk) -> None:
        ex = self.by_n[n]
        if ex.first_byte_t is None and chunk.data:
            ex.first_byte_t = chunk.t
        ex.bytes_received += len(chunk.data)
        if ex.linted:
            self._drivers[n].take(chunk)
        elif len(ex.body_excerpt) < BODY_EXCERPT:
            ex.body_excerpt += chunk.data[: BODY_EXCERPT - len(ex.body_excerpt)]
        self._emit("update", ex)

    def finish(self, n: int, end: End) -> None:
        if n in self._waiting:  # ends once its verdict is given (module docstring)
            self._ends_due[n] = end
            return
        self._settle(due=((n, end),))

    def close(self) -> None:
        """The source stopped (the proxy shut down): give every verdict still waiting with the answers
        that have ended, oldest first, and end the exchanges that waited for theirs. The log stays
        usable: an end taken later is an end like any other."""
        while self._waiting:
            n = next(iter(self._waiting))
            ex, _ = self._waiting.pop(n)
            self._settle(ready=(ex,))

    def _settle(self, due: tuple[tuple[int, End], ...] = (), ready: tuple[Exchange, ...] = ()) -> None:
        """Take the ends ``due`` and give the verdicts ``ready``, then whatever they unblock, in order: a
        verdict given lets its exchange's end be taken, an end taken may give verdicts waiting for it."""
        due_, ready_ = list(due), list(ready)
        while due_ or ready_:
            if ready_:
                ex = ready_.pop(0)
                self._check_history(ex, late=True)
                end = self._ends_due.pop(ex.n, None)
                if end is not None:
                    due_.append((ex.n, end))
                continue
            n, end = due_.pop(0)
            try:
                self._end(n, end)
            except Exception as e:  # noqa: BLE001 - a broken end must not leave the verdicts waiting for it
                print(f"stream-inspector: proxy: inspection failed: {type(e).__name__}: {e}", file=sys.stderr)
            ready_.extend(self._unblocked(n))
        with self.changed:
            self.changed.notify_all()

    def _unblocked(self, ended: int) -> list[Exchange]:
        """The waiting requests that waited for exchange ``ended`` alone, now ready for their verdict."""
        ready = []
        for n, (ex, waits) in list(self._waiting.items()):
            waits.discard(ended)
            if not waits:
                del self._waiting[n]
                ready.append(ex)
        return ready

    def _end(self, n: int, end: End) -> None:
        ex = self.by_n[n]
        self._open -= 1
        if ex.session is None:  # no response at all: the fault is the whole story
            ex.linted = True
            self._make_session(ex, None)
        ex.end = end
        if ex.linted:
            self._drivers.pop(n).take(end)
        else:
            self._drivers.pop(n, None)
            if end.kind != "eof":
                detail = f": {end.error}" if end.error else ""
                ex.held_session.report_at("S012", f"transport ended abnormally ({end.kind}){detail}",
                                     event=None, line=None, t=end.t)
            ex.held_session.close_unjudged(end)
        self._emit("end", ex)
        self._bound(ex)

    def _bound(self, ended: Exchange) -> None:
        """Release the oldest ended exchanges beyond ``keep`` and ``keep_bytes`` (class docstring)."""
        if ended.request_bytes > REQUEST_BODY_KEEP:
            ended.drop_request_body()
        held = self._held
        held.append(ended)
        total = sum(e.held_bytes for e in held)
        while held and (len(held) > self.keep or total > self.keep_bytes):
            old = held.popleft()
            total -= old.held_bytes
            old.release()
            self._emit("release", old)
            if self.rows is not None:
                self._rows.append(old)
        while self.rows is not None and len(self._rows) > self.rows:
            self._forget(self._rows.popleft())

    def _forget(self, ex: Exchange) -> None:
        """Drop a released exchange's row: nothing of it stays in the log."""
        self.exchanges.remove(ex)  # near the front: the oldest go first
        self.by_n.pop(ex.n, None)
        self._emit("forget", ex)

    # ---- helpers
    def _make_session(self, ex: Exchange, response: dict | None) -> None:
        driver = self._drivers[ex.n] = Driver(self.settings, keep=self.keep_tapes)
        if response is not None:
            driver.take(Head(response["status"], response["headers"], ex.request))
        else:
            driver.take(Head(None, {}, ex.request))
        ex.session = driver.session
        ex.tape = driver.tape
        ex.generation += 1
        ex.session.findings[:0] = ex.q_findings  # first: known before the first byte (module docstring)

    def previous_for(self, ex: Exchange) -> tuple[Exchange | None, str]:
        """The exchange whose answer ``ex``'s request continues, and how it was matched (a response on a
        WebSocket: the one its socket says, ``Exchange.socket_continues``, while its session is held)."""
        if ex.socket_continues is not None:
            n, how = ex.socket_continues
            prev = self.by_n.get(n)
            if prev is not None and prev.session is not None:
                return prev, how
        return continued_exchange(ex, self.exchanges)

    def _answers_open(self, ex: Exchange) -> set[int]:
        """Numbers of the exchanges ``ex``'s verdict waits for (module docstring): before it on its
        path, open, their response head taken and linted (an answer whose head the client had not
        got cannot be the one it sends back: the head is handed over before the first byte is
        relayed; an answer that is not linted is never judged against), and that its history may
        continue (``pairing.answers_in_question``). Empty when its history continues no answer (a
        first request: no Q007 to give), or its socket names the answer."""
        if ex.socket_continues is not None:
            return set()
        by_n = self.by_n
        open_ = [by_n[n] for n in self._drivers if n < ex.n and by_n[n].path == ex.path and by_n[n].linted]
        if not open_ or not claims_an_answer(ex.body):
            return set()
        return {e.n for e in answers_in_question(ex, open_, self.exchanges)}

    def _check_history(self, ex: Exchange, late: bool = False) -> None:
        """Give ``ex``'s history verdict (``ex.q_findings``); ``late``: after its session began, so
        the findings go in first and viewers read it again (``generation``)."""
        try:
            found = self._verdict(ex)
        except Exception as e:  # noqa: BLE001 - Q rules never crash the proxy
            print(f"stream-inspector: proxy: history check failed on exchange {ex.n}: {e}", file=sys.stderr)
            return
        if found is None:
            return
        ex.q_findings = found
        if late:
            if ex.session is not None and found:
                ex.session.findings[:0] = found
                ex.generation += 1
            self._emit("update", ex)

    def _verdict(self, ex: Exchange) -> list | None:
        """The Q findings of ``ex``'s request (None: it carries no history)."""
        if not isinstance(ex.body, dict) or not has_history(ex.body):
            return None
        prev, how = self.previous_for(ex)
        target = prev.held_session if prev is not None else session_for(Capture(), dialect=self.dialect)
        first = len(target.findings)
        check_request(target, ex.body)
        found = target.take_findings(first)  # the new exchange's report's (module docstring)
        if prev is None:
            found = [f for f in found if f.code in HISTORY_ONLY_RULES]
            if claims_an_answer(ex.body):
                target.report("Q007", UNMATCHED, event=False)
                found[:0] = target.take_findings(first)
        else:
            ex.continues, ex.continues_how = prev.n, how
            for f in found:
                f.message = f"vs exchange #{prev.n} ({how}): {f.message}"
        for f in found:
            f.event, f.line, f.t = None, None, 0.0
        return found
