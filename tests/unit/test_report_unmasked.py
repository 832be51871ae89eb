"""A report's wire strings are tested for secrets once, all together (``inspector.report.unmasked``):
when the test passes each string is what scrubbing it would give, and when one string holds a key
or a remembered credential every mask is the one scrubbing that string gives."""
from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from inspector.capture.redact import remember_secret, scrub_secrets
from inspector.report import json as json_report, text as text_report
from inspector.report.unmasked import clean_throughout, joined
from tests.helpers import check_bytes, sse
from tests.unit.test_dialect_anthropic import MSG_START, STOP, args, reason, start, stop

GOOGLE = "AIzaSyQ7w8E9r0T1y2U3i4O5p6Q7w8E9r0T1y2U"
"""A Google API key's shape: ``AIza`` and 35 letters and digits, all of them base64 characters."""
REMEMBERED = "zq8RememberedCredential77"
"""A credential with no key shape, masked only because this process remembers it."""
remember_secret(REMEMBERED)

FRAGMENTS = ["sk-", "ant-", "api03-", "A", "Iza", "KIA", "SIA", "gh", "p_", "hf_", "github_", "pat_", "glpat-",
             "xoxb-", "ey", "J", "Bearer", "bearer", "BEARER", " ", "\t", "\n", "Basic ", "dXNlcjpwYXNzd29yZA==",
             "\\", "u00", "u0061", "61", "Q7w8E9r0T1y2U3i4O5p6", "_", "-", ".", "/", "x", "{\"k\":", "\"",
             "zq8Remembered", "Credential77", "é", "Basic\t", GOOGLE, GOOGLE[1:]]
"""Pieces of keys, escapes, credential schemes and the remembered credential, to build strings
that hold a secret, almost hold one, or hold one only across two strings."""

STRINGS = st.lists(st.lists(st.sampled_from(FRAGMENTS), max_size=8).map("".join), max_size=6)


@settings(max_examples=600, deadline=None)
@given(STRINGS)
@example(["Q7w8E9r0T1y2U3i4O5p6", "x"])
@example(["x" + REMEMBERED, "y"])
@example(["sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6"])
@example(["sk-\\u0061nt-api03-Q7w8E9r0T1y2U3i4O5p6"])
@example(["Basic", GOOGLE])  # joined, ``Basic`` takes the key as its (non-)credential: the key's prefix must decide
@example(["Basic\t", "\\u0041" + GOOGLE[1:]])  # the same with the key escaped: ``\\u00`` must decide
def test_a_clean_join_means_every_string_scrubs_to_itself(strings):
    """Also when joining makes a match that no single string has and that scrubbing leaves as it
    is (``Basic`` followed by what is no ``user:password``), swallowing a key that follows it."""
    if clean_throughout(joined(strings)):
        assert [scrub_secrets(s) for s in strings] == strings


@pytest.mark.parametrize("secret", ["sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6", "sk-\\u0061nt-api03-Q7w8E9r0T1y2U3i4O5p6",
                                    "Bearer Q7w8E9r0T1y2U3i4O5p6", REMEMBERED])
def test_any_string_with_a_secret_fails_the_test(secret):
    assert clean_throughout(joined(["plain", "toolu_01", "{\"path\":\"a.py\"}"]))
    assert not clean_throughout(joined(["plain", f"id {secret} here", "{\"path\":\"a.py\"}"]))


def test_the_joined_text_is_searched_for_key_shapes_once(monkeypatch):
    """``clean_throughout`` asks ``maybe_key`` once: after it and the escape test, only remembered
    credentials can change the text (``scrub_remembered``), so ``scrub_secrets``'s own look is not
    paid a second time over the whole report."""
    import inspector.capture.redact as redact
    import inspector.report.unmasked as unmasked

    asked, maybe_key = [], redact.maybe_key
    monkeypatch.setattr(unmasked, "maybe_key", lambda t: asked.append(t) or maybe_key(t))
    monkeypatch.setattr(redact, "maybe_key", lambda t: pytest.fail("key shapes searched again"))
    text = joined(["plain", "toolu_01", "{\"path\":\"a.py\"}"])
    assert clean_throughout(text) and asked == [text]
    assert not clean_throughout(joined(["plain", "x" + REMEMBERED]))


@pytest.mark.parametrize("text", ["", "plain", "a " + REMEMBERED + " b " + REMEMBERED, REMEMBERED[:-1],
                                  "sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6"])
def test_scrub_remembered_is_the_remembered_step_of_scrub_secrets(text):
    """Masks each remembered credential as ``scrub_secrets`` does, and touches nothing else (a key
    shape stays: that is the other steps' work); unchanged text is the same object."""
    from inspector.capture.redact import scrub_remembered

    out = scrub_remembered(text)
    assert REMEMBERED not in out
    if REMEMBERED in text:
        assert out == text.replace(REMEMBERED, scrub_secrets(REMEMBERED))
    else:
        assert out is text


def test_a_string_the_test_cannot_vouch_for_fails_it():
    assert joined(["a", None, "b"]) == "a b"
    assert joined(["a", 7]) is None and not clean_throughout(None)


def _calls(n: int, call_id=lambda i: f"toolu_{i:03d}") -> bytes:
    events = [MSG_START]
    for i in range(n):
        events += [start(i, "tool_use", id=call_id(i), name="read"), args(i, '{"path":'), args(i, f'"m{i}.py"}}'),
                   stop(i)]
    return sse(*events, reason("tool_use"), STOP)


def test_a_clean_report_scrubs_no_string_on_its_own(monkeypatch):
    """50 clean calls: the JSON report calls ``scrub_secrets`` for none of the 200 wire strings
    (only for ``stop_reason``), and reads the same as with the scrub of each."""
    s = check_bytes(_calls(50))
    each = json_report.report_dict("x", s)
    seen = []
    monkeypatch.setattr(json_report, "scrub_secrets", lambda t: seen.append(t) or scrub_secrets(t))
    assert json_report.report_dict("x", s) == each
    assert seen == ["tool_use"]
    assert [b["id"] for b in each["blocks"]] == [f"toolu_{i:03d}" for i in range(50)]


@pytest.mark.parametrize("fmt", ["json", "text"])
@pytest.mark.parametrize("secret", ["sk-ant-api03-Q7w8E9r0T1y2U3i4O5p6", REMEMBERED])
def test_one_secret_among_many_clean_calls_is_masked_as_its_own_scrub_masks_it(fmt, secret):
    """A key shape or a remembered credential as one call's id, among 50 clean calls: masked in
    both reports exactly as scrubbing that id alone masks it; every other string as it came."""
    s = check_bytes(_calls(50, call_id=lambda i: secret if i == 17 else f"toolu_{i:03d}"))
    out = (json_report if fmt == "json" else text_report).render("x", s)
    assert secret not in out
    masked = scrub_secrets(secret)
    assert masked != secret
    if fmt == "json":
        ids = [b["id"] for b in json.loads(out)["blocks"]]
        assert ids == [masked if i == 17 else f"toolu_{i:03d}" for i in range(50)]
    else:
        assert f"id={masked} " in out and "id=toolu_016 " in out and "m16.py" in out
