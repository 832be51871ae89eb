"""Two answers compared: block pairs, differences by kind, the normalisations applied.

Difference kinds (``Difference.kind``, stable, the JSON's ``kind``):

- ``block-missing`` / ``block-added``: a text, reasoning, tool-call or other block on A's side
  only / on B's side only;
- ``text-differs`` / ``reasoning-differs``: the joined text differs (``path``: the first
  differing character offset);
- ``tool-name-changed``; ``tool-id-changed`` (both sides mint ids the same way and the id is not
  kept); ``tool-id-missing`` (one side lost the id its dialect carries: no tool result can quote it);
- ``arguments-differ``: as parsed JSON, ``path`` the first difference (``$.items[2].qty``); when a
  side does not parse, ``path`` is ``@N``, the first differing character;
- ``arguments-later``: the first argument byte arrived more than ``late_s`` later on one side, a
  gateway that buffers. On a common clock when one is known (``gateway``: B's times shifted by
  ``b_offset``); else (two capture files, each timed from its own request) counted from each
  stream's first byte, so the time a request spent reaching the other hop does not count;
- ``stop-reason``: the stop reasons do not correspond after mapping (classes, ``answer.stop_class``);
- ``finding-one-side``: a finding (warning or error) whose meaning (``meaning``) the other side
  does not state; info findings are not compared. Both answers' calls are judged against the same
  declared tools: when only one side's request declared any (two capture files, one recorded
  without its request), the other side's calls are judged against them too (V001, V002), so a
  gateway that rewrites arguments into schema violations shows as a V finding on its side only.

Equivalent, and said in ``normalisations``: text split differently into blocks, arguments equal
as JSON but not as text, ids rewritten one-to-one between dialects that mint ids differently,
ids absent where a dialect has none (Gemini, Ollama), stop reasons of different names in the same
class, a tool turn ended by a dialect that has no tool stop reason, codes of the same meaning.
"""
from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import orjson

from inspector.capture.redact import mask_in_place
from inspector.compare.diff.answer import Answer, Call, id_family, ids_optional, tool_stop
from inspector.compare.diff.meaning import same_meaning
from inspector.model.catalog import RULES
from inspector.providers.anthropic.tools import SERVER_KINDS
from inspector.session.rules.declared import judge_call
from inspector.providers.tools import DeclaredTool
from inspector.session.rules.schemas import Compiled, compile_schema

LATE_S = 1.0
"""Default: a first argument byte later than this on one side is ``arguments-later``."""

_MISSING = object()


@dataclass
class Difference:
    kind: str
    what: str
    """The block or field concerned: ``text``, ``tool #0 get_weather``, ``stop reason``, ``finding C003``."""
    message: str
    a: object = None
    b: object = None
    path: str | None = None
    side: str | None = None
    """``a`` or ``b`` for what one side has alone (missing/added blocks, one-sided findings)."""
    pair: int | None = None
    """The block pair it belongs to (index into ``Diff.pairs``), if any."""

    def to_json(self) -> dict:
        return {"kind": self.kind, "what": self.what, "message": self.message, "a": self.a, "b": self.b,
                "path": self.path, "side": self.side, "pair": self.pair}


@dataclass
class BlockPair:
    """Matched blocks side by side: ``a``/``b`` index the answer's calls (tool) or are 0 (text,
    reasoning) or the position in ``other_kinds``; None when that side has no such block."""

    kind: str
    a: int | None
    b: int | None
    matched_by: str | None
    """``id``, ``rewritten id``, ``name``, ``position``, ``kind`` (text/reasoning), None (one side only)."""
    label: str
    differences: list[int] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"kind": self.kind, "a": self.a, "b": self.b, "matched_by": self.matched_by, "label": self.label,
                "differences": self.differences}


@dataclass
class Diff:
    a: Answer
    b: Answer
    pairs: list[BlockPair] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    normalisations: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    b_offset: float | None = None
    late_s: float = LATE_S

    @property
    def equivalent(self) -> bool:
        return not self.differences

    @property
    def exit_code(self) -> int:
        """0 equivalent, 1 different."""
        return 0 if self.equivalent else 1

    def normalised(self, text: str) -> None:
        if text not in self.normalisations:
            self.normalisations.append(text)

    def add(self, d: Difference, pair: int | None = None) -> None:
        d.pair = pair
        if pair is not None:
            self.pairs[pair].differences.append(len(self.differences))
        self.differences.append(d)


