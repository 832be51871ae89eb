"""What to do about this provider's findings (shown in the TUI's finding detail), by family letter or code."""
from __future__ import annotations

from inspector.providers.bedrock import FRAMING_ADVICE

ADVICE: dict[str, str] = {
    'B': (
        'The stream breaks the ConverseStream event order or block rules. botocore yields every event as '
        'it comes and leaves assembly to the client (langchain-aws, Strands, your own loop): those key '
        'blocks by contentBlockIndex and tool calls by the start event. If a gateway translates another '
        'provider into ConverseStream, the translation layer is the usual culprit.'),
    'B008': (
        'The stopReason and the streamed blocks disagree. Decide from the blocks, not from stopReason '
        'alone, whether a tool must run.'),
    **FRAMING_ADVICE,
}
