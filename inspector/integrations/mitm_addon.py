"""mitmproxy addon: every streamed LLM response mitmproxy sees, inspected by stream-inspector.

Load it with ``mitmdump -s "$(stream-inspector mitmproxy-addon)"``. This file runs inside
mitmproxy's own Python (mitmproxy pins libraries, and recent releases a Python, that this project
cannot share), so it imports nothing but the standard library and mitmproxy: it hands each
streamed response, chunk by chunk with its time, to a ``stream-inspector mitmproxy-sink`` process
of the project's own environment, which feeds them into the same pipeline as ``proxy`` (reports,
findings, ``--record`` native recordings, ``--otlp`` spans).

Options (``--set NAME=VALUE``): ``stream_inspector`` (the command, default ``stream-inspector``;
e.g. ``"/path/.venv/bin/python -m inspector"``) and ``stream_inspector_args`` (given to the sink,
e.g. ``"--record recordings --format json"``).

A response is streamed when its content type is SSE, NDJSON or AWS event-stream, or JSON from
Ollama's streaming paths (``inspector.capture.har.is_streamed_response`` decides the same). Its
body still reaches the client unchanged: mitmproxy streams it (``flow.response.stream``) and this
addon only copies each chunk. WebSocket messages are not inspected yet.
"""
from __future__ import annotations

import base64
import json
import shlex
import subprocess
import threading
import time

from mitmproxy import ctx, http

STREAM_TYPES = ("event-stream", "ndjson", "jsonl", "eventstream")
OLLAMA_PATHS = ("/api/chat", "/api/generate")


def _streamed(flow: http.HTTPFlow) -> bool:
    ctype = (flow.response.headers.get("content-type") or "").lower()
    if any(s in ctype for s in STREAM_TYPES):
        return True
    return "json" in ctype and any(p in flow.request.path for p in OLLAMA_PATHS)


class StreamInspector:
    def __init__(self) -> None:
        self.proc: subprocess.Popen | None = None
        self.lock = threading.Lock()
        self.started: dict[str, float] = {}

    def load(self, loader) -> None:
        loader.add_option("stream_inspector", str, "stream-inspector", "the stream-inspector command")
        loader.add_option("stream_inspector_args", str, "", "arguments for stream-inspector mitmproxy-sink")

    def running(self) -> None:
        cmd = shlex.split(ctx.options.stream_inspector) + ["mitmproxy-sink"]
        cmd += shlex.split(ctx.options.stream_inspector_args)
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE)

    def _send(self, record: dict) -> None:
        line = (json.dumps(record, separators=(",", ":")) + "\n").encode()
        with self.lock:
            if self.proc is None or self.proc.stdin is None or self.proc.poll() is not None:
                return
            try:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
            except OSError:
                pass

    def requestheaders(self, flow: http.HTTPFlow) -> None:
        self.started[flow.id] = time.monotonic()

    def responseheaders(self, flow: http.HTTPFlow) -> None:
        if not _streamed(flow):
            return
        fid, t0 = flow.id, self.started.get(flow.id, time.monotonic())
        req = flow.request
        body = req.raw_content or b""
        self._send({"ev": "begin", "id": fid, "method": req.method, "url": req.pretty_url,
                    "headers": [[k, v] for k, v in req.headers.items(multi=True)],
                    "body": base64.b64encode(body).decode(), "wall": time.time() - (time.monotonic() - t0)})
        self._send({"ev": "head", "id": fid, "status": flow.response.status_code,
                    "headers": [[k, v] for k, v in flow.response.headers.items(multi=True)]})

        def tee(data: bytes) -> bytes:
            t = round(time.monotonic() - t0, 6)
            if data:
                self._send({"ev": "chunk", "id": fid, "t": t, "data": base64.b64encode(data).decode()})
            else:  # mitmproxy's call at the end of the body
                self._send({"ev": "end", "id": fid, "t": t, "kind": "eof"})
            return data

        flow.response.stream = tee

    def error(self, flow: http.HTTPFlow) -> None:
        t0 = self.started.pop(flow.id, None)
        if t0 is not None and flow.response is not None and _streamed(flow):
            self._send({"ev": "end", "id": flow.id, "t": round(time.monotonic() - t0, 6), "kind": "reset",
                        "error": str(flow.error.msg if flow.error else "connection error")})

    def response(self, flow: http.HTTPFlow) -> None:
        self.started.pop(flow.id, None)

    def done(self) -> None:
        with self.lock:
            if self.proc is not None and self.proc.stdin is not None:
                self.proc.stdin.close()
        if self.proc is not None:
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()


addons = [StreamInspector()]
