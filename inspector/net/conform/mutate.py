"""Captures turned into mutated streams (``serve --mutate NAME[=VALUE][,…]``).

Each capture's dialect is detected (``check``'s own pipeline), its provider's mutations
(``inspector.providers.conformers.CONFORMANCE``) looked up by name and applied to its framed events. A
:class:`MutatedCapture` keeps the mutated capture (what is sent), the stream a correct client
assembles (``truth``), and where the fault sits. Errors are one line (``MutateError``).
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from inspector.feeds.run import run_capture
from inspector.net.serve import Served
from inspector.model.capture import Capture
from inspector.providers import PROVIDERS, provider_for_dialect
from inspector.providers.conformers import CONFORMANCE
from inspector.providers.conformance import Conformance
from inspector.providers.mutations import Mutated, Mutation, NotApplicable, Stream, render, stream_of
from inspector.session.shapes import wrong_type_fields


class MutateError(Exception):
    """A ``--mutate`` spec that names nothing known, or a value out of range (one line)."""


@dataclass(frozen=True, slots=True)
class Spec:
    """One ``NAME[=VALUE]`` of ``--mutate``."""

    name: str
    value: float | None = None

    def __str__(self) -> str:
        return self.name if self.value is None else f"{self.name}={self.value:g}"


def all_names() -> list[str]:
    """Every mutation name, over all providers, in first-seen order."""
    return list(dict.fromkeys(mu.name for c in CONFORMANCE.values() for mu in c.mutations))


def parse_specs(text: str) -> list[Spec]:
    """``"drop-index,stall=3"`` -> specs; ``all`` means every name. Raises ``MutateError``."""
    out: list[Spec] = []
    known = all_names()
    for raw in (p.strip() for p in text.split(",")):
        if not raw:
            continue
        name, _, value = raw.partition("=")
        name = name.strip()
        if name == "all":
            out += [Spec(n) for n in known]
            continue
        if name not in known:
            raise MutateError(f"unknown mutation {name!r} (serve --mutations lists them)")
        v = None
        if value:
            try:
                v = float(value)
            except ValueError:
                raise MutateError(f"--mutate {raw}: the value must be a number") from None
            takes = [mu for c in CONFORMANCE.values() if (mu := c.mutation(name)) is not None and mu.param]
            if not takes:
                raise MutateError(f"--mutate {raw}: {name} takes no value")
            lo, hi = takes[0].param_range
            if not lo <= v <= hi:
                raise MutateError(f"--mutate {raw}: {takes[0].param} must be between {lo:g} and {hi:g}")
        out.append(Spec(name, v))
    if not out:
        raise MutateError("--mutate needs at least one mutation name")
    return list(dict.fromkeys(out))


UNMUTABLE = {"S018": "values of the wrong JSON type", "S019": "JSON nested too deep"}
"""Findings that make a capture no base for a mutation: mutations rewrite events the dialect's way and
take each field to be of the type the dialect sends there (RULES.md S018, S019)."""


def conformance_of(cap: Capture) -> tuple[str | None, Conformance | None]:
    """``(provider name, its Conformance)`` for the capture's dialect, or ``(None, None)``. Raises
    ``NotApplicable`` for a capture whose events a mutation cannot rewrite (``UNMUTABLE``)."""
    session = run_capture(cap)
    bad = next((f for f in session.findings if f.code in UNMUTABLE), None)
    if bad is not None:
        raise NotApplicable(f"its events hold {UNMUTABLE[bad.code]} ({bad.code}): a mutation needs a well-formed stream")
    provider = provider_for_dialect(session.dialect_name)
    if provider is None:
        return None, None
    return provider.name, CONFORMANCE.get(provider.name)


@dataclass(slots=True)
class MutatedCapture:
    """One capture with one mutation applied."""

    name: str
    """``STEM--MUTATION``: the path prefix that picks it in ``serve``."""
    source: str
    mutation: Mutation
    spec: Spec
    provider: str
    capture: Capture
    """What is sent (``capture.chunks`` and ``capture.end``), with the original's request and response head."""
    truth: Capture
    """What a correct client assembles (the original, or the original plus what the mutation added)."""
    pauses: dict[int, float]
    where: str


