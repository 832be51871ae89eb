"""``run -- CMD``: which SDK variables point where, and the agent process itself.

Why it exists: an agent reaches its providers through SDKs that read a base URL from the
environment. ``run`` starts the proxy on a loopback port and sets every one of those variables
to it, so the agent is inspected without a line changed. The variables are one table,
``inspector.providers.variables`` (each provider folder's ``Endpoint.base_env``).

Routes (:func:`plan`): each variable gets a route on the proxy named after its route name
(``/anthropic``, ``/openai``, ``/gemini``, ``/vertex``…), forwarding to the URL that variable would
have meant without ``run``: ``--upstream NAME=URL`` if given, else the variable's value already in
the environment (an agent pointed at a local vLLM keeps going there), else the first of its
fallback variables that is set (langchain-anthropic falls back from ``ANTHROPIC_API_URL`` to
``ANTHROPIC_BASE_URL``), else its readers' default (the provider's public API). A route knows its
API's version segments, so that readers who disagree on whether the variable holds ``/v1`` both
reach the right path (``inspector.net.proxy.routes``). Ollama's clients may drop a path from
``OLLAMA_HOST``, so its variable points at the proxy's root and its route is its own ``/api``
prefix. With one ``--upstream URL`` every variable points at the proxy's root (plus the version
its readers expect in it, OpenAI's ``/v1``) and every request goes to ``URL`` as sent, as with
``proxy``.

The process (:class:`Agent`): started with that environment; its standard output and error pass
through unchanged (straight to this process's own when no TUI holds the terminal, else spooled
and written out when the TUI closes); its exit status is what ``run`` exits with.

Imports: ``inspector.providers`` (the variables), ``inspector.net.proxy.routes``; the standard library.
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import IO, overload

from inspector.net.proxy.routes import Route, Routes, check_upstream, single_route
from inspector.providers.ollama.request import ollama_host_url  # noqa: F401 (re-exported: tests, callers)
from inspector.providers.variables import Variable, plain, route_names, unredirected, variables

PROXY_SHOWN = "http://127.0.0.1:PORT"
"""How the README's table spells the proxy's URL."""


@dataclass(slots=True)
class Binding:
    """One variable: the route it gets and the upstream behind it."""

    var: Variable
    route: Route
    source: str
    """Where the upstream came from: ``--upstream``, ``environment``, ``environment: VAR`` (a
    fallback variable) or ``default``."""

    def value(self, proxy_url: str) -> str:
        """The variable's value for the agent, once the proxy listens on ``proxy_url`` (``ws://`` for a
        WebSocket variable: the proxy takes upgrades on the same port)."""
        if self.var.var.websocket and proxy_url.startswith("http"):
            proxy_url = "ws" + proxy_url[len("http"):]
        if not self.route.prefix:  # one upstream for all: the proxy's root, plus the version its readers expect
            return proxy_url + self.var.var.sdk_path
        if not self.route.strip:  # routed by the provider's own path prefix at the root
            return proxy_url
        return proxy_url + self.route.prefix


@dataclass(slots=True)
class Plan:
    """The routes the proxy serves and how each variable reaches them."""

    routes: Routes
    bindings: list[Binding]
    notes: list[str]
    """Known traffic no variable redirects, under the agent's environment (the banner says it)."""

    def environment(self, proxy_url: str, base: dict[str, str] | None = None) -> dict[str, str]:
        """``base`` (default ``os.environ``) with every variable pointed at the proxy."""
        env = dict(os.environ if base is None else base)
        for b in self.bindings:
            env[b.var.name] = b.value(proxy_url)
        return env

    def table(self, proxy_url: str) -> list[tuple[str, str, str, str]]:
        """``(variable, its value, upstream, source)`` per variable, for the banner."""
        return [(b.var.name, b.value(proxy_url), b.route.upstream, b.source) for b in self.bindings]


def parse_upstreams(items: list[str]) -> tuple[str | None, dict[str, str]]:
    """``--upstream`` values: one plain ``URL`` (every route), or ``NAME=URL`` per route (the URL
    that route's variables would hold). Raises ``ValueError`` with one line: an unknown name, a
    bad URL, a name given twice, or a plain URL mixed with others."""
    names = route_names()
    single, per = None, {}
    for item in items:
        name, sep, url = item.partition("=")
        if sep and "://" not in name:
            if name not in names:
                raise ValueError(f"--upstream {item}: unknown name {name!r} (one of {', '.join(sorted(names))})")
            if name in per:
                raise ValueError(f"--upstream {name}= given twice")
            per[name] = check_upstream(url, f"--upstream {name}=")
        else:
            if single is not None:
                raise ValueError("--upstream URL (every route) can be given once")
            single = check_upstream(item)
    if single is not None and per:
        raise ValueError("--upstream URL sends every request to URL: drop it, or the NAME=URL values")
    return single, per


def _upstream(v: Variable, environ: dict[str, str], per: dict[str, str]) -> tuple[str, str]:
    """Where ``v`` leads without ``run``, and where that came from (see the module docstring)."""
    if v.route in per:
        return per[v.route], "--upstream"
    for i, name in enumerate((v.name, *v.var.fallback)):
        raw = environ.get(name, "").strip()
        if raw:
            url = v.var.parse(raw) if v.var.parse is not None else check_upstream(raw, f"${name}")
            return url, "environment" if i == 0 else f"environment: {name}"
    return v.var.default_url(environ), "default"


