"""``inspector.model.lazyre.lazy``: a pattern compiled on first use behaves as ``re.compile``'s."""
from __future__ import annotations

import re

from inspector.model.lazyre import lazy


def test_a_lazy_pattern_answers_as_the_compiled_one():
    rx, text = r"(?i:\bbearer)\s+([A-Za-z0-9._~+/-]*=*)\Z", "x Authorization: Bearer abc.def=="
    lazy_rx, compiled = lazy(rx), re.compile(rx)
    assert lazy_rx.search(text).span() == compiled.search(text).span()
    assert lazy_rx.sub("!", text) == compiled.sub("!", text)
    assert [m.group(1) for m in lazy_rx.finditer(text)] == [m.group(1) for m in compiled.finditer(text)]
    assert (lazy_rx.pattern, lazy_rx.groups) == (rx, 1)
    assert lazy(rb"[\xef\xbb\xbf \t]*").match(b"\xef\xbb\xbf  x").end() == 5


def test_nothing_is_compiled_before_first_use(monkeypatch):
    compiled = []
    real = re.compile
    monkeypatch.setattr(re, "compile", lambda *a: compiled.append(a) or real(*a))
    rx = lazy(r"sk-[a-z]+", re.I)
    assert compiled == []
    assert rx.fullmatch("SK-abc") is not None and rx.fullmatch("sk-1") is None
    assert compiled == [(r"sk-[a-z]+", re.I)]  # once, whatever is used after


def test_a_pattern_written_by_a_function_is_written_on_first_use_too():
    calls = []
    rx = lazy(lambda: calls.append(1) or r"(?:te(?:xt|st))\Z")
    assert calls == []
    assert rx.search("a test") is not None and rx.search("texts") is None and rx.pattern == r"(?:te(?:xt|st))\Z"
    assert calls == [1]
