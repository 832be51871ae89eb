"""Q rules: lint the history a client sends back after a streamed answer (``check --request``, proxy).

Why it exists: most tool-call bugs surface one request *later*: the client assembled the stream
wrongly and sends the assistant turn back with stream deltas where content blocks belong, empty
text blocks, tool ids the model never produced, thought signatures dropped, or arguments that
differ from what was streamed. The provider then rejects the request (400) or the model sees a
call it never made. This module compares the next request's history with the streamed response
held by a ``Session`` and adds Q001–Q006 findings (``shared/RULES.md`` section Q) as
stream-level findings (``event=False``).

Shapes read (request bodies, as documented by each provider):
- Anthropic Messages ``messages[].content[]`` blocks (``text``, ``thinking`` with ``signature``,
  ``tool_use`` with ``id``/``input``, ``tool_result`` with ``tool_use_id``);
- OpenAI Chat ``messages[]`` (assistant ``tool_calls[]`` with ``id`` and string
  ``function.arguments``; Gemini-compat ``extra_content.google.thought_signature``; ``tool``
  messages' ``tool_call_id``), also Ollama ``/api/chat`` (object arguments);
- Gemini ``contents[].parts[]`` (``functionCall`` with ``args``, sibling ``thoughtSignature``);
- OpenAI Responses ``input[]`` items (``function_call`` with ``call_id``/``arguments``,
  ``function_call_output``).
Only the last assistant (``model``) turn is compared with the stream: earlier turns came from
earlier responses.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import orjson

if TYPE_CHECKING:
    from inspector.session.blocks import Block
    from inspector.session.session import Session

DELTA_TYPES = frozenset({
    "text_delta", "input_json_delta", "thinking_delta", "signature_delta", "citations_delta",
    "compaction_delta",
})
"""Anthropic stream delta types (PROTOCOLS.md §1); any ``*_delta``/``response.*.delta`` type counts too."""

ANTHROPIC_TOOL_TYPES = ("tool_use", "server_tool_use", "mcp_tool_use")
_ANTHROPIC_MARKERS = frozenset({"tool_use", "tool_result", "thinking", "redacted_thinking", "server_tool_use",
                                "document", "search_result"})


# ------------------------------------------------------------------ entry points
def check_request_file(session: "Session", path) -> None:
    """Read the request JSON at ``path`` and run ``check_request``.

    Accepts a request body, a ``{"method", "url", "headers", "body"}`` record, or a native
    capture (its header's ``request.body``). Raises ``inspector.capture.load.CaptureError`` with
    a one-line message when the file is missing, unreadable, not JSON, or holds no history.
    """
    from inspector.capture.load import NATIVE_FORMAT, CaptureError

    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise CaptureError(f"{path}: no such request file") from None
    except IsADirectoryError:
        raise CaptureError(f"{path}: is a directory, not a request file") from None
    except OSError as e:
        raise CaptureError(f"{path}: cannot read request: {e.strerror or e}") from None
    raw = raw.lstrip(b"\xef\xbb\xbf")
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as e:
        first = raw.split(b"\n", 1)[0]
        try:
            header = orjson.loads(first)
        except orjson.JSONDecodeError:
            raise CaptureError(f"{path}: request is not JSON: {e}") from None
        if not (isinstance(header, dict) and header.get("format") == NATIVE_FORMAT):
            raise CaptureError(f"{path}: request is not JSON: {e}") from None
        body = header.get("request")
    if not isinstance(body, dict):
        raise CaptureError(f"{path}: request must be a JSON object")
    if not _has_history(body) and isinstance(body.get("body"), dict):
        body = body["body"]
    if not _has_history(body):
        raise CaptureError(f"{path}: request has no history to check (no 'messages', 'contents' or 'input' list)")
    check_request(session, body)


def check_request(session: "Session", request_body: dict) -> None:
    """Add Q001–Q006 findings to ``session`` for the history in ``request_body`` (never raises)."""
    if not isinstance(request_body, dict):
        return
    ctx = _Ctx(session)
    msgs = request_body.get("messages")
    if isinstance(msgs, list):
        if _is_anthropic(request_body, msgs, session):
            _anthropic(ctx, msgs)
        else:
            _chat(ctx, msgs)
    contents = request_body.get("contents")
    if isinstance(contents, list):
        _gemini(ctx, contents)
    items = request_body.get("input")
    if isinstance(items, list):
        _responses(ctx, items)


# ------------------------------------------------------------------ shared
def _has_history(body: dict) -> bool:
    return any(isinstance(body.get(k), list) for k in ("messages", "contents", "input"))


class _Ctx:
    """The stream's side of the comparison, plus de-duplication of Q003 ids."""

    def __init__(self, s: "Session") -> None:
        self.s = s
        self.tools = [b for b in s.blocks if b.tool and not b.replaced]
        self.by_id: dict = {}
        for b in self.tools:
            for key in (b.id, b.extra.get("call_id")):
                if isinstance(key, str) and key:
                    self.by_id.setdefault(key, b)
        self.q003: set = set()

    def report(self, code: str, msg: str, block: "Block | None" = None) -> None:
        self.s.report(code, msg[:500], index=block.index if block is not None else None, event=False)

    def unknown_id(self, tid: str, where: str) -> None:
        if tid in self.q003:
            return
        self.q003.add(tid)
        produced = ", ".join(sorted(self.by_id)[:5]) or "none"
        self.report("Q003", f"{where} {tid!r} was never produced by the streamed response "
                    f"(streamed ids: {produced})")


def _is_delta_type(typ) -> bool:
    return isinstance(typ, str) and (typ in DELTA_TYPES or typ.endswith("_delta") or
                                     (typ.startswith("response.") and typ.endswith(".delta")))


def _canon(value) -> bytes | None:
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return None


def _parse_args(value):
    """Chat/Responses ``arguments``: a JSON string (or an object, Ollama); ``(ok, parsed)``."""
    if isinstance(value, str):
        try:
            return True, orjson.loads(value)
        except orjson.JSONDecodeError:
            return False, None
    return True, value


def _clip(text: str, n: int = 80) -> str:
    return text if len(text) <= n else text[:n] + "…"


def _show(value) -> str:
    if isinstance(value, str):
        return _clip(value)
    try:
        return _clip(orjson.dumps(value).decode())
    except TypeError:
        return _clip(repr(value))


def _compare(ctx: _Ctx, block: "Block", sent, where: str, *, sent_text: str | None = None) -> None:
    """Q006: the arguments sent back (``sent``: parsed value) differ from the streamed ones."""
    streamed_text = block.content
    if sent_text is not None and sent_text == streamed_text and streamed_text:
        return
    status = block.status
    if status == "complete":
        streamed = block.input
        if _canon(sent) == _canon(streamed) and _canon(sent) is not None:
            return
        ctx.report("Q006", f"{where} sends arguments {_show(sent)} but the stream produced "
                   f"{_show(streamed_text or '{}')} for {block.name or block.id or 'this call'}: "
                   "the client mis-assembled them", block)
    else:
        ctx.report("Q006", f"{where} sends arguments {_show(sent)} but the streamed arguments were "
                   f"{status or 'absent'} ({len(streamed_text)} characters: {_show(streamed_text)}): "
                   "the client sent something the model never completed", block)


def _match(ctx: _Ctx, calls: list, ids: list) -> list:
    """Pair history calls with streamed tool blocks: by id, else by position among the calls."""
    out = []
    positional = not any(b.id or b.extra.get("call_id") for b in ctx.tools)
    for pos, tid in enumerate(ids):
        b = None
        if isinstance(tid, str) and tid and not positional:
            b = ctx.by_id.get(tid)
        elif pos < len(ctx.tools):
            b = ctx.tools[pos]
        out.append(b)
    return out


def _last_index(msgs: list, roles: tuple) -> int | None:
    for i in range(len(msgs) - 1, -1, -1):
        m = msgs[i]
        if isinstance(m, dict) and m.get("role") in roles:
            return i
    return None


# ------------------------------------------------------------------ Anthropic Messages
def _is_anthropic(body: dict, msgs: list, session: "Session") -> bool:
    if "contents" in body:
        return False
    for m in msgs:
        if not isinstance(m, dict):
            continue
        if m.get("role") in ("system", "tool", "developer") or "tool_calls" in m:
            return False
        content = m.get("content")
        if isinstance(content, list):
            for blk in content:
                if isinstance(blk, dict) and blk.get("type") in _ANTHROPIC_MARKERS:
                    return True
                if isinstance(blk, dict) and blk.get("type") in ("image_url", "input_audio"):
                    return False
    if isinstance(body.get("system"), (str, list)) or "anthropic_version" in body:
        return True
    return session.dialect_name == "anthropic-messages"


def _anthropic(ctx: _Ctx, msgs: list) -> None:
    last = _last_index(msgs, ("assistant",))
    for mi, m in enumerate(msgs):
        if not isinstance(m, dict):
            continue
        role = m.get("role")
        content = m.get("content")
        final_prefill = mi == len(msgs) - 1 and role == "assistant"
        if isinstance(content, str):
            if not content.strip() and not final_prefill:
                ctx.report("Q002", f"messages[{mi}] ({role}) has empty text content (rejected: text must be non-empty)")
            continue
        if not isinstance(content, list):
            continue
        for bi, blk in enumerate(content):
            if not isinstance(blk, dict):
                continue
            typ = blk.get("type")
            where = f"messages[{mi}].content[{bi}]"
            if _is_delta_type(typ):
                ctx.report("Q001", f"{where} is a stream delta ({typ!r}) where a content block belongs: "
                           "the client stored deltas instead of assembled blocks")
            elif typ == "text" and not (isinstance(blk.get("text"), str) and blk["text"].strip()):
                ctx.report("Q002", f"{where} ({role}) is an empty text block (rejected: text content "
                           "blocks must be non-empty)")
            elif typ in ANTHROPIC_TOOL_TYPES and not isinstance(blk.get("input"), dict):
                ctx.report("Q005", f"{where} {typ} input is {_kind(blk.get('input'))}, not an object")
    if last is None or not isinstance(msgs[last].get("content"), list):
        return
    turn = [b for b in msgs[last]["content"] if isinstance(b, dict)]
    calls = [b for b in turn if b.get("type") in ANTHROPIC_TOOL_TYPES]
    for blk, sb in zip(calls, _match(ctx, calls, [c.get("id") for c in calls])):
        tid = blk.get("id")
        if sb is None:
            if isinstance(tid, str) and tid:
                ctx.unknown_id(tid, f"messages[{last}] {blk.get('type')}")
            continue
        if isinstance(blk.get("input"), dict):
            _compare(ctx, sb, blk["input"], f"messages[{last}] {blk.get('type')} {tid!r}")
    for m in msgs[last + 1:]:
        content = m.get("content") if isinstance(m, dict) else None
        if isinstance(content, list):
            for blk in content:
                if isinstance(blk, dict) and blk.get("type") == "tool_result":
                    tid = blk.get("tool_use_id")
                    if isinstance(tid, str) and tid and tid not in ctx.by_id and ctx.tools:
                        ctx.unknown_id(tid, "tool_result tool_use_id")
    sent = {b.get("signature") for b in turn if b.get("type") == "thinking"}
    thinking_sent = [b for b in turn if b.get("type") == "thinking"]
    for sb in ctx.s.blocks:
        sig = sb.extra.get("signature")
        if sb.kind != "thinking" or not isinstance(sig, str) or not sig or sig in sent:
            continue
        same = [b for b in thinking_sent if b.get("thinking") == sb.content]
        how = "sent back without its signature" if same and not same[0].get("signature") else \
            "sent back with a different signature" if same else "not sent back"
        ctx.report("Q004", f"thinking block {sb.index} (signature {_clip(sig, 16)}) is {how} in "
                   f"messages[{last}]: the API rejects or ignores unsigned thinking", sb)


def _kind(value) -> str:
    if value is None:
        return "missing"
    if isinstance(value, str):
        return f"a string ({_show(value)})"
    if isinstance(value, list):
        return "an array"
    return type(value).__name__


# ------------------------------------------------------------------ OpenAI Chat (and Ollama /api/chat)
def _chat(ctx: _Ctx, msgs: list) -> None:
    last = _last_index(msgs, ("assistant",))
    for mi, m in enumerate(msgs):
        if not isinstance(m, dict):
            continue
        content = m.get("content")
        if isinstance(content, list):
            for pi, part in enumerate(content):
                if isinstance(part, dict) and _is_delta_type(part.get("type")):
                    ctx.report("Q001", f"messages[{mi}].content[{pi}] is a stream delta ({part.get('type')!r}) "
                               "where a content part belongs")
        if m.get("role") != "assistant" or not isinstance(m.get("tool_calls"), list):
            continue
        for ci, tc in enumerate(m["tool_calls"]):
            if not isinstance(tc, dict):
                continue
            fn = tc.get("function") if isinstance(tc.get("function"), dict) else {}
            ok, value = _parse_args(fn.get("arguments"))
            if not ok:
                ctx.report("Q005", f"messages[{mi}].tool_calls[{ci}] arguments are not JSON: "
                           f"{_show(fn.get('arguments'))}")
            elif not isinstance(value, dict):
                ctx.report("Q005", f"messages[{mi}].tool_calls[{ci}] arguments are {_kind(value)}, not an object")
    if last is None:
        return
    calls = [tc for tc in (msgs[last].get("tool_calls") or []) if isinstance(tc, dict)] \
        if isinstance(msgs[last].get("tool_calls"), list) else []
    for ci, (tc, sb) in enumerate(zip(calls, _match(ctx, calls, [c.get("id") for c in calls]))):
        tid = tc.get("id")
        where = f"messages[{last}].tool_calls[{ci}]"
        if sb is None:
            if isinstance(tid, str) and tid:
                ctx.unknown_id(tid, f"{where} tool_call")
            continue
        fn = tc.get("function") if isinstance(tc.get("function"), dict) else {}
        args = fn.get("arguments")
        ok, value = _parse_args(args)
        if ok and isinstance(value, dict):
            _compare(ctx, sb, value, f"{where} {tid!r}", sent_text=args if isinstance(args, str) else None)
        elif not ok and isinstance(args, str) and args != sb.content:
            ctx.report("Q006", f"{where} sends arguments {_show(args)} but the stream produced "
                       f"{_show(sb.content)}", sb)
        sig = sb.extra.get("thought_signature")
        if isinstance(sig, str) and sig:
            ec = tc.get("extra_content")
            google = ec.get("google") if isinstance(ec, dict) else None
            back = google.get("thought_signature") if isinstance(google, dict) else None
            if back != sig:
                how = "dropped" if not back else "changed"
                ctx.report("Q004", f"{where}: extra_content.google.thought_signature received in the stream is "
                           f"{how} (Gemini rejects the next turn without it)", sb)
    for m in msgs[last + 1:]:
        if isinstance(m, dict) and m.get("role") == "tool":
            tid = m.get("tool_call_id")
            if isinstance(tid, str) and tid and tid not in ctx.by_id and ctx.tools:
                ctx.unknown_id(tid, "tool message tool_call_id")


# ------------------------------------------------------------------ Gemini native
def _gemini(ctx: _Ctx, contents: list) -> None:
    last = _last_index(contents, ("model",))
    for ci, c in enumerate(contents):
        parts = c.get("parts") if isinstance(c, dict) else None
        if not isinstance(parts, list):
            continue
        for pi, part in enumerate(parts):
            fc = part.get("functionCall") if isinstance(part, dict) else None
            if isinstance(fc, dict) and fc.get("args") is not None and not isinstance(fc.get("args"), dict):
                ctx.report("Q005", f"contents[{ci}].parts[{pi}].functionCall.args is {_kind(fc.get('args'))}, "
                           "not an object")
    if last is None or not isinstance(contents[last].get("parts"), list):
        return
    parts = [p for p in contents[last]["parts"] if isinstance(p, dict)]
    calls = [p for p in parts if isinstance(p.get("functionCall"), dict)]
    ids = [p["functionCall"].get("id") for p in calls]
    for k, (part, sb) in enumerate(zip(calls, _match(ctx, calls, ids))):
        fc = part["functionCall"]
        where = f"contents[{last}] functionCall #{k} {fc.get('name')!r}"
        if sb is None:
            if isinstance(fc.get("id"), str) and fc["id"]:
                ctx.unknown_id(fc["id"], where)
            continue
        args = fc.get("args", {})
        if isinstance(args, dict):
            _compare(ctx, sb, args, where)
    sent = {p.get("thoughtSignature") for p in parts}
    for sb in ctx.s.blocks:
        sig = sb.extra.get("thoughtSignature")
        if isinstance(sig, str) and sig and sig not in sent:
            what = f"function call {sb.name!r}" if sb.tool else f"{sb.kind} block {sb.index}"
            ctx.report("Q004", f"thoughtSignature received with {what} is not sent back in contents[{last}] "
                       "(Gemini 3 rejects function calling turns without it)", sb)


# ------------------------------------------------------------------ OpenAI Responses
def _responses(ctx: _Ctx, items: list) -> None:
    for ii, it in enumerate(items):
        if isinstance(it, dict):
            if _is_delta_type(it.get("type")):
                ctx.report("Q001", f"input[{ii}] is a stream event ({it.get('type')!r}) where an item belongs")
            if it.get("type") == "function_call":
                ok, value = _parse_args(it.get("arguments"))
                if not ok:
                    ctx.report("Q005", f"input[{ii}] function_call arguments are not JSON: {_show(it.get('arguments'))}")
                elif not isinstance(value, dict):
                    ctx.report("Q005", f"input[{ii}] function_call arguments are {_kind(value)}, not an object")
    start = 0
    for i in range(len(items) - 1, -1, -1):
        it = items[i]
        if isinstance(it, dict) and it.get("role") == "user":
            start = i + 1
            break
    turn = [(i, it) for i, it in enumerate(items[start:], start=start) if isinstance(it, dict)]
    calls = [(i, it) for i, it in turn if it.get("type") == "function_call"]
    ids = [it.get("call_id") or it.get("id") for _, it in calls]
    for (i, it), sb in zip(calls, _match(ctx, [c for _, c in calls], ids)):
        where = f"input[{i}] function_call {it.get('name')!r}"
        if sb is None:
            tid = it.get("call_id") or it.get("id")
            if isinstance(tid, str) and tid:
                ctx.unknown_id(tid, where)
            continue
        args = it.get("arguments")
        ok, value = _parse_args(args)
        if ok and isinstance(value, dict):
            _compare(ctx, sb, value, where, sent_text=args if isinstance(args, str) else None)
    for i, it in turn:
        if it.get("type") == "function_call_output":
            tid = it.get("call_id")
            if isinstance(tid, str) and tid and tid not in ctx.by_id and ctx.tools:
                ctx.unknown_id(tid, f"input[{i}] function_call_output call_id")
