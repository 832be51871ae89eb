"""What to do about a finding: advice per rule family, shown in the finding detail screen.

Why this module exists: the rule catalog (``inspector.session.rules.catalog``) says *when* a rule
fires; a person staring at a finding also wants to know what to change or whom to tell. That
advice is the TUI's own wording, grouped by family (the code's letter), with a few codes where a
more precise hint pays off. Pure data, no Textual.
"""
from __future__ import annotations

FAMILY_ADVICE: dict[str, str] = {
    "S": ("The bytes on the wire are not a clean event stream. If you own the server, fix the framing "
          "(UTF-8, one JSON payload per event, a blank line after every event, an end marker). If you "
          "only own the client, make its parser tolerant here and surface the fault instead of "
          "silently dropping events; keep the capture for the provider's bug report."),
    "T": ("Timing is not wrong by itself, but it is what users feel. Check whether the gap sits before "
          "the first byte (queueing, a slow model) or inside a block (buffering in a proxy or the "
          "provider); set client read timeouts above the longest gap you see here, and compare runs "
          "with `compare` when a setting (such as eager input streaming) should change it."),
    "J": ("Do not execute this tool call as assembled: its arguments are not one complete JSON object. "
          "Decide per call whether to retry the request, ask the model to repeat the call, or report "
          "the call as failed; never run it on a best-effort parse. If the fragments were re-sent or "
          "glued together, the accumulator (yours or a gateway's) is what needs fixing."),
    "A": ("The stream breaks the Anthropic Messages event order or block rules. Clients such as the "
          "official SDKs either raise or mis-assemble here. If a gateway or proxy translates another "
          "provider into this format, the translation layer is the usual culprit; otherwise report it "
          "with the capture."),
    "C": ("An OpenAI-compatible server deviates from how Chat Completions streams tool calls. Key "
          "calls by `index` when present and fall back to `id` and position as shown in the panel's "
          "attribution; do not trust `finish_reason` alone to decide that calls exist; accumulate "
          "`id`/`name` once, arguments by concatenation. Report the server and version with the capture."),
    "R": ("The Responses stream does not match its own item bookkeeping. Correlate events by `item_id` "
          "(falling back to `output_index`), prefer the `.done` text only when it agrees with the deltas, "
          "and treat an item that never finished as not executed."),
    "G": ("Gemini ended or annotated the function call in a way clients must handle explicitly: retry "
          "with a simpler tool schema or fewer tools on a failed call, and send thought signatures back "
          "exactly on the part they arrived with."),
    "N": ("Ollama's native API sends arguments as an object; a string here usually means a template or "
          "proxy serialised it. Parse it once (and only once) or fix the template."),
    "Q": ("The history your client sends back does not match what the stream produced. Rebuild the "
          "assistant turn from the assembled blocks (not from raw deltas), keep every id and signature, "
          "and send tool inputs as objects."),
}

CODE_ADVICE: dict[str, str] = {
    "T003": ("The provider held the tool arguments back and released them in one burst. For Anthropic, "
             "set `eager_input_streaming: true` on the tool (fine-grained tool streaming) and compare "
             "both runs with `stream-inspector compare`."),
    "J002": ("The block was closed before its JSON finished: the call is cut short. Do not execute it; "
             "check `stop_reason`/`finish_reason` (a token limit?) and retry with more room."),
    "J005": "The stream ended with the call still open: it is incomplete. Retry; never execute it.",
    "S012": ("The connection ended abnormally. Retry the request; if it keeps happening at the same "
             "point, look for an idle timeout in a proxy or load balancer between you and the provider."),
    "S009": ("Strip a leading U+FEFF before parsing, or fix the server that adds it: many SSE clients "
             "drop the first event silently when it is there."),
    "A007": ("The `stop_reason` and the streamed blocks disagree. Decide from the blocks, not from "
             "`stop_reason` alone, whether a tool must run."),
    "C003": ("Tool calls were streamed but `finish_reason` says otherwise. Decide from the streamed "
             "calls, not from `finish_reason`, whether tools must run."),
}


def advice_for(code: str) -> str:
    """Advice for a rule code: the code's own hint when there is one, then its family's."""
    family = FAMILY_ADVICE.get(code[:1], "")
    own = CODE_ADVICE.get(code)
    return f"{own}\n\n{family}" if own and family else (own or family or "No advice for this code yet.")
