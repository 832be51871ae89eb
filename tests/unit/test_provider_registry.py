"""The provider registry (``inspector.providers``): every registered provider declares every fact, each
fact resolves to what its readers expect, detection order is explicit, and a provider reusing another's
dialect cannot take over that dialect's streams (issue 26 item 1)."""
from __future__ import annotations

import inspect
import re
import subprocess
import sys

import pytest

from inspector.capture.bundled import captures_dir
from inspector.model.catalog import RULES
from inspector.model.events import EventRecord
from inspector.providers import DETECTORS, FOLDERS, PROVIDERS, build, detectors, dialect_class, provider_for_dialect
from inspector.providers.base import Dialect
from inspector.providers.endpoint import Endpoint
from inspector.providers.ruletext import RuleText
from inspector.providers.conformance import Conformance
from inspector.providers.history import HistoryShape
from inspector.providers.record import ERROR_SHAPES, Provider
from inspector.session import detect
from inspector.feeds.run import run_capture
from tests.dialect_answers import DIALECTS, STOPS, Spec, render

ALL = list(PROVIDERS.values())
CLASSES = ("tool", "end", "length", "refusal", "error")


def _ids(p: Provider) -> str:
    return p.name


def test_every_fact_is_a_required_keyword():
    # A fact with a default could be forgotten silently (how every Bedrock span came to be "_OTHER").
    params = list(inspect.signature(Provider.__init__).parameters.values())[1:]
    assert params and all(p.kind is p.KEYWORD_ONLY and p.default is p.empty for p in params)
    with pytest.raises(TypeError, match="otel_name"):
        kw = _record_kwargs()
        del kw["otel_name"]
        Provider(**kw)


def test_every_folder_is_registered_once():
    assert len(PROVIDERS) == len(FOLDERS)
    assert {p.package.rsplit(".", 1)[1] for p in ALL} == set(FOLDERS)


@pytest.mark.parametrize("p", ALL, ids=_ids)
def test_every_lazy_fact_resolves_to_what_its_readers_expect(p: Provider):
    assert issubclass(p.dialect, Dialect) and p.dialect.name == p.dialect_name
    assert isinstance(p.endpoint, Endpoint) and p.endpoint.path.startswith("/")
    assert callable(p.prepare) and callable(p.summarize) and callable(p.stop_class)
    assert p.advice and all(re.fullmatch(r"[A-Z]", family) and text for family, text in p.advice.items())
    assert p.explain is None or all(isinstance(t, RuleText) and code in RULES for code, t in p.explain.items())
    assert p.history is None or isinstance(p.history, HistoryShape)
    assert p.declared_tools is None or callable(p.declared_tools)
    assert p.read_answer is None or callable(p.read_answer)
    assert p.clients is None or p.clients and all(key.split("-", 1)[0] in RULES for key in p.clients)
    assert p.conform is None or isinstance(p.conformance, Conformance) and p.conformance.mutations
    assert p.conform is None or p.read_answer is not None  # conform compares with a non-streamed answer
    assert p.conform_capture is None or p.conform is not None and (captures_dir() / p.conform_capture).is_file()


@pytest.mark.parametrize("p", ALL, ids=_ids)
def test_every_plain_fact_is_declared(p: Provider):
    assert p.otel_name and p.otel_name != "_OTHER" and p.otel_operation in ("chat", "generate_content")
    for host in p.otel_hosts:
        re.compile(host)
    assert p.error_shape in ERROR_SHAPES
    assert p.id_family and p.result_id in ("id", "call_id")
    for meaning, codes in p.meanings.items():
        assert re.fullmatch(r"[a-z-]+", meaning) and codes and all(c in RULES for c in codes), (meaning, codes)
    assert p.usage_keys.get("gen_ai.usage.input_tokens") and p.usage_keys.get("gen_ai.usage.output_tokens")
    assert all(k.startswith("gen_ai.usage.") for k in p.usage_keys)
    assert p.priority is not None and p.sniff is not None and p.sniff_url is not None  # all registered ones detect


@pytest.mark.parametrize("p", ALL, ids=_ids)
def test_stop_classes_agree_with_the_tool_stop_fact(p: Provider):
    # tests.dialect_answers.STOPS writes each class the way the dialect says it: the record reads it back.
    says = STOPS[p.dialect_name]
    assert p.stop_class(says["end"]) == "end" and p.stop_class(says["length"]) == "length"
    assert (p.stop_class(says["tool"]) == "tool") is p.tool_stop
    assert p.stop_class(None) in (None, *CLASSES)


def test_detection_order_is_explicit_and_typed_events_come_first():
    assert [p.dialect_name for p in DETECTORS] == detect_order()
    order = [p.name for p in DETECTORS]
    # A Responses event has fields a Chat sniff could accept; Chat's key-only shape comes after it.
    assert order.index("openai-responses") < order.index("openai")
    assert order.index("cohere") < order.index("openai")
    assert order.index("openai") < order.index("gemini") < order.index("ollama")


def detect_order() -> list[str]:
    return [p.dialect_name for p in sorted(ALL, key=lambda p: p.priority or 0)]


