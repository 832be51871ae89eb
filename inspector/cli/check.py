"""``stream-inspector check CAPTURE…``: headless lint, one report per capture, in argument order.

``CAPTURE`` is a file, ``-`` (standard input), a folder (walked) or a glob (``inspector.cli.inputs``).
Several files are checked in worker processes (``--jobs N``, default: every CPU this process may
use); reports are printed in input order whatever order the workers finish in, so the output is
the same with 1 or 16 jobs. ``--format text`` ends a run over several files with a summary
(findings by code, worst files) and a total line; ``json`` prints one JSON object per file per
line (JSON Lines), ``github`` one annotation per finding.
"""
from __future__ import annotations

import gc
import importlib
import os
import sys
import time
from inspector.model.static import TYPE_CHECKING

import _signal  # the C module: ``signal`` builds enums at import (start-up)

from inspector.capture import memory
from inspector.capture.memory import MemoryLimitReached
from inspector.capture.load import MAX_BYTES, CaptureError, load_all, load_all_bytes, load_entries
from inspector.model.capture import Chunk
from inspector.capture.errors import EmptyCapture
from inspector.cli.inputs import Input, InputError, each_entry, expand, no_capture_line, recorded_start, skipped_line
from inspector.cli.codes import ALL_ENTRIES, EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, cpu_count
from inspector.feeds.base import paused_gc
from inspector.feeds.run import check_request_file, not_a_stream, run_capture
from inspector.model.catalog import RULES
from inspector.model.severity import SEVERITIES, Severity, severity_rank
from inspector.report import summary, text
from inspector.model.writes import write_whole
from inspector.report.text import plural
from inspector.model.record import FrozenRecord, Record

if TYPE_CHECKING:
    from collections.abc import Iterator

    from inspector.report.spans import SpanRecord

def _overrides(items: list[str]) -> dict[str, Severity]:
    out: dict[str, Severity] = {}
    for item in items:
        code, _, level = item.partition("=")
        code = code.strip().upper()
        if code not in RULES or level not in SEVERITIES:
            raise SystemExit(f"stream-inspector: error: --severity wants CODE=error|warning|info with a known code, got {item!r}")
        out[code] = level
    return out


class Options(FrozenRecord):
    """What every file is checked with (picklable: sent to the worker processes)."""

    __slots__ = ("fmt", "entry", "dialect", "stall_s", "overrides", "request", "spans", "max_bytes", "keep_audio",
                 "max_memory")

    fmt: str
    entry: int | str | None
    """``--entry``: a HAR entry, ``all`` (the inputs are then one per entry), or None."""
    dialect: str | None
    stall_s: float
    overrides: dict
    request: str | None
    spans: bool
    """Build each file's OpenTelemetry span (``--otlp``)."""
    max_bytes: int | None
    """``--max-size``: the size cap for each capture (None: ``MAX_BYTES``)."""
    keep_audio: bool
    """``--keep-audio``: WebSocket audio payloads kept, not replaced by their sizes."""
    max_memory: int | None
    """``--max-memory``: the process's memory limit while it reads captures (None: ``memory.DEFAULT_LIMIT``)."""

    def __init__(self, fmt: str, entry: int | str | None, dialect: str | None, stall_s: float, overrides: dict,
                 request: str | None, spans: bool = False, max_bytes: int | None = None,
                 keep_audio: bool = False, max_memory: int | None = None) -> None:
        object.__setattr__(self, "fmt", fmt)
        object.__setattr__(self, "entry", entry)
        object.__setattr__(self, "dialect", dialect)
        object.__setattr__(self, "stall_s", stall_s)
        object.__setattr__(self, "overrides", overrides)
        object.__setattr__(self, "request", request)
        object.__setattr__(self, "spans", spans)
        object.__setattr__(self, "max_bytes", max_bytes)
        object.__setattr__(self, "keep_audio", keep_audio)
        object.__setattr__(self, "max_memory", max_memory)


