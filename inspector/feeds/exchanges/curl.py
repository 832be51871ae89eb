"""A proxied request as a ``curl`` command (the proxy list's ``c``), to run it again by hand.

Why this module exists: to ask whether a fault reproduces without the agent, or to attach a
reproduction to an issue, people copy the request as curl (mitmproxy's ``export.clip curl``,
the browsers' "Copy as cURL"). The command must never carry a key: the credential header
(``authorization``, ``x-api-key``, ``x-goog-api-key``, ``api-key``...) is written as a reference
to the provider's key variable (``"x-api-key: $ANTHROPIC_API_KEY"``), which the shell fills in when
it runs; the recorded headers are already redacted (``inspector.capture.redact``), and the body's
secrets are masked again here. Every other value is quoted for a POSIX shell (``shlex.quote``).
"""
from __future__ import annotations

import json
import shlex

from inspector.capture.redact import is_secret_name, scrub_secrets
from inspector.providers import PROVIDERS, provider_for_dialect

SKIPPED = frozenset({"host", "content-length", "connection", "keep-alive", "transfer-encoding", "accept-encoding",
                     "te", "upgrade", "proxy-connection", "cookie"})
"""Headers curl sets itself, hop-by-hop headers, and cookies (a session, never worth sharing)."""
FALLBACK_KEY = "API_KEY"


def key_variable(ex) -> str:
    """The environment variable that holds this exchange's key: its dialect's provider's
    (``Endpoint.key_env``), else the provider whose endpoint path the request path ends with."""
    dialect = ex.summary.get("dialect") if ex.summary else getattr(ex.session, "dialect_name", None)
    provider = provider_for_dialect(dialect)
    if provider is None:
        provider = next((p for p in PROVIDERS.values() if "{" not in p.endpoint.path
                         and ex.path.endswith(p.endpoint.path)), None)
    env = provider.endpoint.key_env if provider is not None else None
    return env or FALLBACK_KEY


def _headers(headers: dict) -> list[tuple[str, str]]:
    out = []
    for name, value in headers.items():
        for one in value if isinstance(value, list) else [value]:
            out.append((str(name), str(one)))
    return out


def curl_command(ex) -> str:
    """``ex`` (an ``Exchange``) as a multi-line curl command for a POSIX shell: ``-N`` (print the
    stream as it arrives), the method, the upstream URL, the headers (the credential as
    ``$VARIABLE``), and the body (``--data-raw``; a body released from memory is named, not sent)."""
    req = ex.request or {}
    variable = key_variable(ex)
    lines = [f"curl -N -X {shlex.quote(ex.method)} {shlex.quote(ex.url)}"]
    for name, value in _headers(req.get("headers") or {}):
        low = name.lower()
        if low in SKIPPED:
            continue
        if is_secret_name(low):
            shown = f"Bearer ${variable}" if value.lower().startswith("bearer") or low == "authorization" else \
                f"${variable}"
            lines.append(f'-H "{name}: {shown}"')
        else:
            lines.append(f"-H {shlex.quote(f'{name}: {scrub_secrets(value)}')}")
    body = req.get("body")
    if isinstance(body, str) and not ex.request_body_held:
        lines.append(f"# {scrub_secrets(body)}")
    elif body is not None:
        text = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False, separators=(",", ":"))
        lines.append(f"--data-raw {shlex.quote(scrub_secrets(text))}")
    return " \\\n  ".join(lines)
