"""A Cohere v2 chat capture in the TUI: its plan and tool calls as panels, its event-log lines led by
the index and the fragment, and a K001 finding explained in the user's terms."""
from __future__ import annotations

from inspector.capture.load import load_path
from inspector.feeds.replay import Playback
from inspector.net.conform.mutate import Spec, apply
from inspector.providers import summarize
from inspector.tui.app import make_app
from tests.conftest import ROOT
from tests.ui.conftest import explain, playback, settle

TOOLS = ROOT / "tests" / "real_streams" / "cohere" / "docs-tool-use-streaming-tool-calls.sse"
SIZE = (150, 44)


async def test_the_docs_capture_shows_the_plan_and_both_calls():
    pb = playback(TOOLS, instant=True)
    app = make_app(pb)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert [b.kind for b in app.shown_blocks] == ["tool_plan", "tool_call", "tool_call"]
        assert app.shown_blocks == pb.session.blocks
    lines = [summarize(ev, "cohere-chat") for ev in pb.session.events]
    assert lines[12] == '#0 get_weather_p1t92w7gfgq7 get_weather arguments ""'
    assert lines[13] == '#0 arguments "{\\n    \\""'
    assert lines[1] == 'tool_plan "I"' and lines[-1].startswith("finish_reason=TOOL_CALL ")


async def test_k001_is_explained_with_what_the_cohere_sdk_does():
    mc = apply(TOOLS.stem, str(TOOLS), load_path(TOOLS), Spec("tool-calls-as-list"))
    app = make_app(Playback(mc.capture, label="k001", instant=True))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = " ".join(str(w.render()) for w in await explain(pilot, "K001"))
        assert "Skipping SSE event due to model construction error" in text and "cohere-python" in text
