"""What the parser and the commands share, without ``argparse``: exit codes, ``--entry all``, the
default of ``--jobs``. ``check`` of a usual command line loads no ``argparse`` (``inspector.cli.quick``),
so its module takes these from here, not from ``inspector.cli.parser``."""
from __future__ import annotations

import os

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

ALL_ENTRIES = "all"
"""``check --entry all``: every streamed entry of a HAR, each checked as a capture of its own."""


def cpu_count() -> int:
    """CPUs this process may run on (its affinity mask where the OS has one): ``check --jobs``'s default."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)
