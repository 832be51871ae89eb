"""Starting the proxy: in a background thread (tests, the TUI, the bench) or in the foreground (headless).

Both wire the same parts: an ``ExchangeLog`` with a ``Reports`` listener, a ``LoopSink`` in
front of it and the ``ProxyEndpoint`` feeding that sink, served by uvicorn (``inspector.net.servers``).
Headless, inspection runs on the server's own loop, in slices between forwarding steps (``sink``:
fairness); under the TUI on the TUI's loop (``external=True``).

Imports: ``endpoint``, ``log``, ``reports``, ``routes``, ``sink``, ``inspector.net.servers``. Never the TUI.
"""
from __future__ import annotations

import os
import socket
import time

from inspector.net.proxy.collect import IdleCollector
from inspector.net.proxy.endpoint import ProxyEndpoint, make_asgi_app
from inspector.feeds.exchanges.log import ExchangeLog
from inspector.net.proxy.reports import EndLines, Reports
from inspector.net.proxy.routes import Routes
from inspector.net.proxy.sink import LoopSink
from inspector.net.proxy.wstap import websocket_relay
from inspector.feeds.exchanges.record import KEEP, KEEP_BYTES
from inspector.net.limits import StreamLimits
from inspector.net.servers import QUIET_ABORTS, BackgroundServer, RequestLimits, uvicorn_server


def wire(upstream: str | Routes, reports: Reports, *, timeout: float, record_dir: str | os.PathLike | None,
         dialect: str | None, stall_s: float, auto_attach: bool = True, keep: int = KEEP,
         keep_bytes: int = KEEP_BYTES, limits: StreamLimits | None = None,
         rows: int | None = None) -> tuple[ExchangeLog, LoopSink, ProxyEndpoint]:
    """The parts of one proxy: the log (``reports`` listening; ``keep``/``keep_bytes``/``rows``: what it
    holds in memory), the sink in front of it, the endpoint feeding the sink (``limits``: ``--max-bytes``,
    ``--max-duration``). ``upstream``: one URL, or ``Routes``. Raises ``ValueError`` for a bad upstream URL."""
    log = ExchangeLog(dialect=dialect, stall_s=stall_s, keep=keep, keep_bytes=keep_bytes, rows=rows)
    log.listeners.append(reports)
    sink = LoopSink(log, auto_attach=auto_attach)
    return log, sink, ProxyEndpoint(upstream, sink, timeout=timeout, record_dir=record_dir, limits=limits)


def run_foreground(upstream: str | Routes, sock: socket.socket, reports: Reports, *, timeout: float,
                   record_dir: str | os.PathLike | None, dialect: str | None, stall_s: float,
                   listeners: tuple = (), keep: int = KEEP, keep_bytes: int = KEEP_BYTES,
                   limits: StreamLimits | None = None, log_line=None, requests: RequestLimits | None = None) -> int:
    """Serve on the listening ``sock`` in this thread until Ctrl+C, SIGTERM or SIGHUP (inspection on the
    server's own loop; full garbage collections only between streams: ``collect.IdleCollector``); closes
    ``sock``. ``listeners``: more exchange-log listeners (e.g.
    OpenTelemetry spans); ``log_line``: called with one line per exchange that ended abnormally;
    ``requests``: what one request may take (``--header-timeout``, ``--max-request-bytes``).
    Returns ``reports.worst`` (0, or 1 after an error finding)."""
    # rows=0: nothing shows a list here; a released exchange's report was printed when it ended.
    log, sink, endpoint = wire(upstream, reports, timeout=timeout, record_dir=record_dir, dialect=dialect,
                               stall_s=stall_s, keep=keep, keep_bytes=keep_bytes, limits=limits, rows=0)
    endpoint.log = log_line
    if log_line is not None:
        log.listeners.append(EndLines(log_line))
    log.listeners.extend(listeners)
    collector = IdleCollector(lambda: log.running)
    log.listeners.append(collector)
    server = uvicorn_server(make_asgi_app(endpoint, websocket_relay(endpoint)), graceful=2.0, date_header=False,
                            log_filter=QUIET_ABORTS, requests=requests, websockets=True, lifespan=True,
                            fast_http=True, returns_on_signal=True)
    collector.start()
    try:
        server.run(sockets=[sock])  # returns on Ctrl+C, SIGTERM, SIGHUP (``stopsignals``): the cleanup below runs
    except KeyboardInterrupt:  # a second Ctrl+C (uvicorn's forced exit), or one before the loop ran
        pass
    finally:
        sock.close()
        collector.stop()
        sink.run_left()  # the loop is gone: the steps it had still queued (a stream's end) are taken now
        log.close()  # verdicts still waiting for an end that never came are given now
    return reports.worst