def test_each_dialect_is_found_by_the_url_of_its_own_endpoint():
    # A body with no identifying event (an HTTP error page) is read by its request URL.
    for p in ALL:
        url = p.endpoint.default_base.format(region="us-east-1") + p.endpoint.path.format(model="m")
        assert detect.fallback({"url": url}) == p.dialect_name, url
        assert dialect_class(p.dialect_name) is provider_for_dialect(p.dialect_name).dialect


def _record_kwargs(**over) -> dict:
    kw = dict(name="compat", package="inspector.providers.openai_chat", dialect_name="openai-chat", priority=None,
              sniff=None, sniff_url=None, dialect=".stream:OpenAIChat", endpoint=".request:ENDPOINT",
              prepare=".request:prepare", summarize=".summary:summarize", advice=".advice:ADVICE", explain=None,
              history=None, declared_tools=None, stop_class=".answer:stop_class", read_answer=None, clients=None, tool_stop=True,
              id_family="openai-chat", ids_optional=False, result_id="id", otel_name="compat", otel_operation="chat",
              otel_hosts=(r"(^|\.)api\.compat\.example$",), error_shape="openai", meanings={}, usage_keys={}, conform=None,
              conform_capture=None)
    kw.update(over)
    return kw


def test_a_chat_compatible_provider_reusing_the_dialect_cannot_take_over_its_streams():
    compat = Provider(**_record_kwargs())
    registry = build([*ALL, compat])
    assert registry["compat"] is compat
    # Detection and the dialect's owner stay with OpenAI Chat: the variant has no priority and no sniff.
    assert compat not in detectors(registry)
    assert [p.name for p in detectors(registry)] == [p.name for p in DETECTORS]
    # Declaring a sniff of a dialect someone else detects is refused, not silently ordered.
    with pytest.raises(ValueError, match="both detect 'openai-chat'"):
        build([*ALL, Provider(**_record_kwargs(priority=5, sniff=lambda ev: True, sniff_url=lambda url: False))])
    with pytest.raises(ValueError, match="a provider detects .* or reuses"):
        Provider(**_record_kwargs(priority=5))


def test_the_registry_refuses_ambiguous_records():
    with pytest.raises(ValueError, match="two providers are named 'openai'"):
        build([*ALL, PROVIDERS["openai"]])
    clash = Provider(**_record_kwargs(dialect_name="new-dialect", priority=PROVIDERS["gemini"].priority,
                                      sniff=lambda ev: False, sniff_url=lambda url: False))
    with pytest.raises(ValueError, match="share detection priority"):
        build([*ALL, clash])
    with pytest.raises(ValueError, match="which no registered provider detects"):
        build([*ALL, Provider(**_record_kwargs(dialect_name="nobody-speaks-it"))])
    with pytest.raises(ValueError, match="unknown error shape"):
        Provider(**_record_kwargs(error_shape="xml"))


def test_detection_loads_only_the_chosen_dialect():
    # Issue 32 item 3: the registry imports no dialect and no sniff; reading an Anthropic stream loads
    # the Anthropic sniff and dialect and no other provider's (Anthropic is first in detection order).
    probe = ("import sys\n"
             "from inspector.feeds.run import run_capture\n"
             "from inspector.model.capture import Capture, Chunk, End\n"
             "import inspector.providers\n"
             "before = sorted(m for m in sys.modules if m.endswith(('.stream', '.sniff')) and m.startswith('inspector.providers'))\n"
             "cap = Capture(chunks=[Chunk(0.0, b'event: message_stop\\ndata: {\"type\": \"message_stop\"}\\n\\n')],"
             " end=End(t=0.1, kind='eof'))\n"
             "s = run_capture(cap)\n"
             "after = sorted(m for m in sys.modules if m.endswith(('.stream', '.sniff')) and m.startswith('inspector.providers'))\n"
             "print(s.dialect_name, before, after)\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split(" ", 1)
    assert out[0] == "anthropic-messages"
    assert out[1].strip() == "[] ['inspector.providers.anthropic.sniff', 'inspector.providers.anthropic.stream']"


def test_sniffing_never_raises_on_odd_payloads():
    odd = [None, [], "x", 1, {"type": 1}, {"choices": "x"}, {"error": []}, {"message": 1, "model": None}]
    for payload in odd:
        ev = EventRecord(0, "message", "", payload, 1, None)
        for p in DETECTORS:
            try:
                p.sniff(ev)
            except (TypeError, AttributeError):
                pass  # detect.from_event takes these as "not this one"


def test_every_registered_dialect_has_a_test_writer_and_reads_back_as_itself():
    # The diff matrix and the declared-tools tests are parametrized on the registry; their one per-dialect
    # piece is the writer in tests/dialect_answers.py: a new dialect without one fails here, by name.
    assert list(DIALECTS) == [p.dialect_name for p in DETECTORS]
    for dialect in DIALECTS:
        assert run_capture(render(dialect, Spec(text="hi", stop="end"))).dialect_name == dialect
