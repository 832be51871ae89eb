"""Which files a command reads: ``CAPTURE`` arguments expanded (``-``, folders, globs).

``check`` takes any mix of: ``-`` (the capture on standard input), a file, a folder (walked
recursively, in name order, hidden files and folders skipped) and a glob (``'runs/**/*.jsonl'``,
for shells that pass it unexpanded, e.g. quoted or on Windows). The order is the arguments'
order, each folder or glob sorted, so the output order never depends on the file system.

Files named one by one are *explicit*: a file that is no stream capture is an error (exit 2).
Files found by walking a folder or matching a glob are not: one that holds no stream at all (a
README beside the captures, a ``.expect.json`` file) is skipped, and the run says so in one line
(:func:`skipped_line`); a run that found no capture at all is an error (exit 2), so a command
pointed at the wrong folder never passes.
"""
from __future__ import annotations

import os

from inspector.capture.errors import CaptureError, EmptyCapture
from inspector.capture.load import har_entries, load_all
from inspector.capture.memory import MemoryLimitReached
from inspector.feeds.run import not_a_stream, run_capture
from inspector.model.capture import Capture
from inspector.model.pathnames import path_name
from inspector.session.session import Session
from inspector.model.record import FrozenRecord

STDIN = "-"
GLOB_CHARS = frozenset("*?[")


class Input(FrozenRecord):
    """One capture to read."""

    __slots__ = ("name", "path", "explicit", "entries")

    name: str
    """What reports call it: the path as given or found, or ``<stdin>``."""
    path: str | None
    """The file to read; None for standard input."""
    explicit: bool
    """Named on the command line (not found by walking a folder or matching a glob)."""
    entries: tuple[int, ...] | None
    """The streamed entries of a HAR to read, each a capture ``name#N`` (``check --entry all``), or None:
    the file itself."""

    def __init__(self, name: str, path: str | None, explicit: bool, entries: tuple[int, ...] | None = None) -> None:
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "explicit", explicit)
        object.__setattr__(self, "entries", entries)

    def entry(self, n: int) -> Input:
        """Entry ``n`` of this HAR as an input of its own, ``name#N`` (how a many-stream file names one of
        its streams: ``inspector.capture.load.split_entry``)."""
        return Input(f"{self.name}#{n}", f"{self.path}#{n}", self.explicit)


class InputError(ValueError):
    """An argument that names nothing to read; ``str(e)`` is the one-line message."""


