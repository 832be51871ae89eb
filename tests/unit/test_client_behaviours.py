"""Every claim a finding makes about a client is measured: each row of ``inspector.model.clients``
and of every provider's ``clients`` table (its record's ``clients`` fact) is checked against the SDK pinned in ``uv.lock``, fed the row's reference capture
(``tests/clients/reference/KEY.sse``) through an in-memory transport. When an SDK upgrade changes what
it does, the row's test fails and names the sentence that is now false."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import anthropic
import cohere
import httpx
import httpx2
import openai
import pytest
import botocore.parsers
import botocore.session
from botocore.eventstream import EventStream, EventStreamBuffer

from inspector.framing.eventstream import looks_like_eventstream
from inspector.model import clients
from inspector.model.clients import DROPS_EVENT, EFFECTS, SHARED, STOPS_AT_DONE, ClientBehaviour
from inspector.providers import PROVIDERS
from tests.conftest import ROOT

TABLES = [SHARED, *(rows for p in PROVIDERS.values() if (rows := p.clients) is not None)]
BEHAVIOURS = {k: row for table in TABLES for k, row in table.items()}
"""Every row, from the registry (a new provider's rows are checked without being listed here)."""
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


def _cohere_stream(body: bytes) -> list:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, headers=SSE, content=body))
    client = cohere.ClientV2(api_key="test", base_url="http://sdk.test", httpx_client=httpx.Client(transport=transport))
    return list(client.chat_stream(model="m", messages=[{"role": "user", "content": "hi"}]))


RUNNERS = {
    ("openai-python", "chat.completions.stream()"): _chat_stream,
    ("openai-python", "responses.stream()"): _responses_stream,
    ("openai-python", "responses.retrieve(stream=True)"): _responses_retrieve,
    ("anthropic-python", "messages.stream()"): _messages_stream,
    ("cohere-python", "chat_stream()"): _cohere_stream,
}
"""How each (client, entry point) a row names is driven."""


def _eventstream(body: bytes) -> None:
    buf = EventStreamBuffer()
    buf.add_data(body)
    for _ in buf:
        pass


def _bedrock_events(body: bytes) -> list:
    """botocore's ``EventStream`` as boto3's ``converse_stream`` reads a ConverseStream body."""
    shape = botocore.session.get_session().get_service_model("bedrock-runtime").operation_model(
        "ConverseStream").output_shape.members["stream"]

    class Raw:
        def stream(self):
            yield body

        def close(self):
            pass

    return list(EventStream(Raw(), shape, botocore.parsers.EventStreamJSONParser(), "ConverseStream"))


RUNNERS[("botocore", "EventStreamBuffer")] = _eventstream
RUNNERS[("botocore", "EventStream")] = _bedrock_events
SAME_CAPTURE = {"R012-resumed-stream-retrieve": "R012-resumed-stream"}
"""Rows measured on another row's reference capture (another entry point, same stream)."""


def reference(key: str) -> Path:
    stem = SAME_CAPTURE.get(key, key)
    (path,) = REFERENCE.glob(f"{stem}.*")
    return path


def measure(row: ClientBehaviour, body: bytes) -> tuple[BaseException | None, object]:
    """What the SDK raises on ``body`` (None: it read the stream without an error), and what it
    handed over (the events, for the SDKs whose stream is a list of events)."""
    try:
        return None, RUNNERS[(row.client, row.entry)](body)
    except Exception as e:  # what the SDK raises is the measurement
        return e, None


def _data_events(body: bytes) -> tuple[int, int | None]:
    """The events of a body (JSON ``data:`` events of SSE; messages of an AWS event-stream), and how many
    come before ``data: [DONE]`` (None: no [DONE])."""
    if looks_like_eventstream(body):
        buf = EventStreamBuffer()
        buf.add_data(body)
        return len(list(buf)), None
    lines = [ln for ln in body.decode().splitlines() if ln.startswith("data:")]
    done = next((i for i, ln in enumerate(lines) if ln[5:].strip() == "[DONE]"), None)
    return len(lines) - (done is not None), done


def effect_of(body: bytes, handed: object) -> str | None:
    """Which of ``EFFECTS`` the events an SDK handed over show (None: all of them, or no list)."""
    if not isinstance(handed, list):
        return None
    total, before_done = _data_events(body)
    if before_done is not None and len(handed) == before_done < total:
        return STOPS_AT_DONE
    if len(handed) == total - 1:
        return DROPS_EVENT
    return None


