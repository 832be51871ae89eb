"""WebSocket capture fixtures, built from the shapes of openai-python's own types.

The events follow ``openai.types.responses.ResponsesServerEvent`` and
``openai.types.realtime.RealtimeServerEvent`` (server) and ``ResponsesClientEvent`` /
``RealtimeClientEvent`` (client); ``tests/websocket/test_fixtures.py`` validates every message
against those types and holds the files in ``tests/websocket/data/`` equal to what this module
writes (``uv run python -m tests.websocket.fixtures`` rewrites them). The Responses objects copy the
fields of a real gpt-5.1 stream (``tests/real_streams/openai-responses/vercel-gpt-5.1-function-call.sse``).
"""
from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

DATA = Path(__file__).parent / "data"

URL = "wss://api.openai.com/v1/responses"
HANDSHAKE_REQUEST = {"method": "GET", "url": URL, "headers": {
    "host": "api.openai.com", "upgrade": "websocket", "connection": "Upgrade",
    "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13",
    "authorization": "[redacted]", "user-agent": "OpenAI/Python 3.57.0"}, "body": None}
HANDSHAKE_RESPONSE = {"status": 101, "headers": {
    "upgrade": "websocket", "connection": "Upgrade", "sec-websocket-accept": "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
    "x-request-id": "req_ws_0001"}}

MODEL = "gpt-5.1-2025-11-13"


def tool(name: str, description: str) -> dict:
    return {"type": "function", "name": name, "description": description, "strict": True,
            "parameters": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"],
                           "additionalProperties": False}}


TOOLS = [tool("get_sku_inventory", "Return pond inventory details for a SKU."),
         tool("get_supplier_eta", "Return supplier restock ETA data for a SKU.")]


def response_object(rid: str, status: str, output: list, previous: str | None, tool_choice: object,
                    usage: dict | None = None) -> dict:
    return {"id": rid, "object": "response", "created_at": 1787659560, "status": status, "background": False,
            "completed_at": 1787659561 if status == "completed" else None, "error": None,
            "incomplete_details": None, "instructions": None, "max_output_tokens": None, "model": MODEL,
            "output": output, "parallel_tool_calls": True, "previous_response_id": previous,
            "reasoning": {"effort": "none", "summary": None}, "store": True, "temperature": 1,
            "text": {"format": {"type": "text"}, "verbosity": "medium"}, "tool_choice": tool_choice,
            "tools": TOOLS, "top_p": 1, "truncation": "disabled", "usage": usage, "metadata": {}}


USAGE = {"input_tokens": 120, "input_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 0}, "output_tokens": 18,
         "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 138}


class Socket:
    """Builds one socket's records: ``send``/``recv`` at a running clock."""

    def __init__(self, request: dict = HANDSHAKE_REQUEST, response: dict = HANDSHAKE_RESPONSE) -> None:
        self.records: list[dict] = [{"format": "stream-inspector-capture", "version": 1, "request": request,
                                     "response": response}]
        self.t = 0.0
        self.seq = 0

    def send(self, payload: dict, after: float = 0.01) -> None:
        self.t = round(self.t + after, 6)
        self.records.append({"t": self.t, "ws": "send", "data": json.dumps(payload, separators=(",", ":"))})

    def recv(self, payload: dict, after: float = 0.02, *, seq: bool = True) -> None:
        self.t = round(self.t + after, 6)
        if seq:
            payload = {**payload, "sequence_number": self.seq}
            self.seq += 1
        self.records.append({"t": self.t, "ws": "recv", "data": json.dumps(payload, separators=(",", ":"))})

    def close(self, code: int | None, reason: str = "", after: float = 0.01) -> None:
        self.t = round(self.t + after, 6)
        rec: dict = {"t": self.t, "end": "close", "code": code}
        if reason:
            rec["reason"] = reason
        self.records.append(rec)

    def text(self) -> str:
        return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in self.records)


