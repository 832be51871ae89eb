"""``inspector.model.static``: at run time its stand-ins for typing's names do what the code on
check's path asks of typing's (mypy reads typing's own)."""
from __future__ import annotations

import typing

from inspector.model import static


def test_the_stand_ins_behave_as_typings_names_at_run_time():
    assert static.TYPE_CHECKING is typing.TYPE_CHECKING is False
    value = object()
    assert static.cast("list[int]", value) is value

    def f() -> None: ...
    assert static.overload(f) is f  # the implementation defined after the overloads replaces it
    T = static.TypeVar("T")

    class Box(static.Generic[T]):
        pass

    assert Box().__class__ is Box and issubclass(Box, static.Generic)
    assert static.Literal["info", "warning"] is str

    class Writer(static.Protocol):
        def write(self, data: bytes) -> None:
            """Documented for mypy."""

    assert Writer.write.__doc__ == "Documented for mypy."
