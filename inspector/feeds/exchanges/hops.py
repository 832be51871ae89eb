"""Pairing the two sides of a gateway: which upstream request served which client request.

``gateway`` runs two taps: *front* (clients → tap → gateway) and *back* (gateway → tap →
provider). Nothing in a translated request names the client request it came from (LiteLLM adds no
correlation header by default, notes/litellm.md §4), so exchanges are paired by **time** and by
**request content**:

- *time*: a back exchange belongs to a front one only if it started while the front one was open
  (from its request's arrival, less ``EARLY_S``, to the end of its answer);
- *content*: the share of the client request's strings (values of at least ``MIN_CHARS``
  characters: user text, system prompt, tool descriptions, tool-call ids) found among the upstream
  request's strings; translation moves them (a ``system`` message becomes a top-level ``system``,
  string content becomes text parts) but keeps them. A back exchange whose score is 0 is not this
  front's. Requests with no such strings on a side match by time only (said so).

Windows overlap: agents call at once, and an agent sends its next turn on ``[DONE]``, before the
gateway closes the previous stream (more so on a loaded machine), and that turn's upstream request
carries every string of the previous one (its history begins with them). So each back exchange
belongs to one front exchange, the one whose request it repeats best (:func:`similarity`, shared
strings over all strings of both: the next turn's request repeats the previous one only in part);
between equal ones (two agents asking alike) the answers decide (:func:`agreement`: the answer the
gateway relayed shows the upstream answer's tool ids and text); time only orders what is left.

Decisions (:func:`settle`, ``HopPair.status``):

- ``paired``: the best-scoring back exchange (the latest of equal ones: a retry that finally
  answered); the other back exchanges in the window with the same score are this pair's
  ``retries`` (the gateway sent the same request again); lower scores stay for other fronts;
- ``front only``: no back exchange matched (a cached answer, a request refused by the gateway, one
  that never reached upstream): ``reason`` says which it looks like;
- ``back only``: a back exchange no front one claims (the gateway's own traffic: a health check,
  a model-info refresh, a retry after the client left).

A pair is decided once final: the front exchange ended ``grace`` seconds ago and its matching back
exchanges ended (or ``GIVE_UP_S`` passed). Pure: no I/O, no clock of its own (``now`` is passed).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from inspector.feeds.exchanges.record import Exchange

EARLY_S = 0.05
"""Slack for clocks: a back request may be logged this much before its front request."""
MIN_CHARS = 8
"""Shorter strings (roles, types, ``auto``) say nothing about which request it is."""
GIVE_UP_S = 30.0
"""A front exchange whose matching back exchange has not ended this long after it is decided anyway."""
_SCAN_BUDGET = 100_000
_TEXT_KINDS = frozenset({"text", "message", "output_text", "content"})


@dataclass
class HopPair:
    """One decision: a front exchange, its back exchange, or one of them alone."""

    status: str
    """``paired``, ``front only`` or ``back only``."""
    front: Exchange | None
    back: Exchange | None
    matched_by: str | None = None
    """``time and request content`` or ``time only`` (None unless paired)."""
    score: float | None = None
    """Share of the client request's strings found upstream (0–1; None when not scored)."""
    reason: str | None = None
    """Why the exchange has no other side."""
    retries: list[Exchange] = field(default_factory=list)
    """Other back exchanges that matched the front one (the gateway retried)."""


def request_strings(body: object) -> set[str]:
    """Every string of at least ``MIN_CHARS`` characters in a request body (keys excluded)."""
    out: set[str] = set()
    stack = [body]
    budget = _SCAN_BUDGET
    while stack and budget > 0:
        budget -= 1
        v = stack.pop()
        if isinstance(v, str):
            if len(v.strip()) >= MIN_CHARS:
                out.add(v.strip())
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def content_score(front: Exchange, back: Exchange) -> float | None:
    """Share of ``front``'s request strings found in ``back``'s (None when either has none)."""
    return share(request_strings(front.body), request_strings(back.body))


def share(fs: set[str], bs: set[str]) -> float | None:
    """Share of the strings ``fs`` found in ``bs`` (0–1; None when either has none)."""
    if not fs or not bs:
        return None
    return len(fs & bs) / len(fs)


def similarity(fs: set[str], bs: set[str]) -> float | None:
    """Shared strings over all strings of both requests (0–1; None when either has none)."""
    if not fs or not bs:
        return None
    shared = len(fs & bs)
    return shared / (len(fs) + len(bs) - shared)


def answer_marks(ex: Exchange) -> tuple[str, frozenset[str]] | None:
    """What a streamed answer shows so far: its text (text blocks joined) and its tool-call ids; None
    when there is no stream to read (not streamed, released)."""
    s = ex.session
    if s is None or getattr(s, "json_body", False):
        return None
    text = "".join(b.content for b in s.blocks if not b.tool and b.kind in _TEXT_KINDS)
    ids = frozenset(k for b in s.blocks if b.tool for k in (b.id, b.call_id) if isinstance(k, str) and k)
    return text, ids


def agreement(front: tuple[str, frozenset[str]] | None, back: tuple[str, frozenset[str]] | None) -> int:
    """1: the answers show a tool id in common, or one's text begins the other's (a stream still
    running shows a prefix); -1: both show ids and none in common, or texts that part; 0: nothing to tell."""
    if front is None or back is None:
        return 0
    (ft, fi), (bt, bi) = front, back
    if fi and bi:
        if fi & bi:
            return 1
        return -1
    if ft and bt:
        return 1 if ft.startswith(bt) or bt.startswith(ft) else -1
    return 0


