"""Incremental JSON progress for streamed tool-call arguments.

Why this module exists: tool-call arguments arrive as JSON text in fragments (Anthropic
``input_json_delta``, Chat ``function.arguments``, Responses ``function_call_arguments.delta``),
and the J rules (``shared/RULES.md``, section J) must know after *every* delta whether the
accumulated text is empty, a valid prefix, complete, invalid (where and why) or a complete value
followed by trailing data. The official SDK accumulators answer that by re-parsing the whole
buffer on each delta (partial-JSON parsers fed ``buffer + delta``), which is quadratic: a
343 k-character argument in 8-character deltas takes tens of seconds in them. :class:`JsonProgress`
is one pass over each character, O(total length), keeping only a small state between fragments
(the open-container stack and where it is inside a token); a character is looked at once, except
that a number the whole-number fast path cannot finish in its fragment is re-scanned once. Runs
of ordinary characters inside strings, runs of whitespace and runs of digits are skipped with
compiled regexes, not a Python loop per character.

orjson is the oracle (``shared/DESIGN.md``, "Incremental JSON progress"): on every text, the
verdict COMPLETE agrees with ``orjson.loads`` succeeding. Where RFC 8259 leaves room for
implementation limits we follow orjson (see the ``# NOTE:`` comments): lone surrogate escapes are
invalid, numbers that overflow a double are invalid, and nesting deeper than 1024 is invalid.

:func:`partial_value` turns a prefix into a Python value for display; it is meant to run once
per screen refresh, not per delta.

Pure: no I/O, no TUI imports.
"""
from __future__ import annotations

import re
from math import isinf
from operator import attrgetter
from inspector.model.lazyre import lazy
from inspector.model.static import TYPE_CHECKING, Protocol, cast

import orjson

__all__ = [
    "COMPLETE",
    "EMPTY",
    "INVALID",
    "JsonProgress",
    "MAX_DEPTH",
    "PARTIAL",
    "TRAILING",
    "partial_value",
]

EMPTY = "empty"
"""Nothing but whitespace so far (or no text at all)."""
PARTIAL = "partial"
"""A valid proper prefix of some JSON value."""
COMPLETE = "complete"
"""Exactly one complete JSON value, optionally surrounded by whitespace."""
TRAILING = "trailing"
"""A complete value followed by non-whitespace text (J003)."""
INVALID = "invalid"
"""Can no longer be a prefix of any JSON value (J001)."""

MAX_DEPTH = 1024
"""Deepest nesting accepted.

NOTE: RFC 8259 §9 lets parsers limit nesting depth; orjson rejects a 1025th open container
("depth limit exceeded"), so we do too, to keep the same verdict as the oracle."""

# --- parser modes (small ints, compared in a tight loop; most frequent first) --------------
_M_STR = 0        # inside a string (key or value, see _in_key)
_M_AFTER = 1      # after a value inside a container: ',' or the closer
_M_VALUE = 2      # a value is required (top level start, after ':', after ',' in an array)
_M_OBJ_FIRST = 3  # after '{': a key or '}'
_M_KEY = 4        # after ',' in an object: a key
_M_COLON = 5      # after an object key: ':'
_M_ARR_FIRST = 6  # after '[': a value or ']'
_M_ESC = 7        # after a backslash in a string
_M_UHEX = 8       # inside \uXXXX
_M_LOW_BS = 9     # after a high-surrogate escape: '\' of the low surrogate required
_M_LOW_U = 10     # after that '\': 'u' required
_M_LIT = 11       # inside true / false / null
_M_END = 12       # the top-level value is complete: only whitespace may follow
# number sub-states
_N_MINUS = 13     # after '-': a digit required
_N_ZERO = 14      # after a leading '0'                    (a complete number)
_N_INT = 15       # in the integer digits                  (a complete number)
_N_DOT = 16       # after '.': a digit required
_N_FRAC = 17      # in the fraction digits                 (a complete number)
_N_E = 18         # after 'e'/'E': a sign or digit required
_N_ESIGN = 19     # after the exponent sign: a digit required
_N_EXP = 20       # in the exponent digits                 (a complete number)
# terminal
_M_TRAIL = 21
_M_INVALID = 22
_M_STR_STOP = -1  # in a string whose run was just scanned: text[i] ends it (only at the start of ``feed``)