def first_json_difference(a: object, b: object, path: str = "$") -> tuple[str, object, object] | None:
    """The first place two parsed JSON values differ: ``(path, value in a, value in b)``, or None.

    Objects compare key by key (order ignored; a key on one side only is a difference, its value
    on the other side ``None`` with the path naming the key); arrays element by element, then by
    length; ``true`` never equals ``1``; ``1`` equals ``1.0``.
    """
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in b or k not in a:
                return f"{path}.{k}", a.get(k, _MISSING), b.get(k, _MISSING)
            found = first_json_difference(a[k], b[k], f"{path}.{k}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_json_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        if len(a) != len(b):
            i = min(len(a), len(b))
            return f"{path}[{i}]", a[i] if i < len(a) else _MISSING, b[i] if i < len(b) else _MISSING
        return None
    if isinstance(a, bool) or isinstance(b, bool) or type(a) in (dict, list) or type(b) in (dict, list):
        return None if type(a) is type(b) and a == b else (path, a, b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return None if a == b else (path, a, b)
    return None if type(a) is type(b) and a == b else (path, a, b)


def _shown(v: object) -> object:
    return "(absent)" if v is _MISSING else v


def _json(v: object) -> str:
    """``v`` in a message as JSON spells it (``"get_weather"``, ``{"city":"Lisbon"}``, ``null``), not
    as a Python repr; a key absent on one side as ``(absent)``."""
    if v is _MISSING:
        return "(absent)"
    return orjson.dumps(v, default=str, option=orjson.OPT_NON_STR_KEYS).decode()


def _first_char_difference(a: str, b: str) -> int:
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n


def _excerpt(s: str, at: int, width: int = 24) -> str:
    """``width`` characters of ``s`` around ``at``, a key in it masked first: a window cut out of a
    key no longer looks like one, so it is masked in place (same length: ``at`` still points right)."""
    s = mask_in_place(s)
    start = max(0, at - width // 2)
    cut = s[start:start + width]
    return ("…" if start else "") + cut + ("…" if start + width < len(s) else "")


def _call_label(c: Call) -> str:
    return f"tool #{c.position} {c.name or '(no name)'}"


def diff_answers(a: Answer, b: Answer, *, b_offset: float | None = None, late_s: float = LATE_S) -> Diff:
    """Compare ``a`` and ``b`` (see the module docstring). ``b_offset``: seconds to add to B's times
    to put them on A's clock (a gateway pair: front request start − back request start); None when
    there is no common clock (argument times then count from each stream's first byte)."""
    d = Diff(a, b, b_offset=b_offset, late_s=late_s)
    for side in (a, b):
        d.notes.extend(f"{side.label}: {n}" for n in side.notes)
    if a.dialect != b.dialect:
        d.normalised(f"dialects differ ({a.dialect or 'unknown'} → {b.dialect or 'unknown'}): compared as "
                     "assembled blocks, not events")
    _text(d, "text", a.text, b.text, a.text_blocks, b.text_blocks)
    _text(d, "reasoning", a.reasoning, b.reasoning, a.reasoning_blocks, b.reasoning_blocks)
    _calls(d)
    _others(d)
    _stop(d)
    _declared(d)
    _findings(d)
    return d


def _text(d: Diff, kind: str, ta: str, tb: str, na: int, nb: int) -> None:
    if not ta and not tb:
        return
    if ta and not tb or tb and not ta:
        side = "a" if ta else "b"
        d.pairs.append(BlockPair(kind, 0 if ta else None, 0 if tb else None, None, kind))
        shown = ta or tb
        d.add(Difference("block-missing" if side == "a" else "block-added", kind,
                         f"{kind} on {'A' if side == 'a' else 'B'}'s side only ({len(shown)} characters)",
                         a=ta or None, b=tb or None, side=side), len(d.pairs) - 1)
        return
    d.pairs.append(BlockPair(kind, 0, 0, "kind", kind))
    if na != nb:
        d.normalised(f"{kind} joined across blocks (A {na} block{'s' * (na != 1)}, B {nb}): one channel in some dialects")
    if ta != tb:
        at = _first_char_difference(ta, tb)
        d.add(Difference(f"{kind}-differs", kind,
                         f"{kind} differs at character {at}: A {_json(_excerpt(ta, at))}, B {_json(_excerpt(tb, at))} "
                         f"(A {len(ta)}, B {len(tb)} characters)",
                         a=_excerpt(ta, at), b=_excerpt(tb, at), path=f"@{at}"), len(d.pairs) - 1)


def _key(value: object) -> object:
    """``value`` as a dict key that is equal where the values are: itself, or for a JSON object or
    list (a non-streamed answer may give one as a call's id or name) its canonical JSON text."""
    try:
        hash(value)
        return value
    except TypeError:
        try:
            return ("json", orjson.dumps(value, option=orjson.OPT_SORT_KEYS))
        except (TypeError, orjson.JSONEncodeError):
            return ("repr", repr(value))


def _pair_calls(a: list[Call], b: list[Call]) -> list[tuple[Call | None, Call | None, str | None]]:
    """Tool calls of A matched with B's: same id, then same name in order, then by position; the rest
    alone. ``rewritten id``: same name at the same position, ids differing (the only pairs whose
    ids may be taken as rewritten one for one). Each step takes B's first call left that fits, found
    in a queue per id and per name (a search of B's calls for each of A's was quadratic in calls)."""
    taken = [False] * len(b)
    matched: dict[int, tuple[Call, str]] = {}
    by_id: dict[object, deque[int]] = {}
    for j, cb in enumerate(b):
        if cb.id:
            by_id.setdefault(_key(cb.id), deque()).append(j)
    for ca in a:
        queue = by_id.get(_key(ca.id)) if ca.id else None
        if queue:
            j = queue.popleft()
            taken[j] = True
            matched[ca.position] = (b[j], "id")
    by_name: dict[object, deque[int]] = {}
    for j, cb in enumerate(b):
        if not taken[j]:
            by_name.setdefault(_key(cb.name), deque()).append(j)
    for ca in a:
        if ca.position in matched:
            continue
        queue = by_name.get(_key(ca.name))
        if queue:
            j = queue.popleft()
            taken[j] = True
            found = b[j]
            rewritten = ca.id and found.id and ca.id != found.id and ca.position == found.position
            matched[ca.position] = (found, "rewritten id" if rewritten else "name")
    left_b = deque(cb for j, cb in enumerate(b) if not taken[j])
    for ca in a:
        if ca.position not in matched and left_b:
            matched[ca.position] = (left_b.popleft(), "position")
    out: list[tuple[Call | None, Call | None, str | None]] = []
    for ca in a:
        paired, how = matched.get(ca.position, (None, None))
        out.append((ca, paired, how))
    out.extend((None, cb, None) for cb in left_b)
    return out


def _calls(d: Diff) -> None:
    a, b = d.a, d.b
    same_family = id_family(a.dialect) == id_family(b.dialect) or not a.dialect or not b.dialect
    if len(a.calls) != len(b.calls):
        d.notes.append(f"different numbers of tool calls: A {len(a.calls)}, B {len(b.calls)}")
    rewritten: list[str] = []
    for ca, cb, how in _pair_calls(a.calls, b.calls):
        c = ca or cb
        if c is None:
            continue  # _pair_calls pairs a call with a call or with nothing, never nothing with nothing
        label = _call_label(c)
        d.pairs.append(BlockPair("tool", ca.position if ca else None, cb.position if cb else None, how, label))
        k = len(d.pairs) - 1
        if ca is None or cb is None:
            side = "a" if ca else "b"
            d.add(Difference("block-missing" if side == "a" else "block-added", label,
                             f"tool call {_json(c.name)} (id {_json(c.id)}) on {'A' if side == 'a' else 'B'}'s side only",
                             a=ca.name if ca else None, b=cb.name if cb else None, side=side), k)
            continue
        if ca.name != cb.name:
            d.add(Difference("tool-name-changed", label, f"tool name {_json(ca.name)} on A, {_json(cb.name)} on B",
                             a=ca.name, b=cb.name), k)
        _ids(d, ca, cb, k, same_family, rewritten, how)
        _arguments(d, ca, cb, k, label)
        _timing(d, ca, cb, k, label)
    if rewritten:
        d.normalised(f"tool ids rewritten one-to-one between {a.dialect} and {b.dialect}: " + ", ".join(rewritten))


def _ids(d: Diff, ca: Call, cb: Call, k: int, same_family: bool, rewritten: list[str], how: str | None) -> None:
    label = d.pairs[k].label
    if ca.id == cb.id:
        return
    for side, mine, theirs, answer in (("a", ca, cb, d.a), ("b", cb, ca, d.b)):
        if not mine.id and theirs.id:
            if ids_optional(answer.dialect):
                d.normalised(f"{answer.dialect} sends no tool call ids: {label} matched without one")
            else:
                d.add(Difference("tool-id-missing", label,
                                 f"{label}: id {_json(theirs.id)} on {'B' if side == 'a' else 'A'}, none on "
                                 f"{side.upper()} (a tool result cannot quote it)", a=ca.id, b=cb.id, side=side), k)
            return
    if same_family:
        d.add(Difference("tool-id-changed", label, f"{label}: id {_json(ca.id)} on A, {_json(cb.id)} on B", a=ca.id, b=cb.id), k)
    elif how != "rewritten id":
        # Different dialects mint ids differently, but only a call of the same name at the same
        # position is the same call: any other pair's ids are not a rewrite of each other.
        why = f"the tool names differ ({_json(ca.name)} ≠ {_json(cb.name)})" if ca.name != cb.name else \
            f"the call is #{ca.position} on A, #{cb.position} on B"
        d.notes.append(f"{label}: ids {_json(ca.id)} and {_json(cb.id)} not taken as rewritten: {why}")
    else:
        others = [c.id for c in d.b.calls if c is not cb]
        if cb.id in others:
            d.add(Difference("tool-id-changed", label, f"{label}: id {_json(ca.id)} on A became {_json(cb.id)}, which "
                                                       "another call on B also has", a=ca.id, b=cb.id), k)
        else:
            rewritten.append(f"{ca.id} → {cb.id}")


def _arguments(d: Diff, ca: Call, cb: Call, k: int, label: str) -> None:
    if ca.parses and cb.parses:
        found = first_json_difference(ca.parsed, cb.parsed)
        if found is None:
            if ca.arguments != cb.arguments:
                d.normalised("arguments compared as parsed JSON (whitespace, key order or an empty input read as {})")
            return
        path, va, vb = found
        d.add(Difference("arguments-differ", label, f"{label}: arguments differ at {path}: A {_json(va)}, "
                                                    f"B {_json(vb)}", a=_shown(va), b=_shown(vb), path=path), k)
        return
    if ca.arguments == cb.arguments:
        return
    at = _first_char_difference(ca.arguments, cb.arguments)
    bad = " and ".join(f"{s} ({c.status or 'not JSON'})" for s, c in (("A", ca), ("B", cb)) if not c.parses)
    d.add(Difference("arguments-differ", label,
                     f"{label}: arguments differ at character {at}, not JSON on {bad}: "
                     f"A {_json(_excerpt(ca.arguments, at))}, B {_json(_excerpt(cb.arguments, at))}",
                     a=ca.arguments, b=cb.arguments, path=f"@{at}"), k)


def _timing(d: Diff, ca: Call, cb: Call, k: int, label: str) -> None:
    if not (d.a.streamed and d.b.streamed) or ca.first_arg_t is None or cb.first_arg_t is None:
        return
    if d.b_offset is not None:
        ta, tb, clock = ca.first_arg_t, cb.first_arg_t + d.b_offset, "on A's clock"
    else:
        ta, tb = ca.first_arg_t - (d.a.first_byte_t or 0.0), cb.first_arg_t - (d.b.first_byte_t or 0.0)
        clock = "from each stream's first byte"
    gap = tb - ta
    if abs(gap) <= d.late_s:
        return
    later, earlier = ("B", "A") if gap > 0 else ("A", "B")
    d.add(Difference("arguments-later", label,
                     f"{label}: first argument byte {abs(gap):.3f} s later on {later} than on {earlier} "
                     f"(A {ta:.3f} s, B {tb:.3f} s, {clock}): buffered", a=round(ta, 6),
                     b=round(tb, 6), side="b" if gap > 0 else "a"), k)


def _others(d: Diff) -> None:
    left = list(d.b.other_kinds)
    for i, kind in enumerate(d.a.other_kinds):
        if kind in left:
            j = left.index(kind)
            left[j] = None  # type: ignore[call-overload]  # a taken slot, so index() finds the next one
            d.pairs.append(BlockPair(kind, i, j, "kind", kind))
        else:
            d.pairs.append(BlockPair(kind, i, None, None, kind))
            d.add(Difference("block-missing", kind, f"{kind} block on A's side only", a=kind, side="a"), len(d.pairs) - 1)
    for j, kind in enumerate(left):
        if kind is not None:
            d.pairs.append(BlockPair(kind, None, j, None, kind))
            d.add(Difference("block-added", kind, f"{kind} block on B's side only", b=kind, side="b"), len(d.pairs) - 1)


def _stop_class(d: Diff, side: Answer) -> str | None:
    cls = side.stop_class
    if cls == "end" and side.calls and not tool_stop(side.dialect):
        d.normalised(f"{side.dialect} has no tool stop reason: {_json(side.stop_reason)} with a tool call read as tool")
        return "tool"
    return cls


def _stop(d: Diff) -> None:
    ca, cb = _stop_class(d, d.a), _stop_class(d, d.b)
    ra, rb = d.a.stop_reason, d.b.stop_reason
    if ca == cb and (ca is not None or ra == rb):
        if ra != rb:
            d.normalised(f"stop reasons mapped across dialects: {_json(ra)} ≈ {_json(rb)} ({ca})")
        return
    d.add(Difference("stop-reason", "stop reason",
                     f"stop reason {_json(ra)} ({ca or 'none'}) on A does not correspond to {_json(rb)} ({cb or 'none'}) on B",
                     a=ra, b=rb))


def _compile_tool(tool: DeclaredTool) -> Compiled:
    """``tool``'s schema compiled (``judge_call`` asks only for a tool that has one)."""
    return compile_schema(tool.schema) if tool.schema is not None else Compiled(None)


def _declared(d: Diff) -> None:
    """The side whose request declared no tools judged against the other side's (module docstring)."""
    if d.a.declared is not None and d.b.declared is None:
        tools, owner, other = d.a.declared, d.a, d.b
    elif d.b.declared is not None and d.a.declared is None:
        tools, owner, other = d.b.declared, d.b, d.a
    else:
        return  # both judged against their own request, or nothing to judge against
    for c in other.calls:
        if c.kind in SERVER_KINDS or c.kind in tools.server_kinds:
            continue
        verdict = judge_call(tools, c.name, c.parsed if c.parses else None, _compile_tool)
        if verdict is not None:
            rule = RULES[verdict.code]
            other.findings.append({"code": verdict.code, "name": rule.name, "severity": verdict.severity or rule.severity,
                                   "message": verdict.message, "index": c.block_index})
    d.notes.append(f"{other.label}: its calls judged against the tools {owner.label}'s request declared "
                   "(its own request declares none)")


def _findings(d: Diff) -> None:
    if not (d.a.streamed and d.b.streamed):
        d.notes.append("stream findings not compared: one side is a non-streamed answer")
        return
    fa = [f for f in d.a.findings if f["severity"] != "info"]
    fb = [f for f in d.b.findings if f["severity"] != "info"]
    codes_a = list(dict.fromkeys(f["code"] for f in fa))
    codes_b = list(dict.fromkeys(f["code"] for f in fb))
    for mine, theirs, side, findings in ((codes_a, codes_b, "a", fa), (codes_b, codes_a, "b", fb)):
        for code in mine:
            twin = next((c for c in theirs if same_meaning(code, c)), None)
            if twin is not None:
                if twin != code and side == "a":
                    d.normalised(f"finding codes of the same meaning: {code} ≈ {twin}")
                continue
            f = next(x for x in findings if x["code"] == code)
            d.add(Difference("finding-one-side", f"finding {code}",
                             f"{code} {f['name']} ({f['severity']}) on {side.upper()}'s side only: {f['message']}",
                             a=code if side == "a" else None, b=code if side == "b" else None, side=side))
