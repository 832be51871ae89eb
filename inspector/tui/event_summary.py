"""One-line summaries of events for the raw event log.

Why it exists: the log's name column already says ``content_block_delta``; repeating
``{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta",…`` pushes the part a
person looks for (which block, which fragment) off the screen. A summary leads with that part and
keeps the rest compact; the full event stays one key away (finding detail, ``/`` search on data).
"""
from __future__ import annotations

import orjson

from inspector.capture.redact import scrub_secrets


def _compact(value) -> str:
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return repr(value)


def _delta_text(delta: dict) -> str:
    """``input_json_delta "{\\"q\\": "`` for a typed delta with one string field, else compact JSON."""
    rest = {k: v for k, v in delta.items() if k != "type"}
    head = str(delta.get("type", "")) if isinstance(delta.get("type"), str) else ""
    if len(rest) == 1 and isinstance(next(iter(rest.values())), str):
        body = _compact(next(iter(rest.values())))
    else:
        body = _compact(rest) if rest else ""
    return f"{head} {body}".strip()


def _chat_choice(choice: dict) -> str:
    parts = []
    if len(choice) and choice.get("index") not in (None, 0):
        parts.append(f"choice {choice.get('index')}")
    delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
    for key in ("role", "content", "reasoning", "reasoning_content", "refusal"):
        if delta.get(key) not in (None, ""):
            parts.append(f"{key} {_compact(delta[key])}" if key != "content" else _compact(delta[key]))
    calls = delta.get("tool_calls")
    if isinstance(calls, list):
        for call in calls:
            if not isinstance(call, dict):
                continue
            fn = call.get("function") if isinstance(call.get("function"), dict) else {}
            bits = [f"#{call['index']}" if "index" in call else "#?"]
            if call.get("id"):
                bits.append(f"id={call['id']}")
            if fn.get("name"):
                bits.append(f"name={fn['name']}")
            if "arguments" in fn:
                bits.append(_compact(fn["arguments"]))
            parts.append("tool_call " + " ".join(bits))
        if not calls:
            parts.append("tool_calls []")
    if choice.get("finish_reason"):
        parts.append(f"finish_reason={choice['finish_reason']}")
    return " · ".join(parts) or "{}"


def _gemini(p: dict) -> str:
    out = []
    for cand in p.get("candidates") or []:
        if not isinstance(cand, dict):
            continue
        content = cand.get("content") if isinstance(cand.get("content"), dict) else {}
        for part in content.get("parts") or []:
            if not isinstance(part, dict):
                continue
            if isinstance(part.get("functionCall"), dict):
                fc = part["functionCall"]
                out.append(f"functionCall {fc.get('name')} {_compact(fc.get('args'))}")
            elif "text" in part:
                out.append(("thought " if part.get("thought") else "") + _compact(part["text"]))
            if part.get("thoughtSignature"):
                out.append("thoughtSignature")
        if cand.get("finishReason"):
            out.append(f"finishReason={cand['finishReason']}")
    return " · ".join(out)


def _ollama(p: dict) -> str:
    msg = p.get("message") if isinstance(p.get("message"), dict) else {}
    out = []
    for key in ("thinking", "content"):
        if msg.get(key):
            out.append((f"{key} " if key != "content" else "") + _compact(msg[key]))
    if isinstance(p.get("response"), str) and p["response"]:
        out.append(_compact(p["response"]))
    for call in msg.get("tool_calls") or []:
        fn = call.get("function") if isinstance(call, dict) and isinstance(call.get("function"), dict) else {}
        out.append(f"tool_call {fn.get('name')} {_compact(fn.get('arguments'))}")
    if p.get("done"):
        out.append(f"done done_reason={p.get('done_reason')}")
    return " · ".join(out) or "{}"


def summarize(ev) -> str:
    """A one-line summary of ``ev`` (an ``EventRecord``), with anything key-shaped masked."""
    p = ev.payload
    if not isinstance(p, dict):
        return scrub_secrets(ev.data)
    rest = {k: v for k, v in p.items() if not (k == "type" and v == ev.name)}
    lead = []
    if isinstance(rest.get("index"), int):
        lead.append(f"#{rest.pop('index')}")
    if isinstance(rest.get("delta"), dict) and "type" in rest["delta"]:
        lead.append(_delta_text(rest.pop("delta")))
    elif isinstance(rest.get("content_block"), dict):
        lead.append(_compact(rest.pop("content_block")))
    elif isinstance(p.get("candidates"), list):
        lead.append(_gemini(p))
        rest = {k: v for k, v in rest.items() if k in ("error",) and v}
    elif "done" in p and ("message" in p or "response" in p):
        lead.append(_ollama(p))
        rest = {}
    elif isinstance(p.get("choices"), list) and p["choices"]:
        lead.append(" | ".join(_chat_choice(c) for c in p["choices"] if isinstance(c, dict)))
        rest = {k: v for k, v in rest.items() if k in ("usage", "error") and v}
    if isinstance(p.get("choices"), list) and not p["choices"]:
        rest = {k: v for k, v in rest.items() if k in ("usage",) and v} or rest
    tail = _compact(rest) if rest else ""
    return scrub_secrets(" ".join(x for x in (*lead, tail) if x))
