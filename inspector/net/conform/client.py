"""``conform --client "CMD"``: run a client once per mutation against a mock provider and collect verdicts.

For each mutation a fresh mock provider (``expect.ExpectNextProvider``) starts on 127.0.0.1 with
the provider's reference capture mutated; the client runs with every SDK's base-URL variable
pointed at it (``Endpoint.base_env`` of every provider: ``ANTHROPIC_BASE_URL``, ``OPENAI_BASE_URL``
with ``/v1``…) and placeholder keys (a real key never reaches the mock), sends its request,
assembles the broken stream, and sends its next request, which is graded (``verdict``). A client
that raises or exits non-zero without a next request is ``crashed`` (the reason: the exception line
of its last traceback), one that exits 0 without it ``dropped``, one that runs past ``timeout``
``hung`` (it is stopped: its process group is killed).

The client is a shell command (``conform --client``) or, for tests and embedding, a callable
``client(env)`` run in a thread (an exception it raises is the reason it crashed).
"""
from __future__ import annotations

import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from inspector.capture.bundled import captures_dir
from inspector.capture.load import load_path
from inspector.capture.redact import remember_headers
from inspector.net.conform.expect import ExpectNextProvider
from inspector.net.conform.mutate import MutatedCapture, NotApplicable, Spec, apply
from inspector.net.conform.verdict import Verdict, crashed
from inspector.net.serve import Served, asgi_app, load_served
from inspector.net.servers import BackgroundServer
from inspector.providers import PROVIDERS
from inspector.providers.conformers import CONFORMANCE
from inspector.providers.variables import variables

PLACEHOLDER_KEY = "sk-stream-inspector-mock-0000000000000000"

Client = str | Callable[[dict], None]


class ClientError(Exception):
    """Bad usage found before any client runs (no reference capture for the provider...): one line."""


def reference_capture(provider: str) -> Path:
    """The bundled capture for ``provider`` (its record's ``conform_capture``); raises ``ClientError`` when
    there is none."""
    record = PROVIDERS.get(provider)
    name = record.conform_capture if record is not None else None
    path = captures_dir() / name if name else None
    if path is None or not path.is_file():
        raise ClientError(f"no bundled capture for {provider}: give one with --capture FILE")
    return path


def client_env(url: str, base: dict | None = None) -> dict:
    """``base`` (default ``os.environ``) with every provider's base-URL variable pointed at ``url`` and
    every key variable replaced by a placeholder; proxy variables dropped (the mock is on loopback)."""
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    for v in variables():
        env[v.name] = url + v.var.sdk_path  # plus the version its readers expect in it (OpenAI's /v1)
    for p in PROVIDERS.values():
        if p.endpoint.key_env:
            env[p.endpoint.key_env] = PLACEHOLDER_KEY
    env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
    return env


@dataclass(slots=True)
class _Run:
    """One client run: how it ended."""

    done: bool = False
    code: int | None = None
    error: str | None = None
    """The exception a callable client raised, or what a command's stderr says (``exception_line``)."""

    @property
    def clean(self) -> bool:
        """The client ended by itself without an error: exit 0, or the callable returned."""
        return self.done and (self.code == 0 or (self.code is None and self.error is None))


def run(client: Client, provider: str, specs: list[Spec], *, capture: str | Path | None = None,
        timeout: float = 60.0, next_timeout: float = 10.0, instant: bool = True,
        on_verdict: Callable[[Verdict], None] | None = None,
        on_skip: Callable[[str], None] | None = None) -> list[Verdict]:
    """One verdict per spec, in order (see the module docstring). ``timeout``: seconds a client run
    may take; ``next_timeout``: seconds to wait for the next request once the stream has ended.
    A mutation the capture gives nothing to break (``wrong-tool-choice`` on a one-tool answer) is
    skipped when ``on_skip`` is given (it gets one line saying why), else it is a ``ClientError``.
    Raises ``ClientError`` (no capture, a mutation the provider lacks) and ``CaptureError``."""
    if provider not in CONFORMANCE:
        raise ClientError(f"unknown provider {provider!r}")
    path = Path(capture) if capture is not None else reference_capture(provider)
    cap = load_path(path)
    prepared: list[MutatedCapture] = []
    for spec in specs:
        if CONFORMANCE[provider].mutation(spec.name) is None:
            raise ClientError(f"{provider} has no mutation {spec.name!r} (serve --mutations lists them)")
        try:
            prepared.append(apply(path.stem, str(path), cap, spec))
        except NotApplicable as e:
            line = f"{spec}: does not apply to {path.name} ({e})"
            if on_skip is None:
                raise ClientError(line) from None
            on_skip(line + "; skipped")
    if not prepared:
        raise ClientError(f"no mutation applies to {path.name}")
    verdicts = []
    for mc in prepared:
        verdict = _one(client, mc, timeout=timeout, next_timeout=next_timeout, instant=instant)
        verdicts.append(verdict)
        if on_verdict is not None:
            on_verdict(verdict)
    return verdicts


