"""``serve``'s log line of each request shows its path masked and made safe for a terminal: a client
can put anything in a path (a key it should have sent in a header, ``%1b`` that decodes to ESC)."""
from __future__ import annotations

import signal

import httpx

from tests.e2e.conftest import WAIT_S, spawn

KEY = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5"


def test_the_request_path_is_logged_masked_and_escaped(corpus):
    proc = spawn(["serve", str(corpus / "anthropic-doc-tool-call.sse"), "--port", "0", "--instant", "--loop"])
    try:
        url = proc.stdout.readline().split()[-1]
        r = httpx.post(f"{url}/anthropic-doc-tool-call/{KEY}/%1b[2J/v1/messages", json={}, timeout=WAIT_S)
        assert r.status_code == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    [line] = [x for x in out.splitlines() if x.startswith("POST ")]
    assert KEY[7:] not in out and "\x1b" not in out
    assert line.startswith("POST /anthropic-doc-tool-call/sk-ant-[redacted]/\\x1b[2J/v1/messages -> ")
