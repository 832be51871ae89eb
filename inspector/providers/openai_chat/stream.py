"""OpenAI Chat Completions streaming (``/v1/chat/completions``) and every server that copies it.

Why it exists: the Chat format is the lingua franca of OpenAI-compatible servers (vLLM,
llama.cpp, SGLang, Ollama ``/v1``, LiteLLM, OpenRouter, Gemini's ``/v1beta/openai/``), and each
of them bends it differently: tool-call fragments without ``index``, ids and names repeated on
every delta, a new call reusing index 0, ``finish_reason: stop`` after tool calls. This dialect
assembles what a client would (text, reasoning, refusal and tool calls per choice) and judges the
C rules of ``shared/RULES.md`` on the way.

Wire facts (``shared/PROTOCOLS.md`` §2, from openai-python ``types/chat/chat_completion_chunk.py``
and ``lib/streaming/_deltas.py``): a chunk is ``{id, object: "chat.completion.chunk", model,
choices: [{index, delta: {role?, content?, refusal?, tool_calls?}, finish_reason}], usage?}``;
each ``tool_calls`` entry is ``{index, id?, type?, function?: {name?, arguments?}}``; the first
fragment of a call carries ``id``, ``type`` and ``function.name``, later ones only append
``arguments``; a call is closed only by its choice's ``finish_reason``; the stream ends with
``data: [DONE]``, optionally after a usage-only chunk with ``choices: []``. §4 (Gemini compat:
no ``index``, ``extra_content.google.thought_signature``) and §5 (Ollama ``delta.reasoning``,
llama.cpp ``function.id`` and repeated names, vLLM ``""`` ids and reused index 0).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, TypeGuard

import orjson

from inspector.model.events import DONE, NOT_JSON
from inspector.model.record import Record
from inspector.providers.openai_chat import templates
from inspector.providers.openai_chat.clients import says
from inspector.providers.base import Dialect
from inspector.providers.openai_chat.sniff import LEGACY_OBJECT
from inspector.providers.textcalls import looks_like_tool_call
from inspector.model.members import string_member

if TYPE_CHECKING:
    from inspector.model.capture import End
    from inspector.model.blocks import Block
    from inspector.model.events import EventRecord
    from inspector.model.findings import Finding
    from inspector.model.severity import Severity

CALL_FINISH = "tool_calls"
LEGACY_FINISH = "function_call"
LENGTH_FINISH = "length"
CARRYING_KEYS = ("content", "reasoning", "reasoning_content", "refusal", "tool_calls", "function_call", "audio")
"""Delta keys that count as content for C016 (``role`` alone, or ``{}``, does not)."""
DELTA_KEYS = frozenset({"role", "content", "refusal", "tool_calls", "function_call", "audio", "reasoning",
                        "reasoning_content", "extra_content", "annotations", "reasoning_details", "thinking_blocks",
                        "provider_specific_fields", "name"})
"""Delta fields the dialect reads or knowingly passes over (openai-python ``ChoiceDelta``; the
``reasoning`` variants of Ollama ``/v1``, DeepSeek, OpenRouter and LiteLLM; Gemini compat's
``extra_content``). Any other field is S008: shown, never silently dropped."""
_CHANNELS = {"content": "text", "reasoning_content": "reasoning", "reasoning": "reasoning", "refusal": "refusal"}
"""Delta keys whose string goes to a channel block of the choice (as ``_on_delta`` reads them)."""
RESTATED_MIN = 8
"""C019: a repeated delta shorter than this (stripped) is a repeated token, not a restatement."""
TOOL_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,128}")
"""C020: what every API accepts as a tool name (OpenAI ``^[a-zA-Z0-9_-]{1,64}$``, Anthropic and Gemini
add ``.``/``:`` and 128 characters)."""
TEMPLATE_TOKENS = re.compile(r"<\|[^|<>]*\|>|</?tool_call>|\[TOOL_CALLS\]")
"""C020: chat-template control tokens a tool parser can leak into a name (Harmony ``<|channel|>``,
Hermes ``<tool_call>``, Mistral ``[TOOL_CALLS]``)."""
LEARN_TRIES = 8
"""Calls whose first delta may fail to give ``lead_template`` its template before it stops trying."""
GOOD_NAMES_KEPT = 1024
_GOOD_NAMES: set[str] = set()
"""Names C020 already found valid (an agent calls the same few tools over and over; at most
``GOOD_NAMES_KEPT`` are kept, so a stream of made-up names costs the two searches each)."""


def _sole_entry(entries: object, size: int) -> dict | None:
    """The one entry of a ``tool_calls`` list of one entry, when it is an object of ``size`` keys; else None."""
    if entries.__class__ is not list or len(entries) != 1:  # type: ignore[arg-type]  # a list: checked first
        return None
    entry = entries[0]  # type: ignore[index]  # a list: checked above
    return entry if entry.__class__ is dict and len(entry) == size else None


def _nonempty(value: object) -> str | None:
    """A non-empty string, else None (PROTOCOLS.md L2: empty-string ids/names are ignored)."""
    return value if isinstance(value, str) and value != "" else None


def named_tool_choice(body: dict | None) -> str | None:
    """The function a Chat request forces in ``tool_choice`` (``{"type": "function", "function":
    {"name": …}}``), else None (RULES.md C003: OpenAI then finishes with ``stop``)."""
    choice = body.get("tool_choice") if isinstance(body, dict) else None
    fn = choice.get("function") if isinstance(choice, dict) else None
    name = fn.get("name") if isinstance(fn, dict) else None
    return name if isinstance(name, str) and name else None


def _restated(text: str, head: str, tail: str) -> str | None:
    """Where ``text`` repeats what came before it (C019): ``its start`` when the text streamed so far
    begins with it (``head``: as many characters), ``its end`` when it ends with it (``tail``); None
    otherwise, and for what is no sentence: a short token, one word (``function`` twice in code), a run
    of one character (``--------``)."""
    core = text.strip()
    if len(core) < RESTATED_MIN or len(set(core)) == 1 or not any(c.isspace() for c in core):
        return None
    return "its start" if head == text else "its end" if tail == text else None


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _signature_of(obj: object) -> str | None:
    """``extra_content.google.thought_signature`` of a tool-call entry or delta (PROTOCOLS.md §4)."""
    if not isinstance(obj, dict):
        return None
    extra = obj.get("extra_content")
    google = extra.get("google") if isinstance(extra, dict) else None
    if not isinstance(google, dict):
        return None
    sig = google.get("thought_signature", google.get("thoughtSignature"))
    return sig if isinstance(sig, str) and sig else None


class _Call(Record):
    """Bookkeeping for one streamed tool call (the block itself lives on the session). A ``Record``, not
    a dataclass: one is made per call (its ``__init__`` written out costs less than the generated one)."""

    __slots__ = ("block", "wire_index", "how", "c008", "c012", "c020", "c002", "from_object", "after_finish")
    __eq__ = object.__eq__  # compared by identity (``eq=False``)
    __hash__ = object.__hash__  # type: ignore[assignment]  # Record's is None (value equality)

    block: "Block"
    wire_index: int | None
    """The ``index`` the provider sent, None when the call was attributed without one (C001)."""
    how: list
    """How index-less fragments were attributed to this call (``by id``, ``by position``...)."""
    c008: bool
    c012: bool
    c020: bool
    c002: Finding | None
    """The C002 finding of a call opened without a name (its message says when the name came)."""
    from_object: bool
    """Opened from a ``tool_calls`` that was an object, not a list (C018 says it; no C002)."""
    after_finish: bool
    """Opened after its choice's ``finish_reason`` (C016): closed at the end of the stream."""

    def __init__(self, block: "Block", wire_index: int | None, how: list | None = None, c008: bool = False,
                 c012: bool = False, c020: bool = False, c002: Finding | None = None, from_object: bool = False,
                 after_finish: bool = False) -> None:
        self.block = block
        self.wire_index = wire_index
        self.how = [] if how is None else how
        self.c008 = c008
        self.c012 = c012
        self.c020 = c020
        self.c002 = c002
        self.from_object = from_object
        self.after_finish = after_finish