def _one(client: Client, mc: MutatedCapture, *, timeout: float, next_timeout: float, instant: bool) -> Verdict:
    served = load_served([(mc.name, mc.capture)])[0]
    served = Served(served.name, served.source, served.capture, served.status, served.headers, mc.pauses)
    provider = ExpectNextProvider([(served, mc)], next_timeout=next_timeout, instant=instant)
    with BackgroundServer(asgi_app(provider)) as srv:
        env = client_env(srv.url)
        remember_headers(env)  # its secrets (variables named as such), should it print one, are masked by value
        state = _Run()
        stop = _start(client, env, state)
        deadline = time.monotonic() + timeout
        while not provider.finished:
            if state.done:
                _settle(provider, next_timeout)
                if not provider.finished:
                    _give_up(provider, mc, state)
                break
            if time.monotonic() > deadline:
                stop()
                if not provider.finished:
                    _give_up(provider, mc, state, f"the client did not finish within {timeout:g} s: stopped")
                break
            time.sleep(0.02)
        verdict = provider.verdicts[0] if provider.verdicts else crashed(mc, "no verdict")
        # the verdict is in; let the client read its closing answer and exit, then stop it
        end = time.monotonic() + min(5.0, max(0.0, deadline - time.monotonic()))
        while not state.done and time.monotonic() < end:
            time.sleep(0.02)
        if not state.done:
            stop()
            verdict.client = f"did not exit within {timeout:g} s of starting: stopped"
        elif verdict.client is None:
            verdict.client = _ending(state)
    return verdict


def _settle(provider: ExpectNextProvider, next_timeout: float) -> None:
    """The client has exited: give a request still in flight a moment to be graded."""
    end = time.monotonic() + min(1.0, next_timeout)
    while not provider.finished and time.monotonic() < end:
        time.sleep(0.02)


def _give_up(provider: ExpectNextProvider, mc: MutatedCapture, state: _Run, why: str | None = None) -> None:
    """No next request: ``hung`` when the client was stopped (``why`` given), ``dropped`` when it ended
    cleanly (exit 0, or the callable returned: it got the stream and went no further), else ``crashed``."""
    outcome = "hung" if why is not None else "dropped" if state.clean else "crashed"
    if why is None:
        why = f"no next request (the client {_ending(state)})"
        if outcome == "dropped":
            why += ": the answer was taken and nothing was run"
    if provider.requests == 0:
        detail = ("no request reached the mock provider (does the client read "
                  f"{', '.join(v.name for v in PROVIDERS[mc.provider].endpoint.base_env)}?)")
        provider.verdicts.append(crashed(mc, detail if state.done else why, "crashed" if state.done else outcome))
    else:
        provider.give_up_threadsafe(why, outcome)
        end = time.monotonic() + 2.0
        while not provider.finished and time.monotonic() < end:
            time.sleep(0.01)
        if not provider.finished:
            provider.verdicts.append(crashed(mc, why, outcome))
    v = provider.verdicts[0]
    v.client = _ending(state) if state.done else None


def _ending(state: _Run) -> str:
    """How the client ended, for people: ``raised ValueError: …``, ``exited with 1: <stderr>``."""
    if state.code is None:
        return f"raised {state.error}" if state.error else "returned"
    text = f"exited with {state.code}"
    return f"{text}: {state.error}" if state.error else text


def _start(client: Client, env: dict, state: _Run) -> Callable[[], None]:
    """Start the client; returns ``stop()``."""
    if callable(client):
        def target() -> None:
            try:
                client(env)
            except BaseException as e:  # noqa: BLE001 (the client's failure is the verdict's reason)
                state.error = f"{type(e).__name__}: {_first_line(str(e))}"
            finally:
                state.done = True

        threading.Thread(target=target, name="conform client", daemon=True).start()
        return lambda: None
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    proc = subprocess.Popen(client, shell=True, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                            start_new_session=True)

    def watch() -> None:
        state.code = proc.wait()
        err.seek(0)
        state.error = exception_line(err.read().decode("utf-8", "replace"))
        out.close()
        err.close()
        state.done = True

    threading.Thread(target=watch, name="conform client watch", daemon=True).start()

    def stop() -> None:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # its own session: only the client's process group
            except ProcessLookupError:
                pass

    return stop


def exception_line(stderr: str) -> str | None:
    """Why a process failed, from its stderr: the exception line of the last Python traceback
    (``ValueError: …``, the first unindented line after ``Traceback (most recent call last):``), else
    the message above the last JavaScript stack (``Error: …`` followed by ``    at …`` lines), else
    the last non-blank line; None for an empty stderr. A warning printed after the traceback (an
    SDK's shutdown notice) is not the reason."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    heads = [i for i, ln in enumerate(lines) if ln.startswith("Traceback (most recent call last)")]
    if heads:
        for ln in lines[heads[-1] + 1:]:
            if not ln[0].isspace():
                return _first_line(ln)
    stacks = [i for i in range(1, len(lines)) if lines[i].lstrip().startswith("at ") and lines[i][0].isspace()
              and not (lines[i - 1].lstrip().startswith("at ") and lines[i - 1][0].isspace())]
    if stacks:
        return _first_line(lines[stacks[-1] - 1])
    return _first_line(lines[-1]) if lines else None


def _first_line(text: str) -> str:
    return (text.strip().splitlines() or [""])[0][:300]