def mismatch(key: str, row: ClientBehaviour) -> str | None:
    """Why ``row`` is false for the SDK pinned here, or None when it says what the SDK does."""
    body = reference(key).read_bytes()
    got, handed = measure(row, body)
    if got is not None:
        if row.raises in {c.__name__ for c in type(got).__mro__}:
            return None
        return f"{key}: the table says {row.sentence!r}, but the SDK raises {type(got).__name__}: {got}"
    if row.raises is not None:
        return f"{key}: the table says {row.sentence!r}, but the SDK reads it without an error"
    effect = effect_of(body, handed)
    if effect != row.effect:
        return f"{key}: the table says {row.sentence!r}, but the SDK {effect or 'hands over every event'}"
    return None


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("key", sorted(BEHAVIOURS))
def test_each_sentence_is_what_the_pinned_sdk_does(key):
    assert mismatch(key, BEHAVIOURS[key]) is None


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("key", sorted(BEHAVIOURS))
def test_a_sentence_edited_to_a_false_one_fails(key):
    row = BEHAVIOURS[key]
    false_row = row.copy_with(raises=None if row.raises else "RuntimeError")
    assert mismatch(key, false_row) is not None
    if row.raises:
        assert mismatch(key, row.copy_with(raises="ValueError")) is not None
    for effect in (None, *EFFECTS):
        if effect != row.effect and row.raises is None:
            assert mismatch(key, row.copy_with(effect=effect)) is not None, effect


def test_every_row_has_its_reference_capture_and_every_capture_a_row():
    assert {p.stem for p in REFERENCE.iterdir()} == set(BEHAVIOURS) - set(SAME_CAPTURE)
    assert all((row.client, row.entry) in RUNNERS for row in BEHAVIOURS.values())


def test_no_key_is_in_two_tables():
    assert sum(len(t) for t in TABLES) == len(BEHAVIOURS)


def test_the_sentence_is_made_from_the_row():
    cohere_says = clients.sayer(PROVIDERS["cohere"].clients or {})
    assert cohere_says("K002-done-before-end") == "cohere-python's chat_stream() stops reading at data: [DONE]"
    assert cohere_says("K002-done-before-end", "S015-corrupt-message") == \
        "cohere-python's chat_stream() stops reading at data: [DONE]; botocore's EventStreamBuffer raises ParserError"
    chat_says = clients.sayer(PROVIDERS["openai"].clients or {})
    assert chat_says("C001-missing-index") == "openai-python's chat.completions.stream() raises TypeError"
    assert clients.sayer(PROVIDERS["openai-responses"].clients or {})("R012-resumed-stream-retrieve") == \
        "openai-python's responses.retrieve(stream=True) reads it without an error"
    with pytest.raises(KeyError):
        clients.says("C001-missing-index")  # a provider's row is said by that provider's table


CLAIM = re.compile(r"(SDKs?|-python|botocore)\b.{0,60}\b(raises|raise|asserts|drops|stops reading|does|do|"
                   r"ends? at|accepts|rejects|fails?)\b")
"""A sentence that says what a client does."""
FINDING_CALLS = {"report", "report_at", "after_end", "FramingIssue"}
"""What makes a finding's message (the session's and writers' methods, the framing's issues)."""


def _literal_text(node: ast.AST) -> str:
    """The literal parts of the strings in ``node`` (an f-string's placeholders become ``{}``)."""
    parts = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            parts.append(sub.value)
        elif isinstance(sub, ast.FormattedValue):
            parts.append("{}")
    return "".join(parts)


def test_no_finding_states_a_client_behaviour_in_its_own_words():
    found = []
    for path in sorted((ROOT / "inspector").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
            if name not in FINDING_CALLS:
                continue
            text = " ".join(_literal_text(arg) for arg in node.args)
            if CLAIM.search(text):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {text[:100]}")
    assert not found, "findings that say what a client does outside inspector/model/clients.py:\n" + "\n".join(found)


def test_the_claim_finder_finds_a_claim_written_in_place():
    call = ast.parse('self.w.report("C001", f"entry {x}: openai-python raises RuntimeError on it")').body[0].value
    assert CLAIM.search(" ".join(_literal_text(a) for a in call.args))
    call = ast.parse('self.w.report("C001", f"entry {x}: ({says(\'C001-missing-index\')})")').body[0].value
    assert not CLAIM.search(" ".join(_literal_text(a) for a in call.args))
