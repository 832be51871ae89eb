"""Where each request goes: one upstream for every path, or one per path prefix.

``proxy --upstream URL`` forwards every path to ``URL``. ``run`` points several SDKs at one proxy
and gives each its own route: ``/anthropic/...`` to Anthropic's API, ``/openai/...`` to OpenAI's,
and so on, so one agent that talks to several providers is inspected whole. A :class:`Route`
either strips its prefix (``/openai/chat/completions`` -> ``UPSTREAM/chat/completions``) or keeps
the path (Ollama's ``/api/...`` at the proxy's root, for clients that drop a path from
``OLLAMA_HOST``). The longest matching prefix wins; a prefix matches a whole path segment
(``/openai`` matches ``/openai`` and ``/openai/x``, not ``/openaix``).

API versions: clients of one base URL do not agree whether it holds the API version (Anthropic's
SDKs read ``ANTHROPIC_BASE_URL`` as a root and post ``/v1/messages``; the Vercel AI SDK reads
it as ``…/v1`` and posts ``/messages``). A route that knows its API's version segments joins
its upstream and the rest of the path with exactly one of them: a version on both sides is kept
once, and on a ``root`` upstream (one its clients add the version to) a path with none gets the
first. ``--upstream URL`` on a known provider's host does the same; any other path is forwarded as sent.

Imports: the standard library, ``inspector.capture.redact`` and the providers' variable table.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from urllib.parse import urlsplit

from inspector.capture.redact import redact_url
from inspector.providers.variables import api_versions


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
    versions: tuple[str, ...] = ()
    """The API's version segments (``/v1``; Gemini's ``/v1beta``, ``/v1``…): see the module docstring."""
    root: bool = False
    """The upstream is a root its clients add the version to (``https://api.anthropic.com``)."""

    def matches(self, path: str) -> bool:
        return not self.prefix or path == self.prefix or path.startswith(self.prefix + "/")

    def url_for(self, raw_path: str, query: str) -> str:
        """The upstream URL for ``raw_path`` (as sent, percent-encoding kept) and ``query``."""
        rest = raw_path[len(self.prefix):] if self.strip and self.prefix else raw_path
        base = urlsplit(self.upstream)
        rest = self._one_version(base.path.rstrip("/"), rest)
        url = f"{base.scheme}://{base.netloc}{base.path.rstrip('/')}{rest or ('' if base.path else '/')}"
        params = [q for q in (query, base.query) if q]  # the upstream's own query goes last
        if params:
            url += "?" + "&".join(params)
        return url


    def _one_version(self, base_path: str, rest: str) -> str:
        """``rest`` such that ``base_path + rest`` holds the API version once (module docstring)."""
        if not self.versions or not rest.strip("/"):
            return rest
        at_base = next((v for v in self.versions if base_path.endswith(v)), None)
        at_rest = next((v for v in self.versions if rest == v or rest.startswith(v + "/")), None)
        if at_base is not None and at_rest == at_base:
            return rest[len(at_rest):]
        if self.root and at_base is None and at_rest is None:
            return self.versions[0] + rest
        return rest


def single_route(upstream: str, name: str = "") -> Route:
    """The one route of ``--upstream URL``: on a known provider's host (``api.anthropic.com``…) it
    holds that API's version segments and, when ``URL`` has no path, adds the version a path lacks."""
    versions = api_versions(upstream)
    return Route("", upstream, name=name, versions=versions, root=bool(versions) and not urlsplit(upstream).path.strip("/"))


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
            checked.append(replace(r, prefix=r.prefix.rstrip("/"),
                                   upstream=check_upstream(r.upstream, f"upstream of {r.name or r.prefix or '/'}")))
        self.routes = sorted(checked, key=lambda r: -len(r.prefix))

    @classmethod
    def single(cls, upstream: str) -> "Routes":
        """Every path to ``upstream`` (``proxy --upstream URL``). On a known provider's host the route
        knows that API's versions, so ``/messages`` and ``/v1/messages`` reach the same upstream path."""
        return cls([single_route(upstream)])

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
