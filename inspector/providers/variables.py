"""The base-URL variables of every provider, once: the one table ``run`` works from.

Each provider folder lists the variables its SDKs read (``Endpoint.base_env``, :class:`BaseVar`
records with who reads them and how); this module walks the registry and gives the table that
``run`` points at its proxy (``inspector.net.launch``), that ``run --help`` prints, and that
``run``'s banner and the README's ``run`` table are made from (``launch.readme_table``; a test
checks the README holds it). A variable
two providers list (OpenAI Chat and Responses share theirs) appears once, with the first.

Imports: ``inspector.providers`` (the registry) only.
"""
from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from inspector.providers import PROVIDERS
from inspector.providers.endpoint import BaseVar

@dataclass(frozen=True, slots=True)
class Variable:
    """One variable with its provider resolved."""

    var: BaseVar
    provider: str
    """The provider (registry name) whose folder lists it first."""
    own_prefix: str
    """The first segment of that provider's endpoint path (``/api`` for Ollama): the route of a
    variable that does not keep its path."""

    @property
    def name(self) -> str:
        return self.var.name

    @property
    def route(self) -> str:
        """The route's name, also the ``run --upstream NAME=`` name."""
        return self.var.route or self.provider

    def forwards_to(self) -> str:
        """Where its route forwards when ``--upstream`` does not say, for people (Markdown)."""
        own = "its value before `run`" + (f" ({self.var.parse_text})" if self.var.parse_text else "")
        steps = [own] + [f"else `{v}`'s" for v in self.var.fallback]
        default = self.var.default if self.var.default_from is not None else f"`{self.var.default}`"
        return ", ".join(steps) + f", else {default}"


def variables() -> list[Variable]:
    """Every provider's variables, in registry order, each once."""
    out: dict[str, Variable] = {}
    for p in PROVIDERS.values():
        segment = "/" + p.endpoint.path.lstrip("/").split("/", 1)[0]
        for var in p.endpoint.base_env:
            out.setdefault(var.name, Variable(var, p.name, segment))
    return list(out.values())


def api_versions(upstream: str) -> tuple[str, ...]:
    """The API version segments of the known provider whose default host ``upstream`` names
    (``https://api.anthropic.com`` → ``("/v1",)``); ``()`` for a host no provider lists (a vLLM,
    a gateway: their paths are forwarded as sent). Lets ``proxy --upstream URL`` join both spellings
    of a base URL (with and without the version) to the right upstream path."""
    host = urlsplit(upstream).netloc.lower()
    for v in variables():
        if v.var.versions and v.var.default_from is None and urlsplit(v.var.default).netloc.lower() == host:
            return v.var.versions
    return ()


def route_names() -> list[str]:
    """The ``--upstream NAME=`` names, in table order."""
    return list(dict.fromkeys(v.route for v in variables()))


def unredirected(environ: Mapping[str, str]) -> list[str]:
    """What known traffic no variable moves, under ``environ`` (one sentence each)."""
    seen: dict[str, None] = {}
    for p in PROVIDERS.values():
        for u in p.endpoint.unredirected:
            if u.applies(environ):
                seen.setdefault(u.text)
    return list(seen)


def plain(text: str) -> str:
    """``read_by`` and ``forwards_to`` text without its Markdown backticks (help, banner)."""
    return text.replace("`", "")


def help_text(width: int = 100) -> str:
    """The variables for ``run --help``: each with its route (the ``--upstream`` name) and, below,
    its readers, wrapped to ``width`` columns."""
    lines = ["variables run points at the proxy (route: the --upstream NAME), and who reads them:"]
    for v in variables():
        lines.append(f"  {v.name} (route {v.route})")
        lines.append(textwrap.fill(plain(v.var.read_by), width, initial_indent=" " * 6, subsequent_indent=" " * 6,
                                   break_on_hyphens=False))
    return "\n".join(lines)
