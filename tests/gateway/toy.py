"""A small translating gateway for the ``gateway`` tests: OpenAI Chat in front, Anthropic Messages behind.

Like LiteLLM's proxy it turns a Chat request into a Messages request (system prompt to the top
level, string content to text parts), streams the Anthropic answer back as Chat chunks (tool
blocks counted as tool-call indexes, ``tool_use`` → ``tool_calls``, ``end_turn`` → ``stop``,
``max_tokens`` → ``length``) and keeps tool ids. Unlike LiteLLM, it can be told to misbehave by
the user's text, so each pairing decision and each hop can be produced on purpose:

- ``[cached]``: answers from its "cache" without calling upstream (a front-only pair);
- ``[retry]``: calls upstream twice and answers with the second attempt (a retry);
- ``[mangle]``: drops the last argument fragment of each tool call (a gateway-made difference);
- ``[refuse]``: answers HTTP 401 without calling upstream;
- ``[plain]``: reads the upstream stream whole and answers one ``chat.completion`` object (not streamed).
"""
from __future__ import annotations

import json

import httpx
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

FINISH = {"tool_use": "tool_calls", "end_turn": "stop", "stop_sequence": "stop", "max_tokens": "length"}


def _message(m: dict) -> dict:
    """One Chat message as an Anthropic one: text parts, tool calls as ``tool_use``, tool results."""
    if m.get("role") == "tool":
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": m["tool_call_id"],
                                             "content": m.get("content") or ""}]}
    parts = [{"type": "text", "text": m["content"]}] if m.get("content") else []
    for tc in m.get("tool_calls") or []:
        parts.append({"type": "tool_use", "id": tc["id"], "name": tc["function"]["name"],
                      "input": json.loads(tc["function"]["arguments"] or "{}")})
    return {"role": m["role"], "content": parts}


def to_anthropic(body: dict) -> dict:
    system = [m["content"] for m in body.get("messages", []) if m.get("role") == "system"]
    messages = [_message(m) for m in body.get("messages", []) if m.get("role") != "system"]
    out = {"model": "claude-sonnet-4-5-20250929", "messages": messages, "max_tokens": body.get("max_tokens", 256),
           "stream": True}
    if system:
        out["system"] = [{"type": "text", "text": s} for s in system]
    return out


def chunk(delta: dict, finish: str | None = None) -> bytes:
    return ("data: " + json.dumps({"id": "chatcmpl-toy", "object": "chat.completion.chunk", "created": 1,
                                   "model": "claude", "choices": [{"index": 0, "delta": delta,
                                                                   "finish_reason": finish}]}) + "\n\n").encode()


async def translate(lines, mangle: bool):
    """Anthropic SSE lines → Chat chunks."""
    tool_index = -1
    held: bytes | None = None
    async for line in lines:
        if not line.startswith("data:"):
            continue
        ev = json.loads(line[5:])
        typ = ev.get("type")
        if typ == "content_block_start" and ev["content_block"]["type"] == "tool_use":
            tool_index += 1
            cb = ev["content_block"]
            yield chunk({"role": "assistant", "tool_calls": [{"index": tool_index, "id": cb["id"], "type": "function",
                                                              "function": {"name": cb["name"], "arguments": ""}}]})
        elif typ == "content_block_delta" and ev["delta"]["type"] == "text_delta":
            yield chunk({"role": "assistant", "content": ev["delta"]["text"]})
        elif typ == "content_block_delta" and ev["delta"]["type"] == "input_json_delta":
            if held is not None:
                yield held
            held = chunk({"tool_calls": [{"index": tool_index, "function": {"arguments": ev["delta"]["partial_json"]}}]})
        elif typ == "content_block_stop":
            if held is not None and not mangle:
                yield held
            held = None
        elif typ == "message_delta":
            yield chunk({}, FINISH.get(ev["delta"].get("stop_reason"), "stop"))
        elif typ == "message_stop":
            yield b"data: [DONE]\n\n"


async def whole_answer(resp: httpx.Response, client: httpx.AsyncClient) -> dict:
    """The streamed answer as one chat.completion object."""
    content, calls, finish = "", {}, None
    try:
        async for raw in translate(resp.aiter_lines(), False):
            line = raw.decode()
            if not line.startswith("data: {"):
                continue
            ch = json.loads(line[6:])["choices"][0]
            finish = ch["finish_reason"] or finish
            content += ch["delta"].get("content") or ""
            for tc in ch["delta"].get("tool_calls") or []:
                call = calls.setdefault(tc["index"], {"id": tc.get("id"), "type": "function",
                                                      "function": {"name": None, "arguments": ""}})
                call["function"]["name"] = tc["function"].get("name") or call["function"]["name"]
                call["function"]["arguments"] += tc["function"].get("arguments") or ""
    finally:
        await resp.aclose()
        await client.aclose()
    message = {"role": "assistant", "content": content or None, "tool_calls": list(calls.values()) or None}
    return {"id": "chatcmpl-toy", "object": "chat.completion", "created": 1, "model": "claude",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def make_app(upstream: str) -> Starlette:
    """The gateway, forwarding to ``upstream`` (a base URL: ``/v1/messages`` is appended)."""

    async def chat_completions(request: Request):
        body = await request.json()
        text = json.dumps(body.get("messages", []))
        if "[refuse]" in text:
            return JSONResponse({"error": {"message": "invalid key", "type": "auth"}}, status_code=401)
        if "[cached]" in text:
            async def cached():
                yield chunk({"role": "assistant", "content": "From the cache."})
                yield chunk({}, "stop")
                yield b"data: [DONE]\n\n"
            return StreamingResponse(cached(), media_type="text/event-stream")
        client = httpx.AsyncClient(timeout=30, trust_env=False)
        req = to_anthropic(body)
        headers = {"x-api-key": "sk-toy", "anthropic-version": "2023-06-01"}
        if "[retry]" in text:
            first = await client.post(upstream + "/v1/messages", json=req, headers=headers)
            await first.aread()
        resp = await client.send(client.build_request("POST", upstream + "/v1/messages", json=req, headers=headers),
                                 stream=True)
        if "[plain]" in text:
            return JSONResponse(await whole_answer(resp, client))

        async def relay():
            try:
                async for out in translate(resp.aiter_lines(), "[mangle]" in text):
                    yield out
            finally:
                await resp.aclose()
                await client.aclose()
        return StreamingResponse(relay(), media_type="text/event-stream")

    return Starlette(routes=[Route("/v1/chat/completions", chat_completions, methods=["POST"])])
