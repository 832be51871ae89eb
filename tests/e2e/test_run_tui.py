"""``run`` under the proxy TUI (Pilot): the agent's exchange appears, its exit shows, its output waits.

The pieces are the ones ``run`` builds (``inspector.cli.run.tui_parts``): a proxy routing the
OpenAI SDK's variable to ``serve`` on 127.0.0.1, the proxy TUI, and the agent (the official
``openai`` SDK, pointed by environment only) with its output spooled while the TUI holds the screen.
"""
from __future__ import annotations

import os
import sys
import textwrap

import pytest

from inspector.cli.run import tui_parts, watch_agent
from inspector.net.launch import plan
from inspector.net.serve import ServerThread
from inspector.net.servers import bind_socket, url_for
from tests.e2e.conftest import WAIT_S

pytest.importorskip("textual")

from inspector.tui.widgets.exchange_list import COLUMNS, ExchangeList  # noqa: E402

AGENT = textwrap.dedent('''
    import sys
    import openai
    gpt = openai.OpenAI(api_key="sk-run-tui-test", max_retries=0, timeout=10)
    for chunk in gpt.chat.completions.create(model="gpt-x", messages=[{"role": "user", "content": "x"}], stream=True):
        pass
    print("agent out")
    print("agent err", file=sys.stderr)
    sys.exit(4)
''')


async def until(pilot, pred, what: str):
    for _ in range(int(3 * WAIT_S / 0.05)):
        if pred():
            return
        await pilot.pause(0.05)
    pytest.fail(f"timed out waiting for {what}")


async def test_the_tui_shows_the_agents_exchange_and_its_exit(corpus, tmp_path, capfd):
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "ANTHROPIC_"))}
    with ServerThread([corpus / "openai-parallel-indexed.sse"], instant=True) as srv:
        the_plan = plan({}, per={"openai": srv.url_for("openai-parallel-indexed") + "/v1"})
        sock = bind_socket("127.0.0.1", 0)
        app, agent, proxy = tui_parts([sys.executable, str(script)], the_plan, sock, url_for(sock),
                                      timeout=WAIT_S, base_env=env)
        proxy.start()
        said: list[str] = []  # every notification (one that expired under a loaded machine included)
        shown = app.notify
        app.notify = lambda message, **kw: (said.append(str(message)), shown(message, **kw))[1]  # type: ignore[method-assign]  # record, then show
        try:
            async with app.run_test(size=(160, 48)) as pilot:
                agent.start()
                watch_agent(agent, app, "agent.py")
                await until(pilot, lambda: app.sub_title == "agent.py exited with 4", "the agent's exit")
                await until(pilot, lambda: app.exchanges and app.exchanges[0].done, "the exchange")
                app.refresh_now()
                await pilot.pause()
                table = app.query_one(ExchangeList)
                assert table.row_count == 1
                row = {key: str(table.get_cell("1", key)) for key, _ in COLUMNS}
                assert row["path"] == "/openai/chat/completions" and row["status"] == "200"
                assert app.feed.session.dialect_name == "openai-chat" and len(app.feed.session.blocks) == 2
                assert "agent out" not in capfd.readouterr().out  # held while the TUI owns the screen
                # what the headless banner says about traffic no variable redirects, said here too
                assert any("openai-agents' trace exporter" in m for m in said)
        finally:
            assert agent.stop() == 4
            proxy.stop()
        agent.replay_output()
        out, err = capfd.readouterr()
        assert out == "agent out\n" and err == "agent err\n"
