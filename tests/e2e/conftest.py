"""Helpers for end-to-end tests: real HTTP on 127.0.0.1 only.

``RawServer`` is a deliberately misbehaving HTTP/1.1 server (plain sockets, one thread) so faults
can be produced exactly: a real TCP reset, a stall, a 529, a TLS client talking to plain HTTP.
``run_cli`` runs the command in-process; ``spawn`` runs it as a real process (signals).
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, SHARED_CORPUS

LOOPBACK = "127.0.0.1"
WAIT_S = 10.0
"""Upper bound for any wait in these tests (loops are bounded by it)."""


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``stream-inspector ARGV`` in-process: (exit code, stdout, stderr)."""
    from inspector.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def spawn(argv: list[str], env: dict | None = None) -> subprocess.Popen:
    """``python -m inspector ARGV`` as a child process (text pipes)."""
    full_env = {**os.environ, **(env or {})}
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        full_env.pop(k, None)
    return subprocess.Popen([sys.executable, "-m", "inspector", *argv], cwd=ROOT, env=full_env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(pred, what: str, timeout: float = WAIT_S):
    """Poll ``pred()`` until truthy (bounded); fail the test naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.02)
    pytest.fail(f"timed out waiting for {what}")


def write_request(tmp_path: Path, body: dict | None = None) -> str:
    p = tmp_path / "req.json"
    p.write_text(json.dumps(body or {"model": "m-test", "max_tokens": 64,
                                     "messages": [{"role": "user", "content": "hi"}]}))
    return str(p)


def sse_event(obj: dict) -> bytes:
    return f"event: {obj['type']}\ndata: {json.dumps(obj)}\n\n".encode()


ANTHROPIC_OPENING = [
    {"type": "message_start", "message": {"id": "msg_e2e", "type": "message", "role": "assistant",
                                          "model": "m-test", "content": [], "stop_reason": None,
                                          "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}},
    {"type": "content_block_start", "index": 0,
     "content_block": {"type": "tool_use", "id": "toolu_e2e", "name": "save", "input": {}}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"body\": \"par"}},
]
"""A tool call cut in the middle of its arguments (what faults interrupt)."""


class RawServer:
    """An HTTP/1.1 server on 127.0.0.1 whose ``behave(conn, request)`` does whatever the test needs.

    Runs in a daemon thread; every blocking call has a timeout; ``stop()`` ends it. ``requests``
    holds the raw request bytes received (head + body).
    """

    def __init__(self, behave) -> None:
        self.behave = behave
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((LOOPBACK, 0))
        self.sock.listen(8)
        self.sock.settimeout(0.1)
        self.port = self.sock.getsockname()[1]
        self.url = f"http://{LOOPBACK}:{self.port}"
        self.stopping = threading.Event()
        self.requests: list[bytes] = []
        self.errors: list[BaseException] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, socket.timeout):
                continue
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        conn.settimeout(WAIT_S)
        try:
            request = self._read_request(conn)
            self.requests.append(request)
            self.behave(self, conn, request)
        except OSError:
            pass
        except BaseException as e:  # surfaced by the tests that care
            self.errors.append(e)
        finally:
            with contextlib.suppress(OSError):
                conn.close()

    @staticmethod
    def _read_request(conn: socket.socket) -> bytes:
        data = b""
        while b"\r\n\r\n" not in data:
            part = conn.recv(65536)
            if not part or part[:1] == b"\x16":  # closed, or a TLS handshake: not HTTP, answer at once
                return data + part
            data += part
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value.strip())
        while len(body) < length:
            part = conn.recv(65536)
            if not part:
                break
            body += part
        return head + b"\r\n\r\n" + body

    # ---- building blocks for behaviours
    @staticmethod
    def head(conn: socket.socket, status: int = 200, ctype: str = "text/event-stream", reason: str = "OK",
             extra: dict | None = None) -> None:
        # connection: close: this server closes after each answer (``_one``), so a client must not pool the
        # connection (the proxy's pool reused one the server had just closed: a 502 under load in CI).
        fields = {"content-type": ctype, "transfer-encoding": "chunked", "connection": "close", **(extra or {})}
        lines = [f"HTTP/1.1 {status} {reason}", *(f"{k}: {v}" for k, v in fields.items())]
        conn.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())

    @staticmethod
    def chunk(conn: socket.socket, data: bytes) -> None:
        conn.sendall(b"%x\r\n%s\r\n" % (len(data), data))

    @staticmethod
    def finish(conn: socket.socket) -> None:
        conn.sendall(b"0\r\n\r\n")

    @staticmethod
    def reset(conn: socket.socket) -> None:
        """Close with a TCP RST (SO_LINGER 0), as a crashed proxy or load balancer does."""
        conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        conn.close()

    def hold(self, seconds: float = WAIT_S) -> None:
        """Send nothing for ``seconds`` (or until the server stops)."""
        self.stopping.wait(seconds)

    def start(self) -> "RawServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._thread.join(timeout=WAIT_S)
        self.sock.close()

    def __enter__(self) -> "RawServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def answering(*bodies: bytes):
    """A ``RawServer`` behaviour: a 200 SSE head, each of ``bodies`` as one chunk, then the end."""
    def behave(srv, conn, request) -> None:
        srv.head(conn)
        for body in bodies:
            srv.chunk(conn, body)
        srv.finish(conn)
    return behave


@pytest.fixture
def raw_server():
    """``raw_server(behave)`` starts a ``RawServer``; all are stopped after the test."""
    servers: list[RawServer] = []

    def make(behave) -> RawServer:
        srv = RawServer(behave).start()
        servers.append(srv)
        return srv

    yield make
    for s in servers:
        s.stop()


@pytest.fixture
def corpus() -> Path:
    return SHARED_CORPUS


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch):
    """Loopback tests must never be routed through a proxy from the environment."""
    for k in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(k, raising=False)


TIME_FIELDS = ("first_delta_s", "last_delta_s", "max_gap_s")
"""Block fields that are arrival times (compared with a tolerance, if at all)."""


def report_shape(report: dict, *, dialect: bool = True) -> dict:
    """A report without times, and without what legitimately differs between a recorded capture and
    the same bytes seen on the wire: ``line`` (a served ``.sse`` file's findings point at its body
    lines, the live stream's at the lines of its own recording) and messages that quote a time or
    the transport's own error."""
    out = {
        "dialect": report["dialect"], "events": report["events"], "stop_reason": report["stop_reason"],
        "blocks": [{k: v for k, v in b.items() if k not in TIME_FIELDS} for b in report["blocks"]],
        "findings": [{k: v for k, v in f.items()
                      if k not in ("t", "line") and not (k == "message" and (f["code"].startswith("T") or f["code"] == "S012"))}
                     for f in report["findings"]],
    }
    if not dialect:  # a capture with nothing to sniff is read by its URL, a live stream by its endpoint
        del out["dialect"]
    return out
