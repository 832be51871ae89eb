"""``stream-inspector run [--upstream [NAME=]URL]… -- CMD ARGS…``: launch an agent and watch its streams.

Starts the proxy on a free loopback port with one route per SDK base-URL variable
(``inspector.net.launch``), runs ``CMD`` with those variables pointed at it, and shows every
exchange as ``proxy`` does: in the proxy TUI (default) or as one report per exchange
(``--format json|text``, on stdout or ``-o FILE``). The command's own stdout and stderr pass through
unchanged (under the TUI they are held and written out when it closes, so the screen stays
readable). Headless, ``run`` ends when the command ends, after the exchanges still streaming have
ended (at most ``DRAIN_S``); under the TUI the exchanges stay on screen until ``q``. Either way
``run`` exits with the command's exit status (127 command not found, 126 not executable, 2 bad
usage, as ``env`` does). A SIGTERM or SIGHUP sent to ``run`` is passed on to the command and handled
as Ctrl+C is (under the TUI: the app left as on ``q``, the command given 10 s to end); once every
report is out and every recording ended, ``run`` ends by that signal (``stopsignals``).
"""
from __future__ import annotations

import os
import sys
import threading
import time

from inspector.cli.otel import Warn, sender_for
from inspector.cli.codes import EXIT_USAGE
from inspector.net.launch import Agent, LaunchError, Plan, banner, parse_upstreams, plan
from inspector.providers.variables import plain
from inspector.net.otlp import ExchangeSpans
from inspector.net.proxy.reports import Reports
from inspector.net.proxy.resend import resend_request
from inspector.cli.proxy import bounds
from inspector.net.proxy.server import ProxyThread
from inspector.net.proxy.tap import check_record_dir
from inspector.net.servers import listen, url_for
from inspector.model.stopsignals import Stopped, cleaning_up, ending_by_signal
from inspector.tui.screens.exchanges import ProxyApp
from inspector.tui.themes import check_theme

DRAIN_S = 5.0
"""How long a headless ``run`` waits, once the command has ended, for exchanges still streaming."""