def function_call_response(ws: Socket, rid: str, n: int, name: str, args_parts: list[str], previous: str | None,
                           tool_choice: object, *, finish: bool = True) -> dict:
    """The Responses stream of one function call (PROTOCOLS.md §3); returns the finished item."""
    ws.seq = 0
    ws.recv({"type": "response.created", "response": response_object(rid, "in_progress", [], previous, tool_choice)},
            after=0.35)
    ws.recv({"type": "response.in_progress",
             "response": response_object(rid, "in_progress", [], previous, tool_choice)}, after=0.001)
    item = {"id": f"fc_{n:04d}", "type": "function_call", "status": "in_progress", "arguments": "",
            "call_id": f"call_{n:04d}", "name": name}
    ws.recv({"type": "response.output_item.added", "item": item, "output_index": 0}, after=0.2)
    for part in args_parts:
        ws.recv({"type": "response.function_call_arguments.delta", "delta": part, "item_id": item["id"],
                 "output_index": 0})
    done = {**item, "status": "completed", "arguments": "".join(args_parts)}
    if not finish:
        return done
    ws.recv({"type": "response.function_call_arguments.done", "arguments": done["arguments"], "item_id": item["id"],
             "output_index": 0})
    ws.recv({"type": "response.output_item.done", "item": done, "output_index": 0}, after=0.001)
    ws.recv({"type": "response.completed",
             "response": response_object(rid, "completed", [done], previous, tool_choice, USAGE)}, after=0.001)
    return done


def text_response(ws: Socket, rid: str, words: list[str], previous: str | None, tool_choice: object) -> None:
    ws.seq = 0
    ws.recv({"type": "response.created", "response": response_object(rid, "in_progress", [], previous, tool_choice)},
            after=0.3)
    ws.recv({"type": "response.in_progress",
             "response": response_object(rid, "in_progress", [], previous, tool_choice)}, after=0.001)
    msg = {"id": f"msg_{rid}", "type": "message", "status": "in_progress", "content": [], "role": "assistant"}
    ws.recv({"type": "response.output_item.added", "item": msg, "output_index": 0}, after=0.2)
    part = {"type": "output_text", "annotations": [], "logprobs": [], "text": ""}
    ws.recv({"type": "response.content_part.added", "content_index": 0, "item_id": msg["id"], "output_index": 0,
             "part": part})
    for w in words:
        ws.recv({"type": "response.output_text.delta", "content_index": 0, "delta": w, "item_id": msg["id"],
                 "output_index": 0, "logprobs": []})
    text = "".join(words)
    ws.recv({"type": "response.output_text.done", "content_index": 0, "item_id": msg["id"], "output_index": 0,
             "text": text, "logprobs": []})
    full = {**part, "text": text}
    ws.recv({"type": "response.content_part.done", "content_index": 0, "item_id": msg["id"], "output_index": 0,
             "part": full})
    done = {**msg, "status": "completed", "content": [full]}
    ws.recv({"type": "response.output_item.done", "item": done, "output_index": 0})
    ws.recv({"type": "response.completed",
             "response": response_object(rid, "completed", [done], previous, tool_choice, USAGE)})


def create(**fields) -> dict:
    """A ``response.create`` client event (``ResponsesClientEvent``: the POST body's fields)."""
    return {"type": "response.create", "model": MODEL, **fields}


def output(call: dict, value: dict) -> dict:
    return {"type": "function_call_output", "call_id": call["call_id"], "output": json.dumps(value)}


def two_tool_rounds() -> Socket:
    """openai-python's ``examples/responses/websocket.py`` loop: a forced call, its output sent back on
    the same socket chained by ``previous_response_id``, a second call, then the text answer."""
    ws = Socket()
    ws.send(create(input="Check stock and restock ETA for sku-froge-lily-pad-deluxe.", tools=TOOLS,
                   tool_choice={"type": "function", "name": "get_sku_inventory"}))
    a = function_call_response(ws, "resp_ws_1", 1, "get_sku_inventory", ['{"sku":', '"sku-froge-', 'lily-pad-deluxe"}'],
                               None, {"type": "function", "name": "get_sku_inventory"})
    ws.send(create(previous_response_id="resp_ws_1", tools=TOOLS, tool_choice="auto",
                   input=[output(a, {"sku": "sku-froge-lily-pad-deluxe", "on_hand_units": 84})]), after=0.05)
    b = function_call_response(ws, "resp_ws_2", 2, "get_supplier_eta", ['{"sku":"sku-froge-lily-pad-deluxe"}'],
                               "resp_ws_1", "auto")
    ws.send(create(previous_response_id="resp_ws_2", tools=TOOLS, tool_choice="none",
                   input=[output(b, {"sku": "sku-froge-lily-pad-deluxe", "eta_date": "2026-02-24"})]), after=0.05)
    text_response(ws, "resp_ws_3", ["84 units on hand; ", "restock arrives ", "2026-02-24."], "resp_ws_2", "none")
    ws.close(1000, after=0.02)
    return ws