class ProxyThread(BackgroundServer):
    """The proxy in a background thread on loopback (tests, the TUI, the bench).

    ``ProxyThread(upstream).start()``; ``.url`` is ``http://127.0.0.1:PORT``; ``.log`` is the
    ``ExchangeLog`` (inspection runs on the proxy's loop, or with ``external=True`` on whichever
    loop calls ``.sink.attach(loop)``, e.g. the TUI's); ``.reports`` collects each exchange's JSON report when it ends
    (``wait_reports(n)``), or prints them when given ``reports`` (a ``Reports`` with an ``out``).
    ``upstream`` is one URL or ``Routes``; ``rows``: released exchanges that keep their row in
    ``.log.exchanges`` (None: all, for a list; the headless ``run`` keeps none). Raises ``OSError``
    (bind), ``RuntimeError`` (not started in 10 s), ``ValueError`` (bad upstream URL).
    """

    label = "proxy"
    date_header = False  # pass the upstream's head through; add nothing of our own
    websockets = True
    lifespan = True  # the endpoint's upstream connections are closed when the server stops
    fast_http = True  # httptools: the relay's per-chunk writes (servers._FastHttp)

    def __init__(self, upstream: str | Routes, *, host: str = "127.0.0.1", port: int = 0, timeout: float = 600.0,
                 record_dir: str | os.PathLike | None = None, dialect: str | None = None, stall_s: float = 10.0,
                 collect: bool = True, sock: socket.socket | None = None, external: bool = False,
                 reports: Reports | None = None, keep: int = KEEP, keep_bytes: int = KEEP_BYTES,
                 limits: StreamLimits | None = None, requests: RequestLimits | None = None,
                 rows: int | None = None) -> None:
        self.reports_listener = reports if reports is not None else Reports(collect=collect)
        self.log, self.sink, self.endpoint = wire(upstream, self.reports_listener, timeout=timeout,
                                                  record_dir=record_dir, dialect=dialect, stall_s=stall_s,
                                                  auto_attach=not external, keep=keep, keep_bytes=keep_bytes,
                                                  limits=limits, rows=rows)
        self.relay = websocket_relay(self.endpoint)
        """The WebSocket side (``wsrelay``): upgrades on the same port, each response on a socket an exchange."""
        super().__init__(make_asgi_app(self.endpoint, self.relay), host, port, sock, requests=requests)

    def stop(self) -> None:
        """Stop serving; then, with inspection on its own loop (not ``external``) and that loop's thread
        gone, take the inspection steps still queued (``LoopSink.run_left``) and give the verdicts still
        waiting for an end that never came (``ExchangeLog.close``)."""
        super().stop()
        if self.sink.auto_attach and (self._thread is None or not self._thread.is_alive()):
            self.sink.run_left()  # the steps its loop had still queued when it ended (a stream's end)
            self.log.close()

    @property
    def reports(self) -> list[dict]:
        return self.reports_listener.collected

    def wait_reports(self, n: int, timeout: float = 10.0) -> list[dict]:
        """Block until ``n`` exchanges have ended (their reports collected); raises ``TimeoutError``."""
        deadline = time.monotonic() + timeout
        with self.log.changed:
            while len(self.reports) < n:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"{len(self.reports)} of {n} exchanges ended within {timeout} s")
                self.log.changed.wait(min(left, 0.1))
        return list(self.reports)
