"""One rule convention: every catalog code is fired, and from one module (its home), unless the
table below says why several modules fire it. ``uv run python -m tests.rule_sites`` prints the map."""
from __future__ import annotations

from inspector.model.catalog import RULES
from tests.rule_sites import modules, sites

P = "inspector/providers/"
SHARED: dict[str, tuple[str, frozenset[str]]] = {
    "S001": ("each byte decoder meets its own bytes: the text lines of SSE and NDJSON, the event-stream "
             "payloads", frozenset({"inspector/framing/lines.py", "inspector/framing/eventstream.py"})),
    "S010": ("each text decoder ends its own last event or line",
             frozenset({"inspector/framing/sse.py", "inspector/framing/ndjson.py"})),
    "S002": ("event data is parsed by the session; Bedrock's Anthropic events are parsed from the "
             "event-stream chunk that carries them",
             frozenset({"inspector/session/session.py", P + "bedrock_anthropic/stream.py"})),
    "S019": ("nesting too deep to parse: event data (session), tool arguments (J rules)",
             frozenset({"inspector/session/session.py", "inspector/session/rules/arguments.py"})),
    "S012": ("the end of a stream (stream rules), and of a proxied exchange cut before it had one",
             frozenset({"inspector/session/rules/stream.py", "inspector/feeds/exchanges/log.py"})),
    "S006": ("an in-band error is read in each dialect's own shape (Dialect.generic_error for the common one)",
             frozenset({P + "base.py", P + "cohere/stream.py", P + "gemini/stream.py", P + "ollama/stream.py",
                        P + "openai_responses/stream.py"})),
    "S008": ("an unknown shape is judged by the dialect that knows the shape; the session for a body "
             "no dialect claimed",
             frozenset({"inspector/session/session.py", *(P + d + "/stream.py" for d in (
                 "anthropic", "bedrock_anthropic", "bedrock_converse", "cohere", "gemini", "openai_chat",
                 "openai_responses"))})),
    "C015": ("a tool call written as text content: Chat, and Ollama's Chat-shaped message",
             frozenset({P + "openai_chat/stream.py", P + "ollama/stream.py"})),
}


def test_every_code_fires_somewhere():
    found = sites()
    assert [c for c in RULES if c not in found] == []


def test_every_code_fires_from_one_module_or_says_why_several():
    found = sites()
    wrong = {}
    for code, where in found.items():
        mods = modules(where)
        expected = SHARED[code][1] if code in SHARED else None
        if (expected is None and len(mods) > 1) or (expected is not None and mods != expected):
            wrong[code] = sorted(mods)
    assert not wrong, f"codes fired from unrelated modules (one home each, or a reason in SHARED): {wrong}"


def test_the_shared_table_holds_only_shared_codes():
    found = sites()
    assert all(code in RULES and len(modules(found.get(code, set()))) > 1 for code in SHARED)
    assert all(reason for reason, _ in SHARED.values())
