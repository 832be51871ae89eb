"""One matrix case graded: pass, warn or fail, with the reason and the findings.

- ``fail``: the request could not be answered (no connection, no bytes, HTTP 5xx, or 4xx on a
  case that is not ``optional``), the answer did not stream, the answer is in another provider's
  dialect (nothing else is graded then), an error finding (RULES.md severity)
  that the case does not ``allow``, or a ``strict`` expectation not met.
- ``warn``: a warning finding, an expectation not met that depends on the model's choice (a
  model may answer in text where a tool would do), a 4xx on an ``optional`` case (not supported
  here), or the non-streamed answer disagreeing with the streamed one.
- ``pass``: everything else; info findings are listed.

The streamed-vs-non-streamed check compares tool names (as a multiset), arguments (equivalent:
the same keys with values of the same JSON types; identical is noted) and the stop reason's class.
Pure: no I/O (``server`` sends the requests).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from inspector.model.severity import severity_rank
from inspector.net.conform.matrix import Case
from inspector.providers.conformance import Call, Conformance, Turn
from inspector.session.session import Session

GRADES = ("pass", "warn", "fail")


@dataclass
class CaseResult:
    """A graded case (``report`` renders it)."""

    name: str
    about: str
    grade: str = "pass"
    reason: str = ""
    """One line: the worst problem, or what the answer held when it passed."""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    """Every problem, worst first (``fail: …``/``warn: …``)."""
    findings: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    status: int | None = None
    stop_reason: str | None = None
    calls: list[str] = field(default_factory=list)
    compared: str | None = None
    """The streamed-vs-non-streamed verdict (``same``/``equivalent``/what differs), None when not compared."""
    failed_to_run: bool = False
    """No answer at all (connection refused, timeout before the head): JUnit reports it as an error."""
    captures: list[str] = field(default_factory=list)

    def worsen(self, grade: str, why: str, *, listed: bool = True) -> None:
        """Lower the grade to ``grade`` (never raise it); ``listed``: add ``why`` to ``problems``
        (findings are listed on their own)."""
        if listed:
            self.problems.append(f"{grade}: {why}")
        if GRADES.index(grade) > GRADES.index(self.grade):
            self.grade, self.reason = grade, why

    def to_dict(self) -> dict:
        return {"case": self.name, "about": self.about, "grade": self.grade, "reason": self.reason,
                "seconds": round(self.seconds, 3), "status": self.status, "stop_reason": self.stop_reason,
                "calls": self.calls, "compared": self.compared, "problems": self.problems,
                "findings": self.findings, "notes": self.notes, "captures": self.captures}

    def lines(self) -> list[str]:
        """The case for people: a head line (grade, name, time, reason), then every other problem,
        finding and note, indented."""
        head = f"{self.grade.upper():<4}  {self.name:<22} {self.seconds:6.2f} s  {self.reason}"
        rest = [f"        {p}" for p in self.problems if p != f"{self.grade}: {self.reason}"]
        rest += [f"        {f['code']} {f['name']} ({f['severity']}) {_at(f)}{f['message']}" for f in self.findings
                 if f"{f['code']} {f['name']}: {f['message']}" != self.reason]
        rest += [f"        note: {n}" for n in self.notes]
        return [head, *rest]

    @property
    def failed(self) -> bool:
        return self.grade == "fail"


def _at(f: dict) -> str:
    return f"event {f['event']}: " if f.get("event") is not None else ""


def streamed_turn(session: Session) -> Turn:
    """What the stream held, as a ``Turn`` (tool calls with parsed arguments when complete)."""
    turn = Turn(stop_reason=session.stop_reason)
    for b in session.blocks:
        if b.replaced:
            continue
        turn.kinds.append(b.kind)
        if b.tool:
            turn.calls.append(Call(b.call_id or b.id, b.name, b.input, b.content))
        elif b.kind in ("text", "message"):
            turn.text += b.content
    return turn


def grade_stream(result: CaseResult, case: Case, conf: Conformance, session: Session, *, status: int | None,
                 content_type: str, end_error: str | None, end_kind: str | None,
                 dialect: str | None = None) -> Turn | None:
    """Grade the streamed answer into ``result``; the streamed turn, or None when there was no stream
    or it is in another dialect than ``dialect`` (the provider's: a server that answers
    ``--provider openai`` in Anthropic's dialect fails with that said, not graded on stop reasons
    and calls read across dialects)."""
    result.status = status
    if status is None:
        result.failed_to_run = True
        result.worsen("fail", f"no answer: {end_error or 'the connection failed'}")
        return None
    if status >= 400:
        body = _body_text(session)
        if case.optional and status < 500:
            result.worsen("warn", f"not supported here: HTTP {status}{body}")
        else:
            result.worsen("fail", f"HTTP {status}{body}")
        return None
    streaming = any(k in content_type for k in ("event-stream", "ndjson", "jsonl"))
    if content_type.startswith("application/json") or not streaming and not session.events:
        result.worsen("fail", f"the server did not stream (content-type {content_type or 'none'}){_body_text(session)}")
        return None
    if not streaming:
        result.notes.append(f"content-type {content_type or 'none'} on a stream")
    got = session.dialect_name
    if dialect is not None and got not in (None, "unknown", dialect):
        result.stop_reason = session.stop_reason
        result.worsen("fail", f"answer is {got}, not {dialect}: the server at this URL speaks another API "
                              "(its stop reasons, tool calls and findings are not graded as this provider's)")
        return None
    if end_kind == "timeout":
        result.worsen("fail", f"the stream stopped: {end_error}")
    allowed = set(case.expect.get("allow", ()))
    for f in session.findings:
        d = f.to_dict()
        result.findings.append(d)
        if f.code in allowed:
            continue
        if f.severity == "error":
            result.worsen("fail", f"{f.code} {f.name}: {f.message}", listed=False)
        elif f.severity == "warning":
            result.worsen("warn", f"{f.code} {f.name}: {f.message}", listed=False)
    result.findings.sort(key=lambda d: -severity_rank(d["severity"]))
    turn = streamed_turn(session)
    result.stop_reason = turn.stop_reason
    result.calls = [c.name or "?" for c in turn.calls]
    _expectations(result, case, conf, turn)
    if result.grade == "pass":
        result.reason = describe(turn)
    return turn


def _body_text(session: Session) -> str:
    text = session.body_head.decode("utf-8", "replace").strip().replace("\n", " ")
    return f": {text[:160]}" if text else ""


def describe(turn: Turn) -> str:
    """What a passing answer held: ``1 call (get_weather), stop tool_use``."""
    calls = ", ".join(c.name or "?" for c in turn.calls)
    what = f"{len(turn.calls)} call{'s' if len(turn.calls) != 1 else ''} ({calls})" if turn.calls else \
        f"text ({len(turn.text)} characters)"
    return f"{what}, stop {turn.stop_reason or 'none'}"


def stop_matches(conf: Conformance, turn: Turn, want: str) -> bool:
    got = conf.stop_class(turn.stop_reason)
    if want == "tool" and not conf.tool_stop:
        return got == "end" and bool(turn.calls)
    return got == want


def _expectations(result: CaseResult, case: Case, conf: Conformance, turn: Turn) -> None:
    e = case.expect
    level = "fail" if e.get("strict") else "warn"
    misses: list[str] = []
    n = len(turn.calls)
    if "calls" in e and n != e["calls"]:
        misses.append(f"expected {e['calls']} tool call{'s' if e['calls'] != 1 else ''}, got {n}")
    if "min_calls" in e and n < e["min_calls"]:
        misses.append(f"expected at least {e['min_calls']} tool calls, got {n}")
    names = {c.name for c in turn.calls}
    missing = [t for t in e.get("tools", ()) if t not in names]
    if missing:
        misses.append(f"expected a call to {', '.join(missing)}, got {', '.join(sorted(map(str, names))) or 'none'}")
    if "stop" in e and not stop_matches(conf, turn, e["stop"]):
        article = "an" if str(e["stop"])[:1] in "aeiou" else "a"
        misses.append(f"expected {article} {e['stop']} stop, got {turn.stop_reason or 'none'}")
    first = turn.calls[0] if turn.calls else None
    if "arguments" in e and first is not None and first.arguments != e["arguments"]:
        misses.append(f"expected arguments {e['arguments']}, got {first.raw if first.raw is not None else first.arguments!r}")
    if first is not None and "min_argument_chars" in e and len(first.raw or "") < e["min_argument_chars"]:
        misses.append(f"the arguments are {len(first.raw or '')} characters, fewer than {e['min_argument_chars']}: "
                      "the long-arguments path was not exercised")
    if first is not None and e.get("argument_features"):
        absent = [f for f in e["argument_features"] if not _has_feature(first, f)]
        if absent:
            misses.append(f"the arguments hold no {', '.join(absent)}")
    kinds = set(turn.kinds)
    lacking = [k for k in e.get("kinds", ()) if k not in kinds]
    if lacking:
        misses.append(f"no {', '.join(lacking)} block")
    for m in misses:
        result.worsen(level, m)


def _has_feature(call: Call, feature: str) -> bool:
    raw = call.raw or ""
    if feature == "non-ascii":
        return any(ord(ch) > 127 for ch in raw) or "\\u" in raw
    if feature == "escapes":
        return any(esc in raw for esc in ('\\"', "\\\\", "\\n", "\\u"))
    stack = [call.arguments]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            if any(isinstance(x, list) for x in v):
                return True
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
    return False


def compare(result: CaseResult, conf: Conformance, streamed: Turn, plain: Turn) -> None:
    """Streamed vs non-streamed: tool names, arguments, stop reason class (``warn`` when they differ)."""
    diffs = []
    if Counter(c.name for c in streamed.calls) != Counter(c.name for c in plain.calls):
        diffs.append(f"tool calls {[c.name for c in streamed.calls]} streamed, {[c.name for c in plain.calls]} "
                     "without streaming")
    else:
        rest = list(plain.calls)
        identical = True
        for c in streamed.calls:
            twin = next(p for p in rest if p.name == c.name)
            rest.remove(twin)
            if c.arguments != twin.arguments:
                identical = False
                if not _equivalent(c.arguments, twin.arguments):
                    diffs.append(f"{c.name} arguments differ in shape: streamed {_shape(c.arguments)}, "
                                 f"not streamed {_shape(twin.arguments)}")
        if not diffs:
            result.compared = "same" if identical else "equivalent"
    s_stop, p_stop = conf.stop_class(streamed.stop_reason), conf.stop_class(plain.stop_reason)
    if s_stop != p_stop:
        diffs.append(f"stop reason {streamed.stop_reason!r} streamed, {plain.stop_reason!r} without streaming")
    if diffs:
        result.compared = "; ".join(diffs)
        for d in diffs:
            result.worsen("warn", f"streamed and non-streamed answers differ: {d}")
    elif result.grade == "pass":
        result.reason += f"; non-streamed: {result.compared}"


def _equivalent(a, b) -> bool:
    """The same keys with values of the same JSON types (an LLM answers the same request differently)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(type(a[k]) is type(b[k]) or
                                            (isinstance(a[k], (int, float)) and isinstance(b[k], (int, float)))
                                            for k in a)
    return type(a) is type(b)


def _shape(v) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {type(x).__name__}" for k, x in v.items()) + "}"
    return type(v).__name__ if v is not None else "unparsed"
