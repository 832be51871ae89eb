"""Q-history pairing: which earlier exchange's answer a new request's history continues.

An agent sends the whole conversation back with each request; the Q rules (RULES.md section Q)
judge that history against the streamed answer it repeats. The proxy sees many exchanges, of
many conversations (two agents behind one proxy, an agent whose conversation began before the
proxy, a gateway's many clients), so it has to find *that* answer, or say that there is none:
never "the most recent exchange on this path", which is another conversation's as often as not.

The rule, in :func:`continued_exchange`: the history's last assistant turn (with the tool results
after it) is looked for among the answers of earlier exchanges, by the evidence each answer left
in it, strongest first: a tool call or item id, a signature (compared as bytes), the start of its
text, a tool call's name with its arguments. When the last turn matches nothing (a client that
mangled it beyond recognition), the earlier turns are tried and the match is followed forward
along the conversation (``Exchange.continues``) to the answer the last turn repeats. Nothing
matched: ``None`` (Q007: judged against nothing).

Pure: no I/O, no event loop, no session code. Imports: ``record`` (for its type), the providers'
history keys and the signature spelling rule.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Sequence

from inspector.feeds.exchanges.record import Exchange
from inspector.providers import history_shapes
from inspector.providers.history import canon, parse_args, signature_bytes

HISTORY_KEYS = tuple(dict.fromkeys(shape.key for shape in history_shapes()))
"""Where a request carries its history: Anthropic/Chat/Ollama ``messages``, Gemini ``contents``, Responses ``input``."""

_SCAN_BUDGET = 200_000
"""At most this many history values are visited (an enormous history is searched in part, not hung on)."""

_MIN_ID = 4
"""Shorter tool ids are ignored: too likely to occur in any history by chance."""

_MIN_TEXT, _TEXT_PREFIX = 8, 200
"""Assistant text counts when at least 8 non-blank characters; its first 200 are looked for."""

_MAX_TURNS = 16
"""At most this many assistant turns are tried, last first (a history matching nothing is not read
to its start: 100 held exchanges against a 100-turn history would take ~0.1 s)."""

_ASSISTANT_ROLES = ("assistant", "model")
_SIGNATURE_KEYS = frozenset({"signature", "thoughtSignature", "thought_signature", "encrypted_content"})
_ARGUMENT_KEYS = ("args", "input", "arguments")
_RESULT_KEYS = frozenset({"tool_use_id", "tool_call_id", "functionResponse", "toolResult"})
"""Keys that only a tool result carries (Anthropic, Chat, Gemini, Bedrock)."""

MATCHES = ("matched by tool call id", "matched by signature", "matched by assistant text",
           "matched by tool call name and arguments")
"""How a request was matched, strongest evidence first."""


@dataclass
class Turn:
    """What one stretch of history (an assistant turn and the tool results after it) holds."""

    strings: str = ""
    """Every string, joined by NUL so that a match never spans two values."""
    values: set = field(default_factory=set)
    """Every string as a whole value (ids are matched whole: ``call_1`` is not ``call_10``)."""
    signatures: set = field(default_factory=set)
    calls: set = field(default_factory=set)
    """``(name, canonical JSON of the arguments)`` of every tool call written in it."""
    results: bool = False
    """It carries a tool result (the client ran a call of the answer it continues)."""


def continued_exchange(ex: Exchange, earlier: Sequence[Exchange]) -> tuple[Exchange | None, str]:
    """The exchange in ``earlier`` whose answer ``ex``'s request history continues, and how it was matched.

    ``earlier``: exchanges in arrival order (``ex`` itself may be among them; it is skipped).
    A candidate has a lower number than ``ex``, the same ``path``, has ended, was linted and its
    session holds at least one block. The history's turns are tried last first (module
    docstring); within a turn the evidence of ``MATCHES`` in that order, each over every candidate;
    among candidates showing the same evidence, the one whose own request history is the start of
    ``ex``'s (its conversation), else the most recent. ``how`` is one of ``MATCHES``, with ``" (an earlier turn)"`` when the
    match was followed forward from an earlier turn.

    Returns ``(None, "")`` when ``ex.body`` is not a JSON object or nothing matches (see
    :func:`claims_an_answer` for when that deserves Q007). Never raises on odd bodies or blocks;
    reads only ``n``, ``path``, ``end``, ``linted``, ``continues``, ``body`` and ``session.blocks``.
    """
    if not isinstance(ex.body, dict):
        return None, ""
    cands = _candidates(ex, earlier)
    if not cands:
        return None, ""
    answers: dict[int, _Answer] = {}  # read once per request, and only when asked
    for depth, turn in zip(range(_MAX_TURNS), history_turns(ex.body)):
        for how in MATCHES:
            shown = [e for e in cands if _answer(answers, e).shows(how, turn)]
            if not shown:
                continue
            # Equal answers (two agents asking alike): the one whose own request began this history.
            began = next((e for e in shown if _began(e.body, ex.body)), shown[0])
            found = _follow(began, depth, cands)
            if found is None:
                return None, ""
            return found, how + (" (an earlier turn)" if depth else "")
    return None, ""


def answers_in_question(ex: Exchange, open_: Sequence[Exchange], earlier: Sequence[Exchange]) -> list[Exchange]:
    """Of ``open_`` (exchanges before ``ex`` on its path, linted, still streaming), those whose
    answer ``ex``'s history may continue, judged by what each has streamed so far: all the client
    had read when it sent ``ex`` (the log takes calls in the order they were posted).

    Kept: an answer that shows any ``MATCHES`` evidence in one of the history's turns, or whose
    own request began this history (its conversation). The others (another agent's stream,
    whatever it has sent) are left out when the history's last turn shows an answer (an ended
    one in ``earlier`` or a kept one: ``continued_exchange`` stops at that turn), and when no turn
    shows any (nothing to follow forward from: the verdict is the one given now). All of
    ``open_`` when only an earlier turn shows one: the match may be followed forward along its
    conversation to any of them (a last turn mangled beyond recognition, or an answer that left
    no evidence). ``ex.body`` not a JSON object: all of ``open_``. Never raises on odd bodies or blocks."""
    body = ex.body
    if not isinstance(body, dict):  # not what the log asks about (it claims an answer): wait for them all
        return list(open_)
    turns = list(zip(range(_MAX_TURNS), history_turns(body)))
    answers: dict[int, _Answer] = {}

    def shown(e: Exchange, among) -> bool:
        answer = _answer(answers, e)
        return any(answer.shows(how, turn) for _, turn in among for how in MATCHES)

    kept = [e for e in open_ if shown(e, turns) or _began(e.body, body)]
    ended = _candidates(ex, earlier)

    def answered(among) -> bool:
        return any(shown(e, among) for e in kept) or any(shown(e, among) for e in ended)

    return list(open_) if not answered(turns[:1]) and answered(turns[1:]) else kept


def claims_an_answer(body: object) -> bool:
    """True when the request's history holds an assistant turn or a tool result: it continues an
    answer, so not finding that answer is worth saying (Q007). A first request (system prompt,
    user message) claims none."""
    return isinstance(body, dict) and next(history_turns(body), None) is not None


def history_turns(body: dict) -> Iterator[Turn]:
    """The history's assistant turns, last first, each with the tool results that follow it (read
    lazily: a request matched by its last turn reads no other).

    An item is part of an assistant turn when its ``role`` is ``assistant``/``model``, or it has
    no role and its ``type`` is an output item (Responses ``function_call``, ``reasoning``…; not a
    ``*_output``). Tool results with no assistant turn before them (a Responses request that sends
    only ``function_call_output`` after ``previous_response_id``) form one turn of their own.
    """
    budget = [_SCAN_BUDGET]
    for key in HISTORY_KEYS:
        items = body.get(key)
        if not isinstance(items, list):
            continue
        starts = [i for i, it in enumerate(items) if _is_assistant(it) and (i == 0 or not _is_assistant(items[i - 1]))]
        bounds = list(zip(starts, starts[1:] + [len(items)]))
        if bounds and all(_is_assistant(it) for it in items[bounds[-1][0]:]):
            bounds.pop()  # a final assistant message with nothing after it is a prefill the client wrote
        lead = items[: starts[0]] if starts else items
        for a, b in reversed(bounds):
            yield _read(items[a:b], budget)
        if not starts:
            tail = _read(lead, budget)
            if tail.results:
                yield tail


def history_strings(body: dict) -> str:
    """Every string under the request's ``HISTORY_KEYS``, joined by NUL so that a match never spans two values."""
    return _read([body.get(k) for k in HISTORY_KEYS], [_SCAN_BUDGET]).strings


