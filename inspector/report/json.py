"""The ``check --format json`` object (SPEC.md), one per input file."""
from __future__ import annotations

from operator import attrgetter

import orjson

from inspector.capture.redact import scrub_secrets, scrub_value
from inspector.model.display import json_safe
from inspector.report.jsonblocks import blocks_json
from inspector.report.unmasked import clean_throughout, joined
from inspector.session.session import Session


def _r(t: float | None) -> float | None:
    return None if t is None else round(t, 6)


_TIMES = ("first_delta_s", "last_delta_s", "max_gap_s")
"""A block's times, rounded like every time in the report (``_r``)."""


_REPEATED = ("kind", "name")
"""Block fields whose few values repeat over many blocks: scrubbed once per value in a report."""
_UNIQUE = ("id", "text", "arguments")
"""Block fields from the wire that differ from block to block (``status`` is ours: never a key)."""


def scrubbed_block(b, seen: dict[str, str] | None = None, clean: bool = False, d: dict | None = None) -> dict:
    """``b.to_dict()`` with every string from the wire scrubbed (what a stream echoes, a key in a
    tool result, stays masked): what ``scrub_value`` would make of it, walking the parsed ``input``
    only when it may hold what its text does not show. Each of its strings is the text of the block
    verbatim when the text has no backslash (no JSON escape), and a key shape or a remembered
    credential matches inside such a string exactly where it matches inside the text (the quotes
    around it are not key characters): a text that scrubbing leaves as it is leaves its input too.
    ``seen``: ``kind``/``name`` values already scrubbed in this report, and what they became.
    ``clean``: the report's wire strings, this block's among them, passed ``unmasked.clean_throughout``
    (scrubbing would leave each as it is: not called). ``d``: ``b.to_dict()`` when made already
    (changed in place and returned)."""
    if d is None:
        d = b.to_dict()
    if clean:  # input only for a complete call (its content is ``arguments``), scrubbed only for an escape
        if d["input"] is not None and "\\" in d["arguments"]:
            d["input"] = scrub_value(d["input"])
        return d
    content = d["arguments"] if b.tool else d["text"]
    if seen is None:
        seen = {}
    for k in _REPEATED:
        v = d[k]
        if v.__class__ is str:
            done = seen.get(v)
            if done is None:
                done = seen[v] = scrub_secrets(v)
            d[k] = done
    for k in _UNIQUE:
        v = d[k]
        if v.__class__ is str:
            d[k] = scrub_secrets(v)
    if d["input"] is not None and not (content is not None and "\\" not in content
                                       and d["arguments" if b.tool else "text"] == content):
        d["input"] = scrub_value(d["input"])
    return d


_KIND, _NAME, _ID = (attrgetter(k) for k in ("kind", "name", "id"))


def _wire_strings(blocks, dicts: list[dict]) -> list[str | None]:
    """Every block's strings from the wire (``_REPEATED`` and ``_UNIQUE``: the text or arguments,
    read from the blocks' ``dicts``)."""
    return [*map(_KIND, blocks), *map(_NAME, blocks), *map(_ID, blocks),
            *[d["text"] if d["arguments"] is None else d["arguments"] for d in dicts]]


def report_dict(path: str, s: Session) -> dict:
    """SPEC.md ``check --format json``. With several responses in the body, blocks and findings
    carry ``response`` (0-based) and the top-level fields describe the first response."""
    several = len(s.responses) > 1
    dicts = [b.to_dict() for b in s.blocks]
    seen: dict[str, str] = {}
    clean = clean_throughout(joined(_wire_strings(s.blocks, dicts)))
    for b, d in zip(s.blocks, dicts):
        scrubbed_block(b, seen, clean, d)
        if b.first_delta_s is not None or b.max_gap_s is not None or b.last_delta_s is not None:
            for k in _TIMES:
                d[k] = _r(d[k])
        if several:
            d["response"] = b.response
    return _report(path, s, dicts, several)


def _report(path: str, s: Session, blocks: object, several: bool) -> dict:
    """The report object around ``blocks`` (their dicts, or their JSON as an ``orjson.Fragment``)."""
    findings = []
    for f in s.findings:
        d = f.to_dict()
        d["t"] = _r(d["t"])
        if several:
            d["response"] = f.response
        findings.append(d)
    return {"path": path, "dialect": s.dialect_name or "unknown", "events": len(s.events),
            "duration_s": _r(s.duration_s), "ttfb_s": _r(s.ttfb_s), "ttfc_s": _r(s.ttfc_s),
            "stop_reason": s.stop_reason and scrub_secrets(s.stop_reason), "blocks": blocks, "findings": findings}


def render(path: str, s: Session) -> str:
    """One JSON line (C1 and bidi controls escaped as ``\\u…``: ``json_safe``): the JSON of
    ``report_dict``, with the blocks written by ``blocks_json`` when it can."""
    several = len(s.responses) > 1
    blocks = blocks_json(s.blocks, several)
    report = report_dict(path, s) if blocks is None else _report(path, s, orjson.Fragment(blocks), several)
    return json_safe(orjson.dumps(report).decode())
