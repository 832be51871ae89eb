"""Every claim a finding makes about a client is measured: each row of ``inspector.model.clients``
is checked against the SDK pinned in ``uv.lock``, fed the row's reference capture
(``tests/clients/reference/KEY.sse``) through an in-memory transport. When an SDK upgrade changes what
it does, the row's test fails and names the sentence that is now false."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import anthropic
import httpx
import httpx2
import openai
import pytest
from botocore.eventstream import EventStreamBuffer

from inspector.model import clients
from inspector.model.clients import BEHAVIOURS, ClientBehaviour
from tests.conftest import ROOT

REFERENCE = ROOT / "tests" / "clients" / "reference"
SSE = {"content-type": "text/event-stream"}


def _openai(body: bytes) -> openai.OpenAI:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, headers=SSE, content=body))
    return openai.OpenAI(api_key="test", base_url="http://sdk.test/v1", max_retries=0,
                         http_client=httpx.Client(transport=transport))


def _anthropic(body: bytes) -> anthropic.Anthropic:
    # anthropic-python's HTTP client is httpx2 (the version in uv.lock refuses an httpx client).
    transport = httpx2.MockTransport(lambda request: httpx2.Response(200, headers=SSE, content=body))
    return anthropic.Anthropic(api_key="test", base_url="http://sdk.test", max_retries=0,
                               http_client=httpx2.Client(transport=transport))


def _chat_stream(body: bytes) -> None:
    with _openai(body).chat.completions.stream(model="m", messages=[{"role": "user", "content": "hi"}]) as s:
        s.get_final_completion()


def _responses_stream(body: bytes) -> None:
    with _openai(body).responses.stream(model="m", input="hi") as s:
        s.get_final_response()


def _responses_retrieve(body: bytes) -> None:
    for _ in _openai(body).responses.retrieve("resp_ref", stream=True):
        pass


def _messages_stream(body: bytes) -> None:
    with _anthropic(body).messages.stream(model="m", max_tokens=16,
                                          messages=[{"role": "user", "content": "hi"}]) as s:
        s.get_final_message()


RUNNERS = {
    ("openai-python", "chat.completions.stream()"): _chat_stream,
    ("openai-python", "responses.stream()"): _responses_stream,
    ("openai-python", "responses.retrieve(stream=True)"): _responses_retrieve,
    ("anthropic-python", "messages.stream()"): _messages_stream,
}
"""How each (client, entry point) a row names is driven."""


def _eventstream(body: bytes) -> None:
    buf = EventStreamBuffer()
    buf.add_data(body)
    for _ in buf:
        pass


RUNNERS[("botocore", "EventStreamBuffer")] = _eventstream
SAME_CAPTURE = {"R012-resumed-stream-retrieve": "R012-resumed-stream"}
"""Rows measured on another row's reference capture (another entry point, same stream)."""


def reference(key: str) -> Path:
    stem = SAME_CAPTURE.get(key, key)
    (path,) = REFERENCE.glob(f"{stem}.*")
    return path


def measure(row: ClientBehaviour, body: bytes) -> BaseException | None:
    """What the SDK raises on ``body`` (None: it read the stream without an error)."""
    try:
        RUNNERS[(row.client, row.entry)](body)
    except Exception as e:  # what the SDK raises is the measurement
        return e
    return None


def mismatch(key: str, row: ClientBehaviour) -> str | None:
    """Why ``row`` is false for the SDK pinned here, or None when it says what the SDK does."""
    got = measure(row, reference(key).read_bytes())
    if got is None and row.raises is None:
        return None
    if got is not None and row.raises in {c.__name__ for c in type(got).__mro__}:
        return None
    really = f"raises {type(got).__name__}: {got}" if got is not None else "reads it without an error"
    return f"{key}: the table says {row.sentence!r}, but the SDK {really}"


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("key", sorted(BEHAVIOURS))
def test_each_sentence_is_what_the_pinned_sdk_does(key):
    assert mismatch(key, BEHAVIOURS[key]) is None


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("key", sorted(BEHAVIOURS))
def test_a_sentence_edited_to_a_false_one_fails(key):
    row = BEHAVIOURS[key]
    false_row = dataclasses.replace(row, raises=None if row.raises else "RuntimeError")
    assert mismatch(key, false_row) is not None
    if row.raises:
        assert mismatch(key, dataclasses.replace(row, raises="ValueError")) is not None


def test_every_row_has_its_reference_capture_and_every_capture_a_row():
    assert {p.stem for p in REFERENCE.iterdir()} == set(BEHAVIOURS) - set(SAME_CAPTURE)
    assert all((row.client, row.entry) in RUNNERS for row in BEHAVIOURS.values())


def test_the_sentence_is_made_from_the_row():
    assert clients.says("C001-missing-index") == "openai-python's chat.completions.stream() raises TypeError"
    assert clients.says("R012-resumed-stream-retrieve") == \
        "openai-python's responses.retrieve(stream=True) reads it without an error"


CLAIM = re.compile(r"(SDKs?|-python|botocore)\b[^\"'\n]{0,60}\b(raises|raise|asserts)\b")
"""A sentence in a string literal that says what a client does (a docstring's own ``Raises`` never names one)."""
NOT_FINDINGS = {"inspector/model/clients.py", "inspector/model/catalog.py"}
"""The table itself, and the catalog (RULES.md's own words, generated by ``tests/gen_catalog.py``)."""


def test_no_module_states_a_client_behaviour_in_its_own_words():
    found = []
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        if path.relative_to(ROOT).as_posix() in NOT_FINDINGS or path.name == "advice.py":  # explanations, not findings
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            stripped = line.strip()
            if stripped.startswith("#") or not ('"' in line or "'" in line):
                continue
            if CLAIM.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n}: {stripped[:100]}")
    assert not found, "claims about clients outside inspector/model/clients.py:\n" + "\n".join(found)
