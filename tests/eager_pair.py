"""Builds the bundled eager-streaming pair: the same tool call, buffered and streamed.

Why this module exists: ``compare`` and the demo ship two native captures in
``inspector/data/captures`` (``eager-off-buffered.jsonl`` and ``eager-on-streamed.jsonl``) that must
be reproducible and whose timing the tests assert against. ``python -m tests.eager_pair``
rewrites them; ``tests/unit/test_compare.py`` checks the committed files still match.

The story (same request body except ``eager_input_streaming`` on the tool, PROTOCOLS.md §1
"Eager / fine-grained tool streaming"):

- *buffered* (``eager_input_streaming: false``): a short text block, the ``write_file`` tool block
  opens at 0.80 s, then nothing for 12 s (the API buffers the parameters), then all the argument
  text (~6 kB) in a 0.40 s burst from 12.80 s to 13.20 s, several events per network read;
- *streamed* (``eager_input_streaming: true``): the same arguments in small deltas from 0.90 s to
  9.00 s, one event per read (a few reads split an event in two), with one 0.62 s pause: every
  accumulated state is a valid JSON prefix (the eager run's partial states, shown honestly).
"""
from __future__ import annotations

import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CAPTURES = ROOT / "inspector" / "data" / "captures"
BUFFERED = "eager-off-buffered.jsonl"
STREAMED = "eager-on-streamed.jsonl"

MODEL = "claude-sonnet-4-5"

# What the tests assert (seconds from the request, as built below).
BUFFERED_TOOL_START = 0.80
BUFFERED_FIRST_ARG_BYTE = 12.80
BUFFERED_LAST_ARG_BYTE = 13.20
STREAMED_TOOL_START = 0.86
STREAMED_FIRST_ARG_BYTE = 0.90
STREAMED_LAST_ARG_BYTE = 9.00
STREAMED_PAUSE = 0.62

FILE_TEXT = '''"""Settings for the inventory service, read once at start-up.

Values come from the environment (INVENTORY_*), then from an optional TOML file, then from the
defaults below — nothing here talks to the network.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_CONFIG = Path("/etc/inventory/settings.toml")


class SettingsError(Exception):
    """A setting is missing or malformed; the message names it."""


@dataclass(frozen=True)
class Database:
    url: str = "postgresql://localhost:5432/inventory"
    pool_min: int = 2
    pool_max: int = 10
    statement_timeout_s: float = 30.0

    def validate(self) -> None:
        if not self.url.startswith(("postgresql://", "postgres://")):
            raise SettingsError(f"database.url must be a PostgreSQL URL, got {self.url!r}")
        if not 0 < self.pool_min <= self.pool_max:
            raise SettingsError("database.pool_min must be > 0 and <= pool_max")


@dataclass(frozen=True)
class Cache:
    backend: str = "memory"
    ttl_s: int = 300
    max_entries: int = 50_000

    def validate(self) -> None:
        if self.backend not in ("memory", "redis"):
            raise SettingsError(f"cache.backend must be memory or redis, got {self.backend!r}")
        if self.ttl_s <= 0:
            raise SettingsError("cache.ttl_s must be positive")


@dataclass(frozen=True)
class Notifications:
    email_from: str = "inventory@example.com"
    low_stock_recipients: tuple[str, ...] = ()
    batch_window_s: int = 900

    def validate(self) -> None:
        if "@" not in self.email_from:
            raise SettingsError(f"notifications.email_from is not an address: {self.email_from!r}")
        for r in self.low_stock_recipients:
            if "@" not in r:
                raise SettingsError(f"notifications.low_stock_recipients: not an address: {r!r}")
        if not 60 <= self.batch_window_s <= 86_400:
            raise SettingsError("notifications.batch_window_s must be between 60 and 86400")


@dataclass(frozen=True)
class Settings:
    environment: str = "development"
    log_level: str = "INFO"
    database: Database = field(default_factory=Database)
    cache: Cache = field(default_factory=Cache)
    notifications: Notifications = field(default_factory=Notifications)
    allowed_origins: tuple[str, ...] = ("http://localhost:3000",)
    reorder_threshold: int = 12

    def validate(self) -> None:
        if self.environment not in ("development", "staging", "production"):
            raise SettingsError(f"environment: unknown value {self.environment!r}")
        if self.log_level not in ("DEBUG", "INFO", "WARNING", "ERROR"):
            raise SettingsError(f"log_level: unknown level {self.log_level!r}")
        if self.environment == "production" and "localhost" in self.database.url:
            raise SettingsError("production must not use a localhost database")
        self.database.validate()
        self.cache.validate()
        self.notifications.validate()


def _from_env(env: dict[str, str]) -> dict:
    out: dict = {}
    if "INVENTORY_ENV" in env:
        out["environment"] = env["INVENTORY_ENV"]
    if "INVENTORY_LOG_LEVEL" in env:
        out["log_level"] = env["INVENTORY_LOG_LEVEL"].upper()
    if "INVENTORY_DATABASE_URL" in env:
        out.setdefault("database", {})["url"] = env["INVENTORY_DATABASE_URL"]
    if "INVENTORY_CACHE_BACKEND" in env:
        out.setdefault("cache", {})["backend"] = env["INVENTORY_CACHE_BACKEND"]
    if "INVENTORY_ALLOWED_ORIGINS" in env:
        origins = [o.strip() for o in env["INVENTORY_ALLOWED_ORIGINS"].split(",") if o.strip()]
        out["allowed_origins"] = tuple(origins)
    return out


def _from_file(path: Path) -> dict:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: not valid TOML: {e}") from None


def _merge(base: dict, override: dict) -> dict:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load(path: Path | None = None, env: dict[str, str] | None = None) -> Settings:
    """Settings from the file at ``path`` (default DEFAULT_CONFIG) overridden by the environment."""
    env = dict(os.environ) if env is None else env
    raw = _merge(_from_file(path or DEFAULT_CONFIG), _from_env(env))
    try:
        settings = Settings(
            environment=raw.get("environment", "development"),
            log_level=raw.get("log_level", "INFO"),
            database=Database(**raw.get("database", {})),
            cache=Cache(**raw.get("cache", {})),
            notifications=Notifications(**raw.get("notifications", {})),
            allowed_origins=tuple(raw.get("allowed_origins", ("http://localhost:3000",))),
            reorder_threshold=int(raw.get("reorder_threshold", 12)),
        )
    except TypeError as e:  # an unknown key in a section
        raise SettingsError(f"unknown setting: {e}") from None
    settings.validate()
    return settings


def describe(settings: Settings) -> str:
    """A short summary for the start-up log (the database password is masked)."""
    url = settings.database.url
    if "@" in url:
        scheme, _, rest = url.partition("://")
        creds, _, host = rest.rpartition("@")
        url = f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
    return "\\n".join([
        f"environment    {settings.environment}",
        f"log level      {settings.log_level}",
        f"database       {url} (pool {settings.database.pool_min}-{settings.database.pool_max})",
        f"cache          {settings.cache.backend}, ttl {settings.cache.ttl_s} s",
        f"origins        {', '.join(settings.allowed_origins)}",
        f"reorder below  {settings.reorder_threshold} units",
    ])
'''