def close_1006_mid_call() -> Socket:
    """The socket drops (1006: no close frame) while a function call's arguments stream."""
    ws = Socket()
    ws.send(create(input="Check stock for sku-froge-lily-pad-deluxe.", tools=TOOLS, tool_choice="required"))
    function_call_response(ws, "resp_ws_9", 9, "get_sku_inventory", ['{"sku":', '"sku-fro'], None, "required",
                           finish=False)
    ws.close(1006, after=0.4)
    return ws


FIXTURES = {"responses-two-tool-rounds.jsonl": two_tool_rounds,
            "responses-close-1006-mid-call.jsonl": close_1006_mid_call}


# ------------------------------------------------------------------ Realtime
RT_URL = "wss://api.openai.com/v1/realtime?model=gpt-realtime"
RT_REQUEST = {**HANDSHAKE_REQUEST, "url": RT_URL}
RT_TOOL = {"type": "function", "name": "get_weather", "description": "Current weather for a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}
AUDIO_BYTES = 3000
AUDIO = base64.b64encode(bytes(i * 7 % 256 for i in range(AUDIO_BYTES))).decode()
"""3 000 bytes of base64 standing for a chunk of PCM audio (the reader keeps its size only)."""


class RealtimeSocket(Socket):
    """Realtime server events carry an ``event_id`` and no ``sequence_number``."""

    def __init__(self) -> None:
        super().__init__(RT_REQUEST, HANDSHAKE_RESPONSE)
        self.events = 0

    def event(self, payload: dict, after: float = 0.02) -> None:
        self.events += 1
        self.recv({"event_id": f"event_{self.events:04d}", **payload}, after, seq=False)


def rt_response(rid: str, status: str, output: list) -> dict:
    usage = {"total_tokens": 230, "input_tokens": 180, "output_tokens": 50,
             "input_token_details": {"text_tokens": 60, "audio_tokens": 120, "cached_tokens": 0},
             "output_token_details": {"text_tokens": 20, "audio_tokens": 30}} if status != "in_progress" else None
    return {"id": rid, "object": "realtime.response", "status": status, "status_details": None, "output": output,
            "conversation_id": "conv_rt_1", "output_modalities": ["audio"], "max_output_tokens": "inf",
            "audio": {"output": {"format": {"type": "audio/pcm", "rate": 24000}, "voice": "marin"}},
            "usage": usage, "metadata": None}


def realtime_function_call() -> RealtimeSocket:
    """A voice turn (openai-python ``examples/realtime/push_to_talk_app.py``'s flow) that calls a
    function, the tool output sent back with ``conversation.item.create``, and the spoken answer."""
    ws = RealtimeSocket()
    session = {"type": "realtime", "model": "gpt-realtime", "output_modalities": ["audio"],
               "instructions": "You are a weather assistant.", "tools": [RT_TOOL], "tool_choice": "auto"}
    ws.event({"type": "session.created", "session": {**session, "id": "sess_rt_1", "object": "realtime.session",
                                                     "tools": [], "instructions": ""}}, after=0.3)
    ws.send({"type": "session.update", "session": session})
    ws.event({"type": "session.updated", "session": {**session, "id": "sess_rt_1", "object": "realtime.session"}})
    ws.send({"type": "input_audio_buffer.append", "audio": AUDIO}, after=0.1)
    ws.send({"type": "input_audio_buffer.append", "audio": AUDIO}, after=0.1)
    ws.send({"type": "input_audio_buffer.commit"}, after=0.05)
    ws.event({"type": "input_audio_buffer.committed", "item_id": "item_user_1", "previous_item_id": None})
    user = {"id": "item_user_1", "object": "realtime.item", "type": "message", "role": "user", "status": "completed",
            "content": [{"type": "input_audio", "transcript": None}]}
    ws.event({"type": "conversation.item.added", "item": user, "previous_item_id": None})
    ws.send({"type": "response.create"}, after=0.02)
    ws.event({"type": "response.created", "response": rt_response("resp_rt_1", "in_progress", [])}, after=0.25)
    call = {"id": "item_fc_1", "object": "realtime.item", "type": "function_call", "status": "in_progress",
            "call_id": "call_rt_1", "name": "get_weather", "arguments": ""}
    ws.event({"type": "response.output_item.added", "response_id": "resp_rt_1", "output_index": 0, "item": call})
    ws.event({"type": "conversation.item.added", "item": call, "previous_item_id": "item_user_1"}, after=0.001)
    parts = ['{"ci', 'ty":"Par', 'is"}']
    for part in parts:
        ws.event({"type": "response.function_call_arguments.delta", "response_id": "resp_rt_1", "item_id": "item_fc_1",
                  "output_index": 0, "call_id": "call_rt_1", "delta": part})
    args = "".join(parts)
    ws.event({"type": "response.function_call_arguments.done", "response_id": "resp_rt_1", "item_id": "item_fc_1",
              "output_index": 0, "call_id": "call_rt_1", "name": "get_weather", "arguments": args})
    done_call = {**call, "status": "completed", "arguments": args}
    ws.event({"type": "conversation.item.done", "item": done_call, "previous_item_id": "item_user_1"}, after=0.001)
    ws.event({"type": "response.output_item.done", "response_id": "resp_rt_1", "output_index": 0, "item": done_call},
             after=0.001)
    ws.event({"type": "response.done", "response": rt_response("resp_rt_1", "completed", [done_call])}, after=0.001)
    ws.event({"type": "rate_limits.updated", "rate_limits": [
        {"name": "tokens", "limit": 40000, "remaining": 39770, "reset_seconds": 0.345}]}, after=0.01)
    result = {"id": "item_out_1", "type": "function_call_output", "call_id": "call_rt_1",
              "output": json.dumps({"city": "Paris", "temperature_c": 18, "sky": "clear"})}
    ws.send({"type": "conversation.item.create", "item": result}, after=0.4)
    ws.event({"type": "conversation.item.added", "item": {**result, "object": "realtime.item", "status": "completed"},
              "previous_item_id": "item_fc_1"})
    ws.send({"type": "response.create"}, after=0.01)
    ws.event({"type": "response.created", "response": rt_response("resp_rt_2", "in_progress", [])}, after=0.2)
    msg = {"id": "item_msg_2", "object": "realtime.item", "type": "message", "role": "assistant",
           "status": "in_progress", "content": []}
    ws.event({"type": "response.output_item.added", "response_id": "resp_rt_2", "output_index": 0, "item": msg})
    ws.event({"type": "conversation.item.added", "item": msg, "previous_item_id": "item_out_1"}, after=0.001)
    ws.event({"type": "response.content_part.added", "response_id": "resp_rt_2", "item_id": "item_msg_2",
              "output_index": 0, "content_index": 0, "part": {"type": "audio", "transcript": ""}})
    words = ["It is ", "18 degrees ", "and clear in Paris."]
    for word in words:
        ws.event({"type": "response.output_audio_transcript.delta", "response_id": "resp_rt_2",
                  "item_id": "item_msg_2", "output_index": 0, "content_index": 0, "delta": word})
        ws.event({"type": "response.output_audio.delta", "response_id": "resp_rt_2", "item_id": "item_msg_2",
                  "output_index": 0, "content_index": 0, "delta": AUDIO}, after=0.01)
    ws.event({"type": "response.output_audio.done", "response_id": "resp_rt_2", "item_id": "item_msg_2",
              "output_index": 0, "content_index": 0})
    transcript = "".join(words)
    ws.event({"type": "response.output_audio_transcript.done", "response_id": "resp_rt_2", "item_id": "item_msg_2",
              "output_index": 0, "content_index": 0, "transcript": transcript}, after=0.001)
    ws.event({"type": "response.content_part.done", "response_id": "resp_rt_2", "item_id": "item_msg_2",
              "output_index": 0, "content_index": 0, "part": {"type": "audio", "transcript": transcript}}, after=0.001)
    done_msg = {**msg, "status": "completed", "content": [{"type": "output_audio", "transcript": transcript}]}
    ws.event({"type": "conversation.item.done", "item": done_msg, "previous_item_id": "item_out_1"}, after=0.001)
    ws.event({"type": "response.output_item.done", "response_id": "resp_rt_2", "output_index": 0, "item": done_msg},
             after=0.001)
    ws.event({"type": "response.done", "response": rt_response("resp_rt_2", "completed", [done_msg])}, after=0.001)
    ws.close(1000, after=0.5)
    return ws


FIXTURES["realtime-function-call.jsonl"] = realtime_function_call


def main() -> int:
    DATA.mkdir(exist_ok=True)
    for name, build in FIXTURES.items():
        (DATA / name).write_text(build().text(), encoding="utf-8")
        print(f"wrote {DATA / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

