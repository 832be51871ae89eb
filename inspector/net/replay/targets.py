"""Faults on chosen turns of a recorded conversation (``serve --match DIR --mutate NAME[=VALUE]@TARGET``).

``TARGET`` is a turn number (1-based, ``match.turn_of``: every recording of that turn, in any
conversation of the folder) or an exchange file name (``003-POST-v1-chat-completions`` or with its
``.jsonl``). A mutation without ``@`` breaks every recording it applies to. Only the targeted
recordings change: every other request is answered as recorded.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from inspector.net.conform.mutate import MutateError, Spec, apply, parse_specs
from inspector.net.replay.recordings import Recording
from inspector.net.serve import Served
from inspector.providers.mutations import NotApplicable


@dataclass(frozen=True, slots=True)
class Targeted:
    spec: Spec
    target: int | str | None
    """A turn (int), a file name (str), or None: every recording."""
    text: str

    def hits(self, rec: Recording) -> bool:
        if self.target is None:
            return True
        if isinstance(self.target, int):
            return rec.turn == self.target
        wanted = {self.target, Path(self.target).stem}
        return rec.name in wanted or Path(rec.served.source).name in wanted


def parse_targeted(text: str) -> list[Targeted]:
    """``"close-early@2,stall=3@004-POST-v1-messages"`` -> targeted specs. Raises ``MutateError``."""
    out: list[Targeted] = []
    for raw in (p.strip() for p in text.split(",")):
        if not raw:
            continue
        what, at, where = raw.partition("@")
        target: int | str | None = None
        if at:
            where = where.strip()
            if not where:
                raise MutateError(f"--mutate {raw}: give a turn (@2) or an exchange file name after @")
            if where.isdigit():
                target = int(where)
                if target < 1:
                    raise MutateError(f"--mutate {raw}: turns count from 1")
            else:
                target = where
        for spec in parse_specs(what):
            out.append(Targeted(spec, target, raw))
    if not out:
        raise MutateError("--mutate needs at least one mutation name")
    return out


def mutate_recordings(recordings: list[Recording], targeted: list[Targeted]) -> tuple[dict[str, Served], list[str]]:
    """``({recording name: the mutated capture to serve instead}, notes)``. Raises ``MutateError``
    when a target names no recording, a targeted mutation does not apply to the recording it names,
    two mutations fall on one recording, or an untargeted mutation applies to none."""
    out: dict[str, Served] = {}
    notes: list[str] = []
    for t in targeted:
        hit = [r for r in recordings if t.hits(r)]
        if not hit:
            turns = sorted({r.turn for r in recordings})
            raise MutateError(f"--mutate {t.text}: no recording is "
                              + (f"turn {t.target} (turns here: {', '.join(map(str, turns)) or 'none'})"
                                 if isinstance(t.target, int) else f"named {t.target}"))
        applied = 0
        for r in hit:
            try:
                mc = apply(r.name, r.served.source, r.served.capture, t.spec)
            except NotApplicable as e:
                if t.target is not None:
                    raise MutateError(f"--mutate {t.text}: {t.spec.name} does not apply to {r.name} ({e})") from None
                continue
            if r.name in out:
                raise MutateError(f"--mutate {t.text}: {r.name} already carries another mutation; one per turn")
            s = r.served
            where = f": {mc.where}" if mc.where else ""
            out[r.name] = Served(mc.name, s.source, mc.capture, s.status, s.headers, mc.pauses,
                                 f"mutation {t.spec} on turn {r.turn}{where}")
            applied += 1
        if not applied:
            raise MutateError(f"--mutate {t.text}: applies to none of the recordings")
        notes += [f"{r.name} (turn {r.turn}): {out[r.name].note}" for r in hit if r.name in out
                  and out[r.name].note.startswith(f"mutation {t.spec} ")]
    return out, notes
