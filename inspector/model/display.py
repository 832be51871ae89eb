"""Text from a capture, made fit to show: the one function every sink uses (``display_text``).

Why this module exists: names, ids, stop reasons, messages, URLs, headers and bodies come from
strangers (bug reports, shared HAR files). Written raw to a terminal, an ESC/CSI/OSC sequence in
any of them moves the cursor, clears the screen or writes the clipboard (OSC 52); a C1 control
(U+009B is a one-character CSI on many terminals) does the same without an ESC; a bidi override
(U+202E) makes text read differently from what it is (Trojan Source, CVE-2021-42574). Every text
sink (the TUI, ``--format text`` and ``github``) turns capture text into display text here, and
JSON output escapes the same characters as ``\\u`` sequences (``json_safe``).
"""
from __future__ import annotations


from inspector.model.lazyre import lazy

_C0 = [c for c in range(0x00, 0x20) if c != 0x0A]
_C1 = [0x7F, *range(0x80, 0xA0)]
BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
"""Bidirectional formatting characters (Unicode TR9 explicit and implicit marks, isolates and
overrides): invisible, they reorder what surrounds them."""
_SEPARATORS = [0x2028, 0x2029]  # line and paragraph separators: str.splitlines breaks on them

_SURROGATES = range(0xD800, 0xE000)  # lone surrogates cannot be encoded


def _ranges(codes: list[int]) -> str:
    """A regex character class body for ``codes`` (sorted), consecutive ones as ranges: a short
    class compiles in half the time of one escape per character (start-up)."""
    out, i = [], 0
    while i < len(codes):
        j = i
        while j + 1 < len(codes) and codes[j + 1] == codes[j] + 1:
            j += 1
        out.append(f"\\U{codes[i]:08x}" + (f"-\\U{codes[j]:08x}" if j > i else ""))
        i = j + 1
    return "".join(out)


_UNSAFE = lazy("[" + _ranges(sorted({*_C0, *_C1, *BIDI, *_SEPARATORS, 0x0A})) + "\ud800-\udfff]")
"""Any character ``display_text`` would change (searched first: most text has none). Compiled on
first use: ``check --format json`` never shows text (start-up)."""

_TABLES: list[dict[int, str]] = []
"""``display_text``'s two tables, indexed by ``one_line`` (the second also writes LF as ``\\n``);
built on first use: most runs show no unsafe text, and 2 048 surrogates cost start-up."""


def _tables() -> list[dict[int, str]]:
    if not _TABLES:
        table = {c: f"\\x{c:02x}" for c in (*_C0, *_C1)}
        table.update({c: f"\\u{c:04x}" for c in (*BIDI, *_SEPARATORS, *_SURROGATES)})
        _TABLES.extend((table, {**table, 0x0A: "\\n"}))
    return _TABLES


_JSON_TABLE = {c: f"\\u{c:04x}" for c in (*_C1, *BIDI, *_SEPARATORS)}
"""What JSON output must escape beyond what a JSON encoder does (orjson escapes C0 only)."""
_JSON_UNSAFE = lazy("[" + _ranges(sorted(_JSON_TABLE)) + "]")
"""Any character of ``_JSON_TABLE``: searched in non-ASCII JSON text before translating it."""


def display_text(text: object, *, one_line: bool = False) -> str:
    """``text`` (``str()`` of anything else) with every character that could drive a terminal or
    hide what text says written out visibly: C0 controls but LF, DEL and C1 as ``\\x1b``,
    ``\\x9b``; bidi controls, U+2028/U+2029 and lone surrogates as ``\\u202e``. LF is kept unless
    ``one_line`` (then ``\\n``). Text without such characters comes back unchanged (same object)."""
    text = text if isinstance(text, str) else str(text)
    if text.isascii():  # the common case, without compiling ``_UNSAFE`` (start-up) or a class search
        if text.isprintable():  # ASCII's unprintable characters are exactly C0 (LF among them) and DEL
            return text
    elif _UNSAFE.search(text) is None:
        return text
    return text.translate(_tables()[one_line])


_EVERYWHERE: dict[int, str] = {}
"""``escaped_everywhere``'s table: what ``display_text`` changes but tab, each as a ``\\u`` escape
(built on first use, as ``_TABLES``)."""
_EVERYWHERE_UNSAFE = lazy("[" + _ranges(sorted({*_C0, *_C1, *BIDI, *_SEPARATORS} - {0x09})) + "\ud800-\udfff]")


def escaped_everywhere(text: str) -> str:
    """``text`` (a document mixing markup, script and JSON: an HTML page) with every character
    ``display_text`` would change but tab and LF written as a ``\\uXXXX`` escape: inside a JSON or
    script string the same value, anywhere else visible text; never anything a terminal obeys
    (``export`` to standard output). Text without such characters comes back unchanged (same object)."""
    if _EVERYWHERE_UNSAFE.search(text) is None:
        return text
    if not _EVERYWHERE:
        _EVERYWHERE.update({c: f"\\u{c:04x}" for c in (*_C0, *_C1, *BIDI, *_SEPARATORS, *_SURROGATES) if c != 0x09})
    return text.translate(_EVERYWHERE)


def display_lines(text: object) -> str:
    """``text`` written out line by line as ``display_text(line, one_line=True)`` does, its line
    breaks kept: for a message composed of lines on purpose (a file's list of streams). Each line's
    untrusted parts must be made one line before they are composed, or they add lines."""
    text = text if isinstance(text, str) else str(text)
    return "\n".join(display_text(line, one_line=True) for line in text.split("\n"))


def json_safe(encoded: str) -> str:
    """JSON text (as ``orjson.dumps(...).decode()`` gives it) with C1 controls, DEL, bidi controls
    and U+2028/U+2029 escaped as ``\\u…`` (the same value to a JSON reader; nothing invisible or
    executable to a terminal that shows the JSON). These characters can only occur inside JSON
    strings, so the whole text is translated. Text without such characters comes back unchanged
    (same object): ASCII text (the common report) is told from one flag of the string and one
    search for DEL, not a character-class search of a megabyte report (~15 ms)."""
    if encoded.isascii():
        unsafe = "\x7f" in encoded
    else:
        unsafe = _JSON_UNSAFE.search(encoded) is not None
    return encoded.translate(_JSON_TABLE) if unsafe else encoded
