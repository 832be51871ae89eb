"""``ChunkScrubber._run`` (a piece proven unchanged without reading every value) writes exactly what
the full reading writes: the same output for every piece and the same state after it, on streams of
every dialect's streamed fields, keys of every catalog shape split at every position across deltas
and chunks, JSON escapes, remembered credentials and hostile text. A deliberately broken ``_run``
is caught by the same comparison, so the comparison can fail."""
from __future__ import annotations

import inspect
import json
import random
import string
import textwrap

import pytest

from inspector.capture import redact
from inspector.capture.redact import ChunkScrubber
from tests.unit.test_redact import SHAPED

KEYS = [key for key, _ in SHAPED] + ["Bearer abcdefghijklmnopqrstu", "Basic dXNlcjpodW50ZXIy",
                                     "remembered-credential-77"]
"""A key of every shape of ``keyshapes.SHAPES``, a ``Bearer`` and a ``Basic`` credential, a remembered one."""

WORDS = ["the ", "key ", "is ", 'a \\"quoted\\" word', "x", " ", "s", "A", "gh", "e", "ok.", "\\n", "\\\\", "é",
         "\\u00e9", "Bear", "er ", "sk", "-", "word123 "]
"""Deltas of prose: some end in what may begin a key (``s``, ``A``, ``gh``), some hold escapes."""


def _anthropic(name: str):
    def event(piece: str) -> str:
        kind = {"text": "text_delta", "partial_json": "input_json_delta", "thinking": "thinking_delta"}[name]
        return ('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"'
                + kind + '","' + name + '":' + json.dumps(piece) + "}}\n\n")
    return event