def apply(name: str, source: str, cap: Capture, spec: Spec) -> MutatedCapture:
    """Apply ``spec`` to ``cap``. Raises ``NotApplicable`` (one line) when the capture's dialect has no
    such mutation, or the capture has nothing it can break."""
    status = (cap.response or {}).get("status")
    if isinstance(status, int) and status >= 400:
        raise NotApplicable(f"an HTTP {status} answer, not a stream")
    headers = (cap.response or {}).get("headers") or {}
    ctype = next((str(v).lower() for k, v in headers.items() if str(k).lower() == "content-type"), "")
    if ctype.startswith("application/json"):
        raise NotApplicable("a whole JSON answer (application/json), not a stream")
    provider, conf = conformance_of(cap)
    if provider is None or conf is None:
        raise NotApplicable("no dialect recognised (not a stream)")
    mutation = conf.mutation(spec.name)
    if mutation is None:
        raise NotApplicable(f"{spec.name} is not a mutation of the {PROVIDERS[provider].dialect_name} dialect")
    stream = stream_of(cap)
    if not any(e.data is not None for e in stream.items):
        raise NotApplicable("no events in this capture")
    # A dialect may read past a field of the wrong type (it keeps "" for a list ``partial_json``); a
    # mutation rewrites that field as the dialect sends it and cannot.
    shaped = next((w for e in stream.items if e.data is not None for w in wrong_type_fields(e.json(), 1, objects=True)), None)
    if shaped is not None:
        raise NotApplicable(f"an event's {shaped} (a value of the wrong JSON type): a mutation needs a well-formed stream")
    result: Mutated = mutation.apply(stream, spec.value)
    request = cap.request
    if result.request is not None:
        request = {**(cap.request or {"method": "POST", "url": "", "headers": {}}), "body": result.request}
    sent = Capture(chunks=result.chunks, request=request, response=cap.response, end=result.end,
                   source_format=cap.source_format, request_relative=True)
    truth = _capture(cap, result.truth) if result.truth is not None else cap
    return MutatedCapture(f"{name}--{spec.name}", source, mutation, spec, provider, sent, truth,
                          dict(result.pauses), result.where)


def _capture(cap: Capture, stream: Stream) -> Capture:
    return Capture(chunks=render(stream), request=cap.request, response=cap.response, end=stream.end,
                   source_format=cap.source_format, request_relative=True)


def served_variants(served: list[Served], specs: list[Spec]) -> tuple[list[Served], list[MutatedCapture], list[str]]:
    """Every capture under every mutation, mutation by mutation, in the order given (what ``serve
    --mutate`` answers in rotation). A capture a mutation cannot break is served unchanged in its
    place. Returns ``(to serve, the mutated ones, one note per capture left unchanged)``; raises
    ``MutateError`` when a mutation breaks none of the captures."""
    out: list[Served] = []
    done: list[MutatedCapture] = []
    notes: list[str] = []
    for spec in specs:
        hits = 0
        for s in served:
            try:
                mc = apply(s.name, s.source, s.capture, spec)
            except NotApplicable as e:
                notes.append(f"{s.name}: {spec} does not apply ({e}); served unchanged")
                out.append(s)
                continue
            hits += 1
            done.append(mc)
            out.append(Served(mc.name, s.source, mc.capture, s.status, s.headers, mc.pauses,
                              f"mutation {spec}: {mc.where}" if mc.where else f"mutation {spec}"))
        if not hits:
            raise MutateError(f"mutation {spec} applies to none of the captures")
    names: set[str] = set()
    for k, s in enumerate(out):  # one capture may appear once per mutation: keep path prefixes unique
        base, n = s.name, 2
        while s.name in names:
            s = out[k] = replace(s, name=f"{base}-{n}")
            n += 1
        names.add(s.name)
    return out, done, notes


__all__ = ["served_variants", "MutateError", "MutatedCapture", "NotApplicable", "Spec", "all_names", "apply", "conformance_of",
           "parse_specs"]
