"""Streamed function-call arguments (Vertex ``streamFunctionCallArguments``) turned into JSON text.

A streamed call arrives as a part ``functionCall {name, willContinue: true}``, then parts whose
``functionCall.partialArgs`` list entries ``{jsonPath, stringValue | numberValue | boolValue |
nullValue, willContinue?}``, and ends with a part whose ``willContinue`` is absent or false
(often an empty ``functionCall {}``). A string value continues while its entry says
``willContinue: true`` (the next entry for the same path appends to it; real streams close it
with ``stringValue: ""``). Source: google-genai ``types.PartialArg`` / ``FunctionCall``
(``partial_args``, ``will_continue``), and recorded Vertex streams (vercel/ai fixtures
``google-stream-tool-call-*``).

:class:`PartialArgs` writes the JSON text as the entries come, so the call's arguments accumulate
like any other tool call's and the J rules judge them; paths that arrive in document order (the
real streams' order) give text that is always a valid JSON prefix. A path that goes back into a
member already written cannot be written as a prefix: the assembler then keeps only its object
model and the whole text is written at the end (``in_order`` False).
"""
from __future__ import annotations

import re

import orjson

_TOKEN = re.compile(r"""\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]""")
VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue")
"""The typed values an entry may carry (``types.PartialArg``)."""


def parse_path(path: object) -> list[str | int] | None:
    """``$.a.b[0]['c d']`` → ``["a", "b", 0, "c d"]``; None when it is not such a path."""
    if not isinstance(path, str) or not path.startswith("$"):
        return None
    out: list[str | int] = []
    pos = 1
    while pos < len(path):
        m = _TOKEN.match(path, pos)
        if m is None:
            return None
        key, index, quoted1, quoted2 = m.groups()
        out.append(int(index) if index is not None else key if key is not None else quoted1 if quoted1 is not None
                   else quoted2)
        pos = m.end()
    return out


class PartialArgs:
    """The arguments of one streamed call, built entry by entry (see the module docstring)."""

    def __init__(self) -> None:
        self.value: dict = {}
        """The object model of the arguments so far."""
        self.in_order = True
        """Every entry so far continued the text as a JSON prefix."""
        self._containers: list[list] = []
        """Open containers, root first: ``[kind ('{' or '['), members written, keys written]``."""
        self._path: list[str | int] = []
        """Member path of the value written last."""
        self._string_open = False
        self._model_open: tuple | None = None
        """Path of the string the object model is still appending to."""

    def add(self, tokens: list[str | int], value: object, *, is_string: bool, more: bool) -> str:
        """One entry at ``tokens`` (a parsed ``jsonPath``); ``more``: a string value continues in a
        later entry. Returns the JSON text it adds ("" once out of order)."""
        self._model(tokens, value, is_string, more)
        if not self.in_order:
            return ""
        if not tokens or not isinstance(tokens[0], str):
            self.in_order = False
            return ""
        out: list[str] = []
        if self._string_open:
            if is_string and tokens == self._path:
                out.append(_escaped(value))
                if not more:
                    out.append('"')
                    self._string_open = False
                return "".join(out)
            out.append('"')
            self._string_open = False
        if not self._containers:
            self._containers.append(["{", 0, set()])
            out.append("{")
        k = 0
        while k < len(self._path) and k < len(tokens) - 1 and self._path[k] == tokens[k]:
            k += 1
        if tokens == self._path:
            self.in_order = False  # the same member written twice
            return "".join(out)
        while len(self._containers) > k + 1:
            out.append("}" if self._containers.pop()[0] == "{" else "]")
        for depth in range(k, len(tokens)):
            container = self._containers[depth]
            token = tokens[depth]
            kind, members, keys = container
            if kind == "{":
                if not isinstance(token, str) or token in keys:
                    self.in_order = False
                    return "".join(out)
                keys.add(token)
                out.append(("," if members else "") + orjson.dumps(token).decode() + ":")
            else:
                if token != members:
                    self.in_order = False
                    return "".join(out)
                out.append("," if members else "")
            container[1] = members + 1
            if depth < len(tokens) - 1:
                nxt = "{" if isinstance(tokens[depth + 1], str) else "["
                self._containers.append([nxt, 0, set()])
                out.append(nxt)
        if is_string:
            out.append('"' + _escaped(value))
            if more:
                self._string_open = True
            else:
                out.append('"')
        else:
            out.append(orjson.dumps(value).decode())
        self._path = list(tokens)
        return "".join(out)

    def finish(self) -> str:
        """The text that closes everything still open (a string, containers)."""
        if not self.in_order:
            return ""
        out = ['"'] if self._string_open else []
        self._string_open = False
        while self._containers:
            out.append("}" if self._containers.pop()[0] == "{" else "]")
        return "".join(out)

    def _model(self, tokens: list[str | int], value: object, is_string: bool, more: bool) -> None:
        key = tuple(tokens)
        append = is_string and self._model_open == key
        self._model_open = key if is_string and more else None
        if not tokens:
            return
        node: object = self.value
        for depth, token in enumerate(tokens[:-1]):
            child_kind = dict if isinstance(tokens[depth + 1], str) else list
            node = _child(node, token, child_kind)
            if node is None:
                return
        last = tokens[-1]
        if isinstance(node, dict) and isinstance(last, str):
            node[last] = node[last] + value if append and isinstance(node.get(last), str) else value
        elif isinstance(node, list) and isinstance(last, int):
            while len(node) <= last:
                node.append(None)
            node[last] = node[last] + value if append and isinstance(node[last], str) else value


def _child(node: object, token: str | int, kind: type) -> object:
    """The container at ``node[token]``, created as ``kind`` when missing; None on a mismatch."""
    if isinstance(node, dict) and isinstance(token, str):
        if not isinstance(node.get(token), (dict, list)):
            node[token] = kind()
        return node[token]
    if isinstance(node, list) and isinstance(token, int):
        while len(node) <= token:
            node.append(None)
        if not isinstance(node[token], (dict, list)):
            node[token] = kind()
        return node[token]
    return None


def _escaped(text: object) -> str:
    """``text`` as the inside of a JSON string."""
    return orjson.dumps(text if isinstance(text, str) else str(text)).decode()[1:-1]
