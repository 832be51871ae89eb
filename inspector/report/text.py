"""Linter-style text: a header line, ``path:line: CODE name message`` per finding, the assembled
blocks, then the counts (``2 errors, 1 warning``).

Everything quoted from a stream (names, ids, stop reasons, text, messages) goes through
``safe``: secrets masked, control characters escaped, so a crafted capture cannot drive the
terminal the report is read in."""
from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter

from inspector.capture.redact import scrub_secrets
from inspector.model.display import display_lines, display_text
from inspector.report.unmasked import clean_throughout, joined
from inspector.session.session import Session
from inspector.model.severity import WORST_FIRST


_KIND, _NAME, _ID = (attrgetter(k) for k in ("kind", "name", "id"))


def _place(path: str, f, several: bool) -> str:
    where = f"{path}:{f.line}" if f.line is not None else path
    extra = []
    if several:
        extra.append(f"response {f.response}")
    if f.event is not None:
        extra.append(f"event {f.event}")
        if f.count > 1:
            extra.append(f"×{f.count}, last at event {f.last_event}")
    elif f.count > 1:
        extra.append(f"×{f.count}")
    if f.t is not None:
        extra.append(f"t={f.t:.3f}s")
    if f.index is not None:
        extra.append(f"index {f.index}")
    return where + ":" + (f" [{', '.join(extra)}]" if extra else "")


def safe(text: object) -> str:
    """One line of ``text`` fit for a terminal: secrets masked, control characters escaped."""
    return display_text(scrub_secrets(text if isinstance(text, str) else str(text)), one_line=True)


def safe_lines(text: object) -> str:
    """``safe`` line by line, the line breaks kept: a message made of lines on purpose."""
    return display_lines(scrub_secrets(text if isinstance(text, str) else str(text)))


def _short(text: str, n: int = 100, as_is: bool = False) -> str:
    """``safe(text)`` cut to ``n`` characters (``as_is``: ``text`` is known to be safe already)."""
    if not as_is:
        text = safe(text)
    return text if len(text) <= n else text[: n - 1] + "…"


def plural(n: int, word: str) -> str:
    """``1 error``, ``2 errors``; the severity ``info`` counts as ``1 info finding``/``2 info findings``."""
    if word == "info":
        word = "info finding"
    return f"{n} {word}{'' if n == 1 else 's'}"


def counts_text(counts: Mapping[str, int]) -> str:
    """``{"error": 2, "info": 1}`` -> ``2 errors, 1 info finding`` (``no findings`` when empty)."""
    return ", ".join(plural(counts[k], k) for k in WORST_FIRST if counts.get(k)) or "no findings"


def finding_sentence(f) -> str:
    """A finding in the stream's terms, one line, safe to show: ``J002 args-incomplete-at-close
    (error) at event 4, index 0: closed while the arguments are an incomplete JSON prefix (…): do not
    execute`` (no place for stream-level facts)."""
    where = []
    if f.event is not None:
        where.append(f"event {f.event}" + (f" (×{f.count}, last at event {f.last_event})" if f.count > 1 else ""))
    if f.index is not None:
        where.append(f"index {f.index}")
    at = f" at {', '.join(where)}" if where else ""
    return f"{f.code} {f.name} ({f.severity}){at}: {safe(f.message)}"


def render(path: str, s: Session) -> str:
    several = len(s.responses) > 1
    n = len(s.events)
    head = f"{safe(path)}: {s.dialect_name or 'unknown'}, {plural(n, 'event')}"
    if s.duration_s is not None:
        head += f", {s.duration_s:.3f} s"
    elif n:  # no arrival times in the input (a pasted or saved body): say so, T rules need them
        head += ", times unknown (T rules not judged)"
    if s.stop_reason:
        head += f", stop_reason {safe(s.stop_reason)}"
    if several:
        head += f", {len(s.responses)} responses"
    # The header first, so each file's findings read under its name when several files are checked.
    out = [head]
    out += [f"{_place(safe(path), f, several)} {f.code} {f.name} ({f.severity}) {safe(f.message)}" for f in s.findings]
    # Every string shown as it came when none of them needs masking or escaping (one test over
    # all, ``inspector.report.unmasked``); else each through ``safe``, kinds and names once each.
    blocks = s.blocks
    shown_content = [b.content or b.empty_shown for b in blocks]
    wire = joined([*map(_KIND, blocks), *map(_NAME, blocks), *map(_ID, blocks), *shown_content])
    as_is = clean_throughout(wire) and display_text(wire, one_line=True) is wire  # (None: not all strings)
    shown: dict[str, str] = {}
    for b, content in zip(blocks, shown_content):
        kind, name, id_ = b.kind, b.name, b.id
        if not as_is:
            kind = shown.get(kind) or shown.setdefault(kind, safe(kind))
            name = name and (shown.get(name) or shown.setdefault(name, safe(name)))
            id_ = id_ and safe(id_)
        index = b.index
        choice = b.choice
        out.append(f"  {f'r{b.response} ' if several else ''}[{index if index is not None else '-'}] {kind}"
                   f"{'' if choice is None or choice == 0 else f' (choice {choice})'}{f' {name}' if name else ''}"
                   f"{f' id={id_}' if id_ else ''}{f' status={b.status}' if b.tool else ''}"
                   f"{' closed' if b.closed else ' OPEN'}: {_short(content or '', as_is=as_is)}")
    counts: dict[str, int] = {}
    for f in s.findings:
        counts[f.severity] = counts.get(f.severity, 0) + 1
    out.append("  " + counts_text(counts))
    return "\n".join(out)
