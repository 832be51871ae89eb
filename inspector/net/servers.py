"""What the local servers (``serve``, ``proxy``) share: a listening socket, a quiet uvicorn, a thread.

Both are ASGI apps run by uvicorn on a socket bound before the server starts, so the printed URL
accepts connections at once; tests, ``demo`` and the TUI run them in a background thread.
"""
from __future__ import annotations

import ipaddress
import logging
import socket
import sys
import threading
import time
import uvicorn


def bind_socket(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host:port`` (0 = a free port) and already listening, so a client that
    connects as soon as the address is printed waits in the backlog instead of being refused.
    Raises ``OSError``.

    Created with ``IPPROTO_TCP`` explicitly: asyncio disables Nagle's algorithm (``TCP_NODELAY``)
    only on sockets whose ``proto`` says TCP (``asyncio.base_events._set_nodelay``), and accepted
    connections inherit the listening socket's ``proto``. With ``proto=0`` every small write after
    the response head (each stream chunk) could wait for the client's delayed ACK, up to 40 ms.
    """
    infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP,
                               flags=socket.AI_PASSIVE)
    if not infos:
        raise OSError(f"cannot resolve {host}")
    family, _, proto, _, addr = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM, proto or socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(addr)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


def listen(host: str, port: int, what: str) -> socket.socket | None:
    """``bind_socket`` for a command: on failure print one line naming ``what`` and return None."""
    try:
        return bind_socket(host, port)
    except OSError as e:
        print(f"stream-inspector: {what}: cannot listen on {host}:{port}: {e.strerror or e}", file=sys.stderr)
        return None


def url_for(sock: socket.socket) -> str:
    """``http://HOST:PORT`` of a bound socket (IPv6 hosts in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback addresses (127.0.0.0/8, ::1)."""
    h = host.strip("[]").lower()
    if h == "localhost":
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


_QUIET = ("ASGI callable returned without completing response.",
          "Cancel ", "timeout graceful shutdown exceeded")
"""uvicorn log lines that describe what our servers do on purpose: ending a response early (a
recorded reset), and cancelling streams still running when the user stops the server."""


class QuietAbortFilter(logging.Filter):
    """Drops uvicorn's log lines for intentional aborts and for streams cut short at shutdown."""

    def filter(self, record: logging.LogRecord) -> bool:
        msg = record.getMessage()
        return not (msg == _QUIET[0] or (msg.startswith(_QUIET[1]) and _QUIET[2] in msg))


QUIET_ABORTS = QuietAbortFilter()


def uvicorn_server(app, *, graceful: float, date_header: bool = True, log_filter: logging.Filter | None = None):
    """A uvicorn ``Server`` for ``app`` that logs only warnings and adds no ``server`` header."""
    if log_filter is not None:
        logger = logging.getLogger("uvicorn.error")
        if log_filter not in logger.filters:
            logger.addFilter(log_filter)
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, http="h11",
                            loop="asyncio", ws="none", lifespan="off", server_header=False,
                            date_header=date_header,
                            timeout_graceful_shutdown=graceful)  # type: ignore[arg-type] (float works)
    return uvicorn.Server(config)


class BackgroundServer:
    """An ASGI app served by uvicorn in a daemon thread: ``start()``/``stop()`` or ``with``.

    Subclasses set ``app``, ``host``, ``port`` (0 = a free port) and may pass a ready ``_sock``;
    ``.url`` is known once started. Raises ``OSError`` (bind) and ``RuntimeError`` (not started
    within 10 s).
    """

    label = "server"
    date_header = True
    log_filter: logging.Filter | None = QUIET_ABORTS

    def __init__(self, app, host: str = "127.0.0.1", port: int = 0, sock: socket.socket | None = None) -> None:
        self.app = app
        self.host, self.port = host, port
        self._sock = sock
        self._server = None
        self._thread: threading.Thread | None = None
        self.url = url_for(sock) if sock is not None else ""
        """``http://HOST:PORT`` once started."""

    def start(self):
        if self._sock is None:
            self._sock = bind_socket(self.host, self.port)
            self.url = url_for(self._sock)
        self._server = uvicorn_server(self.app, graceful=0.5, date_header=self.date_header,
                                      log_filter=self.log_filter)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [self._sock]},
                                        name=f"{self.label} {self.url}", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.label} on {self.url} did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        if self._sock is not None:
            self._sock.close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
