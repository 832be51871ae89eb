"""Secrets never reach a file or the screen: key shapes, remembered credentials, chunk boundaries."""
from __future__ import annotations

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.capture.redact import (
    ChunkScrubber, remember_headers, remember_query_secrets, remember_secret,
    scrub_secrets, scrub_value,
)

ALNUM = string.ascii_letters + string.digits


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
    if "sk-" in text or "AIza" in text or "earer" in text:
        return
    assert scrub_secrets(text) == text
    assert "".join(ChunkScrubber().scrub(p) for p in (text[:len(text) // 2], text[len(text) // 2:])) == text
