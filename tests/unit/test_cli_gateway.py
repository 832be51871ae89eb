"""``stream-inspector gateway``: bad usage is one line and exit 2, before anything listens."""
from __future__ import annotations

import socket

import pytest

from tests.e2e.conftest import run_cli

GOOD = ["--gateway-url", "http://127.0.0.1:4000", "--upstream", "https://api.anthropic.com", "--format", "json"]


@pytest.mark.parametrize("argv,says", [
    (["--gateway-url", "localhost:4000", "--upstream", "https://api.anthropic.com"], "--gateway-url must be an http"),
    (["--gateway-url", "http://127.0.0.1:4000", "--upstream", "ftp://x"], "--upstream must be an http"),
    (GOOD + ["--port", "9000", "--back-port", "9000"], "the two taps need a port each"),
])
def test_bad_usage_is_one_line_and_exit_2(argv, says):
    code, out, err = run_cli(["gateway", *argv])
    assert code == 2 and out == ""
    assert says in err and err.count("\n") == 1, err


def test_an_unusable_record_dir_and_a_busy_port_are_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = run_cli(["gateway", *GOOD, "--record", str(blocker)])
    assert code == 2 and "not a directory" in err and err.count("\n") == 1
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, _, err = run_cli(["gateway", *GOOD, "--port", "0", "--back-port", str(port)])
    assert code == 2 and "gateway back tap: cannot listen on 127.0.0.1:" in err and err.count("\n") == 1
