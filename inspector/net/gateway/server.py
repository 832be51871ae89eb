"""Starting the gateway's two taps: background threads forwarding, inspection on one loop.

:class:`GatewayTaps` builds two ``ProxyThread``\\ s with ``external=True``: they forward on their own
threads and post every inspection step to whichever loop ``attach`` names, so both exchange logs
and the :class:`~inspector.compare.hops.PairLog` live on that one loop (the TUI's, or the one
``run_foreground`` runs): no locks, one order of events. ``tick`` is called every ``TICK_S`` there
so that an exchange with no other side is decided once its grace has passed.
"""
from __future__ import annotations

import asyncio
import os
import signal
import socket
import threading

from inspector.compare.hops import PairLog, PairReports
from inspector.net.gateway.record import PairRecorder, staging_dirs
from inspector.net.proxy.server import ProxyThread
from inspector.model.stopsignals import stop_signals, took

TICK_S = 0.25


class GatewayTaps:
    """The front tap (→ ``gateway_url``) and the back tap (→ ``upstream``), and their pair log.

    ``front_sock``/``back_sock``: listening sockets already bound (the CLI binds them to report a
    busy port); else free ports on ``host``. ``.front.url`` / ``.back.url`` once started. Raises
    ``ValueError`` (a bad URL), ``OSError`` (bind), ``RuntimeError`` (a tap did not start).
    """

    def __init__(self, gateway_url: str, upstream: str, *, host: str = "127.0.0.1",
                 front_sock: socket.socket | None = None, back_sock: socket.socket | None = None,
                 timeout: float = 600.0, record_dir: str | os.PathLike | None = None, dialect: str | None = None,
                 stall_s: float = 10.0, late_s: float = 1.0, grace: float = 0.5) -> None:
        front_dir = back_dir = None
        if record_dir is not None:
            front_dir, back_dir = staging_dirs(str(record_dir))
        def tap(url: str, folder: str | None, sock: socket.socket | None) -> ProxyThread:
            return ProxyThread(url, record_dir=folder, sock=sock, host=host, timeout=timeout, dialect=dialect,
                               stall_s=stall_s, collect=False, external=True)

        self.front = tap(gateway_url, front_dir, front_sock)
        self.back = tap(upstream, back_dir, back_sock)
        self.front.label, self.back.label = "gateway front tap", "gateway back tap"
        self.pairs = PairLog(self.front.log, self.back.log, grace=grace, late_s=late_s)
        if record_dir is not None:
            self.pairs.listeners.append(PairRecorder(str(record_dir)))
        self._ticker: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Inspect on ``loop`` (call from the thread running it)."""
        self._loop = loop
        self.front.sink.attach(loop, threading.get_ident())
        self.back.sink.attach(loop, threading.get_ident())
        self._ticker = loop.call_later(TICK_S, self._tick)

    def _tick(self) -> None:
        self.pairs.tick()
        if self._loop is not None and not self._loop.is_closed():
            self._ticker = self._loop.call_later(TICK_S, self._tick)

    def start(self) -> "GatewayTaps":
        self.back.start()
        try:
            self.front.start()
        except BaseException:
            self.back.stop()
            raise
        return self

    def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
        self.front.stop()
        self.back.stop()


def run_foreground(taps: GatewayTaps, reports: PairReports, *, ready=None) -> int:
    """Run the taps until Ctrl+C, SIGTERM or SIGHUP (``stopsignals``: a SIGTERM or SIGHUP is handed to
    ``took``, the command ends by it), inspecting on a loop in this thread; print one report per pair.
    Exchanges still undecided at the end (streams the taps cut, fronts within their grace) are
    decided then. Returns ``reports.worst``."""
    taps.pairs.listeners.append(reports)
    loop = asyncio.new_event_loop()
    stop = asyncio.Event()
    signals = stop_signals() if threading.current_thread() is threading.main_thread() else ()
    previous = {s: signal.getsignal(s) for s in signals}

    def interrupted(signum: int) -> None:
        # A stop signal between two steps of the loop, never in the middle of a report being written;
        # a second Ctrl+C interrupts at once (the default handler is back).
        if signum != signal.SIGINT:
            took(signum)
        stop.set()
        if signum == signal.SIGINT:
            loop.remove_signal_handler(signal.SIGINT)

    try:
        for s in signals:
            loop.add_signal_handler(s, interrupted, s)
        taps.attach(loop)
        taps.start()
        if ready is not None:
            ready()
        try:
            loop.run_until_complete(stop.wait())
        except KeyboardInterrupt:
            pass
        taps.stop()
        loop.run_until_complete(asyncio.sleep(0))  # the last steps the taps posted
        for _ in range(3):
            loop.run_until_complete(asyncio.sleep(0.01))
        taps.front.sink.run_left()  # what is still queued, in order (this thread runs their loop)
        taps.back.sink.run_left()
        taps.front.log.close()  # verdicts still waiting for an end that never came (ExchangeLog.close)
        taps.back.log.close()
        taps.pairs.flush()
    finally:
        loop.close()  # removes its signal handlers: the ones found before are put back
        for s, handler in previous.items():
            if handler is not None:
                signal.signal(s, handler)
    return reports.worst
