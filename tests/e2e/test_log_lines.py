"""The log line a command prints for a request shows its path masked and safe for a terminal: a client
can put anything in a path (a key it should have sent in a header, ``%1b`` that decodes to ESC).
``serve`` logs every request on stdout; the headless proxy logs an exchange that failed on stderr."""
from __future__ import annotations

import signal
import socket
from collections.abc import Callable

import httpx

from tests.e2e.conftest import WAIT_S, spawn

KEY = "sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5"
GOOGLE = "AIzaSyQ7w8E9r0T1y2U3i4O5p6Q7w8E9r0T1y2U"


def _logged(argv: list[str], ask: Callable[[object], None]) -> tuple[str, str]:
    """Start the command, ``ask(proc)``, stop it with SIGINT; its whole stdout and stderr (killed if
    anything failed on the way)."""
    proc = spawn(argv)
    try:
        ask(proc)
        proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=WAIT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _refusing_port() -> int:
    """A loopback port nothing listens on (bound, then closed)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_logs_the_request_path_masked_and_escaped(corpus):
    def ask(proc):
        url = proc.stdout.readline().split()[-1]
        r = httpx.post(f"{url}/anthropic-doc-tool-call/{KEY}/%1b[2J/v1/messages", json={}, timeout=WAIT_S)
        assert r.status_code == 200

    out, _ = _logged(["serve", str(corpus / "anthropic-doc-tool-call.sse"), "--port", "0", "--instant", "--loop"],
                     ask)
    [line] = [x for x in out.splitlines() if x.startswith("POST ")]
    assert KEY[7:] not in out and "\x1b" not in out
    assert line.startswith("POST /anthropic-doc-tool-call/sk-ant-[redacted]/\\x1b[2J/v1/messages -> ")


def test_the_proxy_logs_a_failed_exchange_masked_and_escaped():
    def ask(proc):
        url = proc.stderr.readline().split(" on ")[1].split()[0]
        r = httpx.post(f"{url}/v1beta/{KEY}/%1b[2J:streamGenerateContent?alt=sse&key={GOOGLE}", json={},
                       timeout=WAIT_S, trust_env=False)
        assert r.status_code == 502

    out, err = _logged(["proxy", "--upstream", f"http://127.0.0.1:{_refusing_port()}", "--port", "0",
                        "--format", "json"], ask)
    [line] = [x for x in err.splitlines() if " -> 502" in x]
    assert KEY[7:] not in out + err and GOOGLE[4:] not in out + err and "\x1b" not in out + err
    assert line.startswith("stream-inspector: proxy: POST /v1beta/sk-ant-[redacted]/\\x1b[2J:streamGenerateContent -> 502")