ARGUMENTS = json.dumps({"path": "inventory/settings.py", "content": FILE_TEXT}, ensure_ascii=False)
"""The tool call's argument text, identical in both captures."""

TOOLS = [{
    "name": "write_file",
    "description": "Create or overwrite a text file in the repository.",
    "input_schema": {"type": "object", "properties": {
        "path": {"type": "string", "description": "Path relative to the repository root"},
        "content": {"type": "string", "description": "The whole new file content"}},
        "required": ["path", "content"]},
}]
PROMPT = ("Write inventory/settings.py: dataclass settings (database, cache) loaded from "
          "/etc/inventory/settings.toml with INVENTORY_* environment overrides, validated on load.")
TEXT = "I'll write the settings module with a loader and validation."


def request(eager: bool) -> dict:
    """The request both captures share, differing only in ``eager_input_streaming``; no secrets."""
    return {"method": "POST", "url": "https://api.anthropic.com/v1/messages",
            "headers": {"content-type": "application/json", "accept": "text/event-stream",
                        "anthropic-version": "2023-06-01", "x-api-key": "[redacted]"},
            "body": {"model": MODEL, "max_tokens": 8192, "stream": True,
                     "tools": [dict(t, eager_input_streaming=eager) for t in TOOLS],
                     "messages": [{"role": "user", "content": PROMPT}]}}


def _ev(payload: dict) -> str:
    return f"event: {payload['type']}\ndata: {json.dumps(payload, separators=(',', ':'), ensure_ascii=False)}\n\n"


def _delta(index: int, delta: dict) -> str:
    return _ev({"type": "content_block_delta", "index": index, "delta": delta})


def _head(mid: str, t0: float, rng: random.Random) -> list[tuple[float, str]]:
    """message_start, ping, the text block and the tool block's start (+ the empty first delta)."""
    ev = [(t0, _ev({"type": "message_start", "message": {
        "id": mid, "type": "message", "role": "assistant", "model": MODEL, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 1183, "output_tokens": 2}}}) + _ev({"type": "ping"}))]
    t = t0 + 0.09
    ev.append((t, _ev({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})))
    words = TEXT.split(" ")
    for i in range(0, len(words), 2):
        t += 0.03 + rng.random() * 0.02
        piece = " ".join(words[i:i + 2]) + (" " if i + 2 < len(words) else "")
        ev.append((t, _delta(0, {"type": "text_delta", "text": piece})))
    return ev