# ---------------------------------------------------------------- helpers
class _Answer:
    """The evidence one streamed answer can leave in a history (computed once per request)."""

    def __init__(self, blocks) -> None:
        self.ids = [k for b in blocks for k in (b.id, b.call_id) if isinstance(k, str) and len(k) >= _MIN_ID]
        self.signatures = {s for b in blocks if (s := signature_bytes(b.signature)) is not None}
        self.texts = [b.content[:_TEXT_PREFIX] for b in blocks
                      if not b.tool and b.kind in ("text", "message") and len(b.content.strip()) >= _MIN_TEXT]
        self.calls = {(b.name, canon(b.input)) for b in blocks if b.tool and b.name and b.input is not None}

    def shows(self, how: str, turn: Turn) -> bool:
        if how == MATCHES[0]:
            return not turn.values.isdisjoint(self.ids)
        if how == MATCHES[1]:
            return bool(self.signatures & turn.signatures)
        if how == MATCHES[2]:
            return any(t in turn.strings for t in self.texts)
        return bool(self.calls) and self.calls <= turn.calls


def _candidates(ex: Exchange, earlier: Sequence[Exchange]) -> list[Exchange]:
    """The exchanges of ``earlier`` whose answer ``ex`` may be judged against, the latest first."""
    return [e for e in reversed(earlier) if e is not ex and e.n < ex.n and e.path == ex.path
            and e.done and e.linted and e.session is not None and e.session.blocks]


