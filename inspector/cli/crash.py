"""An internal error: one line on stderr, the traceback in a file, exit 3 (never 1, "findings").

Why this module exists: a crash while reading a hostile capture used to end in a traceback and
exit 1, which a CI job reads as "the linter found problems". An exception no command handles is
a bug of the inspector: the user gets one line naming it and the path of the saved traceback (to
attach to a report); the traceback never reaches the terminal (it may quote capture text).
"""
from __future__ import annotations

import os
import sys
import time

from inspector.capture.redact import scrub_secrets
from inspector.cli.codes import EXIT_INTERNAL
from inspector.model.display import display_text


def report_internal_error(error: BaseException, command: str | None) -> int:
    """Save ``error``'s traceback (its cause's, for a wrapper such as ``AppCrashed``) to a file in
    the temporary folder, print one line on stderr, return ``EXIT_INTERNAL`` (3)."""
    import tempfile  # a crash is rare: check's start-up does not pay for these
    import traceback
    shown = error.__cause__ if error.__cause__ is not None else error
    text = "".join(traceback.format_exception(shown))
    head = f"stream-inspector {command or ''} internal error at {time.strftime('%Y-%m-%d %H:%M:%S')}\n"
    where = "(could not be saved)"
    try:
        fd, where = tempfile.mkstemp(prefix="stream-inspector-crash-", suffix=".txt")
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as f:
            f.write(scrub_secrets(head + text))
    except OSError:
        pass
    what = display_text(scrub_secrets(f"{type(shown).__name__}: {shown}"), one_line=True)[:200]
    print(f"stream-inspector: internal error ({what}); this is a bug, not a finding; "
          f"traceback saved to {where}", file=sys.stderr)
    return EXIT_INTERNAL
