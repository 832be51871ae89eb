"""Event records keep parsing their payload after the session released it, in copies too
(inspector/model/events.py): checkpoints deep-copy a session, and a dialect's pointer to an event
(the one that set ``stop_reason``) is copied with it."""
from __future__ import annotations

import copy
import pickle

from inspector.capture.load import load_path
from inspector.feeds.checkpoints import Checkpoints
from inspector.feeds.run import run_capture
from inspector.model.events import DONE, EventRecord
from tests.conftest import SHARED_CORPUS


def _released(data: str) -> EventRecord:
    record = EventRecord(3, "message_delta", data, None, 12, 0.5)
    record.release()
    return record


def test_a_released_payload_is_parsed_again_in_copies_and_pickles():
    data = '{"type":"message_delta","delta":{"stop_reason":"tool_use"}}'
    for record in (_released(data), copy.deepcopy(_released(data)), copy.copy(_released(data)),
                   pickle.loads(pickle.dumps(_released(data)))):
        assert record.payload == {"type": "message_delta", "delta": {"stop_reason": "tool_use"}}
    assert copy.deepcopy(_released("[DONE]")).payload is DONE


def test_a_restored_checkpoint_s_dialect_still_reads_its_stop_reason_event():
    session = run_capture(load_path(next(SHARED_CORPUS.glob("anthropic-doc-tool-call.*"))))
    checkpoints = Checkpoints(32)
    checkpoints.take(session, 1, 0.0, force=True)
    restored = Checkpoints.restore(checkpoints.at_most(len(session.events)))
    event = restored.dialect.stop_reason_event
    assert event is not None and event is not session.dialect.stop_reason_event  # a copy
    assert event.payload == session.dialect.stop_reason_event.payload
    assert event.payload["delta"]["stop_reason"] == "tool_use"
