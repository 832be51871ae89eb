"""Comparisons of streams: ``timing`` (two streams of the same request on one time axis, e.g. with
and without ``eager_input_streaming``), ``diff/`` (two streams of one answer, in any dialects:
equivalent or not, ``diff``) and ``hops/`` (a gateway's two sides as pairs, each diffed and its
findings given a hop, ``gateway``). Headless: the TUI screens and the CLI render them.
May import: ``inspector.feeds`` and the layers below it.
"""
from __future__ import annotations

from inspector.compare.timing import (Comparison, Pair, StreamAt, StreamTiming, ToolTiming, block_at, chart_series,
                                      compare_captures, compare_sessions, eager_setting, initial_cursor,
                                      pair_tools, render_json, render_text, stream_timing, summarize, tool_timing)

__all__ = ["Comparison", "Pair", "StreamAt", "StreamTiming", "ToolTiming", "block_at", "chart_series",
           "compare_captures", "compare_sessions", "eager_setting", "initial_cursor", "pair_tools", "render_json",
           "render_text", "stream_timing", "summarize", "tool_timing"]
