"""What a secret looks like: the maintained list of credential shapes that ``redact`` masks anywhere.

Why a table of our own rather than a secret-scanning library: masking runs on the proxy's
forwarding path, once per network chunk, before the chunk is sent (a recording must never hold a
key), so it has to cost microseconds on text that holds no secret. The scanners (detect-secrets,
and the gitleaks rules it would take to port) run dozens of per-line regexes plus entropy checks
and are built for files, not for a stream cut at arbitrary bytes. Here: one prefilter of plain
substring tests (``maybe_key``: the 21 prefixes, each looked for only when the text holds a
rare character it needs, a family of them by one regex) and one compiled alternation run only on text that passes it.

Each shape: a name, the regular expression of the whole secret, and how many characters of its
start stay readable (the type prefix: ``sk-ant-[redacted]`` tells the reader which key it was).
Sources: each vendor's documented key format (Anthropic ``sk-ant-``; OpenAI ``sk-``, ``sk-proj-``,
``sk-svcacct-``, ``sk-admin-``; OpenRouter ``sk-or-v1-``; Google API keys ``AIza`` + 35; AWS access
key ids ``AKIA``/``ASIA`` + 16 upper-case letters and digits; GitHub ``ghp_``/``gho_``/``ghu_``/
``ghs_``/``ghr_`` + 36 and ``github_pat_``; GitLab ``glpat-`` + 20; Slack ``xoxb-``/``xoxp-``/
``xoxa-``/``xoxr-``/``xoxs-``; Hugging Face ``hf_`` + 34; JSON Web Tokens ``eyJ…​.eyJ…​.…``).
``Bearer`` tokens of 16 characters or more, and ``Basic`` credentials that decode to
``user:password``, are masked after the scheme word wherever they appear, the word in any case
(RFC 9110 §11.1: ``bearer``, ``BASIC``), the white space after it also written as a JSON escape
(``"Basic\\t…"`` in a raw event).
"""
from __future__ import annotations

import codecs  # loaded by the interpreter itself (io): free
import re
from collections.abc import Callable, Iterator

from inspector.model.lazyre import lazy

