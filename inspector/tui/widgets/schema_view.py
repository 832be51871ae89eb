"""A tool call's declared schema as the block panel shows it (``d``), its failing paths marked.

What the request declared for the call (``inspector.providers.tools.DeclaredTool``: where, strict,
the schema as the request spelled it) and the V002 violations (``Violation``: JSONPath, keyword,
message). Each property of the schema on a failing path is marked with ✖ and the error style, so
the eye goes from the violation to the place in the schema; the violations follow, one a line.
Schema text is request content: shown through Content (never markup) and cut to ``MAX_LINES``.
"""
from __future__ import annotations

import json

from inspector.tui.text import Content, assemble

MAX_LINES = 40


def failing_properties(violations) -> set[str]:
    """Property names on the violations' paths (``$.a.b[0].c`` → ``a``, ``b``, ``c``; ``required``
    names the missing key in its message, so that key too)."""
    names: set[str] = set()
    for v in violations:
        for part in v.path.replace("[", ".[").split(".")[1:]:
            if part and not part.startswith("["):
                names.add(part)
        if v.keyword == "required" and "'" in v.message:
            names.add(v.message.split("'")[1])
    return names


def schema_content(name: str | None, tool, violations, judged: bool) -> Content:
    """The schema box of one call (see the module docstring); ``judged``: its arguments are complete
    and were validated."""
    if tool is None:
        return assemble((f"✖ {name!r} is not declared by the request (V001)" if name else
                                 "no declared tool for this call", "$warning"))
    head = f"declared at {tool.where}" + (" · strict" if tool.strict else "")
    if tool.shown is None:
        return assemble((head + " · no schema: the name alone is judged", "$text-muted"))
    lines = json.dumps(tool.shown, indent=2, ensure_ascii=False).splitlines()
    cut = len(lines) > MAX_LINES
    lines = lines[:MAX_LINES]
    marked = failing_properties(violations)
    pieces: list = [(head + "\n", "$text-muted")]
    for line in lines:
        key = line.strip().split('"')[1] if line.strip().startswith('"') else None
        hit = key in marked and line.rstrip().endswith(("{", "[")) or (key in marked and ":" in line)
        pieces.append(("✖ " if hit else "  ", "$error" if hit else ""))
        pieces.append((line + "\n", "bold $error" if hit else ""))
    if cut:
        pieces.append((f"  … (schema cut at {MAX_LINES} lines)\n", "$text-muted"))
    for v in violations:
        pieces.append((f"✖ {v.path}: {v.message} ({v.keyword})\n", "$error"))
    if not violations:
        pieces.append(("✔ the arguments validate\n" if judged else "… judged when the call's arguments are complete\n",
                       "$success" if judged else "$text-muted"))
    return assemble(*pieces)
