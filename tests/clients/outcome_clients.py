"""Small ``openai`` SDK clients, each reacting to a broken tool call one way (the verdict outcomes of
``conform --client``: ``tests/e2e/test_client_outcomes.py``). Run as ``python -m
tests.clients.outcome_clients NAME`` (the process-level ones) or call ``CLIENTS[NAME](env)``.

Each streams one answer with ``chat.completions.stream``; then:

- ``repair``: arguments that do not parse are cut back to their last complete member and closed
  (a lenient parser), and the calls run with those;
- ``refuse``: a call whose arguments do not parse is answered with an error for the model (as
  pydantic-ai's retry prompt does), the others run;
- ``drop``: exits 0 without a next request;
- ``crash``: raises, then prints an unrelated warning to stderr at exit;
- ``hang``: never sends the next request nor exits.
"""
from __future__ import annotations

import atexit
import json
import os
import sys
import time

import openai

from tests.clients.openai_agent import TOOLS


def _first(env):
    client = openai.OpenAI(api_key=env["OPENAI_API_KEY"], base_url=env["OPENAI_BASE_URL"], max_retries=0, timeout=20)
    messages: list = [{"role": "user", "content": "Quote ACME and convert 100 EUR to BRL."}]
    with client.chat.completions.stream(model="gpt-4.1-mini", messages=messages, tools=TOOLS) as s:
        msg = s.get_final_completion().choices[0].message
    return client, messages, list(msg.tool_calls or [])


def _send_back(client, messages, calls, arguments, results) -> None:
    messages.append({"role": "assistant", "content": None, "tool_calls": [
        {"id": c.id, "type": "function", "function": {"name": c.function.name, "arguments": a}}
        for c, a in zip(calls, arguments)]})
    messages += [{"role": "tool", "tool_call_id": c.id, "content": r} for c, r in zip(calls, results)]
    with client.chat.completions.stream(model="gpt-4.1-mini", messages=messages, tools=TOOLS) as s:
        s.get_final_completion()


def _closers(text: str) -> str:
    """What closes ``text``'s open string, objects and arrays."""
    stack, in_string, escaped = [], False, False
    for ch in text:
        if in_string:
            escaped = not escaped and ch == "\\"
            if ch == '"' and not escaped:
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append("}" if ch == "{" else "]")
        elif ch in "}]" and stack:
            stack.pop()
    return ('"' if in_string else "") + "".join(reversed(stack))


def close_json(text: str) -> str:
    """Cut arguments back to their last complete member and close them: valid JSON text, ``{}`` at worst."""
    for end in [len(text), *(i for i in range(len(text) - 1, 0, -1) if text[i] == ",")]:
        head = text[:end]
        try:
            value = json.loads(head + _closers(head))
        except ValueError:
            continue
        if isinstance(value, dict):
            return json.dumps(value)
    return "{}"


def _parses(text: str) -> bool:
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def repair(env) -> None:
    client, messages, calls = _first(env)
    args = [c.function.arguments if _parses(c.function.arguments) else close_json(c.function.arguments) for c in calls]
    _send_back(client, messages, calls, args, ["ok"] * len(calls))


def refuse(env) -> None:
    client, messages, calls = _first(env)
    results = ["ok" if _parses(c.function.arguments) else
               f"Invalid JSON in the arguments of {c.function.name}: fix the errors and try again." for c in calls]
    _send_back(client, messages, calls, [c.function.arguments for c in calls], results)


def drop(env) -> None:
    _first(env)


def crash(env) -> None:
    atexit.register(lambda: print("DeprecationWarning: an unrelated notice at exit", file=sys.stderr))
    _, _, calls = _first(env)
    raise ValueError(f"cannot run {len(calls)} calls")


def hang(env) -> None:
    _first(env)
    time.sleep(120)


CLIENTS = {"repair": repair, "refuse": refuse, "drop": drop, "crash": crash, "hang": hang}

if __name__ == "__main__":
    CLIENTS[sys.argv[1]](os.environ)
