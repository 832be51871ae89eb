"""google-genai, the real client, through ``proxy`` against ``serve``: a Gemini 3 tool round with a
``thoughtSignature`` (issue 23 item 2).

The server sends the signature in standard base64 (``+``, ``/``); google-genai decodes it to bytes
and sends it back URL-safe (``-``, ``_``): the same signature, so the next exchange has no Q004.
"""
from __future__ import annotations

import pytest
from google import genai
from google.genai import types

from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.conftest import ROOT
from tests.e2e.conftest import WAIT_S

CAPTURE = ROOT / "tests/real_streams/gemini/pydantic-tool-call-thought-signature.sse"
NAME = CAPTURE.stem


@pytest.fixture
def proxied():
    with ServerThread([CAPTURE], instant=True) as srv, ProxyThread(srv.url, timeout=WAIT_S) as px:
        yield px


def test_genai_tool_round_with_a_thought_signature_is_not_q004(proxied):
    client = genai.Client(api_key="genai-test-key",
                          http_options=types.HttpOptions(base_url=f"{proxied.url}/{NAME}", timeout=int(WAIT_S * 1000)))
    tool = types.Tool(function_declarations=[types.FunctionDeclaration(
        name="get_country", description="The user's country", parameters={"type": "object", "properties": {}})])
    config = types.GenerateContentConfig(tools=[tool])
    question = types.Content(role="user", parts=[types.Part(text="Which country am I in?")])
    parts: list[types.Part] = []
    for chunk in client.models.generate_content_stream(model="gemini-3-pro-preview", contents=[question],
                                                       config=config):
        parts += [p for c in chunk.candidates or [] for p in (c.content.parts or []) if c.content]
    call = next(p for p in parts if p.function_call)
    assert call.function_call.name == "get_country" and call.thought_signature  # bytes, decoded by the SDK
    model_turn = types.Content(role="model", parts=[call])
    answer = types.Content(role="user", parts=[types.Part(function_response=types.FunctionResponse(
        name="get_country", response={"country": "Brazil"}))])
    for _ in client.models.generate_content_stream(model="gemini-3-pro-preview",
                                                   contents=[question, model_turn, answer], config=config):
        pass
    one, two = proxied.wait_reports(2)
    sent = proxied.log.exchanges[1].request["body"]["contents"][1]["parts"][0]["thoughtSignature"]
    assert "-" in sent or "_" in sent  # the client really did send it back URL-safe
    assert [f["code"] for f in two["findings"] if f["code"].startswith("Q")] == []
    assert two["continues"] == 1
