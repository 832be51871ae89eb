"""``check`` as users and scripts run it: formats, exit codes, bad input never crashing, and how the
process ends when run as the command (``inspector.cli.FROZEN_AT_THE_END``)."""
from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

import pytest

from inspector.cli import main
from tests.conftest import ROOT
from tests.helpers import sse
from tests.unit.test_dialect_anthropic import CLEAN_TOOL, MSG_START, STOP, reason, start, stop

MAIN = str(ROOT / "inspector" / "__main__.py")


@pytest.fixture
def clean(tmp_path):
    p = tmp_path / "clean.sse"
    p.write_bytes(sse(*CLEAN_TOOL))
    return p


@pytest.fixture
def warn(tmp_path):
    p = tmp_path / "warn.sse"
    p.write_bytes(sse(MSG_START, start(0), stop(0), reason("end_turn"), STOP))
    return p


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_report_shape(capsys, clean):
    code, out, _ = run(capsys, "check", "--format", "json", str(clean))
    rep = json.loads(out.splitlines()[0])
    assert code == 0
    assert set(rep) == {"path", "dialect", "events", "duration_s", "ttfb_s", "ttfc_s", "stop_reason", "blocks",
                        "findings"}
    assert rep["blocks"][1] == {"index": 1, "choice": None, "kind": "tool_use", "id": "toolu_1", "name": "lookup",
                                "text": None, "arguments": '{"q": "tides"}', "input": {"q": "tides"},
                                "status": "complete", "closed": True, "deltas": 2, "first_delta_s": None,
                                "last_delta_s": None, "max_gap_s": None}


def test_fail_on_levels(capsys, warn):
    assert run(capsys, "check", str(warn))[0] == 0
    assert run(capsys, "check", "--fail-on", "warning", str(warn))[0] == 1
    assert run(capsys, "check", "--severity", "A009=error", str(warn))[0] == 1


def test_text_reads_like_a_linter(capsys, warn):
    _, out, _ = run(capsys, "check", str(warn))
    lines = out.splitlines()
    assert lines[0].startswith(f"{warn}: anthropic-messages, 5 events")  # the header comes first
    assert lines[1].startswith(f"{warn}:7: [event 2, index 0] A009 empty-text-block (warning)")
    assert lines[-1] == "  1 warning"


def test_github_annotations(capsys, warn):
    _, out, _ = run(capsys, "check", "--format", "github", str(warn))
    assert out.startswith(f"::warning file={warn},line=7,title=A009 empty-text-block::")


def test_several_files_one_json_line_each(capsys, clean, warn):
    code, out, _ = run(capsys, "check", "--format", "json", str(clean), str(warn))
    assert [json.loads(ln)["path"] for ln in out.splitlines()] == [str(clean), str(warn)]
    assert code == 0


@pytest.mark.parametrize("content,why", [
    (b"", "empty capture"),
    (b"\n\n  \n", "empty capture"),
])
def test_empty_input_is_a_one_line_error(capsys, tmp_path, content, why):
    p = tmp_path / "x.sse"
    p.write_bytes(content)
    code, out, err = run(capsys, "check", str(p))
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1


def test_missing_file_and_bad_usage(capsys, tmp_path):
    code, _, err = run(capsys, "check", str(tmp_path / "nope.sse"))
    assert code == 2 and "no such file" in err
    with pytest.raises(SystemExit) as e:
        main(["check", "--format", "yaml", "x"])
    assert e.value.code == 2


def test_garbage_bytes_are_findings_not_a_crash(capsys, tmp_path):
    p = tmp_path / "garbage.bin"
    p.write_bytes(bytes(range(256)) * 40)
    code, out, err = run(capsys, "check", "--format", "json", str(p))
    # SPEC.md: a file that is no stream at all is not linted: exit 2 with "not a stream capture: …".
    assert code == 2 and out == "" and "not a stream capture: no SSE event" in err


def test_truncated_native_capture_keeps_what_arrived(capsys, tmp_path):
    body = sse(*CLEAN_TOOL).decode()
    lines = [json.dumps({"format": "stream-inspector-capture", "version": 1, "request": None,
                         "response": {"status": 200, "headers": {"content-type": "text/event-stream"}}}),
             json.dumps({"t": 0.1, "data": body[:300]}), json.dumps({"t": 0.2, "data": body[300:]})[:25]]
    p = tmp_path / "cut.jsonl"
    p.write_text("\n".join(lines))
    code, out, _ = run(capsys, "check", "--format", "json", str(p))
    rep = json.loads(out)
    assert code == 1 and rep["events"] >= 2 and "S003" in {f["code"] for f in rep["findings"]}


