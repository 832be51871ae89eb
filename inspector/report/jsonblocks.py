"""The ``blocks`` array of ``check --format json`` written as JSON text column by column, with no
dict per block: what ``orjson.dumps`` makes of ``report_dict``'s block dicts, byte for byte.

Why this module exists: a report of 5 000 tool calls built 5 000 dicts of 14 fields, parsed each
call's arguments on its own and serialised it all again (~106 M instructions, a quarter of what
``check`` spends outside the session; ~78 M this way, callgrind). Here each field is one list over
all blocks (``Block.fields``), its values' JSON made by one ``orjson.dumps`` per list, a field whose
JSON is the same for every block written once into the text between the others, and the blocks'
text joined in C (``zip``/``chain``/``join``). It takes only reports of many small blocks whose
wire strings pass ``clean_throughout`` (nothing to scrub: the common case); ``blocks_json`` says
None for the others, and for anything it cannot vouch for, and ``report_dict`` then does the work
as before.

Why the pieces are exact (``tests/unit/test_report_jsonblocks.py`` holds it to ``report_dict``):

- ``orjson.dumps`` writes a list as ``[`` + its items' JSON joined by ``,`` + ``]``, each item as
  it would write it alone. Items whose JSON holds no comma (numbers, ``null``, booleans, our status
  words) are split back at the commas; a count equal to the items' proves no item held one.
- Strings: JSON escapes character by character, so the JSON of strings joined by a character that
  neither JSON escapes nor any of the strings holds is their JSON bodies joined by that character.
- Complete arguments: ``jsonprogress``'s COMPLETE means orjson parses the text alone, so the texts
  joined by commas in brackets parse as the list of their values. When orjson writes that list back
  as the very same text, each value's JSON is its own text (a JSON array splits into its items in
  one way only); otherwise each value is written on its own.
"""
from __future__ import annotations

from itertools import chain, repeat
from operator import methodcaller

import orjson

from inspector.capture.redact import scrub_value
from inspector.model.blocks import parsed_arguments
from inspector.model.jsondepth import MAX_DEPTH, depth_over
from inspector.report.unmasked import clean_throughout, joined

_SEP = "\x7f"
"""Joins strings for one ``orjson.dumps``: an ASCII character JSON does not escape (a string that
holds it takes ``report_dict``'s way; ``json_safe`` escapes it in the report, where it never gets)."""
_QUOTED_SEP = '"' + _SEP + '"'

_FIELDS = ("index", "choice", "kind", "id", "name", "text", "arguments", "input", "status", "closed", "deltas",
           "first_delta_s", "last_delta_s", "max_gap_s")
"""A block's fields in ``Block.to_dict``'s order (``response`` last, with several responses)."""
_OPEN = ",{"
"""What starts each block (the first block's comma is cut off)."""

_FIELDS_OF = methodcaller("fields")

_MEAN_CHARS = 1000
"""Content per block up to which the columns pay: they save ~10 k instructions a block and cost a few
more passes over each content character than ``orjson.dumps`` of the dicts (one big call's report
is ~20 % dearer this way, callgrind)."""


def blocks_json(blocks: list, several: bool = False) -> str | None:
    """The JSON text of ``[b.to_dict() for b in blocks]`` as ``report_dict`` shows them (times
    rounded to 6 places, ``response`` with ``several``), or None when it must be left to
    ``report_dict``: no blocks, blocks of more than ``_MEAN_CHARS`` of content on average (it would
    cost more), a wire string that needs the secret scrub (or is not a ``str``), a value these lists
    cannot carry. Raises nothing."""
    if not blocks:
        return None
    (index, choice, kind, id_, name, content, tool, status, closed, deltas, first, last, gap,
     response) = map(list, zip(*map(_FIELDS_OF, blocks)))
    if sum(map(len, content)) > _MEAN_CHARS * len(content):
        return None
    # The strings ``report_dict`` tests; kinds and names each once when the same for every block
    # (the test holds for each string of the joined text, wherever it stands).
    wire = joined([*(kind[:1] if _same(kind) else kind), *(name[:1] if _same(name) else name), *id_, *content])
    if wire is None or _SEP in wire or not clean_throughout(wire):
        return None
    if _same(tool):
        text, arguments = (None, content) if tool[0] else (content, None)
    else:
        text = [None if t else c for t, c in zip(tool, content)]
        arguments = [c if t else None for t, c in zip(tool, content)]
    values = [index, choice, kind, id_, name, text, arguments, None, status, closed, deltas,
              _rounded(first), _rounded(last), _rounded(gap)]
    names = [*_FIELDS, "response"] if several else _FIELDS
    if several:
        values.append(response)
    try:
        return _written(names, values, content, status, "\\" in wire)
    except TypeError:  # orjson's JSONEncodeError among them: ``report_dict``'s way says what happens
        return None


