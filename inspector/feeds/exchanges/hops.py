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
    fs, bs = request_strings(front.body), request_strings(back.body)
    if not fs or not bs:
        return None
    return len(fs & bs) / len(fs)


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


def settle(fronts: Sequence[Exchange], backs: Sequence[Exchange], now: float, *, grace: float = 0.5) -> list[HopPair]:
    """The pairs that can be decided now among undecided ``fronts`` and ``backs`` (each in arrival
    order; ``now`` on the ``started_wall`` clock). Exchanges not in the result are decided later."""
    pool = list(backs)
    out: list[HopPair] = []
    open_since: list[float] = []
    for f in fronts:
        f_end = end_wall(f)
        hi = f_end if f_end is not None else float("inf")
        window = [b for b in pool if f.started_wall - EARLY_S <= b.started_wall <= hi]
        scored = [(b, content_score(f, b)) for b in window]
        matching = [(b, s) for b, s in scored if s is None or s > 0]
        top = max((s for _, s in matching if s is not None), default=None)
        # the front's own requests: the best content match (the same request sent again is a retry)
        matching = [(b, s) for b, s in matching if s == top]
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
