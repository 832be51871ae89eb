"""Secrets never reach a file or the screen: key shapes, remembered credentials, chunk boundaries."""
from __future__ import annotations

import json
import random
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.capture import redact
from inspector.capture.redact import (
    ChunkScrubber, redact_headers, redact_url, remember_headers, remember_query_secrets, remember_secret,
    scrub_secrets, scrub_value, secret_spans,
)

pytestmark = pytest.mark.usefixtures("both_cuts")  # the recurring cut in C and in Python (tests/conftest.py)

ALNUM = string.ascii_letters + string.digits


@pytest.fixture(autouse=True)
def _forget_remembered(monkeypatch):
    """The credentials a test remembers are forgotten after it (the module's memory restored): a
    remembered key masks whole, so it would change what later tests of other modules see."""
    monkeypatch.setattr(redact, "_known", dict(redact._known))
    monkeypatch.setattr(redact, "_known_pattern", redact._known_pattern)


def _key(rng: random.Random) -> str:
    prefix = rng.choice(["sk-ant-api03-", "sk-proj-", "sk-", "AIza"])
    n = 35 if prefix == "AIza" else rng.randint(20, 60)  # Google keys are always 39 characters
    return prefix + "".join(rng.choice(ALNUM) for _ in range(n))


def _stream_with(secret: str, rng: random.Random) -> str:
    before = "".join(rng.choice(ALNUM + " :{}\"\n") for _ in range(rng.randint(0, 300)))
    after = "".join(rng.choice(ALNUM + " :{}\"\n") for _ in range(rng.randint(0, 300)))
    return f'{before} data: {{"key": "{secret}"}} {after}'


def _cuts(text: str, rng: random.Random) -> list[str]:
    points = sorted(rng.sample(range(1, len(text)), k=min(len(text) - 1, rng.randint(1, 12))))
    return [text[a:b] for a, b in zip([0, *points], [*points, len(text)])]


def _secret_body(secret: str) -> str:
    return secret[7:] if secret.startswith("sk-ant") else secret[4:]


def test_key_shapes_masked_in_text_keeping_their_type():
    text = "use sk-ant-api03-abcdefghijklmnopqrstuv and AIzaSyA1234567890abcdefghij0123456789 or Bearer abcdefghijklmnop1234"
    out = scrub_secrets(text)
    assert "abcdefghijklmnopqrstuv" not in out and "1234567890abcdefghij" not in out
    assert "abcdefghijklmnop1234" not in out
    assert "sk-ant-" in out and "Bearer" in out
    assert scrub_secrets("plain text") == "plain text"


def test_remembered_credential_of_any_shape_is_masked():
    token = "Zq9-custom-gateway-token-77"  # no known key shape
    remember_secret("Bearer " + token)
    assert token not in scrub_secrets(f"echo: {token}!")
    remember_headers([(b"x-api-key", b"another-odd-credential-1")])
    assert "another-odd-credential-1" not in scrub_secrets("x another-odd-credential-1 y")
    remember_query_secrets("https://h/v1beta/models/m:streamGenerateContent?alt=sse&key=QueryKey-1234567")
    assert "QueryKey-1234567" not in scrub_secrets("url ...key=QueryKey-1234567")
    remember_secret("sk-ant-api03-RememberedAndShaped99")  # masked the same way whichever rule finds it
    assert scrub_secrets("k=sk-ant-api03-RememberedAndShaped99") == "k=sk-ant-[redacted]"
    remember_secret("short")  # below the minimum: ordinary words are not mangled
    assert scrub_secrets("a short note") == "a short note"


def test_scrub_value_walks_json_and_keeps_unchanged_objects():
    clean = {"a": [1, "x", {"b": None}]}
    assert scrub_value(clean) is clean
    dirty = {"a": ["sk-ant-api03-abcdefghijklmnopqrstuv"]}
    assert "abcdefghijklmnopqrstuv" not in str(scrub_value(dirty))
    assert dirty["a"][0].endswith("qrstuv")  # the input is not changed in place


def test_scrub_value_masks_a_key_written_as_a_member_name():
    # {"sk-ant-…": 1}: a model (or a client) can use a key as a JSON object's member name
    key = "sk-ant-api03-" + "Qw3Er5Ty7Ui9" * 3
    dirty = {"outer": {key: 1, "n": [{key: key}]}}
    assert "Qw3Er5Ty7Ui9" not in json.dumps(scrub_value(dirty))
    assert scrub_value(dirty)["outer"]["n"][0] == {"sk-ant-[redacted]": "sk-ant-[redacted]"}
    assert key in dirty["outer"]  # the input is not changed in place


