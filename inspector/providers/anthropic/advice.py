"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

ADVICE: dict[str, str] = {
    'A': (
        'The stream breaks the Anthropic Messages event order or block rules. Clients such as the '
        'official SDKs either raise or mis-assemble here. If a gateway or proxy translates '
        'another provider into this format, the translation layer is the usual culprit; otherwise '
        'report it with the capture.'),
    'A007': (
        'The `stop_reason` and the streamed blocks disagree. Decide from the blocks, not from '
        '`stop_reason` alone, whether a tool must run.'),
}
