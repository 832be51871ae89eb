"""Captures in and out: reading every capture format people have (``load``: native JSON Lines, raw
SSE, NDJSON, HAR, SSE pasted in prose, ``text``/``har``), writing the native format as bytes arrive
(``recorder``), request files (``request``), the bundled captures (``bundled``), and redaction of
secrets (``redact``) for everything that leaves the process.
May import: ``inspector.model`` only.
"""
