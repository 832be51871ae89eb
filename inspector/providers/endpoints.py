"""Which API a request path asks for, by each dialect's URL hints (``Provider.sniff_url``).

Pure: no I/O.
"""
from __future__ import annotations

from inspector.providers import DETECTORS


def api_of(path: str) -> str | None:
    """The dialect name whose endpoint ``path`` is (``/v1/chat/completions`` -> ``openai-chat``), or None."""
    return next((p.dialect_name for p in DETECTORS if p.sniff_url is not None and p.sniff_url(path)), None)
