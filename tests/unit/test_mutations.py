"""Every mutation, applied to its dialect's reference capture, makes ``check`` find exactly its codes.

Reference captures: the bundled ones (``inspector/data/captures``) where a dialect has one, else a
clean corpus capture. Each mutated capture is written as a native capture file and checked by the
``check`` command, as a user would.
"""
from __future__ import annotations

import json

import pytest

from inspector.capture.bundled import captures_dir
from inspector.capture.load import load_path
from inspector.capture.recorder import Recorder
from inspector.cli.serve import list_mutations
from inspector.net.conform.mutate import MutateError, Spec, apply, parse_specs
from inspector.providers.conformers import CONFORMANCE
from inspector.providers.mutations import NotApplicable
from tests.conftest import ROOT, SHARED_CORPUS
from tests.e2e.conftest import run_cli

REFERENCE = {
    "anthropic": captures_dir() / "1-anthropic-tool-call.jsonl",
    "openai": captures_dir() / "3-openai-parallel-tool-calls.jsonl",
    "openai-responses": SHARED_CORPUS / "openclaude-1262-responses-args-only-in-done.sse",
    "gemini": SHARED_CORPUS / "wild-gemini-partial-args.sse",
    "ollama": SHARED_CORPUS / "ollama-newapi-7252-toolcall-in-final-done-line.ndjson",
    "cohere": ROOT / "tests" / "real_streams" / "cohere" / "docs-tool-use-streaming-tool-calls.sse",
}
CASES = [(p, mu.name) for p, conf in CONFORMANCE.items() for mu in conf.mutations]

_LOOKUP = "lookup_docs"
TWO_TOOLS = {
    "anthropic": [{"name": n, "input_schema": {"type": "object"}} for n in ("get_weather", _LOOKUP)],
    "openai-responses": [{"type": "function", "name": n, "parameters": {"type": "object"}} for n in ("Glob", _LOOKUP)],
    "gemini": [{"functionDeclarations": [{"name": n, "parameters": {"type": "object"}}
                                         for n in ("get_forecast", _LOOKUP)]}],
    "ollama": [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
               for n in ("get_weather", _LOOKUP)],
    "cohere": [{"type": "function", "function": {"name": n, "parameters": {"type": "object"}}}
               for n in ("get_weather", _LOOKUP)],
}
"""``wrong-tool-choice`` needs a second tool to choose: for a reference that calls one tool and records no
request, a request declaring that tool and ``lookup_docs`` (any arguments fit both)."""


def reference(provider: str, name: str):
    cap = load_path(REFERENCE[provider])
    if name == "wrong-tool-choice" and provider in TWO_TOOLS:
        body = {"model": "m", "stream": True, "tools": TWO_TOOLS[provider]}
        cap = cap.copy_with(request={**(cap.request or {"method": "POST", "url": "", "headers": {}}), "body": body})
    return cap


def write(mc, path) -> str:
    with Recorder(path, mc.capture.request, mc.capture.response) as rec:
        for c in mc.capture.chunks:
            rec.write_chunk(c)
        rec.write_end(mc.capture.end)
    return str(path)


def checked_codes(path) -> set[str]:
    code, out, err = run_cli(["check", "--format", "json", path])
    assert code in (0, 1), err
    return {f["code"] for f in json.loads(out)["findings"]}


def test_every_provider_has_a_reference_capture_and_it_is_clean():
    assert set(REFERENCE) == set(CONFORMANCE)
    for provider, path in REFERENCE.items():
        assert checked_codes(str(path)) == set(), provider


@pytest.mark.parametrize("provider,name", CASES, ids=[f"{p}-{n}" for p, n in CASES])
def test_check_finds_exactly_the_mutation_codes(provider, name, tmp_path):
    ref = REFERENCE[provider]
    mc = apply(ref.stem, str(ref), reference(provider, name), Spec(name))
    assert mc.provider == provider
    assert checked_codes(write(mc, tmp_path / "mutated.jsonl")) == set(mc.mutation.codes)


@pytest.mark.parametrize("provider", list(CONFORMANCE))
def test_mutations_are_documented(provider):
    names = [mu.name for mu in CONFORMANCE[provider].mutations]
    assert len(names) == len(set(names))
    for mu in CONFORMANCE[provider].mutations:
        assert mu.summary and mu.reports, mu.name
        assert all(isinstance(r, str) and r for r in mu.reports)


def test_serve_mutations_lists_every_mutation_with_its_codes_and_reports():
    code, out, _ = run_cli(["serve", "--mutations"])
    assert code == 0
    for conf in CONFORMANCE.values():
        for mu in conf.mutations:
            assert mu.name in out and mu.summary in out and mu.reports[0] in out
    rows = [json.loads(line) for line in list_mutations("json").splitlines()]
    assert len(rows) == sum(len(c.mutations) for c in CONFORMANCE.values())
    assert {"provider": "anthropic", "mutation": "drop-index", "codes": ["A001"]}.items() <= rows[0].items()