def _answer(answers: dict, e: Exchange) -> "_Answer":
    a = answers.get(e.n)
    if a is None:
        a = answers[e.n] = _Answer(e.held_session.blocks)
    return a


def _began(before: object, body: dict) -> bool:
    """True when the history of request ``before`` is the start of ``body``'s (same values, same order)."""
    if not isinstance(before, dict):
        return False
    for key in HISTORY_KEYS:
        a, b = before.get(key), body.get(key)
        if isinstance(a, list) and isinstance(b, list) and a and len(a) < len(b):
            return all(canon(x) == canon(y) for x, y in zip(a, b))
    return False


def _follow(found: Exchange, depth: int, cands: list[Exchange]) -> Exchange | None:
    """From the answer an earlier turn repeats, ``depth`` steps forward along its conversation."""
    for _ in range(depth):
        step = next((e for e in cands if e.continues == found.n), None)
        if step is None:
            return None
        found = step
    return found


def _is_assistant(item) -> bool:
    if not isinstance(item, dict):
        return False
    role = item.get("role")
    if role is not None:
        return role in _ASSISTANT_ROLES
    typ = item.get("type")
    return isinstance(typ, str) and not typ.endswith("_output") and typ not in ("message", "item_reference")


def _read(values: list, budget: list[int]) -> Turn:
    """Walk ``values`` (at most ``budget[0]`` of them, shared across calls) into a ``Turn``."""
    turn = Turn()
    out: list[str] = []
    stack = list(values)
    while stack and budget[0] > 0:
        v = stack.pop()
        budget[0] -= 1
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, dict):
            for k, sub in v.items():
                if k in _SIGNATURE_KEYS and (s := signature_bytes(sub)) is not None:
                    turn.signatures.add(s)
                if k in _RESULT_KEYS or (k == "role" and sub == "tool") or \
                        (k == "type" and isinstance(sub, str) and sub.endswith(("_output", "tool_result"))):
                    turn.results = True
            call = _call(v)
            if call is not None:
                turn.calls.add(call)
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    turn.strings = "\x00".join(out)
    turn.values = set(out)
    return turn


def _call(d: dict) -> tuple | None:
    """``(name, canonical arguments)`` when ``d`` is a written tool call (``functionCall``, ``tool_use``,
    Chat ``function``, Responses ``function_call``, Ollama ``function``), else None."""
    name = d.get("name")
    if not isinstance(name, str):
        return None
    for k in _ARGUMENT_KEYS:
        if k in d:
            ok, value = parse_args(d[k])
            return (name, canon(value)) if ok else None
    return None