def _chat(name: str, spaced: bool = False):
    def event(piece: str) -> str:
        sep = (", ", ": ") if spaced else (",", ":")
        delta = {name: piece} if name != "arguments" else {"tool_calls": [{"index": 0, "function": {name: piece}}]}
        return "data: " + json.dumps({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                                      "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                                     separators=sep) + "\n\n"
    return event


def _responses():
    seq = iter(range(10**9))

    def event(piece: str) -> str:  # every event differs in its sequence number
        return ("event: response.output_text.delta\ndata: " + json.dumps(
            {"type": "response.output_text.delta", "sequence_number": next(seq), "item_id": "msg_1",
             "output_index": 0, "content_index": 0, "delta": piece}, separators=(",", ":")) + "\n\n")
    return event


def _chat_obfuscated(hostile: tuple[str, ...] = ()):
    """OpenAI Chat as it streams since mid-2025: each chunk carries a random ``obfuscation``, so no
    two texts between values are alike (``ChunkScrubber._framed``); ``hostile``: written in place of
    one now and then, as it is (not JSON-escaped)."""
    rng = random.Random(len(hostile))

    def event(piece: str) -> str:
        if hostile and rng.random() < 0.15:
            obf = rng.choice(hostile)
        else:
            obf = "".join(rng.choice(string.ascii_letters + string.digits) for _ in range(rng.randint(2, 14)))
        return ('data: {"id":"chatcmpl-1","object":"chat.completion.chunk","choices":[{"index":0,"delta":'
                '{"content":' + json.dumps(piece) + '},"finish_reason":null}],"obfuscation":"' + obf + '"}\n\n')
    return event


def _gemini(piece: str) -> str:  # pretty-printed, as the JSON-array (not SSE) mode sends it
    return json.dumps({"candidates": [{"content": {"parts": [{"text": piece}], "role": "model"}}]}, indent=2) + ",\n"


def _ollama(piece: str) -> str:
    return json.dumps({"model": "m", "message": {"role": "assistant", "content": piece}, "done": False},
                      separators=(",", ":")) + "\n"


def _cohere(piece: str) -> str:
    return "data: " + json.dumps({"type": "tool-plan-delta", "delta": {"message": {"tool_plan": piece}}}) + "\n\n"


SHAPES = {"anthropic text": _anthropic("text"), "anthropic tool": _anthropic("partial_json"),
          "anthropic thinking": _anthropic("thinking"), "chat": _chat("content"), "chat spaced": _chat("content", True),
          "chat arguments": _chat("arguments"), "chat reasoning": _chat("reasoning_content"), "gemini": _gemini,
          "ollama": _ollama, "cohere": _cohere, "chat obfuscated": _chat_obfuscated()}

HOSTILE = [
    '"text":"a"text":"b"', 'data: {"text":"x\\', 'data: {"text":"\\"text\\":\\"', '{"text":"a\\\n"}',
    '{"text" : "spaced"}', '{"text":\u00a0"nbsp"}', '{"partial_json":"q","text":"sk"}', '"text":"', '"text"',
    '{"text":"\\\\"}{"text":"-ant-api03-' + "Qq7Ww8Ee9Rr0" * 2 + '"}', '{"text":"s"}{"content":"k-proj-' + "Zy9Xw8Vu7T" * 3,
    '{"text":"sk-\\u0061nt-api03-' + "Zz8Yy7Xx" * 4 + '"}', '{"text":"ok"}\n\n{"text":"' + "\\" * 3,
    'event: x\ndata: {"text":"Bearer "}\n\n', '{"text":"a"text":"text":" sk"}', '{"delta":"AKIA"}{"delta":"IOSFODNN7EXAMPLE"}', "\x00\x1b]0;\x07",
]
"""Text no provider sends: an opening right after a value, escapes cut short, a backslash before a
raw newline, spaced and non-breaking openings, two names in one object, a key begun after ``\\\\``."""


RAW_BODIES = ['a", "content":"s', "x\\", "y\\\\", 'q\\", "content":"gh', 'b"text":"', 'c", "text": "e']
"""Bodies written into an event as they are (not JSON-escaped): a quote that ends the value early,
then the opening of another field's value; a backslash that escapes the closing quote."""


CUT_SHORT = ['"text":"zz', '"zz\\n', '\\\\"zz\\n', '"zz', '\\\\"zz']
"""What a raw body goes on with after a key's first part: a quote that ends the value early (with or
without escapes after it, after an escaped backslash), or the opening of another value right after it."""


def _raw(body: str) -> str:
    """``_anthropic("text")``'s event with ``body`` written between its quotes as it is."""
    return ('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"'
            'text_delta","text":"' + body + '"}}\n\n')


SPACED_COLONS = [" :", ": ", " : ", "  :", ":  ", "\t:", ":\t", "\n:", ":\n", " \t:", ":\t "]
"""A name's colon with whitespace around it, a different one per event."""


def _framed_hostile(key: str, cut: int, rng: random.Random):
    """Runs whose texts between values all differ but share a frame, with a value of the streamed
    field hidden in them (written so that no cut at the field's opening finds it), a key's rest
    after a body that may end in its first part: after the frame's head ending in the field's name
    (its colon varying), as the varying name itself, inside a varying ``obfuscation`` that holds
    quotes; and the whole key as the varying part."""
    first, rest = key[:cut], key[cut:]
    names = ["content"] + [f"k{i}" for i in range(12)]

    def body() -> str:
        return rng.choice([first, "ok "])
    n = rng.randint(30, 60)
    yield ['{"content":"' + body() + '","content"' + rng.choice(SPACED_COLONS) + '"' + rest + '"}\n' for _ in range(n)]
    yield ['{"content":"' + body() + '","' + rng.choice(names) + '" : "' + rest + '"}\n' for _ in range(n)]
    hidden = _chat_obfuscated(('x","content" : "' + rest,))
    yield [hidden(body()) for _ in range(n)]
    whole = _chat_obfuscated((key,))
    yield [whole("ok ") for _ in range(n)]
    # One piece (whole when not cut), so that what follows its last value is as written: a plain
    # event after the framed ones; the key only after the last value.
    yield ["".join('{"content":"' + body() + '","content"' + rng.choice(SPACED_COLONS) + '"' + rest + '"}\n'
                   for _ in range(n)) + '{"content":"ok "}\n']
    yield ["".join('{"content":"' + (first if name == "content" else "ok ") + '","' + name + '" : "' + rest + '"}\n'
                   for name in names * 3) + '{"content":"ok "}\n']
    plain = _chat_obfuscated()
    yield ["".join(plain("ok ") for _ in range(n)) + plain("ok ").replace('"obfuscation":"', '"obfuscation":"' + key)]


def _pieces(events: list[str], rng: random.Random) -> list[str]:
    """The stream cut into chunks: at event boundaries (1 to 64 events each, as the proxy reads them)
    or anywhere."""
    body = "".join(events)
    if rng.random() < 0.6:
        ends, i = [], 0
        while i < len(events):
            i += rng.randint(1, 64)
            ends.append(len("".join(events[:i])))
        points = sorted(set(ends) - {0, len(body)})
    else:
        points = sorted(rng.sample(range(1, len(body)), k=min(len(body) - 1, rng.randint(1, 10)))) if len(body) > 1 else []
    return [body[a:b] for a, b in zip([0, *points], [*points, len(body)])]


def _streams(rng: random.Random):
    """Streams of deltas of every shape: hostile text alone and in runs; each key split at every
    position into two deltas, and at random positions into more, among prose (a run as long as a
    proxy chunk now and then); several shapes and hostile text in one stream."""
    for text in HOSTILE:
        for shape in SHAPES.values():
            prose = [shape(rng.choice(WORDS)) for _ in range(rng.randint(1, 8))]
            yield [text]
            yield prose + [text]
            yield [text] + prose
    for body in RAW_BODIES:  # inside a long run of one field, where ``_cut`` reads each body as its part less the recurring text
        for _ in range(6):
            prose = [_raw(rng.choice(["ome", "word ", "ok"])) for _ in range(rng.randint(20, 60))]
            at = rng.randint(5, len(prose) - 5)
            yield prose[:at] + [_raw(body)] + prose[at:]
    for key in KEYS[:4] + KEYS[-3:]:  # a key split across the value a raw body cuts short and the next one
        for cut in (1, 2, 3, len(key) // 2):
            for rest in CUT_SHORT:
                prose = [_raw(rng.choice(["ome", "word ", "ok", "a\\nb"])) for _ in range(rng.randint(20, 40))]
                at = rng.randint(5, len(prose) - 5)
                yield prose[:at] + [_raw(key[:cut] + rest), _raw(key[cut:])] + prose[at:]
        # A value ending in an escaped backslash (``\\\\``, its quote not escaped), the next value
        # going on with ``u0073k-…``: read as one text, ``\\\\u0073`` is an escape of the key's first character.
        for at in (9, 30, 45):
            prose = [_raw(rng.choice(["ome", "word ", "a\\nb"])) for _ in range(50)]
            yield prose[:at] + [_raw(' \\\\"zz'), _raw("u00%02x" % ord(key[0]) + key[1:])] + prose[at:]
    for key in KEYS[:3] + KEYS[-3:]:  # texts between values that differ in every event, framed alike
        for cut in (1, 2, len(key) // 2):
            yield from _framed_hostile(key, cut, rng)
    for key in KEYS:
        for cut in range(1, len(key)):
            event = SHAPES[rng.choice(list(SHAPES))]
            deltas = [rng.choice(WORDS) for _ in range(rng.randint(0, 70 if rng.random() < 0.15 else 6))]
            deltas += [key[:cut], key[cut:]] + [rng.choice(WORDS) for _ in range(rng.randint(0, 4))]
            yield [event(d) for d in deltas]
        for _ in range(10):
            event = SHAPES[rng.choice(list(SHAPES))]
            cuts = sorted(rng.sample(range(1, len(key)), k=rng.randint(2, 5)))
            deltas = [key[a:b] for a, b in zip([0, *cuts], [*cuts, len(key)])]
            yield [event(rng.choice(WORDS)) for _ in range(rng.randint(0, 10))] + [event(d) for d in deltas]
    for _ in range(250):
        shapes = rng.sample(list(SHAPES), k=rng.randint(1, 3))
        events = []
        for _ in range(rng.randint(1, 90)):
            r = rng.random()
            if r < 0.08:
                events.append(rng.choice(HOSTILE))
            else:
                piece = rng.choice(WORDS + KEYS[-3:] + [k[:9] for k in KEYS]) if r < 0.3 else rng.choice(WORDS)
                events.append(SHAPES[rng.choice(shapes)](piece))
        yield events


def _state(s: ChunkScrubber) -> tuple:
    return s._tail, dict(s._last), s._inside


def disagreements(rng: random.Random, limit: int = 3) -> tuple[list, int, int]:
    """Feed every stream of ``_streams`` to a scrubber with ``_run`` and to one without it: the
    pieces whose output or following state differ (at most ``limit``), how many pieces ``_run``
    took, and how many it was offered."""
    found, counts = [], [0, 0]
    for events in _streams(rng):
        quick, full = ChunkScrubber(), ChunkScrubber()
        quick.RUN_MIN = quick.SKIP_VARYING = 0  # tried on every piece, also those it leaves to the full reading
        full._run = lambda joined, n, text: False  # the full reading, every piece
        run = quick._run

        def counted(joined, n, text, run=run):
            ok = run(joined, n, text)
            counts[0] += ok
            counts[1] += 1
            return ok

        quick._run = counted
        for piece in _pieces(events, rng):
            out_quick, out_full = quick.scrub(piece), full.scrub(piece)
            if out_quick != out_full or _state(quick) != _state(full):
                found.append((events, piece, out_quick, out_full))
                if len(found) >= limit:
                    return found, *counts
                break
    return found, *counts


@pytest.fixture
def remembered(monkeypatch):
    """A remembered credential for the test only (the module's memory is restored after it)."""
    monkeypatch.setattr(redact, "_known", dict(redact._known))
    monkeypatch.setattr(redact, "_known_pattern", redact._known_pattern)
    redact.remember_secret("remembered-credential-77")


@pytest.mark.usefixtures("both_cuts")
def test_the_run_shortcut_writes_what_the_full_reading_writes():
    found, taken, offered = disagreements(random.Random(32))
    assert not found, found[0][1:]
    assert taken > offered // 8  # the shortcut was taken on many pieces: the comparison tested it


@pytest.mark.usefixtures("both_cuts")
def test_the_same_with_a_remembered_credential(remembered):
    found, taken, offered = disagreements(random.Random(33))
    assert not found, found[0][1:]
    assert taken > offered // 8


@pytest.mark.usefixtures("both_cuts")
def test_a_long_run_of_one_field_is_taken_whole_and_a_key_in_it_is_still_masked():
    """The proxy's common piece: 64 text deltas. Taken by ``_run``; the same run with a key split
    over two of its deltas, or a key in a text between values, is read in full and masked."""
    event = _anthropic("text")
    run = "".join(event(f"word{k} ") for k in range(64))
    s = ChunkScrubber()
    assert s.scrub(run) is run and s._opening == '"text":"' and s._after is not None  # learned
    assert s.scrub(run) is run  # now cut by the recurring text between values
    key = SHAPED[0][0]
    split = "".join(event(f"word{k} ") for k in range(30)) + event("key " + key[:5]) + event(key[5:]) + event("!")
    out = s.scrub(split)
    assert key[8:20] not in out and "word29 " in out
    scaffold = run.replace('"index":0', '"index":"' + key + '"', 1)
    assert key[8:20] not in s.scrub(scaffold)


BROKEN = {  # a proof of ``_run`` left out: where, the text taken out and what replaces it
    "no check of the values": ("ChunkScrubber._run", "if (key(values) or", "if (False and key(values) or"),
    "no check between values": ("_clean", "_STREAMED_VALUE.search(seen) is not None", "False"),
    "no scan of the head": ("ChunkScrubber._run", "if m is None or m.start() != first:\n        return False",
                            "m = _VALUE.search(joined, first)"),
    "no key begun at the end": ("ChunkScrubber._run", "if closed and _key_begun(", "if False and _key_begun("),
    "no escapes read": ("_cut_at_openings", 'if not any(map(str.endswith, bodies, repeat("\\\\"))):', "if True:"),
    "no closing quote asked": ("_cut_at_openings", 'if "" in quotes[:-1]:', "if False:"),
    "no quote counted": ("_cut_at_recurring", "if plain.count('\"') != plain.count('\\\\\"'):", "if False:"),
    "no escaped backslashes taken out": ("_cut_at_recurring", 'joined.replace("\\\\\\\\", "")', "joined"),
    "no quote asked without a backslash": ("_cut_at_recurring", "elif '\"' in joined:", "elif False:"),
    "no name before a middle": ("ChunkScrubber._framed", "or _NAME_ENDS.search(head) is not None", ""),
    "no colon after a middle": ("ChunkScrubber._framed", "or _NAME_CLOSE.match(tail) is not None", ""),
    "no quote counted in the middles": ("ChunkScrubber._framed", "middles.count('\"') == len(texts) - 1 and ", ""),
    "no key prefix in the middles": ("ChunkScrubber._framed", "not maybe_key(middles) and ", ""),
    "the text after the last value not read": ("ChunkScrubber._run", " and _clean({end}, known)", ""),
}


@pytest.mark.parametrize("broken", list(BROKEN))
def test_a_broken_shortcut_is_caught(monkeypatch, python_cut, broken):
    """The comparison above fails on a ``_run`` that skips any one of its proofs (its source with
    that proof taken out). The recurring cut in Python, whose proofs these are (the C's are held
    equal to them: tests/unit/test_runscan.py)."""
    where, old, new = BROKEN[broken]
    owner, _, name = where.rpartition(".")
    target = ChunkScrubber if owner else redact
    source = textwrap.dedent(inspect.getsource(getattr(target, name)))
    assert old in source, old
    space: dict = {}
    exec(compile(source.replace(old, new), redact.__file__, "exec"), vars(redact), space)
    monkeypatch.setattr(target, name, space[name])
    found, _, _ = disagreements(random.Random(34), limit=1)
    assert found
