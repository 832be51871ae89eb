"""``stream-inspector mcp``: the server run as a real process on stdio, driven by the official MCP SDK's
own client (``ClientSession`` over ``stdio_client``), over a folder a running ``proxy --record`` fills
while a real SDK client talks through it to ``serve`` on 127.0.0.1."""
from __future__ import annotations

import os
import sys

import anthropic
import httpx2
import pytest

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from inspector.net.proxy.server import ProxyThread  # noqa: E402
from inspector.net.serve import ServerThread  # noqa: E402
from tests.conftest import ROOT, SHARED_CORPUS  # noqa: E402

CLEAN = SHARED_CORPUS / "anthropic-doc-tool-call.sse"
EARLY_STOP = SHARED_CORPUS / "anthropic-stop-before-json-complete.sse"
KEY = "sk-ant-api03-mcptest" + "Z" * 30


def _through_proxy(px_url: str, name: str) -> None:
    client = anthropic.Anthropic(base_url=f"{px_url}/{name}", api_key=KEY, max_retries=0,
                                 http_client=httpx2.Client(timeout=30))
    with client.messages.stream(model="claude-mcp", max_tokens=9,
                                messages=[{"role": "user", "content": "hi"}]) as s:
        s.until_done()


async def _call(session: ClientSession, tool: str, **arguments) -> str:
    result = await session.call_tool(tool, arguments)
    assert not result.is_error if hasattr(result, "is_error") else not result.isError
    return "\n".join(c.text for c in result.content)


async def test_mcp_tools_over_stdio_answer_in_stream_terms(tmp_path):
    rec = tmp_path / "recordings"
    rec.mkdir()
    with ServerThread([CLEAN, EARLY_STOP], instant=True) as srv, ProxyThread(srv.url, record_dir=rec) as px:
        params = StdioServerParameters(command=sys.executable, args=["-m", "inspector", "mcp", str(rec)],
                                       cwd=str(ROOT), env={k: v for k, v in os.environ.items()})
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name for t in (await session.list_tools()).tools}
            assert tools == {"list_exchanges", "get_exchange", "check_capture", "explain_rule", "diff_captures"}
            assert "no recorded stream" in await _call(session, "list_exchanges")
            # The proxy is running: what it records is there at the next call.
            _through_proxy(px.url, CLEAN.stem)
            _through_proxy(px.url, EARLY_STOP.stem)
            px.wait_reports(2)
            listing = await _call(session, "list_exchanges", only_with_findings=True)
            lines = listing.splitlines()
            assert len(lines) == 1 and lines[0].startswith("002-")
            assert ("J002 args-incomplete-at-close (error) at event 4, index 0: closed while the arguments are an "
                    "incomplete JSON prefix") in lines[0] and "do not execute" in lines[0]
            name = lines[0].split(":")[0]
            assert len((await _call(session, "list_exchanges")).splitlines()) == 2
            one = await _call(session, "get_exchange", name=name)
            assert "request: POST http://127.0.0.1:" in one and "model claude-mcp" in one
            assert "[0] tool_use search_docs id=toolu_01Early status=partial closed: arguments {\"query\": \"refund pol" in one
            assert "what to do:" in one
            report = await _call(session, "check_capture", path=name)
            assert "J002 args-incomplete-at-close" in report and "A005" in report
            first = (await _call(session, "list_exchanges")).splitlines()[0].split(":")[0]
            assert (await _call(session, "diff_captures", a=first, b=str(CLEAN))).startswith("EQUIVALENT")
            assert (await _call(session, "diff_captures", a=first, b=name)).startswith("DIFFERENT")
            explained = await _call(session, "explain_rule", code="j002")
            assert explained.startswith("J002 args-incomplete-at-close (error") and "what to do:" in explained
            assert "no rule X999" in await _call(session, "explain_rule", code="X999")
            assert "cannot read" in await _call(session, "get_exchange", name="nope.jsonl")
            everything = listing + one + report
    assert KEY not in everything


def test_without_a_folder_mcp_is_a_one_line_error(tmp_path):
    from tests.e2e.conftest import run_cli

    code, _, err = run_cli(["mcp", str(tmp_path / "missing")])
    assert code == 2 and err.strip() == f"stream-inspector: mcp: {tmp_path / 'missing'}: no such folder"


def test_a_file_given_as_the_folder_is_told_as_such(tmp_path):
    from tests.e2e.conftest import run_cli

    f = tmp_path / "run.jsonl"
    f.write_text("{}\n")
    code, _, err = run_cli(["mcp", str(f)])
    assert code == 2 and err.strip() == (f"stream-inspector: mcp: {f}: a file, not a folder "
                                         "(mcp serves a recording folder: proxy --record DIR, run --record DIR)")
