"""The proxy list as mitmproxy users expect (issue 27 item 5), with a real proxy on 127.0.0.1 in
front of ``serve``: a filter expression (``F``), sorting (``O``), copying a request as curl
(``c``: the key as ``$VARIABLE``), and re-sending a recorded request through the proxy (``R``:
a new exchange in the list, inspected like the first)."""
from __future__ import annotations

import shlex

import httpx
import pytest

from inspector.feeds.exchanges.curl import curl_command
from inspector.net.proxy.resend import resend_request
from inspector.net.proxy.server import ProxyThread
from inspector.net.serve import ServerThread
from tests.conftest import SHARED_CORPUS
from tests.e2e.conftest import WAIT_S, wait_for
from tests.e2e.test_proxy_tui import until

pytest.importorskip("textual")

from inspector.tui.screens.exchanges import ProxyApp  # noqa: E402
from inspector.tui.widgets.exchange_list import ExchangeList  # noqa: E402
from tests.ui.test_sizes import SIZE_IDS, SIZES

SECRET = "sk-ant-api03-LISTTOOLSSECRET0123456789"
SIZE = (160, 48)
GOOD, BAD, LIMITED = "anthropic-doc-tool-call", "openai-parallel-indexed", "http-429-json-body"


def _served(external: bool):
    if not SHARED_CORPUS.is_dir():
        pytest.skip("../shared/corpus is not beside the project")
    caps = [SHARED_CORPUS / f"{GOOD}.sse", SHARED_CORPUS / f"{BAD}.sse", SHARED_CORPUS / f"{LIMITED}.jsonl"]
    with ServerThread(caps, instant=True) as srv:
        proxy = ProxyThread(srv.url, timeout=WAIT_S, external=external).start()
        try:
            yield srv, proxy
        finally:
            proxy.stop()


@pytest.fixture
def served():
    """Proxy and upstream for the TUI (the app's loop takes the exchanges)."""
    yield from _served(True)


@pytest.fixture
def headless():
    """Proxy and upstream without a TUI (the proxy's own thread keeps the log)."""
    yield from _served(False)


async def _traffic(pilot, app, proxy) -> None:
    async with httpx.AsyncClient(timeout=WAIT_S) as client:
        await client.post(f"{proxy.url}/{GOOD}/v1/messages", headers={"x-api-key": SECRET},
                          json={"model": "claude-case", "stream": True, "messages": [{"role": "user", "content": "hi"}]})
        await client.post(f"{proxy.url}/{BAD}/v1/chat/completions", headers={"authorization": f"Bearer {SECRET}"},
                          json={"model": "gpt-case", "stream": True, "messages": []})
        await client.post(f"{proxy.url}/{LIMITED}/v1/messages", json={"model": "claude-case", "stream": True})
    await until(pilot, lambda: len(app.exchanges) == 3 and all(ex.done for ex in app.exchanges), "3 exchanges")
    app.refresh_now()
    await pilot.pause()


async def test_filter_and_sort_the_exchange_list(served):
    srv, proxy = served
    app = ProxyApp(proxy, listen_url=proxy.url, upstream=srv.url)
    async with app.run_test(size=SIZE) as pilot:
        await _traffic(pilot, app, proxy)
        table = app.query_one(ExchangeList)
        assert table.shown_ns == [1, 2, 3]
        await pilot.press("F", *"dialect:openai", "enter")
        await pilot.pause()
        assert table.shown_ns == [2] and 'filter “dialect:openai”: 1/3' in str(table.border_title)
        await pilot.press("F", "ctrl+u", *"status>=400", "enter")  # the box holds the filter: edit it
        await pilot.pause()
        assert table.shown_ns == [3] and app.proxy.log.by_n[3].status == 429
        await pilot.press("F", "ctrl+u", *"status:abc", "enter")  # a bad term: said, the filter kept
        await pilot.pause()
        assert table.shown_ns == [3]
        await pilot.press("escape", "F", "ctrl+u", "enter")  # cleared
        await pilot.pause()
        assert table.shown_ns == [1, 2, 3]
        await pilot.press("O")  # by status, worst first
        await pilot.pause()
        assert table.shown_ns == [3, 1, 2] and "sorted by status" in str(table.border_title)
        await pilot.press("down")  # picking a row shows that exchange, whatever the order
        await pilot.pause()
        assert app.feed.ex.n == table.shown_ns[table.cursor_row]