SHAPES: tuple[tuple[str, str, int], ...] = (
    ("Anthropic", r"sk-ant-[A-Za-z0-9_-]{8,}", 7),
    ("OpenRouter", r"sk-or-v1-[A-Za-z0-9]{16,}", 9),
    ("OpenAI", r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}", 3),
    ("Google API key", r"AIza[0-9A-Za-z_-]{30,}", 4),
    ("AWS access key id", r"(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])", 4),
    ("GitHub token", r"gh[pousr]_[A-Za-z0-9]{30,}", 4),
    ("GitHub fine-grained token", r"github_pat_[A-Za-z0-9_]{22,}", 11),
    ("GitLab token", r"glpat-[A-Za-z0-9_-]{20,}", 6),
    ("Slack token", r"xox[abposr]-[A-Za-z0-9-]{10,}", 5),
    ("Hugging Face token", r"hf_[A-Za-z0-9]{30,}", 3),
    ("JSON Web Token", r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*", 3),
)
"""``(name, regex, readable prefix length)``, most specific first (``sk-ant-`` before ``sk-``)."""

PREFIXES: tuple[str, ...] = ("sk-", "AIza", "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
                             "glpat-", "xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-", "hf_", "eyJ", "earer",
                             "basic")
"""Substrings one of which every shape (and every ``Bearer``/``Basic`` credential) contains; ``earer``
and ``basic`` in the text lowered (the scheme words are matched in any case)."""

KEY = lazy(
    r"(?:(?<![A-Za-z0-9_-])|(?<=\\[bfnrt])|(?<=\\u[0-9A-Fa-f]{4}))(" + "|".join(f"(?:{rx})" for _, rx, _ in SHAPES) + r")"
    r"|(?i:\b(Bearer)(?:\s|\\+[tnr])+)([A-Za-z0-9._~+/-]{16,}=*)"
    r"|(?i:\b(Basic))(?:\s|\\+[tnr])+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")
"""Group 1: a key of one of ``SHAPES``, after a character no key holds or after a JSON escape of a
control character or a ``\\uXXXX`` escape (``\\n``, ``\\t``, ``\\u2028``...: in raw event text a key
that starts a line follows the letter ``n``); groups 2-3: ``Bearer`` and its token; 4-5: ``Basic`` and its
credential (either word in any case; the white space between written as is or as a JSON escape:
``\\t``, ``\\n``, ``\\r``, escaped again in raw tool arguments: ``\\\\t``)."""

_KEEP = [(lazy(rx), keep) for _, rx, keep in SHAPES]

OPEN = lazy(
    r"(?:(?<![A-Za-z0-9_-])|(?<=\\[bfnrt])|(?<=\\u[0-9A-Fa-f]{4}))(?:sk-[A-Za-z0-9_-]{3,}|AIza[0-9A-Za-z_-]{2,}|(?:AKIA|ASIA)[A-Z0-9]{2,}"
    r"|gh[pousr]_[A-Za-z0-9]{2,}|github_pat_[A-Za-z0-9_]{2,}|glpat-[A-Za-z0-9_-]{2,}|xox[abposr]-[A-Za-z0-9-]{2,}"
    r"|hf_[A-Za-z0-9]{2,}|eyJ[A-Za-z0-9_.-]{2,}|(?i:\bBearer)(?:\s|\\+[tnr])+[A-Za-z0-9._~+/-]{3,})\Z")
"""Text that ends in what may be the first part of a key (the rest may come in the next chunk or event)."""


HEADS: tuple[str, ...] = ("sk-", "AIza", "AKIA", "ASIA", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_",
                          "glpat-", "xoxa-", "xoxb-", "xoxo-", "xoxp-", "xoxr-", "xoxs-", "hf_", "eyJ")
"""How each shape begins (its type prefix, or the part every key of it shares)."""

HEAD_STARTS = frozenset(h[:i] for h in HEADS for i in range(1, len(h)))
"""Every proper beginning of a head (``s``, ``sk``, ``AK``, ``github_p``...): text ending in one may
go on with the rest of a key."""

TRAIL = lazy(r"[A-Za-z0-9_.-]{1,256}\Z")
"""The run of key characters (and the dots of a JSON Web Token) that ends a text (searched from
256 characters before its end: longer than any key)."""

BEARER_END = lazy(r"(?i:\bbearer)(?:\s|\\+[tnr])+([A-Za-z0-9._~+/-]*=*)\Z")
"""A text ending in a ``Bearer`` scheme, its white space (as ``KEY`` takes it) and what there is of its token."""

BASIC_END = lazy(r"(?i:\b(basic))(?:\s|\\+[tnr])+([A-Za-z0-9+/]*=?)\Z")
"""A text ending in a ``Basic`` scheme (group 1: the word as written), its white space (as ``KEY``
takes it) and what there is of a credential (group 2: base64 characters, and a ``=`` that a second
may follow; after ``==`` the credential is whole, ``KEY``'s to judge)."""

_SCHEME_WORD = lazy(r"(?i:bearer)(?:\s|\\+[tnr])+")


_DASHED = re.compile(r"-(?:(?<=sk-)|(?<=glpat-)|(?<=xox[abposr]-))")
_AWS_GOOGLE = lazy(r"A(?:Iza|KIA|SIA)")
_GITHUB = lazy(r"gh[pousr]_")


def maybe_key(text: str) -> bool:
    """False when ``text`` holds none of ``PREFIXES`` (the cheap test before any regex).

    Exactly ``any(p in text for p in PREFIXES)`` (``earer`` looked for in ``text.lower()``), in
    fewer passes over the text: this runs on every chunk the proxy records. A substring search costs ~15x a search for one character (``memchr``),
    so each prefix is looked for only when the text holds a character it needs that stream text
    rarely holds (``-``, ``A``, ``J``, ``R``, ``B``); the prefixes sharing one (``-``, ``A``) by one
    regex that starts with it. Only ``earer`` and the ``_`` family (JSON names are full of ``_``) are
    always searched (``bench/bench_scrub.py``); a ``Bearer`` in another case (``KEY`` matches the
    word case-insensitively) in text lowered only when it holds an upper-case ``E``, ``A`` or ``R``."""
    if "-" in text and _DASHED.search(text) is not None:
        return True
    if "A" in text and _AWS_GOOGLE.search(text) is not None:
        return True
    if "_" in text and ("github_pat_" in text or "hf_" in text or ("gh" in text and _GITHUB.search(text) is not None)):
        return True
    if "earer" in text or ("J" in text and "eyJ" in text) or ("asic" in text and ("basic" in text or "Basic" in text)):
        return True
    # ``KEY`` takes the scheme words in any case (RFC 9110 §11.1: ``bEaReR``, ``BASIC``). ``earer``
    # holds an upper-case ``E``, ``A`` or ``R`` unless it is written so (looked for above), and
    # ``basic`` an upper-case ``A``, ``S``, ``I`` or ``C`` unless it is ``basic`` or ``Basic``: only
    # then is the text lowered, one more pass.
    if "E" in text or "A" in text or "R" in text or "S" in text or "I" in text or "C" in text:
        low = text.lower()
        return "earer" in low or "basic" in low
    return False


def readable(key: str) -> int:
    """How many characters of ``key`` (a group-1 match of ``KEY``) stay readable: its type prefix."""
    for rx, keep in _KEEP:
        if rx.match(key):
            return keep
    return 3


def open_keep(head: str) -> int:
    """Readable characters of an ``OPEN`` match: the type prefix (``sk-``, ``AIza``, ``Bearer ``...)."""
    if head.startswith("sk-"):
        return 3
    if head.startswith(("github_pat_",)):
        return 11
    if head.startswith(("glpat-", "xox")):
        return head.index("-") + 1
    if head.startswith(("gh", "hf_")):
        return head.index("_") + 1
    if head[:4] in ("AIza", "AKIA", "ASIA"):
        return 4
    if head.startswith("eyJ"):
        return 3
    word = _SCHEME_WORD.match(head)  # Bearer: the word and its white space
    return word.end() if word is not None else 0


def is_basic_credential(value: str, word: str = "Basic") -> bool:
    """``value`` (after the scheme ``word`` as written) is base64 of ``user:password`` (so ``Basic
    information`` is left alone). After any other spelling of the word (``basic``, ``BASIC``), which
    prose writes far more often before an ordinary word, that must also be printable text: a word of
    8 to 14 random lower-case letters decodes to a ``:`` about once in 46, to printable text with a
    ``:`` about once in 22 000 (400 000 drawn; so ``basic settings`` is left alone too)."""
    import base64  # only for a ``Basic`` word in the text: every start-up would pay ~4 M instructions
    import binascii
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    if b":" not in raw:
        return False
    if word == "Basic":
        return True
    try:
        return raw.decode("utf-8").isprintable()
    except UnicodeDecodeError:
        return False


def basic_open(text: str, lo: int, hi: int) -> int | None:
    """Where the credential starts when ``text[lo:hi]`` ends in a ``Basic`` scheme word, its white
    space and what may be the first part of a credential that ``KEY`` and ``is_basic_credential``
    mask once whole: the offset after the white space (``hi``: none of it yet), else None.

    After ``Basic`` any base64 characters may go on into ``user:password``. After any other spelling
    (``basic``, ``BASIC``) the whole credential must decode to printable text, so only a part whose
    bytes so far may begin such text counts: ``basic us`` (the byte 0xBA, no start of UTF-8) is
    left alone, as ``basic usage`` whole is; ``BASIC PR`` (``=``) counts."""
    m = BASIC_END.search(text, lo, hi)
    if m is None:
        return None
    if m.group(1) != "Basic" and not _may_begin_text(m.group(2)):
        return None
    return m.start(2)


def _may_begin_text(part: str) -> bool:
    """``part`` (base64 characters, maybe a ``=``) may begin the base64 of printable UTF-8 text: the
    bytes its characters already fix (6 bits each; a last character or two fix only part of a byte)
    decode to a printable beginning, a character cut short at the end allowed."""
    import base64

    part = part.rstrip("=")
    whole, rest = len(part) - len(part) % 4, len(part) % 4
    raw = base64.b64decode(part[:whole] + (part[whole:] + "A" * (4 - rest) if rest else ""))
    try:
        head = codecs.getincrementaldecoder("utf-8")().decode(raw[:whole // 4 * 3 + rest * 6 // 8])
    except UnicodeDecodeError:
        return False
    return head.isprintable()


def key_matches(text: str, pos: int = 0) -> Iterator[re.Match[str]]:
    """The matches of ``KEY`` in ``text`` from ``pos``, left to right, not overlapping.

    A ``Basic`` word before something that is no ``user:password`` credential is no match, and the
    search goes on from that something, which may be a key of its own (``Basic AIza…``): a plain
    ``KEY.finditer``/``KEY.sub`` would have consumed it with the word and shown it unmasked.
    """
    search = KEY.search
    while (m := search(text, pos)) is not None:
        if m.group(4) and not is_basic_credential(m.group(5), m.group(4)):
            pos = m.start(5)
            continue
        yield m
        pos = m.end()


def sub_keys(text: str, shown: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each of ``key_matches`` replaced by ``shown(match)`` (``text`` itself when none)."""
    parts: list[str] = []
    last = 0
    for m in key_matches(text):
        parts += (text[last:m.start()], shown(m))
        last = m.end()
    return "".join(parts) + text[last:] if parts else text
