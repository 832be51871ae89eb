"""A hostile capture cannot hurt the process (issue 24, item 4): every capture of the project's
corpus (``tests/real_streams``, ``tests/corpus/bedrock``), its values' types swapped, truncated,
bytes flipped, nested deeply, controls injected (``tests/fuzz/mutate.py``), goes through
``check`` in every format, ``export`` (HTML and HAR), ``diff`` against the original and an
instant replay under Pilot: no exception escapes, every exit code is 0, 1 or 2 (3 is a crash),
nothing from the data reaches the terminal, and memory stays bounded.

A fixed budget of examples per run keeps it to seconds in CI (``FUZZ_EXAMPLES``, ``FUZZ_REPLAYS``
raise it for a long run). Each case is ``(capture, seed)``: a failure prints both in Hypothesis's
falsifying example, and ``hostile_case(capture, seed, folder)`` rebuilds the exact bytes.
"""
from __future__ import annotations

import asyncio
import os
import resource
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from textual.drivers.headless_driver import HeadlessDriver

from inspector.cli import main
from inspector.tui.app import make_app
from tests.fuzz.mutate import CORPUS, hostile_case
from tests.hostile import FORBIDDEN

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
"""``check``/``export``/``diff`` cases per run."""
REPLAYS = int(os.environ.get("FUZZ_REPLAYS", "5"))
"""Instant replays under Pilot per run (each starts an app: the slow part)."""
RSS_BUDGET_MB = 600
"""Most one case's commands may raise the process's peak RSS over its RSS before the case (a decompression
or nesting bomb would not fit)."""



def _peak_rss_reset() -> bool:
    """Reset this process's peak RSS (``VmHWM``) to its current RSS: Linux ≥ 4.0, ``/proc/PID/clear_refs``
    value 5 (proc(5)). False where that cannot be done (the peak then counts from the module's import)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _rss_mb(field: str) -> float:
    """``VmRSS`` or ``VmHWM`` of this process in MB (``/proc/self/status``)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    raise LookupError(field)


_BASE_RSS_MB = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""The peak at import, where the peak cannot be reset per case."""
cases = st.tuples(st.sampled_from(CORPUS), st.integers(min_value=0, max_value=2**32 - 1))
def fuzz(examples: int) -> settings:
    # No shrinking: a case is (capture, seed) already, and shrinking a Pilot run takes minutes.
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck),
                    print_blob=True, database=None, phases=[Phase.explicit, Phase.generate])


def run_cli(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def check_case(source: Path, seed: int, folder: Path, capsys) -> None:
    """Every headless command on one hostile case; raises AssertionError naming the command."""
    path, names = hostile_case(source, seed, folder)
    where = f"{source.name} seed {seed} ({', '.join(names)})"
    # The case's own peak: ru_maxrss is the worker's peak over every test it ran before (xdist), which a
    # big-capture test elsewhere can put over the budget by itself.
    per_case = _peak_rss_reset()
    base = _rss_mb("VmRSS") if per_case else _BASE_RSS_MB
    for argv in (["check", str(path), "--format", "text"], ["check", str(path), "--format", "json"],
                 ["check", str(path), "--format", "github"],
                 ["export", str(path), "--to", "html", "-o", str(folder / "out.html")],
                 ["export", str(path), "--to", "har", "-o", str(folder / "out.har")],
                 ["diff", str(source), str(path), "--format", "text"],
                 ["diff", str(source), str(path), "--format", "json"]):
        code, out, err = run_cli(argv, capsys)
        assert code in (0, 1, 2), f"{where}: {' '.join(argv[:1] + argv[2:])} exited {code}: {err.strip()[-500:]}"
        raw = [f for f in FORBIDDEN if f in out or f in err]
        assert not raw, f"{where}: {argv[0]} printed {raw!r} raw"
    rss = _rss_mb("VmHWM") if per_case else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    assert rss - base < RSS_BUDGET_MB, f"{where}: peak RSS grew {rss - base:.0f} MB"


@fuzz(EXAMPLES)
@given(case=cases)
def test_check_export_and_diff_survive_hostile_captures(case, capsys):
    source, seed = case
    with tempfile.TemporaryDirectory() as folder:
        check_case(source, seed, Path(folder), capsys)


async def _replay(path: Path, written: list[str]) -> None:
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        app.refresh_now()
        await pilot.press("2", "i", "escape", "j", "3", "end", "t", "escape")
        await pilot.pause()
    assert app._exception is None


@fuzz(REPLAYS)
@given(case=cases)
def test_an_instant_replay_survives_hostile_captures(case, monkeypatch):
    source, seed = case
    written: list[str] = []
    monkeypatch.setattr(HeadlessDriver, "is_headless", property(lambda self: False))
    monkeypatch.setattr(HeadlessDriver, "write", lambda self, data: written.append(data))
    with tempfile.TemporaryDirectory() as folder:
        path, names = hostile_case(source, seed, Path(folder))
        asyncio.run(_replay(path, written))
    out = "".join(written)
    raw = [f for f in FORBIDDEN if f in out]
    assert not raw, f"{source.name} seed {seed} ({', '.join(names)}): {raw!r} reached the terminal"