def _tool_start(index: int) -> str:
    return (_ev({"type": "content_block_start", "index": index, "content_block": {
        "type": "tool_use", "id": "toolu_01WqpDemoEagerPair", "name": "write_file", "input": {}}})
        + _delta(index, {"type": "input_json_delta", "partial_json": ""}))


def _tail(t: float, index: int) -> list[tuple[float, str]]:
    return [(t, _ev({"type": "content_block_stop", "index": index})),
            (round(t + 0.02, 3), _ev({"type": "message_delta", "delta": {"stop_reason": "tool_use",
                                                                          "stop_sequence": None},
                                      "usage": {"output_tokens": 1642}}) + _ev({"type": "message_stop"}))]


def _native(req: dict, chunks: list[tuple[float, str]], end_t: float) -> str:
    head = {"format": "stream-inspector-capture", "version": 1, "request": req,
            "response": {"status": 200, "headers": {
                "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache",
                "request-id": "req_011CDemoEagerPair" + ("On" if req["body"]["tools"][0]["eager_input_streaming"]
                                                         else "Off")}}}
    lines = [json.dumps(head, ensure_ascii=False)]
    lines += [json.dumps({"t": round(t, 3), "data": d}, ensure_ascii=False) for t, d in chunks]
    lines.append(json.dumps({"t": round(end_t, 3), "end": "eof"}))
    return "\n".join(lines) + "\n"


def buffered() -> str:
    rng = random.Random(3)
    chunks = _head("msg_01DemoEagerOff", 0.41, rng)
    chunks.append((0.74, _ev({"type": "content_block_stop", "index": 0})))
    chunks.append((BUFFERED_TOOL_START, _tool_start(1)))
    # 12 s of silence, then the whole argument text in ~200-byte deltas, 2-4 events per read.
    frags, i = [], 0
    while i < len(ARGUMENTS):
        n = rng.randint(150, 260)
        frags.append(ARGUMENTS[i:i + n])
        i += n
    reads, k = [], 0
    while k < len(frags):
        m = rng.randint(2, 4)
        reads.append(frags[k:k + m])
        k += m
    span = BUFFERED_LAST_ARG_BYTE - BUFFERED_FIRST_ARG_BYTE
    for r, group in enumerate(reads):
        t = BUFFERED_FIRST_ARG_BYTE + span * r / (len(reads) - 1)
        chunks.append((t, "".join(_delta(1, {"type": "input_json_delta", "partial_json": f}) for f in group)))
    chunks += _tail(13.21, 1)
    return _native(request(False), chunks, 13.24)


def streamed() -> str:
    rng = random.Random(4)
    chunks = _head("msg_01DemoEagerOn", 0.43, rng)
    chunks.append((0.82, _ev({"type": "content_block_stop", "index": 0})))
    chunks.append((STREAMED_TOOL_START, _tool_start(1)))
    frags, i = [], 0
    while i < len(ARGUMENTS):
        n = rng.choice((3, 5, 8, 12, 16, 21, 27, 34, 40))
        frags.append(ARGUMENTS[i:i + n])
        i += n
    pause_at = len(frags) // 2
    # Spread the deltas over [first, last] with jitter; one longer pause half-way through.
    steps = [0.5 + rng.random() for _ in frags[1:]]
    budget = STREAMED_LAST_ARG_BYTE - STREAMED_FIRST_ARG_BYTE - STREAMED_PAUSE
    scale = budget / (sum(steps) - steps[pause_at - 1])
    t = STREAMED_FIRST_ARG_BYTE
    times = [t]
    for j, s in enumerate(steps, start=1):
        t += STREAMED_PAUSE if j == pause_at else s * scale
        times.append(t)
    times[-1] = STREAMED_LAST_ARG_BYTE
    for j, (t, f) in enumerate(zip(times, frags)):
        data = _delta(1, {"type": "input_json_delta", "partial_json": f})
        if j % 37 == 18:  # a network read that splits the event in two
            cut = len(data) // 2
            chunks.append((round(t - 0.004, 3), data[:cut]))
            data = data[cut:]
        chunks.append((t, data))
    chunks += _tail(9.02, 1)
    return _native(request(True), chunks, 9.05)


PAIR = {BUFFERED: buffered, STREAMED: streamed}


def write(directory: Path = CAPTURES) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    out = []
    for name, make in PAIR.items():
        path = directory / name
        path.write_text(make(), encoding="utf-8")
        out.append(path)
    return out


if __name__ == "__main__":  # python -m tests.eager_pair
    for p in write():
        print(p)
