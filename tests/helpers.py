"""Small helpers for building streams in tests."""
from __future__ import annotations

import json

from inspector.capture.load import load_bytes
from inspector.model.capture import Capture, Chunk, End
from inspector.feeds.run import run_capture


def sse(*events: dict | str, named: bool = True) -> bytes:
    """SSE text for ``events`` (dicts become ``event: type`` + ``data: json``; strings go as data)."""
    out = []
    for e in events:
        if isinstance(e, str):
            out.append(f"data: {e}\n\n")
        else:
            head = f"event: {e['type']}\n" if named and "type" in e else ""
            out.append(f"{head}data: {json.dumps(e)}\n\n")
    return "".join(out).encode()


def check_bytes(raw: bytes, **kw):
    """Run raw capture bytes through a session; return it."""
    return run_capture(load_bytes(raw), **kw)


def timed(*chunks: tuple[float, bytes | str], end: tuple[float, str] | None = None, status: int = 200,
          ctype: str = "text/event-stream") -> Capture:
    """A request-relative capture from ``(t, data)`` pairs."""
    cap = Capture(response={"status": status, "headers": {"content-type": ctype}}, source_format="native",
                  request_relative=True)
    for t, d in chunks:
        cap.chunks.append(Chunk(t, d.encode() if isinstance(d, str) else d))
    if end:
        cap.end = End(t=end[0], kind=end[1])
    return cap


def codes(session) -> list[str]:
    return [f.code for f in session.findings]


def gzip_bomb(decoded_mb: int, head: bytes = b"") -> bytes:
    """A gzip body: ``head``, then ``decoded_mb`` MB of one repeated SSE ``ping`` (about 1000 times
    smaller coded than decoded: a decompression bomb that is still a valid stream)."""
    import zlib

    event = b'event: ping\ndata: {"type": "ping"}\n\n'
    c = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = event * (1_000_000 // len(event))
    return c.compress(head) + b"".join(c.compress(block) for _ in range(decoded_mb)) + c.flush()
