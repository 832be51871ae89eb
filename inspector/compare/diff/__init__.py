"""``diff A B``: are two streams of the same answer equivalent, whatever their dialects?

A translating gateway (LiteLLM, an Anthropic↔OpenAI bridge, a company router) receives one dialect
and sends another. Comparing the two streams byte for byte says nothing; comparing what a client
assembles from each says whether the gateway kept the meaning. One job per module:

- ``answer``: a session (or a non-streamed answer body) reduced to dialect-free terms
  (:class:`Answer`): text, reasoning, tool calls (name, id, parsed arguments, first argument
  byte time), the stop reason as a class (``tool``/``end``/``length``/``refusal``/``error``),
  finding codes;
- ``meaning``: which rule codes of different dialects say the same thing (A007 ≈ C003 ≈ B008);
- ``compare``: two answers compared (:func:`diff_answers`): block pairs, differences by kind,
  the normalisations that made the rest equivalent;
- ``captures``: the same for two captures (``diff_captures``), with the input checks;
- ``hops``: which hop (upstream, gateway, client) each difference or finding of a gateway pair
  belongs to;
- ``render``: ``--format text|json``.

Headless. May import: ``inspector.feeds``, ``inspector.session``, ``inspector.providers`` and the
layers below; never ``inspector.compare.timing`` (a sibling job), the network or the TUI.
"""
from __future__ import annotations

from inspector.compare.diff.answer import Answer, Call, answer_from_body, answer_from_session
from inspector.compare.diff.captures import DiffInputError, diff_captures, load_answer
from inspector.compare.diff.compare import BlockPair, Diff, Difference, diff_answers, first_json_difference
from inspector.compare.diff.hops import HopFinding, attribute
from inspector.compare.diff.render import render_json, render_text, to_json

__all__ = ["Answer", "BlockPair", "Call", "Diff", "DiffInputError", "Difference", "HopFinding", "answer_from_body",
           "answer_from_session", "attribute", "diff_answers", "diff_captures", "first_json_difference",
           "load_answer", "render_json", "render_text", "to_json"]
