"""Write the Bedrock corpus cases: ``uv run python -m tests.corpus.bedrock.build`` (from the project root).

Each case is a capture (``.jsonl`` native with ``b64`` records cut inside preludes, headers and
payloads, or ``.bin`` as ``curl -o`` saves a raw body) beside ``NAME.expect.json`` in the shared
corpus's format (``shared/tools/corpus_check.py``). Clean streams are shaped like real Bedrock
streams (header order, the ``p`` padding member, ``amazon-bedrock-invocationMetrics``); every rule
case has a near miss among the clean ones or its own ``*-near-miss`` case that must not fire.
``tests/corpus/test_bedrock_corpus.py`` checks that the files are what this script writes.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests import bedrock_frames as f

HERE = Path(__file__).parent
CONVERSE = "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse-stream"
INVOKE = "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke-with-response-stream"


def _converse_tool_turn() -> list[bytes]:
    return [f.message_start(), f.text(0, "Let me check"), f.text(0, " the weather."), f.stop(0),
            f.tool_start(1), f.tool_input(1, ""), f.tool_input(1, '{"city": "Par'), f.tool_input(1, 'is", "unit": "C"}'),
            f.stop(1), f.message_stop("tool_use"), f.metadata()]


def _anthropic(events: list[dict]) -> bytes:
    return b"".join(f.chunk(e) for e in events)


def _cuts(frames: list[bytes]) -> list[int]:
    """Record boundaries inside the prelude, the headers and the payload of successive messages."""
    out, pos = [], 0
    for k, fr in enumerate(frames):
        out.append(pos + (5, 30, len(fr) - 9)[k % 3])
        pos += len(fr)
    return out


def cases() -> dict[str, tuple[bytes | str, dict]]:
    """``{file name: (content, expectations)}``."""
    out: dict[str, tuple[bytes | str, dict]] = {}

    def converse(name: str, frames: list[bytes], expect: dict, *, raw: bool = False, end: str = "eof") -> None:
        body = b"".join(frames)
        expect = {"dialect": "bedrock-converse", **expect}
        if raw:
            out[f"{name}.bin"] = (body, expect)
        else:
            out[f"{name}.jsonl"] = (f.native(body, path=CONVERSE, cuts=_cuts(frames), end=end), expect)

    def invoke(name: str, events: list[dict], expect: dict, *, raw: bool = False) -> None:
        frames = [f.chunk(e) for e in events]
        body = b"".join(frames)
        expect = {"dialect": "bedrock-anthropic", **expect}
        if raw:
            out[f"{name}.bin"] = (body, expect)
        else:
            out[f"{name}.jsonl"] = (f.native(body, path=INVOKE, cuts=_cuts(frames)), expect)

    f.reset()
    converse("converse-text-clean", [f.message_start(), f.text(0, "Hello"), f.text(0, "! How can I help?"), f.stop(0),
                                     f.message_stop(), f.metadata()],
             {"clean": True, "stop_reason": "end_turn",
              "blocks": [{"kind": "text", "text": "Hello! How can I help?", "closed": True}],
              "source": "a text turn as ConverseStream sends it: no contentBlockStart for text; curl -o body"},
             raw=True)
    f.reset()
    converse("converse-tool-clean", _converse_tool_turn(),
             {"clean": True, "stop_reason": "tool_use",
              "blocks": [{"kind": "text", "text": "Let me check the weather.", "closed": True},
                         {"kind": "tool_use", "name": "get_weather", "id": "tooluse_Q2xlYW5TdHJlYW0x",
                          "arguments": '{"city": "Paris", "unit": "C"}', "status": "complete", "closed": True}],
              "source": "text then a tool call, input in fragments; network chunks cut inside preludes, headers, payloads"})
    f.reset()
    converse("converse-reasoning-clean",
             [f.message_start(), f.reasoning(0, text="The user wants"), f.reasoning(0, text=" a greeting."),
              f.reasoning(0, signature="RXF1aXZhbGVudFNpZ25hdHVyZQ=="), f.stop(0), f.text(1, "Hi!"), f.stop(1),
              f.message_stop(), f.metadata()],
             {"clean": True, "blocks": [{"kind": "reasoning", "text": "The user wants a greeting.", "closed": True},
                                        {"kind": "text", "text": "Hi!", "closed": True}],
              "source": "reasoningContent text and signature deltas (no start event), then text"})
    f.reset()
    converse("converse-empty-text-then-tool-near-miss",
             [f.message_start(), f.stop(0), f.tool_start(1), f.tool_input(1, "{}"), f.stop(1),
              f.message_stop("tool_use"), f.metadata()],
             {"clean": True, "source": "near miss for B002/B006: a bare contentBlockStop for an empty text block at "
                                       "index 0 (text has no start event), the tool at index 1"})
    f.reset()
    converse("converse-guardrail-tool-near-miss",
             [f.message_start(), f.tool_start(0), f.tool_input(0, '{"q": 1}'), f.stop(0),
              f.message_stop("guardrail_intervened"), f.metadata()],
             {"clean": True, "stop_reason": "guardrail_intervened",
              "source": "near miss for B008: a guardrail stopped the turn after a tool block; the reason says why"})
    f.reset()
    converse("converse-b001-missing-message-start", [f.text(0, "Hi"), f.stop(0), f.message_stop(), f.metadata()],
             {"flags": ["B001"], "source": "the stream starts with a delta"})
    f.reset()
    converse("converse-b002-delta-without-start",
             [f.message_start(), f.text(0, "Checking."), f.stop(0), f.tool_input(1, '{"city": "Paris"}'), f.stop(1),
              f.message_stop("tool_use"), f.metadata()],
             {"flags": ["B002"], "allow": ["B008"], "source": "toolUse input for an index no contentBlockStart opened"})
    f.reset()
    converse("converse-b003-delta-type-mismatch",
             [f.message_start(), f.tool_start(0), f.text(0, "oops"), f.tool_input(0, "{}"), f.stop(0),
              f.message_stop("tool_use"), f.metadata()],
             {"flags": ["B003"], "source": "a text delta sent to a toolUse block"})
    f.reset()
    converse("converse-b004-delta-after-stop",
             [f.message_start(), f.text(0, "Hi"), f.stop(0), f.text(0, " again"), f.message_stop(), f.metadata()],
             {"flags": ["B004"], "source": "a text delta after its block's contentBlockStop"})
    f.reset()
    converse("converse-b005-duplicate-start",
             [f.message_start(), f.tool_start(0), f.tool_input(0, '{"a": 1}'), f.stop(0),
              f.tool_start(0, name="lookup", tid="tooluse_U2Vjb25kQ2FsbA"), f.tool_input(0, "{}"), f.stop(0),
              f.message_stop("tool_use"), f.metadata()],
             {"flags": ["B005"], "source": "a second contentBlockStart for index 0"})
    f.reset()
    converse("converse-b006-index-gap",
             [f.message_start(), f.text(0, "Hi"), f.stop(0), f.tool_start(2), f.tool_input(2, "{}"), f.stop(2),
              f.message_stop("tool_use"), f.metadata()],
             {"flags": ["B006"], "source": "indexes 0 then 2"})
    f.reset()
    converse("converse-b007-block-never-stopped",
             [f.message_start(), f.text(0, "Hi"), f.message_stop(), f.metadata()],
             {"flags": ["B007"], "source": "a text block with no contentBlockStop"})
    f.reset()
    converse("converse-b008-end-turn-with-tool", _converse_tool_turn()[:-2] + [f.message_stop("end_turn"), f.metadata()],
             {"flags": ["B008"], "source": "a toolUse block, then stopReason end_turn"})
    f.reset()
    converse("converse-b008-tool-use-without-block",
             [f.message_start(), f.text(0, "Done."), f.stop(0), f.message_stop("tool_use"), f.metadata()],
             {"flags": ["B008"], "source": "stopReason tool_use with no toolUse block"})
    f.reset()
    converse("converse-b009-max-tokens-open-tool",
             [f.message_start(), f.tool_start(0), f.tool_input(0, '{"city": "Pa'), f.message_stop("max_tokens"),
              f.metadata()],
             {"flags": ["B009"], "allow": ["J005"], "stop_reason": "max_tokens",
              "source": "max_tokens while the tool input is incomplete and its block open"})
    f.reset()
    converse("converse-max-tokens-text-near-miss",
             [f.message_start(), f.text(0, "A long answer"), f.stop(0), f.message_stop("max_tokens"), f.metadata()],
             {"clean": True, "stop_reason": "max_tokens", "source": "near miss for B009: max_tokens with text only"})
    f.reset()
    converse("converse-b010-missing-stop-reason",
             [f.message_start(), f.text(0, "Hi"), f.stop(0), f.message_stop(None), f.metadata()],
             {"flags": ["B010"], "source": "messageStop without stopReason"})
    f.reset()
    converse("converse-b011-malformed-tool-use",
             [f.message_start(), f.text(0, "Calling"), f.stop(0), f.message_stop("malformed_tool_use"), f.metadata()],
             {"flags": ["B011"], "stop_reason": "malformed_tool_use", "source": "Bedrock could not parse the tool call"})
    f.reset()
    converse("converse-b012-invalid-tool-identity",
             [f.message_start(), f.tool_start(0, name="get weather", tid=""), f.tool_input(0, "{}"), f.stop(0),
              f.message_stop("tool_use"), f.metadata()],
             {"flags": ["B012"], "source": "an empty toolUseId and a name with a space"})
    f.reset()
    converse("converse-b013-missing-metadata", [f.message_start(), f.text(0, "Hi"), f.stop(0), f.message_stop()],
             {"flags": ["B013"], "clean": True, "source": "no metadata after messageStop (info)"})
    f.reset()
    converse("converse-s004-event-after-metadata",
             [f.message_start(), f.text(0, "Hi"), f.stop(0), f.message_stop(), f.metadata(), f.text(1, "late")],
             {"flags": ["S004"], "source": "a delta after messageStop and metadata"})
    f.reset()
    converse("converse-s006-exception",
             [f.message_start(), f.text(0, "Hel"), f.exception("modelStreamErrorException", "Model stream error")],
             {"flags": ["S006"], "allow": ["S003"], "source": "an exception message mid-stream"})
    f.reset()
    frames = [f.message_start(), f.text(0, "Hello"), f.text(0, " there"), f.stop(0), f.message_stop(), f.metadata()]
    corrupt = bytearray(frames[1])
    corrupt[-7] ^= 0x20  # one payload bit: the message CRC no longer matches
    converse("converse-s015-bad-message-crc", [frames[0], bytes(corrupt), *frames[2:]],
             {"flags": ["S015"], "blocks": [{"kind": "text", "text": " there"}],
              "source": "a flipped payload bit: that message is skipped, the rest decoded"})
    f.reset()
    frames = [f.message_start(), f.text(0, "Hello"), f.stop(0), f.message_stop(), f.metadata()]
    corrupt = bytearray(frames[1])
    corrupt[2] ^= 0x01  # the total length: the prelude CRC no longer matches
    converse("converse-s015-bad-prelude-crc", [frames[0], bytes(corrupt), *frames[2:]],
             {"flags": ["S015"], "source": "a flipped length bit: resync at the next prelude"},
             raw=True)
    f.reset()
    frames = [f.message_start(), f.text(0, "Hello"), f.stop(0), f.message_stop()]
    body = b"".join(frames) + f.metadata()[:-11]
    out["converse-s016-truncated-frame.bin"] = (body, {
        "dialect": "bedrock-converse", "flags": ["S016"],
        "source": "the body ends inside the metadata message (11 bytes missing)"})

    f.reset()
    invoke("bedrock-anthropic-text-clean",
           [f.a_message_start(), *f.a_text_block(0, "Hello", "! How can I help?"), *f.a_end()],
           {"clean": True, "stop_reason": "end_turn",
            "blocks": [{"kind": "text", "text": "Hello! How can I help?", "closed": True}],
            "source": "Claude on InvokeModelWithResponseStream: base64 Anthropic events in chunk messages; curl -o"},
           raw=True)
    f.reset()
    invoke("bedrock-anthropic-tool-clean",
           [f.a_message_start(), *f.a_text_block(0, "Let me check."),
            *f.a_tool_block(1, "", '{"city": "Par', 'is"}'), *f.a_end("tool_use")],
           {"clean": True, "stop_reason": "tool_use",
            "blocks": [{"kind": "tool_use", "name": "get_weather", "arguments": '{"city": "Paris"}',
                        "status": "complete", "closed": True}],
            "source": "a tool call through Bedrock, chunks cut inside messages"})
    f.reset()
    invoke("bedrock-anthropic-a007-end-turn-with-tool",
           [f.a_message_start(), *f.a_tool_block(0, '{"city": "Paris"}'), *f.a_end("end_turn")],
           {"flags": ["A007"], "source": "an A rule inside Bedrock chunks"})
    f.reset()
    invoke("bedrock-anthropic-a001-delta-without-start",
           [f.a_message_start(), *f.a_text_block(0, "Hi")[1:], *f.a_end()],
           {"flags": ["A001"], "source": "an A rule inside Bedrock chunks"})
    f.reset()
    events = [f.a_message_start(), *f.a_text_block(0, "Hel")]
    body = _anthropic(events[:3]) + f.exception("throttlingException", "Too many tokens, please wait")
    out["bedrock-anthropic-s006-exception.bin"] = (body, {
        "dialect": "bedrock-anthropic", "flags": ["S006"], "allow": ["S003"],
        "source": "a throttlingException message after the first delta"})
    f.reset()
    body = _anthropic([f.a_message_start(), *f.a_text_block(0, "Hi")]) + b'{"bytes": "not an event"}'
    out["bedrock-anthropic-text-instead-of-frame.bin"] = (body, {
        "dialect": "bedrock-anthropic", "flags": ["S015"], "allow": ["S003"],
        "source": "bytes that are no event-stream message after valid ones"})
    return out


def main() -> None:
    for old in HERE.glob("*.expect.json"):
        old.unlink()
    for old in [*HERE.glob("*.jsonl"), *HERE.glob("*.bin")]:
        old.unlink()
    for name, (content, expect) in cases().items():
        path = HERE / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
        stem = name.rsplit(".", 1)[0]
        (HERE / f"{stem}.expect.json").write_text(json.dumps(expect, indent=1, ensure_ascii=False) + "\n",
                                                  encoding="utf-8")


if __name__ == "__main__":
    main()
