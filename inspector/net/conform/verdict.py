"""A client's next request, graded against the mutated stream it was sent (``serve --expect-next``).

The verdicts (one per mutation), by what the client did:

- ``survived``: the next request arrived and carries back what a correct client assembles: every
  tool call of the stream with the streamed arguments and a tool result, the text, no Q finding
  (RULES.md section Q); or it repeats the first request's history (the client retried).
- ``dropped``: a tool call the stream produced never ran: left out of the assistant turn, or sent
  back without a tool result; or the client exited 0 without a next request.
- ``refused``: the client sent the broken call's error back to the model instead of running it (a
  tool result marked ``is_error``, or one whose text says the arguments were invalid / could not be
  parsed, as pydantic-ai does with its retry prompt on ``INVALID_JSON``).
- ``repaired``: the client sent back valid arguments the stream never completed (the stream's own
  arguments did not parse; a lenient parser closed them).
- ``ran-wrong-arguments``: the call was sent back as if complete with arguments that differ from the
  intended ones (cut text, concatenated snapshots…).
- ``mis-assembled``: anything else wrong in the next request (a Q finding such as a delta in
  history or a dropped signature, a renamed call, text that differs).
- ``crashed``: no next request; the client raised (its reason: the exception line of the last
  traceback it printed, not its last stderr line).
- ``hung``: the client did not finish within the time allowed and was stopped.

What a correct client assembles is the *intended* stream (``MutatedCapture.truth``: the original
capture, or what the mutation added to it), so a client that repairs a broken stream the way the
server meant it (keys calls by id when the index is gone, de-duplicates cumulative arguments) is
graded as having survived.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

import orjson

from inspector.feeds.run import run_capture
from inspector.model.jsondepth import loads as json_loads
from inspector.model.severity import severity_rank
from inspector.net.conform.mutate import MutatedCapture
from inspector.providers.conformers import CONFORMANCE
from inspector.providers.conformance import Call, Turn
from inspector.feeds.exchanges.pairing import HISTORY_KEYS, claims_an_answer
from inspector.providers.history import canon
from inspector.session.history import check_request, has_history

OUTCOMES = ("survived", "repaired", "refused", "ran-wrong-arguments", "dropped", "mis-assembled", "crashed", "hung")
FAILED = ("repaired", "refused", "ran-wrong-arguments", "dropped", "mis-assembled")
"""Outcomes where a next request arrived (or the client ended cleanly) with something wrong (JUnit failures)."""
ERRORED = ("crashed", "hung")
"""Outcomes where the client never got that far (JUnit errors)."""
REFUSAL = re.compile(r"invalid|malformed|could not (?:be )?parsed?|failed to parse|validation error|not valid json",
                     re.IGNORECASE)
"""Words of a tool result that sends a broken call's error back to the model."""


@dataclass(slots=True)
class Verdict:
    """One mutation's verdict on one client."""

    mutation: str
    """The ``--mutate`` spec (``stall=3``)."""
    capture: str
    provider: str
    outcome: str
    """One of ``OUTCOMES``."""
    detail: str
    """One line: what the client did (``retried the request``, ``sent back 2 calls with their results``…)."""
    problems: list[str] = field(default_factory=list)
    """What is wrong in the next request (mis-assembled only)."""
    findings: list[dict] = field(default_factory=list)
    """The Q findings on the next request (``check --format json`` shape)."""
    codes: list[str] = field(default_factory=list)
    """The rule codes the mutated stream carries (what the client had to cope with)."""
    where: str = ""
    client: str | None = None
    """How the client process ended (``conform --client``): ``exit 1: <last stderr line>``…"""

    def to_dict(self) -> dict:
        return {"mutation": self.mutation, "capture": self.capture, "provider": self.provider,
                "outcome": self.outcome, "detail": self.detail, "problems": self.problems,
                "findings": self.findings, "codes": self.codes, "where": self.where, "client": self.client}


def crashed(mc: MutatedCapture, detail: str, outcome: str = "crashed") -> Verdict:
    """The verdict when no next request came (``outcome``: ``crashed``, ``dropped`` or ``hung``)."""
    return Verdict(str(mc.spec), mc.name, mc.provider, outcome, detail, codes=sorted(mc.mutation.codes),
                   where=mc.where)


def _json(body: bytes | None):
    try:
        return json_loads(body) if body else None  # bounded depth (S019): histories are compared recursively
    except orjson.JSONDecodeError:
        return None


