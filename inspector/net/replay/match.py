"""Which recorded exchange answers a request (``serve --match DIR``), and where a request departs from it.

A recording matches a request when the method is the same, the paths agree (equal, or one ends with
the other at a ``/``: a recording made through a route prefix still matches), and the JSON bodies are
equal once the ignored paths are removed from both. Ignored by default (``DEFAULT_IGNORE``): values
that change from run to run without changing the conversation: every ``id`` / ``tool_call_id`` /
``tool_use_id`` / ``call_id`` (a client may mint its own), ``metadata``, ``user``, ``stream_options``,
``previous_response_id``, ``prompt_cache_key``, ``safety_identifier``. Headers (dates, keys, SDK
versions) are never compared.

Ignore paths (``--match-ignore``) are JSONPath-like: ``$.a.b``, ``$.messages[2]``, ``[*]`` any
index, ``$..key`` that key at any depth, ``*`` any key.

Shapes: a request is ``(method, path, body)`` with ``body`` parsed JSON (or None). A departure is
``Departure(path, recorded, received)``; ``str()`` gives ``$.messages[2].content: "09:15" vs "14:02"``
(received first, as the issue's users read it: what you sent vs what was recorded).
Pure: no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import orjson

DEFAULT_IGNORE = ("$..id", "$..tool_call_id", "$..tool_use_id", "$..call_id", "$.metadata", "$.user",
                  "$.stream_options", "$.previous_response_id", "$.prompt_cache_key", "$.safety_identifier")

_TOKEN = re.compile(r"\.\.([^.\[\]]+)|\.([^.\[\]]+)|\[(\d+|\*)\]")


class IgnoreError(ValueError):
    """An ignore path that does not parse (one line)."""


Step = tuple[str, object]
"""``("key", name)``, ``("index", n)``, ``("any-index", None)``, ``("any-key", None)``, ``("deep", name)``."""


def parse_path(text: str) -> tuple[Step, ...]:
    """``$.messages[*].content`` -> steps. Raises ``IgnoreError``."""
    s = text.strip()
    if not s.startswith("$"):
        raise IgnoreError(f"--match-ignore {text!r}: a path starts with $ ($.metadata, $..id, $.messages[*].name)")
    s, pos, steps = s[1:], 0, []
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None:
            raise IgnoreError(f"--match-ignore {text!r}: cannot read {s[pos:]!r} (use .key, [N], [*], ..key)")
        deep, key, index = m.groups()
        if deep is not None:
            steps.append(("deep", deep))
        elif key is not None:
            steps.append(("any-key", None) if key == "*" else ("key", key))
        else:
            steps.append(("any-index", None) if index == "*" else ("index", int(index)))
        pos = m.end()
    if not steps:
        raise IgnoreError(f"--match-ignore {text!r}: ignoring $ would ignore the whole body")
    return tuple(steps)


def _matches(steps: tuple[Step, ...], path: tuple) -> bool:
    """True when the concrete ``path`` (keys and indices) is what ``steps`` designate."""
    if not steps:
        return not path
    if not path:
        return False
    kind, arg = steps[0]
    head, rest = path[0], path[1:]
    if kind == "deep":
        if isinstance(head, str) and head == arg and _matches(steps[1:], rest):
            return True
        return _matches(steps, rest)
    if kind == "key":
        ok = isinstance(head, str) and head == arg
    elif kind == "any-key":
        ok = isinstance(head, str)
    elif kind == "index":
        ok = isinstance(head, int) and head == arg
    else:
        ok = isinstance(head, int)
    return ok and _matches(steps[1:], rest)


class Ignore:
    """A set of ignore paths: ``Ignore(DEFAULT_IGNORE + extra)``; ``strip(body)`` removes them."""

    def __init__(self, paths) -> None:
        self.paths = tuple(paths)
        self._steps = [parse_path(p) for p in self.paths]

    def ignored(self, path: tuple) -> bool:
        return any(_matches(s, path) for s in self._steps)

    def strip(self, value, path: tuple = ()):
        """``value`` without the ignored members (a new structure)."""
        if isinstance(value, dict):
            return {k: self.strip(v, (*path, k)) for k, v in value.items() if not self.ignored((*path, k))}
        if isinstance(value, list):
            return [self.strip(v, (*path, i)) for i, v in enumerate(value) if not self.ignored((*path, i))]
        return value


def show_path(path: tuple) -> str:
    out = "$"
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if re.fullmatch(r"[A-Za-z_][\w-]*", p) else
                                                     f"[{orjson.dumps(p).decode()}]")
    return out


def _show(value, limit: int = 60) -> str:
    if value is _ABSENT:
        return "(absent)"
    text = orjson.dumps(value).decode()
    return text if len(text) <= limit else text[: limit - 1] + "…"


_ABSENT = object()


@dataclass(frozen=True, slots=True)
class Departure:
    """Where a request first differs from a recording (``path`` as ``$.a[0].b``; values as JSON text)."""

    path: str
    received: str
    recorded: str

    def __str__(self) -> str:
        return f"{self.path}: {self.received} vs {self.recorded}"


def departure(received, recorded, path: tuple = ()) -> Departure | None:
    """The first place, in document order (the recording's key order, then keys only the request
    has), where ``received`` differs from ``recorded``; None when they are equal."""
    if isinstance(received, dict) and isinstance(recorded, dict):
        for k, v in recorded.items():
            d = departure(received.get(k, _ABSENT), v, (*path, k))
            if d is not None:
                return d
        for k, v in received.items():
            if k not in recorded:
                return Departure(show_path((*path, k)), _show(v), _show(_ABSENT))
        return None
    if isinstance(received, list) and isinstance(recorded, list):
        for i in range(max(len(received), len(recorded))):
            a = received[i] if i < len(received) else _ABSENT
            b = recorded[i] if i < len(recorded) else _ABSENT
            d = departure(a, b, (*path, i))
            if d is not None:
                return d
        return None
    if received is _ABSENT or recorded is _ABSENT or type(received) is not type(recorded) or received != recorded:
        if received is not _ABSENT and recorded is not _ABSENT and _num(received) and _num(recorded) \
                and received == recorded:
            return None  # 1 and 1.0 are one JSON number
        return Departure(show_path(path), _show(received), _show(recorded))
    return None


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def shared(a, b) -> int:
    """How many leaf values ``a`` and ``b`` have equal at the same place (a closeness score)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return sum(shared(a[k], b[k]) for k in a.keys() & b.keys())
    if isinstance(a, list) and isinstance(b, list):
        return sum(shared(x, y) for x, y in zip(a, b))
    return 1 if a == b and type(a) is type(b) else 0


