"""The one road from a string to the screen: every text a widget shows is made here.

Why this module exists: strings from a capture (model names, ids, stop reasons, errors, event
types, headers, URLs, tool names, arguments, text) are written by strangers; an escape sequence in
one of them, drawn raw, would drive the user's terminal (OSC 52 writes the clipboard), and markup
in one of them (``[link=…]``) would make Textual emit an OSC 8 hyperlink. So no other module of
the TUI builds Textual ``Content``, Rich ``Text`` or ``Segment``s, or hands Textual a string to
parse as markup (``tests/unit/test_display.py`` reads the TUI's source to hold it): every piece
of text goes through these builders, which pass every string through
``inspector.model.display.display_text`` and never parse markup. The same road masks secrets
(``inspector.capture.redact.scrub_secrets``): a tool name, an id, a stop reason, a schema
violation quoting an argument can be key-shaped, and screens are shared in bug reports. (A view
that cuts text into pieces before it gets here masks in place first: ``ArgumentView``.) The app's own words go through
them too (they contain nothing to escape); ``Content`` made here passes through unchanged.
"""
from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.markup import escape as _escape_markup

from inspector.capture.redact import scrub_secrets
from inspector.model.display import display_text as _display_text

__all__ = ["Content", "Text", "assemble", "cell", "join", "line", "markdown_quote", "notice", "one_line",
           "segment", "shown", "words"]

Piece = "str | Content | tuple[str | Content, str]"
"""What ``assemble`` takes: text, content made here, or ``(text, style)``."""

def display_text(value: object, *, one_line: bool = False) -> str:
    """``value`` as the screen may show it: secrets masked, then controls escaped (``display_text``)."""
    return _display_text(scrub_secrets(value if isinstance(value, str) else str(value)), one_line=one_line)


NEWLINE_PICTURE = "\u240a"
"""LF shown as one visible character (␊), where a view keeps each record on one row."""


def shown(value: object, style: str = "") -> Content:
    """``value`` (any object: ``str()`` of it) as Content, controls escaped, LF kept; Content
    made here comes back as it is (restyled when ``style`` is given)."""
    if isinstance(value, Content):
        return value.stylize(style) if style else value
    return Content.styled(display_text(value), style) if style else Content(display_text(value))


def one_line(value: object, style: str = "") -> Content:
    """Like ``shown``, LF escaped too (``\\n``): for a title, a cell, a heading."""
    if isinstance(value, Content):
        return value.stylize(style) if style else value
    text = display_text(value, one_line=True)
    return Content.styled(text, style) if style else Content(text)


def _piece(p) -> Content | tuple[str, str] | str:
    if isinstance(p, Content):
        return p
    if isinstance(p, tuple):
        text, style = p
        return shown(text, style) if isinstance(text, Content) else (display_text(text), style)
    return display_text(p)


def assemble(*pieces) -> Content:
    """``Content.assemble`` over ``pieces`` (each text, Content made here, or ``(text, style)``),
    every string escaped."""
    return Content.assemble(*(_piece(p) for p in pieces))


def join(separator: str, items) -> Content:
    """``items`` (texts or Content made here) joined by ``separator``."""
    return Content(display_text(separator)).join([shown(it) for it in items])


def line(pieces, *, keep_newlines: bool = False, no_wrap: bool = True) -> Text:
    """A Rich ``Text`` (for a ``render_line`` view) of ``(text, style)`` pieces, every string
    escaped; LF becomes ␊ unless ``keep_newlines``."""
    out = Text(no_wrap=no_wrap, end="")
    for text, style in pieces:
        text = display_text(text)
        out.append(text if keep_newlines else text.replace("\n", NEWLINE_PICTURE), style)
    return out


def cell(value: object, style: str | Style = "") -> Text:
    """One table cell (a ``DataTable`` would parse a string as markup): escaped, one line; a
    ``Text`` made here comes back as it is."""
    if isinstance(value, Text):
        return value
    return Text(display_text(value, one_line=True), style=style, end="")


def segment(text: str, style: Style | None = None) -> Segment:
    """One ``Segment`` of ``text`` (escaped) for a widget that renders segments itself."""
    return Segment(display_text(text, one_line=True), style)


def words(value: object) -> str:
    """A plain one-line string for a property Textual shows without parsing markup (the app's
    title, an input's value): escaped."""
    return display_text(value, one_line=True)


def notice(value: object) -> str:
    """A notification's text (``App.notify`` parses markup): escaped, markup quoted."""
    return _escape_markup(display_text(value))


MarkdownText = str
"""Markdown a screen shows: the app's own words, and capture text only through ``markdown_quote``."""

_MARKDOWN_SPECIAL = {ord(c): "\\" + c for c in "\\`*_{}[]()<>#+-.!|~&"}


def markdown_quote(value: object) -> str:
    """``value`` as literal text inside Markdown: escaped, and every Markdown punctuation
    character backslash-quoted (no link, image, HTML or emphasis can come from it)."""
    return display_text(value).translate(_MARKDOWN_SPECIAL)
