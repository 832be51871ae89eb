"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

ADVICE: dict[str, str] = {
    'G': (
        'Gemini ended or annotated the function call in a way clients must handle explicitly: '
        'retry with a simpler tool schema or fewer tools on a failed call, and send thought '
        'signatures back exactly on the part they arrived with.'),
}
