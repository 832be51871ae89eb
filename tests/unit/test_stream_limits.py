"""``--max-bytes``/``--keep-bytes`` sizes and the end texts of ``inspector.net.limits``."""
from __future__ import annotations

import pytest

from inspector.cli.parser import build_parser
from inspector.net.limits import MAX_BYTES, StreamLimits, human_size, parse_size


@pytest.mark.parametrize("text, n", [("1000", 1000), ("64M", 64 * 2**20), ("64MiB", 64 * 2**20), ("1.5g", 3 * 2**29),
                                     ("10 KB", 10 * 1024), ("2k", 2048)])
def test_sizes(text, n):
    assert parse_size(text) == n


@pytest.mark.parametrize("text", ["", "ten", "-5", "0", "5X", "1e3"])
def test_bad_sizes_are_refused(text):
    with pytest.raises(ValueError):
        parse_size(text)


def test_human_size():
    assert [human_size(n) for n in (1000, 1024, 1536, 64 * 2**20, 2**30)] == \
        ["1000 bytes", "1 KiB", "1.5 KiB", "64 MiB", "1 GiB"]


def test_end_texts_name_the_option():
    limits = StreamLimits(max_bytes=2048, max_duration=1.5)
    assert limits.bytes_reached(2000).startswith("cut at --max-bytes 2 KiB")
    assert limits.duration_reached().startswith("cut at --max-duration 1.5 s")


@pytest.mark.parametrize("command", [["live", "--provider", "anthropic", "--request", "r.json"],
                                     ["proxy", "--upstream", "http://127.0.0.1:1"], ["run", "--", "true"]])
def test_live_proxy_and_run_have_the_limits_with_defaults(command):
    args = build_parser().parse_args(command)
    assert args.max_bytes == MAX_BYTES and args.max_duration is None
    args = build_parser().parse_args([*command[:1], "--max-bytes", "1G", "--max-duration", "30", *command[1:]])
    assert args.max_bytes == 2**30 and args.max_duration == 30.0


def test_bad_size_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as e:
        build_parser().parse_args(["proxy", "--upstream", "http://127.0.0.1:1", "--keep-bytes", "lots"])
    assert e.value.code == 2
    assert "not a size" in capsys.readouterr().err