def starts_anew(first: bytes | None, nxt: bytes) -> bool:
    """True when ``nxt`` begins a new conversation rather than following the request ``first``:
    its history holds no assistant turn and no tool result (``pairing.claims_an_answer``, the
    proxy's rule), is not ``first``'s again (a retry) and does not go on from it (``first``'s history
    then more: a client that leaves an empty answer out of the history, as pydantic-ai and the Vercel
    AI SDK do since an empty assistant turn is refused by the APIs, and says the next thing)."""
    body, before = _json(nxt), _json(first)
    if not isinstance(body, dict) or claims_an_answer(body) or not has_history(body):
        return False
    return not _retried(body, before) and not _goes_on(body, before)


def _goes_on(body: dict, before) -> bool:
    """``body``'s history is ``before``'s with more after it: more turns, or more content in its last
    turn (two user turns in a row merged into one, as the Vercel AI SDK sends them to Anthropic)."""
    if not isinstance(before, dict):
        return False
    for k in HISTORY_KEYS:
        now, then = body.get(k), before.get(k)
        if not isinstance(now, list) or not isinstance(then, list) or not then or len(now) < len(then):
            continue
        n = len(then)
        if now[:n] == then and len(now) > n:
            return True
        if now[:n - 1] == then[:n - 1] and _extends(now[n - 1], then[n - 1]):
            return True
    return False


def _extends(turn, earlier) -> bool:
    """``turn`` is ``earlier`` (same role) with more content parts after its own."""
    if not isinstance(turn, dict) or not isinstance(earlier, dict) or turn.get("role") != earlier.get("role"):
        return False
    a, b = _parts(turn.get("content", turn.get("parts"))), _parts(earlier.get("content", earlier.get("parts")))
    return a is not None and b is not None and len(a) > len(b) and a[:len(b)] == b


