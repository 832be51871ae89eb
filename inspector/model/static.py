"""The names of ``typing`` that modules on ``check``'s path use at run time only for mypy's sake,
without importing ``typing`` (start-up: it costs ~11 M of the ~200 M instructions of a one-event
``check``, and nothing else ``check`` loads imports it; ``tests/unit/test_layers.py`` holds that).

mypy reads the ``typing`` names (``TYPE_CHECKING`` is true for it); at run time a protocol or a
generic is a plain base class, a type variable or a ``Literal`` a placeholder, ``cast`` returns its
value and ``overload`` its function (the implementation that follows replaces it, as with typing's).
Names only annotations use (``Any``, ``ClassVar``...) need none of this: modules import them from
``typing`` under ``if TYPE_CHECKING:`` (annotations are strings: ``from __future__ import annotations``).
"""
from __future__ import annotations

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Generic as Generic, Literal as Literal, Protocol as Protocol, TypeVar as TypeVar
    from typing import cast as cast, overload as overload
else:
    class Protocol:
        """A protocol class's base: its members document what mypy checks."""

    class Generic:
        """A generic class's base: ``Generic[T]`` is the class itself."""

        def __class_getitem__(cls, params):
            return cls

    class _Literal:
        def __getitem__(self, values):
            return str

    Literal = _Literal()
    """``Literal[...]`` is ``str`` (the literal types here are all strings)."""

    def TypeVar(name, *constraints, **options):  # noqa: N802 - typing's name
        return name

    def cast(typ, value):
        return value

    def overload(func):
        return func
