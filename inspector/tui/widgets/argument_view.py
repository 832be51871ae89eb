"""A block's accumulating text or tool-call arguments, rendered virtually with the newest fragment lit.

Why this module exists: one tool call can carry hundreds of thousands of argument characters in
thousands of deltas. Re-wrapping and re-rendering the whole text on every frame would be
quadratic over a stream, so this ``ScrollView`` keeps line boundaries incrementally (only the last,
still-open line is re-wrapped when text arrives) and renders only visible lines.

Two views: *raw* (the exact accumulated text; the newest fragment highlighted; the character
where the JSON broke marked, and trailing data after a complete value marked) and *pretty*
(``inspector.model.jsonprogress.partial_value`` of the arguments, indented; computed when the
panel is drawn, never per delta, and at most a few times a second for large arguments).
In both views the value at each V002 violation's JSONPath is marked (``argview--violation``) where
it is written, and the violations follow the text as notes, so the eye finds the failing argument in
the call itself; a violation about an object's keys (``required``, ``additionalProperties``…) marks
the object's opening brace only. In raw view, control characters (including newlines inside tool arguments, which JSON forbids
unescaped) are shown as visible control pictures so the broken character can be seen.

Secrets are masked where they are written (``argview--secret``): each key the project's masking
finds (``inspector.capture.redact.secret_spans``: key shapes, also in JSON ``\\u`` escapes, and
remembered credentials) is drawn as ``sk-ant-[redacted]`` padded with ``*`` to the key's length, so
line breaks, the newest fragment and every other offset stay where the text puts them. As text
arrives only its last ``SECRET_TAIL`` characters are read again (a key the newest fragment
completes began at most that far back); while the block is open, what may be the first part of a
key at its very end is masked too (the next fragment may finish it).
"""
from __future__ import annotations

import json
import time
from bisect import bisect_left
from typing import ClassVar

from rich.cells import get_character_cell_size
from rich.style import Style
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from inspector.capture.redact import REDACTED, masked_as, open_secret, secret_spans
from inspector.model.jsondepth import depth_over
from inspector.model.jsonlocate import value_span
from inspector.tui.widgets.virtual_size import set_virtual_size

from inspector.model.jsonprogress import INVALID, TRAILING, partial_value
from inspector.tui.text import line

PRETTY_THROTTLE_S = 0.25
"""Least time between two pretty renders of arguments longer than ``PRETTY_BIG``."""
PRETTY_BIG = 20_000
KEY_KEYWORDS = frozenset({"required", "additionalProperties", "unevaluatedProperties", "minProperties",
                          "maxProperties", "propertyNames", "dependentRequired", "dependentSchemas"})
"""Keywords a violation of which is about an object's keys: its opening brace is marked, not all of it."""
SECRET_TAIL = 512
"""Characters before the old end read again for secrets when text arrives (longer than any key:
a key a new fragment completes, or that straddles the old end, is read whole)."""


def find_secrets(text: str, old: list[tuple[int, int, str]], old_len: int, open_end: bool) -> list[tuple[int, int, str]]:
    """The secrets of ``text`` (``(begin, end, shown)``, sorted) given ``old``, those of its first
    ``old_len`` characters: the spans ending before ``old_len - SECRET_TAIL`` are kept, the rest read
    again from the beginning of the earliest one left (a key is read whole). ``open_end``: the text
    is still arriving, so a key's first part ending it is masked from after its type prefix."""
    start = max(0, old_len - SECRET_TAIL) if old_len <= len(text) else 0
    keep = len(old) if start else 0
    while keep and old[keep - 1][1] > start:
        keep -= 1
        start = min(start, old[keep][0])
    found = old[:keep] + secret_spans(text, start) if keep else secret_spans(text, start)
    if open_end:
        cut = open_secret(text)
        if cut is not None and cut < len(text) and (not found or found[-1][1] <= cut):
            found.append((cut, len(text), REDACTED))
    return found


def violation_spans(text: str, violations) -> tuple[tuple[int, int], ...]:
    """Offsets in ``text`` (JSON) to mark for ``violations`` (``schemas.Violation``), sorted; a path
    not found in the text (arguments rewritten, not JSON) marks nothing."""
    spans = set()
    for v in violations:
        span = value_span(text, v.path)
        if span is None:
            continue
        if v.keyword in KEY_KEYWORDS and text[span[0]] in "{[":
            span = (span[0], span[0] + 1)
        spans.add(span)
    return tuple(sorted(spans))


def _word_end(text: str, i: int, cut: int) -> int:
    """Where a line from ``i`` that must end by ``cut`` ends at a word boundary: just after the last
    space before ``cut`` (so a word is never split), or ``cut`` for a word longer than the line."""
    if cut >= len(text):
        return cut
    if text[cut] == " ":
        return cut + 1  # the space ends this line (drawn past the edge: cropped, invisible)
    space = text.rfind(" ", i, cut)
    return space + 1 if space >= i and space + 1 > i else cut


