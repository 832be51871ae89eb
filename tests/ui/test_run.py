"""The TUI commands' entry points: bad input is one line and exit 2; the bundled demo captures load."""
from __future__ import annotations

import argparse

from inspector.capture.load import load_path
from inspector.feeds.run import run_capture
from inspector.capture.bundled import bundled_captures
from inspector.cli import demo, replay


def _args(**kw):
    base = {"capture": "", "speed": 1.0, "instant": False, "dialect": None, "stall": 10.0, "theme": None,
            "entry": None, "max_size": None, "max_memory": None}
    base.update(kw)
    return argparse.Namespace(**base)


def test_replay_missing_file_is_one_line_and_exit_2(capsys, tmp_path):
    assert replay.run(_args(capture=str(tmp_path / "nope.jsonl"))) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no such file" in err


def test_replay_empty_file_is_exit_2(capsys, tmp_path):
    empty = tmp_path / "empty.sse"
    empty.write_bytes(b"")
    assert replay.run(_args(capture=str(empty))) == 2
    assert "empty capture" in capsys.readouterr().err


def test_unknown_theme_is_exit_2(capsys):
    assert replay.run(_args(capture=str(bundled_captures()[0]), theme="neon")) == 2
    assert "unknown theme 'neon'" in capsys.readouterr().err
    assert demo.run(argparse.Namespace(speed=1.0, theme="neon")) == 2


def test_bundled_captures_cover_clean_violations_parallel_and_quirks():
    paths = [p for p in bundled_captures() if p.name[:1].isdigit()]  # the demo's own four
    assert len(paths) == 4
    sessions = {p.name: run_capture(load_path(p)) for p in paths}
    codes = {name: {f.code for f in s.findings} for name, s in sessions.items()}
    clean, broken, parallel, quirks = (sessions[p.name] for p in paths)
    assert not clean.findings and [b.kind for b in clean.blocks] == ["text", "tool_use"]
    assert {"T001", "J002"} <= codes[paths[1].name]
    assert parallel.dialect_name == "openai-chat" and len(parallel.blocks) == 2 and not parallel.findings
    assert {"C001", "C003"} <= codes[paths[3].name]
    for s in sessions.values():
        assert 2.0 <= s.duration_s <= 15.0  # a few seconds of realistic timing each


def test_demo_requests_match_the_capture_provider():
    caps = [load_path(p) for p in bundled_captures() if p.name[:1].isdigit()]
    providers = [demo._provider_for(c) for c in caps]
    assert providers == ["anthropic", "anthropic", "openai", "openai"]
    for cap, provider in zip(caps, providers):
        body = demo._demo_body(cap, provider)
        assert body["stream"] is True and body["messages"]