_NUMBER_MODES = frozenset(range(_N_MINUS, _N_EXP + 1))
_NUMBER_COMPLETE_MODES = frozenset((_N_ZERO, _N_INT, _N_FRAC, _N_EXP))

if TYPE_CHECKING:
    class _Run(Protocol):
        def match(self, string: str, pos: int = 0) -> re.Match[str]:
            """Never None: the pattern matches everywhere."""


def _always(pattern: re.Pattern[str]) -> _Run:
    """``pattern`` as what it is, a pattern that matches everywhere (a ``*`` run, if only empty)."""
    return cast("_Run", pattern)


# NOTE: RFC 8259 §7: unescaped characters are anything but '"', '\' and U+0000-U+001F. A Python
# str can also hold surrogate code points (U+D800-U+DFFF); orjson refuses those ("surrogates not
# allowed") since they cannot be encoded as UTF-8, so they stop the run and are rejected too.
_CHARS = '[^"\\\\\x00-\x1f\ud800-\udfff]*'
# A run of string characters and of the escapes that need no state: the simple ones and \uXXXX
# outside the surrogates (a surrogate escape, a bad escape or one cut by the fragment's end stops
# the run and goes through the modes below).
_STR_RUN = _always(lazy(_CHARS + '(?:\\\\(?:["\\\\/bfnrt]|u(?![dD][89a-fA-F])[0-9a-fA-F]{4})' + _CHARS + ')*'))
# NOTE: RFC 8259 §2: insignificant whitespace is exactly space, tab, LF and CR.
_WS_RUN = _always(lazy(r"[ \t\n\r]*"))
_WS = frozenset(" \t\n\r")
_DIGIT_RUN = _always(lazy(r"[0-9]*"))
_DIGITS = frozenset("0123456789")
# A whole number (RFC 8259 §6); used as a fast path when the number ends inside one fragment.
_NUMBER = lazy(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?([eE][+-]?[0-9]+)?")
_NUMBER_CONT = frozenset("0123456789.eE")
_SIMPLE_ESCAPES = frozenset('"\\/bfnrt')
_HEX = {c: int(c, 16) for c in "0123456789abcdefABCDEF"}
_LITERALS = {"t": "true", "f": "false", "n": "null"}
_CLOSER = {"{": "}", "[": "]"}
_OPENER = {"}": "{", "]": "["}
_CLOSERS = frozenset(_OPENER)

_SIG_CAP = 800
"""Significant digits kept per number for the overflow check; the rest only set a sticky bit.
The one boundary that matters, DBL_MAX + half an ulp (2**1024 - 2**970), is a 309-digit integer,
so the kept digits plus a sticky '1' overflow exactly when the full value does."""


def _show(c: str) -> str:
    """A character for an error reason: quoted if printable, else its code point."""
    return repr(c) if c.isprintable() else f"U+{ord(c):04X}"


class JsonProgress:
    """Incremental RFC 8259 validator fed text fragments (one pass, O(total length)).

    After every :meth:`feed`, :attr:`state` says whether the accumulated text is
    :data:`EMPTY`, :data:`PARTIAL`, :data:`COMPLETE`, :data:`TRAILING` or :data:`INVALID`.
    Where the fragment boundaries fall never changes the final state or any offset.
    """

    __slots__ = (
        "state", "length", "error_offset", "error_reason", "trailing_offset", "top_kind",
        "depth", "_mode", "_stack", "_in_key", "_cut", "_complete_at",
        "_lit", "_lit_pos", "_hex_n", "_hex_first", "_hex_high", "_need_low",
        "_n_start", "_n_sig", "_n_sticky", "_n_pos", "_n_exp", "_n_exp_neg",
    )

    def __init__(self) -> None:
        self.state: str = EMPTY
        """One of EMPTY, PARTIAL, COMPLETE, TRAILING, INVALID."""
        self.length: int = 0
        """Characters consumed so far."""
        self.error_offset: int | None = None
        """When INVALID: 0-based character offset (in the whole text) where it became invalid."""
        self.error_reason: str | None = None
        """When INVALID: short human explanation."""
        self.trailing_offset: int | None = None
        """When TRAILING: offset of the first non-space character after the value."""
        self.top_kind: str | None = None
        """Kind of the top-level value once started: object, array, string, number, true,
        false or null."""
        self.depth: int = 0
        """Current nesting depth (0 at top level)."""
        self._mode = _M_VALUE
        self._stack: list[str] = []        # open containers, '{' or '['
        self._in_key = False               # the open string is an object key
        self._cut = 0                      # where the innermost container's current member starts
        self._complete_at: int | None = None
        self._lit = ""                     # the literal being matched ...
        self._lit_pos = 0                  # ... and how many of its characters were seen
        self._hex_n = 0                    # hex digits seen in the current \uXXXX
        self._hex_first = 0                # value of its first hex digit
        self._hex_high = False             # the current \uXXXX is a high surrogate
        self._need_low = False             # the current \uXXXX must be a low surrogate
        self._n_start = 0                  # number being scanned across fragments: start offset,
        self._n_sig = ""                   # significant digits (capped at _SIG_CAP),
        self._n_sticky = False             # nonzero digits beyond the cap,
        self._n_pos = 0                    # value = 0.SIG * 10**(_n_pos +/- _n_exp),
        self._n_exp = ""                   # exponent digits without leading zeros (capped),
        self._n_exp_neg = False            # exponent sign.

    def snapshot(self) -> tuple:
        """The whole state, for :meth:`restore` (a feed that must be undone)."""
        return _STATE(self), list(self._stack)

    def restore(self, snap: tuple) -> None:
        """Go back to the state :meth:`snapshot` returned."""
        values, stack = snap
        for k, v in zip(self.__slots__, values):
            setattr(self, k, v)
        self._stack = list(stack)

    @property
    def complete_at(self) -> int | None:
        """Offset just after the end of the first complete top-level value, if any."""
        if self._complete_at is not None:
            return self._complete_at
        if self.state == COMPLETE:  # a top-level number still open at the end of the text
            return self.length
        return None

    # ------------------------------------------------------------------------------------------
    def _fail(self, offset: int, reason: str) -> None:
        self._mode = _M_INVALID
        self.error_offset = offset
        self.error_reason = reason
        self.state = INVALID

    def _n_reset(self, start: int) -> None:
        self._n_start = start
        self._n_sig = ""
        self._n_sticky = False
        self._n_pos = 0
        self._n_exp = ""
        self._n_exp_neg = False

    def _n_digits(self, run: str, integer: bool) -> None:
        """Account a run of mantissa digits of the number being scanned."""
        sig = self._n_sig
        if integer:
            self._n_pos += len(run)
        elif not sig:
            stripped = run.lstrip("0")
            self._n_pos -= len(run) - len(stripped)
            run = stripped
            if not run:
                return
        room = _SIG_CAP - len(sig)
        if room > 0:
            self._n_sig = sig + run[:room]
            run = run[room:]
        if run and not self._n_sticky and run.strip("0"):
            self._n_sticky = True

    def _n_exp_digits(self, run: str) -> None:
        exp = (self._n_exp + run).lstrip("0")
        self._n_exp = exp if len(exp) <= 12 else "9" * 12  # saturate: already far out of range

    def _n_finite(self) -> bool:
        """Whether the number scanned so far is a finite double (orjson's range check)."""
        sig = self._n_sig
        if not sig:
            return True  # zero
        e = int(self._n_exp) if self._n_exp else 0
        e10 = self._n_pos + (-e if self._n_exp_neg else e)
        # value = 0.SIG * 10**e10; DBL_MAX ~ 1.797e308
        if e10 <= 308:
            return True
        if e10 >= 310:
            return False
        sticky = "1" if self._n_sticky else ""
        return not isinf(float(f"0.{sig}{sticky}e{e10}"))

    def _whole(self, text: str) -> bool:
        """``text``, the first fragment, is one whole object or array with nothing around it (a
        short call's arguments in one delta): True and the state set as the loop below would set
        it, when orjson parses it (the oracle: the loop calls such a text COMPLETE exactly when
        orjson parses it, ``tests/unit/test_jsonprogress.py``); False, nothing changed, otherwise."""
        try:
            orjson.loads(text)
        except orjson.JSONDecodeError:
            return False
        n = len(text)
        self.length = n
        self.top_kind = "object" if text[0] == "{" else "array"
        self._mode = _M_END
        self._complete_at = n
        self.depth = 0
        self.state = COMPLETE
        return True

    # ------------------------------------------------------------------------------------------
    def feed(self, fragment: str) -> str:
        """Consume the next fragment and return the new :attr:`state`."""
        mode = self._mode
        n = len(fragment)
        i = 0
        if mode == _M_STR:
            i = _STR_RUN.match(fragment, 0).end()
            if i == n:
                # The whole fragment is more of the open string (the common delta of a long call):
                # nothing but the length changes, so none of the loop's set-up is paid.
                self.length += n
                return self.state
            mode = _M_STR_STOP  # the run is scanned: the loop starts at the character that ended it
        elif mode == _M_VALUE and not self.length and fragment[-1:] in _CLOSERS \
                and fragment[:1] == _OPENER[fragment[-1]] and self._whole(fragment):
            return COMPLETE
        base = self.length
        self.length = base + n
        if mode >= _M_TRAIL:  # TRAILING or INVALID: nothing left to validate
            return self.state
        text = fragment
        stack = self._stack
        cut = self._cut
        str_run = _STR_RUN.match
        ws_run = _WS_RUN.match
        ws = _WS
        while i < n:
            if mode == _M_STR or mode == _M_STR_STOP:
                if mode == _M_STR:
                    i = str_run(text, i).end()
                    if i >= n:
                        break
                c = text[i]
                if c == '"':
                    i += 1
                    if self._in_key:
                        mode = _M_COLON
                    elif stack:
                        mode = _M_AFTER
                    else:
                        mode = _M_END
                        self._complete_at = base + i
                elif c == "\\":
                    i += 1
                    mode = _M_ESC
                elif c < " ":
                    # NOTE: RFC 8259 §7: "the control characters (U+0000 through U+001F)" must be
                    # escaped; orjson: "unexpected control character in string".
                    self._fail(base + i, f"unescaped control character {_show(c)} in string")
                    break
                else:
                    self._fail(base + i, f"surrogate code point {_show(c)} in text "
                                         "(not encodable as UTF-8)")
                    break
                continue

            if mode <= _M_ARR_FIRST:  # structural modes: skip whitespace first
                c = text[i]
                if c in ws:
                    i = ws_run(text, i).end()
                    if i >= n:
                        break
                    c = text[i]
                if mode == _M_AFTER:
                    top = stack[-1]
                    if c == ",":
                        cut = base + i
                        i += 1
                        mode = _M_KEY if top == "{" else _M_VALUE
                    elif c == _CLOSER[top]:
                        i += 1
                        stack.pop()
                        if not stack:
                            mode = _M_END
                            self._complete_at = base + i
                    elif top == "{":
                        self._fail(base + i, f"expected ',' or '}}' after object member, got {_show(c)}")
                        break
                    else:
                        self._fail(base + i, f"expected ',' or ']' after array element, got {_show(c)}")
                        break
                    continue
                if mode == _M_COLON:
                    if c == ":":
                        i += 1
                        mode = _M_VALUE
                        continue
                    self._fail(base + i, f"expected ':' after object key, got {_show(c)}")
                    break
                if mode == _M_OBJ_FIRST or mode == _M_KEY:
                    if c == '"':
                        i += 1
                        mode = _M_STR
                        self._in_key = True
                        continue
                    if c == "}" and mode == _M_OBJ_FIRST:
                        i += 1
                        stack.pop()
                        if stack:
                            mode = _M_AFTER
                        else:
                            mode = _M_END
                            self._complete_at = base + i
                        continue
                    if mode == _M_OBJ_FIRST:
                        self._fail(base + i, f"expected '\"' or '}}' after '{{', got {_show(c)}")
                    elif c == "}":
                        self._fail(base + i, "expected an object key after ',', got '}' "
                                             "(trailing comma)")
                    else:
                        self._fail(base + i, f"expected '\"' to start an object key, got {_show(c)}")
                    break
                # _M_VALUE or _M_ARR_FIRST: a value starts here
                if c == "]" and mode == _M_ARR_FIRST:
                    i += 1
                    stack.pop()
                    if stack:
                        mode = _M_AFTER
                    else:
                        mode = _M_END
                        self._complete_at = base + i
                    continue
                top_level = not stack
                if c == '"':
                    i += 1
                    mode = _M_STR
                    self._in_key = False
                    if top_level:
                        self.top_kind = "string"
                elif c == "{" or c == "[":
                    if len(stack) >= MAX_DEPTH:
                        self._fail(base + i, f"nesting deeper than {MAX_DEPTH} levels "
                                             "(orjson's limit)")
                        break
                    if top_level:
                        self.top_kind = "object" if c == "{" else "array"
                    stack.append(c)
                    i += 1
                    cut = base + i
                    mode = _M_OBJ_FIRST if c == "{" else _M_ARR_FIRST
                elif c in _DIGITS or c == "-":
                    if top_level:
                        self.top_kind = "number"
                    # Fast path: the whole number and the character after it are in this fragment.
                    m = _NUMBER.match(text, i)
                    if m is not None:
                        e = m.end()
                        if e < n and text[e] not in _NUMBER_CONT:
                            if (m.lastindex or e - i > 300) and isinf(float(text[i:e])):
                                # NOTE: RFC 8259 §6 lets parsers limit the range of numbers;
                                # orjson: "number is infinity when parsed as double".
                                self._fail(base + i, "number out of range (overflows a double)")
                                break
                            i = e
                            if stack:
                                mode = _M_AFTER
                            else:
                                mode = _M_END
                                self._complete_at = base + i
                            continue
                    # Slow path: per-state scan that can stop and resume at a fragment boundary.
                    self._n_reset(base + i)
                    if c == "-":
                        mode = _N_MINUS
                        i += 1
                    elif c == "0":
                        mode = _N_ZERO
                        i += 1
                    else:
                        mode = _N_INT
                elif c in _LITERALS:
                    word = _LITERALS[c]
                    if top_level:
                        self.top_kind = word
                    if text.startswith(word, i):
                        i += len(word)
                        if stack:
                            mode = _M_AFTER
                        else:
                            mode = _M_END
                            self._complete_at = base + i
                    else:
                        self._lit = word
                        self._lit_pos = 1
                        i += 1
                        mode = _M_LIT
                else:
                    self._fail(base + i, f"expected a JSON value, got {_show(c)}")
                    break
                continue

            if mode == _M_END:
                i = ws_run(text, i).end()
                if i < n:
                    mode = _M_TRAIL
                    self.trailing_offset = base + i
                    self.state = TRAILING
                break

            c = text[i]
            if mode >= _N_MINUS:  # numbers
                if mode == _N_INT or mode == _N_FRAC or mode == _N_EXP:
                    e = _DIGIT_RUN.match(text, i).end()
                    if e > i:
                        if mode == _N_EXP:
                            self._n_exp_digits(text[i:e])
                        else:
                            self._n_digits(text[i:e], mode == _N_INT)
                        i = e
                        if i >= n:
                            break
                        c = text[i]
                    if mode != _N_EXP:
                        if c == "." and mode == _N_INT:
                            i += 1
                            mode = _N_DOT
                            continue
                        if c == "e" or c == "E":
                            i += 1
                            mode = _N_E
                            continue
                elif mode == _N_ZERO:
                    if c == ".":
                        i += 1
                        mode = _N_DOT
                        continue
                    if c == "e" or c == "E":
                        i += 1
                        mode = _N_E
                        continue
                    if c in _DIGITS:
                        # NOTE: RFC 8259 §6: int = zero / ( digit1-9 *DIGIT ): no leading zeros.
                        self._fail(base + i, "leading zeros are not allowed in numbers")
                        break
                elif mode == _N_MINUS:
                    if c == "0":
                        i += 1
                        mode = _N_ZERO
                    elif c in _DIGITS:
                        mode = _N_INT
                    else:
                        self._fail(base + i, f"expected a digit after '-', got {_show(c)}")
                        break
                    continue
                elif mode == _N_DOT:
                    if c in _DIGITS:
                        mode = _N_FRAC
                        continue
                    self._fail(base + i, f"expected a digit after the decimal point, got {_show(c)}")
                    break
                elif mode == _N_E:
                    if c == "+" or c == "-":
                        self._n_exp_neg = c == "-"
                        i += 1
                        mode = _N_ESIGN
                        continue
                    if c in _DIGITS:
                        mode = _N_EXP
                        continue
                    self._fail(base + i, f"expected a digit or sign in the exponent, got {_show(c)}")
                    break
                else:  # _N_ESIGN
                    if c in _DIGITS:
                        mode = _N_EXP
                        continue
                    self._fail(base + i, f"expected a digit in the exponent, got {_show(c)}")
                    break
                # the number ended just before c (c is not consumed)
                if not self._n_finite():
                    self._fail(self._n_start, "number out of range (overflows a double)")
                    break
                if stack:
                    mode = _M_AFTER
                else:
                    mode = _M_END
                    self._complete_at = base + i
                continue

            if mode == _M_ESC:
                if c in _SIMPLE_ESCAPES:
                    i += 1
                    mode = _M_STR
                elif c == "u":
                    i += 1
                    mode = _M_UHEX
                    self._hex_n = 0
                    self._hex_high = False
                    self._need_low = False
                else:
                    self._fail(base + i, f"invalid escape '\\{c}' in string" if c.isprintable()
                               else f"invalid escape: {_show(c)} after '\\' in string")
                    break
                continue

            if mode == _M_UHEX:
                v = _HEX.get(c)
                if v is None:
                    self._fail(base + i, f"expected a hex digit in \\u escape, got {_show(c)}")
                    break
                k = self._hex_n
                # NOTE: RFC 8259 §7 allows lone surrogate escapes in the grammar but says their
                # behaviour is unpredictable; orjson rejects them ("no low surrogate in string",
                # "invalid low surrogate", "invalid high surrogate"), so a \uD800-\uDBFF must be
                # followed right away by a \uDC00-\uDFFF and a lone \uDC00-\uDFFF is invalid.
                # We fail at the first hex digit that rules a valid pair out.
                if k == 0:
                    if self._need_low and v != 13:
                        self._fail(base + i, "high surrogate escape not followed by a low "
                                             "surrogate (\\uDC00-\\uDFFF)")
                        break
                    self._hex_first = v
                elif k == 1 and self._hex_first == 13:
                    if v >= 12:
                        if not self._need_low:
                            self._fail(base + i, "lone low surrogate escape (\\uDC00-\\uDFFF) "
                                                 "without a high surrogate before it")
                            break
                    elif self._need_low:
                        self._fail(base + i, "high surrogate escape not followed by a low "
                                             "surrogate (\\uDC00-\\uDFFF)")
                        break
                    elif v >= 8:
                        self._hex_high = True
                i += 1
                if k == 3:
                    if self._hex_high:
                        mode = _M_LOW_BS
                        self._hex_high = False
                    else:
                        mode = _M_STR
                        self._need_low = False
                else:
                    self._hex_n = k + 1
                continue

            if mode == _M_LOW_BS or mode == _M_LOW_U:
                if c == ("\\" if mode == _M_LOW_BS else "u"):
                    i += 1
                    if mode == _M_LOW_BS:
                        mode = _M_LOW_U
                    else:
                        mode = _M_UHEX
                        self._hex_n = 0
                        self._need_low = True
                    continue
                self._fail(base + i, "high surrogate escape not followed by a low surrogate "
                                     "escape (\\uDC00-\\uDFFF)")
                break

            # _M_LIT
            word = self._lit
            pos = self._lit_pos
            while i < n and pos < len(word):
                if text[i] != word[pos]:
                    break
                i += 1
                pos += 1
            if pos == len(word):
                if stack:
                    mode = _M_AFTER
                else:
                    mode = _M_END
                    self._complete_at = base + i
                continue
            if i < n:
                self._fail(base + i, f"invalid literal: expected {word!r}, got {_show(text[i])}")
                break
            self._lit_pos = pos

        # ---- end of fragment: settle the state ----------------------------------------------
        self._cut = cut
        self.depth = len(stack)
        if self._mode == _M_INVALID:  # failed in this fragment
            return INVALID
        self._mode = mode
        if mode >= _M_TRAIL:
            return self.state
        if mode == _M_END:
            self.state = COMPLETE
        elif mode in _NUMBER_MODES:
            # NOTE: a number open at the end of the text could still grow ("12" -> "123"); while
            # it is syntactically whole and in range we call a top-level one COMPLETE.
            finite = mode not in _NUMBER_COMPLETE_MODES or self._n_finite()
            if not finite and mode == _N_EXP and not self._n_exp_neg:
                # only more exponent digits can follow: it can never come back into range
                self._fail(self._n_start, "number out of range (overflows a double)")
                return INVALID
            if not stack and finite and mode in _NUMBER_COMPLETE_MODES:
                self.state = COMPLETE
            else:
                self.state = PARTIAL
        elif self.top_kind is None:
            self.state = EMPTY
        else:
            self.state = PARTIAL
        return self.state


# ---------------------------------------------------------------------------------------------
_STATE = attrgetter(*JsonProgress.__slots__)
"""Every slot of a ``JsonProgress`` at once (``snapshot``)."""


def _close(text: str) -> tuple[object, bool]:
    """Value of ``text``, which must not be INVALID."""
    p = JsonProgress()
    state = p.feed(text)
    if state == INVALID:
        return None, False
    if state == EMPTY:
        return None, False
    if state == COMPLETE:
        return orjson.loads(text), True
    if state == TRAILING:
        return orjson.loads(text[: p._complete_at]), False
    # PARTIAL: trim what cannot be shown, then close the open string and containers.
    mode = p._mode
    stack = p._stack
    drop_member = False
    if p._in_key and mode in (_M_STR, _M_ESC, _M_UHEX, _M_LOW_BS, _M_LOW_U):
        drop_member = True  # a key still being written
    elif mode == _M_STR:
        text += '"'
    elif mode == _M_ESC:
        text = text[:-1] + '"'
    elif mode == _M_UHEX:
        text = text[: len(text) - 2 - p._hex_n - (6 if p._need_low else 0)] + '"'
    elif mode == _M_LOW_BS:
        text = text[:-6] + '"'
    elif mode == _M_LOW_U:
        text = text[:-7] + '"'
    elif mode in (_M_KEY, _M_COLON, _M_LIT, _N_MINUS):
        drop_member = True
    elif mode == _M_VALUE:  # after ':' (dangling key) or after ',' in an array
        drop_member = True
    elif mode in (_N_DOT, _N_E):
        text = text[:-1]
    elif mode == _N_ESIGN:
        text = text[:-2]
    # _M_AFTER, _M_OBJ_FIRST, _M_ARR_FIRST and whole numbers need nothing
    if drop_member:
        if not stack:
            return None, False
        text = text[: p._cut]
    closers = "".join(_CLOSER[c] for c in reversed(stack))
    return orjson.loads(text + closers), False


def partial_value(text: str) -> tuple[object, bool]:
    """Best-effort Python value of a JSON prefix, for display: ``(value, is_complete)``.

    Closes an open string and open arrays/objects; drops a dangling key, an incomplete literal
    (``tr``), a bare ``-`` and an incomplete escape; trims ``1.``/``1e``/``1e+`` to ``1``.
    ``is_complete`` is True only when the whole text is one complete JSON value. For TRAILING
    text the first value is returned; for INVALID text, the value of the longest valid prefix.
    Returns ``(None, False)`` when nothing can be shown. O(n); never raises.
    """
    try:
        p = JsonProgress()
        state = p.feed(text)
        if state == INVALID:
            if p.error_offset is None:
                return None, False
            return _close(text[: p.error_offset])[0], False
        return _close(text)
    except Exception:  # noqa: BLE001 - display helper: never raise
        return None, False