class Result(Record):
    """One file's check: its report text, its stderr line, its outcome for the summary."""

    __slots__ = ("out", "problem", "outcome", "span")

    out: str
    problem: str | None
    outcome: summary.FileOutcome | None
    """None for a note that is no capture's outcome (a cassette's skipped interactions)."""
    span: SpanRecord | None

    def __init__(self, out: str, problem: str | None, outcome: summary.FileOutcome | None,
                 span: SpanRecord | None = None) -> None:
        self.out = out
        self.problem = problem
        self.outcome = outcome
        self.span = span


def _renderer(fmt: str):
    """The report module of ``fmt`` (``inspector.report.text``, ``json`` or ``github``), loaded when
    first asked for: a run prints one format (start-up)."""
    return importlib.import_module(f"inspector.report.{fmt}")


def check_one(inp: Input, opts: Options, arrived: list[Chunk] | None = None) -> list[Result]:
    """Check one capture file (``arrived``: its bytes as they were read, e.g. standard input, timed
    by their arrival: ``inspector.capture.arrivals``): one ``Result`` per stream in it (a cassette
    holds several, named ``file#N``), and a last one, with no outcome, saying how many recorded
    exchanges were not streams. Never raises for bad input: an unreadable capture is a ``Result``
    with a problem line."""
    return list(each_result(inp, opts, arrived))


def each_result(inp: Input, opts: Options, arrived: list[Chunk] | None = None) -> Iterator[Result]:
    """:func:`check_one`'s results one at a time: a HAR's entries (``inp.entries``) are each checked
    as ``FILE#N`` and reported before the next is read."""
    if inp.entries is not None and inp.path is not None:
        for n, found in load_entries(inp.path, inp.entries, max_bytes=opts.max_bytes, keep_audio=opts.keep_audio):
            one = inp.entry(n)
            yield from _unreadable(one, found) if isinstance(found, CaptureError) else _checked(one, found, 0, opts)
        return
    entry = opts.entry if isinstance(opts.entry, int) else None  # ``all``: HARs come with their entries
    try:
        if inp.path is not None and arrived is None:
            streams, skipped = load_all(inp.path, entry=entry, max_bytes=opts.max_bytes, keep_audio=opts.keep_audio)
        else:  # standard input (``inp.path`` None) comes with the chunks it was read as
            got = arrived or []
            raw = b"".join(c.data for c in got)
            streams, skipped = load_all_bytes(raw, name=inp.name, entry=entry, keep_audio=opts.keep_audio)
            from inspector.capture.arrivals import with_arrivals  # standard input only (start-up)
            streams = [(name, with_arrivals(cap, got)) for name, cap in streams]
    except CaptureError as e:
        yield from _unreadable(inp, e)
        return
    yield from _checked(inp, streams, skipped, opts)


def _unreadable(inp: Input, e: CaptureError) -> list[Result]:
    outcome = summary.FileOutcome(inp.name)
    if not inp.explicit and isinstance(e, EmptyCapture):  # ``run`` names the skipped files in one line
        outcome.status = "skipped"
        return [Result("", None, outcome)]
    outcome.status = "unreadable"
    return [Result("", str(e), outcome)]


def _checked(inp: Input, streams: list, skipped: int, opts: Options) -> Iterator[Result]:
    note = f"{inp.name}: {plural(skipped, 'interaction')} not streamed, skipped"
    if not streams:  # a cassette without a streamed interaction
        if not inp.explicit:
            yield Result("", None, summary.FileOutcome(inp.name, "skipped"))
            return
        yield Result("", f"{note}; no streamed interaction to check", summary.FileOutcome(inp.name, "unreadable"))
        return
    for name, cap in streams:
        yield _check_capture(name, cap, inp, opts)
    if skipped:
        yield Result("", note, None)


