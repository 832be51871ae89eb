"""Reports of a finished session: JSON (SPEC.md ``check --format json``), linter text, GitHub annotations.
May import: ``inspector.feeds`` and the layers below it; no network, no Textual.
"""
