"""Capture text is made fit to show by one function (``inspector.model.display``), and the TUI has
no other road to the screen than ``inspector/tui/text.py`` (read from its source here: no Textual
is imported). The terminal bytes themselves are checked under Pilot in ``tests/ui/test_hostile.py``."""
from __future__ import annotations

import ast

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from inspector.model.display import BIDI, display_text, json_safe
from tests.conftest import ROOT

TUI = ROOT / "inspector" / "tui"
ROAD = TUI / "text.py"
UNSAFE = {*range(0x00, 0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0), *BIDI, 0x2028, 0x2029}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_display_text_leaves_no_control_no_bidi_and_no_surrogate(text):
    for one in (True, False):
        out = display_text(text, one_line=one)
        assert not [c for c in out if ord(c) in UNSAFE or 0xD800 <= ord(c) < 0xE000 or (one and c == "\n")]
        out.encode("utf-8")  # nothing a terminal's encoder refuses


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.text(st.characters(max_codepoint=0x7F), max_size=200))
def test_display_text_changes_exactly_the_unsafe_characters(text):
    """ASCII text (judged without the character class) and any other text alike: C0, DEL and C1
    as ``\\xNN``, bidi controls, the separators and lone surrogates as ``\\uNNNN``, LF as ``\\n``
    on one line; every other character as it was, and text with none of them as the same object."""
    for one in (True, False):
        def shown(c: str) -> str:
            if c == "\n":
                return "\\n" if one else c
            if ord(c) in UNSAFE:
                return f"\\x{ord(c):02x}" if ord(c) < 0xA0 else f"\\u{ord(c):04x}"
            return f"\\u{ord(c):04x}" if 0xD800 <= ord(c) < 0xE000 else c
        out = display_text(text, one_line=one)
        assert out == "".join(map(shown, text))
        if not any(shown(c) != c or c == "\n" for c in text):  # (text with LF is copied, even unchanged)
            assert out is text


def test_ascii_text_is_judged_without_compiling_the_character_class():
    """Start-up: ``check --format text`` of an ASCII capture compiles no ``_UNSAFE`` (a class with
    2 048 surrogates: ms of ``re``'s compiler); text with other characters still uses it."""
    import subprocess
    import sys
    code = ("from inspector.model import display\n"
            "assert display.display_text('a\\x1bb c') == 'a\\\\x1bb c'\n"
            "assert display.display_text('plain') == 'plain'\n"
            "print('_compiled' in display._UNSAFE.__dict__)\n"
            "display.display_text('\\u00e9')\n"
            "print('_compiled' in display._UNSAFE.__dict__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.split() == ["False", "True"]


def test_display_text_writes_controls_out_visibly():
    assert display_text("\x1b]52;c;aGk=\x07") == "\\x1b]52;c;aGk=\\x07"
    assert display_text("a\x9b2Jb\u202eevil\u2066") == "a\\x9b2Jb\\u202eevil\\u2066"
    assert display_text("two\nlines") == "two\nlines"
    assert display_text("two\nlines", one_line=True) == "two\\nlines"
    assert display_text("\ud800") == "\\ud800"
    clean = "plain text, ünïcödé, 漢字, emoji 👍🏽"
    assert display_text(clean) is clean


def test_json_output_escapes_c1_and_bidi_as_unicode_escapes():
    value = {"stop_reason": "a\x9b2J\u202eb\u2028", "n": 1}
    raw = orjson.dumps(value).decode()
    assert "\x9b" in raw and "\u202e" in raw  # orjson leaves them raw
    out = json_safe(raw)
    assert "\\u009b" in out and "\\u202e" in out and "\\u2028" in out
    assert not any(ord(c) in UNSAFE for c in out)
    assert orjson.loads(out) == value


JSON_ESCAPED = {*range(0x7F, 0xA0), *BIDI, 0x2028, 0x2029}
"""What ``json_safe`` writes as ``\\u…``: DEL, C1, bidi controls and the two separators."""


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200) | st.text(st.characters(max_codepoint=0x7F), max_size=200))
def test_json_safe_escapes_exactly_del_c1_bidi_and_separators(text):
    """ASCII text (DEL is its one character to escape) and any other text alike: each character
    of the set as its escape, every other character as it was, the same value to a reader."""
    raw = orjson.dumps(text).decode()
    out = json_safe(raw)
    assert out == "".join(f"\\u{ord(c):04x}" if ord(c) in JSON_ESCAPED else c for c in raw)
    assert orjson.loads(out) == text
    if not any(ord(c) in JSON_ESCAPED for c in raw):
        assert out is raw


