"""``Record``: the base of small value classes whose ``__init__`` is written out instead of generated.

Why not ``@dataclass``: it writes each class's ``__init__``, ``__repr__`` and ``__eq__`` as source
text and compiles it when the module is imported, about 1 ms of CPU a class (``slots=True`` builds
the class twice); ``check`` imports some twenty such classes before it reads a byte, a tenth of its
start-up (``bench/bench_startup.py``). A ``Record`` subclass lists its fields in ``__slots__`` (in
``__init__``'s order) and has a plain ``__init__``; ``Record`` gives it the ``repr`` and ``==`` a
dataclass would have (``Chunk(t=0.5, data=b'x', line=None)``; equal when of the same class with
equal fields). Like a non-frozen dataclass with ``eq``, it is unhashable.
"""
from __future__ import annotations


class Record:
    __slots__ = ()

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, n) for n in self.__slots__) == tuple(getattr(other, n) for n in self.__slots__)

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as a dataclass with eq
