"""``stream-inspector conform``: grade a server with the request matrix, or a client with ``--client``.

Server mode prints one line per case as it finishes (on stdout for ``--format text``, else on
stderr, so stdout stays machine-readable), with a progress bar on top when stdout is a terminal;
Ctrl+C prints the cases done so far and exits 130. Exit codes: 0 every case at least as good as
``--fail-on``, 1 otherwise (an unreachable server is graded, so it is 1), 2 bad usage (unknown
case, unreadable matrix, missing key, unwritable ``--record``).
"""
from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from inspector.model.writes import write_whole
from inspector.capture.load import CaptureError
from inspector.capture.redact import redact_url, scrub_secrets
from inspector.model.display import display_text
from inspector.cli.codes import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from inspector.feeds.base import Settings
from inspector.net.conform import client as client_run
from inspector.net.conform import report
from inspector.net.conform.grade import GRADES, CaseResult
from inspector.net.conform.matrix import MatrixError, load
from inspector.net.conform.mutate import MutateError, parse_specs
from inspector.net.conform.server import Target, check_target, run_matrix
from inspector.net.live import LiveError
from inspector.providers.conformers import CONFORMANCE


def _err(msg: str) -> int:
    print(f"stream-inspector: conform: {msg}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    if args.client is not None:
        return _run_client(args)
    try:
        matrix = load(args.provider, args.matrix)
        if args.only:
            matrix = matrix.only([n.strip() for n in args.only.split(",") if n.strip()])
    except MatrixError as e:
        return _err(str(e))
    if args.list:
        width = max(len(c.name) for c in matrix.cases)
        lines = [f"{matrix.source} ({len(matrix.cases)} cases, model {matrix.model or 'none: give --model'})"]
        for c in matrix.cases:
            flags = "".join([" [compared without streaming]" if c.compare else "",
                             " [optional]" if c.optional else ""])
            lines.append(f"  {c.name:<{width}}  {c.about}{flags}")
        print(display_text(scrub_secrets("\n".join(lines))))  # a matrix file is shared: text from outside
        return EXIT_OK
    if not args.base_url:
        return _err("give --base-url URL (the server to grade), or --client CMD to grade a client")
    model = args.model or matrix.model
    if not model:
        return _err(f"{matrix.source} names no model: give --model")
    record = None
    if args.record:
        record = Path(args.record)
        try:
            record.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            return _err(f"--record {args.record}: {e.strerror or e}")
        if not os.access(record, os.W_OK):
            return _err(f"--record {args.record}: not writable")
    target = Target(args.provider, args.base_url, model, timeout=args.timeout, record=record,
                    settings=Settings(args.dialect, args.stall, {}))
    try:
        check_target(target, matrix)
    except LiveError as e:
        return _err(str(e))
    title = display_text(scrub_secrets(f"conform {args.provider} {redact_url(args.base_url)} (model {model}, "
                                       f"{len(matrix.cases)} cases)"), one_line=True)
    results: list[CaseResult] = []
    out = sys.stdout if args.format == "text" else sys.stderr
    progress = _progress(len(matrix.cases)) if sys.stdout.isatty() else None

    def started(case, n: int) -> None:
        if progress is not None:
            # Drawn now: the refresh thread ticks at 10 Hz and a fast case would end unnamed on screen.
            progress.update(progress.task_ids[0], description=f"{n}/{len(matrix.cases)} {case.name}", refresh=True)

    def done(result: CaseResult) -> None:
        results.append(result)
        text = report.case_text(result)
        if progress is not None:
            progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
            progress.advance(progress.task_ids[0])
        else:
            print(text, file=out, flush=True)

    print(title, file=out, flush=True)
    interrupted = False
    try:
        if progress is not None:
            with progress:
                asyncio.run(run_matrix(target, matrix, done, started))
        else:
            asyncio.run(run_matrix(target, matrix, done, started))
    except KeyboardInterrupt:
        interrupted = True
    _render(args.format, results, args.provider, title, interrupted)
    if interrupted:
        print("stream-inspector: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    bar = GRADES.index(args.fail_on)
    return EXIT_FINDINGS if any(GRADES.index(r.grade) >= bar for r in results) else EXIT_OK


def _render(fmt: str, results: list[CaseResult], provider: str, title: str, interrupted: bool) -> None:
    suite = f"stream-inspector.conform.{provider}"
    if fmt == "text":
        print(report.cases_summary(results) + (" (interrupted: the cases above ran)" if interrupted else ""),
              flush=True)
    elif fmt == "json":
        write_whole(sys.stdout, report.cases_json(results) + "\n")
    elif fmt == "junit":
        write_whole(sys.stdout, report.cases_junit(results, suite) + "\n")
    else:
        write_whole(sys.stdout, report.cases_github(results, provider) + "\n")
    if fmt != "text":
        print(report.cases_summary(results), file=sys.stderr, flush=True)


def _progress(total: int):
    """A rich progress bar on the terminal (transient: the case lines stay, the bar goes)."""
    p = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                 transient=True)
    p.add_task("starting", total=total)
    return p


def _run_client(args) -> int:
    """``conform --client CMD``: one verdict per mutation; exit 0 when the client survived every one."""
    if args.format == "github":
        return _err("--client reports as text, json or junit")
    if args.provider not in CONFORMANCE:  # a WebSocket-only provider (openai-realtime) has no HTTP mutations
        return _err(f"--client has no mutations for {args.provider} (known: {', '.join(CONFORMANCE)})")
    try:
        names = args.mutate or ",".join(mu.name for mu in CONFORMANCE[args.provider].mutations)
        specs = parse_specs(names)
    except MutateError as e:
        return _err(str(e))
    machine = args.format != "text"
    out = sys.stderr if machine else sys.stdout
    print(scrub_secrets(f"conform --client {args.client!r} ({args.provider}, {len(specs)} mutations)"), file=out,
          flush=True)  # a command line may carry a key
    verdicts = []

    def shown(v) -> None:
        verdicts.append(v)
        print(report.verdict_line(v), file=out, flush=True)

    interrupted = False
    try:
        # Mutations named with --mutate must apply; of the default set, those the capture gives nothing
        # to break are skipped with a line saying so.
        skip = None if args.mutate else (lambda line: print(line, file=sys.stderr, flush=True))
        client_run.run(args.client, args.provider, specs, capture=args.capture, timeout=args.timeout,
                       next_timeout=args.next_timeout, on_verdict=shown, on_skip=skip)
    except (client_run.ClientError, CaptureError) as e:
        return _err(str(e))
    except KeyboardInterrupt:
        interrupted = True
    if args.format == "json":
        write_whole(sys.stdout, report.verdicts_json(verdicts) + "\n")
    elif args.format == "junit":
        write_whole(sys.stdout, report.verdicts_junit(verdicts, f"stream-inspector.client.{args.provider}") + "\n")
    else:
        write_whole(sys.stdout, report.summary(verdicts) + (" (interrupted)" if interrupted else "") + "\n")
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_OK if all(v.outcome == "survived" for v in verdicts) else EXIT_FINDINGS
