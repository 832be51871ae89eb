"""``check`` over many files: standard input, folders, globs, ``--jobs``, the summary and total line.

Each case runs the real command (in-process, or as a process where standard input or worker
processes are the subject) on files written to a temporary folder.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from inspector.cli import main
from inspector.cli.inputs import InputError, expand
from inspector.report.summary import FileOutcome, total_line
from inspector.report.text import counts_text, plural
from tests.conftest import ROOT
from tests.helpers import sse
from tests.unit.test_dialect_anthropic import CLEAN_TOOL, MSG_START, STOP, reason, start, stop

CLEAN = sse(*CLEAN_TOOL)
WARN = sse(MSG_START, start(0), stop(0), reason("end_turn"), STOP)  # A009 warning
CUT = sse(MSG_START, start(0, "tool_use", id="toolu_9", name="save"))  # stream cut: errors


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli(*argv, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "inspector", *argv], input=stdin, capture_output=True,
                          cwd=ROOT, timeout=120)


@pytest.fixture
def folder(tmp_path):
    """``runs/`` with captures at two depths, a README and a hidden file that are not captures."""
    root = tmp_path / "runs"
    (root / "b").mkdir(parents=True)
    (root / ".cache").mkdir()
    (root / "a-clean.sse").write_bytes(CLEAN)
    (root / "b" / "c-warn.sse").write_bytes(WARN)
    (root / "b" / "d-cut.sse").write_bytes(CUT)
    (root / "README.md").write_text("# my captures\n\nRecorded on Tuesday.\n")
    (root / "notes.json").write_text('{\n  "model": "m",\n  "ok": true\n}\n')
    (root / ".cache" / "x.sse").write_bytes(CUT)
    (root / ".hidden.sse").write_bytes(CUT)
    return root


def test_plurals():
    assert [plural(1, "error"), plural(2, "error"), plural(0, "warning"), plural(3, "info")] == \
        ["1 error", "2 errors", "0 warnings", "3 info findings"]
    assert counts_text({"error": 2, "warning": 1}) == "2 errors, 1 warning"
    assert counts_text({}) == "no findings"


def test_a_folder_is_walked_in_name_order_and_non_captures_are_skipped(capsys, folder):
    code, out, err = run(capsys, "check", str(folder))
    heads = [line.split(":")[0] for line in out.splitlines() if line.startswith(str(folder)) and ": " in line
             and "events" in line]
    assert heads == [str(folder / "a-clean.sse"), str(folder / "b" / "c-warn.sse"), str(folder / "b" / "d-cut.sse")]
    # One line for every skipped file, not one per file.
    skipped = [line for line in err.splitlines() if "skipped" in line]
    assert skipped == [f"stream-inspector: skipped 2 files that hold no stream capture: {folder / 'README.md'}, "
                       f"{folder / 'notes.json'} (name one to see why)"]
    assert ".hidden" not in out + err and ".cache" not in out + err
    assert code == 1  # d-cut has errors; skipped files do not make the exit 2


def test_a_folder_with_no_capture_in_it_is_exit_2_with_one_line(capsys, tmp_path):
    # CI pointed at the wrong folder must not pass: 13 files, none a capture.
    wrong = tmp_path / "docs"
    wrong.mkdir()
    for i in range(12):
        (wrong / f"case-{i:02}.expect.json").write_text('{"findings": ["S003"], "exit": 1}\n')
    (wrong / "README.md").write_text("# cases\n")
    for fmt in ("text", "json"):
        code, out, err = run(capsys, "check", "--format", fmt, str(wrong))
        assert code == 2 and out == ""
        assert err.splitlines() == [
            f"stream-inspector: skipped 13 files that hold no stream capture: {wrong / 'README.md'}, "
            f"{wrong / 'case-00.expect.json'}, {wrong / 'case-01.expect.json'} and 10 more (name one to see why)",
            f"stream-inspector: no stream capture in {wrong} (13 files skipped)"]


def test_one_skipped_file_beside_captures_reads_as_one():
    from inspector.cli.inputs import skipped_line
    assert skipped_line([]) is None
    assert skipped_line(["a.md"]) == "skipped 1 file that holds no stream capture: a.md (name one to see why)"


def test_each_header_comes_before_its_findings_and_a_total_closes_the_run(capsys, folder):
    _, out, _ = run(capsys, "check", str(folder / "b"))
    lines = out.splitlines()
    cut_head = next(i for i, ln in enumerate(lines) if ln.startswith(f"{folder / 'b' / 'd-cut.sse'}: anthropic"))
    cut_findings = [i for i, ln in enumerate(lines) if ln.startswith(f"{folder / 'b' / 'd-cut.sse'}:") and " S003 " in ln]
    assert cut_findings and all(i > cut_head for i in cut_findings)
    warn_head = next(i for i, ln in enumerate(lines) if ln.startswith(f"{folder / 'b' / 'c-warn.sse'}: "))
    assert warn_head < cut_head and " A009 empty-text-block (warning) " in lines[warn_head + 1]
    assert "Summary" in lines and "  findings by code:" in lines and "  worst files:" in lines
    assert lines[lines.index("  worst files:") + 1].startswith(f"    {folder / 'b' / 'd-cut.sse'}: ")
    assert lines[-1].startswith("2 files: 2 with findings (") and "1 warning" in lines[-1]


def test_total_line_counts_skipped_and_unreadable():
    outcomes = [FileOutcome("a", findings=[("S003", "truncated-stream", "error")] * 2),
                FileOutcome("b"), FileOutcome("c", status="skipped"), FileOutcome("d", status="unreadable")]
    assert total_line(outcomes) == "4 files: 1 with findings (2 errors), 1 skipped, 1 unreadable"


def test_a_quoted_glob_is_expanded_in_sorted_order(capsys, folder):
    code, out, _ = run(capsys, "check", "--format", "json", str(folder / "**" / "*-c*.sse"))
    assert [json.loads(ln)["path"] for ln in out.splitlines()] == [str(folder / "a-clean.sse"),
                                                                 str(folder / "b" / "d-cut.sse")]
    assert code == 1


def test_json_lines_for_several_files_one_object_per_line(capsys, folder):
    _, out, _ = run(capsys, "check", "--format", "json", str(folder))
    reports = [json.loads(ln) for ln in out.splitlines()]
    assert [r["dialect"] for r in reports] == ["anthropic-messages"] * 3
    assert "Summary" not in out  # JSON Lines stay pure: the summary is for people (text)


@pytest.mark.parametrize("args,why", [
    (["-", "-"], "can be read only once"),
    (["EMPTY"], "no file in this folder"),
    (["NOMATCH*.sse"], "no file matches this pattern"),
])
def test_inputs_that_name_nothing_are_one_line_errors(capsys, tmp_path, args, why):
    (tmp_path / "empty").mkdir()
    args = [str(tmp_path / "empty") if a == "EMPTY" else str(tmp_path / a) if a.startswith("NOMATCH") else a
            for a in args]
    with pytest.raises(InputError, match=why):
        expand(args)
    code, _, err = run(capsys, "check", *args)
    assert code == 2 and why in err and len(err.strip().splitlines()) == 1


def test_a_named_file_that_is_no_capture_is_still_an_error(capsys, folder):
    code, _, err = run(capsys, "check", str(folder / "README.md"))
    assert code == 2 and "README.md: not a stream capture: no SSE event" in err


def test_stdin_dash_reads_the_capture_piped_in():
    p = cli("check", "--format", "json", "-", stdin=WARN)
    rep = json.loads(p.stdout)
    assert p.returncode == 0 and rep["path"] == "<stdin>" and [f["code"] for f in rep["findings"]] == ["A009"]
    p = cli("check", "-", stdin=b"")
    assert p.returncode == 2 and b"empty capture" in p.stderr and b"Traceback" not in p.stderr


def test_stdin_mixes_with_files_in_argument_order(tmp_path):
    f = tmp_path / "clean.sse"
    f.write_bytes(CLEAN)
    p = cli("check", "--format", "json", "--jobs", "2", str(f), "-", str(f), stdin=WARN)
    assert [json.loads(ln)["path"] for ln in p.stdout.splitlines()] == [str(f), "<stdin>", str(f)]


def test_jobs_give_the_same_output_as_one_process(tmp_path):
    """Worker processes finish in any order; the output is in input order all the same."""
    for i in range(24):
        (tmp_path / f"{i:02d}.sse").write_bytes([CLEAN, WARN, CUT][i % 3])
    one = cli("check", "--jobs", "1", str(tmp_path))
    many = cli("check", "--jobs", "3", str(tmp_path))
    assert one.returncode == many.returncode == 1
    assert one.stdout == many.stdout and b"24 files: 16 with findings" in one.stdout
    assert cli("check", "--jobs", "0", str(tmp_path)).returncode == 2


def test_ctrl_c_during_a_parallel_check_is_one_line_and_exit_130(tmp_path):
    """The Ctrl+C a terminal sends reaches the whole process group: the workers end silently, the
    parent says it once."""
    deltas = [{"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "x"}}]
    big = sse(MSG_START, start(0, "tool_use", id="toolu_1", name="save"), *(deltas * 4000))
    for i in range(40):
        (tmp_path / f"{i:02d}.sse").write_bytes(big)
    proc = subprocess.Popen([sys.executable, "-m", "inspector", "check", "--jobs", "2", str(tmp_path)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        assert proc.stdout.readline()  # the first report: the workers are busy
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err.decode().strip() == "stream-inspector: interrupted"