def test_json_safe_escapes_del_in_ascii_text():
    assert json_safe('{"t":"a\x7fb"}') == '{"t":"a\\u007fb"}'


# --------------------------------------------------------------------------- the TUI's one road

_TEXT_ARGS = {"Label", "Static", "Button", "Markdown", "Explanation", "Option"}
"""Widgets whose first argument Textual shows as text (a str is parsed as markup)."""
_TEXT_METHODS = {"update", "notify", "set", "set_parts", "add_row", "update_cell", "replace_option_prompt"}
"""Methods whose arguments Textual (or our TextLine) shows as text."""
_TEXT_ATTRS = {"border_title", "border_subtitle", "title", "sub_title"}
_BANNED_MODULES = {"rich.text", "rich.segment", "textual.content"}
_NOT_TEXT_RECEIVERS = {"series", "_force", "marks", "_cells", "counts", "extra"}
"""``.update`` on these is a dict, set or sparkline series, not a widget."""


def _road_names() -> set[str]:
    tree = ast.parse(ROAD.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}


def _through_road(node: ast.AST, road: set[str]) -> bool:
    """A string constant (the app's own words), None, or a value a builder of the road made."""
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, str)
    if isinstance(node, ast.IfExp):
        return _through_road(node.body, road) and _through_road(node.orelse, road)
    if isinstance(node, ast.Starred):
        return _through_road(node.value, road)
    if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
        return _through_road(node.elt, road)
    if isinstance(node, ast.Call):
        f = node.func
        if isinstance(f, ast.Name):
            return f.id in road
        if isinstance(f, ast.Attribute):  # self._rest(), shown(x).truncate(…), join(…).stylize(…)
            own = isinstance(f.value, ast.Name) and f.value.id == "self" and f.attr in road
            return own or _through_road(f.value, road)
    return False


_SHOWN_TYPES = ("Content", "Text", "Rows", "Hanging", "MarkdownText")
"""Return annotations of a module's own helpers that hand on what the road built (no module but
the road can build these: the rule below bans it)."""


def _helpers(tree: ast.AST) -> set[str]:
    """Functions and classes of the TUI that hand on what the road built."""
    return {n.name for n in ast.walk(tree)
            if (isinstance(n, ast.FunctionDef) and n.returns is not None
                and any(t in ast.unparse(n.returns) for t in _SHOWN_TYPES))
            or (isinstance(n, ast.ClassDef) and n.name in _SHOWN_TYPES)}


def _violations(path, road: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in _BANNED_MODULES:
            out.append(f"{where}:{node.lineno}: imports from {node.module} (build text in inspector/tui/text.py)")
        elif isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in ("Content", "Text", "Segment") or (
                    isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                    and f.value.id in ("Content", "Text", "Segment")):
                out.append(f"{where}:{node.lineno}: builds {ast.unparse(f)} outside the road")
                continue
            if name in _TEXT_ARGS and node.args:
                args = node.args[:1]
            elif (isinstance(f, ast.Attribute) and name in _TEXT_METHODS
                  and not (isinstance(f.value, ast.Attribute) and f.value.attr in _NOT_TEXT_RECEIVERS)
                  and not (isinstance(f.value, ast.Name) and f.value.id in _NOT_TEXT_RECEIVERS)):
                args = node.args[{"update_cell": 2, "replace_option_prompt": 1}.get(name, 0):]
            else:
                continue
            out += [f"{where}:{node.lineno}: {ast.unparse(a)} reaches {name} without the road"
                    for a in args if not _through_road(a, road)]
        elif isinstance(node, ast.Assign):
            for t in node.targets:
                if isinstance(t, ast.Attribute) and t.attr in _TEXT_ATTRS and not _through_road(node.value, road):
                    out.append(f"{where}:{node.lineno}: {ast.unparse(node.value)} set as {t.attr} without the road")
    return out


def test_the_tui_shows_text_only_through_one_road():
    road = _road_names()
    assert {"shown", "assemble", "line", "cell", "notice", "markdown_quote"} <= road
    for path in TUI.rglob("*.py"):
        road |= _helpers(ast.parse(path.read_text(encoding="utf-8")))
    bad = []
    for path in sorted(TUI.rglob("*.py")):
        if path != ROAD:
            bad += _violations(path, road)
    assert bad == [], "\n".join(bad)
