"""``diff --format json|text``.

JSON (one object)::

    {"equivalent": bool, "a": ANSWER, "b": ANSWER,
     "pairs": [{"kind", "a": int|null, "b": int|null, "matched_by": str|null, "label", "differences": [int]}],
     "differences": [{"kind", "what", "message", "a", "b", "path": str|null, "side": "a"|"b"|null,
                      "pair": int|null}],
     "normalisations": [str], "notes": [str],
     "b_offset_s": float|null,           # B's clock → A's (gateway pairs); null: times from each first byte
     "late_s": float}
    ANSWER = {"label", "dialect", "streamed", "http_status", "stop_reason", "stop_class", "ended", "end",
              "text", "text_blocks", "reasoning", "reasoning_blocks", "calls": [CALL], "other_blocks",
              "findings": [{"code", "name", "severity", "message", "index"}], "responses",
              "first_byte_s", "notes"}
    CALL = {"position", "name", "id", "kind", "block_index", "arguments", "parsed", "status",
            "first_arg_byte_s", "last_arg_byte_s"}

Secrets are scrubbed from every string, member names too (``scrub_value``), control characters escaped in text.
"""
from __future__ import annotations

import orjson

from inspector.capture.redact import mask_in_place, scrub_secrets, scrub_value
from inspector.compare.diff.compare import Diff
from inspector.model.display import display_text, json_safe


def to_json(d: Diff) -> dict:
    return scrub_value({"equivalent": d.equivalent, "a": d.a.to_json(), "b": d.b.to_json(),
                   "pairs": [p.to_json() for p in d.pairs], "differences": [x.to_json() for x in d.differences],
                   "normalisations": d.normalisations, "notes": d.notes,
                   "b_offset_s": None if d.b_offset is None else round(d.b_offset, 6),
                   "late_s": d.late_s})


def render_json(d: Diff) -> str:
    return json_safe(orjson.dumps(to_json(d), default=str).decode())


def _safe(s: str) -> str:
    return display_text(scrub_secrets(s), one_line=True)


def _quoted(v: object) -> str:
    """A value as JSON spells it (``"end_turn"``, ``null``): what the wire says, not a Python repr."""
    return orjson.dumps(v, default=str).decode()


def _side(d: Diff, which: str) -> str:
    a = d.a if which == "a" else d.b
    stop = f"stop {_safe(_quoted(a.stop_reason))} ({a.stop_class or 'none'})"
    kind = "streamed" if a.streamed else "not streamed"
    return (f"{which.upper()}: {_safe(a.label)}: {a.dialect or 'unknown'}, {kind}, {stop}, "
            f"{len(a.calls)} tool call{'s' * (len(a.calls) != 1)}, {len(a.text)} characters of text")


def _cell(d: Diff, kind: str, which: str, i: int | None) -> str:
    if i is None:
        return "—"
    a = d.a if which == "a" else d.b
    if kind == "tool":
        c = a.calls[i]
        args = mask_in_place(c.arguments)  # masked before the cut: a key cut short no longer looks like one
        args = args if len(args) <= 60 else args[:57] + "…"
        return f"{c.name} {c.id or '(no id)'} {args}"
    if kind == "text":
        return _quoted(mask_in_place(a.text)[:60])
    if kind == "reasoning":
        return _quoted(a.reasoning[:60])
    return kind


def render_text(d: Diff) -> str:
    """A verdict line, both sides, the matched blocks side by side, then differences, normalisations, notes."""
    lines = [("EQUIVALENT" if d.equivalent else f"DIFFERENT: {len(d.differences)} difference"
              + ("s" * (len(d.differences) != 1))), _side(d, "a"), _side(d, "b"), "", "blocks (A | B):"]
    for p in d.pairs:
        mark = "!" if p.differences else " "
        how = f" [{p.matched_by}]" if p.matched_by else " [one side only]"
        lines.append(f" {mark} {_safe(p.label)}{how}: {_safe(_cell(d, p.kind, 'a', p.a))} | "
                     f"{_safe(_cell(d, p.kind, 'b', p.b))}")
    if not d.pairs:
        lines.append("   (no blocks on either side)")
    if d.differences:
        lines += ["", "differences:"] + [f"  {x.kind}: {_safe(x.message)}" for x in d.differences]
    if d.normalisations:
        lines += ["", "normalisations applied:"] + [f"  {_safe(n)}" for n in d.normalisations]
    if d.notes:
        lines += ["", "notes:"] + [f"  {_safe(n)}" for n in d.notes]
    return "\n".join(lines)
