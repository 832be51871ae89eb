"""``live --compare-eager``: send one Anthropic request twice, without and with eager input streaming.

Why this module exists: whether ``eager_input_streaming`` helps depends on the model, the tool and
the arguments, so the honest answer is to try both on the user's own request and put the two
streams side by side (``inspector.compare``). Eager (fine-grained) tool streaming is GA: it is a
per-tool flag, ``"eager_input_streaming": true``, and ``false`` disables it even under the older
``fine-grained-tool-streaming-2025-05-14`` beta header (PROTOCOLS.md §1, "Eager / fine-grained
tool streaming"; platform.claude.com "fine-grained tool streaming"). With it, input may arrive as
invalid or partial JSON: the J rules judge both runs the same way and the comparison shows the
eager run's states as they were.

Both requests are sent at the same moment through ``inspector.net.live.live_source`` (so they
meet the same load), drained into in-memory captures (and, with ``--record FILE``, written as
``FILE.eager-off.jsonl`` / ``FILE.eager-on.jsonl`` as the bytes arrive), then compared: A is the
run without eager streaming, B the run with it (the same order as the bundled pair).
"""
from __future__ import annotations

import asyncio
import copy
import os
from pathlib import Path

from inspector.model.capture import Capture, Chunk, End, Head
from inspector.net.live import LiveError, check_writable, live_source, prepare


def custom_tool(tool) -> bool:
    """True for a client tool (no ``type`` or ``type: custom``); server tools take no such flag."""
    return isinstance(tool, dict) and tool.get("type", "custom") == "custom"


def eager_variants(body: dict) -> tuple[dict, dict]:
    """``(body_on, body_off)``: deep copies of ``body`` with ``"eager_input_streaming"`` set to
    ``true`` / ``false`` on every client tool (server tools such as ``web_search_…`` are left alone).

    Raises ``inspector.net.live.LiveError`` when the body has no client tool to set it on.
    """
    if not isinstance(body, dict):
        raise LiveError("the request must be a JSON object (the provider's request body)")
    tools = body.get("tools")
    if not isinstance(tools, list) or not any(custom_tool(t) for t in tools):
        raise LiveError("--compare-eager needs a request with at least one tool in \"tools\"")
    out = []
    for flag in (True, False):
        b = copy.deepcopy(body)
        b["tools"] = [dict(t, eager_input_streaming=flag) if custom_tool(t) else t for t in b["tools"]]
        out.append(b)
    return out[0], out[1]


def record_paths(record: str | os.PathLike | None) -> tuple[str | None, str | None]:
    """``(off, on)`` recording paths for ``--record FILE``: ``FILE.eager-off.EXT`` and ``FILE.eager-on.EXT``."""
    if record is None:
        return None, None
    p = Path(record)
    suffix = p.suffix or ".jsonl"
    return str(p.with_name(f"{p.stem}.eager-off{suffix}")), str(p.with_name(f"{p.stem}.eager-on{suffix}"))


async def collect(source) -> Capture:
    """Drain a source (``Head``, ``Chunk``..., ``End``) into a request-relative ``Capture``.

    A cancellation closes the capture as ``cancelled`` and returns what arrived.
    """
    cap = Capture(source_format="native", request_relative=True)
    try:
        async for item in source:
            if isinstance(item, Head):
                cap.request = item.request
                cap.response = {"status": item.status, "headers": item.headers} if item.status is not None else None
            elif isinstance(item, Chunk):
                cap.chunks.append(item)
            elif isinstance(item, End):
                cap.end = item
    except asyncio.CancelledError:
        if cap.end is None:
            cap.end = End(cap.chunks[-1].t if cap.chunks else None, "cancelled", "cancelled by the user")
    return cap


async def fetch_pair(body: dict, *, base_url: str | None = None, timeout: float = 600.0,
                     record: str | os.PathLike | None = None, api_key: str | None = None,
                     transport=None) -> tuple[Capture, Capture]:
    """Send ``body`` twice at once, eager streaming off and on; return ``(capture_off, capture_on)``.

    Raises ``LiveError`` before sending (no tools, no key, bad base URL). ``transport`` is for tests.
    """
    body_on, body_off = eager_variants(body)
    rec_off, rec_on = record_paths(record)
    for r in (rec_off, rec_on):
        if r is not None:
            check_writable(r)
    req_off = prepare("anthropic", body_off, base_url=base_url, api_key=api_key)
    req_on = prepare("anthropic", body_on, base_url=base_url, api_key=api_key)
    sources = [live_source("anthropic", r.body, timeout=timeout, record=rec, prepared=r, transport=transport)
               for r, rec in ((req_off, rec_off), (req_on, rec_on))]
    off, on = await asyncio.gather(*(collect(s) for s in sources))
    return off, on
