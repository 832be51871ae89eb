"""Reports of the conformance tools: client verdicts and server grades as text, JSON lines, JUnit XML
and GitHub workflow commands. Every report masks secrets (``inspector.capture.redact``): they quote
what a server answered and what a client sent and printed.

JUnit XML follows the de-facto schema CI systems read (the Jenkins/Ant ``junit-10.xsd`` facts):
``<testsuites>`` holding one ``<testsuite name tests failures errors skipped time>`` per run,
one ``<testcase classname name time>`` per case, with a ``<failure message type>`` (a graded
failure: fail, dropped, refused, repaired, ran-wrong-arguments, mis-assembled) or an ``<error message type>``
(the case could not run: crashed, hung, unreachable), and the details as the element's text. Warnings pass, with their findings in
``<system-out>``.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Sequence
from typing import Protocol

import orjson

from inspector.net.conform.verdict import ERRORED, FAILED, OUTCOMES, Verdict
from inspector.capture.redact import scrub_secrets, scrub_value
from inspector.model.display import display_text, json_safe


class Case(Protocol):
    """What the server report reads of a graded case (``inspector.net.conform.grade.CaseResult``)."""

    name: str
    grade: str
    reason: str
    seconds: float

    def to_dict(self) -> dict: ...

    def lines(self) -> list[str]: ...

    @property
    def failed_to_run(self) -> bool: ...


# ----------------------------------------------------------------------------------------- verdicts
def verdict_line(v: Verdict, width: int = 22) -> str:
    """``MUTATION  VERDICT  detail`` for the live listing."""
    return scrub_secrets(f"{v.mutation:<{width}} {v.outcome:<19} {v.detail}")


def verdicts_text(verdicts: Sequence[Verdict], *, interrupted: bool = False) -> str:
    width = max([len(v.mutation) for v in verdicts] + [8])
    lines = [f"{'mutation':<{width}} {'verdict':<19} detail"]
    for v in verdicts:
        lines.append(verdict_line(v, width))
        lines += [f"{'':<{width}} {'':<19} - {p}" for p in v.problems[1:]]
        if v.client:
            lines.append(f"{'':<{width}} {'':<19} client: {v.client}")
    lines.append(summary(verdicts) + (" (interrupted)" if interrupted else ""))
    return display_text(scrub_secrets("\n".join(lines)))  # details quote the served stream and the client


def summary(verdicts: Sequence[Verdict]) -> str:
    counts = Counter(v.outcome for v in verdicts)
    return ", ".join(f"{counts.get(o, 0)} {o}" for o in OUTCOMES)


def verdicts_json(verdicts: Sequence[Verdict]) -> str:
    return json_safe("\n".join(orjson.dumps(scrub_value(v.to_dict())).decode() for v in verdicts))


def verdicts_junit(verdicts: Sequence[Verdict], suite: str) -> str:
    root = ET.Element("testsuites", name="stream-inspector client verdicts")
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(verdicts)),
                       failures=str(sum(v.outcome in FAILED for v in verdicts)),
                       errors=str(sum(v.outcome in ERRORED for v in verdicts)), skipped="0", time="0")
    for v in verdicts:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=v.mutation, time="0")
        body = "\n".join(v.problems + ([f"client: {v.client}"] if v.client else []) +
                         ([f"stream codes: {' '.join(v.codes)}"] if v.codes else []))
        if v.outcome in FAILED:
            ET.SubElement(tc, "failure", message=v.detail, type=v.outcome).text = body
        elif v.outcome in ERRORED:
            ET.SubElement(tc, "error", message=v.detail, type=v.outcome).text = body
        else:
            ET.SubElement(tc, "system-out").text = v.detail
    return _xml(root)


# ------------------------------------------------------------------------------------------- server
def cases_text(cases: Sequence[Case], *, title: str, interrupted: bool = False) -> str:
    lines = [title]
    for c in cases:
        lines += c.lines()
    lines.append(cases_summary(cases) + (" (interrupted: the cases above ran)" if interrupted else ""))
    return display_text(scrub_secrets("\n".join(lines)))  # reasons quote the server's answer: a stranger's text


def case_text(case: Case) -> str:
    """One case as the live listing prints it when it ends (its ``lines``), masked and made safe for
    a terminal: its reasons quote the server's answer."""
    return display_text(scrub_secrets("\n".join(case.lines())))


def cases_summary(cases: Sequence[Case]) -> str:
    counts = Counter(c.grade for c in cases)
    return f"{counts.get('pass', 0)} pass, {counts.get('warn', 0)} warn, {counts.get('fail', 0)} fail"


def cases_json(cases: Sequence[Case]) -> str:
    return json_safe("\n".join(orjson.dumps(scrub_value(c.to_dict())).decode() for c in cases))


def cases_junit(cases: Sequence[Case], suite: str) -> str:
    root = ET.Element("testsuites", name="stream-inspector conform")
    total = sum(c.seconds for c in cases)
    ts = ET.SubElement(root, "testsuite", name=suite, tests=str(len(cases)),
                       failures=str(sum(c.grade == "fail" and not c.failed_to_run for c in cases)),
                       errors=str(sum(c.grade == "fail" and c.failed_to_run for c in cases)),
                       skipped="0", time=f"{total:.3f}")
    for c in cases:
        tc = ET.SubElement(ts, "testcase", classname=suite, name=c.name, time=f"{c.seconds:.3f}")
        body = "\n".join(c.lines()[1:])
        if c.grade == "fail":
            ET.SubElement(tc, "error" if c.failed_to_run else "failure", message=c.reason,
                          type="unreachable" if c.failed_to_run else "fail").text = body
        else:
            ET.SubElement(tc, "system-out").text = f"{c.grade}: {c.reason}\n{body}".strip()
    return _xml(root)


def cases_github(cases: Sequence[Case], suite: str) -> str:
    """One ``::error``/``::warning``/``::notice`` line per case (fail/warn/pass), details on the next lines."""
    level = {"fail": "error", "warn": "warning", "pass": "notice"}
    out = []
    for c in cases:
        text = "%0A".join(_escape(p) for p in [c.reason] + [ln.strip() for ln in c.lines()[1:]])
        title = _escape(f"conform {suite} {c.name}: {c.grade}").replace(":", "%3A").replace(",", "%2C")
        out.append(f"::{level[c.grade]} title={title}::{text}")
    return display_text(scrub_secrets("\n".join(out)))


def _escape(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


_NOT_XML = {0xFFFE: "\\ufffe", 0xFFFF: "\\uffff"}
"""Characters XML 1.0 forbids that ``display_text`` leaves (it writes the others out: C0 but tab,
LF and CR, and lone surrogates)."""


def _xml(root: ET.Element) -> str:
    """The document, secrets masked, with what it quotes from the server or the client (ESC, C1,
    bidi, characters XML forbids) written out visibly as ``display_text`` does: well-formed XML a CI's parser reads,
    nothing a terminal that shows it obeys. The document's own markup has none of these characters."""
    ET.indent(root)
    text = display_text(scrub_secrets(ET.tostring(root, encoding="unicode")))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + text.translate(_NOT_XML)
