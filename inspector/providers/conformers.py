"""The conformance table: what each provider folder gives ``conform`` and ``serve --mutate`` (its
mutations and its answer readers, see ``inspector.providers.conformance``), by provider name.

Apart from the registry in ``inspector.providers`` so that ``check``, ``replay`` and the TUI never
load the mutations and answer readers (start-up time).
May import: the provider folders and ``inspector.providers.conformance``.
"""
from __future__ import annotations

from inspector.providers.anthropic import answer as anthropic_answer
from inspector.providers.anthropic import content_faults as anthropic_content
from inspector.providers.anthropic import mutations as anthropic_mutations
from inspector.providers.cohere import answer as cohere_answer
from inspector.providers.cohere import content_faults as cohere_content
from inspector.providers.cohere import mutations as cohere_mutations
from inspector.providers.conformance import Conformance
from inspector.providers.gemini import answer as gemini_answer
from inspector.providers.gemini import content_faults as gemini_content
from inspector.providers.gemini import mutations as gemini_mutations
from inspector.providers.ollama import answer as ollama_answer
from inspector.providers.ollama import content_faults as ollama_content
from inspector.providers.ollama import mutations as ollama_mutations
from inspector.providers.openai_chat import answer as chat_answer
from inspector.providers.openai_chat import content_faults as chat_content
from inspector.providers.openai_chat import mutations as chat_mutations
from inspector.providers.openai_responses import answer as responses_answer
from inspector.providers.openai_responses import content_faults as responses_content
from inspector.providers.openai_responses import mutations as responses_mutations


def _of(mutations, answer, *, tool_stop: bool = False, content=None) -> Conformance:
    """``content``: the provider's content-level faults module, listed after its wire-level mutations."""
    return Conformance(mutations.MUTATIONS + (content.MUTATIONS if content else ()), mutations.closing, answer.plain, answer.read, answer.sent_back,
                       answer.stop_class, tool_stop=tool_stop)


CONFORMANCE: dict[str, Conformance] = {
    "anthropic": _of(anthropic_mutations, anthropic_answer, tool_stop=True, content=anthropic_content),
    "openai": _of(chat_mutations, chat_answer, tool_stop=True, content=chat_content),
    "openai-responses": _of(responses_mutations, responses_answer, content=responses_content),
    "gemini": _of(gemini_mutations, gemini_answer, content=gemini_content),
    "ollama": _of(ollama_mutations, ollama_answer, content=ollama_content),
    "cohere": _of(cohere_mutations, cohere_answer, tool_stop=True, content=cohere_content),
}
"""By provider name: each provider's mutations (``serve --mutate``) and how ``conform`` reads its answers."""
