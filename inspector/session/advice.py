"""What to do about a finding: advice for the families every dialect shares (S, T, J, Q), and
the lookup that merges it with each provider folder's own advice.

Why it exists: the rule catalog says *when* a rule fires; a person staring at a finding also wants
to know what to change or whom to tell. A code's own hint comes first, then its family's.
"""
from __future__ import annotations

from inspector.providers import PROVIDERS

ADVICE: dict[str, str] = {
    'S': (
        'The bytes on the wire are not a clean event stream. If you own the server, fix the '
        'framing (UTF-8, one JSON payload per event, a blank line after every event, an end '
        'marker). If you only own the client, make its parser tolerant here and surface the fault '
        "instead of silently dropping events; keep the capture for the provider's bug report."),
    'T': (
        'Timing is not wrong by itself, but it is what users feel. Check whether the gap sits '
        'before the first byte (queueing, a slow model) or inside a block (buffering in a proxy '
        'or the provider); set client read timeouts above the longest gap you see here, and '
        'compare runs with `compare` when a setting (such as eager input streaming) should change '
        'it.'),
    'J': (
        'Do not execute this tool call as assembled: its arguments are not one complete JSON '
        'object. Decide per call whether to retry the request, ask the model to repeat the call, '
        'or report the call as failed; never run it on a best-effort parse. If the fragments were '
        "re-sent or glued together, the accumulator (yours or a gateway's) is what needs fixing."),
    'Q': (
        'The history your client sends back does not match what the stream produced. Rebuild the '
        'assistant turn from the assembled blocks (not from raw deltas), keep every id and '
        'signature, and send tool inputs as objects.'),
    'T003': (
        'The provider held the tool arguments back and released them in one burst. For Anthropic, '
        'set `eager_input_streaming: true` on the tool (fine-grained tool streaming) and compare '
        'both runs with `stream-inspector compare`.'),
    'J002': (
        'The block was closed before its JSON finished: the call is cut short. Do not execute it; '
        'check `stop_reason`/`finish_reason` (a token limit?) and retry with more room.'),
    'J005': (
        'The stream ended with the call still open: it is incomplete. Retry; never execute it.'),
    'S012': (
        'The connection ended abnormally. Retry the request; if it keeps happening at the same '
        'point, look for an idle timeout in a proxy or load balancer between you and the '
        'provider.'),
    'S009': (
        'Strip a leading U+FEFF before parsing, or fix the server that adds it: many SSE clients '
        'drop the first event silently when it is there.'),
}


def advice_for(code: str) -> str:
    """Advice for a rule code: the code's own hint when there is one, then its family's."""
    tables = [ADVICE, *(p.advice for p in PROVIDERS.values())]
    own = next((t[code] for t in tables if code in t), None)
    family = next((t[code[:1]] for t in tables if code[:1] in t), "")
    return f"{own}\n\n{family}" if own and family else (own or family or "No advice for this code yet.")