def end_wall(ex: Exchange) -> float | None:
    """Wall-clock time the exchange ended (None while it is open)."""
    if ex.end is None:
        return None
    return ex.started_wall + (ex.end.t or 0.0)


def _front_reason(f: Exchange) -> str:
    if f.status is None:
        return "the gateway never answered, and no upstream request matched"
    if f.status >= 400:
        return (f"the gateway answered HTTP {f.status} without a matching upstream request (it refused the "
                "request: a bad key, an unknown model, a rate limit)")
    return "no upstream request matched while it was open: a cached answer, or an answer the gateway made itself"


def _in_window(f: Exchange, b: Exchange) -> bool:
    f_end = end_wall(f)
    return f.started_wall - EARLY_S <= b.started_wall <= (f_end if f_end is not None else float("inf"))


def _owned(fronts: Sequence[Exchange], backs: Sequence[Exchange]) -> list[list[tuple[Exchange, float | None]]]:
    """For each front exchange, the back exchanges it keeps with their content scores (module docstring):
    each back goes to the front in whose window it started that it repeats best (content score above 0,
    or no strings to score), then whose answer agrees with its own, then holding the fewest (two agents
    asking alike, in arrival order), then the earliest. A front keeps only its best-scoring ones (the
    same request sent again: a retry); the others are offered to their next best front, and so on
    (each offer refused once: at most fronts × backs rounds)."""
    strings = {id(e): request_strings(e.body) for e in (*fronts, *backs)}
    answers: dict[int, tuple[str, frozenset[str]] | None] = {}

    def marks(e: Exchange) -> tuple[str, frozenset[str]] | None:
        if id(e) not in answers:
            answers[id(e)] = answer_marks(e)
        return answers[id(e)]

    # per back: (similarity, agreement, front index, score)
    candidates: list[list[tuple[float, int, int, float | None]]] = []
    for b in backs:
        bs, cands = strings[id(b)], []
        for i, f in enumerate(fronts):
            if not _in_window(f, b):
                continue
            fs = strings[id(f)]
            score = share(fs, bs)
            if score is None or score > 0:
                cands.append((similarity(fs, bs) or 0.0, 0, i, score))
        if len(cands) > 1:  # the answers are read only where there is a choice
            cands = [(sim, agreement(marks(fronts[i]), marks(b)), i, score) for sim, _, i, score in cands]
        candidates.append(cands)
    refused: set[tuple[int, int]] = set()  # (back index, front index)
    while True:
        owned: list[list[tuple[int, float | None]]] = [[] for _ in fronts]
        for j, cands in enumerate(candidates):
            offers = [(sim, agree, -len(owned[i]), -i, score) for sim, agree, i, score in cands if (j, i) not in refused]
            if offers:
                *_, minus_i, score = max(offers)
                owned[-minus_i].append((j, score))
        refusals = set()
        for i, mine in enumerate(owned):
            top = max((s for _, s in mine if s is not None), default=None)
            refusals |= {(j, i) for j, s in mine if s != top}
        if not refusals:
            return [[(backs[j], s) for j, s in mine] for mine in owned]
        refused |= refusals


def settle(fronts: Sequence[Exchange], backs: Sequence[Exchange], now: float, *, grace: float = 0.5) -> list[HopPair]:
    """The pairs that can be decided now among undecided ``fronts`` and ``backs`` (each in arrival
    order; ``now`` on the ``started_wall`` clock). Exchanges not in the result are decided later."""
    pool = list(backs)
    out: list[HopPair] = []
    open_since: list[float] = []
    for f, matching in zip(fronts, _owned(fronts, backs)):
        f_end = end_wall(f)
        top = max((s for _, s in matching if s is not None), default=None)
        for b, _ in matching:
            pool.remove(b)  # this front's, decided or not
        if f_end is None:
            open_since.append(f.started_wall)
            continue
        waiting = [b for b, _ in matching if not b.done]
        # The grace also for a front already matched: a tap hands its exchanges to the log through
        # its inspection queue, so a retry the gateway sent may appear in the back log after the
        # front one ended; decided at once, the pair would miss it and leave it to the next front.
        if (waiting or now - f_end < grace) and now - f_end < GIVE_UP_S:
            open_since.append(f.started_wall)
            continue
        if not matching:
            out.append(HopPair("front only", f, None, reason=_front_reason(f)))
            continue
        best = max(matching, key=lambda bs: bs[0].started_wall)  # the last attempt answered
        how = ("time and request content" if top is not None else
               "time only (neither request carries comparable strings)")
        retries = [b for b, _ in matching if b is not best[0]]
        out.append(HopPair("paired", f, best[0], matched_by=how, score=best[1], retries=retries))
    earliest_open = min(open_since, default=float("inf"))
    for b in pool:
        b_end = end_wall(b)
        if b_end is None or now - b_end < grace or b.started_wall >= earliest_open - EARLY_S:
            continue
        out.append(HopPair("back only", None, b, reason="no client request with matching content was open: the "
                                                        "gateway's own request (a health check, a model-info "
                                                        "refresh) or a retry after the client left"))
    return out
