"""``conform --provider P --base-url URL``: the matrix sent to a server, each answer inspected and graded.

Each case goes out with streaming on through the live client (``inspector.net.live``: ``prepare``
then ``live_source``), is inspected by the normal pipeline (``inspector.feeds.base.Driver``: the
same session ``check`` uses) and graded (``grade``); a case with ``compare`` is sent again with
streaming off and the two answers compared. Every failure is a graded result with its reason,
never an exception: an unreachable server, a non-streaming answer, HTTP 4xx/5xx, a stream that
stops. Cases run one after the other (a server's own concurrency is not what is graded), in the
matrix's order, so ``serve --loop DIR/*.jsonl`` on a ``--record DIR`` replays them in turn.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import orjson

from inspector.feeds.base import Driver, Settings
from inspector.model.capture import Chunk, End, Head
from inspector.net.conform.grade import CaseResult, compare, grade_stream
from inspector.net.conform.matrix import Case, Matrix
from inspector.net.live import LiveError, LiveRequest, join_url, live_source, prepare
from inspector.providers import PROVIDERS
from inspector.providers.conformers import CONFORMANCE
from inspector.providers.conformance import Conformance


@dataclass(frozen=True)
class Target:
    """Where and how to send: the server, the model, and the knobs of the run."""

    provider: str
    base_url: str
    model: str
    timeout: float = 120.0
    """Seconds without a byte before a request is given up."""
    record: Path | None = None
    settings: Settings = Settings()
    api_key: str | None = None


def check_target(target: Target, matrix: Matrix) -> None:
    """Raise ``LiveError`` (one line) when no case could even be sent: bad URL, missing key."""
    prepare(target.provider, matrix.cases[0].request(target.model), base_url=target.base_url, api_key=target.api_key)


async def run_case(target: Target, case: Case, n: int) -> CaseResult:
    """Send one case (and its non-streamed twin), grade it. Never raises for what the server does."""
    conf = CONFORMANCE[target.provider]
    result = CaseResult(case.name, case.about)
    t0 = time.monotonic()
    body = case.request(target.model)
    try:
        req = prepare(target.provider, body, base_url=target.base_url, api_key=target.api_key)
    except LiveError as e:
        result.worsen("fail", f"cannot send: {e}")
        result.failed_to_run = True
        return result
    stem = f"{n:02d}-{case.name}"
    record = _path(target, f"{stem}.jsonl", result)
    driver = Driver(target.settings)
    content_type = ""
    async for item in live_source(target.provider, body, prepared=req, timeout=target.timeout, record=record):
        if isinstance(item, Head):
            content_type = _content_type(item.headers)
        driver.take(item)
    session = driver.session
    end = driver.end
    status = driver.head.status if driver.head is not None else None
    streamed = grade_stream(result, case, conf, session, status=status, content_type=content_type,
                            end_error=end.error if end else None, end_kind=end.kind if end else None,
                            dialect=PROVIDERS[target.provider].dialect_name)
    if case.compare and streamed is not None:
        await _compare(target, conf, case, body, req, result, streamed, _path(target, f"{stem}.plain.jsonl", result))
    result.seconds = time.monotonic() - t0
    return result


async def _compare(target: Target, conf: Conformance, case: Case, body: dict, req: LiveRequest,
                   result: CaseResult, streamed, record) -> None:
    try:
        plain_body, path = conf.plain(body)
    except ValueError as e:
        result.worsen("warn", f"cannot send the non-streamed twin: {e}")
        return
    headers = {**req.headers, "accept": "application/json"}
    plain = LiveRequest(req.provider, join_url(target.base_url, path), headers, plain_body, req.local)
    status, data, error = None, bytearray(), None
    async for item in live_source(target.provider, plain_body, prepared=plain, timeout=target.timeout, record=record):
        if isinstance(item, Head):
            status = item.status
        elif isinstance(item, Chunk):
            data += item.data
        elif isinstance(item, End) and item.kind != "eof":
            error = item.error or item.kind
    if status is None or error:
        result.worsen("warn", f"the non-streamed twin got no answer: {error or 'no response'}")
        return
    if status >= 400:
        result.worsen("warn", f"the non-streamed twin got HTTP {status}: {bytes(data[:160]).decode('utf-8', 'replace')}")
        return
    try:
        answer = orjson.loads(bytes(data))
        turn = conf.read(answer)
    except (orjson.JSONDecodeError, ValueError) as e:
        result.worsen("warn", f"the non-streamed twin is not a whole answer: {str(e)[:160]}")
        return
    compare(result, conf, streamed, turn)


def _content_type(headers: dict) -> str:
    for k, v in headers.items():
        if str(k).lower() == "content-type":
            return (v[0] if isinstance(v, list) else str(v)).lower()
    return ""


def _path(target: Target, name: str, result: CaseResult) -> str | None:
    if target.record is None:
        return None
    p = target.record / name
    result.captures.append(str(p))
    return str(p)


async def run_matrix(target: Target, matrix: Matrix, done: Callable[[CaseResult], None],
                     started: Callable[[Case, int], None] | None = None) -> list[CaseResult]:
    """Every case in order; ``started(case, n)`` before and ``done(result)`` after each."""
    results = []
    for n, case in enumerate(matrix.cases, 1):
        if started is not None:
            started(case, n)
        result = await run_case(target, case, n)
        results.append(result)
        done(result)
    return results