def test_random_secrets_cut_anywhere_never_appear_in_scrubbed_chunks():
    rng = random.Random(1717)
    for _ in range(400):
        secret = _key(rng)
        chunks = _cuts(_stream_with(secret, rng), rng)
        scrubber = ChunkScrubber()
        written = "".join(scrubber.scrub(c) for c in chunks)
        assert _secret_body(secret) not in written
        # no long run of the secret's characters survives either (a key cut in two and both
        # halves written would pass the first check)
        body = _secret_body(secret)
        assert not any(body[i:i + 12] in written for i in range(0, len(body) - 12))


def test_remembered_credentials_cut_anywhere_never_appear():
    rng = random.Random(99)
    for n in range(100):
        secret = "tok" + "".join(rng.choice(ALNUM) for _ in range(30)) + str(n)
        remember_secret(secret)
        chunks = _cuts(_stream_with(secret, rng), rng)
        scrubber = ChunkScrubber()
        written = "".join(scrubber.scrub(c) for c in chunks)
        assert not any(secret[i:i + 8] in written for i in range(0, len(secret) - 8))


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_scrubbing_text_without_a_secret_changes_nothing(text):
    if "sk-" in text or "AIza" in text or "earer" in text or "basic" in text.lower():  # (a boundary after ``Basic x``: masked)
        return
    assert scrub_secrets(text) == text
    assert "".join(ChunkScrubber().scrub(p) for p in (text[:len(text) // 2], text[len(text) // 2:])) == text


# ---- secrets of more shapes (issue 24 item 5) and keys split across events (issue 23 item 11)
SHAPED = [  # (a key of each maintained shape, the type prefix that stays readable)
    ("sk-ant-api03-" + "Ab1_Cd2-Ef3" * 6, "sk-ant-"),
    ("sk-proj-" + "Zy9Xw8Vu7T" * 5, "sk-"),
    ("sk-or-v1-" + "0123456789abcdef" * 4, "sk-or-v1-"),
    ("AIzaSyA" + "1234567890abcdefghijklmnopqrstu", "AIza"),
    ("AKIAIOSFODNN7EXAMPLE", "AKIA"),
    ("ASIAY34FZKBOKMUTVV7A", "ASIA"),
    ("ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", "ghp_"),
    ("github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEF0123", "github_pat_"),
    ("glpat-" + "xYz123AbC456dEf789gH", "glpat-"),
    ("xoxb-2048-4096-" + "a1B2c3D4e5F6g7H8", "xoxb-"),
    ("hf_" + "QwErTyUiOpAsDfGhJkLzXcVbNm12345678", "hf_"),
    ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk", "eyJ"),
]


@pytest.mark.parametrize("key, prefix", SHAPED, ids=[p for _, p in SHAPED])
def test_every_maintained_key_shape_is_masked_keeping_only_its_type(key, prefix):
    out = scrub_secrets(f'{{"text": "use {key} now"}}')
    assert out == f'{{"text": "use {prefix}[redacted] now"}}'


def test_bearer_and_basic_credentials_anywhere_but_not_ordinary_words():
    out = scrub_secrets("curl -H 'Authorization: Basic dXNlcjpodW50ZXIy' -H 'x: bearer abcdefghijklmnop1234'")
    assert "dXNlcjpodW50ZXIy" not in out and "abcdefghijklmnop1234" not in out
    prose = "Basic information on the bearer instrument; Basic usage"
    assert scrub_secrets(prose) == prose


@pytest.mark.parametrize("said", ["basic dXNlcjpodW50ZXIy", "BASIC dXNlcjpodW50ZXIy", "bAsIc dXNlcjpodW50ZXIy",
                                  "Basic\tdXNlcjpodW50ZXIy", "basic\ndXNlcjpodW50ZXIy",
                                  '{"h": "Basic\\tdXNlcjpodW50ZXIy"}', '{"h": "bearer\\nabcdefghijklmnop1234"}',
                                  "BEARER abcdefghijklmnop1234", "bearer\tabcdefghijklmnop1234"])
def test_the_scheme_word_in_any_case_and_any_white_space_after_it(said):
    """RFC 9110 §11.1: scheme names are case-insensitive; the white space may be a tab, or a JSON
    escape of one in a raw event."""
    out = scrub_secrets(said)
    assert "dXNlcjpodW50ZXIy" not in out and "abcdefghijklmnop1234" not in out and "[redacted]" in out


def test_the_word_basic_before_an_ordinary_word_is_prose():
    """Any spelling but ``Basic`` needs printable ``user:password``: ``basic`` before an ordinary word
    is common, and some words decode to a ``:`` (``tzoffset``: ``b"\\xb7:\\x1f~\\xc7\\xad"``)."""
    import base64

    assert b":" in base64.b64decode("tzoffset")  # a word that ``Basic`` alone takes
    assert scrub_secrets("Basic tzoffset") == "Basic [redacted]"
    prose = ("the basic tzoffset class, BASIC settings, basic\tauthentication, bASIC information; basically classic, "
             "Basic information")
    assert scrub_secrets(prose) == prose


@pytest.mark.parametrize("name", ["x-portkey-api-key", "x-litellm-api-key", "cf-aig-authorization", "X-Auth-Token",
                                  "x-csrf-token", "client_secret", "x-db-password", "Set-Cookie", "X-Amz-Credential"])
def test_headers_are_redacted_by_the_shape_of_their_name(name):
    assert redact_headers({name: "Bearer cfut_q9w8e7r6t5y4"}) == {name: "[redacted]"}


@pytest.mark.parametrize("name", ["anthropic-ratelimit-tokens-remaining", "x-ratelimit-limit-tokens", "content-type",
                                  "monkey", "keep-alive", "x-request-id", "openai-organization"])
def test_counts_and_ordinary_names_are_kept(name):
    assert redact_headers({name: "42"}) == {name: "42"}


def test_query_parameters_of_the_same_names_are_redacted():
    url = "https://gw.example/v1/chat?token=tok_abc123&max_tokens=5&pageToken=p1&api_key=k&alt=sse"
    assert redact_url(url) == ("https://gw.example/v1/chat?token=[redacted]&max_tokens=5&pageToken=[redacted]"
                               "&api_key=[redacted]&alt=sse")


def _delta_event(text: str) -> str:
    return ('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":'
            '{"type":"text_delta","text":' + json.dumps(text) + "}}\n\n")


@pytest.mark.parametrize("key, prefix", SHAPED, ids=[p for _, p in SHAPED])
def test_a_key_streamed_in_several_deltas_is_masked_in_each_event(key, prefix):
    rng = random.Random(key)
    for _ in range(30):
        cuts = sorted(rng.sample(range(1, len(key)), k=rng.randint(1, 4)))
        parts = [key[a:b] for a, b in zip([0, *cuts], [*cuts, len(key)])]
        events = [_delta_event("the key is ")] + [_delta_event(p) for p in parts] + [_delta_event(" - keep it safe")]
        scrubber = ChunkScrubber()
        written = "".join(scrubber.scrub(e) for e in events)  # one event per network chunk
        whole = ChunkScrubber().scrub("".join(events))  # all events in one chunk
        secret = key[len(prefix):]
        for out in (written, whole):
            # no run of 5 characters of the key's secret part survives in any event
            assert not any(secret[i:i + 5] in out for i in range(len(secret) - 4)), (parts, out)
            assert "the key is " in out and " - keep it safe" in out


def test_a_split_key_in_tool_arguments_and_a_network_cut_inside_the_value():
    key = "sk-ant-api03-" + "Qq7Ww8Ee9Rr0" * 6
    args = json.dumps({"token": key})
    events = [('data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta",'
               '"partial_json":' + json.dumps(piece) + "}}\n\n") for piece in (args[:20], args[20:45], args[45:])]
    stream = "".join(events)
    rng = random.Random(5)
    for _ in range(50):
        chunks = _cuts(stream, rng)
        scrubber = ChunkScrubber()
        out = "".join(scrubber.scrub(c) for c in chunks)
        assert not any(key[i:i + 8] in out for i in range(7, len(key) - 7)), (chunks, out)


def test_event_masks_show_each_event_of_a_split_key_masked_in_any_order():
    from inspector.capture.redact import EventMasks
    from inspector.model.events import EventRecord

    key = "ghp_" + "Mn4Bv5Cx6Zl7Kj8Hg9Fd0Sa1Qw2Er3Ty4Ui5"
    datas = ['{"type":"ping"}'] * 700 + ['{"text":"token ' + key[:10] + '"}', '{"text":"' + key[10:] + '"}']
    events = [EventRecord(i, "message", d, None, None, None) for i, d in enumerate(datas)]
    masks = EventMasks(events)
    last, before = masks.shown(701), masks.data(700)  # asked out of order, the later first
    assert key[10:] not in last.data and last.payload == {"text": "[redacted]"}
    assert key[4:10] not in before and before.startswith('{"text":"token ghp_')
    assert masks.shown(0) is events[0]  # nothing to mask: the same record


def test_every_delta_field_a_dialect_streams_is_followed_across_events():
    from inspector.capture.redact import STREAMED_FIELDS
    from inspector.providers import PROVIDERS

    run_keys = {k for d in (p.dialect for p in PROVIDERS.values()) for keys in (getattr(d, "run_keys", None) or {}).values() for k in keys}
    assert run_keys <= set(STREAMED_FIELDS), run_keys - set(STREAMED_FIELDS)


def test_maybe_key_is_exactly_one_prefix_in_the_text():
    from inspector.capture.keyshapes import PREFIXES, maybe_key

    rng = random.Random(3)
    alphabet = ALNUM + "_- .:\"{}"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 16)))
        if rng.random() < 0.5:
            cut = rng.randint(0, len(text))
            prefix = rng.choice(PREFIXES)[rng.randint(0, 1):]
            if prefix in ("earer", "basic", "asic") and rng.random() < 0.5:  # matched in any case
                prefix = "".join(c.upper() if rng.random() < 0.5 else c for c in prefix)
            text = text[:cut] + prefix + text[cut:]
        low = text.lower()
        assert maybe_key(text) == any(p in (low if p in ("earer", "basic") else text) for p in PREFIXES), text


