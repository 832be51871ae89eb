"""How much memory reading a capture may take: a stranger's file must never exhaust the machine.

Why it exists: inspecting keeps every event, block and finding as Python objects. A capture of
large events costs about 3 bytes of memory per byte read, but one of tiny events costs far more
(3-byte NDJSON lines ~125, 9-byte SSE events ~42, 2-byte comment lines pasted in prose ~98, a block
opened and closed in 55 bytes ~22: ``bench/bench_memory.py --shapes``), so the 1 GiB size limit
alone let one file take 100 GiB. The commands that read capture files (``check``, ``replay``,
``export``) set a limit on the process's resident memory (``--max-memory``, default
:data:`DEFAULT_LIMIT`), of which reading may take :data:`READ_SHARE` (the report, page or TUI made
from what was read takes the rest): the session checks it as it frames the body (every
:data:`CHECK_BYTES`), the native reader every :data:`CHECK_RECORDS` records, and the steps that build
much at once (a pasted body split into lines, a HAR or cassette parsed, a HAR export made) estimate it
first (:func:`reserve`); over it, :class:`MemoryLimitReached` (a ``CaptureError``: one line, exit 2)
ends the read before the machine swaps. With no limit set (``proxy``, ``live``, the library) nothing
is checked: their streams have their own bounds (``--max-bytes``, ``--keep-bytes``).

The figure is resident memory as the kernel counts it (``/proc/self/statm``; elsewhere the peak,
``ru_maxrss``), so it covers whatever holds the memory: events, blocks, the TUI's widgets.
"""
from __future__ import annotations

import os
from contextlib import contextmanager

from inspector.capture.errors import CaptureError
from inspector.model.sizes import human_size
from inspector.model.static import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

try:
    import resource  # Unix: the peak RSS where /proc is missing (macOS)
except ImportError:  # Windows: no reading, no check
    resource = None  # type: ignore[assignment]  # the module or None, checked before use

__all__ = ["CHECK_BYTES", "CHECK_RECORDS", "DEFAULT_LIMIT", "MemoryLimitReached", "check", "limit", "limited",
           "limited_to", "reserve", "reserve_lines", "reserve_parse", "rss", "set_limit"]

CEILING = 4 << 30
"""The default limit on a machine with 8 GiB or more (4 GiB)."""
READ_SHARE = 0.5
"""The part of the limit reading may take: the session and what it keeps. The rest is for what is made
from it afterwards, the report, the page, the TUI's rows (up to ~95 % more than what reading took,
measured: many blocks in a JSON report, ``bench/bench_memory.py --shapes``; a HAR export, which takes
more, is estimated before it is made: :func:`reserve` with ``whole``)."""
READ_PERCENT = round(READ_SHARE * 100)
CHECK_BYTES = 1 << 18
"""Body bytes a session frames between two checks (256 KiB: at the worst ~120 bytes of memory per
byte, 30 MB past the limit at most; a check costs a few µs)."""
CHECK_RECORDS = 1 << 14
"""Native capture records read between two checks."""


def _physical() -> int | None:
    """This machine's memory, or the container's limit when lower (cgroup v2); None unknown."""
    try:
        total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):
        return None
    try:
        with open("/sys/fs/cgroup/memory.max", "rb") as f:
            cap = f.read().strip()
        if cap.isdigit():
            total = min(total, int(cap))
    except OSError:
        pass
    return total if total > 0 else None


