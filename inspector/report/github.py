"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line per finding."""
from __future__ import annotations

from inspector.capture.redact import scrub_secrets
from inspector.model.display import display_text
from inspector.session.session import Session

_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _escape(s: str) -> str:
    s = display_text(scrub_secrets(s))  # no secret and no escape sequence reaches the CI log
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(s: str) -> str:
    return _escape(s).replace(":", "%3A").replace(",", "%2C")


def render(path: str, s: Session) -> str:
    lines = []
    for f in s.findings:
        props = f"file={_prop(path)}"
        if f.line is not None:
            props += f",line={f.line}"
        props += f",title={_prop(f.code + ' ' + f.name)}"
        lines.append(f"::{_LEVEL[f.severity]} {props}::{_escape(f.message)}")
    return "\n".join(lines)
