"""File names as text every sink can write.

Why it exists: a file name is bytes, and Python hands one that is not UTF-8 (``$'\\xff.sse'``, a
Latin-1 name from an old archive) to the program with each bad byte as a lone surrogate (PEP 383).
Such a string cannot be written as UTF-8: ``orjson``, a HAR, a JSON report, ``print`` to a UTF-8 pipe
all raise on it. Every name a report, a finding or an error shows is made here: the bad bytes are
written ``\\xff``; the path itself (to open the file) stays as it was given.
"""
from __future__ import annotations

import os


def path_name(path: str | bytes | os.PathLike) -> str:
    """``path`` as UTF-8-safe text: unchanged when it is valid, else with each byte that is not UTF-8
    written ``\\xNN`` (and any other lone surrogate ``\\udNNN``)."""
    text = os.fsdecode(path)
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that no undecodable byte made
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
