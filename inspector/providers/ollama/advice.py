"""This provider's findings explained to users (the TUI's explain screen): each N rule in their
terms (``EXPLAIN``) and what to do about the family (``ADVICE``)."""
from __future__ import annotations

from inspector.providers.ruletext import RuleText as T

ADVICE: dict[str, str] = {
    'N': (
        "Ollama's native API sends arguments as an object; a string here usually means a template "
        'or proxy serialised it. Parse it once (and only once) or fix the template.'),
}

EXPLAIN: dict[str, T] = {
    'N001': T(
        "`function.arguments` is a string; Ollama's native API sends an object.",
        'Clients of the native API use the object as it is: a string breaks them, or is encoded twice '
        'when it is sent back.',
        'Parse it once if you must; report it to whatever serves the stream (a proxy imitating '
        'Ollama, a custom template).'),
}
