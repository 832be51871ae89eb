"""The WebSocket fixtures speak the SDK's own types, and the files are what the builder writes."""
from __future__ import annotations

import json
import typing

import pytest
from openai.types.realtime import RealtimeClientEvent, RealtimeServerEvent
from openai.types.responses import ResponsesClientEvent, ResponsesServerEvent

from tests.websocket import fixtures as fx


def by_type(union) -> dict:
    """The members of an SDK event union (``Annotated[Union[...], discriminator]``) by their ``type``."""
    out = {}
    for cls in typing.get_args(typing.get_args(union)[0]) or typing.get_args(union):
        for literal in typing.get_args(cls.model_fields["type"].annotation):
            out[literal] = cls
    return out


TYPES = {
    "responses": (by_type(ResponsesClientEvent), by_type(ResponsesServerEvent)),
    "realtime": (by_type(RealtimeClientEvent), by_type(RealtimeServerEvent)),
}


@pytest.mark.parametrize("name", sorted(fx.FIXTURES))
def test_every_message_validates_against_the_sdk_types(name):
    client, server = TYPES[name.split("-", 1)[0]]
    records = fx.FIXTURES[name]().records
    messages = [r for r in records if "ws" in r]
    assert messages
    for rec in messages:
        payload = json.loads(rec["data"])
        cls = (client if rec["ws"] == "send" else server)[payload["type"]]
        cls.model_validate(payload)  # raises on a shape the SDK does not have


@pytest.mark.parametrize("name", sorted(fx.FIXTURES))
def test_the_files_are_what_the_builder_writes(name):
    assert (fx.DATA / name).read_text(encoding="utf-8") == fx.FIXTURES[name]().text(), \
        "run `uv run python -m tests.websocket.fixtures`"
