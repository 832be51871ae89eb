"""Regular expressions compiled on first use, for modules whose patterns most runs never need.

Why: ``re.compile`` runs ``re``'s parser and compiler, which are Python code: about 0.2 ms for a
small pattern and several ms for a long alternation (``keyshapes.KEY``: every credential shape)
on a slow machine. Compiled at import, patterns that only a key in the text, a URL or a rare
format would use are paid by every ``check`` at start-up (``bench/bench_startup.py``).

``lazy(pattern)`` stands for ``re.compile(pattern)`` (``pattern`` may be a function that writes it,
called then too: a pattern built from a table is not built at import either): its attributes (``search``, ``sub``,
``finditer``, ``pattern``...) are the compiled pattern's, taken on first access and kept in the
instance, so later calls cost an attribute lookup, as on a compiled pattern. It is no
``re.Pattern`` instance: pass it to nothing that checks the type (``re.sub(p, ...)``: call
``p.sub(...)`` instead).
"""
from __future__ import annotations

import re
from inspector.model.static import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import AnyStr


class _Lazy:
    __slots__ = ("_args", "__dict__")

    def __init__(self, pattern: str | bytes | Callable[[], str | bytes], flags: int) -> None:
        self._args = (pattern, flags)

    def __getattr__(self, name: str) -> object:  # only for a name not yet in the instance's dict
        if name.startswith("__"):
            raise AttributeError(name)  # copy, pickle and friends probe for dunders
        compiled = self.__dict__.get("_compiled")
        if compiled is None:
            pattern, flags = self._args
            compiled = self.__dict__["_compiled"] = re.compile(pattern() if callable(pattern) else pattern, flags)
        value = getattr(compiled, name)
        self.__dict__[name] = value
        return value

    def __repr__(self) -> str:
        return f"lazy({self._args[0]!r})"


def lazy(pattern: AnyStr | Callable[[], AnyStr], flags: int = 0) -> re.Pattern[AnyStr]:
    """``re.compile(pattern, flags)``, done when an attribute of the result is first used."""
    return cast("re.Pattern[AnyStr]", _Lazy(pattern, flags))