def test_curl_names_the_key_never_its_value(headless):
    srv, proxy = headless
    with httpx.Client(timeout=WAIT_S) as client:
        client.post(f"{proxy.url}/{GOOD}/v1/messages", headers={"x-api-key": SECRET, "cookie": "session=1"},
                    json={"model": "claude-case", "stream": True, "messages": [{"role": "user", "content": SECRET}]})
        client.post(f"{proxy.url}/{BAD}/v1/chat/completions", headers={"authorization": f"Bearer {SECRET}"},
                    json={"model": "gpt-case", "stream": True, "messages": []})
    # the log reads the relayed bytes after the relay (inspection yields to forwarding): wait for it
    wait_for(lambda: all(n in proxy.log.by_n and proxy.log.by_n[n].done for n in (1, 2)), "both exchanges logged")
    ex1, ex2 = proxy.log.by_n[1], proxy.log.by_n[2]
    one, two = curl_command(ex1), curl_command(ex2)
    for text in (one, two):
        assert "LISTTOOLSSECRET" not in text and "session=1" not in text
    assert '-H "x-api-key: $ANTHROPIC_API_KEY"' in one and '-H "authorization: Bearer $OPENAI_API_KEY"' in two
    words = shlex.split(one.replace("\\\n", " ").replace("$ANTHROPIC_API_KEY", "KEY"))
    assert words[:5] == ["curl", "-N", "-X", "POST", ex1.url] and words[words.index("--data-raw") + 1].startswith("{")


def test_a_copied_curl_command_runs_against_the_upstream(headless, tmp_path):
    import shutil
    import subprocess

    if shutil.which("curl") is None:
        pytest.skip("no curl here")
    srv, proxy = headless
    httpx.post(f"{proxy.url}/{GOOD}/v1/messages", headers={"x-api-key": SECRET}, timeout=WAIT_S,
               json={"model": "claude-case", "stream": True, "messages": []})
    command = curl_command(proxy.log.by_n[1]) + " -s"
    out = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=WAIT_S,
                         env={"ANTHROPIC_API_KEY": "k", "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0 and "event: message_stop" in out.stdout


async def test_resend_makes_a_new_exchange_with_the_key_from_its_variable(served, monkeypatch):
    srv, proxy = served
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-api03-FROMENVIRONMENT0123456789")
    app = ProxyApp(proxy, listen_url=proxy.url, upstream=srv.url, resend=resend_request)
    async with app.run_test(size=SIZE) as pilot:
        await _traffic(pilot, app, proxy)
        first = app.proxy.log.by_n[1]
        app._select(0)
        await pilot.pause()
        await pilot.press("R")
        await until(pilot, lambda: len(app.exchanges) == 4 and app.exchanges[-1].done, "the re-sent exchange")
        again = app.exchanges[-1]
        assert (again.method, again.path, again.status, again.model) == (first.method, first.path, 200, "claude-case")
        assert again.session.dialect_name == first.session.dialect_name
        sent = again.request["headers"]
        assert any(k.lower() == "x-api-key" for k in sent) and "FROMENVIRONMENT" not in str(again.request)
        app._sync_list()
        assert app.query_one(ExchangeList).shown_ns[-1] == again.n


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_proxy_list_with_a_filter_snapshot(snap_compare, size, monkeypatch):
    """The list fed by hand (``tests/ui/test_sizes``: bundled captures, a fixed clock), filtered to
    the exchanges with an error."""
    from tests.ui.test_sizes import _fill, _proxy_app

    async def run_before(pilot):
        await _fill(pilot)
        await pilot.press("F", *"sev:error", "enter")
        await pilot.pause()
        pilot.app.refresh_now()
        await pilot.pause()

    assert snap_compare(_proxy_app(monkeypatch), terminal_size=size, run_before=run_before)