def test_the_quick_verdict_across_values_agrees_with_reading_every_value(monkeypatch):
    """``_nothing_across`` may skip finding each value's place only when that would mask nothing
    and leave the same state: checked on streams of several fields, escapes, key starts and whole
    keys split anywhere, cut into chunks anywhere, with and without a remembered credential."""
    import copy

    disagreements = []

    def both(self, joined, n, spans, hot, found=None):
        before = copy.deepcopy(self.__dict__)
        quick = self._nothing_across(joined, n, hot, found)
        after_quick = copy.deepcopy(self.__dict__)
        self.__dict__.update(copy.deepcopy(before))
        found: list = []
        self._value_spans(joined, n, found, hot)
        if quick and (found or after_quick != self.__dict__):
            disagreements.append(joined[n:])
        spans += found

    monkeypatch.setattr(ChunkScrubber, "_across_values", both)
    keys = ["sk-ant-api03-" + "Qq7Ww8Ee9Rr0" * 3, "AKIAIOSFODNN7EXAMPLE", "ghp_" + "Mn4Bv5Cx6Zl7Kj8Hg9Fd0Sa1Qw2Er3Ty4Ui5",
            "Bearer abcdefghijklmnopqrstu", "hf_" + "a1" * 17, "s", "sk", "github_p", "remembered-credential-77"]
    words = ["the ", "key ", "is ", 'a\\"b ', "x", " ", "s", "ok.", "\\\\", "é"]
    rng = random.Random(11)
    for round_ in range(2):
        if round_:
            remember_secret("remembered-credential-77")
        for _ in range(1500):
            text = "".join(rng.choice(words + keys) for _ in range(rng.randint(1, 12)))
            pieces, i = [], 0
            while i < len(text):
                k = rng.randint(1, 15)
                pieces.append(text[i:i + k])
                i += k
            names = ["text", "partial_json", "arguments"][:rng.randint(1, 3)]
            body = "".join('data: {"type":"d","' + rng.choice(names) + '":' + json.dumps(p) + "}\n\n" for p in pieces)
            points = sorted(rng.sample(range(1, len(body)), k=min(len(body) - 1, rng.randint(0, 8))))
            scrubber = ChunkScrubber()
            for a, b in zip([0, *points], [*points, len(body)]):
                scrubber.scrub(body[a:b])
            assert not disagreements, disagreements[0]