def test_the_utf8_split_really_splits_a_character_across_chunks():
    ref = REFERENCE["anthropic"]
    mc = apply(ref.stem, str(ref), load_path(ref), Spec("utf8-split"))
    broken = [c for c in mc.capture.chunks if not _decodes(c.data)]
    assert len(broken) == 2  # the lead bytes end one chunk, the continuation bytes start the next
    assert mc.pauses and min(mc.pauses.values()) > 0  # kept apart on the wire even under --instant
    truth = b"".join(c.data for c in mc.truth.chunks).decode()
    assert "\u2014" in truth  # the bundled capture had no multi-byte character: one was put in the text


def _decodes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def test_stall_takes_its_length_and_keeps_the_pause_under_instant():
    ref = REFERENCE["openai"]
    mc = apply(ref.stem, str(ref), load_path(ref), Spec("stall", 3.0))
    assert list(mc.pauses.values()) == [3.0]
    k = next(iter(mc.pauses))
    assert mc.capture.chunks[k].t - mc.capture.chunks[k - 1].t == pytest.approx(3.0, abs=0.2)


def test_a_stream_without_a_tool_call_is_not_applicable_with_a_reason(tmp_path):
    text_only = tmp_path / "hello.sse"
    text_only.write_text(
        'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant",'
        '"model":"m","content":[],"stop_reason":null,"usage":{"input_tokens":1,"output_tokens":1}}}\n\n'
        'event: message_stop\ndata: {"type":"message_stop"}\n\n')
    with pytest.raises(NotApplicable, match="no tool_use block"):
        apply("hello", str(text_only), load_path(text_only), Spec("drop-index"))
    with pytest.raises(NotApplicable, match="not a mutation of the anthropic-messages dialect"):
        apply("hello", str(text_only), load_path(text_only), Spec("repeat-identity"))


@pytest.mark.parametrize("text,message", [
    ("nope", "unknown mutation 'nope'"),
    ("drop-index=3", "drop-index takes no value"),
    ("stall=abc", "the value must be a number"),
    ("stall=-1", "seconds must be between"),
    (",", "at least one mutation"),
])
def test_bad_mutate_specs_are_one_line_errors(text, message):
    with pytest.raises(MutateError, match=message):
        parse_specs(text)


def test_specs_keep_order_and_all_expands():
    assert [str(s) for s in parse_specs("stall=2, bom")] == ["stall=2", "bom"]
    assert {s.name for s in parse_specs("all")} >= {"drop-index", "repeat-identity", "malformed-call", "bom"}


def test_serve_with_a_mutation_that_applies_to_nothing_exits_2(tmp_path):
    code, _, err = run_cli(["serve", str(REFERENCE["anthropic"]), "--mutate", "repeat-identity"])
    assert code == 2
    assert "repeat-identity applies to none of the captures" in err


def test_utf8_split_accents_a_value_the_deltas_split_consistently():
    """Responses deltas split ``Beijing`` (``Bei`` + ``jing``): the accent goes on a piece one delta
    holds, so the deltas, the ``.done`` event and the final item still agree (no R finding) and the
    assembled call carries the character."""
    from inspector.feeds.run import run_capture
    from inspector.report.json import report_dict

    ref = ROOT / "tests" / "real_streams" / "openai-responses" / "vercel-gpt-5.1-function-call.sse"
    mc = apply(ref.stem, str(ref), load_path(ref), Spec("utf8-split"))
    rep = report_dict("x", run_capture(mc.truth))
    assert rep["findings"] == [] and rep["stop_reason"] == "completed"
    (call,) = [b for b in rep["blocks"] if b.get("name") == "get_weather"]
    assert "\u00e9" in json.dumps(call, ensure_ascii=False)


@pytest.mark.parametrize("provider", sorted(TWO_TOOLS))
def test_wrong_tool_choice_renames_every_copy_of_the_call_to_the_other_declared_tool(provider, tmp_path):
    ref = REFERENCE[provider]
    with pytest.raises(NotApplicable, match="no other tool"):  # one tool called, none other declared
        apply(ref.stem, str(ref), load_path(ref), Spec("wrong-tool-choice"))
    mc = apply(ref.stem, str(ref), reference(provider, "wrong-tool-choice"), Spec("wrong-tool-choice"))
    code, out, _ = run_cli(["check", "--format", "json", write(mc, tmp_path / "mutated.jsonl")])
    names = {b.get("name") for b in json.loads(out)["blocks"] if b.get("name")}
    assert names == {_LOOKUP}, names
    assert "called as lookup_docs" in mc.where