def _check_capture(name: str, cap, inp: Input, opts: Options) -> Result:
    outcome = summary.FileOutcome(name)
    try:
        s = run_capture(cap, dialect=opts.dialect, stall_s=opts.stall_s, severity_overrides=opts.overrides)
        if opts.request:
            check_request_file(s, opts.request)
    except CaptureError as e:
        outcome.status = "unreadable"
        return Result("", str(e.named(name) if isinstance(e, MemoryLimitReached) else e), outcome)
    why = not_a_stream(s, cap)
    if why:
        # Found by a walk, not named: a file that is no stream (a README, a JSON file beside the
        # captures) is skipped (``run`` names them in one line); named one by one, it is an error.
        if not inp.explicit:
            outcome.status = "skipped"
            return Result("", None, outcome)
        outcome.status = "unreadable"
        return Result("", f"{name}: not a stream capture: {why}", outcome)
    outcome.findings = [(f.code, f.name, f.severity) for f in s.findings]
    span = None
    if opts.spans:
        from inspector.report.spans import span_for  # only with --otlp (start-up)
        start = recorded_start(inp.path, cap)
        span = span_for(s, start=start if start is not None else time.time() - (s.duration_s or 0.0), label=name)
    with paused_gc():  # the report's dicts and strings are acyclic: collections during it find nothing
        out = _renderer(opts.fmt).render(name, s)
    return Result(out, None, outcome, span)


def check_batch(batch: list[Input], opts: Options) -> list[list[Result]]:
    """``check_one`` for each input of ``batch`` (what one worker process does per task), under the
    run's memory limit (a worker started by spawning has not the parent's)."""
    with memory.limited_to(opts.max_memory):
        return [check_one(inp, opts) for inp in batch]


def _results(inputs: list[Input], opts: Options, jobs: int, stdin: list[Chunk] | None):
    """Each input's ``Result``, in input order; several files go through ``jobs`` worker processes.
    Captures are read under the run's memory limit (``--max-memory``), here and in the workers."""
    with memory.limited_to(opts.max_memory):
        yield from _each(inputs, opts, jobs, stdin)


