"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

ADVICE: dict[str, str] = {
    'R': (
        'The Responses stream does not match its own item bookkeeping. Correlate events by '
        '`item_id` (falling back to `output_index`), prefer the `.done` text only when it agrees '
        'with the deltas, and treat an item that never finished as not executed.'),
}