def _written(names, values: list, content: list, status: list, escapes: bool) -> str | None:
    """The blocks' JSON from one list of values per field (``None`` for ``input``; a text or
    arguments field that is None for every block may be None itself): a field whose JSON is the
    same for every block goes into the text between the others. ``escapes``: some content may
    hold a backslash."""
    n = len(content)
    between: list[str] = []  # the text before each column that varies
    varying: list[list[str]] = []
    text = _OPEN
    for name, column in zip(names, values):
        text += f'"{name}":'
        if column is None:
            js: list[str] | str = _inputs(content, status, escapes) if name == "input" else "null"
        elif name in _STRINGS:
            js = _strings(column)
        else:
            scalars = _scalars(column)
            if scalars is None:
                return None
            js = scalars
        if isinstance(js, str):  # the same JSON for every block
            text += js
        else:
            between.append(text)
            varying.append(js)
            text = ""
        text += ","
    between.append(text[:-1] + "}")
    pieces: list = [None] * (2 * len(varying) + 1)
    pieces[0::2] = [repeat(t, n) for t in between]
    pieces[1::2] = varying
    return "[" + "".join(chain.from_iterable(zip(*pieces)))[1:] + "]"


_STRINGS = frozenset({"kind", "id", "name", "text", "arguments"})
"""Fields whose values are strings from the wire (or None)."""


def _rounded(times: list) -> list:
    """Times rounded as the report rounds them (``None`` stays)."""
    if times.count(None) == len(times):
        return times
    return [None if t is None else round(t, 6) for t in times]


def _same(column: list) -> bool:
    """Every value of ``column`` equal to the first (a quick look at two of them first)."""
    first = column[0]
    return first == column[-1] and first == column[len(column) // 2] and column.count(first) == len(column)


def _scalars(values: list) -> list[str] | str | None:
    """Each value's JSON (one ``orjson.dumps``), or their one JSON text when it is the same for
    all; None when a value's JSON holds a comma. Compared as JSON: 1, 1.0 and True are equal
    values with three texts."""
    whole = orjson.dumps(values).decode()
    first = orjson.dumps(values[0]).decode()
    n = len(values)
    if len(whole) == n * (len(first) + 1) + 1 and whole == "[" + (first + ",") * (n - 1) + first + "]":
        return first
    parts = whole[1:-1].split(",")
    return parts if len(parts) == n else None


def _strings(values: list) -> list[str] | str:
    """Each string's JSON (``null`` for None), with one ``orjson.dumps`` over them all, or their
    one JSON text when all are equal. None of them holds ``_SEP`` (``blocks_json`` checked)."""
    if _same(values):  # equal strings have equal JSON; None equals only None
        return orjson.dumps(values[0]).decode()
    present = [v for v in values if v is not None]
    parts = orjson.dumps(_SEP.join(present)).decode().replace(_SEP, _QUOTED_SEP).split(_SEP)
    if len(present) == len(values):
        return parts
    it = iter(parts)
    return [next(it) if v is not None else "null" for v in values]


def _inputs(content: list, status: list, escapes: bool) -> list[str] | str:
    """The JSON of each block's ``input``: its arguments parsed when complete, else ``null``.
    ``escapes``: some content may hold a backslash."""
    n = len(status)
    if not escapes and _same(status) and status[0] == "complete" and max(map(len, content)) <= MAX_DEPTH:
        found = _each_input(content)  # every block a call with its arguments complete (a run of short calls)
        if found is not None:
            return found
    out = list(repeat("null", n))
    at, texts = [], []
    for i, st in enumerate(status):
        if st != "complete":
            continue
        t = content[i]
        if "\\" in t or not t or t.isspace() or (len(t) > MAX_DEPTH and depth_over(t)):
            out[i] = _input(t)
        else:
            at.append(i)
            texts.append(t)
    if texts:
        for i, js in zip(at, _each_input(texts) or map(_input, texts)):
            out[i] = js
    return out


def _each_input(texts: list[str]) -> list[str] | None:
    """The JSON of each text's parsed value, with one ``orjson.loads`` over them all: the texts
    themselves when orjson writes those values back as the same texts. ``texts``: complete
    arguments, none blank, none with a backslash, none deeper than ``MAX_DEPTH``. None when they
    do not parse as one list of as many values (then each is parsed on its own)."""
    whole = "[" + ",".join(texts) + "]"
    try:
        values = orjson.loads(whole)
    except orjson.JSONDecodeError:
        return None
    if len(values) != len(texts):
        return None
    if orjson.dumps(values).decode() == whole:
        return texts
    return [orjson.dumps(v).decode() for v in values]


def _input(text: str) -> str:
    """One complete call's ``input`` as ``report_dict`` shows it (``Block.to_dict``'s parse, scrubbed
    when the text holds an escape: ``json.scrubbed_block``)."""
    value = parsed_arguments(text)
    return orjson.dumps(scrub_value(value) if value is not None and "\\" in text else value).decode()
