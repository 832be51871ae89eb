"""Where each request goes: one upstream for every path, or one per path prefix.

``proxy --upstream URL`` forwards every path to ``URL``. ``run`` points several SDKs at one proxy
and gives each its own route: ``/anthropic/...`` to Anthropic's API, ``/openai/...`` to OpenAI's,
and so on, so one agent that talks to several providers is inspected whole. A :class:`Route`
either strips its prefix (``/openai/chat/completions`` -> ``UPSTREAM/chat/completions``) or keeps
the path (Ollama's ``/api/...`` at the proxy's root, for clients that drop a path from
``OLLAMA_HOST``). The longest matching prefix wins; a prefix matches a whole path segment
(``/openai`` matches ``/openai`` and ``/openai/x``, not ``/openaix``).

Imports: the standard library and ``inspector.capture.redact``; nothing else of the package.
"""
from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from inspector.capture.redact import redact_url


def check_upstream(url: str, what: str = "--upstream") -> str:
    """``url`` without a trailing slash. Raises ``ValueError`` unless it is http(s) with a host."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{what} must be an http:// or https:// URL with a host, not {url!r}")
    return url.rstrip("/")


@dataclass(frozen=True, slots=True)
class Route:
    """Requests under ``prefix`` go to ``upstream``."""

    prefix: str
    """``""`` (every path), or ``/name`` (one path segment or more, no trailing slash)."""
    upstream: str
    """Base URL the rest of the path is appended to (its own path and query kept)."""
    strip: bool = True
    """Remove ``prefix`` from the path before appending it (False: forward the path whole)."""
    name: str = ""
    """What the banner and reports call the route (``anthropic``, ``openai``…)."""

    def matches(self, path: str) -> bool:
        return not self.prefix or path == self.prefix or path.startswith(self.prefix + "/")

    def url_for(self, raw_path: str, query: str) -> str:
        """The upstream URL for ``raw_path`` (as sent, percent-encoding kept) and ``query``."""
        rest = raw_path[len(self.prefix):] if self.strip and self.prefix else raw_path
        base = urlsplit(self.upstream)
        url = f"{base.scheme}://{base.netloc}{base.path.rstrip('/')}{rest or ('' if base.path else '/')}"
        params = [q for q in (query, base.query) if q]  # the upstream's own query goes last
        if params:
            url += "?" + "&".join(params)
        return url


class Routes:
    """An ordered set of routes; ``match`` picks the longest prefix that matches.

    Raises ``ValueError`` for an upstream that is not an http(s) URL with a host, or two routes
    with the same prefix.
    """

    def __init__(self, routes: list[Route]) -> None:
        seen = set()
        checked = []
        for r in routes:
            if r.prefix in seen:
                raise ValueError(f"two routes for {r.prefix or '/'}")
            seen.add(r.prefix)
            checked.append(Route(r.prefix.rstrip("/"), check_upstream(r.upstream, f"upstream of {r.name or r.prefix or '/'}"),
                                 r.strip, r.name))
        self.routes = sorted(checked, key=lambda r: -len(r.prefix))

    @classmethod
    def single(cls, upstream: str) -> "Routes":
        """Every path to ``upstream`` (``proxy --upstream URL``)."""
        return cls([Route("", upstream)])

    def match(self, path: str) -> Route | None:
        return next((r for r in self.routes if r.matches(path)), None)

    def describe(self) -> str:
        """``https://api.example`` for one route; ``/anthropic → https://…, /openai → …`` for several
        (secrets in URLs redacted)."""
        if len(self.routes) == 1 and not self.routes[0].prefix:
            return redact_url(self.routes[0].upstream)
        shown = sorted(self.routes, key=lambda r: r.prefix)
        return ", ".join(f"{(r.prefix or '/') + ('/*' if not r.strip else '')} → {redact_url(r.upstream)}"
                         for r in shown)
