"""Ollama native: the request side (github.com/ollama/ollama docs/api.md "Generate a chat completion").

``POST /api/chat`` streams NDJSON by default (``"stream": true`` said explicitly); a local server
needs no key.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from inspector.providers.endpoint import BaseVar, Endpoint

DEFAULT_BASE = "http://localhost:11434"
PORT = 11434


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
    port = parts.port or (PORT if not sep else (443 if scheme == "https" else 80))
    host = f"[{host}]" if ":" in host else host
    return f"{scheme}://{host}:{port}{parts.path.rstrip('/')}"


BASE_ENV = (
    # ollama-python ``_client.py`` ``_parse_host`` (older clients keep scheme, host and port only).
    BaseVar("OLLAMA_HOST", "`ollama` clients (Python, JavaScript, the CLI)", DEFAULT_BASE,
            keeps_path=False, parse=ollama_host_url, parse_text="`host:port` forms as Ollama reads them"),
    # litellm ``ollama/common_utils.py``: ``api_base or get_secret_str("OLLAMA_API_BASE")``, then
    # ``{api_base}/api/chat`` (the path kept).
    BaseVar("OLLAMA_API_BASE", "LiteLLM", DEFAULT_BASE),
    # pydantic-ai ``providers/ollama.py``: Ollama's OpenAI-compatible API (``…/v1``) through the
    # openai client; without it (or ``base_url=``) the provider refuses to start.
    BaseVar("OLLAMA_BASE_URL", "pydantic-ai's Ollama provider (Ollama's OpenAI-compatible `/v1`)",
            DEFAULT_BASE + "/v1", route="ollama-openai", versioned=True, versions=("/v1",)),
)
ENDPOINT = Endpoint(DEFAULT_BASE, "/api/chat", None, accept="application/x-ndjson", base_env=BASE_ENV)


def prepare(body: dict, key: str | None) -> tuple[dict, str, dict]:
    """Streaming on; ``(body, path, headers)``."""
    return {**body, "stream": True}, ENDPOINT.path, ({"authorization": f"Bearer {key}"} if key else {})