def wrap_lines(text: str, start: int, width: int, newlines: bool) -> list[tuple[int, int]]:
    """Line spans ``(start, end)`` of ``text[start:]`` cut at ``width`` cells (and at ``\\n`` if ``newlines``).

    Lines break after a space when there is one (word wrap); a word longer than the line is cut.
    The spans cover the text without gaps (a space that ends a line stays on it). The last span is
    the open line (possibly empty). End offsets exclude the newline itself.
    """
    width = max(1, width)
    out: list[tuple[int, int]] = []
    n = len(text)
    i = start
    while True:
        if i >= n:
            out.append((i, i))
            return out
        limit = min(n, i + width)
        chunk = text[i:limit]
        if chunk.isascii():
            nl = chunk.find("\n") if newlines else -1
            if nl != -1:
                out.append((i, i + nl))
                i = i + nl + 1
                continue
            if limit - i == width and limit < n:
                end = _word_end(text, i, limit)
                out.append((i, end))
                i = end
                continue
            if limit == n:
                out.append((i, n))
                return out
        # cell-aware path (wide characters, emoji)
        cells = 0
        j = i
        broke = False
        while j < n:
            c = text[j]
            if newlines and c == "\n":
                out.append((i, j))
                i = j + 1
                broke = True
                break
            w = get_character_cell_size(c)
            if cells + w > width:
                end = _word_end(text, i, j) if j > i else j + 1
                out.append((i, end))
                i = end
                broke = True
                break
            cells += w
            j += 1
        if not broke:
            out.append((i, n))
            return out


ARGUMENT_KEYS = [
    Binding("up", "scroll_up", "Line up", show=False, tooltip="Scroll the arguments up a line"),
    Binding("down", "scroll_down", "Line down", show=False, tooltip="Scroll the arguments down a line"),
    Binding("pageup", "page_up", "Page up", show=False, tooltip="Scroll the arguments up a page"),
    Binding("pagedown", "page_down", "Page down", show=False, tooltip="Scroll the arguments down a page"),
    Binding("home", "scroll_home", "First byte", show=False, tooltip="The arguments from their first byte"),
    Binding("end", "scroll_end", "Newest", show=False,
            tooltip="The newest text (and keep it in view as it arrives)"),
]
"""Keys of a focused ``ArgumentView`` (no left / right: those step the playback)."""
MARKERS_FROM = 3
"""Least visible lines for the "N lines above / below" markers (a smaller view shows text only)."""


