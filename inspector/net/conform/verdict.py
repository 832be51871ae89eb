"""A client's next request, graded against the mutated stream it was sent (``serve --expect-next``).

The verdicts (one per mutation):

- ``survived``: the next request arrived and carries back what a correct client assembles: every
  tool call of the stream with the streamed arguments and a tool result, the text, no Q finding
  (RULES.md section Q); or it repeats the first request's history (the client retried).
- ``mis-assembled``: the next request arrived, but something in it is wrong: a Q finding (a delta in
  history, an empty text block, a dropped signature, arguments that differ…), a tool call dropped
  or renamed, a call the stream produced left without a tool result, text that differs.
- ``crashed``: no next request (the client raised, exited, or gave up).

What a correct client assembles is the *intended* stream (``MutatedCapture.truth``: the original
capture, or what the mutation added to it), so a client that repairs a broken stream (keys calls
by id when the index is gone, de-duplicates cumulative arguments) is graded as having survived,
and one that sends back a call the server never completed (a reset mid-arguments, a block closed
early) is graded as mis-assembled.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import orjson

from inspector.feeds.run import run_capture
from inspector.model.catalog import severity_rank
from inspector.net.conform.mutate import MutatedCapture
from inspector.providers.conformers import CONFORMANCE
from inspector.providers.conformance import Call, Turn
from inspector.feeds.exchanges.pairing import HISTORY_KEYS, claims_an_answer
from inspector.session.history import check_request, has_history

OUTCOMES = ("survived", "mis-assembled", "crashed")


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


def crashed(mc: MutatedCapture, detail: str) -> Verdict:
    return Verdict(str(mc.spec), mc.name, mc.provider, "crashed", detail, codes=sorted(mc.mutation.codes),
                   where=mc.where)


def _json(body: bytes | None):
    try:
        return orjson.loads(body) if body else None
    except orjson.JSONDecodeError:
        return None


def starts_anew(first: bytes | None, nxt: bytes) -> bool:
    """True when ``nxt`` begins a new conversation rather than following the request ``first``:
    its history holds no assistant turn and no tool result (``pairing.claims_an_answer``, the
    proxy's rule) and is not ``first``'s again (a retry)."""
    body, before = _json(nxt), _json(first)
    if not isinstance(body, dict) or claims_an_answer(body) or not has_history(body):
        return False
    return not _retried(body, before)


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
    verdict.problems += [f"{f.code} {f.name}: {f.message}" for f in q]
    expected = _streamed_calls(truth)
    turn = CONFORMANCE[mc.provider].sent_back(body)
    verdict.problems += _compare(expected, _streamed_text(truth), turn)
    if verdict.problems:
        verdict.outcome = "mis-assembled"
        verdict.detail = verdict.problems[0][:200]
    elif expected:
        verdict.detail = f"sent back {len(expected)} tool call{'s' if len(expected) != 1 else ''} with their results"
    else:
        verdict.detail = "sent back the text"
    return verdict


def _streamed_calls(session) -> list[Call]:
    return [Call(b.call_id or b.id, b.name, b.input) for b in session.blocks if b.tool and not b.replaced]


def _streamed_text(session) -> str:
    return "".join(b.content for b in session.blocks if not b.tool and b.kind in ("text", "message"))


def _norm(text: str) -> str:
    return " ".join(text.split())


def _compare(expected: list[Call], text: str, turn: Turn | None) -> list[str]:
    """What the sent-back turn lost or changed (Q006 judges the arguments themselves)."""
    if turn is None:
        if expected:
            return [f"no assistant turn sent back: the tool call{'s' if len(expected) > 1 else ''} "
                    f"{', '.join(repr(c.name) for c in expected)} were dropped"]
        return []
    out = []
    sent = list(turn.calls)
    for pos, call in enumerate(expected):
        match = next((c for c in sent if call.id and c.id == call.id), None)
        if match is None and pos < len(turn.calls) and not call.id:
            match = turn.calls[pos]
        if match is None:
            out.append(f"tool call {call.name!r} ({call.id}) was dropped from the assistant turn")
            continue
        sent.remove(match)
        if match.name != call.name:
            out.append(f"tool call {call.id} sent back named {match.name!r}, streamed as {call.name!r}")
        if not any(r in (call.id, call.name) for r in turn.results):
            out.append(f"tool call {call.name!r} ({call.id}) got no tool result: the client never ran it")
    if text.strip() and _norm(turn.text) != _norm(text):
        if "\ufffd" in turn.text:
            out.append("the assistant text sent back holds U+FFFD: a multi-byte character was decoded per chunk")
        elif turn.text.strip():
            out.append(f"the assistant text sent back differs from the streamed text ({len(turn.text)} vs "
                       f"{len(text)} characters)")
    return out