def plan(environ: dict[str, str], *, single: str | None = None, per: dict[str, str] | None = None) -> Plan:
    """The routes and bindings for the agent (module docstring). ``environ`` is the environment the
    agent would have had; ``single``/``per`` come from ``parse_upstreams``. Raises ``ValueError``
    when a variable already set in ``environ`` is not an http(s) URL (named in the message)."""
    per = per or {}
    notes = unredirected(environ)
    if single is not None:
        only = single_route(single, name="upstream")
        return Plan(Routes([only]), [Binding(v, only, "--upstream") for v in variables()], notes)
    routes: dict[tuple[str, str], Route] = {}
    per_name: dict[str, int] = {}
    bindings = []
    for v in variables():
        upstream, source = _upstream(v, environ, per)
        key = (v.route, upstream.rstrip("/"))
        route = routes.get(key)
        if route is None:
            # Two variables of one route set to different URLs get a route each (openai, openai-2).
            n = per_name[v.route] = per_name.get(v.route, 0) + 1
            name = v.route if n == 1 else f"{v.route}-{n}"
            prefix, strip = (f"/{name}", True) if v.var.keeps_path else (v.own_prefix, False)
            route = Route(prefix, upstream, strip=strip, name=name, versions=v.var.versions,
                          root=not v.var.versioned)
            routes[key] = route
        bindings.append(Binding(v, route, source))
    return Plan(Routes(list(routes.values())), bindings, notes)


def readme_table() -> str:
    """The README's ``run`` table (Markdown): every variable, who reads it, what ``run`` sets it to
    in an environment where none is set (from a real :func:`plan`), and where its route forwards."""
    the_plan = plan({})
    lines = ["| variable | read by | set to | forwards to (unless `--upstream NAME=URL`) |", "|---|---|---|---|"]
    for b in the_plan.bindings:
        set_to = f"`{b.value(PROXY_SHOWN)}`"
        if not b.route.strip:
            set_to += f" (some clients drop a path: requests under `{b.route.prefix}/` at the root are routed there)"
        lines.append(f"| `{b.var.name}` | {b.var.var.read_by} | {set_to} | {b.var.forwards_to()} |")
    return "\n".join(lines)


def banner(the_plan: Plan, url: str) -> str:
    """The lines ``run`` prints on stderr before the command starts: where each variable points and
    leads, then the known traffic that no variable redirects."""
    lines = [f"stream-inspector run: proxy on {url}"]
    rows = the_plan.table(url)
    width = max(len(v) for v, *_ in rows)
    for var, value, upstream, source in rows:
        lines.append(f"  {var:<{width}} = {value}  → {upstream} ({source})")
    lines += [f"  not redirected: {plain(note)}" for note in the_plan.notes]
    return "\n".join(lines)


class Agent:
    """The command ``run`` launches. ``start`` raises ``LaunchError`` (command not found: exit 127;
    not executable: 126, as shells and ``env`` say)."""

    def __init__(self, argv: list[str], env: dict[str, str], *, spool: bool = False) -> None:
        self.argv = argv
        self.env = env
        self.spool = spool
        """Keep the command's output in temporary files until ``replay_output`` (a TUI holds the terminal)."""
        self.proc: subprocess.Popen | None = None
        self._out: IO[bytes] | None = None
        self._err: IO[bytes] | None = None

    def start(self) -> "Agent":
        exe = shutil.which(self.argv[0], path=self.env.get("PATH")) if os.sep not in self.argv[0] else self.argv[0]
        if exe is None or not os.path.exists(exe):
            raise LaunchError(f"command not found: {self.argv[0]}", 127)
        if self.spool:
            self._out, self._err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.argv, env=self.env,
                                         stdin=subprocess.DEVNULL if self.spool else None,
                                         stdout=self._out, stderr=self._err)
        except PermissionError:
            raise LaunchError(f"cannot execute {self.argv[0]}: permission denied", 126) from None
        except OSError as e:
            raise LaunchError(f"cannot start {self.argv[0]}: {e.strerror or e}", 126) from None
        return self

    @property
    def returncode(self) -> int | None:
        """The exit status once it ended (a signal N as 128 + N, as shells report it), else None."""
        code = self.proc.poll() if self.proc is not None else None
        return None if code is None else _shell_status(code)

    def _started(self) -> subprocess.Popen:
        if self.proc is None:
            raise RuntimeError("the command has not been started (Agent.start)")
        return self.proc

    @overload
    def wait(self, timeout: None = None) -> int: ...
    @overload
    def wait(self, timeout: float) -> int | None: ...
    def wait(self, timeout: float | None = None) -> int | None:
        """Wait for the end (``timeout`` seconds at most); the exit status, or None if still running."""
        try:
            return _shell_status(self._started().wait(timeout))
        except subprocess.TimeoutExpired:
            return None

    def send(self, signum: int) -> None:
        """Send it ``signum`` if it still runs (``run`` passes on a SIGTERM or SIGHUP sent to itself alone)."""
        proc = self._started()
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # it ended in between
                proc.send_signal(signum)

    def stop(self, grace: float = 5.0) -> int:
        """End it if it still runs: SIGTERM, then SIGKILL after ``grace`` seconds. Its exit status."""
        proc = self._started()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            if self.wait(grace) is None:
                proc.kill()
        return _shell_status(proc.wait())

    def replay_output(self) -> None:
        """Write what a spooled command printed to this process's stdout and stderr, byte for byte."""
        for spool, stream in ((self._out, sys.stdout), (self._err, sys.stderr)):
            if spool is None:
                continue
            spool.seek(0)
            stream.flush()
            while block := spool.read(1 << 16):
                stream.buffer.write(block)
            stream.flush()
            spool.close()


def _shell_status(code: int) -> int:
    """A ``Popen`` return code as shells report it: killed by signal N (``-N``) is 128 + N."""
    return 128 - code if code < 0 else code


class LaunchError(RuntimeError):
    """The command could not be started; ``code`` is the exit status to report (126, 127)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code