class _Choice:
    """What one choice (``choices[].index``) has assembled so far. A slotted class, not a ``Record``:
    made from its index alone, the rest is state it gathers; compared by identity."""

    __slots__ = ("index", "text", "reasoning", "refusal", "calls", "batch", "opening", "by_index", "by_id",
                 "seen_indexes", "legacy", "finish", "pending_signature", "c006", "c015_judged", "c019", "audio")

    index: int
    text: "Block | None"
    reasoning: "Block | None"
    refusal: "Block | None"
    calls: list
    """Every call in opening order."""
    batch: list
    """The calls opened by the latest delta that opened any: index-less entries are attributed
    by their position in it (C001), a standalone signature goes to its first call (C010)."""
    opening: bool
    """The current ``tool_calls`` delta already opened a call (so the batch is being rebuilt)."""
    by_index: dict
    """Wire index -> the current ``_Call`` for it (a C005 split replaces the entry)."""
    by_id: dict
    seen_indexes: set
    legacy: "_Call | None"
    """The deprecated ``delta.function_call`` (one per choice)."""
    finish: str | None
    pending_signature: str | None
    """A standalone thought signature seen before any call: it belongs to the first call."""
    c006: bool
    c015_judged: bool
    c019: bool
    audio: "Block | None"
    """The ``delta.audio`` transcript (audio output), shown as a block."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.text = self.reasoning = self.refusal = self.legacy = self.audio = None
        self.calls = []
        self.batch = []
        self.opening = False
        self.by_index = {}
        self.by_id = {}
        self.seen_indexes = set()
        self.finish = self.pending_signature = None
        self.c006 = self.c015_judged = self.c019 = False


class OpenAIChat(Dialect):
    """``openai-chat``: see the module docstring. Blocks: ``text``, ``reasoning``, ``refusal``
    (index None, choice = choice index) and ``tool_call`` (index = tool-call index)."""

    name = "openai-chat"
    accepts_done = True
    run_keys = {"": ("arguments", "content", "reasoning_content")}
    run_noise = ("obfuscation",)
    delta_types = frozenset({"message"})
    delta_template = True
    untyped = "message"
    group_starts = frozenset({"message"})

    def __init__(self, writer) -> None:
        super().__init__(writer)
        self.choices: dict[int, _Choice] = {}
        self.c001_seen: set = set()
        self.c018 = False
        self.chunk_id: str | None = None
        """The ``id`` every chunk of this response carries (a new one after ``[DONE]``: a new response)."""
        self.legacy_said = False
        self.direct = {"message": self._on_message}
        """Every chunk's handler is ``on_event`` (``message``: a chunk without ``type``, or with that one):
        the session takes a chunk and the deltas after it in one pass (``Dialect.group_starts``)."""
        self._lead: tuple | None = None
        """``(choice, pre, post, tail, noise_tail)``: the template of a call's argument deltas (``templates.learn``)."""
        self._learn_budget = LEARN_TRIES

    # ------------------------------------------------------------------ detection

    def next_response(self, ev: "EventRecord") -> bool:
        """A chunk with another ``id`` after ``[DONE]`` starts a new response (RULES.md S004)."""
        p = ev.payload
        if not self.w.ended or not isinstance(p, dict):
            return False
        cid = p.get("id")
        return isinstance(cid, str) and cid != "" and self.chunk_id is not None and cid != self.chunk_id

    # ------------------------------------------------------------------ events
    def on_event(self, ev: "EventRecord") -> None:
        """One chunk. The two common chunks of a plain stream go their own direct way: the continuation
        (``delta_of``) only adds its string, the opening of a call (``_opens``) only opens it; every other
        chunk goes through ``on_chunk``, which would do the same with them
        (``tests/unit/test_chat_direct.py`` holds the ways to the same report and event log)."""
        p = ev.payload
        if not (p.__class__ is dict and ev.name != "error" and self._direct(p)):  # type: ignore[arg-type]  # a dict
            self.on_chunk(ev)

    def _direct(self, p: dict) -> bool:
        """``on_event``'s direct way for a chunk's payload ``p`` (a dict, not named ``error``): True when
        it took the chunk, False when nothing was done (``on_chunk`` takes it)."""
        one = self._plain(p)
        if one is None:
            return False
        target = self._continuation(*one)
        if target is None:
            return self._opens(*one)
        block, how, value = target
        if how == "arguments":
            self.w.add_arguments(block, value)
            return True
        if block.kind == "text" and len(value) >= RESTATED_MIN:  # as ``_add_channel`` judges it
            ch = self.choices[block.choice]  # type: ignore[index]  # a channel block has its choice
            if not ch.c019:
                self.c019_content_restated(ch, block, value)
        self.w.add_text(block, value)
        return True

    def _on_message(self, p: dict) -> None:
        """``on_event`` for the event being dispatched (``direct`` hands its payload, ``p``; the event is
        the writer's current one, fetched only for ``on_chunk``). Its name is not read: the session
        hands over a chunk without ``type`` only when it is named ``message`` or not at all, and a chunk
        with a ``type`` is never plain (``_plain``), so an ``error`` event still reaches ``on_chunk``."""
        if not self._direct(p):
            self.on_chunk(self.w.current)  # type: ignore[arg-type]  # a handler runs while its event is current

    def _plain(self, p: dict) -> "tuple[_Choice, dict] | None":
        """The choice and the delta of a plain chunk: one choice already seen and not finished, no
        ``finish_reason``, a delta that is an object of one key, on a chunk with no error, no usage, no
        ``type``, not legacy, the response's ``id`` already known, before the end marker; else None."""
        if self.chunk_id is None:
            return None
        choices = p.get("choices")
        if (choices.__class__ is not list or len(choices) != 1 or self.w.ended or "error" in p
                or "type" in p or p.get("usage") is not None or p.get("object") == LEGACY_OBJECT):
            return None
        choice = choices[0]  # type: ignore[index]  # a list: checked above
        if choice.__class__ is not dict or choice.get("finish_reason") is not None:
            return None
        idx, delta = choice.get("index"), choice.get("delta")
        ch = self.choices.get(idx) if idx.__class__ is int else None
        if ch is None or ch.finish is not None or delta.__class__ is not dict or len(delta) != 1:
            return None
        return ch, delta

    def delta_of(self, p: dict) -> "tuple[Block, str, str] | None":
        """What a plain chunk (``_plain``) adds when its delta is only one string for an open channel
        block (``content``, ``reasoning_content``/``reasoning``, ``refusal``; C019 is the caller's to
        judge) or only one ``tool_calls`` entry ``{index, function: {arguments}}`` for a call already
        opened at that index: its block, ``"arguments"`` or ``"text"``, and the string; None for any
        other chunk. An arguments delta ends the batch of calls being opened (``_on_tool_calls``)."""
        one = self._plain(p)
        return self._continuation(*one) if one is not None else None

    def _continuation(self, ch: _Choice, delta: dict) -> "tuple[Block, str, str] | None":
        """``delta_of`` for the choice and delta of a plain chunk (``_plain``)."""
        entries = delta.get("tool_calls")
        if entries is None:
            for key, value in delta.items():
                kind = _CHANNELS.get(key)
                if kind is not None and value.__class__ is str:
                    block = getattr(ch, kind)
                    return (block, "text", value) if block is not None else None  # None: a block to open
            return None
        entry = _sole_entry(entries, 2)
        if entry is None:
            return None
        idx, fn = entry.get("index"), entry.get("function")
        call = ch.by_index.get(idx) if idx.__class__ is int else None
        if call is None or fn.__class__ is not dict or len(fn) != 1:
            return None
        args = fn.get("arguments")
        if args.__class__ is not str:
            return None
        ch.opening = False
        return call.block, "arguments", args

    def _opens(self, ch: _Choice, delta: dict) -> bool:
        """A plain chunk's delta (``_plain``) that is only the first fragment of a new call, whole: one
        ``tool_calls`` entry with exactly a new ``index`` (an int, not negative), a non-empty ``id`` and
        ``type``, and a ``function`` of exactly a non-empty ``name`` and string ``arguments``. Opens it
        as ``_on_tool_entry`` would (C013, C020 judged in ``_open_call``) and returns True; False for
        any other delta (nothing done)."""
        entry = _sole_entry(delta.get("tool_calls"), 4)
        if entry is None:
            return False
        idx, fn = entry.get("index"), entry.get("function")
        if idx.__class__ is not int or idx < 0 or idx in ch.by_index or fn.__class__ is not dict or len(fn) != 2:
            return False
        eid, typ, name, args = entry.get("id"), entry.get("type"), fn.get("name"), fn.get("arguments")
        if not (eid.__class__ is str and eid and typ.__class__ is str and typ and name.__class__ is str and name
                and args.__class__ is str):
            return False
        if ch.pending_signature is not None:
            ch.opening = False  # a new tool_calls delta: a new batch (``_on_tool_calls``)
            self.w.add_arguments(self._open_call(ch, entry, fn, wire_index=idx).block, args)
            return True
        # ``_open_call`` for this entry: nothing to attribute, no C002/C011 (a name, an id, a type).
        block = self.w.open_block("tool_call", index=idx, choice=ch.index, id=eid, name=name, tool=True)
        call = _Call(block, idx)
        self.c013_index_gap(ch, idx)
        ch.calls.append(call)
        ch.opening, ch.batch = True, [call]
        ch.by_index[idx] = call
        ch.by_id.setdefault(eid, call)
        if name not in _GOOD_NAMES:
            self.c020_invalid_tool_name(call, name)
        self.w.add_arguments(block, args)
        return True

    whole_calls = True

    def open_call(self, p: dict, at: int) -> "Block | None":
        """``_opens`` for an untimed opening that reports nothing, taken with its deltas
        (``Dialect.open_call``): one entry of exactly a new ``index`` that is the next one (C013), a
        non-empty ``id`` and ``type`` (C011) and a ``function`` with a non-empty name C020 passes and
        ``arguments`` empty (no J rule judges them; its other keys are read by no rule), no signature
        pending (C010); None for any other chunk (nothing changed). Its empty fragment is added with no
        event current (the session records the opening afterwards)."""
        one = self._plain(p)
        if one is None:
            return None
        ch, delta = one
        entry = _sole_entry(delta.get("tool_calls"), 4)
        if entry is None or ch.pending_signature is not None:
            return None
        idx, fn = entry.get("index"), entry.get("function")
        if idx.__class__ is not int or idx != len(ch.seen_indexes) or idx in ch.by_index or fn.__class__ is not dict:
            return None
        eid, typ, name = entry.get("id"), entry.get("type"), fn.get("name")
        if not (eid.__class__ is str and eid and typ.__class__ is str and typ and name.__class__ is str and name
                and fn.get("arguments") == ""):
            return None
        if name not in _GOOD_NAMES:  # as ``c020_invalid_tool_name`` judges it
            if TEMPLATE_TOKENS.search(name) is not None or TOOL_NAME.fullmatch(name) is None:
                return None
            if len(_GOOD_NAMES) < GOOD_NAMES_KEPT:
                _GOOD_NAMES.add(name)
        block = self.w.open_call_at(at, "tool_call", idx, ch.index, eid, name)  # its empty fragment added (no J rule judges it)
        call = _Call(block, idx)
        ch.seen_indexes.add(idx)
        ch.calls.append(call)
        ch.opening, ch.batch = True, [call]
        ch.by_index[idx] = call
        ch.by_id.setdefault(eid, call)
        return block

    def lead_template(self, block: "Block", data: str) -> "tuple[str, str, str, str | None] | None":
        """The text of the argument deltas of ``block``, a call ``open_call`` just opened (so its choice is
        not finished, the response not ended; ``data``: the text after its opening): one template per
        choice, learnt from the first call whose first delta proves it (``templates.learn``), a few tries
        at most."""
        ch = self.choices[block.choice]  # type: ignore[index]  # a call's block has its choice
        lead = self._lead
        if lead is None or lead[0] is not ch:
            if self._learn_budget <= 0:
                return None
            cut = templates.learn(self, ch, data, block.index)  # type: ignore[arg-type]  # opened with its index
            if cut is None:
                self._learn_budget -= 1
                return None
            lead = self._lead = (ch, *cut)
        ch.opening = False  # as ``_continuation`` leaves it (read only by ``_open_call``, which sets it first)
        return "message", lead[1] + str(block.index) + lead[2], lead[3], lead[4]

    def on_chunk(self, ev: "EventRecord") -> None:
        """Any event, every field read (``on_event``'s general way)."""
        p = ev.payload
        if p is NOT_JSON:
            return
        if p is DONE:
            self._on_done()
            return
        if self.w.ended:
            self.s004_event_after_end(ev)
        if p.__class__ is not dict:
            self.w.report("S008", f"event data is a JSON {type(p).__name__}, not a chunk object")
            return
        if ("error" in p or ev.name == "error" or p.get("type") == "error") and self.generic_error(ev) \
                and not isinstance(p.get("choices"), list):
            return  # an error object alone; one that also carries choices (OpenRouter) goes on below
        if self.chunk_id is None:
            self._first_chunk(p)
        usage = p.get("usage")
        if usage is not None and usage.__class__ is dict:
            self.w.set_usage(usage)
        if p.get("object") == LEGACY_OBJECT and not self.legacy_said:
            self.legacy_said = True
            self.w.report("S008", "legacy text_completion chunks (/v1/completions): choices[].text read as the "
                          "text; there are no tool calls in this format", cause="text_completion")
        choices = p.get("choices")
        if choices is None:
            return
        if not isinstance(choices, list):
            self.w.report("S008", f"`choices` is a {type(choices).__name__}, not a list")
            return
        for pos, choice in enumerate(choices):
            if choice.__class__ is not dict:
                self.w.report("S008", f"choices[{pos}] is a {type(choice).__name__}, not an object")
                continue
            idx = choice.get("index")
            ch = self.choices.get(idx) if idx.__class__ is int else None
            if ch is None:
                ch = self._choice(idx if _is_int(idx) else pos)
            self._on_choice(ch, choice)

    def run_target(self, p: dict, name: str, value: str) -> "tuple[Block, str] | None":
        """A run of continuation chunks of one choice whose only delta is one call's
        ``function.arguments``, or the text in ``content``/``reasoning_content`` of an open channel,
        with no ``finish_reason`` and no usage: ``on_event`` would only add that string."""
        if (self.w.ended or self.chunk_id is None or name == "error" or "error" in p or "type" in p
                or p.get("object") == LEGACY_OBJECT or p.get("usage") is not None):
            return None
        choices = p.get("choices")
        if choices.__class__ is not list or len(choices) != 1 or choices[0].__class__ is not dict:
            return None
        choice = choices[0]
        idx, delta = choice.get("index"), choice.get("delta")
        ch = self.choices.get(idx) if idx.__class__ is int else None
        if ch is None or ch.finish is not None or choice.get("finish_reason") is not None \
                or delta.__class__ is not dict or len(delta) != 1:
            return None
        entries = delta.get("tool_calls")
        if entries is None:
            key = next(iter(delta))
            block = ch.text if key == "content" else ch.reasoning if key == "reasoning_content" else None
            return (block, "text") if block is not None and delta[key] == value else None
        if entries.__class__ is not list or len(entries) != 1 or entries[0].__class__ is not dict:
            return None
        entry = entries[0]
        fn = entry.get("function")
        call = ch.by_index.get(entry.get("index")) if len(entry) == 2 else None
        if call is None or fn.__class__ is not dict or len(fn) != 1 or fn.get("arguments") != value:
            return None
        return call.block, "arguments"

    def judges_text(self, block: "Block", values: list) -> bool:
        """A run of content deltas one of which restates what came before it (C019) goes one by one."""
        ch = self.choices.get(block.choice) if block.choice is not None else None
        if block.kind != "text" or ch is None or ch.c019 or ch.text is not block:
            return False
        before = block.length
        for i, v in enumerate(values):
            if len(v) >= RESTATED_MIN and before >= len(v):
                head = block.head(len(v)) if block.length >= len(v) else (block.content + "".join(values[:i]))[:len(v)]
                tail, k = "", i
                while len(tail) < len(v) and k > 0:
                    k -= 1
                    tail = values[k] + tail
                tail = (block.tail(len(v) - len(tail)) + tail)[-len(v):]
                if _restated(v, head, tail):
                    return True
            before += len(v)
        return False

    def _first_chunk(self, p: dict) -> None:
        """The model and the ``id`` every chunk of this response should carry."""
        model = p.get("model")
        if isinstance(model, str) and model:
            self.w.set_model(model)
        if isinstance(p.get("id"), str) and p["id"]:
            self.chunk_id = p["id"]

    def _on_done(self) -> None:
        if self.w.ended:
            self.s004_event_after_end(self.w.current)
        self.w.mark_ended()

    def _choice(self, index: int) -> _Choice:
        ch = self.choices.get(index)
        if ch is None:
            ch = self.choices[index] = _Choice(index)
        return ch

    def _on_choice(self, ch: _Choice, choice: dict) -> None:
        delta = choice.get("delta")
        if delta is None and isinstance(choice.get("message"), dict):
            delta = choice["message"]  # a whole (non-streamed) message: treat it as one delta
        if delta is None and isinstance(choice.get("text"), str):
            delta = {"content": choice["text"]}  # legacy text_completion: the text is the content
        if delta.__class__ is dict:
            if ch.finish is not None:
                self.c016_delta_after_finish(ch, delta)
            if len(delta) == 1 and "tool_calls" in delta:  # the common continuation chunk
                self._on_tool_calls(ch, delta["tool_calls"])
            else:
                self._on_delta(ch, delta)
        elif delta is not None:
            self.w.report("S008", f"choice {ch.index}: `delta` is a {type(delta).__name__}, not an object",
                          cause="delta type")
        fr = choice.get("finish_reason")
        if fr == "":
            self.c017_empty_finish_reason(ch)
        elif fr is not None:
            self._on_finish(ch, fr if isinstance(fr, str) else str(fr))

    # ------------------------------------------------------------------ deltas
    def _on_delta(self, ch: _Choice, delta: dict) -> None:
        reasoning = delta.get("reasoning_content")
        if not isinstance(reasoning, str):
            reasoning = delta.get("reasoning")
        if isinstance(reasoning, str):
            self._add_channel(ch, "reasoning", reasoning)
        content = delta.get("content")
        if isinstance(content, str):
            self._add_channel(ch, "text", content)
        elif isinstance(content, list):
            self._content_parts(ch, content)
        refusal = delta.get("refusal")
        if isinstance(refusal, str):
            self._add_channel(ch, "refusal", refusal)
        audio = delta.get("audio")
        if isinstance(audio, dict):
            self._audio(ch, audio)
        for key in delta:
            if key not in DELTA_KEYS:
                self.w.report("S008", f"choice {ch.index}: unknown delta field {key!r} (shown in the event, not "
                              "assembled)", cause=("delta field", key))
        if "tool_calls" in delta:
            self._on_tool_calls(ch, delta["tool_calls"])
        sig = _signature_of(delta)
        if sig is not None:
            self.c010_thought_signature(ch, sig, None)
        if isinstance(delta.get("function_call"), dict):
            self._on_legacy_function_call(ch, delta["function_call"])

    def _add_channel(self, ch: _Choice, kind: str, text: str) -> None:
        """Append to the choice's ``text``/``reasoning``/``refusal`` block, opened on first non-empty text."""
        block = getattr(ch, kind)
        if block is None:
            if text == "":
                return
            block = self.w.open_block(kind, index=None, choice=ch.index)
            setattr(ch, kind, block)
        elif kind == "text" and len(text) >= RESTATED_MIN and not ch.c019:
            self.c019_content_restated(ch, block, text)
        self.w.add_text(block, text)

    def _content_parts(self, ch: _Choice, parts: list) -> None:
        """``content`` as a list of parts (Mistral-style ``{"type": "text"|"thinking", …}``)."""
        for part in parts:
            if isinstance(part, str):
                self._add_channel(ch, "text", part)
                continue
            if not isinstance(part, dict):
                continue
            typ = part.get("type")
            if typ == "text" and isinstance(part.get("text"), str):
                self._add_channel(ch, "text", part["text"])
            elif typ == "thinking":
                inner = part.get("thinking")
                if isinstance(inner, str):
                    self._add_channel(ch, "reasoning", inner)
                elif isinstance(inner, list):
                    for sub in inner:
                        if isinstance(sub, dict) and isinstance(sub.get("text"), str):
                            self._add_channel(ch, "reasoning", sub["text"])
            else:
                self.w.report("S008", f"choice {ch.index}: content part of unknown type {typ!r}")

    # ------------------------------------------------------------------ tool calls
    def _on_tool_calls(self, ch: _Choice, entries: object) -> None:
        if entries is None:
            return
        from_object = isinstance(entries, dict)
        if not isinstance(entries, list):
            self.c018_tool_calls_not_list(ch, entries)
            if not from_object:
                return
            entries = [entries]  # read the object as one entry, as it was surely meant
        if not entries:
            self.c006_empty_tool_calls_array(ch)
            return
        ch.opening = False
        for pos, entry in enumerate(entries):
            if not isinstance(entry, dict):
                self.w.report("S008", f"choice {ch.index}: tool_calls[{pos}] is a {type(entry).__name__}, "
                              "not an object", cause="tool_calls entry type")
                continue
            self._on_tool_entry(ch, entry, pos, from_object=from_object)

    def _on_tool_entry(self, ch: _Choice, entry: dict, pos: int, *, from_object: bool = False) -> None:
        fn = entry.get("function")
        fn = fn if isinstance(fn, dict) else {}
        name = _nonempty(fn.get("name"))
        eid = _nonempty(entry.get("id")) or _nonempty(fn.get("id"))
        sig = _signature_of(entry)
        args = fn.get("arguments")
        idx = entry.get("index")
        has_index = _is_int(idx) and idx >= 0  # a negative index is no index (C001 says "negative")

        if sig is not None and name is None and args in (None, ""):
            # A standalone signature delta (PROTOCOLS.md §4): no fragment, only the signature.
            call = ch.by_index.get(idx) if has_index else None
            if call is None and eid is not None:
                call = ch.by_id.get(eid)
            if not has_index:
                self.c001_missing_index(ch, entry, call or (ch.batch[0] if ch.batch else None),
                                        "signature to first call of the batch" if call is None else "by id")
            self.c010_thought_signature(ch, sig, call)
            return

        if has_index:
            call = ch.by_index.get(idx)
            if call is None:
                call = self._open_call(ch, entry, fn, wire_index=idx, from_object=from_object)
            else:
                call = self._continue_indexed(ch, call, entry, fn, eid, name)
        else:
            call, how = self._attribute(ch, eid, name, pos)
            if call is None:
                call = self._open_call(ch, entry, fn, wire_index=None, attribution=how, from_object=from_object)
            else:
                self._continuation_checks(call, eid, name)
                if how not in call.how:
                    call.how.append(how)
                    self.w.set_attribution(call.block, ", ".join(call.how))
            self.c001_missing_index(ch, entry, call, how)

        if "arguments" in fn and args is not None:
            self._add_arguments(call, args)
        else:
            self.w.note_event_block(call.block)
        if sig is not None:
            self.c010_thought_signature(ch, sig, call)

    def _attribute(self, ch: _Choice, eid: str | None, name: str | None, pos: int) -> tuple[_Call | None, str]:
        """C001 attribution for an entry without ``index``: by ``id``, then by position in the
        batch (the calls the latest call-opening delta opened), then to the last call.
        None = a new call (an unknown id; or a name that differs from the target's, or a name
        while the target's arguments are already complete)."""
        if eid is not None:
            return ch.by_id.get(eid), "by id"
        if pos < len(ch.batch):
            call, how, where = ch.batch[pos], "by position", "the call at its position"
        elif ch.calls:
            call, how, where = ch.calls[-1], "to last call", "the last call"
        else:
            return None, "new call (no id, no index)"
        if name is not None and call.block.name not in (None, name):
            return None, f"new call (name differs from {where})"
        if name is not None and call.block.status == "complete":
            return None, f"new call (named, and {where} is already complete)"
        return call, how

    def _open_call(self, ch: _Choice, entry: dict, fn: dict, *, wire_index: int | None,
                   attribution: str | None = None, index: int | None = None, from_object: bool = False) -> _Call:
        """Open a ``tool_call`` block for the first fragment of a call (C002, C011, C013 judged here).

        ``index`` is the block's index: the wire index, else (index-less calls) the call's
        position in the choice; a C005 split passes the index it shares with the call it splits off.
        """
        split = index is not None
        if index is None:
            index = wire_index if wire_index is not None else len(ch.calls)
        name = _nonempty(fn.get("name"))
        cid = _nonempty(entry.get("id")) or _nonempty(fn.get("id"))
        block = self.w.open_block("tool_call", index=index, choice=ch.index, id=cid, name=name, tool=True,
                                  attribution=attribution)
        call = _Call(block, wire_index, after_finish=ch.finish is not None, from_object=from_object)
        if attribution:
            call.how.append(attribution)
        if wire_index is not None and not split:
            self.c013_index_gap(ch, wire_index)
        ch.calls.append(call)
        if not ch.opening:
            ch.opening, ch.batch = True, []
        ch.batch.append(call)
        if wire_index is not None or split:
            ch.by_index[index] = call
        else:
            ch.by_index.setdefault(index, call)
        if cid is not None:
            ch.by_id.setdefault(cid, call)
        self.c002_fragment_without_start(call, name)
        self.c020_invalid_tool_name(call, name)
        self.c011_incomplete_first_fragment(call, entry, fn)
        if ch.pending_signature is not None and len(ch.calls) == 1:
            self.w.set_signature(block, ch.pending_signature)
            ch.pending_signature = None
        return call

    def _continue_indexed(self, ch: _Choice, call: _Call, entry: dict, fn: dict,
                          eid: str | None, name: str | None) -> _Call:
        """A later fragment for a known index: C005 (maybe a split), else C012/C008."""
        block = call.block
        if eid is not None and block.id is not None and eid != block.id:
            return self.c005_id_changed(ch, call, entry, fn, eid, name)
        if eid is not None and block.id is None:
            self.w.set_identity(block, id=eid)  # the id arrived late (C011 already said the first fragment lacked it)
            ch.by_id.setdefault(eid, call)
            self._continuation_checks(call, None, name)
            return call
        self._continuation_checks(call, eid, name)
        return call

    def _continuation_checks(self, call: _Call, eid: str | None, name: str | None) -> None:
        if eid is not None and eid == call.block.id:
            self.c012_id_repeated(call)
        if name is not None:
            if call.block.name is None:
                self.w.set_identity(call.block, name=name)  # a name after a nameless first fragment
                self._late_name(call, name)
                self.c020_invalid_tool_name(call, name)
            else:
                self.c008_name_repeated(call, name)

    def _add_arguments(self, call: _Call, args: object) -> None:
        """One argument fragment (empty fragments count as deltas). Non-string arguments are
        shown as their JSON text (the Chat API sends a string)."""
        if not isinstance(args, str):
            self.w.note(call.block, "arguments_not_string", type(args).__name__)
            try:
                args = orjson.dumps(args).decode()
            except TypeError:
                args = str(args)
        self.w.add_arguments(call.block, args)

    def _on_legacy_function_call(self, ch: _Choice, fc: dict) -> None:
        """The deprecated ``delta.function_call`` ({name, arguments}): one call per choice."""
        name = _nonempty(fc.get("name"))
        if ch.legacy is None:
            block = self.w.open_block("tool_call", index=None, choice=ch.index, name=name, tool=True)
            self.w.note(block, "legacy", "function_call")
            ch.legacy = _Call(block, None, after_finish=ch.finish is not None)
            self.c002_fragment_without_start(ch.legacy, name)
        elif name is not None:
            self.c008_name_repeated(ch.legacy, name)
        args = fc.get("arguments")
        if args is not None:
            self._add_arguments(ch.legacy, args)

    # ------------------------------------------------------------------ finish
    def _on_finish(self, ch: _Choice, fr: str) -> None:
        if ch.finish is not None:
            self.c014_finish_reason_repeated(ch, fr)
            return
        ch.finish = fr
        if ch.index == 0:
            self.w.set_stop_reason(fr)
        self.c003_finish_not_tool_calls(ch, fr)
        self.c004_tool_calls_without_calls(ch, fr)
        self.c009_truncated_by_length(ch, fr)
        info = f"finish_reason: {fr}"
        for call in self._all_calls(ch):
            if not call.block.closed:
                self.w.close_block(call.block, stop_info=info)
        for block in (ch.reasoning, ch.text, ch.refusal, ch.audio):
            if block is not None and not block.closed:
                self.w.close_block(block, stop_info=info)
        self.c015_tool_call_in_content(ch)

    @staticmethod
    def _all_calls(ch: _Choice) -> list:
        calls = list(ch.calls)
        if ch.legacy is not None:
            calls.append(ch.legacy)
        return calls

    # ------------------------------------------------------------------ end
    def on_end(self, end: "End") -> None:
        unfinished = [ch.index for ch in self.choices.values() if ch.finish is None]
        if unfinished:
            which = ", ".join(str(i) for i in unfinished)
            self.truncated(f"a finish_reason on choice {which}")
        elif not self.choices and not self.w.ended:
            self.truncated("any choice (no chunk with choices arrived)")
        for ch in self.choices.values():
            self.c015_tool_call_in_content(ch, at_end=True)
            for call in ch.calls:
                if call.after_finish and not call.block.closed:
                    self.w.close_block(call.block, stop_info="opened after finish_reason")
        self.c007_missing_done()

    # ================================================================== rules
    def c001_missing_index(self, ch: _Choice, entry: dict, call: _Call | None, how: str) -> None:
        """C001 missing-index (warning): "a `tool_calls[]` entry has no `index` (attribute it by
        `id`, then by position in the batch, then to the last call; show the attribution)"."""
        key = (ch.index, id(call), how)
        if key in self.c001_seen:
            return
        self.c001_seen.add(key)
        idx = entry.get("index")
        what = ("has no index" if idx is None else f"has a negative index {idx}" if _is_int(idx)
                else f"has a non-integer index {idx!r}")
        target = (f"call {call.block.index} ({call.block.id or call.block.name or 'no id'})"
                  if call is not None else "no call yet")
        said = says("C001-missing-index" if idx is None else "C001-negative-index") if idx is None or _is_int(idx) \
            else "clients that index their list of calls by it fail"
        self.w.report("C001", f"tool_calls entry {what}: attributed {how} to {target} ({said})",
                      index=call.block.index if call else None)

    def c002_fragment_without_start(self, call: _Call, name: str | None) -> None:
        """C002 fragment-without-start (error): "the first fragment seen for an index carries no
        non-empty `function.name` (absent, null or `""`): arguments for a call never opened"."""
        if name is None and not call.from_object:
            call.c002 = self.w.report(
                "C002", f"first fragment for tool call index {call.block.index} carries no function.name "
                "(absent, null or \"\"): its arguments belong to a call that was never opened",
                index=call.block.index)

    def _late_name(self, call: _Call, name: str) -> None:
        """The name arrived after a nameless first fragment: C002's message says exactly that."""
        finding = call.c002
        if finding is not None:
            ev = self.w.current
            finding.message = (f"first fragment for tool call index {call.block.index} carried an empty "
                               f"function.name; the real name {name!r} arrived later"
                               f"{f' (event {ev.index})' if ev is not None else ''}: clients that open a "
                               "call on its first fragment never see this one")

    def c003_finish_not_tool_calls(self, ch: _Choice, fr: str) -> None:
        """C003 finish-not-tool-calls (warning): "tool calls were streamed but `finish_reason` is
        `stop` (or another non-`tool_calls`, non-`length` value): clients keyed on `tool_calls`
        drop them"."""
        if fr in (CALL_FINISH, LENGTH_FINISH):
            return
        forced = named_tool_choice(self.w.request_body)
        severity: Severity | None = "info" if forced else None
        why = (f"; the request forces {forced!r} in tool_choice, and OpenAI itself then finishes with 'stop'"
               if forced else "")
        if ch.calls:
            self.w.report("C003", f"choice {ch.index} streamed {len(ch.calls)} tool call(s) but finish_reason "
                          f"is {fr!r}, not 'tool_calls': clients keyed on finish_reason drop them{why}",
                          severity=severity)
        elif ch.legacy is not None and fr != LEGACY_FINISH:
            self.w.report("C003", f"choice {ch.index} streamed a function_call but finish_reason is {fr!r}{why}",
                          severity=severity)

    def c004_tool_calls_without_calls(self, ch: _Choice, fr: str) -> None:
        """C004 tool-calls-without-calls (error): "`finish_reason` `tool_calls` and no tool call
        streamed"."""
        if fr == CALL_FINISH and not ch.calls and ch.legacy is None:
            self.w.report("C004", f"choice {ch.index} finished with 'tool_calls' but streamed no tool call")

    def c005_id_changed(self, ch: _Choice, call: _Call, entry: dict, fn: dict,
                        eid: str, name: str | None) -> _Call:
        """C005 id-changed (error): "a fragment for an existing index carries a different
        non-empty `id`: a second call collides with the first. With a `function.name` too it is a
        new call: split it off and show both".

        Returns the call the fragment belongs to: a new one (the old block is closed and kept)
        when the fragment names a function, else the existing one.
        """
        old = call.block
        if name is not None:
            self.w.report("C005", f"tool call index {old.index}: new id {eid!r} with name {name!r} after "
                          f"{old.id!r}: a second call reuses the index (split into its own call; "
                          "index-keyed accumulators merge the two)", index=old.index)
            if not old.closed:
                self.w.close_block(old, stop_info=f"superseded by {eid} on the same index")
            return self._open_call(ch, entry, fn, wire_index=call.wire_index, index=old.index)
        others = old.extra.get("other_ids", [])
        if eid not in others:  # once per colliding id
            self.w.note(old, "other_ids", [*others, eid])
            self.w.report("C005", f"tool call index {old.index}: fragment carries id {eid!r}, the call's id is "
                          f"{old.id!r}: a second call collides with the first (fragments kept on the first)",
                          index=old.index)
        return call

    def c006_empty_tool_calls_array(self, ch: _Choice) -> None:
        """C006 empty-tool-calls-array (info): "a delta carries `tool_calls: []` (clients that
        branch on the key misroute text)". Reported once per choice."""
        if not ch.c006:
            ch.c006 = True
            self.w.report("C006", f"choice {ch.index}: delta carries tool_calls: [] (clients that branch on "
                          "the key misroute the text); reported once")

    def c007_missing_done(self) -> None:
        """C007 missing-done (warning): "the stream ended without `data: [DONE]`. Info when every
        choice already has its `finish_reason` and the body ended cleanly (some providers, e.g.
        Writer, never send `[DONE]`; the official SDKs end at EOF)"."""
        if self.w.ended or self.w.http_error or self.errored:
            return
        if self.choices and all(ch.finish is not None for ch in self.choices.values()) and self.w.ended_cleanly:
            self.w.report("C007", "the stream ended without data: [DONE] after every choice finished, at a clean "
                          "end of the body (some providers, e.g. Writer, never send it; "
                          f"{says('C007-missing-done')}; clients that wait for [DONE] hang)", event=False,
                          severity="info")
            return
        self.w.report("C007", "the stream ended without data: [DONE]", event=False)

    def c008_name_repeated(self, call: _Call, name: str) -> None:
        """C008 name-repeated (warning): "a continuation fragment repeats a non-empty
        `function.name` (naive accumulators double the name)". Reported once per call."""
        if call.c008:
            return
        call.c008 = True
        same = "repeats" if name == call.block.name else f"carries a different name {name!r} than"
        self.w.report("C008", f"tool call index {call.block.index}: a continuation fragment {same} "
                      f"function.name {call.block.name!r} (naive accumulators build "
                      f"{(call.block.name or '') + name!r})", index=call.block.index)

    def c009_truncated_by_length(self, ch: _Choice, fr: str) -> None:
        """C009 truncated-by-length (error): "`finish_reason` `length` while a tool call is open
        or incomplete". A Chat call stays open until finish_reason, so it counts when its
        arguments are not a complete JSON value (empty or a partial prefix)."""
        if fr != LENGTH_FINISH:
            return
        cut = [c.block for c in self._all_calls(ch) if c.block.status in ("empty", "partial")]
        if cut:
            which = ", ".join(f"{b.index if b.index is not None else '-'} ({b.name or 'no name'}, {b.status})"
                              for b in cut)
            self.w.report("C009", f"choice {ch.index} hit the length limit with tool call(s) cut off: {which}; "
                          "retry with a higher max_tokens", index=cut[0].index)

    def c010_thought_signature(self, ch: _Choice, sig: str, call: _Call | None) -> None:
        """C010 thought-signature (info): "`extra_content.google.thought_signature` seen: it must
        go back on the call it came with; a standalone signature delta belongs to the first call
        of the batch". Kept as ``block.signature``."""
        if call is None:
            call = ch.batch[0] if ch.batch else None
        if call is None:
            ch.pending_signature = sig
            where = "before any call: it belongs to the first call of the batch"
        else:
            self.w.set_signature(call.block, sig)
            self.w.note_event_block(call.block)
            where = f"belongs to call {call.block.index} ({call.block.id or call.block.name or 'no id'})"
        self.w.report("C010", f"thought_signature ({len(sig)} characters) {where}; send it back with that "
                      "call or Gemini rejects the next request", index=call.block.index if call else None)

    def c011_incomplete_first_fragment(self, call: _Call, entry: dict, fn: dict) -> None:
        """C011 incomplete-first-fragment (warning): "the first fragment of a call lacks `id` or
        `type` (or puts `id` inside `function`)"."""
        missing = []
        if _nonempty(entry.get("id")) is None:
            missing.append("puts id inside function" if _nonempty(fn.get("id")) else "lacks id")
        if _nonempty(entry.get("type")) is None:
            missing.append("lacks type")
        if missing:
            self.w.report("C011", f"first fragment of tool call index {call.block.index} "
                          f"{' and '.join(missing)}", index=call.block.index)

    def c012_id_repeated(self, call: _Call) -> None:
        """C012 id-repeated (warning): "continuation fragments repeat the same `id`
        (string-concatenating accumulators double it)". Reported once per call."""
        if not call.c012:
            call.c012 = True
            self.w.report("C012", f"tool call index {call.block.index}: a continuation fragment repeats id "
                          f"{call.block.id!r} (string-concatenating accumulators double it)",
                          index=call.block.index)

    def c013_index_gap(self, ch: _Choice, index: int) -> None:
        """C013 index-gap (warning): "tool call indexes do not appear as 0, 1, 2, … in order"."""
        expected = len(ch.seen_indexes)
        ch.seen_indexes.add(index)  # a set: O(1) per call (a list search went quadratic on many calls)
        if index != expected:
            self.w.report("C013", f"choice {ch.index}: tool call index {index} appeared where {expected} "
                          "was expected (indexes must run 0, 1, 2, … in order)", index=index)

    def c014_finish_reason_repeated(self, ch: _Choice, fr: str) -> None:
        """C014 finish-reason-repeated (error): "a choice that streamed tool calls gets a second
        `finish_reason` (clients run the calls twice). The same value repeated on a choice with no
        tool calls (some routers repeat it on the usage chunk) is info". A different value on a
        choice with no tool calls runs nothing twice either: info too."""
        if ch.calls or ch.legacy is not None:
            self.w.report("C014", f"choice {ch.index} got a second finish_reason {fr!r} (first {ch.finish!r}) "
                          "after streaming tool calls: clients may run its tool calls twice")
        else:
            same = "the same" if fr == ch.finish else f"another ({fr!r} after {ch.finish!r})"
            self.w.report("C014", f"choice {ch.index} got {same} finish_reason again; it streamed no tool call, "
                          "so nothing runs twice (some routers repeat it on the usage chunk)", severity="info")

    def c015_tool_call_in_content(self, ch: _Choice, *, at_end: bool = False) -> None:
        """C015 tool-call-in-content (warning): "the assistant text is a tool call written as text
        (a `{"name": …, "arguments"/"parameters": …}` object or list, or `<tool_call>` tags) and no
        structured call exists". Judged once per choice, at its finish or at the end."""
        if ch.c015_judged or (at_end and ch.finish is not None):
            return
        ch.c015_judged = True
        if ch.text is None or ch.calls or ch.legacy is not None:
            return
        why = looks_like_tool_call(ch.text.content)
        if why:
            self.w.report("C015", f"choice {ch.index}: {why}, and no structured tool call was streamed "
                          "(the server's tool parser did not run)", event=not at_end)

    def c016_delta_after_finish(self, ch: _Choice, delta: dict) -> None:
        """C016 delta-after-finish (error): "a later chunk whose delta for a finished choice carries
        `content`, `reasoning`, `refusal` or `tool_calls` (a delta that is `{}` or carries only
        `role` does not count)"."""
        if ch.finish is None:
            return
        carried = [k for k in CARRYING_KEYS if delta.get(k) not in (None, "", [])]
        if carried:
            self.w.report("C016", f"choice {ch.index} already finished ({ch.finish!r}) but a later delta "
                          f"carries {', '.join(carried)}: clients that stop at finish_reason lose it")

    def c017_empty_finish_reason(self, ch: _Choice) -> None:
        """C017 empty-finish-reason (warning): "`finish_reason` is `""` (an empty string): clients
        that test `!= null` end the turn at that chunk and drop the rest. An empty string is not a
        finish for the other C rules". Repeats fold into one finding per choice."""
        self.w.report("C017", f"choice {ch.index}: finish_reason is \"\" (an empty string, not null): clients "
                      "that test finish_reason != null end the turn here and drop the rest", cause=ch.index)

    def c018_tool_calls_not_list(self, ch: _Choice, entries: object) -> None:
        """C018 tool-calls-not-list (error): "`delta.tool_calls` is present and not an array (an
        object, a string): the official SDKs fail on it. Once per stream". An object is still read
        as one entry, so its arguments are shown and judged."""
        if self.c018:
            return
        self.c018 = True
        how = "read as one entry" if isinstance(entries, dict) else "not read"
        self.w.report("C018", f"choice {ch.index}: delta.tool_calls is a {type(entries).__name__}, not an array "
                      f"({how}): {says('C018-tool-calls-not-list')} (reported once per stream)")

    def c019_content_restated(self, ch: _Choice, block: "Block", text: str) -> None:
        """C019 content-restated (warning): "a chunk's `delta.content` repeats text the choice already
        streamed (a whole-sentence restatement, typically on the chunk that carries the tool calls or
        the finish): accumulating clients show it twice. Not fired for a single repeated short token
        (under 8 characters)". A restatement repeats the text from its start or its latest part
        (read without joining the block); a run of one character (``--------``) is no sentence."""
        if block.length < len(text):
            return
        where = _restated(text, block.head(len(text)), block.tail(len(text)))
        if where is None:
            return
        ch.c019 = True
        self.w.report("C019", f"choice {ch.index}: delta.content repeats {len(text)} characters the choice already "
                      f"streamed (at {where}): {text[:60]!r}{'…' if len(text) > 60 else ''}; accumulating clients "
                      "show it twice (reported once per choice)")

    def c020_invalid_tool_name(self, call: _Call, name: str | None) -> None:
        """C020 invalid-tool-name (error): "a streamed `function.name` that no API would accept as a
        tool name: outside `^[A-Za-z0-9_.:-]{1,128}$`, or holding chat-template control tokens
        (`<|…|>`, `<tool_call>`, `[TOOL_CALLS]`): the agent looks up a tool that does not exist".
        Once per call."""
        if name is None or call.c020 or name in _GOOD_NAMES:
            return
        token = TEMPLATE_TOKENS.search(name)
        if token is None and TOOL_NAME.fullmatch(name):
            if len(_GOOD_NAMES) < GOOD_NAMES_KEPT:
                _GOOD_NAMES.add(name)
            return
        call.c020 = True
        why = (f"holds the chat-template token {token.group()!r} (the server's tool parser leaked it)"
               if token is not None else "is not a tool name any API accepts (letters, digits, _ . : -, 1–128 characters)")
        self.w.report("C020", f"tool call index {call.block.index}: function.name {name[:80]!r} {why}: "
                      "the agent looks up a tool that does not exist", index=call.block.index)

    def _audio(self, ch: _Choice, audio: dict) -> None:
        """``delta.audio`` (audio output): its ``transcript`` is shown as an ``audio`` block; the
        base64 ``data`` is counted, not kept."""
        transcript = audio.get("transcript")
        if ch.audio is None:
            ch.audio = self.w.open_block("audio", index=None, choice=ch.index,
                                         id=string_member(audio, "id"))
        if isinstance(audio.get("data"), str):
            self.w.note(ch.audio, "audio data (base64 characters)",
                        ch.audio.extra.get("audio data (base64 characters)", 0) + len(audio["data"]))
        self.w.add_text(ch.audio, transcript if isinstance(transcript, str) else "")

    def s004_event_after_end(self, ev: "EventRecord | None") -> None:
        """S004 event-after-end (warning): "bytes or events after the end marker. For Chat the
        marker is `data: [DONE]`"; reported once, at the first such event."""
        if self.w.ended:
            self.w.after_end("event after data: [DONE] (clients stop reading at [DONE] and never see it)",
                             event=ev if ev is not None else False)