class ArgumentView(ScrollView, can_focus=True, inherit_bindings=False):
    """Virtual view of one block's text (raw) or of its arguments' partial value (pretty).

    Focusable: the keys of :data:`ARGUMENT_KEYS` scroll it from the first byte to the newest;
    when text is hidden above or below, the first or last visible line says how many lines
    (``argview--marker``). Scrolled to the end, it follows the newest fragment."""

    BINDINGS: ClassVar[list[BindingType]] = list(ARGUMENT_KEYS)

    COMPONENT_CLASSES = {
        "argview--fragment",
        "argview--error",
        "argview--trailing",
        "argview--placeholder",
        "argview--note",
        "argview--violation",
        "argview--marker",
        "argview--secret",
    }

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.block = None
        self.pretty = False
        """Show the pretty partial-JSON view (tool blocks only)."""
        self._text = ""
        self._spans: list[tuple[int, int]] = [(0, 0)]
        self._wrap_width = 0
        self._newlines = True
        self._frag: tuple[int, int] | None = None
        self._error_at: int | None = None
        self._trailing_at: int | None = None
        self._notes: list[str] = []
        self._note_rows: list[str] = []
        """``_notes`` wrapped at the view's width, one entry a line."""
        self._violations: tuple = ()
        self._said: list[str] = []
        self._marks: tuple[tuple[int, int], ...] = ()
        self._marked_for: tuple | None = None
        self._base: Style | None = None
        self._cache: LRUCache[tuple, Strip] = LRUCache(maxsize=512)
        self._pretty_at = 0.0
        self._pretty_len = -1
        self._secrets: list[tuple[int, int, str]] = []
        """Secrets in ``_text``: ``(begin, end, shown)``, sorted (``find_secrets``)."""
        self._secrets_len = 0
        """How much of ``_text`` (raw view) ``_secrets`` was found in."""

    # ------------------------------------------------------------ feeding
    def show(self, block, pretty: bool, violations=()) -> None:
        """Bring the view up to date with ``block`` (called at most once per frame, when it changed);
        ``violations``: the call's V002 violations (``schemas.Violation``), marked in the text."""
        width = self.scrollable_content_region.width or self.size.width
        if width <= 0:
            width = 80
        newlines = not block.tool
        mode_changed = block is not self.block or pretty != self.pretty or width != self._wrap_width \
            or newlines != self._newlines
        self.block = block
        self.pretty = pretty
        self._newlines = newlines
        at_end = self.scroll_offset.y >= self.max_scroll_y - 1
        if pretty and block.tool:
            self._show_pretty(block, width, force=mode_changed)
        else:
            self._show_raw(block, width, reset=mode_changed)
        self._mark(tuple(violations))
        self._wrap_width = width
        # Notes wrap at the view's width (a violation's message is longer than a narrow pane).
        self._note_rows = [note[a:b] for note in self._notes for a, b in wrap_lines(note, 0, width, True)
                           if b > a or not note]
        set_virtual_size(self, Size(width, len(self._spans) + len(self._note_rows)))
        if at_end or mode_changed:
            self.call_after_refresh(self._to_end)
        self.refresh()

    def _show_raw(self, block, width: int, reset: bool) -> None:
        text = block.content
        if reset or len(text) < len(self._text) or not self._spans:
            self._spans = wrap_lines(text, 0, width, self._newlines)
            self._cache.clear()
        elif len(text) != len(self._text):
            last_start = self._spans[-1][0]
            self._spans[-1:] = wrap_lines(text, last_start, width, self._newlines)
        self._secrets = find_secrets(text, [] if reset else self._secrets, 0 if reset else self._secrets_len,
                                     not block.closed)
        self._secrets_len = len(text)
        self._text = text
        frag = block.last_fragment
        n = len(text)
        self._frag = (n - len(frag), n) if frag and text.endswith(frag) else None
        prog = block.progress
        self._error_at = prog.error_offset if prog is not None and prog.state == INVALID else None
        self._trailing_at = prog.trailing_offset if prog is not None and prog.state == TRAILING else None
        self._notes = []
        if not text:
            self._notes = ["(no text yet)" if not block.closed else block.empty_shown or "(empty)"]
            self._spans = []

    def _show_pretty(self, block, width: int, force: bool) -> None:
        text = block.content
        now = time.monotonic()
        if not force and len(text) == self._pretty_len:
            return
        if not force and len(text) > PRETTY_BIG and now - self._pretty_at < PRETTY_THROTTLE_S:
            return
        self._pretty_at = now
        self._pretty_len = len(text)
        # Arguments too deep to walk safely are shown as raw text (S019 says why).
        value, complete = (None, False) if depth_over(text) else partial_value(text)
        if value is None and text.strip() and depth_over(text):
            pretty = text
        elif value is None:
            pretty = ""
        else:
            try:
                pretty = json.dumps(value, indent=2, ensure_ascii=False)
            except (TypeError, ValueError):
                pretty = repr(value)
        self._text = pretty
        self._secrets = find_secrets(pretty, [], 0, False)  # rebuilt whole, as the text is (throttled above)
        self._secrets_len = 0
        self._spans = wrap_lines(pretty, 0, width, True) if pretty else []
        self._cache.clear()
        self._frag = None
        self._error_at = None
        self._trailing_at = None
        prog = block.progress
        notes = []
        if prog is not None and prog.state == INVALID:
            notes.append(f"✖ not JSON from character {prog.error_offset}: {prog.error_reason}")
        elif prog is not None and prog.state == TRAILING:
            notes.append(f"✖ trailing data after the value, from character {prog.trailing_offset}")
        elif not complete and text.strip():
            notes.append("… partial: closed here for display")
        elif not text.strip():
            notes.append("{}  (no input text: an empty object)" if block.empty_is_object else "(no arguments yet)")
        self._notes = notes

    def _mark(self, violations: tuple) -> None:
        """Spans and notes for ``violations`` in the text now shown (recomputed only when either changed)."""
        self._violations = violations
        # A pretty view kept from an earlier frame keeps its notes: replace the violation notes only.
        said = [f"✖ {v.path}: {v.message} ({v.keyword})" for v in violations]
        self._notes = [n for n in self._notes if n not in self._said] + said
        self._said = said
        sig = (violations, len(self._text), self.pretty)
        if sig != self._marked_for:
            self._marked_for = sig
            self._marks = violation_spans(self._text, violations) if violations else ()
            self._cache.clear()

    def _to_end(self) -> None:
        self.scroll_to(y=self.max_scroll_y, animate=False, force=True)

    def reset(self) -> None:
        self.block = None
        self._text = ""
        self._spans = [(0, 0)]
        self._secrets, self._secrets_len = [], 0
        self._cache.clear()

    def _base_style(self) -> Style:
        """``rich_style`` (walks every ancestor's styles: costly per line), kept until the styles change."""
        if self._base is None:
            self._base = self.rich_style
        return self._base

    def notify_style_update(self) -> None:
        self._base = None
        self._cache.clear()
        super().notify_style_update()

    def on_resize(self) -> None:
        if self.block is not None:
            self.show(self.block, self.pretty, self._violations)

    # ------------------------------------------------------------ rendering
    def _pieces(self, a: int, b: int, frag, trail, err, marks=(), secrets=()) -> list[tuple[str, Style | None]]:
        """Characters ``a:b`` of the arguments cut where their style changes (the newest fragment,
        trailing data, the first invalid character, a secret: drawn masked), each piece with its
        style: the road escapes each piece, so an escape never shifts where a style starts."""
        violated, marks = marks, []
        if frag is not None:
            marks.append((max(a, frag[0]), min(b, frag[1]), "argview--fragment"))
        if trail is not None:
            marks.append((max(a, trail), b, "argview--trailing"))
        if err is not None:
            marks.append((err, err + 1, "argview--error"))
        for lo, hi in violated:
            marks.append((max(a, lo), min(b, hi), "argview--violation"))
        for lo, hi, _ in secrets:
            marks.append((max(a, lo), min(b, hi), "argview--secret"))
        cuts = sorted({a, b, *(x for lo, hi, _ in marks for x in (lo, hi) if a < x < b)})
        out = []
        for x, y in zip(cuts, cuts[1:]):
            style = None
            for lo, hi, name in marks:
                if lo <= x and y <= hi:
                    s = self.get_component_rich_style(name)
                    style = s if style is None else style + s
            piece = self._text[x:y]
            for lo, hi, shown in secrets:
                if lo <= x and y <= hi:
                    piece = masked_as(lo, hi, shown)[x - lo:y - lo]
            out.append((piece, style))
        return out

    def _secrets_in(self, a: int, b: int) -> tuple[tuple[int, int, str], ...]:
        """The secrets that characters ``a:b`` hold part of."""
        found = self._secrets
        if not found:
            return ()
        i = bisect_left(found, (a,)) - 1  # the one before may reach into the line
        return tuple(s for s in found[max(i, 0):bisect_left(found, (b,))] if s[1] > a)

    def hidden_lines(self) -> tuple[int, int]:
        """Lines hidden ``(above, below)`` the view, a line under a marker included."""
        height = self.scrollable_content_region.height
        total = len(self._spans) + len(self._note_rows)
        if height < MARKERS_FROM or total <= height:
            return 0, 0
        top = self.scroll_offset.y
        above = top + 1 if top > 0 else 0
        below = total - (top + height) + 1 if top + height < total else 0
        return above, below

    def _marker(self, y: int) -> str | None:
        above, below = self.hidden_lines()
        if y == 0 and above:
            return f"↑ {above:,} line{'s' if above != 1 else ''} above · home: first byte"
        if below and y == self.scrollable_content_region.height - 1:
            return f"↓ {below:,} line{'s' if below != 1 else ''} below · end: newest"
        return None

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        index = scroll_y + y
        width = self.scrollable_content_region.width
        base = self._base_style()
        marker = self._marker(y)
        if marker is not None:
            text = line([(marker, self.get_component_rich_style("argview--marker"))])
            text.stylize_before(base)
            return Strip(list(text.render(self.app.console)), text.cell_len).crop_extend(0, width, base)
        if index >= len(self._spans):
            k = index - len(self._spans)
            if 0 <= k < len(self._note_rows):
                style = "argview--note" if self._spans else "argview--placeholder"
                text = line([(self._note_rows[k], None)], no_wrap=False)
                text.style = self.get_component_rich_style(style)  # under the base style, as it always was
                text.stylize_before(base)
                return Strip(list(text.render(self.app.console)), text.cell_len).crop_extend(0, width, base)
            return Strip.blank(width, base)
        a, b = self._spans[index]
        frag = self._frag if self._frag is not None and self._frag[0] < b and self._frag[1] > a else None
        err = self._error_at if self._error_at is not None and a <= self._error_at < b else None
        trail = self._trailing_at if self._trailing_at is not None and self._trailing_at < b else None
        marks = tuple(m for m in self._marks if m[0] < b and m[1] > a)
        secrets = self._secrets_in(a, b)
        key = (a, b, frag, err, trail, self.pretty, marks, secrets)
        strip = self._cache.get(key)
        if strip is None:
            pieces = self._pieces(a, b, frag, trail, err, marks, secrets)
            text = line(pieces, keep_newlines=self._newlines and not self.pretty)
            text.stylize_before(base)
            strip = Strip(list(text.render(self.app.console)), text.cell_len)
            self._cache[key] = strip
        return strip.crop_extend(scroll_x, scroll_x + width, base)