def test_the_plain_piece_shortcut_masks_and_remembers_what_the_full_reading_does(monkeypatch):
    """``ChunkScrubber.scrub`` returns a piece with no key prefix as it is, without the reading
    across values, when ``_plain`` proves its values cannot continue or begin a key: on random
    streams (one value per event or several, keys split anywhere, cut anywhere, then with a
    remembered credential) every piece comes out as with the shortcut turned off, and the
    scrubber's state after it is the same."""
    import copy

    from inspector.capture import redact

    words = ["the ", "key ", "is ", 'a\\"b ', "x", " ", "s", "sk", "-ant-api03-", "Qq7Ww8Ee9Rr0" * 3, "gh", "p_",
             "Mn4Bv5Cx6Zl7Kj8Hg9Fd0Sa1Qw2Er3Ty4Ui5", "ok.", "e", "yJ", "hf", "_" + "a1" * 17, "é",
             "sk-\\u0061nt-api03-", "\\u00"]
    rng = random.Random(5)
    taken = 0
    real_plain = redact._plain

    def counted(found):
        nonlocal taken
        ok = real_plain(found)
        taken += ok
        return ok

    for i in range(600):
        if i == 300:
            remember_secret("remembered-credential-77")
            words.append("remembered-credential-77")
        deltas = [rng.choice(words) for _ in range(rng.randint(1, 14))]
        names = ["text", "partial_json", "arguments"][:rng.randint(1, 3)]
        events = ['data: {"type":"d","' + rng.choice(names) + '":' + json.dumps(d) + "}\n\n" for d in deltas]
        body = "".join(events)
        points = sorted(rng.sample(range(1, len(body)), k=min(len(body) - 1, rng.randint(0, 4))))
        if rng.random() < 0.5:  # cut at event boundaries, as the proxy's chunks mostly are
            points = sorted({sum(map(len, events[:i])) for i in range(1, len(events))})
        quick, full = ChunkScrubber(), ChunkScrubber()
        for a, b in zip([0, *points], [*points, len(body)]):
            monkeypatch.setattr(redact, "_plain", counted)
            out_quick = quick.scrub(body[a:b])
            monkeypatch.setattr(redact, "_plain", lambda found: False)
            out_full = full.scrub(body[a:b])
            assert out_quick == out_full, body
            assert copy.deepcopy(quick.__dict__) == copy.deepcopy(full.__dict__), body
    assert taken > 100  # the shortcut was taken often enough to be tested