def paths_agree(a: str, b: str) -> bool:
    """Equal paths, or one ends with the other at a ``/`` (``/v1/chat/completions`` vs ``/chat/completions``)."""
    a, b = "/" + a.strip("/"), "/" + b.strip("/")
    return a == b or a.endswith(b) or b.endswith(a)


HISTORY_KEYS = ("messages", "input", "contents")
"""Request keys holding the conversation (Anthropic, Chat, Ollama, Cohere, Converse: ``messages``;
Responses: ``input``; Gemini: ``contents``)."""

_MODEL_ROLES = ("assistant", "model", "chatbot")
_MODEL_ITEMS = ("function_call", "reasoning", "custom_tool_call", "web_search_call", "file_search_call",
                "computer_call", "code_interpreter_call", "image_generation_call", "mcp_call")
"""Responses input items the model produced (openai SDK ``types/responses/response_input_item_param.py``)."""


def turn_of(body) -> int:
    """Which model turn a request asks for, 1-based: one more than the runs of model-side entries
    (``role`` assistant/model, Responses output items) in its history. A body without a history is turn 1."""
    if not isinstance(body, dict):
        return 1
    history: list = next((body[k] for k in HISTORY_KEYS if isinstance(body.get(k), list)), [])
    runs, inside = 0, False
    for item in history:
        model_side = isinstance(item, dict) and (
            str(item.get("role", "")).lower() in _MODEL_ROLES or item.get("type") in _MODEL_ITEMS)
        if model_side and not inside:
            runs += 1
        inside = model_side
    return runs + 1