def _fail(message: str) -> int:
    print(f"stream-inspector: run: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args) -> int:
    """See the module docstring."""
    command = args.agent[1:] if args.agent[:1] == ["--"] else args.agent
    if not command:
        return _fail("no command to run: stream-inspector run [OPTIONS] -- CMD ARGS…")
    try:
        single, per = parse_upstreams(args.upstream)
        the_plan = plan(dict(os.environ), single=single, per=per)
    except ValueError as e:
        return _fail(str(e))
    if args.record:
        problem = check_record_dir(args.record)
        if problem:
            return _fail(problem)
    if args.format == "tui":
        problem = check_theme(args.theme)
        if problem:
            return _fail(problem)
    warn = Warn()
    sender, problem = sender_for(args, warn)
    if problem:
        return _fail(problem)
    sock = listen("127.0.0.1", args.port, "run")
    if sock is None:
        return EXIT_USAGE
    url = url_for(sock)
    listeners = (ExchangeSpans(sender),) if sender is not None else ()
    if args.format == "tui":
        with ending_by_signal():  # a SIGTERM or SIGHUP: the app left as on q, passed on, then ended by it
            try:
                return _run_tui(args, command, the_plan, sock, url, listeners, warn)
            finally:
                if sender is not None:
                    sender.close()
    with ending_by_signal():  # a SIGTERM or SIGHUP: stopped as by Ctrl+C, then ended by it
        try:
            return _run_headless(args, command, the_plan, sock, url, listeners)
        finally:
            if sender is not None:
                sender.close()


def _drain(proxy: ProxyThread, seconds: float) -> None:
    """Wait (at most ``seconds``) for the exchanges still streaming to end."""
    deadline = time.monotonic() + seconds
    with proxy.log.changed:
        while any(not ex.done for ex in list(proxy.log.exchanges)):
            left = deadline - time.monotonic()
            if left <= 0:
                return
            proxy.log.changed.wait(min(left, 0.1))


def _run_headless(args, command: list[str], the_plan: Plan, sock, url: str, listeners: tuple = ()) -> int:
    out = sys.stdout
    if args.output not in (None, "-"):
        try:
            out = open(args.output, "w", encoding="utf-8")  # noqa: SIM115 (closed below)
        except OSError as e:
            sock.close()
            return _fail(f"cannot write {args.output}: {e.strerror or e}")
    proxy = ProxyThread(the_plan.routes, timeout=args.timeout, record_dir=args.record, dialect=args.dialect,
                        stall_s=args.stall, sock=sock, reports=Reports(args.format, out=out), rows=0, **bounds(args))
    proxy.log.listeners.extend(listeners)
    try:
        proxy.start()
    except (OSError, RuntimeError) as e:
        return _fail(str(e))
    print(banner(the_plan, url), file=sys.stderr, flush=True)
    agent = Agent(command, the_plan.environment(url))
    try:
        agent.start()
        try:
            code = agent.wait()
        except KeyboardInterrupt as e:  # the command got the same Ctrl+C: give it time to finish
            if isinstance(e, Stopped):  # a SIGTERM or SIGHUP sent to ``run`` alone: the command gets it too
                agent.send(e.signum)
            late = agent.wait(10.0)
            code = late if late is not None else agent.stop()
        cleaning_up()  # a SIGTERM from here on must not cut the reports short: noted, run ends by it after
        _drain(proxy, DRAIN_S)
        return code
    except LaunchError as e:
        print(f"stream-inspector: run: {e}", file=sys.stderr)
        return e.code
    finally:
        proxy.stop()
        if out is not sys.stdout:
            out.close()


def watch_agent(agent: Agent, app: ProxyApp, name: str) -> threading.Thread:
    """A thread that tells ``app`` when the command ends (exit status in the title and a notice)."""
    def wait() -> None:
        code = agent.wait()
        try:
            app.call_from_thread(command_ended, app, name, code)
        except RuntimeError:  # the app is not running (any more)
            pass

    t = threading.Thread(target=wait, name=f"run {name}", daemon=True)
    t.start()
    return t


def command_ended(app: ProxyApp, name: str, code: int) -> None:
    app.sub_title = f"{name} exited with {code}"
    app.notify(f"{name} exited with status {code}. The exchanges stay here; q quits (run exits with {code}).",
               title="command ended", severity="information" if code == 0 else "warning", timeout=15)


def tui_parts(command: list[str], the_plan: Plan, sock, url: str, *, timeout: float = 600.0,
              record: str | None = None, dialect: str | None = None, stall: float = 10.0,
              theme: str | None = None, base_env: dict | None = None,
              bounded: dict | None = None) -> tuple[ProxyApp, Agent, ProxyThread]:
    """The proxy TUI over a proxy on ``sock`` and the agent it watches (neither started yet);
    ``bounded``: ``cli.proxy.bounds(args)``."""
    proxy = ProxyThread(the_plan.routes, timeout=timeout, record_dir=record, dialect=dialect,
                        stall_s=stall, collect=False, sock=sock, external=True, **(bounded or {}))
    app = ProxyApp(proxy, listen_url=url, upstream=the_plan.routes.describe(), theme=theme, record_dir=record,
                   notes=tuple(plain(n) for n in the_plan.notes), resend=resend_request)
    app.title = f"stream-inspector run: {' '.join(command)}"
    return app, Agent(command, the_plan.environment(url, base_env), spool=True), proxy


def _run_tui(args, command: list[str], the_plan: Plan, sock, url: str, listeners: tuple = (),
             warn: Warn | None = None) -> int:
    app, agent, proxy = tui_parts(command, the_plan, sock, url, timeout=args.timeout, record=args.record,
                                  dialect=args.dialect, stall=args.stall, theme=args.theme, bounded=bounds(args))
    proxy.log.listeners.extend(listeners)
    if warn is not None:
        warn.app = app
    old = sys.getswitchinterval()
    sys.setswitchinterval(0.0005)  # as ``proxy``: a busy frame never holds a forwarded chunk back long
    try:
        proxy.start()
        agent.start()
    except LaunchError as e:
        proxy.stop()
        sys.setswitchinterval(old)
        print(f"stream-inspector: run: {e}", file=sys.stderr)
        return e.code
    except (OSError, RuntimeError) as e:
        proxy.stop()
        sys.setswitchinterval(old)
        return _fail(str(e))
    watch_agent(agent, app, command[0])
    try:
        app.run()
    except Stopped as e:  # a SIGTERM or SIGHUP sent to ``run``: passed on, the command given time to finish
        agent.send(e.signum)
        agent.wait(10.0)
        raise
    finally:
        code = agent.stop()  # q before the command ended ends it too
        proxy.stop()
        sys.setswitchinterval(old)
        agent.replay_output()
    return code