def test_a_report_block_is_scrubbed_as_a_walk_over_every_string_would_scrub_it():
    """``scrubbed_block`` skips walking the parsed input only where the text proves it clean: keys
    written with a JSON escape, remembered credentials, keys in names and ids are all still masked."""
    from inspector.model.blocks import Block
    from inspector.model.jsonprogress import JsonProgress
    from inspector.report.json import scrubbed_block

    remember_secret("plain-credential-1234")
    key = "sk-ant-api03-" + "Zx9Cv8Bn7Mm6" * 3
    escaped = key.replace("a", "\\u0061")
    texts = ['{"path": "a.py"}', json.dumps({"k": key}), '{"k": "' + escaped + '"}', '{"k": "plain-credential-1234"}',
             '{"k": "pl\\u0061in-credential-1234"}', '{"a": ["x\\ny", {"b": "Bearer abcdefghijklmnopqrst"}]}',
             '"just text"', "not json", '{"k": "sk-ant-api03-short"}']
    for tool in (True, False):
        for text in texts:
            b = Block(kind="tool_use" if tool else "text", index=0, id=key if text == texts[1] else "toolu_1",
                      name="f", tool=tool, closed=True)
            b.append(text)
            if tool:
                b.progress = JsonProgress()
                b.progress.feed(text)
            assert scrubbed_block(b) == scrub_value(b.to_dict()), text
            # The text too: a key written with JSON escapes is masked in it as in its parsed input.
            shown = json.dumps(scrubbed_block(b))
            assert key[13:] not in shown and escaped[13:] not in shown.replace("\\\\", "\\"), text
            assert "credential-1234" not in shown, text
            assert (b.input is not None) == (tool and text not in ("not json",))
            assert key[13:] not in json.dumps(scrubbed_block(b)["input"])


def test_a_key_written_with_json_escapes_is_masked_in_events_also_split_over_deltas():
    """RFC 8259 §7 lets a writer escape any character: ``sk-\\u0061nt-…`` is a key once the
    arguments are parsed. In the events that stream it the escape is escaped again (``\\\\u0061``),
    and a delta may end inside the escape or just after the key's type prefix."""
    from inspector.capture.redact import ChunkScrubber

    body = "Zz8Yy7Xx" * 6
    key = "sk-\\u0061nt-api03-" + body
    for cut in (3, 7, 9, 12, 20):
        scrubber = ChunkScrubber()
        pieces = ['{"k": "', key[:cut], key[cut:], '"}']
        shown = [scrubber.scrub(json.dumps({"delta": {"partial_json": p}})) for p in pieces]
        assert not any(body[i:i + 8] in s for s in shown for i in range(len(body) - 7)), (cut, shown)
    assert scrub_secrets(json.dumps({"k": key})) == '{"k": "sk-ant-[redacted]"}'


def test_what_may_begin_a_key_at_the_end_of_text_still_arriving_is_found_also_escaped():
    """``open_secret``: where a view of text still arriving masks from (after the type prefix)."""
    from inspector.capture.redact import open_secret

    assert open_secret('{"k": "sk-proj-abcdefghij') == len('{"k": "sk-')
    assert open_secret('{"k": "sk-\\u0061nt-api0') == len('{"k": "sk-')
    assert open_secret('{"k": "sk-\\u00') == len('{"k": "sk-')
    assert open_secret('{"k": "a plain value') is None
    assert open_secret('{"k": "\\u00e9t\\u00e9"') is None


