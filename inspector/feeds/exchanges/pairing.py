"""Q-history pairing: which earlier exchange's answer a new request's history continues.

An agent sends the whole conversation back with each request; the Q rules (RULES.md section Q)
judge that history against the streamed answer it repeats. The proxy sees many exchanges, so it
first has to pick that answer. The rule, in :func:`continued_exchange`: among the earlier
finished exchanges on the same path that streamed content blocks, the most recent one whose tool
ids (else the start of its assistant text) appear in the request's history; when none matches,
the most recent of them.

Pure: no I/O, no event loop, no session code. Imports: ``exchange`` only (for its type).
"""
from __future__ import annotations

from typing import Sequence

from inspector.feeds.exchanges.record import Exchange
from inspector.providers import HISTORY_SHAPES

HISTORY_KEYS = tuple(dict.fromkeys(shape.key for shape in HISTORY_SHAPES))
"""Where a request carries its history: Anthropic/Chat/Ollama ``messages``, Gemini ``contents``, Responses ``input``."""

_SCAN_BUDGET = 200_000
"""At most this many history values are visited (an enormous history is searched in part, not hung on)."""

_MIN_ID = 4
"""Shorter tool ids are ignored: too likely to occur in any history by chance."""

_MIN_TEXT, _TEXT_PREFIX = 8, 200
"""Assistant text counts when at least 8 non-blank characters; its first 200 are looked for."""


def continued_exchange(ex: Exchange, earlier: Sequence[Exchange]) -> tuple[Exchange | None, str]:
    """The exchange in ``earlier`` whose answer ``ex``'s request history continues, and how it was matched.

    ``earlier``: exchanges in arrival order (``ex`` itself may be among them; it is skipped).
    A candidate has a lower number than ``ex``, the same ``path``, has ended, was linted and its
    session holds at least one block. Candidates are tried most recent first:

    - ``"matched by tool call id"``: one of its tool blocks' ``id`` (or Responses ``call_id``),
      at least 4 characters, occurs in a string of the history;
    - ``"matched by assistant text"``: it has no such ids and the first 200 characters of one of
      its text blocks (at least 8 non-blank characters) occur in a string of the history;
    - else ``"most recent on this path"``: the most recent candidate.

    Returns ``(None, "")`` when ``ex.body`` is not a JSON object or there is no candidate.
    Never raises on odd bodies or blocks; reads only ``n``, ``path``, ``end``, ``linted``,
    ``body`` and ``session.blocks``.
    """
    cands = [e for e in reversed(earlier) if e is not ex and e.n < ex.n and e.path == ex.path
             and e.done and e.linted and e.session is not None and e.session.blocks]
    if not cands or not isinstance(ex.body, dict):
        return None, ""
    hay = history_strings(ex.body)
    for e in cands:
        ids = [k for b in e.session.blocks if b.tool for k in (b.id, b.call_id)
               if isinstance(k, str) and len(k) >= _MIN_ID]
        if any(k in hay for k in ids):
            return e, "matched by tool call id"
        texts = [b.content[:_TEXT_PREFIX] for b in e.session.blocks
                 if not b.tool and b.kind in ("text", "message") and len(b.content.strip()) >= _MIN_TEXT]
        if not ids and any(t in hay for t in texts):
            return e, "matched by assistant text"
    return cands[0], "most recent on this path"


def history_strings(body: dict) -> str:
    """Every string under the request's ``HISTORY_KEYS``, joined by NUL so that a match never spans two values."""
    out: list[str] = []
    stack = [body.get(k) for k in HISTORY_KEYS]
    budget = _SCAN_BUDGET
    while stack and budget > 0:
        v = stack.pop()
        budget -= 1
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return "\x00".join(out)
