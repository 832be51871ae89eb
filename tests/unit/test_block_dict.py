"""``Block.to_dict`` reads the status and the parsed input as ``Block.status`` and ``Block.input`` say,
without their layers (``to_dict`` runs once per block of every report)."""
from __future__ import annotations

import orjson
import pytest

from inspector.model.blocks import Block
from inspector.model.jsondepth import MAX_DEPTH, TooDeep, loads
from inspector.model.jsonprogress import JsonProgress

TEXTS = ["", " ", "\t\n", "\u2028", "\x1c\x1d\x1e\x1f", "\u3000", " {} ", "{}", '{"a": 1}', "[1, 2]", "1", '"x"',
         "null", "{", '{"a": 1} x', "\u00a0{}", "[" * MAX_DEPTH + "]" * MAX_DEPTH,
         "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), '{"a": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}",
         '{"a": "' + "x" * 300 + '"}']


def _reference_input(text: str):
    """What the input was before ``to_dict`` read it directly: blank is ``{}``, else ``jsondepth.loads``."""
    if not text.strip():
        return {}
    try:
        return loads(text)
    except (orjson.JSONDecodeError, TooDeep):
        return None


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize(("tool", "empty_is_object", "progress"), [
    (True, True, True), (True, False, True), (True, True, False), (False, False, False), (False, False, True)])
def test_to_dict_reads_status_and_input_as_the_properties_do(text, tool, empty_is_object, progress):
    b = Block("tool_use" if tool else "text", 0, tool=tool, empty_is_object=empty_is_object)
    if progress:
        b.progress = JsonProgress()
        if text:
            b.progress.feed(text)
    b.append(text)
    d = b.to_dict()
    assert d["status"] == b.status
    assert d["input"] == (_reference_input(text) if b.status == "complete" else None) == b.input
    assert (d["arguments"] if tool else d["text"]) == text
