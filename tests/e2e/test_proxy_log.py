"""The headless proxy's log line of an exchange that failed shows its path masked and safe for a
terminal: a client can put anything in a path (a key, ``%1b`` that decodes to ESC)."""
from __future__ import annotations

import signal
import socket

import httpx

from tests.e2e.conftest import WAIT_S, spawn

KEY = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5"
GOOGLE = "AIzaSyQ7w8E9r0T1y2U3i4O5p6Q7w8E9r0T1y2U"


def _refusing_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_failed_exchange_is_logged_masked_and_escaped():
    proc = spawn(["proxy", "--upstream", f"http://127.0.0.1:{_refusing_port()}", "--port", "0", "--format", "json"])
    try:
        url = proc.stderr.readline().split(" on ")[1].split()[0]
        r = httpx.post(f"{url}/v1beta/{KEY}/%1b[2J:streamGenerateContent?alt=sse&key={GOOGLE}", json={},
                       timeout=WAIT_S, trust_env=False)
        assert r.status_code == 502
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    [line] = [x for x in err.splitlines() if " -> 502" in x]
    assert KEY[7:] not in out + err and GOOGLE[4:] not in out + err and "\x1b" not in out + err
    assert line.startswith("stream-inspector: proxy: POST /v1beta/sk-ant-[redacted]/\\x1b[2J:streamGenerateContent -> 502")