def _walk(root: str) -> list[str]:
    """Every regular file under ``root``, hidden entries skipped, sorted by path."""
    found = []
    for folder, dirs, files in os.walk(root, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        found += [os.path.join(folder, f) for f in files if not f.startswith(".")]
    from pathlib import Path  # only for a folder: pathlib brings urllib.parse and ipaddress (start-up)
    return sorted((p for p in found if os.path.isfile(p)), key=lambda p: Path(p).parts)


def expand(args: list[str]) -> list[Input]:
    """The captures ``args`` name, in order. Raises ``InputError`` for ``-`` given twice, a glob that
    matches nothing, or a folder with no file in it."""
    out: list[Input] = []
    seen_stdin = False
    for arg in args:
        if arg == STDIN:
            if seen_stdin:
                raise InputError("'-' (standard input) can be read only once")
            seen_stdin = True
            out.append(Input("<stdin>", None, True))
        elif os.path.isdir(arg):
            files = _walk(arg)
            if not files:
                raise InputError(f"{path_name(arg)}: no file in this folder")
            out += [Input(path_name(p), p, False) for p in files]
        elif not os.path.exists(arg) and GLOB_CHARS & set(arg):
            import glob  # only for a pattern (start-up)
            matches = sorted(glob.glob(arg, recursive=True))
            files = []
            for m in matches:
                files += _walk(m) if os.path.isdir(m) else [m]
            if not files:
                raise InputError(f"{path_name(arg)}: no file matches this pattern")
            out += [Input(path_name(p), p, False) for p in files]
        else:
            out.append(Input(path_name(arg), arg, True))
    return out


def streams(inp: Input, *, entry: int | None = None, max_bytes: int | None = None, dialect: str | None = None,
            stall_s: float = 10.0, keep_audio: bool = False) -> list[tuple[str, Capture, Session]]:
    """Every stream of file ``inp`` as ``(name, capture, closed session)`` (a cassette holds several,
    ``file#N``), each detected as ``check`` detects it (``not_a_stream``). A file that a walk or a
    glob found and that holds no stream capture (no byte, nothing any provider streams) gives
    ``[]``: skip it. Raises ``CaptureError`` (one line) for standard input, an unreadable file, or a file named on
    its own that is no stream capture."""
    if inp.path is None:
        raise CaptureError(f"{inp.name}: this command reads capture files, not standard input")
    try:
        found, _ = load_all(inp.path, entry=entry, max_bytes=max_bytes, keep_audio=keep_audio)
    except EmptyCapture:
        if inp.explicit:
            raise
        return []
    out = []
    for name, cap in found:
        try:
            session = run_capture(cap, dialect=dialect, stall_s=stall_s)
        except MemoryLimitReached as e:
            raise e.named(name) from None
        why = not_a_stream(session, cap)
        if why is None:
            out.append((name, cap, session))
        elif inp.explicit:
            raise CaptureError(f"{name}: not a stream capture: {why}")
    return out


SKIPPED_SHOWN = 3
"""How many skipped files :func:`skipped_line` names before "and N more"."""


def skipped_line(names: list[str]) -> str | None:
    """One line for every file a walk skipped (None when none was):
    ``skipped 13 files that hold no stream capture: a.md, b.expect.json, c.json and 10 more``."""
    if not names:
        return None
    shown = ", ".join(names[:SKIPPED_SHOWN])
    more = f" and {len(names) - SKIPPED_SHOWN} more" if len(names) > SKIPPED_SHOWN else ""
    return f"skipped {len(names)} file{'s' if len(names) != 1 else ''} that hold{'s' if len(names) == 1 else ''} " \
           f"no stream capture: {shown}{more} (name one to see why)"


def no_capture_line(args: list[str], skipped: int) -> str:
    """The error when nothing read was a capture: ``no stream capture in runs/ (13 files skipped)``."""
    return f"no stream capture in {' '.join(args)} ({skipped} file{'s' if skipped != 1 else ''} skipped)"


def each_entry(inputs: list[Input], *, max_bytes: int | None = None, parts: int = 1) -> list[Input]:
    """``inputs`` with every HAR file replaced by its streamed entries (``check --entry all``), cut into
    ``parts`` inputs of consecutive entries (one per worker process: each reads and parses the file
    once, whatever its number of entries); other inputs, and files that cannot be read (their check
    says why), stay as they are."""
    out = []
    for inp in inputs:
        try:
            entries = har_entries(inp.path, max_bytes=max_bytes) if inp.path is not None else None
        except CaptureError:
            entries = None
        if not entries:
            out.append(inp)
            continue
        numbers = [i for i, _ in entries]
        size = -(-len(numbers) // max(1, parts))
        out += [Input(inp.name, inp.path, inp.explicit, tuple(numbers[k:k + size]))
                for k in range(0, len(numbers), size)]
    return out


def recorded_start(path: str | os.PathLike | None, cap: Capture) -> float | None:
    """When ``cap``'s request was sent (Unix seconds), as well as its file can tell: the file's last
    write (a recorder writes the end line last) minus the recorded duration; None without a file."""
    if path is None:
        return None
    try:
        mtime = os.stat(path).st_mtime
    except OSError:
        return None
    last = cap.end.t if cap.end is not None and cap.end.t is not None else None
    if last is None:
        times = [c.t for c in cap.chunks if c.t is not None]
        last = times[-1] if times else 0.0
    return mtime - (last if cap.request_relative else 0.0)