def test_a_key_after_a_basic_word_that_is_no_credential_is_still_masked():
    """``Basic`` before a key (not ``user:password`` in base64) once swallowed the key with the word,
    so every sink built on the key scan showed it whole."""
    google = "AIza" + "SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p_6Q7"
    plain = f"Authorization: Basic {google}"
    assert scrub_secrets(plain) == "Authorization: Basic AIza[redacted]"
    assert [shown for *_, shown in secret_spans(plain)] == ["AIza[redacted]"]
    escaped = '{"h": "Basic ' + google[:5] + f"\\u00{ord(google[5]):02x}" + google[6:] + '"}'  # a letter escaped
    assert google[8:] not in scrub_secrets(escaped)
    assert google[8:] not in str(scrub_value({"headers": plain}))
    credential = "dXNlcjpodW50ZXIy"  # base64 of user:hunter2: still masked as a whole credential
    assert scrub_secrets(f"Basic {credential} and Basic {google}") == "Basic [redacted] and Basic AIza[redacted]"


@pytest.mark.parametrize("key, prefix", SHAPED, ids=[p for _, p in SHAPED])
@pytest.mark.parametrize("escape", ["\n", "\t", "\r", "\b", "\f", "\u2028", "\x01", "\u00e9", "\U0001F600"])
def test_a_key_after_a_json_escaped_control_character_is_masked_in_raw_text(key, prefix, escape):
    """In raw event text a newline is the two characters ``\\n``: a key that starts a line follows the
    letter ``n`` (after ``\\u2028`` or an escaped emoji: a hex digit). It was written whole to recordings (the check report, which scrubs the assembled
    text, masked it); also when deltas cut it, right after the escape or inside its type prefix."""
    raw = json.dumps({"text": f"Your key:{escape}{key} ok"})  # non-ASCII as ``\\uXXXX`` (ensure_ascii)
    assert key[len(prefix):] not in scrub_secrets(raw)
    secret = key[len(prefix):]
    for cut in range(len(prefix) + 2):
        events = [_delta_event(f"Your key:{escape}{key[:cut]}"), _delta_event(key[cut:] + " ok")]
        scrubber = ChunkScrubber()
        for out in ("".join(scrubber.scrub(e) for e in events), ChunkScrubber().scrub("".join(events))):
            assert not any(secret[i:i + 5] in out for i in range(len(secret) - 4)), (cut, out)


def test_a_word_that_merely_ends_in_n_before_a_key_shape_stays_a_word():
    """The escape counts, not the letter: ``hisk-proj-…`` is one word (no key begins inside a word)."""
    word = "hisk-proj-" + "a" * 24
    assert scrub_secrets(json.dumps({"text": word})) == json.dumps({"text": word})


@pytest.mark.parametrize("key, prefix", SHAPED, ids=[p for _, p in SHAPED])
@pytest.mark.parametrize("before", ["ANTHROPIC_API_KEY=", "path/", "a+", "x~", "end."])
def test_a_key_cut_in_its_first_characters_after_a_sign_no_word_holds_is_masked(key, prefix, before):
    """``KEY=sk`` then ``-ant-…``: a key begins after ``=``, ``/``, ``+``, ``~`` or ``.`` (``KEY`` reads it
    so), but a value ending in a short start of one after such a sign was not taken as its beginning,
    so the next value's part of the key was written whole."""
    secret = key[len(prefix):]
    for cut in range(1, len(prefix) + 1):
        events = [_delta_event(before + key[:cut]), _delta_event(key[cut:] + " ok")]
        scrubber = ChunkScrubber()
        out = "".join(scrubber.scrub(e) for e in events)
        assert not any(secret[i:i + 5] in out for i in range(len(secret) - 4)), (cut, out)


_SPLIT_KEYS = ["sk-ant-api03-" + "Nm7Bv6Cx5Zl4Kj3Hg2Fd1Sa0Qw9Er8Ty7Ui6Op5", "AKIAZ7XQ4MPLE3KEYID9",
               "ghp_" + "aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5", "sk-proj-" + "Zz8Yy7Xx" * 5]


