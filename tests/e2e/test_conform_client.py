"""Clients under fault injection: the official SDKs under every mutation (the README's survival table is
what this measures), ``conform --client CMD`` with a real process, and ``serve --expect-next``.
"""
from __future__ import annotations

import json
import re
import sys

import pytest
from junitparser import Error, Failure, JUnitXml

from inspector.net.conform import client
from inspector.net.conform.mutate import parse_specs
from inspector.providers.conformers import CONFORMANCE
from tests.clients import anthropic_agent, openai_agent
from tests.conftest import ROOT
from tests.e2e.conftest import run_cli, spawn

AGENTS = {"anthropic": anthropic_agent.run, "openai": openai_agent.run}
TIMED = {"stall": 1.0, "keepalive-only": 1.0}
"""Timing mutations at one second: the client's reaction is the same, the suite stays fast."""


def specs(provider: str):
    names = [mu.name for mu in CONFORMANCE[provider].mutations]
    return parse_specs(",".join(f"{n}={TIMED[n]:g}" if n in TIMED else n for n in names))


def readme_table() -> dict[str, dict[str, str]]:
    """``{mutation: {provider: outcome}}`` from README's SDK survival table."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("<!-- sdk-survival -->", 2)[1]
    out: dict[str, dict[str, str]] = {}
    for line in section.strip().splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = cells[0].strip("`")
        out[name] = {p: re.match(r"survived|repaired|refused|ran-wrong-arguments|dropped|mis-assembled|crashed|hung|—", cell).group(0)
                     for p, cell in (("anthropic", cells[1]), ("openai", cells[2]))}
    return out


@pytest.mark.parametrize("provider", list(AGENTS))
def test_sdk_survival_matches_the_readme_table(provider):
    skipped: list[str] = []
    verdicts = client.run(AGENTS[provider], provider, specs(provider), next_timeout=3, timeout=30,
                          on_skip=skipped.append)
    measured = {v.mutation.split("=")[0]: v.outcome for v in verdicts}
    table = {name: row[provider] for name, row in readme_table().items() if row[provider] != "—"}
    assert measured == table
    # the README's "—": a mutation the bundled capture gives nothing to break (one tool to choose from)
    own = {mu.name for mu in CONFORMANCE[provider].mutations}
    assert {line.split(":")[0] for line in skipped} == {n for n, row in readme_table().items()
                                                       if row[provider] == "—" and n in own}
    details = {v.mutation.split("=")[0]: v for v in verdicts}
    assert details["no-stop-event"].detail.startswith("sent back")
    assert details["reset"].outcome == "crashed" and "raised" in details["reset"].client


def test_conform_client_runs_a_command_once_per_mutation():
    cmd = f"{sys.executable} -m tests.clients.anthropic_agent"
    proc = spawn(["conform", "--provider", "anthropic", "--client", cmd, "--mutate", "drop-index,no-stop-event",
                  "--format", "json", "--timeout", "60"])
    out, err = proc.communicate(timeout=120)
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert [(v["mutation"], v["outcome"]) for v in verdicts] == [("drop-index", "crashed"), ("no-stop-event", "survived")]
    assert verdicts[0]["client"].startswith("exited with 1: TypeError")
    assert proc.returncode == 1
    assert "drop-index" in err and "survived" in err  # the live listing goes to stderr with --format json


def test_a_hanging_client_is_stopped_and_graded():
    hang = f"{sys.executable} -c \"import time; time.sleep(60)\""
    code, out, _ = run_cli(["conform", "--provider", "openai", "--client", hang, "--mutate", "bom", "--timeout", "2",
                            "--format", "junit"])
    assert code == 1
    case = next(iter(next(iter(JUnitXml.fromstring(out.split("\n", 1)[1] if not out.startswith("<") else out)))))
    assert isinstance(case.result[0], Error)
    assert "did not finish within 2 s: stopped" in case.result[0].message


def test_a_client_that_never_reaches_the_mock_is_told_which_variables_to_read():
    code, out, _ = run_cli(["conform", "--provider", "anthropic", "--client", "true", "--mutate", "bom"])
    assert code == 1
    assert "no request reached the mock provider (does the client read ANTHROPIC_BASE_URL" in out


@pytest.mark.parametrize("fmt", ["text", "json", "junit"])
def test_conform_client_masks_the_secrets_of_the_clients_command_environment_and_stderr(fmt):
    # The command line may carry a key, and a failing client's last stderr line (quoted as why it
    # failed) may print one: key-shaped, or any value of a variable named as a secret in its environment.
    key = "sk-ant-api03-" + "Wx4Rt6Yu8Io0" * 3
    token = "zzGatewayValue" + "q7" * 8
    cmd = f"echo 'boom {key}' $DEPLOY_SECRET_TOKEN >&2; exit 1"
    proc = spawn(["conform", "--provider", "anthropic", "--client", cmd, "--mutate", "bom", "--format", fmt],
                 env={"DEPLOY_SECRET_TOKEN": token})
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 1, err
    assert "boom sk-ant-[redacted]" in out + err  # the reason is still told
    assert "Wx4Rt6Yu8Io0" not in out + err and "q7q7q7" not in out + err


def serve_expect_next(fmt: str):
    """``serve --mutate finish-stop,no-stop-event --expect-next`` on the bundled parallel-calls capture:
    ``(process, base URL)``."""
    capture = ROOT / "inspector" / "data" / "captures" / "3-openai-parallel-tool-calls.jsonl"
    proc = spawn(["serve", str(capture), "--mutate", "finish-stop,no-stop-event", "--expect-next", "--instant",
                  "--port", "0", "--next-timeout", "20", "--format", fmt])
    for line in proc.stderr:
        m = re.match(r"serving 2 captures on (http://127\.0\.0\.1:\d+)", line)
        if m:
            return proc, m.group(1)
    pytest.fail("serve did not start")


def test_serve_expect_next_grades_each_mutation(tmp_path):
    proc, url = serve_expect_next("junit")
    for _ in range(2):
        openai_agent.run({"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": url + "/v1"})
    out, err = proc.communicate(timeout=30)
    suite = next(iter(JUnitXml.fromstring(out)))
    results = {c.name: c.result for c in suite}
    assert isinstance(results["finish-stop"][0], Failure)  # the SDK client keys on finish_reason: tool not run
    assert "got no tool result" in results["finish-stop"][0].message
    assert results["no-stop-event"] == []  # survived
    assert proc.returncode == 1
    assert "verdict: no-stop-event" in err


def test_serve_expect_next_a_new_conversation_is_not_graded_as_the_next_request():
    """Issue 23 item 1, the shared rule in ``serve --expect-next``: a request whose history continues
    no answer (a fresh first request) is not that stream's next request: the stream's verdict is
    ``crashed`` and the request gets the next mutated stream, not the closing answer."""
    import openai

    proc, url = serve_expect_next("json")
    sdk = openai.OpenAI(api_key="sk-test", base_url=url + "/v1", max_retries=0, timeout=20)
    with sdk.chat.completions.stream(model="gpt-4.1-mini", messages=[{"role": "user", "content": "first try"}],
                                     tools=openai_agent.TOOLS) as s:
        s.get_final_completion()  # the client then gives up on that conversation
    openai_agent.run({"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": url + "/v1"})  # a new one, two rounds
    out, _ = proc.communicate(timeout=30)
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert [(v["mutation"], v["outcome"]) for v in verdicts] == [("finish-stop", "crashed"),
                                                                  ("no-stop-event", "survived")]
    assert "began a new conversation" in verdicts[0]["detail"]
