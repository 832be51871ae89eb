"""``run -- CMD``: which SDK variables point where, and the agent process itself.

Why it exists: an agent reaches its providers through SDKs that read a base URL from the
environment (each provider's ``Endpoint.base_env``). ``run`` starts the proxy on a loopback port
and sets every one of those variables to it, so the agent is inspected without a line changed.

Routes (:func:`plan`): each variable gets a route on the proxy named after its provider
(``/anthropic``, ``/openai``, ``/gemini``), forwarding to the URL that variable would have meant
without ``run``: ``--upstream NAME=URL`` if given, else the variable's value already in the
environment (an agent pointed at a local vLLM keeps going there), else the SDK's default (the
provider's public API). Ollama's clients may drop a path from ``OLLAMA_HOST``, so its variable
points at the proxy's root and its route is its own ``/api`` prefix. With one ``--upstream URL``
every variable points at the proxy's root (plus the path its SDK expects, OpenAI's ``/v1``) and
every request goes to ``URL``, as with ``proxy``.

The process (:class:`Agent`): started with that environment; its standard output and error pass
through unchanged (straight to this process's own when no TUI holds the terminal, else spooled
and written out when the TUI closes); its exit status is what ``run`` exits with.

Imports: ``inspector.providers`` (the endpoints), ``inspector.net.proxy.routes``; the standard library.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from urllib.parse import urlsplit

from inspector.net.proxy.routes import Route, Routes, check_upstream
from inspector.providers import PROVIDERS

OLLAMA_PORT = 11434


@dataclass(frozen=True, slots=True)
class SdkVariable:
    """One base-URL variable an SDK reads."""

    name: str
    """``ANTHROPIC_BASE_URL``, ``OPENAI_BASE_URL``…"""
    provider: str
    """The route's name: the first provider (registry order) whose endpoint lists the variable."""
    default: str
    """What the SDK uses when the variable is unset (``https://api.openai.com/v1``)."""
    sdk_path: str
    """The path part of ``default`` (``/v1``), kept when every variable points at one upstream."""
    keeps_path: bool
    """False: the variable points at the proxy's root and the provider's own path prefix routes it."""
    own_prefix: str
    """The first segment of the provider's endpoint path (``/api`` for Ollama)."""


def sdk_variables() -> list[SdkVariable]:
    """Every variable of every provider's ``Endpoint.base_env``, once, in registry order."""
    out: dict[str, SdkVariable] = {}
    for p in PROVIDERS.values():
        e = p.endpoint
        segment = "/" + e.path.lstrip("/").split("/", 1)[0]
        for var in e.base_env:
            out.setdefault(var, SdkVariable(var, p.name, e.default_base.rstrip("/") + e.sdk_base_path,
                                            e.sdk_base_path, e.base_env_keeps_path, segment))
    return list(out.values())


def ollama_host_url(value: str) -> str:
    """``OLLAMA_HOST`` as a URL, the way the ollama clients read it: ``host``, ``host:port``,
    ``:port`` or a URL; default scheme http, port 11434; ``0.0.0.0`` (a server bind address)
    means this machine."""
    v = value.strip()
    scheme, sep, rest = v.partition("://")
    if not sep:
        scheme, rest = "http", v
    parts = urlsplit(f"{scheme}://{rest}")
    host = parts.hostname or "127.0.0.1"
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    port = parts.port or (OLLAMA_PORT if not sep else (443 if scheme == "https" else 80))
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}{parts.path.rstrip('/')}"


@dataclass(slots=True)
class Binding:
    """One variable: the route it gets and the upstream behind it."""

    var: SdkVariable
    route: Route
    source: str
    """Where the upstream came from: ``--upstream``, ``environment`` or ``default``."""

    def value(self, proxy_url: str) -> str:
        """The variable's value for the agent, once the proxy listens on ``proxy_url``."""
        if not self.route.prefix:  # one upstream for all: the proxy's root, plus the path the SDK expects
            return proxy_url + self.var.sdk_path
        if not self.route.strip:  # routed by the provider's own path prefix at the root
            return proxy_url
        return proxy_url + self.route.prefix


@dataclass(slots=True)
class Plan:
    """The routes the proxy serves and how each variable reaches them."""

    routes: Routes
    bindings: list[Binding]

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
    """``--upstream`` values: one plain ``URL`` (every route), or ``NAME=URL`` per provider (the URL
    that provider's SDK variable would hold). Raises ``ValueError`` with one line: an unknown
    name, a bad URL, a name given twice, or a plain URL mixed with others."""
    names = {v.provider for v in sdk_variables()}
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


def plan(environ: dict[str, str], *, single: str | None = None, per: dict[str, str] | None = None) -> Plan:
    """The routes and bindings for the agent (module docstring). ``environ`` is the environment the
    agent would have had; ``single``/``per`` come from ``parse_upstreams``. Raises ``ValueError``
    when a variable already set in ``environ`` is not an http(s) URL (named in the message)."""
    per = per or {}
    variables = sdk_variables()
    if single is not None:
        route = Route("", single, name="upstream")
        return Plan(Routes([route]), [Binding(v, route, "--upstream") for v in variables])
    routes: dict[tuple[str, str], Route] = {}
    per_provider: dict[str, int] = {}
    bindings = []
    for v in variables:
        if v.provider in per:
            upstream, source = per[v.provider], "--upstream"
        elif environ.get(v.name, "").strip():
            raw = environ[v.name].strip()
            upstream = ollama_host_url(raw) if not v.keeps_path else check_upstream(raw, f"${v.name}")
            source = "environment"
        else:
            upstream, source = v.default, "default"
        key = (v.provider, upstream.rstrip("/"))
        route = routes.get(key)
        if route is None:
            # Two variables of one provider set to different URLs get a route each (openai, openai-2).
            n = per_provider[v.provider] = per_provider.get(v.provider, 0) + 1
            name = v.provider if n == 1 else f"{v.provider}-{n}"
            route = Route(f"/{name}", upstream, name=name) if v.keeps_path else \
                Route(v.own_prefix, upstream, strip=False, name=name)
            routes[key] = route
        bindings.append(Binding(v, route, source))
    return Plan(Routes(list(routes.values())), bindings)


class Agent:
    """The command ``run`` launches. ``start`` raises ``LaunchError`` (command not found: exit 127;
    not executable: 126, as shells and ``env`` say)."""

    def __init__(self, argv: list[str], env: dict[str, str], *, spool: bool = False) -> None:
        self.argv = argv
        self.env = env
        self.spool = spool
        """Keep the command's output in temporary files until ``replay_output`` (a TUI holds the terminal)."""
        self.proc: subprocess.Popen | None = None
        self._out = self._err = None

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
        return None if code is None else (128 - code if code < 0 else code)

    def wait(self, timeout: float | None = None) -> int | None:
        """Wait for the end (``timeout`` seconds at most); the exit status, or None if still running."""
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        return self.returncode

    def stop(self, grace: float = 5.0) -> int:
        """End it if it still runs: SIGTERM, then SIGKILL after ``grace`` seconds. Its exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            if self.wait(grace) is None:
                self.proc.kill()
                self.proc.wait()
        return self.returncode

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


class LaunchError(RuntimeError):
    """The command could not be started; ``code`` is the exit status to report (126, 127)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code
