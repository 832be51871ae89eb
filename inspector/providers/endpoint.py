"""How to reach one provider's streaming endpoint, and the base-URL variables its SDKs read.

Each folder's ``request`` module declares its :class:`Endpoint` (``live``, the proxy's routes) with its
:class:`BaseVar` records (``run``'s table, ``inspector.providers.variables``). Apart from ``base`` so that
``check`` never builds these classes (start-up: only ``live``, ``proxy``, ``run`` and ``serve`` read them).
Imports: nothing of the project.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass(frozen=True, slots=True)
class BaseVar:
    """One environment variable that SDKs or agent frameworks read a provider's base URL from.

    ``run`` points each at a route of its proxy and forwards that route where the variable would
    have led; ``run --help``, its banner and the README's table are made from these records.
    Every fact here is read from the readers' own source (named in ``read_by``), not their docs.
    """

    name: str
    """``ANTHROPIC_BASE_URL``, ``OPENAI_BASE_URL``…"""
    read_by: str
    """Who reads it, for people (Markdown backticks allowed): ``"`anthropic` SDKs (Python, TypeScript)"``."""
    default: str
    """The URL its readers use when it is unset (``https://api.openai.com/v1``); with ``default_from``,
    how that URL is chosen, for people."""
    route: str = ""
    """The proxy route it gets and the ``run --upstream NAME=`` name (``""``: the provider's name)."""
    versioned: bool = False
    """Its value holds the API version (OpenAI's ``…/v1``: readers append ``/chat/completions``);
    False: the value is a root and readers add the version themselves (``/v1/messages``)."""
    versions: tuple[str, ...] = ()
    """The API's version path segments (``/v1``; Gemini's ``/v1beta``, ``/v1``…). Readers of one
    variable may disagree on whether the value holds the version (the Vercel AI SDK's Anthropic
    provider expects ``/v1`` on ``ANTHROPIC_BASE_URL``, Anthropic's SDKs do not): the route joins
    the two with exactly one version (``inspector.net.proxy.routes.Route``); the first is added
    to a root value's path that has none."""
    keeps_path: bool = True
    """False when some readers drop a path from the value (older ``ollama`` clients keep scheme,
    host and port of ``OLLAMA_HOST``): it then points at the proxy's root, routed by the
    provider's own path prefix."""
    fallback: tuple[str, ...] = ()
    """Variables its readers fall back to when it is unset (langchain-anthropic reads
    ``ANTHROPIC_API_URL``, then ``ANTHROPIC_BASE_URL``): the first one set says where it leads."""
    parse: "Callable[[str], str] | None" = None
    """How its readers read a value that is not a plain URL (``OLLAMA_HOST``'s ``host:port``)."""
    parse_text: str = ""
    """``parse`` for people (the README's table): ``"`host:port` forms as Ollama reads them"``."""
    default_from: "Callable[[Mapping[str, str]], str] | None" = None
    """The default URL when it depends on other variables (a region, a location)."""
    websocket: bool = False
    """Its value is a WebSocket base URL: ``run`` gives it as ``ws://`` (its readers may not turn
    ``http`` into ``ws`` themselves), and reads a ``ws(s)://`` value before ``run`` as ``http(s)://``."""

    @property
    def sdk_path(self) -> str:
        """The version path its value ends in (``/v1`` for a versioned variable, else ``""``)."""
        if not self.versioned:
            return ""
        path = urlsplit(self.default).path.rstrip("/")
        return next((v for v in self.versions if path.endswith(v)), "")

    def default_url(self, environ: "Mapping[str, str]") -> str:
        """Where its readers go when it (and every fallback) is unset."""
        return self.default_from(environ) if self.default_from is not None else self.default


@dataclass(frozen=True, slots=True)
class Unredirected:
    """Traffic a base-URL variable cannot move (``run``'s banner says so)."""

    text: str
    """What goes where regardless, and why: ``openai-agents' trace exporter posts to …``."""
    when_set: tuple[str, ...] = ()
    """Only when one of these variables is set (``AWS_IGNORE_CONFIGURED_ENDPOINT_URLS``); ``()``: always."""

    def applies(self, environ: "Mapping[str, str]") -> bool:
        """Whether it applies under ``environ`` (a variable set to ``false`` or ``0`` is not set)."""
        return not self.when_set or any(environ.get(v, "").strip().lower() not in ("", "false", "0")
                                        for v in self.when_set)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """How to reach one provider's streaming endpoint (``live``; the proxy's routes)."""

    default_base: str
    """Public base URL, e.g. ``https://api.anthropic.com``."""
    path: str
    """Appended to the base URL; ``{model}`` is filled from the body (Gemini)."""
    key_env: str | None
    """Environment variable holding the API key (None: no key, e.g. a local Ollama)."""
    accept: str = "text/event-stream"
    base_env: tuple[BaseVar, ...] = ()
    """The variables SDKs and agent tools read this provider's base URL from (``run`` points each
    at the proxy; the README's ``run`` table lists them, made from these records)."""
    aws_service: str | None = None
    """AWS providers (Bedrock): the SigV4 service name. Requests are signed with the AWS credentials
    when ``key_env`` holds no key (the key is then optional); ``default_base`` has a ``{region}``."""
    unredirected: tuple[Unredirected, ...] = ()
    """This provider's traffic that no variable redirects (``run``'s banner lists it)."""