def _parts(content) -> list | None:
    """A turn's content as a list of parts (a string is one text part)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return content if isinstance(content, list) else None


def _retried(body: dict, before) -> bool:
    """``body`` carries the same history as the request ``before`` (the client sent it again)."""
    return isinstance(before, dict) and any(isinstance(body.get(k), list) and body.get(k) == before.get(k)
                                            for k in HISTORY_KEYS)


def grade(mc: MutatedCapture, first: bytes | None, nxt: bytes) -> Verdict:
    """The verdict on ``nxt``, the request that followed the one (``first``) ``mc`` answered."""
    verdict = Verdict(str(mc.spec), mc.name, mc.provider, "survived", "", codes=sorted(mc.mutation.codes),
                      where=mc.where)
    body, before = _json(nxt), _json(first)
    if not isinstance(body, dict):
        verdict.outcome, verdict.detail = "mis-assembled", "the next request is not a JSON object"
        verdict.problems.append(verdict.detail)
        return verdict
    if _retried(body, before):
        verdict.detail = "retried the request (same history)"
        return verdict
    truth = run_capture(mc.truth)
    check_request(truth, body)
    q = [f for f in truth.findings if f.code.startswith("Q") and severity_rank(f.severity) >= severity_rank("warning")]
    verdict.findings = [f.to_dict() for f in q]
    expected = _streamed_calls(truth)
    broken = {c.id or c.name: c for c in _streamed_calls(run_capture(mc.capture))}
    turn = CONFORMANCE[mc.provider].sent_back(body)
    tagged = [("other", f"{f.code} {f.name}: {f.message}") for f in q]
    tagged += _compare(expected, _streamed_text(truth), turn, broken, _results(body))
    verdict.problems = [text for _, text in tagged]
    if tagged:
        kinds = {k for k, _ in tagged}
        verdict.outcome = next(o for k, o in (("dropped", "dropped"), ("refused", "refused"),
                                              ("arguments", "ran-wrong-arguments"), ("repaired", "repaired"),
                                              ("other", "mis-assembled")) if k in kinds)
        lead = next(text for k, text in tagged if _OUTCOME_OF[k] == verdict.outcome)
        verdict.detail = lead[:200]
        verdict.problems.sort(key=lambda text: text != lead)
    elif expected:
        verdict.detail = f"sent back {len(expected)} tool call{'s' if len(expected) != 1 else ''} with their results"
    else:
        verdict.detail = "sent back the text"
    return verdict


_OUTCOME_OF = {"dropped": "dropped", "refused": "refused", "arguments": "ran-wrong-arguments",
               "repaired": "repaired", "other": "mis-assembled"}


def _results(body: dict) -> dict[str, list[tuple[bool, str]]]:
    """Tool results anywhere in the request, by the call id they answer: ``[(is_error, text)]``
    (Chat ``tool_call_id``, Anthropic ``tool_use_id`` + ``is_error``, Responses ``call_id``)."""
    out: dict[str, list[tuple[bool, str]]] = {}
    stack = [body]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            ref = v.get("tool_call_id") or v.get("tool_use_id") or (v.get("call_id") if "output" in v else None)
            if isinstance(ref, str):
                content = v.get("content", v.get("output"))
                text = content if isinstance(content, str) else orjson.dumps(content).decode()
                out.setdefault(ref, []).append((v.get("is_error") is True, text))
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def _streamed_calls(session) -> list[Call]:
    return [Call(b.call_id or b.id, b.name, b.input) for b in session.blocks if b.tool and not b.replaced]


def _streamed_text(session) -> str:
    return "".join(b.content for b in session.blocks if not b.tool and b.kind in ("text", "message"))


def _norm(text: str) -> str:
    return " ".join(text.split())


def _compare(expected: list[Call], text: str, turn: Turn | None, broken: dict[str | None, Call],
             results: dict[str, list[tuple[bool, str]]]) -> list[tuple[str, str]]:
    """What the sent-back turn lost or changed, each tagged ``dropped``, ``refused``, ``repaired``,
    ``arguments`` or ``other`` (Q006 judges the arguments too; ``broken``: the calls as the mutated
    stream left them, by id or name)."""
    if turn is None:
        if expected:
            return [("dropped", f"no assistant turn sent back: the tool call{'s' if len(expected) > 1 else ''} "
                                f"{', '.join(repr(c.name) for c in expected)} were dropped")]
        return []
    out: list[tuple[str, str]] = []
    sent = list(turn.calls)
    ids = {c.id for c in expected if c.id}
    for pos, call in enumerate(expected):
        match = next((c for c in sent if call.id and c.id == call.id), None)
        if match is None:  # the id was mangled or never streamed: the same name, else the same place
            spare = [c for c in sent if c.id not in ids]
            match = next((c for c in spare if c.name == call.name), None)
            if match is None and pos < len(turn.calls) and turn.calls[pos] in spare:
                match = turn.calls[pos]
            if match is not None and call.id and match.id != call.id:
                out.append(("other", f"tool call {call.name!r} sent back with id {match.id!r}, streamed as {call.id!r}"))
        if match is None:
            out.append(("dropped", f"tool call {call.name!r} ({call.id}) was dropped from the assistant turn"))
            continue
        sent.remove(match)
        if match.name != call.name:
            out.append(("other", f"tool call {call.id} sent back named {match.name!r}, streamed as {call.name!r}"))
        if not any(r in (call.id, call.name, match.id, match.name) for r in turn.results if r):
            out.append(("dropped", f"tool call {call.name!r} ({call.id}) got no tool result: the client never ran it"))
            continue
        answers = results.get(match.id or "", []) + (results.get(call.id, []) if call.id is not None and
                                                     call.id != match.id else [])
        refusal = next((t for err, t in answers if err or REFUSAL.search(t)), None)
        if refusal is not None:
            out.append(("refused", f"tool call {call.name!r} ({call.id}) was answered with an error for the "
                                   f"model instead of being run: {refusal[:120]!r}"))
            continue
        if canon(match.arguments) != canon(call.arguments):
            was = broken.get(call.id or call.name or "")
            if match.valid and was is not None and not was.valid:
                out.append(("repaired", f"tool call {call.name!r} ({call.id}): the stream's arguments did not parse; "
                                        f"the client sent back {_clip(match.arguments)} as if complete"))
            else:
                out.append(("arguments", f"tool call {call.name!r} ({call.id}) ran with arguments "
                                         f"{_clip(match.raw if match.raw is not None else match.arguments)}, streamed as "
                                         f"{_clip(call.arguments)}"))
    for extra in sent:
        out.append(("arguments", f"tool call {extra.name!r} ({extra.id}) ran with arguments "
                                 f"{_clip(extra.raw if extra.raw is not None else extra.arguments)}: a correct client "
                                 "runs no such call (the stream never produced it, or ended the turn before it was "
                                 "complete)"))
    if text.strip() and _norm(turn.text) != _norm(text):
        if "\ufffd" in turn.text:
            out.append(("other", "the assistant text sent back holds U+FFFD: a multi-byte character was decoded per chunk"))
        elif turn.text.strip():
            out.append(("other", f"the assistant text sent back differs from the streamed text ({len(turn.text)} vs "
                                 f"{len(text)} characters)"))
    return out


def _clip(value, n: int = 80) -> str:
    text = value if isinstance(value, str) else orjson.dumps(value).decode()
    return text if len(text) <= n else text[: n - 1] + "…"
