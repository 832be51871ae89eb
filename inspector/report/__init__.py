"""Reports of a finished session: JSON (SPEC.md ``check --format json``), linter text, GitHub annotations."""
