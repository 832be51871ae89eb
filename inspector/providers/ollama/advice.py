"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

ADVICE: dict[str, str] = {
    'N': (
        "Ollama's native API sends arguments as an object; a string here usually means a template "
        'or proxy serialised it. Parse it once (and only once) or fix the template.'),
}
