"""A Chat call's argument deltas as text: one template, learnt once, serves every call of a choice.

A short call's deltas differ from one another only in their ``arguments`` string, and from another
call's only in the tool call's ``index`` too: ``{…"tool_calls":[{"index":N,"function":{"arguments":"S"}}]…}``.
``learn`` cuts the text of a call's first delta into ``pre``, the index's digits, ``post``, the string's
body and ``tail``, and proves the cut with one probe: ``pre`` + a number found nowhere in the text +
``post`` + a string longer than the whole text + ``tail`` must be a plain continuation chunk
(``OpenAIChat._plain`` and the checks of ``_continuation``) of the same choice whose entry's ``index``
is that number and whose ``arguments`` is that string. Any text ``pre`` + N + ``post`` + a JSON string body +
``tail`` is then that chunk but for those two values (JSON is read token by token; the two tokens
carry values that occur nowhere else, so they are the ones that count, duplicate keys included), and
``delta_of`` answers it with the call at index N and its string: what ``OpenAIChat.lead_template`` hands the
session for each call ``open_call`` opens (``inspector.session.deltas`` reads the events so).
"""
from __future__ import annotations

from inspector.model.static import TYPE_CHECKING

from orjson import JSONDecodeError, loads

if TYPE_CHECKING:
    from inspector.providers.openai_chat.stream import OpenAIChat, _Choice

MARKER = '"arguments":"'
"""Where the string a continuation adds starts (the spelling OpenAI and its copies send)."""
NOISE = '"obfuscation":"'
"""Where OpenAI's random padding starts (``OpenAIChat.run_noise``), after the string in its chunks."""
PROBE_INDEX = 7_346_912_058_813_364_097
"""Stands for the index in the probe: an int orjson reads as one, that no float equals (odd, over 2**53)
nor a bool; the text must not hold its digits."""
_PROBE_DIGITS = str(PROBE_INDEX)


def learn(dialect: "OpenAIChat", ch: "_Choice", data: str,
          index: int) -> "tuple[str, str, str, str | None] | None":
    """``(pre, post, tail, noise_tail)`` of ``data`` (the first delta after the opening of the call at
    ``index`` in ``ch``) as the module docstring says, proven; None when ``data`` is not cut so or the probe
    fails. When the tail holds OpenAI's ``obfuscation`` padding (``NOISE``), it is cut there too: ``tail``
    ends with the padding's opening quote, ``noise_tail`` starts with its closing one, and the probe puts a
    third string there that must come back as the chunk's own ``obfuscation`` (no rule reads it, any
    string may stand there); None: no padding."""
    k = data.rfind(MARKER)
    if k < 0 or _PROBE_DIGITS in data:
        return None
    b0 = k + len(MARKER)
    q = _closing_quote(data, b0)
    a = _digits_at(data, str(index), b0)
    if q < 0 or a < 0:
        return None
    head, tail = data[:b0], data[q:]
    pre, post = head[:a], head[a + len(str(index)):]
    probe, noise = "p" * (len(data) + 1), "o" * (len(data) + 1)
    noise_tail = None
    n = tail.rfind(NOISE)
    if n >= 0:
        n0 = n + len(NOISE)
        nq = _closing_quote(tail, n0)
        if nq < 0:
            return None
        tail, noise_tail = tail[:n0], tail[nq:]
    try:  # nested as ``data`` but for two or three scalars
        p = loads(pre + _PROBE_DIGITS + post + probe + tail + ("" if noise_tail is None else noise + noise_tail))
    except JSONDecodeError:
        return None
    if p.__class__ is not dict or noise_tail is not None and p.get("obfuscation") != noise:  # type: ignore[union-attr]  # a dict
        return None
    one = dialect._plain(p)  # type: ignore[arg-type]  # a dict: checked above
    if one is None or one[0] is not ch:
        return None
    entries = one[1].get("tool_calls")
    if entries.__class__ is not list or len(entries) != 1:  # type: ignore[arg-type]  # a list: checked first
        return None
    entry = entries[0]  # type: ignore[index]  # a list: checked above
    if entry.__class__ is not dict or len(entry) != 2:
        return None
    idx, fn = entry.get("index"), entry.get("function")
    if idx != PROBE_INDEX or fn.__class__ is not dict or len(fn) != 1 \
            or fn.get("arguments") != probe:  # type: ignore[union-attr]  # a dict: checked above
        return None
    return pre, post, tail, noise_tail


def _closing_quote(data: str, b0: int) -> int:
    """Where the JSON string whose body starts at ``b0`` ends: the first quote after it that no backslash
    escapes (-1: none). Learning only: the probe proves the cut."""
    k = data.find('"', b0)
    while k >= 0:
        slashes = k - b0 - len(data[b0:k].rstrip("\\"))  # the backslashes right before the quote
        if slashes % 2 == 0:
            return k
        k = data.find('"', k + 1)
    return -1


def _digits_at(data: str, digits: str, end: int) -> int:
    """Where the last run of digits before ``end`` that is exactly ``digits`` starts (-1: none)."""
    k = data.rfind(digits, 0, end)
    while k >= 0:
        after = k + len(digits)
        if not (k and data[k - 1].isdigit()) and not (after < len(data) and data[after].isdigit()):
            return k
        k = data.rfind(digits, 0, k)
    return -1