def _each(inputs: list[Input], opts: Options, jobs: int, stdin: list[Chunk] | None):
    if jobs <= 1 or len(inputs) <= 1:
        for inp in inputs:
            yield from each_result(inp, opts, stdin if inp.path is None else None)
        return
    files = [inp for inp in inputs if inp.path is not None]
    size = max(1, min(32, len(files) // (jobs * 4)))
    # Imported here: concurrent.futures (and the logging it loads) costs a one-file check ~15 ms of
    # start-up, and its process pool loads on first use anyway.
    import concurrent.futures

    pool = concurrent.futures.ProcessPoolExecutor(max_workers=min(jobs, len(files)), initializer=_quiet_on_ctrl_c)
    try:
        # Batches submitted by hand rather than ``pool.map``: map cancels its pending futures when
        # its consumer stops, and cancelling while Ctrl+C breaks the pool makes the pool's manager
        # thread raise (InvalidStateError, Python 3.11). Nothing is ever cancelled here.
        batches = [pool.submit(check_batch, files[i:i + size], opts) for i in range(0, len(files), size)]
        done = (r for batch in batches for r in batch.result())
        for inp in inputs:
            yield from check_one(inp, opts, stdin) if inp.path is None else next(done)
    except BaseException:  # Ctrl+C (the workers got it too: the pool ends at once), a closed stdout
        pool.shutdown(wait=False)
        raise
    pool.shutdown()


def _quiet_on_ctrl_c() -> None:
    """Worker set-up: Ctrl+C (sent to the whole process group) ends a worker at once and silently;
    the parent says "interrupted" once and exits 130. The cyclic collector is on: a worker started
    by spawning (not forking) imported ``inspector`` with the parent's ``sys.argv``, so as the
    command, which turns it off until the command's modules are loaded (``inspector/__init__``)."""
    _signal.signal(_signal.SIGINT, lambda signum, frame: os._exit(130))
    gc.enable()


def _stdin_chunks(inputs: list[Input], max_size: int | None) -> tuple[list[Chunk] | None, str | None]:
    """``(chunks, None)``: standard input as it arrived when an input is ``-`` (None when none is);
    ``(None, problem)`` when it is a terminal or cannot be read (at most ``max_size`` bytes)."""
    if all(inp.path is not None for inp in inputs):
        return None, None
    if sys.stdin is None or sys.stdin.isatty():
        return None, ("check -: standard input is a terminal; pipe a capture in "
                      "(e.g. `pbpaste | stream-inspector check -`)")
    try:
        from inspector.capture.arrivals import read_arrivals  # standard input only (start-up)
        return read_arrivals(sys.stdin.buffer, max_size or MAX_BYTES, name="<stdin>"), None
    except CaptureError as e:
        return None, str(e)


def _worse(worst: int, outcome: summary.FileOutcome, bar: int) -> int:
    """The exit code once ``outcome`` is counted in: 2 from an unreadable file on, else 1 from a
    finding at severity rank ``bar`` or above on."""
    if outcome.status == "unreadable":
        return EXIT_USAGE
    if worst != EXIT_USAGE and any(severity_rank(sev) >= bar for _, _, sev in outcome.findings):
        return EXIT_FINDINGS
    return worst


def run(args) -> int:
    """``check CAPTURE…``: exit 0 clean, 1 findings at or above ``--fail-on``, 2 unreadable input or
    no capture at all (every file found was skipped). Skipped files get one line on stderr."""
    try:
        overrides = _overrides(args.severity)
        inputs = expand(args.captures)
        if args.entry == ALL_ENTRIES:
            with memory.limited_to(args.max_memory):  # each HAR is parsed for its list
                inputs = each_entry(inputs, max_bytes=args.max_size, parts=args.jobs or cpu_count())
    except SystemExit as e:
        print(e, file=sys.stderr)
        return EXIT_USAGE
    except InputError as e:
        print(f"stream-inspector: {e}", file=sys.stderr)
        return EXIT_USAGE
    stdin, problem = _stdin_chunks(inputs, args.max_size)
    sender = None
    if problem is None and args.otlp:
        from inspector.cli.otel import sender_for  # only with --otlp (start-up)
        sender, problem = sender_for(args)
    if problem:
        print(f"stream-inspector: {problem}", file=sys.stderr)
        return EXIT_USAGE
    opts = Options(args.format, args.entry, args.dialect, args.stall, overrides, args.request, sender is not None,
                   args.max_size, args.keep_audio, args.max_memory)
    jobs = args.jobs or cpu_count()
    bar = severity_rank(args.fail_on)
    worst = EXIT_OK
    outcomes = []
    skipped = []
    for r in _results(inputs, opts, jobs, stdin):
        if r.out:
            write_whole(sys.stdout, r.out + "\n")
        if r.problem:
            print(f"stream-inspector: {text.safe_lines(r.problem)}", file=sys.stderr, flush=True)
        if r.outcome is None:
            continue
        if r.outcome.status == "skipped":
            skipped.append(r.outcome.name)
        outcomes.append(r.outcome)
        if sender is not None and r.span is not None:
            sender.send(r.span)
        worst = _worse(worst, r.outcome, bar)
    if skipped:
        print(f"stream-inspector: {skipped_line(skipped)}", file=sys.stderr, flush=True)
    if len(skipped) == len(outcomes):
        print(f"stream-inspector: {no_capture_line(args.captures, len(skipped))}", file=sys.stderr, flush=True)
        worst = EXIT_USAGE
    elif args.format == "text" and len(outcomes) > 1:
        write_whole(sys.stdout, summary.render(outcomes) + "\n")
    if sender is not None:
        sender.close()
    return worst
