"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

ADVICE: dict[str, str] = {
    'C': (
        'An OpenAI-compatible server deviates from how Chat Completions streams tool calls. Key '
        "calls by `index` when present and fall back to `id` and position as shown in the panel's "
        'attribution; do not trust `finish_reason` alone to decide that calls exist; accumulate '
        '`id`/`name` once, arguments by concatenation. Report the server and version with the '
        'capture.'),
    'C003': (
        'Tool calls were streamed but `finish_reason` says otherwise. Decide from the streamed '
        'calls, not from `finish_reason`, whether tools must run.'),
}
