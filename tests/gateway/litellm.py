"""LiteLLM's proxy as a real translating gateway for the tests, in a virtual environment of its own.

``litellm[proxy]`` cannot be a dependency of this project: every release pins ``rich < 14`` (or
``uvicorn < 0.30``) and Textual needs ``rich >= 14.2``. So it lives in a cached venv that
:func:`ensure_litellm` creates with uv from the hashed lock beside this file
(``litellm-requirements.txt``, from ``litellm-requirements.in`` by ``uv pip compile --generate-hashes``),
and :class:`LiteLLM` runs it as a subprocess on 127.0.0.1 in its own process group.

Start-up facts (measured, see the issue notes): ``LITELLM_LOCAL_MODEL_COST_MAP=True`` keeps it off the
network (else it fetches the cost map first); a master key is required (and not ``sk-1234``);
retries and the model-info refresh are switched off so one client request is one upstream request;
ready when ``GET /health/liveliness`` answers 200 (10–35 s on a busy 2-core machine, the first start
after an install is the slowest).
"""
from __future__ import annotations

import fcntl
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

VERSION = "1.108.7"
"""The newest ``litellm[proxy]`` whose pins all resolve on PyPI today (newer ones need unpublished extras)."""
REQUIREMENTS = Path(__file__).with_name("litellm-requirements.txt")
MASTER_KEY = "sk-local-master-0123456789abcdef"

QUIET_ENV = {
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",  # no fetch of the model cost map
    "LITELLM_DONT_SHOW_FEEDBACK_BOX": "True",
    "LITELLM_LOG": "ERROR",
    "LITELLM_TELEMETRY_DISABLED": "True",
    "DISABLE_ADMIN_UI": "True",
    "NO_DOCS": "True",
    "NO_REDOC": "True",
    "USE_PRISMA_MIGRATE": "False",
    "DISABLE_SCHEMA_UPDATE": "True",
}
DROP_ENV_PREFIXES = ("DATABASE_URL", "REDIS_", "LANGFUSE_", "DATADOG_", "DD_", "SENTRY_", "OTEL_", "HTTP_PROXY",
                     "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "OPENAI_", "ANTHROPIC_", "LITELLM_")
"""Variables that would send LiteLLM elsewhere (proxies, databases, tracing, real keys): dropped."""


class Unavailable(Exception):
    """LiteLLM cannot be installed here (no uv, no registry): the tests that need it skip with this reason."""


def venv_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "stream-inspector" / f"litellm-{VERSION}"


def ensure_litellm() -> Path:
    """The ``litellm`` script of the cached venv, installed on first use (a file lock guards
    concurrent test workers). Raises ``Unavailable`` when the install is impossible."""
    venv = venv_dir()
    exe = venv / "bin" / "litellm"
    marker = venv / ".complete"
    if marker.exists():
        return exe
    uv = shutil.which("uv")
    if uv is None:
        raise Unavailable("uv is not on PATH: it installs litellm[proxy] in a venv of its own")
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(str(venv) + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.exists():
            return exe
        shutil.rmtree(venv, ignore_errors=True)
        # --compile-bytecode: where PYTHONDONTWRITEBYTECODE is set, every LiteLLM process would
        # otherwise recompile its (many) imports (issue 26: the suite's wall time)
        steps = [[uv, "venv", "-q", "-p", sys.executable, str(venv)],
                 [uv, "pip", "install", "-q", "--compile-bytecode", "--require-hashes", "-r", str(REQUIREMENTS)]]
        for cmd in steps:
            p = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, "VIRTUAL_ENV": str(venv)},
                               timeout=600)
            if p.returncode != 0:
                shutil.rmtree(venv, ignore_errors=True)
                raise Unavailable(f"installing litellm[proxy]=={VERSION} failed: {(p.stderr or p.stdout).strip()[-300:]}")
        marker.write_text(VERSION)
    return exe


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def render_config(models: list[tuple[str, str, str]]) -> str:
    """``models``: ``(model name clients use, litellm model "anthropic/…", api_base)``."""
    lines = ["model_list:"]
    for name, model, base in models:
        lines += [f"  - model_name: {name}", "    litellm_params:", f"      model: {model}",
                  f"      api_base: {base}", "      api_key: sk-test"]
    lines += ["litellm_settings:", "  num_retries: 0", "  request_timeout: 60",
              "router_settings:", "  num_retries: 0", "  allowed_fails: 1000", "  cooldown_time: 0",
              "  disable_cooldowns: true",
              "general_settings:", "  disable_spend_logs: true", "  disable_reset_budget: true",
              "  disable_model_info_refresh: true"]
    return "\n".join(lines) + "\n"


class LiteLLM:
    """A running LiteLLM proxy on 127.0.0.1 (``with LiteLLM(exe, models) as gw: gw.url, gw.key``)."""

    def __init__(self, exe: Path, models: list[tuple[str, str, str]], timeout: float = 180.0) -> None:
        self.exe, self.models, self.timeout = str(exe), models, timeout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.key = MASTER_KEY
        self.dir = tempfile.mkdtemp(prefix="litellm-")
        self.log_path = os.path.join(self.dir, "litellm.log")
        self.proc: subprocess.Popen | None = None
        self.startup_s: float | None = None

    def start(self) -> "LiteLLM":
        cfg = os.path.join(self.dir, "config.yaml")
        Path(cfg).write_text(render_config(self.models))
        env = {k: v for k, v in os.environ.items() if not k.startswith(DROP_ENV_PREFIXES)}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.update(QUIET_ENV)
        env.update({"LITELLM_MASTER_KEY": self.key, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"})
        t0 = time.monotonic()
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop())
        self.proc = subprocess.Popen([self.exe, "--config", cfg, "--host", "127.0.0.1", "--port", str(self.port),
                                      "--num_workers", "1"], stdout=self._log, stderr=subprocess.STDOUT, env=env,
                                     cwd=self.dir, start_new_session=True)
        while time.monotonic() < t0 + self.timeout:
            if self.proc.poll() is not None:
                raise RuntimeError(f"litellm exited with {self.proc.returncode}: {self.tail()}")
            if self._alive():
                self.startup_s = time.monotonic() - t0
                return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"litellm not ready after {self.timeout:g} s: {self.tail()}")

    def _alive(self) -> bool:
        try:
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            c.request("GET", "/health/liveliness")
            ok = c.getresponse().status == 200
            c.close()
            return ok
        except OSError:
            return False

    def tail(self, n: int = 2000) -> str:
        try:
            return Path(self.log_path).read_bytes()[-n:].decode("utf-8", "replace")
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)  # its own session: only LiteLLM's process group
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if getattr(self, "_log", None):
            self._log.close()

    def __enter__(self) -> "LiteLLM":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
