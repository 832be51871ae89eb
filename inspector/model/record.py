"""``Record``: the base of small value classes whose ``__init__`` is written out instead of generated.

Why not ``@dataclass``: it writes each class's ``__init__``, ``__repr__`` and ``__eq__`` as source
text and compiles it when the module is imported, about 1 ms of CPU a class (``slots=True`` builds
the class twice); ``check`` imports some twenty such classes before it reads a byte, a tenth of its
start-up (``bench/bench_startup.py``). A ``Record`` subclass lists its fields in ``__slots__`` (in
``__init__``'s order) and has a plain ``__init__``; ``Record`` gives it the ``repr`` and ``==`` a
dataclass would have (``Chunk(t=0.5, data=b'x', line=None)``; equal when of the same class with
equal fields). Like a non-frozen dataclass with ``eq``, it is unhashable; ``FrozenRecord`` is the
frozen one.
"""
from __future__ import annotations

from dataclasses import FrozenInstanceError  # loaded anyway: orjson imports dataclasses
from inspector.model.static import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from typing_extensions import Self


def _fields(record: Record) -> tuple[str, ...]:
    return cast("tuple[str, ...]", type(record).__slots__)


class Record:
    __slots__ = ()  # a subclass's: its fields, in ``__init__``'s order

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in _fields(self))
        return f"{type(self).__qualname__}({fields})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return tuple(getattr(self, n) for n in _fields(self)) == tuple(getattr(other, n) for n in _fields(self))

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as a dataclass with eq

    def copy_with(self, **changes: object) -> Self:
        """A new record with ``changes`` (field: value) and the other fields of this one
        (``dataclasses.replace``, which takes dataclasses only). ``TypeError`` for a field it has not."""
        return type(self)(**{**{name: getattr(self, name) for name in _fields(self)}, **changes})  # type: ignore[call-arg]  # a subclass takes its fields


class FrozenRecord(Record):
    """A ``Record`` that cannot change after ``__init__`` (which sets its fields with
    ``object.__setattr__``) and hashes by its fields, as a frozen dataclass does."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __hash__(self) -> int:  # type: ignore[override]  # Record's is None: unhashable
        return hash(tuple(getattr(self, n) for n in _fields(self)))

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, n) for n in _fields(self))

    def __setstate__(self, state: tuple) -> None:  # pickle and copy: set as __init__ does
        for name, value in zip(_fields(self), state):
            object.__setattr__(self, name, value)
