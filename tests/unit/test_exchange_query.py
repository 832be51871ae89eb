"""The proxy list's filter expressions (issue 27 item 5): every field, the comparisons, negation,
units, and a clear error for a term that cannot be read."""
from __future__ import annotations

import pytest

from inspector.feeds.exchanges.query import QueryError, parse
from inspector.model.capture import End
from inspector.model.findings import Finding


class Ex:
    """The fields of an ``Exchange`` the filter reads."""

    def __init__(self, n, status=200, path="/v1/messages", model="claude-sonnet-4-5", dialect="anthropic-messages",
                 method="POST", codes=(), dur=1.0, summary=None):
        self.n, self.status, self.path, self.method = n, status, path, method
        self._model, self.summary = model, summary
        self.end = None if dur is None else End(dur)
        self.session = type("S", (), {"dialect_name": dialect})()
        self.findings = [Finding(code=c, name="x", severity=sev, message="m", event=None, line=None, t=None, index=None) for c, sev in codes]

    model = property(lambda self: self._model)
    duration_s = property(lambda self: None if self.end is None else self.end.t)

    def counts(self):
        out = {}
        for f in self.findings:
            out[f.severity] = out.get(f.severity, 0) + 1
        return out


EXCHANGES = [
    Ex(1),
    Ex(2, status=429, dur=0.2),
    Ex(3, status=500, path="/v1/chat/completions", model="gpt-4o", dialect="openai-chat", dur=3.5,
       codes=[("J005", "error")]),
    Ex(4, codes=[("T001", "warning"), ("J002", "error")], dur=12.0),
    Ex(5, dur=None, method="GET", path="/v1/models", model=None),
]


def shown(text):
    q = parse(text)
    return [ex.n for ex in EXCHANGES if q.matches(ex)]


@pytest.mark.parametrize("text,expected", [
    ("", [1, 2, 3, 4, 5]),
    ("status>=400", [2, 3]),
    ("status:4xx", [2]),
    ("status!=200", [2, 3]),
    ("s:500", [3]),
    ("code:J005", [3]),
    ("code:j", [3, 4]),
    ("!code:J", [1, 2, 5]),
    ("sev:error", [3, 4]),
    ("sev>=warning", [3, 4]),
    ("sev:warning", [4]),
    ("dur>2s", [3, 4]),
    ("dur<=500ms", [2]),
    ("dur>0.1m", [4]),
    ("path:/chat", [3]),
    ("model:SONNET", [1, 2, 4]),
    ("dialect:openai", [3]),
    ("method:get", [5]),
    ("gpt", [3]),
    ("models", [5]),
    ("code:J005 dur>2s status>=400", [3]),
    ("sev:error !dur>5s", [3]),
])
def test_the_filter_shows_what_the_expression_says(text, expected):
    assert shown(text) == expected


def test_a_released_exchange_keeps_its_counts_but_not_its_codes():
    ex = Ex(9, summary={"dialect": "openai-chat", "counts": {"error": 1}})
    ex.findings = []
    ex.counts = lambda: {"error": 1}
    assert parse("sev:error dialect:openai").matches(ex) and not parse("code:J").matches(ex)


@pytest.mark.parametrize("text,why", [
    ("status:abc", "a status is a number"),
    ("dur>fast", "a duration is a number"),
    ("sev:fatal", "a severity is error, warning or info"),
    ("path>3", "path takes ':' or '!='"),
    ("status:", "no value"),
    ("!", "'!' must stand before a term"),
])
def test_a_term_that_cannot_be_read_says_why(text, why):
    with pytest.raises(QueryError, match=why):
        parse(text)
