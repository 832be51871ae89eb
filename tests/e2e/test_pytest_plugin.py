"""The pytest plugin, run by pytester in a fresh project: tests that record cassettes with real vcrpy
and pytest-recording against ``serve`` on 127.0.0.1 (then replay them with no server), and tests that
check the responses they made with the ``stream_inspector`` fixture."""
from __future__ import annotations

import pytest
# Imported here, before pytester's in-process runs: each run restores ``sys.modules``, and a PyYAML
# first imported inside one comes back as a second copy whose C parser still hands over the first
# copy's node classes (every tag resolves to None: vcrpy "could not determine a constructor").
import yaml  # noqa: F401

from inspector.net.serve import ServerThread
from tests.conftest import SHARED_CORPUS

pytest_plugins = ["pytester"]

CLEAN = SHARED_CORPUS / "anthropic-doc-tool-call.sse"
EARLY_STOP = SHARED_CORPUS / "anthropic-stop-before-json-complete.sse"  # J002 at event 4, A005 at event 5
WARNING_ONLY = SHARED_CORPUS / "anthropic-empty-text-block.sse"

CASSETTE_TESTS = '''
import os, anthropic, httpx, pytest, vcr

def stream(name):
    client = anthropic.Anthropic(base_url=os.environ["SI_SERVE"] + "/" + name, api_key="sk-ant-api03-plugintest0123456789")
    with client.messages.stream(model="m", max_tokens=9, messages=[{"role": "user", "content": "hi"}]) as s:
        s.until_done()

@pytest.mark.vcr
def test_recording_clean():
    stream("%(clean)s")

@pytest.mark.vcr
def test_recording_early_stop():
    stream("%(early)s")

@pytest.mark.vcr
def test_recording_warning_only():
    stream("%(warning)s")

def test_vcrpy_directly(tmp_path):
    with vcr.use_cassette(os.path.join(os.path.dirname(__file__), "direct.yaml"), record_mode="once"):
        httpx.post(os.environ["SI_SERVE"] + "/%(early)s/v1/messages", json={"stream": True})

def test_no_cassette():
    assert True
'''


@pytest.fixture()
def served(monkeypatch):
    with ServerThread([CLEAN, EARLY_STOP, WARNING_ONLY], instant=True) as srv:
        monkeypatch.setenv("SI_SERVE", srv.url)
        yield srv


def run(pytester, *args):
    """The inner suite in this process; the snapshot plugin keeps one temporary folder per process."""
    return pytester.runpytest_inprocess("-p", "no:cacheprovider", "-p", "no:textual-snapshot",
                                        "-o", "asyncio_default_fixture_loop_scope=function", *args)


def _suite(pytester) -> None:
    pytester.makepyfile(test_agent=CASSETTE_TESTS % {"clean": CLEAN.stem, "early": EARLY_STOP.stem,
                                                     "warning": WARNING_ONLY.stem})


def test_cassettes_recorded_and_replayed_fail_the_tests_whose_streams_have_errors(pytester, served):
    _suite(pytester)
    rec = run(pytester, "--record-mode=once", "--stream-inspector")
    rec.assert_outcomes(passed=3, failed=2)
    text = rec.stdout.str()
    for test in ("test_recording_early_stop", "test_vcrpy_directly"):
        assert f"FAILED test_agent.py::{test}" in text
    rec.stdout.fnmatch_lines(["*test_recording_early_stop.yaml#0: J002 args-incomplete-at-close (error) at event 4,"
                              " index 0: closed while the arguments are an incomplete JSON prefix*: do not execute",
                              "*direct.yaml#0: J002 args-incomplete-at-close (error) at event 4*"])
    assert (pytester.path / "cassettes" / "test_agent" / "test_recording_early_stop.yaml").exists()
    assert "sk-ant-api03-plugintest" not in text
    # Replayed with the server gone (same URL: vcrpy matches on the port): the same verdicts, from
    # the cassettes alone.
    served.stop()
    again = run(pytester, "--record-mode=none", "--stream-inspector=error")
    again.assert_outcomes(passed=3, failed=2)
    # The level: warnings fail too; without the option nothing is checked.
    warn = run(pytester, "--record-mode=none", "--stream-inspector=warning")
    warn.assert_outcomes(passed=2, failed=3)
    warn.stdout.fnmatch_lines(["*test_recording_warning_only.yaml#0: * (warning)*"])
    off = run(pytester, "--record-mode=none")
    off.assert_outcomes(passed=5)
    # The bare flag followed by a path: the path is the test to run, the level the default.
    one = run(pytester, "--record-mode=none", "--stream-inspector", "test_agent.py::test_recording_early_stop")
    one.assert_outcomes(failed=1)
    one.stdout.fnmatch_lines(["*J002 args-incomplete-at-close (error)*"])
    bad = run(pytester, "--record-mode=none", "--stream-inspector=fatal")
    assert bad.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown level 'fatal'" in bad.stderr.str()


FIXTURE_TESTS = '''
import os, anthropic, httpx, httpx2, pytest

URL = os.environ["SI_SERVE"]

def test_sdk_stream_through_the_fixture_client(stream_inspector):
    client = anthropic.Anthropic(base_url=URL + "/%(early)s", api_key="k", http_client=stream_inspector.client(httpx2))
    with client.messages.stream(model="m", max_tokens=9, messages=[{"role": "user", "content": "hi"}]) as s:
        s.until_done()
    stream_inspector.check()

def test_clean_sdk_stream_passes(stream_inspector):
    client = anthropic.Anthropic(base_url=URL + "/%(clean)s", api_key="k", http_client=stream_inspector.client(httpx2))
    with client.messages.stream(model="m", max_tokens=9, messages=[{"role": "user", "content": "hi"}]) as s:
        s.until_done()
    verdicts = stream_inspector.check()
    assert len(verdicts) == 1 and verdicts[0].session.stop_reason == "tool_use"
    assert verdicts[0].session.events and stream_inspector.received[0].capture.timed

def test_a_read_httpx_response(stream_inspector):
    r = httpx.post(URL + "/%(early)s/v1/messages", json={"stream": True})
    stream_inspector.check(r)

async def test_async_sdk_stream_object(stream_inspector):
    client = anthropic.AsyncAnthropic(base_url=URL + "/%(early)s", api_key="k", http_client=stream_inspector.async_client(httpx2))
    stream = await client.messages.create(model="m", max_tokens=9, messages=[{"role": "user", "content": "hi"}], stream=True)
    async for _ in stream:
        pass
    stream_inspector.check(stream)
'''


def test_fixture_checks_responses_the_test_made(pytester, served):
    pytester.makepyfile(test_own=FIXTURE_TESTS % {"clean": CLEAN.stem, "early": EARLY_STOP.stem})
    res = run(pytester, "-p", "asyncio", "-o", "asyncio_mode=auto")
    res.assert_outcomes(passed=1, failed=3)
    res.stdout.fnmatch_lines(["*response 0: J002 args-incomplete-at-close (error) at event 4*",
                              "*response: J002 args-incomplete-at-close (error) at event 4*"])
    text = res.stdout.str()
    assert "test_a_read_httpx_response" in text and "test_async_sdk_stream_object" in text
