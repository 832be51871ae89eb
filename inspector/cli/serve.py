"""``stream-inspector serve CAPTURE…``: a mock provider on 127.0.0.1 answering with captures.

``--mutate`` breaks the captures first (fault injection, ``inspector.net.conform.mutate``);
``--expect-next`` grades the client's request after each broken stream
(``inspector.net.conform.expect``); ``--mutations`` lists what can be broken.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Callable

import orjson

from inspector.capture.load import CaptureError
from inspector.capture.redact import scrub_secrets
from inspector.cli.codes import EXIT_FINDINGS, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE
from inspector.net.conform import report
from inspector.net.conform.expect import ExpectNextProvider
from inspector.net.conform.mutate import MutateError, MutatedCapture, parse_specs, served_variants
from inspector.net.replay.provider import match_provider
from inspector.net.serve import Served, asgi_app, load_served, make_asgi_app
from inspector.net.servers import QUIET_ABORTS, RequestLimits, is_loopback, listen, url_for, uvicorn_server
from inspector.model.display import display_text
from inspector.model.stopsignals import ending_by_signal
from inspector.providers import PROVIDERS
from inspector.providers.conformers import CONFORMANCE


def _logger(out) -> Callable[[str], None]:
    """What prints ``serve``'s log lines to ``out``: masked and made safe for a terminal, as any text
    from outside (a line may quote a request's path: a key a client put there, ``%1b`` decoded to ESC)."""
    def log(line: str) -> None:
        print(display_text(scrub_secrets(line), one_line=True), file=out, flush=True)

    return log


def _err(msg: str) -> int:
    print(f"stream-inspector: {msg}", file=sys.stderr)
    return EXIT_USAGE


def list_mutations(fmt: str) -> str:
    """``serve --mutations``: per provider, each mutation's name, what it does, codes and bug reports."""
    if fmt == "json":
        return "\n".join(orjson.dumps({"provider": name, "dialect": PROVIDERS[name].dialect_name, "mutation": mu.name,
                                        "summary": mu.summary, "codes": sorted(mu.codes), "reports": list(mu.reports),
                                        "param": mu.param, "default": mu.default}).decode()
                         for name, conf in CONFORMANCE.items() for mu in conf.mutations)
    lines = []
    for name, conf in CONFORMANCE.items():
        lines.append(f"{PROVIDERS[name].dialect_name} (--provider {name})")
        for mu in conf.mutations:
            label = mu.name + (f"[={mu.param.upper()}]" if mu.param else "")
            lines.append(f"  {label:<24} {mu.summary}")
            codes = " ".join(sorted(mu.codes)) or "none (a legal stream: the client must cope)"
            lines.append(f"  {'':<24} triggers {codes}; reproduces {', '.join(mu.reports)}")
        lines.append("")
    lines.append("--mutate NAME[=VALUE][,NAME...] applies them to any capture of a dialect that has them; "
                 "--expect-next grades the client's next request.")
    return "\n".join(lines)


def _serve_until_stopped(app, sock, log, holder: dict, args) -> bool:
    """Run ``app`` on ``sock`` until it stops (``holder["server"]``: the server, for whoever stops it)
    or Ctrl+C, SIGTERM or SIGHUP (stopped gracefully, then ``run`` returns: ``servers._StopsThenReturns``),
    with the request limits of ``args``; closes ``sock``. True when a signal stopped it."""
    server = holder["server"] = uvicorn_server(app, graceful=1.0, log_filter=QUIET_ABORTS,
                                               requests=RequestLimits(args.header_timeout, args.max_request_bytes),
                                               websockets=True, returns_on_signal=True)
    interrupted = False
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # a second Ctrl+C (uvicorn's forced exit), or one before the loop ran
        interrupted = True
    finally:
        sock.close()
    log("stopped")
    return interrupted or bool(server.stopped_by)


def run_match(args) -> int:
    """``serve --match DIR``: answer by request content until Ctrl+C (or, without ``--loop``, once every
    recording has been answered in full). Exit 0; 2 for a bad folder, path, ``--mutate`` or port."""
    if args.captures:
        return _err("serve --match DIR serves the recordings in DIR: give no CAPTURE besides")
    if args.expect_next:
        return _err("serve --match: --expect-next grades rotating captures; use conform --client for a conversation")
    if args.record_missing != bool(args.upstream):
        return _err("serve --match: --record-missing and --upstream URL go together")
    holder: dict = {}
    out = sys.stdout

    log = _logger(out)

    def stop_server() -> None:
        log("every recording answered once: stopping (--loop keeps serving)")
        if "server" in holder:
            holder["server"].should_exit = True

    try:
        provider, notes = match_provider(args.match, ignore=args.match_ignore, mutate=args.mutate,
                                         upstream=args.upstream, speed=args.speed, instant=args.instant, log=log,
                                         on_all_served=None if args.loop or args.record_missing else stop_server,
                                         max_bytes=args.max_size)
    except (CaptureError, MutateError, ValueError) as e:
        return _err(str(e))
    _warn_if_public(args.host, "recordings")
    sock = listen(args.host, args.port, "serve")
    if sock is None:
        return EXIT_USAGE
    url = url_for(sock)
    recs = provider.index.recordings
    log(f"serving {len(recs)} recording{'s' if len(recs) != 1 else ''} of {args.match} by request on {url}")
    for r in recs:
        log(f"  turn {r.turn}: {r.method} {r.path}  {r.served.source}  ({r.served.describe()})")
    for note in notes:
        log(f"  note: {note}")
    if args.record_missing:
        log(f"  a request no recording matches is forwarded to {args.upstream} and recorded into {args.match}")
    else:
        log("  a request no recording matches gets HTTP 400 naming the closest recording and where it departs")
    log("Ctrl+C stops" + ("" if args.loop or args.record_missing else "; so does answering every recording once"))
    _serve_until_stopped(asgi_app(provider), sock, log, holder, args)
    return EXIT_OK


def _usage_problem(args) -> str | None:
    """The message for an option that does not go with the others of ``serve CAPTURE...``, or None."""
    if args.record_missing or args.match_ignore or args.upstream:
        return "serve: --record-missing, --upstream and --match-ignore go with --match DIR"
    if not args.captures:
        return "serve: give at least one CAPTURE (or --mutations to list the mutations)"
    if "-" in args.captures:
        return "serve: standard input (-) cannot be answered again and again: save it to a file and serve that"
    folder = next((c for c in args.captures if os.path.isdir(c)), None)
    if folder is not None:
        return (f"serve: {folder} is a folder: name its captures (serve {folder}/*.jsonl) "
                f"or replay a recording with --match {folder}")
    if args.expect_next and not args.mutate:
        return "serve: --expect-next grades a client against broken streams: give --mutate NAME"
    if args.expect_next and args.loop:
        return "serve: --expect-next stops after the last verdict; --loop does not apply"
    return None


def _load_captures(args) -> tuple[list[Served], list[MutatedCapture], list[str]]:
    """``(served, mutated variants, notes)`` for the captures of ``args``, broken by ``--mutate``
    when given. Raises CaptureError for an unreadable capture, MutateError for a bad ``--mutate``."""
    served = load_served(args.captures, max_bytes=args.max_size)
    specs = parse_specs(args.mutate) if args.mutate else []
    if not specs:
        return served, [], []
    return served_variants(served, specs)


def _warn_if_public(host: str, what: str) -> None:
    """Warn on stderr when ``host`` is not a loopback address: anyone could read ``what``."""
    if not is_loopback(host):
        print(f"stream-inspector: WARNING: serving on {host}, not loopback: anyone who can reach this "
              f"machine can read these {what}. Use --host 127.0.0.1 unless you mean it.", file=sys.stderr)


def _verdicts_exit(args, provider: ExpectNextProvider, interrupted: bool) -> int:
    """Print the ``--expect-next`` verdicts in ``--format`` on stdout; the exit code: interrupted,
    0 when every mutated stream has a verdict and all of them are ``survived``, else 1."""
    verdicts = provider.verdicts
    if args.format == "json":
        print(report.verdicts_json(verdicts), flush=True)
    elif args.format == "junit":
        print(report.verdicts_junit(verdicts, "stream-inspector.serve"), flush=True)
    else:
        print(report.verdicts_text(verdicts, interrupted=interrupted or not provider.finished), flush=True)
    if interrupted:
        return EXIT_INTERRUPTED
    return EXIT_OK if verdicts and all(v.outcome == "survived" for v in verdicts) and provider.finished else EXIT_FINDINGS


def _announce(log: Callable[[str], None], url: str, served: list[Served], notes: list[str], *, grading: bool,
              loop: bool, next_timeout: float) -> None:
    """Log what is served where, the notes of ``--mutate`` and how the server stops."""
    n = len(served)
    log(f"serving {n} capture{'s' if n != 1 else ''} on {url}")
    for s in served:
        log(f"  {url}/{s.name}/  {s.source}  ({s.describe()})")
    for note in notes:
        log(f"  note: {note}")
    if grading:
        log("one conversation per mutated stream, in this order: a request gets the stream, the request after it "
            f"is graded (waited for up to {next_timeout:g} s) and gets a short text answer")
    elif n > 1:
        log("  any other path: the captures in turn")
    log("Ctrl+C stops" + ("" if loop or grading else "; without --loop, so does answering every capture once"))


def run(args) -> int:
    """``serve CAPTURE...``: exit 0 after Ctrl+C or once done, 2 for unreadable captures, a bad
    ``--mutate`` or a busy port; with ``--expect-next`` 1 when a verdict is not ``survived``.

    Several captures rotate (or are picked by path). Without ``--loop`` the server stops by itself
    once every capture has been answered in full, so a script can run ``serve`` beside one client
    run and need no cleanup; with ``--loop`` it keeps answering until Ctrl+C. A SIGTERM or SIGHUP
    stops it as Ctrl+C does (the ``stopped`` line, the verdicts so far), then ends the process by
    that signal (``inspector.model.stopsignals``).
    """
    if args.mutations:
        print(list_mutations(args.format))
        return EXIT_OK
    with ending_by_signal():  # a SIGTERM or SIGHUP: stopped as by Ctrl+C (the verdicts given), then ended by it
        return run_match(args) if args.match else _serve_captures(args)


def _serve_captures(args) -> int:
    """``serve CAPTURE...`` once the arguments are read: see ``run``."""
    problem = _usage_problem(args)
    if problem:
        return _err(problem)
    try:
        served, variants, notes = _load_captures(args)
    except (CaptureError, MutateError) as e:
        return _err(str(e))
    _warn_if_public(args.host, "captures")
    sock = listen(args.host, args.port, "serve")
    if sock is None:
        return EXIT_USAGE
    url = url_for(sock)
    machine = args.expect_next and args.format != "text"
    out = sys.stderr if machine else sys.stdout

    log = _logger(out)

    holder: dict = {}

    def stop_server(why: str) -> None:
        log(why)
        if "server" in holder:
            holder["server"].should_exit = True

    provider = None
    if args.expect_next:
        by_name = {mc.name: mc for mc in variants}
        pairs = [(s, by_name[s.name]) for s in served if s.name in by_name]
        provider = ExpectNextProvider(pairs, next_timeout=args.next_timeout, speed=args.speed, instant=args.instant,
                                      log=log, on_verdict=lambda v: log("verdict: " + report.verdict_line(v)),
                                      on_finished=lambda vs: stop_server("every mutated stream has a verdict: stopping"))
        app = asgi_app(provider)
        served = [s for s, _ in pairs]
    else:
        app = make_asgi_app(served, speed=args.speed, instant=args.instant, log=log,
                            on_all_served=None if args.loop else
                            lambda: stop_server("every capture served once: stopping (--loop keeps serving)"))
    _announce(log, url, served, notes, grading=provider is not None, loop=args.loop, next_timeout=args.next_timeout)
    interrupted = _serve_until_stopped(app, sock, log, holder, args)
    if provider is None:
        return EXIT_OK
    return _verdicts_exit(args, provider, interrupted)
