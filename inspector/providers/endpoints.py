"""Which API a request path asks for, by each dialect's URL hints (``Dialect.url_hints``).

Pure: no I/O.
"""
from __future__ import annotations

from inspector.providers import DIALECTS


def api_of(path: str) -> str | None:
    """The dialect name whose endpoint ``path`` is (``/v1/chat/completions`` -> ``openai-chat``), or None."""
    return next((name for name, d in DIALECTS.items() if name != "unknown" and d.sniff_url(path)), None)
