"""The guards typing made explicit (issue 26): what each does at the edge a caller should never
reach, and the shell-style exit status of a launched command."""
from __future__ import annotations

import signal
import sys

import pytest

from inspector.capture.errors import CaptureError
from inspector.cli.inputs import Input, streams
from inspector.feeds.checkpoints import Checkpoints
from inspector.feeds.exchanges.record import Exchange
from inspector.feeds.run import run_capture
from inspector.model.capture import Capture, Chunk
from inspector.net.launch import Agent
from tests.helpers import sse


def _session(n_events: int):
    body = sse({"type": "message_start", "message": {"id": "m", "model": "x"}}, *[{"type": "ping"}] * (n_events - 1))
    return run_capture(Capture(chunks=[Chunk(0.0, body)]))


def test_nearest_checkpoint_falls_back_on_the_first_and_needs_one():
    cps = Checkpoints(every=1)
    with pytest.raises(LookupError):
        cps.nearest(0)
    first, later = _session(2), _session(40)
    assert cps.take(first, 0, None, force=True) and cps.take(later, 10, None, force=True)
    assert cps.nearest().pos == 10  # the furthest
    assert cps.nearest(len(later.events)).pos == 10
    assert cps.nearest(len(first.events)).pos == 0
    assert cps.at_most(len(first.events) - 1) is None and cps.nearest(len(first.events) - 1).pos == 0


def test_a_released_exchange_says_it_holds_no_session():
    ex = Exchange(n=7, method="POST", path="/v1/messages", target="/v1/messages", url="http://x/v1/messages",
                  request={}, body=None, started_wall=0.0, t0=0.0)
    with pytest.raises(RuntimeError, match="exchange 7 holds no session"):
        ex.held_session
    ex.session = _session(1)
    assert ex.held_session is ex.session


def test_export_streams_refuse_standard_input():
    with pytest.raises(CaptureError, match="not standard input"):
        streams(Input("<stdin>", None, True))


def test_a_command_killed_by_a_signal_exits_128_plus_it():
    agent = Agent([sys.executable, "-c", "import time; time.sleep(30)"], {}).start()
    assert agent.wait(0.05) is None
    assert agent.stop(grace=5.0) == 128 + signal.SIGTERM
    done = Agent([sys.executable, "-c", "raise SystemExit(3)"], {}).start()
    assert done.wait() == 3 and done.stop() == 3
