"""Sizes in bytes as options take them and messages show them (K, M, G, T are powers of 1024).

Shared by ``--max-size`` (capture reads), ``--max-bytes`` and ``--keep-bytes`` (live, proxy).
"""
from __future__ import annotations

import math
import re

from inspector.model.lazyre import lazy

_SIZE = lazy(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}


def parse_size(text: str) -> int:
    """``"1000"``, ``"64M"``, ``"64MiB"``, ``"1.5g"`` -> bytes (K, M, G, T are powers of 1024).

    Raises ``ValueError`` for anything else, or a size below 1 byte."""
    m = _SIZE.match(text)
    if not m:
        raise ValueError(f"not a size: {text!r} (e.g. 1000000, 64M, 1G)")
    n = int(float(m.group(1)) * _UNITS[m.group(2).lower()])
    if n < 1:
        raise ValueError(f"must be at least 1 byte: {text!r}")
    return n


def human_size(n: int) -> str:
    """``67108864`` -> ``64 MiB``; ``1000`` -> ``1000 bytes``."""
    for unit, size in (("GiB", 1024 ** 3), ("MiB", 1024 ** 2), ("KiB", 1024)):
        if n >= size:
            v = n / size
            return f"{v:.0f} {unit}" if v == int(v) else f"{v:.1f} {unit}"
    return f"{n} bytes"


def size_option(n: int) -> str:
    """The smallest size option that admits ``n`` bytes: ``6082150`` -> ``6M``."""
    for unit, size in (("G", 1024 ** 3), ("M", 1024 ** 2), ("K", 1024)):
        if n >= size:
            return f"{math.ceil(n / size)}{unit}"
    return str(n)
