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
import sys
from pathlib import Path

from inspector.model.capture import Capture, Chunk, End, Head

EXIT_OK, EXIT_USAGE = 0, 2


def custom_tool(tool) -> bool:
    """True for a client tool (no ``type`` or ``type: custom``); server tools take no such flag."""
    return isinstance(tool, dict) and tool.get("type", "custom") == "custom"


def eager_variants(body: dict) -> tuple[dict, dict]:
    """``(body_on, body_off)``: deep copies of ``body`` with ``"eager_input_streaming"`` set to
    ``true`` / ``false`` on every client tool (server tools such as ``web_search_…`` are left alone).

    Raises ``inspector.net.live.LiveError`` when the body has no client tool to set it on.
    """
    from inspector.net.live import LiveError

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


def _check_writable(path: str) -> None:
    from inspector.net.live import LiveError

    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise LiveError(f"--record {path}: is a directory")
    if not parent.is_dir():
        raise LiveError(f"--record {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise LiveError(f"--record {path}: not writable")


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
    from inspector.net.live import live_source, prepare

    body_on, body_off = eager_variants(body)
    rec_off, rec_on = record_paths(record)
    for r in (rec_off, rec_on):
        if r is not None:
            _check_writable(r)
    req_off = prepare("anthropic", body_off, base_url=base_url, api_key=api_key)
    req_on = prepare("anthropic", body_on, base_url=base_url, api_key=api_key)
    sources = [live_source("anthropic", r.body, timeout=timeout, record=rec, prepared=r, transport=transport)
               for r, rec in ((req_off, rec_off), (req_on, rec_on))]
    off, on = await asyncio.gather(*(collect(s) for s in sources))
    return off, on


def _failure(cap: Capture) -> str | None:
    """One line when a run got no response at all (refused, DNS, TLS...), else None."""
    if cap.response is None:
        return cap.end.error if cap.end is not None and cap.end.error else "no response"
    return None


def run_compare_eager(args, *, transport=None) -> int:
    """``live --provider anthropic --request REQ.json --compare-eager [--format tui|json|text]``.

    ``args``: the ``live`` arguments (provider, request, base_url, record, timeout, format,
    dialect, stall, theme). Exit 0 after showing the comparison, 2 (one line on stderr) when a
    request could not be sent or got no response.
    """
    from inspector.compare import compare_captures, show
    from inspector.net.live import LiveError, load_request

    def err(message: str) -> int:
        print(f"stream-inspector: live --compare-eager: {message}", file=sys.stderr)
        return EXIT_USAGE

    if getattr(args, "provider", "anthropic") != "anthropic":
        return err("eager_input_streaming is an Anthropic tool flag: use --provider anthropic")
    fmt = getattr(args, "format", "tui") or "tui"
    try:
        body = load_request(args.request)
        eager_variants(body)
        if fmt == "tui":
            print("stream-inspector: sending the request twice (eager_input_streaming false / true); "
                  "the comparison opens when both streams have ended (ctrl+c stops)", file=sys.stderr, flush=True)
        off, on = asyncio.run(fetch_pair(body, base_url=getattr(args, "base_url", None),
                                         timeout=getattr(args, "timeout", 600.0) or 600.0,
                                         record=getattr(args, "record", None), transport=transport))
    except LiveError as e:
        return err(str(e))
    except KeyboardInterrupt:
        return err("cancelled before both streams ended")
    for name, cap in (("eager off", off), ("eager on", on)):
        problem = _failure(cap)
        if problem:
            return err(f"{name}: {problem}")
    rec_off, rec_on = record_paths(getattr(args, "record", None))
    label_off = rec_off or "live eager_input_streaming=false"
    label_on = rec_on or "live eager_input_streaming=true"
    dialect = getattr(args, "dialect", None)
    stall = getattr(args, "stall", 10.0) or 10.0
    try:
        cmp = compare_captures(off, on, a_label=label_off, b_label=label_on, dialect=dialect, stall_s=stall)
    except ValueError as e:
        return err(str(e).splitlines()[0])
    return show(cmp, off, on, fmt, theme=getattr(args, "theme", None), dialect=dialect, stall_s=stall)
