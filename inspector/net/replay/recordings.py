"""A folder of recorded exchanges as an index a request is looked up in (``serve --match DIR``).

Each file of ``DIR`` (sorted by name: ``proxy --record`` numbers them in recording order) that loads
as a capture and holds its request (method, URL, JSON body) is one :class:`Recording`. Files that
do not load, or carry no request, are skipped with one note each. ``Index.find`` answers with the
recording a request matches (``inspector.net.replay.match``), or the closest one and where the
request departs from it.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path

from inspector.capture.load import CaptureError, load_path
from inspector.capture.redact import scrub_value
from inspector.model.capture import Capture
from inspector.model.pathnames import path_name
from inspector.model.urls import split_url
from inspector.net.replay.match import Departure, Ignore, departure, paths_agree, shared, turn_of
from inspector.net.serve import Served, load_served
from inspector.providers.endpoints import api_of


@dataclass(slots=True)
class Recording:
    """One recorded exchange ready to match and serve."""

    served: Served
    method: str
    path: str
    body: object
    """The recorded request body as stored (redacted), minus the ignored paths."""
    api: str | None
    """The dialect of the request's endpoint (``api_of(path)``)."""
    turn: int

    @property
    def name(self) -> str:
        return self.served.name


@dataclass(slots=True)
class Hit:
    recording: Recording


@dataclass(slots=True)
class Miss:
    closest: Recording | None
    why: str
    """``path: /v1/responses vs /v1/chat/completions`` or the body departure."""
    departure: Departure | None = None


def recording_of(served: Served, ignore: Ignore) -> Recording | None:
    """The recording of a served capture, or None when the capture holds no request."""
    req = served.capture.request
    if not isinstance(req, dict) or not req.get("url"):
        return None
    path = split_url(str(req["url"])).path or "/"
    body = req.get("body")
    return Recording(served, str(req.get("method") or "POST").upper(), path, ignore.strip(body), api_of(path),
                     turn_of(body))


def load_folder(folder: str | Path, ignore: Ignore, *, max_bytes: int | None = None
                ) -> tuple[list[Recording], list[str]]:
    """``(recordings, notes)`` of the files in ``folder``. Raises ``CaptureError`` when ``folder``
    is not a readable directory."""
    p = Path(folder)
    if not p.is_dir():
        raise CaptureError(f"{path_name(folder)}: --match needs a folder of recordings (proxy --record DIR writes one)")
    try:
        files = sorted(f for f in p.iterdir() if f.is_file() and not f.name.startswith("."))
    except OSError as e:
        raise CaptureError(f"{path_name(folder)}: cannot list: {e.strerror or e}") from None
    out: list[Recording] = []
    notes: list[str] = []
    for f in files:
        try:
            cap = load_path(f, max_bytes=max_bytes)
        except CaptureError as e:
            notes.append(f"{path_name(f.name)}: skipped ({e})")
            continue
        rec = recording_of(load_served([(path_name(f.stem), cap)])[0], ignore)  # its name is sent in a miss's answer
        if rec is None:
            notes.append(f"{path_name(f.name)}: skipped (no request recorded with it)")
            continue
        rec.served.source = path_name(f)
        out.append(rec)
    return out, notes


@dataclass
class Index:
    """The recordings a request is looked up in; new ones may be added while serving."""

    recordings: list[Recording]
    ignore: Ignore
    _cycles: dict = field(default_factory=dict)

    def add(self, capture: Capture, name: str, source: str) -> Recording | None:
        """Add a capture recorded while serving (``--record-missing``); None when it holds no request."""
        taken = {r.name for r in self.recordings}
        base, k = name, 2
        while name in taken:
            name, k = f"{base}-{k}", k + 1
        rec = recording_of(load_served([(name, capture)])[0], self.ignore)
        if rec is not None:
            rec.served.source = source
            self.recordings.append(rec)
            self._cycles.clear()
        return rec

    def find(self, method: str, path: str, body) -> Hit | Miss:
        """The recording answering ``method path`` with ``body`` (parsed JSON or None). Several
        recordings of one request (a retry recorded twice) answer in turn, in file order."""
        got = self.ignore.strip(scrub_value(body))
        same = [r for r in self.recordings
                if r.method == method.upper() and paths_agree(r.path, path) and departure(got, r.body) is None]
        if same:
            key = tuple(r.name for r in same)
            cycle = self._cycles.setdefault(key, itertools.cycle(same))
            return Hit(next(cycle))
        if not self.recordings:
            return Miss(None, "the folder holds no recording")

        def closeness(r: Recording):
            return (paths_agree(r.path, path), r.method == method.upper(), shared(got, r.body))

        best = max(self.recordings, key=closeness)
        if best.method != method.upper():
            return Miss(best, f"method: {method.upper()} vs {best.method}")
        if not paths_agree(best.path, path):
            return Miss(best, f"path: {path} vs {best.path}")
        d = departure(got, best.body)
        return Miss(best, str(d), d)
