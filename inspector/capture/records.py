"""One body record of the native capture (SPEC.md "Capture files"), written and read.

A record is ``{"t": seconds, "data": text}`` (a chunk that is valid UTF-8 on its own),
``{"t": seconds, "b64": base64}`` (one that is not) or ``{"t": seconds, "end": kind, "error": text}``.
The recorder writes them one per line; the HAR export keeps the same records in an entry's
``_chunks`` list (and its ``_end``), so both read back through :func:`read_record`.
"""
from __future__ import annotations

import base64

from inspector.capture.redact import ChunkScrubber, scrub_secrets
from inspector.model.capture import END_KINDS, Chunk, End


def round_t(t: float | None) -> float | None:
    """Seconds as records store them: rounded to the microsecond."""
    return None if t is None else round(t, 6)


def chunk_record(t: float | None, data: bytes, scrubber: ChunkScrubber | None = None) -> dict:
    """One chunk record: ``data`` when the chunk is valid UTF-8 on its own, else ``b64``.

    Anything shaped like an API key inside the text, and every credential this process sent or
    forwarded, is masked: some servers quote the key back in a 401 body, and a record is written
    to be shared. ``scrubber`` (one per stream) also masks a key that a chunk boundary cuts in two.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"t": round_t(t), "b64": base64.b64encode(data).decode("ascii")}
    return {"t": round_t(t), "data": scrubber.scrub(text) if scrubber is not None else scrub_secrets(text)}


def end_record(end: End) -> dict:
    """The end record for ``end`` (``error`` only when there is one, secrets masked)."""
    rec: dict = {"t": round_t(end.t), "end": end.kind}
    if end.error:
        rec["error"] = scrub_secrets(end.error)
    return rec


def read_record(rec: object, line: int | None = None) -> Chunk | End:
    """A chunk or end record back into a ``Chunk`` (with ``line``) or an ``End``.

    Raises ``ValueError`` with a short reason (the caller says where): not an object, ``t`` not a
    number, an unknown end kind, ``data`` not a string, ``b64`` not base64, or none of the three.
    """
    if not isinstance(rec, dict):
        raise ValueError("capture record is not an object")
    t = rec.get("t")
    if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool)):
        raise ValueError("'t' must be a number of seconds")
    t = float(t) if t is not None else None
    if "end" in rec:
        kind = rec.get("end")
        if kind not in END_KINDS:
            raise ValueError(f"unknown end kind {kind!r} (expected one of {', '.join(END_KINDS)})")
        error = rec.get("error")
        return End(t=t, kind=kind, error=error if isinstance(error, str) else None)
    if "data" in rec:
        data = rec["data"]
        if not isinstance(data, str):
            raise ValueError("'data' must be a string")
        return Chunk(t, data.encode("utf-8", "replace"), line)
    if "b64" in rec:
        try:
            return Chunk(t, base64.b64decode(rec["b64"], validate=True), line)
        except (ValueError, TypeError):
            raise ValueError("'b64' is not valid base64") from None
    raise ValueError("record has none of 'data', 'b64', 'end'")
