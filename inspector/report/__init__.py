"""Reports of a finished session: JSON (SPEC.md ``check --format json``), linter text, GitHub annotations,
the many-file summary, exports (a self-contained HTML page, HAR 1.2 with ``_chunks``) and
OpenTelemetry span records (``spans``: plain data, sent by ``inspector.net.otlp``).
May import: ``inspector.feeds`` and the layers below it; no network, no Textual.
"""
