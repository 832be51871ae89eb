"""OpenAI Responses: a clean stream is clean; each R rule (and S003/S004/S006/S008/J007) fires on its
shape and not on a near miss; chunk boundaries never change the result."""
from __future__ import annotations

import pytest

from inspector.model.capture import Capture, Chunk
from inspector.report.json import report_dict
from inspector.feeds.run import run_capture
from tests.helpers import check_bytes, codes, sse


class Seq:
    """Builds events with consecutive sequence numbers."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self, typ: str, **kw) -> dict:
        ev = {"type": typ, **kw, "sequence_number": self.n}
        self.n += 1
        return ev


def fc_item(iid="fc_1", name="lookup", args="", status="in_progress", call_id="call_1", **kw):
    item = {"type": "function_call", "call_id": call_id, "name": name, "arguments": args, "status": status, **kw}
    if iid is not None:
        item["id"] = iid
    return item


def msg_item(iid="msg_1", text=None, status="in_progress"):
    content = [] if text is None else [{"type": "output_text", "text": text, "annotations": []}]
    return {"type": "message", "id": iid, "role": "assistant", "status": status, "content": content}


def clean_events(e: Seq | None = None) -> list[dict]:
    e = e or Seq()
    return [
        e("response.created", response={"id": "resp_1", "status": "in_progress", "model": "gpt-test", "output": []}),
        e("response.in_progress", response={"id": "resp_1", "status": "in_progress", "output": []}),
        e("response.output_item.added", output_index=0, item=msg_item()),
        e("response.content_part.added", item_id="msg_1", output_index=0, content_index=0,
          part={"type": "output_text", "text": ""}),
        e("response.output_text.delta", item_id="msg_1", output_index=0, content_index=0, delta="Let me "),
        e("response.output_text.delta", item_id="msg_1", output_index=0, content_index=0, delta="check."),
        e("response.output_text.done", item_id="msg_1", output_index=0, content_index=0, text="Let me check."),
        e("response.content_part.done", item_id="msg_1", output_index=0, content_index=0,
          part={"type": "output_text", "text": "Let me check."}),
        e("response.output_item.done", output_index=0, item=msg_item(text="Let me check.", status="completed")),
        e("response.output_item.added", output_index=1, item=fc_item()),
        e("response.function_call_arguments.delta", item_id="fc_1", output_index=1, delta='{"q":'),
        e("response.function_call_arguments.delta", item_id="fc_1", output_index=1, delta='"tides"}'),
        e("response.function_call_arguments.done", item_id="fc_1", output_index=1, arguments='{"q":"tides"}'),
        e("response.output_item.done", output_index=1, item=fc_item(args='{"q":"tides"}', status="completed")),
        e("response.completed", response={"id": "resp_1", "status": "completed", "model": "gpt-test", "output": [
            msg_item(text="Let me check.", status="completed"), fc_item(args='{"q":"tides"}', status="completed")]}),
    ]


def run(*events, **kw):
    return check_bytes(sse(*events), **kw)


def resp(*events):
    """Renumber ``events`` consecutively (tests build them out of order)."""
    out = []
    for n, ev in enumerate(events):
        ev = dict(ev)
        ev["sequence_number"] = n
        out.append(ev)
    return out


def created():
    return {"type": "response.created", "response": {"id": "r", "status": "in_progress", "output": []}}


def added(oi, item):
    return {"type": "response.output_item.added", "output_index": oi, "item": item}


def delta(oi, text, iid="fc_1"):
    ev = {"type": "response.function_call_arguments.delta", "output_index": oi, "delta": text}
    if iid is not None:
        ev["item_id"] = iid
    return ev


def args_done(oi, text, iid="fc_1"):
    ev = {"type": "response.function_call_arguments.done", "output_index": oi, "arguments": text}
    if iid is not None:
        ev["item_id"] = iid
    return ev


def item_done(oi, item):
    return {"type": "response.output_item.done", "output_index": oi, "item": item}


def terminal(status="completed", output=None, typ=None, **extra):
    return {"type": typ or f"response.{status}",
            "response": {"id": "r", "status": status, "output": output or [], **extra}}


def call(args_text='{"q":1}', *, iid="fc_1", deltas=None):
    """The events of one function call at output_index 0."""
    out = [added(0, fc_item(iid=iid))]
    for d in (deltas if deltas is not None else [args_text]):
        out.append(delta(0, d, iid))
    out += [args_done(0, args_text, iid), item_done(0, fc_item(iid=iid, args=args_text, status="completed"))]
    return out


# --------------------------------------------------------------------------- clean
def test_clean_stream_is_clean_and_assembles():
    s = run(*clean_events())
    assert codes(s) == []
    assert s.dialect_name == "openai-responses" and s.stop_reason == "completed" and s.model == "gpt-test"
    m, f = s.blocks
    assert (m.kind, m.index, m.content, m.closed, m.status) == ("message", 0, "Let me check.", True, None)
    assert (f.kind, f.index, f.id, f.name, f.status, f.input, f.deltas) == (
        "function_call", 1, "fc_1", "lookup", "complete", {"q": "tides"}, 2)
    assert f.call_id == "call_1"


def test_done_after_completed_is_tolerated():
    assert codes(check_bytes(sse(*clean_events()) + b"data: [DONE]\n\n")) == []


def test_arguments_only_in_done_event():
    s = run(*resp(created(), added(0, fc_item()), args_done(0, '{"a":1}'),
                  item_done(0, fc_item(args='{"a":1}', status="completed")), terminal()))
    assert codes(s) == []
    assert s.blocks[0].input == {"a": 1} and s.blocks[0].deltas == 0 and s.blocks[0].closed


def test_arguments_only_in_output_item_done():
    s = run(*resp(created(), added(0, fc_item()), item_done(0, fc_item(args='{"a":1}', status="completed")),
                  terminal()))
    assert codes(s) == []
    assert s.blocks[0].input == {"a": 1}


def test_arguments_from_done_are_judged_by_the_j_rules():
    s = run(*resp(created(), added(0, fc_item()), args_done(0, '{"a":'),
                  item_done(0, fc_item(args='{"a":', status="completed")), terminal()))
    assert "J002" in codes(s) and s.blocks[0].status == "partial"


def test_message_text_from_item_done_when_no_deltas():
    s = run(*resp(created(), added(0, msg_item()), item_done(0, msg_item(text="hi", status="completed")),
                  terminal()))
    assert codes(s) == [] and s.blocks[0].content == "hi"


def test_reasoning_summary_text_goes_on_the_reasoning_block():
    item = {"type": "reasoning", "id": "rs_1", "summary": []}
    s = run(*resp(created(), added(0, item),
                  {"type": "response.reasoning_summary_text.delta", "item_id": "rs_1", "output_index": 0,
                   "summary_index": 0, "delta": "thinking"},
                  item_done(0, item), terminal()))
    assert codes(s) == [] and (s.blocks[0].kind, s.blocks[0].content) == ("reasoning", "thinking")


# --------------------------------------------------------------------------- R rules
def test_R001_event_for_an_unannounced_item():
    s = run(*resp(created(), delta(3, "{}", "fc_9"), terminal()))
    assert "R001" in codes(s) and not s.blocks
    ok = run(*resp(created(), *call(), terminal()))
    assert "R001" not in codes(ok)


def test_item_id_unknown_while_index_names_another_item_is_R010_not_R001():
    # RULES.md v2 R010: attributed by output_index, as the official SDK does; no R001.
    s = run(*resp(created(), added(0, fc_item()), delta(0, "{}", "fc_other"), args_done(0, "{}"),
                  item_done(0, fc_item(args="{}")), terminal()))
    assert codes(s) == ["R010"] and s.blocks[0].input == {}


def test_R002_deltas_differ_from_done():
    s = run(*resp(created(), added(0, fc_item()), delta(0, '{"a":1}'), args_done(0, '{"a":2}'),
                  item_done(0, fc_item(args='{"a":2}')), terminal()))
    assert codes(s) == ["R002"]
    assert s.blocks[0].input == {"a": 1}


def test_R002_against_output_item_done_and_completed():
    s = run(*resp(created(), added(0, fc_item()), delta(0, '{"a":1}'),
                  item_done(0, fc_item(args='{"a":2}')), terminal()))
    assert codes(s) == ["R002"]
    s = run(*resp(created(), added(0, fc_item()), delta(0, '{"a":1}'), item_done(0, fc_item(args='{"a":1}')),
                  terminal(output=[fc_item(args='{"b":1}')])))
    assert codes(s) == ["R002"]


def test_R002_near_miss_equal_texts_and_no_deltas():
    assert codes(run(*resp(created(), *call('{"a":1}', deltas=['{"a"', ':1}']), terminal(
        output=[fc_item(args='{"a":1}')])))) == []


def test_R003_sequence_gap_and_near_miss():
    evs = resp(created(), *call(), terminal())
    evs[2]["sequence_number"] = 7
    s = run(*evs)
    assert codes(s).count("R003") == 2  # 1 -> 7, then 7 -> 3
    assert "R003" not in codes(run(*resp(created(), *call(), terminal())))


def test_R004_item_never_done():
    s = run(*resp(created(), added(0, msg_item()),
                  {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 0, "delta": "x"},
                  terminal()))
    assert codes(s) == ["R004"]
    assert s.findings[0].event == 3  # reported at the terminal event


def test_R005_incomplete_while_call_open():
    s = run(*resp(created(), added(0, fc_item()), delta(0, '{"body":"abc'),
                  terminal("incomplete", incomplete_details={"reason": "max_output_tokens"})))
    assert {"R005", "R004", "J005"} <= set(codes(s))
    assert s.stop_reason == "incomplete" and "S003" not in codes(s)
    assert "max_output_tokens" in next(f.message for f in s.findings if f.code == "R005")


def test_R005_near_miss_call_complete_before_incomplete():
    s = run(*resp(created(), *call(), terminal("incomplete")))
    assert "R005" not in codes(s) and s.stop_reason == "incomplete"


def test_R005_failed_with_item_marked_incomplete():
    s = run(*resp(created(), added(0, fc_item()), delta(0, "{}"), args_done(0, "{}"),
                  item_done(0, fc_item(args="{}", status="incomplete")), terminal("failed")))
    assert "R005" in codes(s) and s.stop_reason == "failed"


def test_R006_item_without_id_correlated_by_output_index():
    s = run(*resp(created(), *call(iid=None), terminal()))
    assert codes(s) == ["R006"]
    assert s.blocks[0].input == {"q": 1}


def test_R006_events_without_item_id():
    evs = [added(0, fc_item()), delta(0, "{}", iid=None), args_done(0, "{}"), item_done(0, fc_item(args="{}"))]
    assert codes(run(*resp(created(), *evs, terminal()))) == ["R006"]


def test_R007_output_index_reused_and_replaced_item_is_quiet():
    s = run(*resp(created(), added(0, fc_item("fc_1")), delta(0, '{"a', "fc_1"), added(0, fc_item("fc_2")),
                  delta(0, "{}", "fc_2"), args_done(0, "{}", "fc_2"), item_done(0, fc_item("fc_2", args="{}")),
                  terminal()))
    assert codes(s) == ["R007"]
    old, new = s.blocks
    assert old.replaced and new.input == {}


def test_R007_near_miss_same_item_announced_twice():
    s = run(*resp(created(), added(0, fc_item()), *call(), terminal()))
    assert "R007" not in codes(s)


def test_R008_first_event_not_created():
    s = run(*resp({"type": "response.in_progress", "response": {"status": "in_progress"}}, *call(), terminal()))
    assert codes(s) == ["R008"]


# --------------------------------------------------------------------------- S and J rules
def test_S003_no_terminal_event():
    s = run(*resp(created(), *call()))
    assert codes(s) == ["S003"]


def test_S004_event_after_terminal():
    s = run(*resp(created(), *call(), terminal(),
                  {"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 1, "delta": "x"}))
    assert codes(s) == ["S004"]


def test_S006_error_event():
    s = run(*resp(created(), {"type": "error", "code": "server_error", "message": "boom", "param": None}))
    assert "S006" in codes(s)
    msg = next(f.message for f in s.findings if f.code == "S006")
    assert "server_error" in msg and "boom" in msg


def test_S008_unknown_event_and_item_types_are_info():
    s = run(*resp(created(), {"type": "response.brand_new.thing", "output_index": 0},
                  added(0, {"type": "hologram_call", "id": "h_1"}), item_done(0, {"type": "hologram_call", "id": "h_1"}),
                  terminal()))
    found = [f for f in s.findings if f.code == "S008"]
    assert len(found) == 2 and all(f.severity == "info" for f in found)
    assert s.blocks[0].kind == "hologram_call"


def test_J007_function_call_without_arguments():
    s = run(*resp(created(), added(0, fc_item()), args_done(0, ""), item_done(0, fc_item(args="")), terminal()))
    assert codes(s) == ["J007"] and s.blocks[0].status == "empty"


def test_J001_invalid_argument_delta():
    s = run(*resp(created(), *call("{]"), terminal()))
    assert "J001" in codes(s)


def test_sniffed_from_the_payload_without_event_names():
    s = check_bytes(sse(*clean_events(), named=False))
    assert s.dialect_name == "openai-responses" and codes(s) == []


def test_bad_shapes_never_crash():
    s = run(*resp(created(), {"type": "response.output_item.added", "output_index": 0, "item": "x"},
                  {"type": "response.output_item.done", "output_index": "a", "item": None},
                  {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": 5},
                  terminal()))
    assert s.closed


# --------------------------------------------------------------------------- chunk-split invariance
def _result(cap) -> dict:
    rep = report_dict("x", run_capture(cap))
    return {k: rep[k] for k in ("blocks", "findings", "stop_reason", "dialect")}


@pytest.mark.parametrize("size", [1, 5, 64])
def test_chunk_split_invariance(size):
    body = sse(*resp(created(), added(0, fc_item()), delta(0, '{"a":'), delta(0, '"é"}'), args_done(0, '{"a":"x"}'),
                     item_done(0, fc_item(args='{"a":"x"}')), terminal())) + sse(*clean_events())
    whole = _result(Capture(chunks=[Chunk(None, body)]))
    assert {f["code"] for f in whole["findings"]} >= {"R002", "S004"}
    split = Capture(chunks=[Chunk(None, body[i:i + size]) for i in range(0, len(body), size)])
    assert _result(split) == whole