def _default() -> int:
    ram = _physical()
    return CEILING if ram is None else min(CEILING, ram // 2)


DEFAULT_LIMIT = _default()
"""4 GiB, or half this machine's memory (or its container's) when that is less."""

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
_limit: int | None = None


class MemoryLimitReached(CaptureError):
    """Reading a capture took the process over its reading share of the memory limit. ``str(e)``
    names the capture once :meth:`named` gave its name (the session that finds it over does not know it)."""

    def __init__(self, limit: int, used: int, name: str | None = None, *, needed: int | None = None,
                 doing: str = "to read it", whole: bool = False) -> None:
        if needed is None:
            why = f"{human_size(used)} in use with part of it read"
        else:
            why = f"{human_size(used)} in use and about {human_size(needed)} more {doing}"
        if whole:
            why = f"over the memory limit: {why}, more than the {human_size(limit)} limit (--max-memory raises it)"
        else:
            why = (f"over the memory limit: {why}, more than reading may take ({READ_PERCENT} % of the "
                   f"{human_size(limit)} limit; --max-memory raises it)")
        super().__init__(why if name is None else f"{name}: {why}")
        self.limit = limit
        self.used = used
        self.needed = needed
        self.name = name
        self.doing = doing
        self.whole = whole

    def named(self, name: str) -> MemoryLimitReached:
        """This error about the capture ``name`` (itself when it names one already)."""
        if self.name is not None:
            return self
        return MemoryLimitReached(self.limit, self.used, name, needed=self.needed, doing=self.doing,
                                  whole=self.whole)


def set_limit(n: int | None) -> None:
    """Limit this process's resident memory while captures are read to ``n`` bytes (None: no check)."""
    global _limit
    _limit = n


@contextmanager
def limited(n: int | None) -> Iterator[None]:
    """:func:`set_limit` ``n`` for the ``with`` block, then the limit before it again (a command run
    in-process, as tests run them, leaves no limit behind)."""
    before = _limit
    set_limit(n)
    try:
        yield
    finally:
        set_limit(before)


def limited_to(option: int | None):
    """:func:`limited` to a command's ``--max-memory`` (None, not given: :data:`DEFAULT_LIMIT`)."""
    return limited(option or DEFAULT_LIMIT)


def limit() -> int | None:
    """The limit :func:`set_limit` set, or None."""
    return _limit


def rss() -> int | None:
    """This process's resident memory in bytes (the peak where the current figure cannot be read),
    or None where neither can."""
    try:
        fd = os.open("/proc/self/statm", os.O_RDONLY)
    except OSError:
        fd = -1
    if fd >= 0:
        try:
            return int(os.read(fd, 128).split()[1]) * _PAGE
        except (OSError, ValueError, IndexError):
            return None
        finally:
            os.close(fd)
    if resource is None:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if os.uname().sysname == "Darwin" else peak * 1024  # macOS counts bytes, the others KiB


def check(name: str | None = None) -> None:
    """Raise :class:`MemoryLimitReached` (about the capture ``name``, when given) when a limit is set
    and the process uses more than reading may take of it (:data:`READ_SHARE`)."""
    if _limit is None:
        return
    used = rss()
    if used is not None and used > _limit * READ_SHARE:
        raise MemoryLimitReached(_limit, used, name)


def reserve(needed: int, name: str | None = None, *, doing: str = "to read it", whole: bool = False) -> None:
    """:func:`check` before a step that builds about ``needed`` bytes at once, out of reach of the checks
    (a whole body split into lines, a whole HAR parsed): raise before it when it would not fit in what
    reading may take (``whole``: in the whole limit, for what is made after reading; ``doing`` says what)."""
    if _limit is None:
        return
    used = rss()
    if used is not None and used + needed > _limit * (1.0 if whole else READ_SHARE):
        raise MemoryLimitReached(_limit, used, name, needed=needed, doing=doing, whole=whole)


LINE_COST = 240
"""Bytes a line of a body split into lines costs beyond its text (its ``bytes`` object, the lists
holding it, an index kept of it; measured ~196 for 2-byte lines pasted in prose, a fifth kept spare)."""


def reserve_lines(raw: bytes, name: str | None = None) -> None:
    """:func:`reserve` what splitting ``raw`` into lines builds (copies of it, each line an object)."""
    if _limit is not None:
        reserve(2 * len(raw) + LINE_COST * (raw.count(b"\n") + raw.count(b"\r")), name)


def reserve_parse(raw: bytes, name: str | None = None, *, yaml: bool = False) -> None:
    """:func:`reserve` what parsing ``raw`` whole builds, from counts of what starts a value: JSON
    (orjson) ~200 bytes an object or array, ~40 a value after a comma, ~25 a quote (a string's
    object; measured ≤ 72 bytes for each 3-byte ``{},`` of a list, a third of this estimate); YAML
    (PyYAML) ~800 a line or flow item (measured 735 for ``- {}``) and 3 a byte (a long scalar)."""
    if _limit is None:
        return
    if yaml:
        items = raw.count(b"\n") + raw.count(b"{") + raw.count(b"[") + raw.count(b",")
        reserve(3 * len(raw) + 800 * items, name)
    else:
        reserve(len(raw) + 200 * (raw.count(b"{") + raw.count(b"[")) + 40 * raw.count(b",") + 25 * raw.count(b'"'),
                name)
