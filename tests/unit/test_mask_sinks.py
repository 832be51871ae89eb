"""Every file and printout made from a capture masks the keys in it, wherever the stream or its
request put them (``tests.keyed_capture``): ``check`` (text, json, github), ``export --to
html|har``, ``diff`` and ``compare`` (text, json). One capture, each sink, no 10 characters of any
key's secret part."""
from __future__ import annotations

import pytest

from inspector.capture.redact import mask_in_place, redact_url, scrub_secrets
from inspector.cli import main
from tests.keyed_capture import keyed_capture, leaked

KEYED, SECRET = keyed_capture()
OTHER, _ = keyed_capture(drop_event=12)  # the same keys, the second argument delta missing: the calls differ inside a key


@pytest.fixture
def files(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(KEYED)
    b.write_text(OTHER)
    return a, b


def test_the_capture_carries_every_key_it_says():
    assert leaked(KEYED, SECRET) == list(SECRET)


@pytest.mark.parametrize("argv", [
    ["check", "{a}"], ["check", "--format", "json", "{a}"], ["check", "--format", "github", "{a}"],
    ["diff", "--format", "text", "{a}", "{b}"], ["diff", "--format", "json", "{a}", "{b}"],
    ["compare", "--format", "text", "{a}", "{b}"], ["compare", "--format", "json", "{a}", "{b}"],
], ids=lambda argv: " ".join(a for a in argv if not a.startswith("{")))
def test_printed_reports_mask_every_key(argv, files, capsys):
    a, b = files
    main([x.format(a=a, b=b) for x in argv])
    out, err = capsys.readouterr()
    assert out.strip()
    assert leaked(out + err, SECRET) == []


@pytest.mark.parametrize("to", ["html", "har"])
def test_exports_mask_every_key(to, files, tmp_path, capsys):
    out = tmp_path / f"out.{to}"
    assert main(["export", "--to", to, str(files[0]), "-o", str(out)]) == 0
    assert leaked(out.read_text(), SECRET) == []


def test_a_url_masks_a_key_wherever_it_is():
    """By place (a parameter named as a secret) and by shape (a key in the path, or in a parameter
    whose name says nothing)."""
    key = "sk-ant-api03-" + "Qw3Er5Ty7Ui9" * 3
    url = f"https://h.example/v1/{key}/messages?note={key}&key=abc123456789&n=1"
    assert redact_url(url) == ("https://h.example/v1/sk-ant-[redacted]/messages?note=sk-ant-[redacted]"
                               "&key=[redacted]&n=1")
    assert redact_url("https://h.example/v1/messages?n=1") == "https://h.example/v1/messages?n=1"


def test_masking_in_place_keeps_every_offset():
    """``mask_in_place``: the same length, a key written with JSON escapes too, a text without a
    key the same object."""
    key = "sk-ant-api03-" + "Qw3Er5Ty7Ui9" * 3
    text = f'{{"a": "{key}", "b": "sk-\\u0061nt-api03-{"Zx8Cv6Bn4" * 4}", "c": 1}}'
    masked = mask_in_place(text)
    assert len(masked) == len(text) and masked.index('"c": 1') == text.index('"c": 1')
    assert "Qw3Er5" not in masked and "Zx8Cv6" not in masked
    assert masked.count("sk-ant-[redacted]") == 2
    plain = '{"a": "no key here", "b": "\\u00e9\\u003c"}'
    assert mask_in_place(plain) is plain and scrub_secrets(plain) is plain


def test_an_otel_span_masks_every_key_also_with_the_messages_on_it():
    from inspector.report.spans import span_for
    from tests.helpers import check_bytes

    span = span_for(check_bytes(KEYED.encode()), start=1.0, content=True)
    shown = repr(span)
    assert "gen_ai.output.messages" in shown
    assert leaked(shown, SECRET) == []


def test_a_quote_cut_short_masks_the_key_before_the_cut():
    """A finding that quotes arguments cuts them (``clipped``): cut first, an OpenAI key's first 19
    characters would no longer look like a key (20 at least) and show unmasked."""
    from inspector.capture.redact import clipped
    from inspector.session.rules.schemas import _short

    key = "sk-proj-" + "a1b2c3d4e5" * 4
    text = "x" * 50 + " " + key + " and more"
    assert clipped(text, 70) == ("x" * 50 + " sk-[redacted] and more")[:70] + "…"
    assert "a1b2c3d4" not in clipped("y" * 150 + " " + key, 170)
    assert "a1b2c3d4" not in _short("z" * 140 + f" '{key}' is too long")
    assert clipped("plain words", 5) == "plain…"


@pytest.mark.parametrize("command", [["check"], ["serve"], ["export", "--to", "har"], ["diff", "{f}"],
                                     ["compare", "--format", "json", "{f}"]], ids=lambda c: c[0])
def test_messages_on_stderr_mask_keys(command, tmp_path, monkeypatch, capsys):
    # a message quotes what it was given: a file named after a key (a capture saved by its key's name)
    monkeypatch.chdir(tmp_path)
    name = "sk-ant-api03-" + "Zx8Cv6Bn4Ml2" * 3 + ".jsonl"
    assert main([a.format(f=name) for a in command] + [name]) == 2
    err = capsys.readouterr().err
    assert "sk-ant-[redacted]" in err and "Zx8Cv6Bn4Ml2" not in err
