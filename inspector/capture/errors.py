"""What every capture reader shares: the error it raises and the native format's name."""
from __future__ import annotations

NATIVE_FORMAT = "stream-inspector-capture"
"""The ``format`` field of a native capture's header line (SPEC.md "Capture files")."""


class CaptureError(Exception):
    """The input cannot be read as any capture; the message is one line for the user."""