@pytest.mark.parametrize("seed", range(6))
def test_a_key_cut_by_deltas_and_by_network_chunks_at_once_never_shows(seed):
    """A key split over deltas (text, or tool arguments whose escapes are escaped again) and the stream
    cut into network chunks anywhere: no 8 characters of its secret part in what is written. Each of
    these once showed: a closed value holding the key's start with the piece ending inside the next
    value (``_read`` of an open value), a backslash ending a piece that escapes the quote opening the
    next (``_value_end``), an escape cut short between two values (``_escaped_begun``), a look-behind
    held by the previous value (``\\\\t`` | ``AKIA…``)."""
    rng = random.Random(seed)
    for _ in range(60):
        key = rng.choice(_SPLIT_KEYS)
        text = "pre" + rng.choice([" ", "\n", "\t", ": ", "\u2028", "é", '"', "(", "=", "/"]) + key + rng.choice([" post", ".", "\n", ""])
        field, kind = ("partial_json", "input_json_delta") if rng.random() < 0.4 else ("text", "text_delta")
        if field == "partial_json":
            text = json.dumps({"k": text})
        cuts = sorted(rng.sample(range(1, len(text)), rng.randint(0, 4)))
        parts = [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
        body = "".join('event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":'
                       f'{{"type":"{kind}","{field}":{json.dumps(p)}}}}}\n\n' for p in parts)
        scrubber = ChunkScrubber()
        out = "".join(scrubber.scrub(c) for c in _cuts(body, rng))
        secret = key[4:] if key[0] in "Ag" else key[key.index("-", 3) + 1:]
        assert not any(secret[i:i + 8] in out for i in range(len(secret) - 7)), (parts, out)


def test_a_whole_escaped_backslash_after_what_may_begin_a_key_is_kept():
    """``x`` may begin ``xoxb-``, and a piece ending inside an escape is masked from the escape (it may
    write a key's character); a whole escaped backslash writes none: a stream without a key stays as it is."""
    body = "".join(_delta_event(v) for v in ("hello x\\", "<x\\", " ok"))
    for cut in range(1, len(body)):
        scrubber = ChunkScrubber()
        assert scrubber.scrub(body[:cut]) + scrubber.scrub(body[cut:]) == body, cut


# ---- a ``Basic``/``Bearer`` credential whose first part ends a piece (the rest comes with the next)
SCHEME_CASES = [(word, ws, body) for word in ("Basic", "BASIC", "bAsIc") for ws in (" ", "\t") for body in ("plain", "sse")]
SCHEME_CASES += [("bEaReR", "\t", "sse"), ("bearer", " ", "plain")]
BASIC_CREDENTIAL = "YWxpY2U6czNjcmV0LXBhc3M="  # base64 of alice:s3cret-pass (printable: every spelling masks it)
BEARER_TOKEN = "Zq9Xw8Vu7Ts6Rq5Po4Nm3Lk2"


def _said(word: str, ws: str) -> tuple[str, str]:
    """A curl line quoting a credential after ``word`` and ``ws``, and the credential."""
    secret = BEARER_TOKEN if word.lower() == "bearer" else BASIC_CREDENTIAL
    return f"curl -H 'authorization: {word}{ws}{secret}' -d done", secret


def _shows(written: str, secret: str) -> list[str]:
    """The runs of 4 characters of ``secret`` that ``written`` holds."""
    return [secret[i:i + 4] for i in range(len(secret) - 3) if secret[i:i + 4] in written]


def _written(tmp_path, name: str, pieces: list[str]) -> str:
    """What a ``Recorder`` fed ``pieces`` as network chunks writes: the file and the chunks it reads back as."""
    from inspector.capture.load import load_path
    from inspector.capture.recorder import Recorder

    path = tmp_path / f"{name}.jsonl"
    with Recorder(path) as rec:
        for i, piece in enumerate(pieces):
            rec.chunk(0.1 * i, piece.encode())
    return path.read_text() + "".join(c.data.decode() for c in load_path(path).chunks)


@pytest.mark.parametrize("word, ws, body", SCHEME_CASES)
def test_a_scheme_credential_cut_anywhere_by_a_chunk_boundary_never_shows(word, ws, body, tmp_path):
    """A piece ending in ``Basic dXNl`` (or ``BASIC\\tYW``, or ``bAsIc\\`` inside a JSON escape) is
    written before the rest arrives: what it holds of the credential is masked at once."""
    text, secret = _said(word, ws)
    stream = _delta_event(text) if body == "sse" else text + "\n"
    assert _shows(stream, secret)
    start = stream.index(word)
    for cut in range(start, stream.index("done")):
        scrubber = ChunkScrubber()
        pieces = [scrubber.scrub(stream[:cut]), scrubber.scrub(stream[cut:])]
        assert not _shows("".join(pieces), secret), (cut, pieces)
        kept = stream[:start] + word if cut >= start + len(word) else stream[:cut]  # (a word cut: its rest masked with the key)
        assert "".join(pieces).startswith(kept) and pieces[1].endswith(stream[stream.index("done"):])
    for cut in range(stream.index(secret) - 1, stream.index(secret) + len(secret) + 1):
        assert not _shows(_written(tmp_path, str(cut), [stream[:cut], stream[cut:]]), secret), cut


@pytest.mark.parametrize("word, ws, body", [c for c in SCHEME_CASES if c[2] == "sse"])
def test_a_scheme_credential_cut_anywhere_by_a_delta_boundary_never_shows(word, ws, body, tmp_path):
    """Two events, the first ending in the scheme word (a token), its white space or part of the
    credential: each event a network chunk, all in one chunk, through a recording, and as
    ``EventMasks`` shows them."""
    from inspector.capture.redact import EventMasks
    from inspector.model.events import EventRecord

    text, secret = _said(word, ws)
    for cut in range(text.index(word) + len(word), text.index("done")):
        events = [_delta_event(text[:cut]), _delta_event(text[cut:])]
        scrubber = ChunkScrubber()
        one_each = [scrubber.scrub(e) for e in events]
        assert not _shows("".join(one_each), secret), (cut, one_each)
        assert not _shows(ChunkScrubber().scrub("".join(events)), secret), cut
        assert not _shows(_written(tmp_path, str(cut), events), secret), cut
        masks = EventMasks([EventRecord(i, "message", e.split("data: ")[1], None, None, None) for i, e in enumerate(events)])
        assert not _shows(masks.data(0) + masks.data(1), secret), cut


def _open_runs(text: str) -> list[tuple[int, int]]:
    """Where each ``Basic`` word's run of base64 characters after white space lies in ``text``."""
    import re

    return [m.span(1) for m in re.finditer(r"(?i:\bbasic)(?:\s|\\t)+([A-Za-z0-9+/]+)", text)]


@pytest.mark.parametrize("body", ["plain", "sse"])
def test_text_with_the_word_basic_and_no_credential_is_unchanged_when_no_boundary_ends_inside_its_run(body):
    """A piece is masked only when it ends inside ``Basic``, white space and base64 characters (a
    boundary right there): cut anywhere else, by a chunk or a delta boundary, prose with the word
    comes out as it went in."""
    prose = "Basic usage: BASIC programs, the basic\tidea and basic information; basically classic. Basic+ plan"
    stream = _delta_event(prose) if body == "sse" else prose
    runs = _open_runs(stream)
    assert len(runs) == 4
    for cut in range(1, len(stream)):
        if not any(a < cut <= b for a, b in runs):
            scrubber = ChunkScrubber()
            assert scrubber.scrub(stream[:cut]) + scrubber.scrub(stream[cut:]) == stream, cut
    runs = _open_runs(prose)
    for cut in range(1, len(prose) if body == "sse" else 0):
        if not any(a < cut <= b for a, b in runs):
            events = [_delta_event(prose[:cut]), _delta_event(prose[cut:])]
            scrubber = ChunkScrubber()
            assert [scrubber.scrub(e) for e in events] == events, cut


def test_a_boundary_right_after_basic_us_masks_the_open_end_the_trade_off():
    """``Basic us`` may go on as ``Basic usage`` or as ``Basic usXy…`` (a credential): written
    before the rest arrives, so masked. Any other spelling masks only what may still begin a
    credential it masks whole (base64 of printable ``user:password``): ``us`` decodes to the byte
    0xBA, no start of UTF-8 text, so ``basic us`` is kept; ``BASIC PR`` (``=``) is masked."""
    from inspector.capture.redact import open_secret

    for said, shown in [("Basic us", "Basic [redacted]"), ("basic us", "basic us"), ("BASIC PR", "BASIC [redacted]"),
                        ("BASIC PRO", "BASIC PRO"), ("bAsIc\\tdX", "bAsIc\\t[redacted]")]:
        scrubber = ChunkScrubber()
        assert scrubber.scrub(f"see {said}") + scrubber.scrub("age.") == f"see {shown}age.", said
        open_at = shown.find("[redacted]")
        assert open_secret(f"see {said}") == (None if open_at < 0 else len("see ") + open_at), said
        said, shown = said.replace("\\t", "\t"), shown.replace("\\t", "\t")  # in an event: the tab, JSON-escaped
        scrubber = ChunkScrubber()
        assert scrubber.scrub(_delta_event(f"see {said}")) == _delta_event(f"see {shown}"), said


@pytest.mark.parametrize("word, ws", [("Basic", "\t"), ("bAsIc", "\n"), ("BEARER", "\t"), ("Basic", " ")])
def test_a_scheme_credential_in_tool_arguments_after_an_escaped_tab_never_shows(word, ws):
    """In tool arguments a tab is escaped twice in the raw event (``"Basic\\\\\\\\t…"``): the whole
    credential in one delta was written to the recording as it was; also cut at every offset."""
    secret = BEARER_TOKEN if word.lower() == "bearer" else BASIC_CREDENTIAL
    args = json.dumps({"h": f"{word}{ws}{secret}", "n": 1})

    def event(part: str) -> str:
        return 'data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":' + \
            json.dumps(part) + "}}\n\n"

    assert not _shows(ChunkScrubber().scrub(event(args)), secret)
    for cut in range(args.index(word) + len(word), args.index(secret) + len(secret)):
        scrubber = ChunkScrubber()
        out = [scrubber.scrub(event(args[:cut])), scrubber.scrub(event(args[cut:]))]
        assert not _shows("".join(out), secret), (cut, out)