def test_twenty_megabyte_single_line(tmp_path):
    p = tmp_path / "big.sse"
    p.write_bytes(b"data: {\"x\": \"" + b"a" * 20_000_000 + b"\"}")
    proc = subprocess.run([sys.executable, "-m", "inspector", "check", "--format", "json", str(p)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr
    assert "Traceback" not in proc.stderr
    rep = json.loads(proc.stdout)
    assert "S010" in {f["code"] for f in rep["findings"]}


def test_python_dash_m_is_the_same_command():
    p = subprocess.run([sys.executable, "-m", "inspector", "--help"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0 and "check" in p.stdout and "replay" in p.stdout


def test_rules_lists_the_catalog(capsys):
    code, out, _ = run(capsys, "rules", "J002", "S014")
    assert code == 0
    assert "J002 args-incomplete-at-close (error)" in out and "S014 ignored-input (info)" in out
    assert run(capsys, "rules", "Z9")[0] == 2


@pytest.mark.parametrize("fmt", ["text", "github", "json"])
def test_terminal_escapes_and_keys_from_a_stream_are_not_printed(capsys, tmp_path, fmt):
    """A stream is untrusted input: a tool name carrying an escape sequence or a key must not
    drive the terminal or leak into CI logs."""
    key = "sk-ant-api03-" + "Q" * 40
    p = tmp_path / "hostile.sse"
    p.write_bytes(sse(MSG_START,
                      {"type": "content_block_start", "index": 0,
                       "content_block": {"type": "tool_use", "id": "toolu_1", "name": "x\x1b]0;pwned\x07" + key,
                                         "input": {}}},
                      {"type": "content_block_delta", "index": 0,
                       "delta": {"type": "input_json_delta", "partial_json": '{"k": "' + key + '"'}},
                      stop(0), reason("tool_use"), STOP))
    code, out, err = run(capsys, "check", "--format", fmt, str(p))
    assert code in (0, 1, 2)
    assert "\x1b" not in out + err and "\x07" not in out + err
    assert "Q" * 20 not in out + err


def test_the_report_is_rendered_with_the_collector_paused(monkeypatch, clean):
    """A report is acyclic dicts and strings: no collection runs while it is built, and the
    collector is back on after."""
    from inspector.cli import check
    from inspector.report import json as real
    states = []

    class Watched:
        @staticmethod
        def render(name, s):
            states.append(gc.isenabled())
            return real.render(name, s)

    monkeypatch.setattr(check, "_renderer", lambda fmt: Watched if fmt == "json" else None)
    opts = check.Options("json", None, None, 10.0, {}, None)
    [result] = check.check_one(check.Input(str(clean), str(clean), True), opts)
    assert json.loads(result.out)["path"] == str(clean)
    assert states == [False] and gc.isenabled()


def _env(site=None) -> dict:
    path = [str(ROOT)] if site is None else [str(site), str(ROOT)]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


@pytest.mark.parametrize("stdout_to", ["pipe", "file"])
def test_atexit_hooks_run_and_the_output_and_code_are_kept(tmp_path, clean, warn, stdout_to):
    """An atexit hook installed before the command (a ``sitecustomize``, as coverage's
    ``process_startup`` is) runs, and finds the run's objects frozen; the reports and the exit
    code (1 with ``--fail-on warning``) are what ``main`` gives in-process."""
    site = tmp_path / "site"
    site.mkdir()
    marker = tmp_path / "atexit-ran"
    (site / "sitecustomize.py").write_text(
        "import atexit, gc\n"
        f"atexit.register(lambda: open({str(marker)!r}, 'w').write(str(gc.get_freeze_count())))\n")
    cmd = [sys.executable, "-m", "inspector", "check", "--jobs", "1", "--fail-on", "warning", "--format", "json",
           str(clean), str(warn)]
    if stdout_to == "pipe":
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=_env(site))
        out = proc.stdout
    else:
        target = tmp_path / "out.json"
        with target.open("w") as f:
            proc = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env(site))
        out = target.read_text()
    assert int(marker.read_text()) > 1000  # the hook ran, after the freeze
    reports = [json.loads(line) for line in out.splitlines()]
    assert [r["path"] for r in reports] == [str(clean), str(warn)]
    assert proc.returncode == main(cmd[3:]) == 1
    assert proc.stderr == ""


def test_a_runner_s_code_after_the_command_runs(tmp_path, warn):
    """A runner that executes ``inspector/__main__.py`` as ``__main__`` and then does its own work
    (``coverage run -m inspector`` saves its data after the module, the way ``runpy`` with
    ``alter_sys`` does) gets control back, with the command's exit code in ``SystemExit``."""
    after = tmp_path / "after"
    runner = (
        "import runpy, sys\n"
        f"sys.argv = [{MAIN!r}, 'check', '--fail-on', 'warning', {str(warn)!r}]\n"
        "try:\n"
        f"    runpy.run_path({MAIN!r}, run_name='__main__')\n"
        "except SystemExit as e:\n"
        f"    open({str(after)!r}, 'w').write(str(e.code))\n"
        "    raise\n")
    proc = subprocess.run([sys.executable, "-c", runner], capture_output=True, text=True, cwd=ROOT, env=_env())
    assert after.read_text() == "1"
    assert proc.returncode == 1
    assert "warn.sse" in proc.stdout


def test_a_closed_stdout_ends_quietly(clean):
    """stdout closed before the report is written (``| head -c0``): exit 0 and nothing on stderr,
    not Python's "Exception ignored ... BrokenPipeError" at exit."""
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "inspector", "check", str(clean)], stdout=write,
                              stderr=subprocess.PIPE, text=True, cwd=ROOT, env=_env())
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (0, "")


def test_check_called_in_process_returns_and_freezes_nothing(capsys, clean):
    """``main`` called by a program (not as the command) returns its code and leaves the
    collector as it was: frozen objects would never be freed in a long-lived host."""
    frozen = gc.get_freeze_count()
    assert main(["check", str(clean)]) == 0
    assert capsys.readouterr().out
    assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize("words", [["replay", "-"], ["diff", "-", "B", "--format", "text"],
                                   ["compare", "-", "B", "--format", "text"], ["serve", "-"]])
def test_a_command_that_reads_files_says_so_when_given_standard_input(capsys, tmp_path, monkeypatch, words):
    """Only ``check`` reads ``-``; the others said ``-: no such file``, as if a file were missing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "B").write_text('event: ping\ndata: {"type": "ping"}\n\n')
    code, _, err = run(capsys, *words)
    assert code == 2 and "standard input" in err and "no such file" not in err
