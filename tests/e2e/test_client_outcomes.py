"""Each ``conform --client`` outcome, produced by a small client that behaves that way
(``tests/clients/outcome_clients.py``; the official ``openai`` SDK under the bundled parallel tool-call
capture, broken by ``close-early``: the first call's arguments are cut)."""
from __future__ import annotations

import json
import sys

from inspector.net.conform import client
from inspector.net.conform.client import exception_line
from inspector.net.conform.mutate import parse_specs
from tests.clients import openai_agent, outcome_clients
from tests.clients.outcome_clients import close_json


def _one(who, mutation: str = "close-early", timeout: float = 30, next_timeout: float = 3):
    return client.run(who, "openai", parse_specs(mutation), next_timeout=next_timeout, timeout=timeout)[0]


def _cmd(name: str) -> str:
    return f"{sys.executable} -m tests.clients.outcome_clients {name}"


def test_survived():
    assert _one(openai_agent.run, "no-stop-event").outcome == "survived"


def test_ran_wrong_arguments_when_the_cut_text_is_sent_back_as_if_complete():
    v = _one(openai_agent.run)
    assert v.outcome == "ran-wrong-arguments"
    assert v.detail.startswith("tool call 'get_stock' (call_Stock01) ran with arguments {")


def test_repaired_when_the_client_makes_valid_arguments_out_of_a_cut_call():
    v = _one(outcome_clients.repair)
    assert v.outcome == "repaired", v.problems
    assert "the stream's arguments did not parse" in v.detail


def test_refused_when_the_client_sends_the_error_back_to_the_model():
    v = _one(outcome_clients.refuse)
    assert v.outcome == "refused", v.problems
    assert "Invalid JSON in the arguments of get_stock" in v.detail


def test_dropped_when_the_client_exits_0_without_running_the_call():
    v = _one(_cmd("drop"))
    assert v.outcome == "dropped"
    assert v.detail.startswith("no next request (the client exited with 0)")


def test_crashed_names_the_exception_line_not_the_last_stderr_line():
    v = _one(_cmd("crash"))
    assert v.outcome == "crashed"
    assert v.client == "exited with 1: ValueError: cannot run 2 calls"


def test_hung_when_the_client_is_stopped_at_the_time_limit():
    # the wait for a next request outlasts the time limit, so the limit is what stops the client (with 3 s, a
    # client answered within its first second met the provider's own wait first, a CI run found)
    v = _one(_cmd("hang"), timeout=4, next_timeout=30)
    assert v.outcome == "hung"
    assert "did not finish within 4 s: stopped" in v.detail


def test_the_exception_line_of_python_and_node_failures():
    py = ("Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\n    f()\n"
          "KeyError: 'x'\n\nDuring handling of the above exception, another exception occurred:\n\n"
          "Traceback (most recent call last):\n  File \"a.py\", line 3\nValueError: bad\nWarning: later\n")
    assert exception_line(py) == "ValueError: bad"
    node = "(node:1) Warning: x\nTypeError: Cannot read properties of undefined\n    at f (a.js:1:2)\n    at g\n"
    assert exception_line(node) == "TypeError: Cannot read properties of undefined"
    assert exception_line("just a line\nlast line\n") == "last line"
    assert exception_line("") is None


def test_close_json_cuts_back_to_the_last_complete_member():
    assert json.loads(close_json('{"symbol": "ACME", "exchange": "NASDAQ", "')) == {"symbol": "ACME",
                                                                                   "exchange": "NASDAQ"}
    assert json.loads(close_json('{"a": [1, 2')) == {"a": [1, 2]}
