"""``inspector.model.record.Record``: the repr, equality and hashing a slotted dataclass has, without generating it."""
from __future__ import annotations

import dataclasses
import pickle

import pytest

from inspector.model.capture import Capture, Chunk, End
from inspector.model.findings import Finding
from inspector.model.record import Record


class Point(Record):
    __slots__ = ("x", "y", "tags")

    def __init__(self, x: float, y: float | None = None, tags: list | None = None) -> None:
        self.x = x
        self.y = y
        self.tags = [] if tags is None else tags


@dataclasses.dataclass(slots=True)
class Twin:
    x: float
    y: float | None = None
    tags: list = dataclasses.field(default_factory=list)


@pytest.mark.parametrize("args", [(1,), (1.5, None, ["a"]), ("s", float("nan"))])
def test_repr_and_equality_are_a_dataclass_s(args):
    mine, twin = Point(*args), Twin(*args)
    assert repr(mine) == repr(twin).replace("Twin(", "Point(")
    assert (mine == Point(*args)) == (twin == Twin(*args))
    assert mine != Point("other") and Point(1) != Twin(1) and Point(1).__eq__(object()) is NotImplemented
    with pytest.raises(TypeError):
        hash(mine)


def test_defaults_are_fresh_per_instance_and_records_pickle():
    a, b = Capture(), Capture()
    a.chunks.append(Chunk(0.5, b"x"))
    assert b.chunks == [] and a.notes is not b.notes
    f = Finding.make("S008", "no dialect", event=0)
    for value in (a, End(1.0, "reset", "peer"), f):
        assert pickle.loads(pickle.dumps(value)) == value
    assert repr(Chunk(0.5, b"x")) == "Chunk(t=0.5, data=b'x', line=None)"


def test_a_frozen_record_refuses_changes_hashes_by_fields_and_survives_pickle_and_copy():
    import copy
    from dataclasses import FrozenInstanceError

    from inspector.cli.check import Options
    from inspector.cli.inputs import Input
    from inspector.feeds.base import Settings
    a = Input("run.jsonl", "run.jsonl", True)
    with pytest.raises(FrozenInstanceError):
        a.name = "other"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del a.path  # type: ignore[misc]
    assert hash(a) == hash(Input("run.jsonl", "run.jsonl", True)) and a == Input("run.jsonl", "run.jsonl", True)
    opts = Options("text", None, None, 10.0, {"S008": "error"}, None, max_bytes=5)
    for value in (a, opts, Settings("anthropic", 2.5, {"T001": "info"})):
        assert pickle.loads(pickle.dumps(value)) == value and copy.deepcopy(value) == value
    assert repr(Settings()) == "Settings(dialect=None, stall_s=10.0, severity_overrides={})"


def test_copy_with_gives_a_new_record_with_the_changes():
    end = End(1.0, "close", "bye", 1000)
    moved = end.copy_with(t=2.5)
    assert moved == End(2.5, "close", "bye", 1000) and end.t == 1.0
    with pytest.raises(TypeError):
        end.copy_with(nothing=1)


def _records(cls: type) -> list[type]:
    return [c for s in cls.__subclasses__() for c in (s, *_records(s))]


def test_every_record_names_its_fields_once_in_one_order():
    """A ``Record`` writes its fields three times (``__slots__``, the annotations, ``__init__``'s
    parameters), where a dataclass writes them once: a field added to one and not the others, or in
    another order (``repr``, ``==`` and ``copy_with`` follow ``__slots__``), fails here."""
    import importlib
    import inspect
    import pkgutil

    import inspector
    for m in pkgutil.walk_packages(inspector.__path__, "inspector."):
        # the TUI is Textual's; integrations import their host (mitmproxy, pytest...) at the top
        if not m.name.startswith(("inspector.tui", "inspector.integrations", "inspector.__main__")):
            importlib.import_module(m.name)
    ours = [c for c in _records(Record) if c.__module__.startswith("inspector.") and c.__module__ != Record.__module__]
    assert len(ours) >= 15  # the capture, frame, block, finding... classes
    for c in ours:
        slots = list(c.__dict__.get("__slots__", ()))
        annotated = list(c.__dict__.get("__annotations__", {}))
        params = [p for p in inspect.signature(c.__init__).parameters if p != "self"]
        assert slots == annotated == params, c.__qualname__
